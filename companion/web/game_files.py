"""What each game keeps in its own package (companion/games/<game>/, and the package of the
family it builds on): its templates, found under "games/<slug>/…" (a family's under
"games/<family>/…"), and its styles and script, served together as /games.css and
/games.js. Adding a game adds them without touching the shared templates, static/app.css or
static/app.js. The two addresses carry a hash of their content: phones keep them for a year
and fetch them again only when a game's files changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, request, url_for
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader

from ..games import GAMES

bp = Blueprint("game_files", __name__)
BUNDLES = {"css": ("style.css", "text/css"), "js": ("script.js", "text/javascript")}


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_loader = ChoiceLoader([app.jinja_loader, games_templates()])
    app.jinja_env.globals["game_styles_url"] = lambda: url_for("game_files.bundle", kind="css", v=_bundle("css")[1])
    app.jinja_env.globals["game_script_url"] = lambda: url_for("game_files.bundle", kind="js", v=_bundle("js")[1])


def packages() -> dict[str, Path]:
    """Every game's packages (Game.packages), by the name their templates go by."""
    found: dict[str, Path] = {}
    for game in GAMES.values():
        found.update(game.packages())
    return found


def games_templates() -> BaseLoader:
    """"games/<name>/<template>" from that package's templates/ folder."""
    return PrefixLoader(
        {"games": PrefixLoader({name: FileSystemLoader(folder / "templates") for name, folder in packages().items()})}
    )


def _bundle(kind: str) -> tuple[str, str]:
    """The games' files of that kind (style.css, script.js) in registry order, a family's
    once, and their hash; read once per app."""
    key = f"companion.games.{kind}"
    kept = current_app.extensions.get(key)
    if kept is None:
        name = BUNDLES[kind][0]
        seen, parts = set(), []
        for game in GAMES.values():
            for path in game.files_named(name):
                if path not in seen:
                    seen.add(path)
                    parts.append(f"/* ==== {path.parent.name}/{name} ==== */\n{path.read_text(encoding='utf-8').strip()}\n")
        text = "\n".join(parts)
        kept = current_app.extensions[key] = (text, hashlib.sha256(text.encode()).hexdigest()[:12])
    return kept


@bp.get("/games.<any(css, js):kind>")
def bundle(kind: str):
    text, tag = _bundle(kind)
    response = Response(text, mimetype=BUNDLES[kind][1])
    response.set_etag(tag)
    response.cache_control.public = True
    if request.args.get("v") == tag:  # the versioned address never changes its content
        response.cache_control.max_age = 31536000
        response.cache_control.immutable = True
    return response.make_conditional(request)

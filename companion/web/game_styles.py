"""Each game's own look, kept in its template folder (templates/games/<slug>/style.css)
and served together as one stylesheet, so adding a game adds its styles without touching
static/app.css. The address carries a hash of the content: phones keep it for a year and
fetch it again only when a game's styles changed."""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, current_app, request, url_for
from jinja2 import TemplateNotFound

from ..games import GAMES

bp = Blueprint("game_styles", __name__)


def install(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["game_styles_url"] = lambda: url_for("game_styles.stylesheet", v=_stylesheet()[1])


def _stylesheet() -> tuple[str, str]:
    """The games' styles in registry order, and their hash; read once per app."""
    kept = current_app.extensions.get("companion.game_styles")
    if kept is None:
        parts = []
        for slug in GAMES:
            try:
                source, _, _ = current_app.jinja_loader.get_source(current_app.jinja_env, f"games/{slug}/style.css")
            except TemplateNotFound:
                continue  # a game may look right with the shared styles alone
            parts.append(f"/* ==== {slug} (templates/games/{slug}/style.css) ==== */\n{source.strip()}\n")
        text = "\n".join(parts)
        kept = current_app.extensions["companion.game_styles"] = (text, hashlib.sha256(text.encode()).hexdigest()[:12])
    return kept


@bp.get("/games.css")
def stylesheet():
    text, tag = _stylesheet()
    response = Response(text, mimetype="text/css")
    response.set_etag(tag)
    response.cache_control.public = True
    if request.args.get("v") == tag:  # the versioned address never changes its content
        response.cache_control.max_age = 31536000
        response.cache_control.immutable = True
    return response.make_conditional(request)

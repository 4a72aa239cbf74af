"""docs/architecture.md: a game is one package (its engine, templates, styles, script, guides
and scenes), found by itself, or offered by another installed package through the entry
point group "companion.games"; nothing else in the companion names it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.paths import PROJECT_ROOT

OTHER_PACKAGES = Path(__file__).resolve().parent / "game_packages"  # installed by the test below
# Where a game could be named: the companion's code, shared templates, styles and scripts,
# and how it is built. Documentation (README, docs/) and tests name the games on purpose.
CODE = ("*.py", "*.html", "*.css", "*.js", "*.toml")


def code_files() -> list[Path]:
    found = [PROJECT_ROOT / "pyproject.toml", PROJECT_ROOT / "setup.py"]
    for folder in ("companion", "templates", "static"):
        for pattern in CODE:
            found += (PROJECT_ROOT / folder).rglob(pattern)
    return found


def owned_files(slug: str) -> set[Path]:
    """The files a game owns: its package, whole."""
    return {path for path in GAMES[slug].packages()[slug].rglob("*") if path.is_file() and "__pycache__" not in path.parts}


@pytest.mark.parametrize("slug", GAMES)
def test_a_game_owns_its_engine_templates_styles_guides_and_nothing_outside_names_it(slug):
    owned = owned_files(slug)
    package = GAMES[slug].packages()[slug]
    kinds = {path.relative_to(package).parts[0] for path in owned}
    assert {"__init__.py", "templates", "guide"} <= kinds, sorted(kinds)
    naming = [
        path.relative_to(PROJECT_ROOT) for path in code_files()
        if path not in owned and any(name in path.read_text(encoding="utf-8") for name in (slug, f"games.{package.name}", f"games/{package.name}"))
    ]
    assert naming == [], f"{slug} is named outside its package: {naming}"


def test_the_worm_dice_family_is_one_package_its_games_build_on():
    for slug in ("pickomino", "heckmeck-barbecue"):
        assert list(GAMES[slug].packages()) == ["wormdice", slug]
        assert [path.parent.name for path in GAMES[slug].files_named("script.js")] == ["wormdice"]


def test_a_game_from_another_installed_package_plays_with_everything_the_companion_has(tmp_path):
    """Tally, a package of its own (tests/game_packages/tally) with an entry point
    "companion.games", is found, offered on the start form, played to its end through the
    pages, and served its templates, styles, script and guide, with no line of the companion
    changed."""
    program = r"""
import json, re
from companion.web.app import create_app
from companion.games import GAMES
app = create_app({"DATABASE": DATABASE, "SECRET_KEY": "tally", "TESTING": True})
client = app.test_client()
seen = {"registry": list(GAMES), "home": "Tally" in client.get("/").text}
created = client.post("/api/tables", json={"game": "tally", "players": ["Ana", "Bruno"]}).get_json()
page = client.get(f"/j/{created['seats'][0]['token']}", follow_redirects=True).text
seen["board"] = "tally-points" in page
seen["button"] = "A point" in page
for seat in [0, 1, 0, 1, 0]:
    token = created["seats"][seat]["token"]
    client.post(f"/api/tables/{created['id']}/actions", json={"type": "point"}, headers={"Authorization": "Bearer " + token})
table = client.get(f"/api/tables/{created['id']}").get_json()
seen["winner"] = table["ranking"][0]["name"]
seen["styles"] = ".tally-score" in client.get("/games.css").text
seen["script"] = "dataset.tally" in client.get("/games.js").text
seen["guide"] = "the first to three wins" in client.get("/rules/tally").text
seen["openapi"] = "TallyPoint" in client.get("/api/openapi.json").text
print(json.dumps(seen))
""".replace("DATABASE", repr(str(tmp_path / "companion.sqlite3")))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(OTHER_PACKAGES), os.environ.get("PYTHONPATH", "")]),
           "COMPANION_INSTANCE": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "tally" in seen.pop("registry")
    assert seen == {"home": True, "board": True, "button": True, "winner": "Ana", "styles": True, "script": True,
                    "guide": True, "openapi": True}


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_plays_its_screen_scenes_late_and_finished_at_every_player_count(slug, client):
    """The tables the TV tests build come from the game's package (Game.screen_scenes),
    entered through the API as those tests do, on tables dealt as real ones are: at every
    player count, "late" is still in play and "finished" is over with a ranking."""
    game = GAMES[slug]
    for players in range(game.min_players, game.max_players + 1):
        names = tuple(f"Player {seat + 1}" for seat in range(players))
        for phase, scene in game.screen_scenes(names).items():
            assert scene.players == names
            created = client.post("/api/tables", json={"game": slug, "players": list(names), "options": scene.options})
            assert created.status_code == 201, created.text
            table, host = created.json["id"], created.json["host_token"]
            view = created.json
            for seat, action in scene.actions:
                answer = client.post(f"/api/tables/{table}/actions", json={**action, "seat": seat},
                                     headers={"Authorization": f"Bearer {host}"})
                assert answer.status_code == 200, (slug, players, phase, action, answer.text)
                view = answer.json
            assert view["status"] == ("finished" if phase == "finished" else "playing"), (slug, players, phase)
            assert (view["ranking"] is not None) == (phase == "finished")

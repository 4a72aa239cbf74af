"""Each game's styles live in its template folder and reach the phones as one stylesheet
(companion/web/game_styles.py), linked from every page under a versioned address."""

from __future__ import annotations

import re

from companion.paths import PROJECT_ROOT
from companion.games import GAMES


def test_every_page_links_the_games_stylesheet_which_holds_each_games_own_styles(client):
    page = client.get("/").get_data(as_text=True)
    address = re.search(r'<link rel="stylesheet" href="(/games\.css\?v=\w+)">', page).group(1)
    styles = client.get(address)
    assert styles.status_code == 200 and styles.mimetype == "text/css"
    assert "immutable" in styles.headers["Cache-Control"] and "max-age=31536000" in styles.headers["Cache-Control"]
    text = styles.get_data(as_text=True)
    for slug in GAMES:
        own = PROJECT_ROOT / "templates" / "games" / slug / "style.css"
        if own.exists():
            assert own.read_text().strip() in text


def test_the_games_stylesheet_answers_not_modified_to_a_phone_that_has_it(client):
    first = client.get("/games.css")
    assert "immutable" not in first.headers.get("Cache-Control", "")  # the unversioned address may change
    again = client.get("/games.css", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304

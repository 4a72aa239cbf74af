"""The table pages read as a document to a screen reader: one h1 (the game and the table),
and headings that go down one level at a time, at every scene of every game (Game.scenes),
for a seat's phone and the table screen."""

from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from played import play_scene

SCENES = [(slug, name) for slug, game in GAMES.items() for name in game.scenes()]
HEADING = re.compile(r"<h([1-6])\b")


def levels(page: str) -> list[int]:
    return [int(level) for level in HEADING.findall(page)]


@pytest.mark.parametrize("slug, name", SCENES, ids=[f"{slug}-{name}" for slug, name in SCENES])
def test_every_table_page_has_one_h1_and_no_heading_level_skipped(app, client, slug, name):
    scene = GAMES[slug].scenes()[name]
    table = play_scene(client, slug, scene)
    phone = app.test_client()
    assert phone.get(f"/j/{table.seats[scene.seen_by]}").status_code == 303
    for address in (f"/t/{table.id}", f"/t/{table.id}/screen"):
        found = levels(phone.get(address).text)
        assert found.count(1) == 1 and found[0] == 1, (address, found)
        skipped = [(before, after) for before, after in zip(found, found[1:]) if after > before + 1]
        assert not skipped, (address, found)

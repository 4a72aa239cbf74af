"""Tables brought through the JSON API to late points of each game, with long names, for
the table screen's tests (test_table_screen_fit_browser.py): a game late in play (many
tiles held, many crosses, a turn under way) and a finished game whose ranking explains a
tie, as each game's package plays them (Game.screen_scenes), at every player count it
allows."""

from __future__ import annotations

import functools
from typing import Any, Callable

import requests

from companion.games import GAMES

# Realistic long names (the start form allows 24 characters): names of two words, and one
# single word of 24 letters that cannot wrap; as many as the game seating the most takes.
NAMES = (
    "Maria-Madalena Fonseca",
    "Wolfeschlegelsteinhausen",
    "Bartholomew",
    "Guilhermina",
    "Constantin von Habsburg",
    "Evangelina",
    "Friedrich",
    "Anastasia Papadopoulou",
    "Jean-Baptiste Lefebvre",
    "Maximiliane",
    "Oluwaseun Adeyemi",
    "Kristóf Szabó-Nagy",
)
PHASES = ("late", "finished")


class ApiTable:
    """A table on a live server, each action entered by the host for a seat."""

    def __init__(self, url: str, slug: str, players: int, options: dict | None = None):
        self.url = url
        created = requests.post(
            url + "/api/tables", json={"game": slug, "players": list(NAMES[:players]), "options": options or {}}, timeout=10
        )
        assert created.status_code == 201, created.text
        self.id = created.json()["id"]
        self.host = created.json()["host_token"]
        self.join_urls = [seat["join_url"] for seat in created.json()["seats"]]
        self.view = requests.get(f"{url}/api/tables/{self.id}", timeout=10).json()

    @property
    def state(self) -> dict[str, Any]:
        return self.view["state"]

    def act(self, seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
        body = action if seat is None else {**action, "seat": seat}
        answer = requests.post(
            f"{self.url}/api/tables/{self.id}/actions", json=body,
            headers={"Authorization": f"Bearer {self.host}"}, timeout=10,
        )
        assert answer.status_code == 200, (body, answer.text)
        self.view = answer.json()
        return self.view


def built(url: str, slug: str, players: int, phase: str) -> ApiTable:
    """The game's screen scene (Game.screen_scenes, in its package) at `players` players with
    the long names, entered through the API."""
    scene = GAMES[slug].screen_scenes(NAMES[:players])[phase]
    table = ApiTable(url, slug, players, scene.options)
    for seat, action in scene.actions:
        table.act(seat, action)
    return table


# Each game's tables: a new game brings its own (its screen_scenes), nothing is added here.
BUILDERS: dict[str, Callable[[str, int, str], ApiTable]] = {
    slug: functools.partial(lambda slug, url, players, phase: built(url, slug, players, phase), slug) for slug in GAMES
}
assert all(len(NAMES) >= game.max_players for game in GAMES.values()), "more players than NAMES"

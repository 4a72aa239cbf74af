"""Whole games played through the JSON API, and phones that joined them, for the tests of
what happens after a game (results, rematch, history, exports)."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass

from companion.games import GAMES
from companion.tables.database import connect

# Pickomino, three players taking the grill's tiles 21..36 in turn (each turn's dice set
# aside to make the tile's number exactly):
#   Ana   21 24 27 30 33 36 -> 1+1+2+3+4+4 = 15 worms
#   Bruno 22 25 28 31 34    -> 1+2+2+3+4   = 12 worms
#   Caio  23 26 29 32 35    -> 1+2+3+3+4   = 13 worms
PICKOMINO_SCORES = {"Ana": 15, "Bruno": 12, "Caio": 13}
DICE = 8
# A worm-dice turn that fails as players enter it: a first group set aside (RULES: no
# failure before one), then "the roll gave nothing new".
FAILED_TURN = ({"type": "set_aside", "face": 1, "count": 1}, {"type": "bust"})


@dataclass
class Table:
    id: str
    host: str
    seats: list[str]


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def assert_error(response, status: int, code: str) -> None:
    """docs/api.md: {"error": <sentence>, "code": <snake_case>} with the given status."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["code"] == code, body
    assert isinstance(body["error"], str) and body["error"].strip(), body


def start_options(game: str) -> dict:
    """The options a table of `game` starts with when a test names none: its "start"
    scene's (a game may need some: the score pad's title)."""
    return GAMES[game].scenes()["start"].options


def create(client, game: str = "pickomino", players=("Ana", "Bruno", "Caio"), options=None) -> Table:
    options = start_options(game) if options is None else options
    response = client.post("/api/tables", json={"game": game, "players": list(players), "options": options})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return Table(body["id"], body["host_token"], [seat["token"] for seat in body["seats"]])


def play_scene(client, game: str, scene) -> Table:
    """A table of `game` brought to `scene` (Game.scenes) through the API, each action
    entered by its seat's own token."""
    table = create(client, game, scene.players, scene.options)
    for seat, action in scene.actions:
        act(client, table, table.seats[seat], action)
    return table


def act(client, table: Table, token: str, action: dict) -> dict:
    response = client.post(f"/api/tables/{table.id}/actions", json=action, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def take_tile(client, table: Table, tile: int) -> dict:
    """The player to move (entered by the host) sets aside worms and one more face to make
    exactly `tile`, and stops unless the last die ended the turn by itself."""
    worms, rest = divmod(tile, 5)
    state = act(client, table, table.host, {"type": "set_aside", "face": "worm", "count": worms})
    if rest:
        state = act(client, table, table.host, {"type": "set_aside", "face": rest, "count": 1})
    if worms + bool(rest) < DICE:
        state = act(client, table, table.host, {"type": "stop"})
    return state


def play_pickomino(client, table: Table, tiles=range(21, 37)) -> dict:
    state = {}
    for tile in tiles:
        state = take_tile(client, table, tile)
    return state


def play_lobo(client, table: Table, meadows: list[int], leaving: tuple[int, ...] = ()) -> dict:
    """Lobo to its end: the seats in `leaving` leave in that order, the tiles are placed,
    and every seat enters one fenced meadow of `meadows[seat]` sheep."""
    for seat in leaving:
        act(client, table, table.seats[seat], {"type": "abandon"})
    state = act(client, table, table.seats[0], {"type": "end"})
    for seat, sheep in enumerate(meadows):
        state = act(client, table, table.seats[seat], {"type": "meadows", "meadows": [{"sheep": sheep, "fenced": True, "wolf": False}]})
    return state


def csrf_of(phone) -> str:
    page = phone.get("/").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def joined(app, token: str):
    """A phone that opened a seat's join link."""
    phone = app.test_client()
    assert phone.get(f"/j/{token}").status_code == 303
    return phone


def host_phone(app, table: Table):
    """The phone that started the table (it holds the host token)."""
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host}}
    return phone


def who(page: str) -> str:
    """The "You are …" line of a table page."""
    return re.sub(r"\s+", " ", re.search(r'class="who"[^>]*>(.*?)</p>', page, re.S).group(1)).strip()


def table_count(app) -> int:
    return connect(app.config["DATABASE"]).execute("SELECT count(*) FROM game_tables").fetchone()[0]


def rows(database: str, sql: str) -> list[tuple]:
    """A query's rows, straight from the database (a SQLite file or a PostgreSQL URL)."""
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database) as conn:
            return [tuple(row) for row in conn.execute(sql)]
    with closing(sqlite3.connect(database)) as conn:
        return conn.execute(sql).fetchall()


COMPANION_TABLES = ("game_tables", "seats", "events", "player_memories", "results")


def dump(database: str) -> str:
    """Every row the companion keeps, as text: what someone who copied the database reads."""
    return "\n".join(repr(row) for table in COMPANION_TABLES for row in rows(database, f"SELECT * FROM {table}"))

"""Every kind of page a player can see, built once through the real API and pages: each
game at its start, in the middle of a turn, after a steal or a failure, and finished with
a ranking and a tie-break, and its results page; a rematch, the table screen, the players'
pages; the home page, the join screen, the host's view, refused taps and the error pages.
The language tests fetch each of them in every language."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

WORM = "worm"
SIX_ONES = {color: 1 for color in ("white", "black", "red", "blue", "yellow", "green")}
A_ROLL = {"white": 6, "black": 5, "red": 4, "blue": 3, "yellow": 2, "green": 1}


@dataclass
class Scene:
    """A page as one phone sees it: `fetch(headers)` requests it again; `names` and
    `table_ids` are what it may show that is not to be translated."""

    name: str
    fetch: Callable[[dict[str, str]], Any]
    status: int
    names: tuple[str, ...] = ()
    table_ids: tuple[str, ...] = ()


@dataclass
class Phone:
    """A Flask test client with its own cookies: one player's phone."""

    client: Any

    def csrf(self) -> str:
        page = self.client.get("/").get_data(as_text=True)
        return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@dataclass
class Tables:
    """Tables created and played through the JSON API."""

    app: Any
    made: list[str] = field(default_factory=list)

    def phone(self) -> Phone:
        return Phone(self.app.test_client())

    def create(self, game: str, players: tuple[str, ...], options: dict | None = None) -> dict:
        response = self.app.test_client().post(
            "/api/tables", json={"game": game, "players": list(players), "options": options or {}}
        )
        assert response.status_code == 201, response.get_json()
        table = response.get_json()
        self.made.append(table["id"])
        return table

    def act(self, table: dict, seat: int, *actions: dict) -> None:
        client = self.app.test_client()
        token = table["seats"][seat]["token"]
        for action in actions:
            response = client.post(
                f"/api/tables/{table['id']}/actions", json=action, headers={"Authorization": f"Bearer {token}"}
            )
            assert response.status_code == 200, (action, response.get_json())

    def seat_phone(self, table: dict, seat: int) -> Phone:
        phone = self.phone()
        assert phone.client.get(f"/j/{table['seats'][seat]['token']}").status_code == 303
        return phone


def page(name: str, phone: Phone, path: str, status: int) -> Scene:
    return Scene(name, lambda headers: phone.client.get(path, headers=headers), status)


def seat_view(tables: Tables, name: str, table: dict, seat: int, status: int = 200) -> Scene:
    return page(name, tables.seat_phone(table, seat), f"/t/{table['id']}", status)


def finished_views(tables: Tables, game: str, table: dict) -> list[Scene]:
    """A finished table: its page with the ranking, and its results page."""
    phone = tables.seat_phone(table, 0)
    return [
        page(f"{game}-finished-tied", phone, f"/t/{table['id']}", 200),
        page(f"{game}-results", phone, f"/t/{table['id']}/results", 200),
    ]


def set_aside(face: Any, count: int) -> dict:
    return {"type": "set_aside", "face": face, "count": count}


STOP = {"type": "stop"}
THREE = ("Ana", "Bruno", "Caio")
TWO = ("Ana", "Bruno")


# --- Pickomino --------------------------------------------------------------------------
def pickomino(tables: Tables) -> list[Scene]:
    scenes = []
    start = tables.create("pickomino", THREE)
    scenes.append(seat_view(tables, "pickomino-start", start, 0))

    keep = tables.create("pickomino", THREE)
    tables.act(keep, 0, {"type": "roll", "dice": [WORM, WORM, 3, 3, 4, 5, 1, 2]})
    scenes.append(seat_view(tables, "pickomino-choose-a-face", keep, 0))

    def bruno_can_steal() -> dict:
        table = tables.create("pickomino", THREE)
        tables.act(table, 0, set_aside(WORM, 2), set_aside(5, 3), STOP)  # Ana takes 25
        tables.act(table, 1, set_aside(WORM, 2), set_aside(5, 3))  # Bruno could steal 25 or take 24
        return table

    scenes.append(seat_view(tables, "pickomino-steal-or-lower", bruno_can_steal(), 1))
    after = bruno_can_steal()
    tables.act(after, 1, STOP)  # Bruno stole 25 from Ana
    tables.act(after, 2, {"type": "roll", "dice": [1] * 8}, {"type": "keep", "face": 1})  # Caio: no worm
    tables.act(after, 0, set_aside(WORM, 8))  # Ana: 40, takes 36
    tables.act(after, 1, set_aside(3, 8))  # Bruno fails: 25 back, 35 turned over
    scenes.append(seat_view(tables, "pickomino-after-a-steal-and-failures", after, 0))

    # Ana and Bruno take the highest tile in turn: 20 worms each, the highest tile decides.
    finished = tables.create("pickomino", TWO)
    for turn in range(16):
        tables.act(finished, turn % 2, set_aside(WORM, 8))
    scenes += finished_views(tables, "pickomino", finished)
    return scenes


# --- Heckmeck Barbecue ------------------------------------------------------------------
def barbecue(tables: Tables) -> list[Scene]:
    scenes = []
    start = tables.create("heckmeck-barbecue", THREE)
    scenes.append(seat_view(tables, "barbecue-start", start, 0))

    def bruno_can_steal() -> dict:
        table = tables.create("heckmeck-barbecue", THREE)
        tables.act(table, 0, set_aside(WORM, 2), set_aside(6, 3), STOP)  # Ana's plate on 28
        tables.act(table, 1, set_aside(WORM, 2), set_aside(6, 3))  # Bruno could steal it
        return table

    scenes.append(seat_view(tables, "barbecue-steal", bruno_can_steal(), 1))
    after = bruno_can_steal()
    tables.act(after, 1, STOP)
    tables.act(after, 2, set_aside(1, 8))  # Caio fails: a snail on 36
    scenes.append(seat_view(tables, "barbecue-after-a-steal-and-a-snail", after, 0))

    # Ana's plate on 24, Bruno's on 23 (1 point each), then failures until no snail is left.
    finished = tables.create("heckmeck-barbecue", TWO)
    tables.act(finished, 0, set_aside(WORM, 2), set_aside(6, 2), set_aside(2, 1), STOP)
    tables.act(finished, 1, set_aside(WORM, 2), set_aside(6, 2), set_aside(1, 1), STOP)
    for turn in range(13):
        tables.act(finished, turn % 2, set_aside(1, 8))
    scenes += finished_views(tables, "barbecue", finished)
    return scenes


# --- Lobo -------------------------------------------------------------------------------
def lobo(tables: Tables) -> list[Scene]:
    scenes = []
    dealt = tables.create("lobo", THREE, {"deal_colors": True})
    scenes.append(seat_view(tables, "lobo-dealt-colours", dealt, 0))

    drawn = tables.create("lobo", THREE, {"deal_colors": False})
    tables.act(drawn, 1, {"type": "choose_color", "color": "blue"}, {"type": "reveal"})
    tables.act(drawn, 2, {"type": "choose_color", "color": "red"})
    tables.act(drawn, 0, {"type": "abandon"})
    scenes.append(seat_view(tables, "lobo-drawn-colours", drawn, 2))

    meadows = tables.create("lobo", THREE, {"deal_colors": True})
    tables.act(meadows, 2, {"type": "end"})
    tables.act(meadows, 0, {"type": "meadows", "meadows": [
        {"sheep": 5, "fenced": True, "wolf": False},
        {"sheep": 7, "fenced": False, "wolf": False},
        {"sheep": 9, "fenced": True, "wolf": True},
        {"sheep": 3, "fenced": True, "wolf": False},
    ]})
    scenes.append(seat_view(tables, "lobo-meadows", meadows, 1))

    # Ana leaves first (bonus 6) with a meadow of 4; Bruno's meadow is 10: tied on 10.
    finished = tables.create("lobo", TWO, {"deal_colors": True})
    tables.act(finished, 0, {"type": "abandon"})
    tables.act(finished, 1, {"type": "end"}, {"type": "meadows", "meadows": [{"sheep": 10, "fenced": True, "wolf": False}]})
    tables.act(finished, 0, {"type": "meadows", "meadows": [{"sheep": 4, "fenced": True, "wolf": False}]})
    scenes += finished_views(tables, "lobo", finished)
    return scenes


# --- Twenty One -------------------------------------------------------------------------
def twentyone(tables: Tables) -> list[Scene]:
    scenes = []
    start = tables.create("twenty-one", THREE)
    scenes.append(seat_view(tables, "twentyone-roll", start, 0))

    write = tables.create("twenty-one", THREE)
    tables.act(write, 0, {"type": "roll", "dice": A_ROLL})
    tables.act(write, 2, {"type": "cross"})
    scenes.append(seat_view(tables, "twentyone-write", write, 1))

    # All ones, entered whole: every row scores 6 + 1 hit bonus; tied on 35.
    finished = tables.create("twenty-one", TWO)
    for round_ in range(5):
        tables.act(finished, round_ % 2, {"type": "roll", "dice": SIX_ONES})
        for seat in (0, 1):
            tables.act(finished, seat, {"type": "enter", "colors": list(SIX_ONES)})
    scenes += finished_views(tables, "twentyone", finished)
    return scenes


# --- the rest: home, joining, the host, refusals, errors ----------------------------------
def shell(tables: Tables) -> list[Scene]:
    scenes = []
    host = tables.phone()
    token = host.csrf()
    created = host.client.post(
        "/tables", data={"csrf_token": token, "game": "pickomino", "player": list(THREE)}
    )
    assert created.status_code == 303, created.status_code
    table_id = created.headers["Location"].split("/")[2]
    tables.made.append(table_id)
    scenes.append(page("join-codes", host, f"/t/{table_id}/join", 200))
    scenes.append(page("host-table", host, f"/t/{table_id}", 200))

    refused = {"csrf_token": token, "action": '{"type": "keep", "face": 3}', "expected_version": "0"}
    scenes.append(Scene(
        "refused-tap",
        lambda headers: host.client.post(f"/t/{table_id}/act", data=refused, headers=headers),
        422,
    ))
    one_player = {"csrf_token": token, "game": "lobo", "player": ["Ana"]}
    scenes.append(Scene(
        "home-refused-start", lambda headers: host.client.post("/tables", data=one_player, headers=headers), 422
    ))

    stranger = tables.phone()
    scenes.append(page("error-join-codes-of-another-phone", stranger, f"/t/{table_id}/join", 403))
    scenes.append(page("error-unknown-table", stranger, "/t/NOSUCH", 404))
    scenes.append(page("error-bad-join-link", stranger, "/j/not-a-token", 404))
    scenes.append(page("error-wrong-method", stranger, f"/t/{table_id}/act", 405))
    scenes.append(Scene(
        "error-stale-form",
        lambda headers: stranger.client.post(f"/t/{table_id}/undo", data={"csrf_token": "old"}, headers=headers),
        400,
    ))
    return scenes


def after_the_game(tables: Tables) -> list[Scene]:
    """A rematch started, the table screen, a finished table's page asked too early, the
    players' pages."""
    played = tables.create("twenty-one", TWO)
    for round_ in range(5):
        tables.act(played, round_ % 2, {"type": "roll", "dice": SIX_ONES})
        for seat in (0, 1):
            tables.act(played, seat, {"type": "enter", "colors": list(SIX_ONES)})
    bruno = tables.seat_phone(played, 1)
    started = bruno.client.post(f"/t/{played['id']}/rematch", data={"csrf_token": bruno.csrf()})
    assert started.status_code == 303, started.status_code
    tables.made.append(started.headers["Location"].split("/")[2])
    ana = tables.seat_phone(played, 0)

    playing = tables.create("lobo", TWO)
    stranger = tables.phone()
    return [
        page("rematch-started", ana, f"/t/{played['id']}", 200),
        page("table-screen", stranger, f"/t/{played['id']}/screen", 200),
        page("results-before-the-end", stranger, f"/t/{playing['id']}/results", 409),
        page("players", stranger, "/players", 200),
        page("player", stranger, "/players/Ana", 200),
        page("player-unknown", stranger, "/players/Dora", 404),  # nobody of that name played
    ]


def build(app) -> dict[str, Scene]:
    tables = Tables(app)
    scenes = pickomino(tables) + barbecue(tables) + lobo(tables) + twentyone(tables) + shell(tables)
    scenes += after_the_game(tables)
    scenes.append(page("home", tables.phone(), "/", 200))
    # The home page (the start form's too) lists every table: any page may show any
    # player's name or table id.
    for scene in scenes:
        scene.names, scene.table_ids = THREE + ("Dora",), tuple(tables.made)
    return {scene.name: scene for scene in scenes}


SCENE_NAMES = [
    "pickomino-start", "pickomino-choose-a-face", "pickomino-steal-or-lower",
    "pickomino-after-a-steal-and-failures", "pickomino-finished-tied", "pickomino-results",
    "barbecue-start", "barbecue-steal", "barbecue-after-a-steal-and-a-snail", "barbecue-finished-tied",
    "barbecue-results",
    "lobo-dealt-colours", "lobo-drawn-colours", "lobo-meadows", "lobo-finished-tied", "lobo-results",
    "twentyone-roll", "twentyone-write", "twentyone-finished-tied", "twentyone-results",
    "rematch-started", "table-screen", "results-before-the-end", "players", "player", "player-unknown",
    "join-codes", "host-table", "refused-tap", "home-refused-start",
    "error-join-codes-of-another-phone", "error-unknown-table", "error-bad-join-link",
    "error-wrong-method", "error-stale-form", "home",
]

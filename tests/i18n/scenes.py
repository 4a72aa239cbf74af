"""Every kind of page a player can see, built once through the real API and pages: each
game at its start, in the middle of a turn, after a steal or a failure, and finished with
a ranking and a tie-break, and its results page; a rematch, the table screen, the players'
pages; the home page, the join screen, the host's view, refused taps and the error pages.
The language tests fetch each of them in every language."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.games import GAMES

SIX_ONES = {color: 1 for color in ("white", "black", "red", "blue", "yellow", "green")}


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


THREE = ("Ana", "Bruno", "Caio")
TWO = ("Ana", "Bruno")


# --- every game of the registry, at each of its scenes (Game.scenes) -----------------------
def game_scenes(tables: Tables) -> list[Scene]:
    scenes = []
    for slug, game in GAMES.items():
        for name, scene in game.scenes().items():
            table = tables.create(slug, scene.players, scene.options)
            for seat, action in scene.actions:
                tables.act(table, seat, action)
            if name == "finished":
                scenes += finished_views(tables, slug, table)
            else:
                scenes.append(seat_view(tables, f"{slug}-{name}", table, scene.seen_by))
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
    scenes.append(page("error-unknown-table", stranger, "/t/ZZZZZZ", 404))
    scenes.append(page("error-bad-join-link", stranger, "/j/not-a-token", 404))
    scenes.append(page("tv", stranger, "/tv", 200))
    scenes.append(page("tv-wrong-code", stranger, "/tv?code=EMEW", 422))
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
    tables.create("lobo", ("Edu", "Bruno"))  # Edu never sat with Ana: she may be merged with him
    stranger = tables.phone()
    host = tables.phone()  # the lobo table's host: the people's forms on its players' pages
    with host.client.session_transaction() as session:
        session["tables"] = {playing["id"]: {"host": playing["host_token"]}}
    rename_by_a_stranger = {"csrf_token": stranger.csrf(), "name": "Ana", "new_name": "Anita"}
    return [
        page("player-host", host, "/players/Ana", 200),
        page("merge-confirm", host, "/people/merge?name=Edu&into=Ana", 200),
        Scene("rename-refused", lambda headers: stranger.client.post("/people/rename", data=rename_by_a_stranger, headers=headers), 403),
        page("rematch-started", ana, f"/t/{played['id']}", 200),
        page("table-screen", stranger, f"/t/{played['id']}/screen", 200),
        page("results-before-the-end", stranger, f"/t/{playing['id']}/results", 409),
        page("players", stranger, "/players", 200),
        page("player", stranger, "/players/Ana", 200),
        page("player-unknown", stranger, "/players/Dora", 404),  # nobody of that name played
    ]


def build(app) -> dict[str, Scene]:
    tables = Tables(app)
    scenes = game_scenes(tables) + shell(tables)
    scenes += after_the_game(tables)
    scenes.append(page("home", tables.phone(), "/", 200))
    # The home page (the start form's too) lists every table: any page may show any
    # player's name or table id.
    for scene in scenes:
        scene.names, scene.table_ids = THREE + ("Dora", "Edu"), tuple(tables.made)
    return {scene.name: scene for scene in scenes}


SCENE_NAMES = [
    *(
        scene
        for slug, game in GAMES.items()
        for name in game.scenes()
        for scene in ([f"{slug}-finished-tied", f"{slug}-results"] if name == "finished" else [f"{slug}-{name}"])
    ),
    "rematch-started", "table-screen", "results-before-the-end", "player-host", "merge-confirm", "rename-refused", "players", "player", "player-unknown",
    "join-codes", "host-table", "refused-tap", "home-refused-start",
    "error-join-codes-of-another-phone", "error-unknown-table", "error-bad-join-link",
    "error-wrong-method", "error-stale-form", "tv", "tv-wrong-code", "home",
]

"""Tables of every game and the read routes of app.url_map, for the walks of the security
tests. A read route with an argument the walk cannot fill fails the walk: add it to
ARGUMENTS."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games import GAMES

READ_METHODS = {"GET"}


@dataclass
class Table:
    id: str
    game: str
    host: str
    seats: list[str]


# How the walk fills each route argument, given the table walked.
ARGUMENTS = {
    "table_id": lambda table: table.id,
    "token": lambda table: table.seats[1],
    "language": lambda table: "en",
    "name": lambda table: "Ana",
    "filename": lambda table: "app.css",
    "kind": lambda table: "js",  # /games.js (and /games.css, walked as the same route)
    "game": lambda table: table.game,
}


def read_routes(app) -> list:
    return sorted(
        (rule for rule in app.url_map.iter_rules() if rule.methods & READ_METHODS),
        key=lambda rule: rule.rule,
    )


def post(client, path: str, token: str, body: dict) -> dict:
    response = client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def create(client, game: str, players: list[str], options: dict | None = None) -> Table:
    created = client.post("/api/tables", json={"game": game, "players": players, "options": options or {}}).get_json()
    return Table(created["id"], game, created["host_token"], [seat["token"] for seat in created["seats"]])


def tables_of_every_game(client) -> list[Table]:
    """A table per game of the registry at each of its scenes (Game.scenes): at the start,
    past it, and finished."""
    tables = []
    for slug, game in GAMES.items():
        for scene in game.scenes().values():
            table = create(client, slug, list(scene.players), scene.options)
            for seat, action in scene.actions:
                post(client, f"/api/tables/{table.id}/actions", table.seats[seat], action)
            tables.append(table)
    return tables


def fill(rule, table: Table) -> str:
    unknown = set(rule.arguments) - set(ARGUMENTS)
    assert not unknown, f"the read walk cannot fill {sorted(unknown)} of {rule.rule}: add them to ARGUMENTS"
    return rule.build({name: ARGUMENTS[name](table) for name in rule.arguments}, append_unknown=False)[1]

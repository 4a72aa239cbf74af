"""Tables of every game and the read routes of app.url_map, for the walks of the security
tests. A read route with an argument the walk cannot fill fails the walk: add it to
ARGUMENTS."""

from __future__ import annotations

from dataclasses import dataclass

READ_METHODS = {"GET"}
FULL_ROLL = [1, 2, 3, 4, 5, "worm", "worm", "worm"]


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
    """A table per game, most of them past their start, and a finished one."""
    pickomino = create(client, "pickomino", ["Ana", "Bruno", "Caio"])
    post(client, f"/api/tables/{pickomino.id}/actions", pickomino.host, {"type": "roll", "dice": FULL_ROLL})
    barbecue = create(client, "heckmeck-barbecue", ["Ana", "Bruno"])
    lobo = create(client, "lobo", ["Ana", "Bruno", "Caio"])
    post(client, f"/api/tables/{lobo.id}/actions", lobo.seats[0], {"type": "reveal"})
    finished = create(client, "lobo", ["Ana", "Bruno"], {"deal_colors": False})
    post(client, f"/api/tables/{finished.id}/actions", finished.host, {"type": "end"})
    for seat in range(2):
        meadows = {"type": "meadows", "meadows": [{"sheep": 5 + seat, "fenced": True, "wolf": False}], "seat": seat}
        post(client, f"/api/tables/{finished.id}/actions", finished.host, meadows)
    twenty_one = create(client, "twenty-one", ["Ana", "Bruno"])
    dice = {"white": 1, "black": 2, "red": 3, "blue": 4, "yellow": 5, "green": 6}
    post(client, f"/api/tables/{twenty_one.id}/actions", twenty_one.host, {"type": "roll", "dice": dice})
    return [pickomino, barbecue, lobo, finished, twenty_one]


def fill(rule, table: Table) -> str:
    unknown = set(rule.arguments) - set(ARGUMENTS)
    assert not unknown, f"the read walk cannot fill {sorted(unknown)} of {rule.rule}: add them to ARGUMENTS"
    return rule.build({name: ARGUMENTS[name](table) for name in rule.arguments}, append_unknown=False)[1]

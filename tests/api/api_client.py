"""Speaking docs/api.md from tests: a thin wrapper over the Flask test client, and a check that a
refused request leaves the table exactly as it was."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from played import bearer, start_options

FULL_ROLL = [1, 2, 3, 4, 5, "worm", "worm", "worm"]


@dataclass
class Table:
    """A table created through the API, with the tokens its creator was given."""

    id: str
    host: str
    tokens: list[str]
    created: dict[str, Any]

    def seat(self, seat: int) -> str:
        return self.tokens[seat]


class Api:
    def __init__(self, client):
        self.client = client

    def create(self, players=("Ana", "Bruno", "Caio"), game="pickomino", options=None) -> Table:
        options = start_options(game) if options is None else options
        response = self.client.post("/api/tables", json={"game": game, "players": list(players), "options": options})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        return Table(body["id"], body["host_token"], [seat["token"] for seat in body["seats"]], body)

    def get(self, table: Table | str, token: str | None = None):
        return self.client.get(f"/api/tables/{_id(table)}", headers=bearer(token))

    def state(self, table: Table | str, token: str | None = None) -> dict[str, Any]:
        response = self.get(table, token)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def log(self, table: Table | str) -> list[dict[str, Any]]:
        response = self.client.get(f"/api/tables/{_id(table)}/log")
        assert response.status_code == 200, response.get_json()
        return response.get_json()["events"]

    def act(self, table: Table | str, token: str | None, action: Any, **fields: Any):
        body = {**action, **fields} if isinstance(action, dict) else action
        return self.client.post(f"/api/tables/{_id(table)}/actions", json=body, headers=bearer(token))

    def accept(self, table: Table | str, token: str | None, action: dict[str, Any], **fields: Any) -> dict[str, Any]:
        response = self.act(table, token, action, **fields)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def undo(self, table: Table | str, token: str | None, body: Any = None):
        url = f"/api/tables/{_id(table)}/undo"
        if body is None:
            return self.client.post(url, headers=bearer(token))
        return self.client.post(url, json=body, headers=bearer(token))

    def post_raw(self, path: str, data: str, token: str | None = None):
        return self.client.post(path, data=data, content_type="application/json", headers=bearer(token))

    def snapshot(self, table: Table | str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return self.state(table), self.log(table)

    @contextmanager
    def changes_nothing(self, table: Table | str) -> Iterator[None]:
        """docs/api.md: a refused request changes nothing (state, version and log alike)."""
        before = self.snapshot(table)
        yield
        assert self.snapshot(table) == before


def _id(table: Table | str) -> str:
    return table if isinstance(table, str) else table.id

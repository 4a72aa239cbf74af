"""Fuzzing the JSON API from its own OpenAPI document (schemathesis, on the Flask app
through WSGI: no network at all).

Schemathesis generates requests for every operation of /api/openapi.json, valid ones and
ones that break the schemas. Each request is aimed at a real table of every game in the registry
(or at an unknown one) and carries a real token, another table's token, a made-up one or
none. Every answer must be in the document (status listed for the operation, JSON content,
body valid against its schema), never a 5xx; and every refused request, and every read,
must leave the database exactly as it was: tables, seats, the event log, everything.

Bounded for a 2-core machine: a hundred examples per operation and mode (about 15 s).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from security.snapshot import database_snapshot

from companion.games import GAMES
from companion.web.openapi import document

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
# A table of every game at each point of play its module names (Game.scenes) but its end:
# a roll waiting for a face to be kept, dice set aside, meadows being entered, a roll being
# written down, where refusals are most tempting.
TABLES = [
    (slug, scene)
    for slug, game in GAMES.items()
    for name, scene in game.scenes().items()
    if name != "finished"
]
UNKNOWN_TABLE = "Z2Z2Z2"


@dataclass
class World:
    """Tables of every game, and their tokens."""

    database: str
    tables: list[dict]

    def table_id(self, index: int | None) -> str:
        return UNKNOWN_TABLE if index is None else self.tables[index]["id"]

    def token(self, index: int | None, who: str) -> str | None:
        table = self.tables[index if index is not None else 0]
        other = self.tables[((index or 0) + 1) % len(self.tables)]
        return {
            "none": None,
            "host": table["host_token"],
            "seat 0": table["seats"][0]["token"],
            "seat 1": table["seats"][1]["token"],
            "other table's host": other["host_token"],
            "other table's seat": other["seats"][0]["token"],
            "made up": "made-up-token",
        }[who]


@pytest.fixture
def world(app, client) -> World:
    tables = []
    for game, scene in TABLES:
        response = client.post("/api/tables", json={"game": game, "players": list(scene.players), "options": scene.options})
        assert response.status_code == 201
        table = response.get_json()
        for seat, action in scene.actions:
            token = {"Authorization": f"Bearer {table['seats'][seat]['token']}"}
            moved = client.post(f"/api/tables/{table['id']}/actions", json=action, headers=token)
            assert moved.status_code == 200, moved.get_json()
        tables.append(table)
    return World(app.config["DATABASE"], tables)


# Negative requests break a schema: only operations with a body or a path parameter have one.
RUNS = [
    (path, method.upper(), mode)
    for path, operations in document()["paths"].items()
    for method, operation in operations.items()
    for mode in GenerationMode
    if mode is GenerationMode.POSITIVE or "requestBody" in operation or "parameters" in operation
]
AIMS = st.tuples(
    st.sampled_from([*range(len(TABLES)), None]),
    st.sampled_from(["host", "seat 0", "seat 1", "generated", "none", "other table's host", "other table's seat", "made up"]),
)


@pytest.mark.parametrize("path, method, mode", RUNS, ids=[f"{method} {path} {mode.value}" for path, method, mode in RUNS])
def test_fuzzed_requests_answer_as_documented_and_refusals_change_nothing(app, client, world, path, method, mode):
    # The document as served is the one fuzzed.
    operation = schemathesis.openapi.from_dict(client.get("/api/openapi.json").get_json())[path][method]

    @settings(
        settings.get_profile("app"),  # as many examples per operation as the tier plays (conftest.py)
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )
    @given(case=operation.as_strategy(generation_mode=mode), aim=AIMS)
    def request_changes_only_what_it_may(case, aim):
        table, who = aim
        if "table_id" in case.path_parameters and table is not None:
            case.path_parameters["table_id"] = world.table_id(table)
        if who != "generated":
            case.headers = {key: value for key, value in (case.headers or {}).items() if key.lower() != "authorization"}
            token = world.token(table, who)
            if token is not None:
                case.headers["Authorization"] = f"Bearer {token}"
        before = database_snapshot(world.database)
        # Schemathesis sends requests' default Accept-Encoding (gzip) even through WSGI,
        # where nothing would unzip the answer: ask for it as it is.
        response = case.call(app=app, headers={"Accept-Encoding": "identity"})
        case.validate_response(response, checks=CHECKS)
        if response.status_code >= 400 or method == "GET":
            assert database_snapshot(world.database) == before, (
                f"{method} {case.formatted_path} answered {response.status_code} but changed the database"
            )

    request_changes_only_what_it_may()

"""GET /api/openapi.json describes the JSON API (docs/api.md) truly: every API route is
in the document and every documented operation is a route, its schemas are valid JSON
Schema with every reference resolving, and every response of whole games played through
the API (all four games, accepted and refused requests alike) has a status the document
lists for that operation and a body that validates against the schema given for it."""

from __future__ import annotations

import random
import re
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
import schemathesis
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from companion.web.app import create_app
from companion.games import GAMES
from companion.games.lobo import COLORS as FLOCK_COLORS
from companion.games.twentyone import COLORS as DIE_COLORS
from played import create, csrf_of, joined, play_pickomino

DOCUMENT_URI = "urn:companion:openapi"
MOST_REQUESTS_PER_GAME = 2000
STATE_CHANGING = {"post", "put", "patch", "delete"}


def operation_path(rule: str) -> str:
    """/api/tables/<table_id> -> /api/tables/{table_id} (a converter prefix dropped)."""
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


@pytest.fixture
def document(client) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


class Contract:
    """Checks a response against the document: a status listed for the operation, a JSON
    body that validates against that status's schema."""

    def __init__(self, document: dict[str, Any]):
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(DOCUMENT_URI, resource)
        self.seen: set[tuple[str, str, str]] = set()
        self.validators: dict[str, jsonschema.Draft202012Validator] = {}

    def validator(self, pointer: str) -> jsonschema.Draft202012Validator:
        if pointer not in self.validators:
            self.validators[pointer] = jsonschema.Draft202012Validator(
                {"$ref": f"{DOCUMENT_URI}#{pointer}"}, registry=self.registry
            )
        return self.validators[pointer]

    def check(self, method: str, path: str, response) -> Any:
        operation = self.document["paths"][path][method]
        status = str(response.status_code)
        body = response.get_data(as_text=True)
        assert status in operation["responses"], f"{method.upper()} {path} answered {status}, not in the document: {body}"
        content = operation["responses"][status]["content"]
        assert response.mimetype in content, f"{method.upper()} {path} {status} answered {response.mimetype}"
        pointer = "/paths/{}/{}/responses/{}/content/{}/schema".format(
            path.replace("~", "~0").replace("/", "~1"), method, status, response.mimetype.replace("/", "~1")
        )
        data = response.get_json()
        errors = sorted(self.validator(pointer).iter_errors(data), key=lambda error: list(error.absolute_path))
        assert not errors, f"{method.upper()} {path} {status}: " + "; ".join(
            f"{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}" for error in errors[:5]
        )
        self.seen.add((method, path, status))
        return data


class DocumentedApi:
    """The API through the test client, every answer checked against the document."""

    def __init__(self, client, contract: Contract):
        self.client = client
        self.contract = contract

    @staticmethod
    def bearer(token: str | None) -> dict[str, str]:
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    def create(self, body: Any):
        response = self.client.post("/api/tables", json=body)
        return response.status_code, self.contract.check("post", "/api/tables", response)

    def get(self, table_id: str, token: str | None = None):
        response = self.client.get(f"/api/tables/{table_id}", headers=self.bearer(token))
        return response.status_code, self.contract.check("get", "/api/tables/{table_id}", response)

    def log(self, table_id: str, token: str | None = None):
        response = self.client.get(f"/api/tables/{table_id}/log", headers=self.bearer(token))
        return response.status_code, self.contract.check("get", "/api/tables/{table_id}/log", response)

    def act(self, table_id: str, token: str | None, action: Any):
        response = self.client.post(f"/api/tables/{table_id}/actions", json=action, headers=self.bearer(token))
        return response.status_code, self.contract.check("post", "/api/tables/{table_id}/actions", response)

    def undo(self, table_id: str, token: str | None, body: Any = None):
        kwargs = {} if body is None else {"json": body}
        response = self.client.post(f"/api/tables/{table_id}/undo", headers=self.bearer(token), **kwargs)
        return response.status_code, self.contract.check("post", "/api/tables/{table_id}/undo", response)

    def raw(self, method: str, path: str, url: str, data: bytes, token: str | None = None):
        response = self.client.open(
            url, method=method.upper(), data=data, content_type="application/json", headers=self.bearer(token)
        )
        return response.status_code, self.contract.check(method, path, response)


@pytest.fixture
def contract(document) -> Contract:
    return Contract(document)


@pytest.fixture
def api(client, contract) -> DocumentedApi:
    return DocumentedApi(client, contract)


# --- the document and the routes ---------------------------------------------------------------
def test_every_api_route_is_documented_and_every_documented_operation_is_a_route(app, document):
    routes = {
        (operation_path(rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    documented = {(path, method) for path, operations in document["paths"].items() for method in operations}
    assert routes - documented == set(), "API routes missing from /api/openapi.json"
    assert documented - routes == set(), "operations in /api/openapi.json that no route serves"


def test_every_path_parameter_of_a_route_is_documented(app, document):
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        for method, operation in document["paths"][operation_path(rule.rule)].items():
            named = {parameter["name"] for parameter in operation.get("parameters", []) if parameter["in"] == "path"}
            assert named == set(rule.arguments), (rule.rule, method)


def test_every_operation_lists_json_responses_and_every_state_change_its_refusals(document):
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert operation["operationId"] and operation["summary"]
            for status, answer in operation["responses"].items():
                assert list(answer["content"]) == ["application/json"], (path, method, status)
            if method in STATE_CHANGING:
                assert "413" in operation["responses"], f"{method} {path}: a body over 64 KB is refused"
                assert "400" in operation["responses"], f"{method} {path}: malformed JSON is refused"


def test_every_schema_is_valid_json_schema_and_every_reference_resolves(document, contract):
    for name, schema in document["components"]["schemas"].items():
        jsonschema.Draft202012Validator.check_schema(schema)
    references = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                references.add(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    resolver = contract.registry.resolver(base_uri=DOCUMENT_URI)
    for reference in sorted(references):
        assert reference.startswith("#/"), reference
        resolver.lookup(reference)  # raises if it points nowhere


def test_the_document_loads_as_openapi_3_1_for_a_fuzzer(document):
    schema = schemathesis.openapi.from_dict(document)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {operation.label for operation in operations} == {
        f"{method.upper()} {path}" for path, methods in document["paths"].items() for method in methods
    }


def test_the_games_in_the_document_are_the_games_served(document):
    create = document["components"]["schemas"]["CreateTableRequest"]["oneOf"]
    assert [variant["properties"]["game"]["const"] for variant in create] == list(GAMES)
    for variant in create:
        game = GAMES[variant["properties"]["game"]["const"]]
        players = variant["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (game.min_players, game.max_players)


# --- played games: every answer is in the document ---------------------------------------------
class Player:
    """Plays one table to its end through the API with a seeded random hand: mostly what
    the rules accept, now and then a mistake, an undo, a stale version, a stranger's token."""

    def __init__(self, api: DocumentedApi, created: dict[str, Any], rng: random.Random):
        self.api = api
        self.id = created["id"]
        self.host = created["host_token"]
        self.tokens = [seat["token"] for seat in created["seats"]]
        self.rng = rng
        self.table = created["table"]
        self.requests = 0

    def token_of(self, seat: int | None) -> str:
        """The seat's own token, or (a third of the time) the host entering for it."""
        if seat is None or self.rng.random() < 0.33:
            return self.host
        return self.tokens[seat]

    def act(self, token: str, action: dict[str, Any], seat: int | None = None) -> bool:
        body = dict(action)
        if token == self.host and seat is not None:
            body["seat"] = seat
        if self.rng.random() < 0.3:
            body["expected_version"] = self.table["version"]
        status, data = self.api.act(self.id, token, body)
        self.requests += 1
        if status == 200:
            self.table = data
        return status == 200

    def mischief(self) -> None:
        """A refused request of some kind, answered as the document says."""
        seat = self.rng.randrange(len(self.tokens))
        choice = self.rng.randrange(8)
        if choice == 0:
            self.api.act(self.id, None, {"type": "stop"})
        elif choice == 1:
            self.api.act(self.id, "not-a-token", {"type": "stop"})
        elif choice == 2:
            self.api.act(self.id, self.tokens[seat], {"type": "no_such_action"})
        elif choice == 3:
            self.api.act(self.id, self.tokens[seat], {"type": 7})
        elif choice == 4:
            self.api.act(self.id, self.host, {"type": "stop", "expected_version": self.table["version"] + 5})
        elif choice == 5:
            self.api.raw("post", "/api/tables/{table_id}/actions", f"/api/tables/{self.id}/actions", b"{not json", self.host)
        elif choice == 6:
            self.api.act("ZZZZZZ", self.host, {"type": "stop"})
        else:
            self.api.undo(self.id, self.tokens[seat], {"expected_version": "now"})
        self.requests += 1

    def look(self) -> None:
        """Every reader's view of the table and of its log."""
        for token in [None, self.host, *self.tokens]:
            status, _ = self.api.get(self.id, token)
            assert status == 200
            status, _ = self.api.log(self.id, token)
            assert status == 200

    def play(self, choose) -> None:
        while self.table["status"] != "finished":
            assert self.requests < MOST_REQUESTS_PER_GAME, "the game did not end"
            roll = self.rng.random()
            if roll < 0.04:
                status, data = self.api.undo(self.id, self.host)
                self.requests += 1
                if status == 200:
                    self.table = data
            elif roll < 0.1:
                self.mischief()
            elif roll < 0.105:
                self.look()
            else:
                choose(self)
        self.look()
        status, _ = self.api.undo(self.id, self.tokens[0])  # a finished game can still be corrected
        assert status in (200, 403)


def worm_dice_turn(player: Player, faces: tuple[Any, ...]) -> None:
    """docs/rules.md (the worm-dice turn): roll, keep a face, set aside, stop once a worm is kept, or bust."""
    turn = player.table["state"]["turn"]
    seat = turn["seat"]
    rng = player.rng
    kept = [group["face"] for group in turn["kept"]]
    if turn["roll"] is not None:
        new = [face for face in turn["roll"] if face not in kept]
        action = {"type": "keep", "face": rng.choice(new or turn["roll"])}
    elif turn["has_worm"] and turn["total"] >= 21 and rng.random() < 0.6:
        action = {"type": "stop"}
        if rng.random() < 0.2 and player.table["game"] == "pickomino":
            action["take"] = "grill"
    elif rng.random() < 0.08:
        action = {"type": "bust"}
    elif rng.random() < 0.2:
        face = rng.choice([face for face in faces if face not in kept] or list(faces))
        action = {"type": "set_aside", "face": face, "count": rng.randint(1, max(1, min(3, turn["dice_left"])))}
    else:
        action = {"type": "roll", "dice": [rng.choice(faces) for _ in range(turn["dice_left"])]}
    if rng.random() < 0.05:  # the wrong phone taps
        player.act(player.tokens[(seat + 1) % len(player.tokens)], action)
    player.act(player.token_of(seat), action, seat)


def lobo_turn(player: Player) -> None:
    """docs/rules.md (Lobo): record and reveal colours, leave, end, then every seat's meadows."""
    state = player.table["state"]
    rng = player.rng
    seat = rng.randrange(len(player.tokens))
    if state["ended"]:
        meadows = [
            {"sheep": rng.randint(0, 12), "fenced": rng.random() < 0.7, "wolf": rng.random() < 0.2}
            for _ in range(rng.randint(0, 3))
        ]
        seat = rng.choice(state["waiting_for"] or [seat])
        holder = state["seats"][seat]
        if not player.table["options"]["deal_colors"] and not holder["revealed"] and (not holder["color_recorded"] or rng.random() < 0.3):
            # a count reveals the colour: it needs one, distinct from those revealed
            shown = {other["color"] for other in state["seats"] if other["revealed"]}
            action = {"type": "choose_color", "color": rng.choice([color for color in FLOCK_COLORS if color not in shown])}
            player.act(player.token_of(seat), action, seat)
            return
        player.act(player.token_of(seat), {"type": "meadows", "meadows": meadows}, seat)
        return
    choice = rng.random()
    if choice < 0.35 and not player.table["options"]["deal_colors"]:
        action = {"type": "choose_color", "color": rng.choice(FLOCK_COLORS)}
    elif choice < 0.6:
        action = {"type": "reveal"}
    elif choice < 0.75:
        action = {"type": "abandon"}
    elif choice < 0.85:
        action = {"type": "end"}
    else:
        action = {"type": "meadows", "meadows": []}  # before the end: refused
    player.act(player.token_of(seat), action, seat)


def twenty_one_turn(player: Player) -> None:
    """docs/rules.md (Twenty One): the roller rolls (and may re-roll), then every seat enters or crosses."""
    state = player.table["state"]
    rng = player.rng
    roller = player.table["current_seat"]
    if state["roll"] is None or (rng.random() < 0.1 and not state["rerolled"]):
        kind = "roll" if state["roll"] is None else "reroll"
        dice = {color: rng.randint(1, 6) for color in DIE_COLORS}
        if kind == "reroll":
            dice.update({color: 1 for color, value in state["roll"].items() if value == 1})
        player.act(player.token_of(roller), {"type": kind, "dice": dice}, roller)
        return
    seat = rng.choice(state["waiting_for"])
    sheet = state["sheets"][seat]
    row = sheet["rows"][sheet["row"]]
    fitting = [
        field["color"]
        for field in row["fields"]
        if field["entry"] is None and not field["crossed"] and state["roll"][field["color"]] <= field["value"]
    ]
    if fitting and rng.random() < 0.85:
        action = {"type": "enter", "colors": rng.sample(fitting, rng.randint(1, len(fitting))), "row": sheet["row"]}
    else:
        action = {"type": "cross", "roll": state["roll"]}
    player.act(player.token_of(seat), action, seat)


TURNS = {
    "pickomino": lambda player: worm_dice_turn(player, GAMES["pickomino"].dice.faces),
    "heckmeck-barbecue": lambda player: worm_dice_turn(player, GAMES["heckmeck-barbecue"].dice.faces),
    "lobo": lobo_turn,
    "twenty-one": twenty_one_turn,
}
TABLES = [
    ("pickomino", 3, {}),
    ("pickomino", 2, {"alternative_return": True, "flip_when_empty": True}),
    ("heckmeck-barbecue", 3, {"spot_worms": {"36": 9}}),
    ("lobo", 4, {}),
    ("lobo", 3, {"deal_colors": False}),
    ("twenty-one", 3, {"sheets": ["C"]}),
    ("twenty-one", 2, {"sheet_layouts": [None, [["white", "black", "red", "blue", "yellow", "green"]] * 5]}),
]


SCENES = [(slug, name) for slug, game in GAMES.items() for name in game.scenes()]


@pytest.mark.parametrize("slug, name", SCENES, ids=[f"{slug}-{name}" for slug, name in SCENES])
def test_every_answer_on_the_way_to_each_scene_of_every_game_is_in_the_document(api, slug, name):
    """Every game of the registry, brought to each of its scenes (Game.scenes) through the
    API, every reader looking at each step: each answer is as the document says."""
    scene = GAMES[slug].scenes()[name]
    status, created = api.create({"game": slug, "players": list(scene.players), "options": scene.options})
    assert status == 201
    tokens = [seat["token"] for seat in created["seats"]]
    for seat, action in scene.actions:
        status, table = api.act(created["id"], tokens[seat], action)
        assert status == 200, table
        for token in [None, created["host_token"], *tokens]:
            assert api.get(created["id"], token)[0] == 200
    assert api.log(created["id"], created["host_token"])[0] == 200
    if name == "finished":
        assert table["status"] == "finished" and table["ranking"]


@pytest.mark.parametrize("game, players, options", TABLES, ids=[f"{game}-{index}" for index, (game, _, _) in enumerate(TABLES)])
def test_every_answer_of_a_whole_game_through_the_api_is_in_the_document(api, contract, game, players, options):
    status, created = api.create({"game": game, "players": [f"Player {n}" for n in range(players)], "options": options})
    assert status == 201
    for seat in created["seats"]:
        assert urlsplit(seat["join_url"]).path == f"/j/{seat['token']}"
    player = Player(api, created, random.Random(f"{game}-{players}"))
    player.look()
    player.play(TURNS[game])
    assert player.table["ranking"]
    status, log = api.log(created["id"], created["host_token"])
    for event in log["events"]:
        datetime.fromisoformat(event["at"])  # the document says date-time
    assert ("post", "/api/tables/{table_id}/actions", "200") in contract.seen
    assert any(status != "200" for method, path, status in contract.seen if path.endswith("/actions"))


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "players": ["Ana", "Bruno"]},
        {"game": "pickomino", "players": ["Ana"]},
        {"game": "pickomino", "players": "Ana, Bruno"},
        {"game": "pickomino", "players": ["Ana", "Bruno"], "options": {"turbo": True}},
        {"game": "lobo", "players": ["Ana", "Bruno"], "options": {"deal_colors": "yes"}},
        {"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheets": ["A", "A"]}},
        ["pickomino"],
    ],
)
def test_refused_creations_are_in_the_document(api, body):
    status, error = api.create(body)
    assert status in (400, 422) and error["error"]


def test_unknown_tables_oversized_and_malformed_bodies_answer_as_documented(api):
    status, created = api.create({"game": "pickomino", "players": ["Ana", "Bruno"]})
    table_id, host = created["id"], created["host_token"]
    assert api.get("ZZZZZZ")[0] == 404
    assert api.log("ZZZZZZ")[0] == 404
    assert api.get(table_id, "not-a-token")[0] == 401
    assert api.log(table_id, "not-a-token")[0] == 401
    assert api.undo(table_id, host)[0] == 409
    huge = b'{"type": "stop", "pad": "' + b"x" * (64 * 1024) + b'"}'
    for path, url in [
        ("/api/tables", "/api/tables"),
        ("/api/tables/{table_id}/actions", f"/api/tables/{table_id}/actions"),
        ("/api/tables/{table_id}/undo", f"/api/tables/{table_id}/undo"),
    ]:
        assert api.raw("post", path, url, huge, host)[0] == 413
        assert api.raw("post", path, url, b"[1, 2", host)[0] == 400


def test_a_database_that_cannot_be_written_answers_as_documented(app, document):
    """A read-only database file (SQLite's query_only: what a read-only mount answers):
    reads still work, every write is refused with 503, all as the document says."""
    created = app.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    read_only = create_app({**app.config, "SQLITE_PRAGMAS": {"query_only": "ON"}})
    api = DocumentedApi(read_only.test_client(), Contract(document))
    table_id, host = created["id"], created["host_token"]
    assert api.get(table_id)[0] == 200
    assert api.log(table_id)[0] == 200
    assert api.create({"game": "pickomino", "players": ["Ana", "Bruno"]})[0] == 503
    assert api.act(table_id, host, {"type": "roll", "dice": [1, 2, 3, 4, 5, "worm", "worm", "worm"]})[0] == 503


def test_a_table_that_started_a_rematch_answers_as_documented(app, api, client):
    table = create(client)
    play_pickomino(client, table)
    ana = joined(app, table.seats[0])
    started = ana.post(f"/t/{table.id}/rematch", data={"csrf_token": csrf_of(ana)})
    new_id = started.headers["Location"].split("/")[2]
    _, state = api.get(table.id)
    assert state["rematch"] == new_id
    _, state = api.get(new_id)
    assert state["rematch"] is None

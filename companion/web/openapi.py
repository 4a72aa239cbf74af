"""The JSON API (docs/api.md) as an OpenAPI 3.1 document, served at /api/openapi.json.

Kept true by tests/test_openapi.py (every API route is here and nothing else is; real
responses of played games validate against these schemas) and by the fuzz run of
tests/test_fuzz.py. Responses may carry more fields than listed (docs/api.md), so response
objects never forbid additional properties; requests are described as the API takes them.
Enumerations (games, faces, colours, sheet letters) come from the game modules, so the
document names exactly what the server accepts.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..tables import service
from ..games import GAMES
from ..games.schema import SEAT, SEAT_OR_NULL, TEXT, VERSION, array, nullable, obj, ref

JSON = "application/json"


# --- requests and the games' parts ------------------------------------------------------------
def game_schemas() -> dict[str, Any]:
    """Each game's options, actions and state as it describes them (Game.api_schemas), and
    the requests every game shares."""
    schemas: dict[str, Any] = {}
    actions: dict[str, Any] = {}
    creates = []
    for slug, game in GAMES.items():
        described, name = game.api_schemas(), schema_name(slug)
        for shared_name, schema in {**described.named, **described.actions}.items():
            # games may share a part (the worm-dice actions) but never give one name two meanings
            assert schemas.get(shared_name, schema) == schema, f"{slug} redefines {shared_name}"
            schemas[shared_name] = schema
        actions.update(described.actions)
        schemas[f"{name}OptionsRequest"] = described.options_request
        schemas[f"{name}Options"] = described.options
        schemas[f"{name}State"] = described.state
        creates.append(
            obj(
                {
                    "game": {"const": slug},
                    "players": array(
                        {"type": "string", "description": "1..24 characters after trimming, unique (case-insensitive)."},
                        minItems=game.min_players,
                        maxItems=game.max_players,
                    ),
                    "options": ref(f"{name}OptionsRequest"),
                },
                required=["game", "players"],
                additionalProperties=False,
            )
        )
    return {
        **schemas,
        "CreateTableRequest": {
            "description": "The game, the players in seating order (the first starts) and the table options. "
            "A player count outside the game's range, an unknown game or option: 422.",
            "oneOf": creates,
        },
        "Action": {
            "description": "One action of the table's game; the game decides which are accepted (422 otherwise).",
            "anyOf": [ref(name) for name in actions],
        },
        "UndoRequest": obj(
            {
                "expected_version": {**VERSION, "description": "409 stale_version if the table has moved on."},
                "from": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "The host goes back to a line of the log (its seq): that action and every later one "
                    "still in effect are undone. Without it, the latest action still in effect.",
                },
            },
            required=[],
            additionalProperties=False,
            description="Optional: an empty body undoes without a version check.",
        ),
        "RedoRequest": obj(
            {
                "expected_version": {**VERSION, "description": "409 stale_version if the table has moved on."},
                "all": {"type": "boolean", "description": "Redo every undone action that still applies, in order."},
                "skip": {
                    "type": "boolean",
                    "description": "Do not redo the next undone action: it leaves the redo offer, stays in the log "
                    "undone (skipped_version), and the table moves to a new version. Not with all.",
                },
            },
            required=[],
            additionalProperties=False,
            description="Optional: an empty body redoes the next undone action.",
        ),
    }


def schema_name(slug: str) -> str:
    """A slug as a schema's name: "pig-dice" -> "PigDice"."""
    return "".join(part.capitalize() for part in slug.split("-"))


def table_schemas() -> dict[str, Any]:
    per_game = [
        {
            "properties": {
                "game": {"const": slug},
                "options": ref(f"{schema_name(slug)}Options"),
                "state": ref(f"{schema_name(slug)}State"),
            }
        }
        for slug in GAMES
    ]
    return {
        "TableState": obj(
            {
                "id": ref("TableId"),
                "game": {"enum": list(GAMES)},
                "status": {"enum": ["playing", "finished"]},
                "version": {**VERSION, "description": "Grows by one with every accepted action or undo."},
                "options": {"type": "object", "description": "The effective options."},
                "players": array(obj({"seat": SEAT, "name": TEXT, "score": {"type": "integer"}}), minItems=1),
                "current_seat": {**SEAT_OR_NULL, "description": "Whose move it is (where one seat rolls for all, the roller); null when finished."},
                "ranking": nullable(array(ref("RankingEntry"))) | {"description": "Best first, when finished."},
                "rematch": nullable(ref("TableId"))
                | {"description": "The table a rematch of this one started (from its results page), if any."},
                "closed": {"type": "boolean", "description": "Its host closed it: it takes no more actions."},
                "state": {"type": "object", "description": "Game-specific."},
            },
            oneOf=per_game,
        ),
        "TableId": {
            "type": "string",
            "pattern": f"^[{service.TABLE_ID_ALPHABET}]{{{service.TABLE_ID_LENGTH}}}$",
            "description": "Six characters read aloud at a table.",
        },
        "RankingEntry": obj(
            {
                "seat": SEAT,
                "name": TEXT,
                "score": {"type": "integer"},
                "place": {"type": "integer", "minimum": 1},
                "tiebreak": nullable(TEXT) | {"description": "How a tie was broken, or that it was shared."},
                "detail": {"type": "string", "description": "How the score is made up (the tiles held, the row scores)."},
            },
            required=["seat", "name", "score", "place", "tiebreak"],
        ),
        "CreatedTable": obj(
            {
                "id": ref("TableId"),
                "host_token": {**TEXT, "description": "Shown once: may act for any seat."},
                "seats": array(
                    obj(
                        {
                            "seat": SEAT,
                            "name": TEXT,
                            "token": TEXT,
                            "join_url": {"type": "string", "format": "uri", "description": "Opens the seat's view on a phone."},
                        }
                    ),
                    minItems=1,
                ),
                "table": ref("TableState"),
            }
        ),
        "Log": obj(
            {
                "events": array(
                    obj(
                        {
                            "seq": {"type": "integer", "minimum": 1},
                            "seat": SEAT,
                            "by_host": {"type": "boolean", "description": "Entered by the host for this seat (not a host playing their own seat)."},
                            "action": {"type": "object", "required": ["type"], "description": "As entered, secrets redacted."},
                            "undone": {"type": "boolean"},
                            "at": {"type": "string", "format": "date-time"},
                            "undone_at": nullable({"type": "string", "format": "date-time"}),
                            "redo_of": nullable({"type": "integer", "minimum": 1, "description": "The line this one enters again."}),
                            "skipped_version": nullable(
                                {"type": "integer", "minimum": 1, "description": "An undone line chosen not to be redone: the version that did."}
                            ),
                            "undone_by_seat": nullable(
                                {"type": "integer", "minimum": 0, "description": "The seat whose player took back their own action (null: in effect, undone by the host, or before this field existed)."}
                            ),
                            "text": TEXT,
                        },
                        required=["seq", "seat", "action", "undone", "at"],
                    )
                )
            }
        ),
        "RedoResult": {
            "allOf": [
                ref("TableState"),
                obj(
                    {
                        "redo": obj(
                            {
                                "redone": {"type": "integer", "minimum": 0, "description": "0 only for a skip."},
                                "stopped": nullable(ref("Error")),
                                "skipped": {"type": "integer", "minimum": 1, "description": "A skip: the line not to be redone."},
                            },
                            description="How many actions were entered again, and the refusal that stopped a redo of all; "
                            "for a skip, the line it took out of the redo offer.",
                        )
                    }
                ),
            ]
        },
        "Error": obj(
            {
                "error": {**TEXT, "description": "A sentence a player understands."},
                "code": {"type": "string", "pattern": "^[a-z]+(_[a-z0-9]+)*$"},
            }
        ),
    }


# --- operations ----------------------------------------------------------------------------
ERRORS = {
    400: "Malformed JSON or wrong types.",
    401: "No token, or a token that does not belong to this table.",
    403: "The token is not allowed to do this.",
    404: "Unknown table.",
    409: "Stale expected_version, or nothing to undo.",
    413: "The body is over 64 KB.",
    415: "The body is not marked as JSON (Content-Type: application/json).",
    422: "Well-formed but against the rules or out of range.",
    503: "The database cannot be used (a full disk, a read-only file, PostgreSQL out of reach, another change "
    "holding it too long): nothing was changed.",
}
TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": ref("TableId")}
BEARER_REQUIRED = [{"bearer": []}]
BEARER_OPTIONAL = [{}, {"bearer": []}]


def json_response(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def responses(success: int, description: str, schema: dict[str, Any], errors: list[int]) -> dict[str, Any]:
    answered = {str(success): json_response(description, schema)}
    answered.update({str(status): json_response(ERRORS[status], ref("Error")) for status in errors})
    return answered


def json_body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {JSON: {"schema": schema}}}


def paths() -> dict[str, Any]:
    return {
        "/api/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "security": [],
                "responses": {"200": json_response("The OpenAPI document.", {"type": "object", "required": ["openapi", "paths"]})},
            }
        },
        "/api/tables": {
            "post": {
                "operationId": "createTable",
                "summary": "Start a table: its id, the host token (shown once) and each seat's token and join link.",
                "security": [],
                "requestBody": json_body(ref("CreateTableRequest")),
                "responses": responses(201, "The table was created.", ref("CreatedTable"), [400, 413, 415, 422, 503]),
            }
        },
        "/api/tables/{table_id}": {
            "get": {
                "operationId": "getTable",
                "summary": "The table state; with a seat token also that seat's private information (a secret colour).",
                "security": BEARER_OPTIONAL,
                "parameters": [TABLE_ID],
                "responses": responses(200, "The table state.", ref("TableState"), [401, 404, 503]),
            }
        },
        "/api/tables/{table_id}/log": {
            "get": {
                "operationId": "getLog",
                "summary": "Every event of the table, undone ones included, secrets redacted for the reader.",
                "security": BEARER_OPTIONAL,
                "parameters": [TABLE_ID],
                "responses": responses(200, "The event log.", ref("Log"), [401, 404, 503]),
            }
        },
        "/api/tables/{table_id}/actions": {
            "post": {
                "operationId": "act",
                "summary": "One action. A seat token acts as its seat; the host token for any seat "
                "(named by `seat`, else the seat whose move it is).",
                "security": BEARER_REQUIRED,
                "parameters": [TABLE_ID],
                "requestBody": json_body(ref("Action")),
                "responses": responses(200, "The new table state.", ref("TableState"), [400, 401, 403, 404, 409, 413, 415, 422, 503]),
            }
        },
        "/api/tables/{table_id}/undo": {
            "post": {
                "operationId": "undo",
                "summary": "Undo the latest action still in effect (the host, or the seat that made it), or with `from` "
                "every action from that line of the log on (the host).",
                "security": BEARER_REQUIRED,
                "parameters": [TABLE_ID],
                "requestBody": json_body(ref("UndoRequest"), required=False),
                "responses": responses(200, "The new table state.", ref("TableState"), [400, 401, 403, 404, 409, 413, 415, 422, 503]),
            }
        },
        "/api/tables/{table_id}/redo": {
            "post": {
                "operationId": "redo",
                "summary": "Enter the next undone action again (or all that still apply), each checked by the rules: "
                "the host, or the seat that made it.",
                "security": BEARER_REQUIRED,
                "parameters": [TABLE_ID],
                "requestBody": json_body(ref("RedoRequest"), required=False),
                "responses": responses(
                    200, "The new table state.", ref("RedoResult"), [400, 401, 403, 404, 409, 413, 415, 422, 503]
                ),
            }
        },
    }


@cache
def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {
            "title": "Companion JSON API",
            "version": "1",
            "description": "The scoring companion's engines for programs: a shared screen, bots, integrations. "
            "Requests and responses are JSON. A refused request changes nothing. Responses may carry more "
            "fields than listed.",
        },
        "paths": paths(),
        "components": {
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token acts as its seat; the host token (returned once, at creation) for any seat.",
                }
            },
            "schemas": {**game_schemas(), **table_schemas()},
        },
    }

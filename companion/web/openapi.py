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

from .. import service
from ..games import GAMES
from ..games.barbecue import PLATE_COLOURS, SPOT_VALUES, SPOT_WORMS_RANGE
from ..games.lobo import COLORS as FLOCK_COLORS
from ..games.lobo import MAX_MEADOWS, MAX_SHEEP
from ..games.pickomino import TILE_VALUES
from ..games.twentyone import COLORS as DIE_COLORS
from ..games.twentyone import FIELD_NUMBERS, LETTERS, ROWS
from ..games.wormdice import DICE_COUNT, WORM

JSON = "application/json"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """An object with these properties, all of them required unless `required` says otherwise."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        **extra,
    }


def array(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


SEAT = {"type": "integer", "minimum": 0}
COUNT = {"type": "integer", "minimum": 0}
TEXT = {"type": "string", "minLength": 1}
VERSION = {"type": "integer", "minimum": 0}


# --- requests ------------------------------------------------------------------------------
def action(kind: str, description: str, properties: dict[str, Any] | None = None, required: list[str] | None = None):
    """One action: its `type`, its own fields, and the two every action may carry."""
    fields = {
        "type": {"const": kind},
        **(properties or {}),
        "seat": {**SEAT, "description": "The seat acted for: the host names any seat, a seat token only its own."},
        "expected_version": {**VERSION, "description": "409 stale_version if the table has moved on."},
    }
    return obj(fields, required=["type", *(required or [])], description=description)


def request_schemas() -> dict[str, Any]:
    creates = []
    for slug, game in GAMES.items():
        creates.append(
            obj(
                {
                    "game": {"const": slug},
                    "players": array(
                        {"type": "string", "description": "1..24 characters after trimming, unique (case-insensitive)."},
                        minItems=game.min_players,
                        maxItems=game.max_players,
                    ),
                    "options": ref(f"{schema_name(slug)}OptionsRequest"),
                },
                required=["game", "players"],
            )
        )
    worm_face = ref("Face")
    return {
        "CreateTableRequest": {
            "description": "The game, the players in seating order (the first starts) and the table options. "
            "A player count outside the game's range, an unknown game or option: 422.",
            "oneOf": creates,
        },
        "PickominoOptionsRequest": obj(
            {"alternative_return": {"type": "boolean"}, "flip_when_empty": {"type": "boolean"}},
            required=[],
            additionalProperties=False,
        ),
        "HeckmeckBarbecueOptionsRequest": obj(
            {"spot_worms": ref("SpotWormsRequest")}, required=[], additionalProperties=False
        ),
        "SpotWormsRequest": {
            "type": "object",
            "description": "Corrections of the worms per grill spot, by spot number; the others keep their default.",
            "propertyNames": {"enum": [str(value) for value in SPOT_VALUES]},
            "additionalProperties": {"type": "integer", "minimum": SPOT_WORMS_RANGE[0], "maximum": SPOT_WORMS_RANGE[-1]},
        },
        "LoboOptionsRequest": obj({"deal_colors": {"type": "boolean"}}, required=[], additionalProperties=False),
        "TwentyOneOptionsRequest": obj(
            {
                "sheets": nullable(
                    array(nullable({"enum": list(LETTERS)}), description="Per seat a different sheet letter, or null: dealt.")
                ),
                "sheet_layouts": nullable(
                    array(nullable(ref("SheetLayout")), description="Per seat null (the sheet's own colours) or a copied sheet.")
                ),
            },
            required=[],
            additionalProperties=False,
        ),
        "SheetLayout": array(
            array({"enum": list(DIE_COLORS)}, minItems=len(DIE_COLORS), maxItems=len(DIE_COLORS), uniqueItems=True),
            minItems=ROWS,
            maxItems=ROWS,
            description="A copied sheet: five rows, each the six colours once, left to right.",
        ),
        "Action": {
            "description": "One action of the table's game; the game decides which are accepted (422 otherwise).",
            "anyOf": [
                ref(name)
                for name in (
                    "WormDiceRoll", "WormDiceKeep", "WormDiceSetAside", "WormDiceStop", "WormDiceBust",
                    "LoboChooseColor", "LoboReveal", "LoboAbandon", "LoboEnd", "LoboMeadows",
                    "TwentyOneRoll", "TwentyOneReroll", "TwentyOneEnter", "TwentyOneCross",
                )
            ],
        },
        "WormDiceRoll": action(
            "roll",
            "pickomino, heckmeck-barbecue: the faces rolled, as many dice as are left.",
            {"dice": array(worm_face, minItems=1, maxItems=DICE_COUNT)},
            ["dice"],
        ),
        "WormDiceKeep": action("keep", "Set aside all dice of that face from the last roll.", {"face": worm_face}, ["face"]),
        "WormDiceSetAside": action(
            "set_aside",
            "Quick entry: set aside `count` dice of `face`, no roll recorded.",
            {"face": worm_face, "count": {"type": "integer", "minimum": 1, "maximum": DICE_COUNT}},
            ["face", "count"],
        ),
        "WormDiceStop": action(
            "stop",
            'End the turn and claim. Pickomino only: "take": "grill" declines a possible steal.',
            {"take": {"const": "grill"}},
        ),
        "WormDiceBust": action("bust", "Declare the turn failed."),
        "LoboChooseColor": action(
            "choose_color", "lobo without dealt colours: record the colour drawn.", {"color": ref("FlockColor")}, ["color"]
        ),
        "LoboReveal": action("reveal", "lobo: make one's colour public."),
        "LoboAbandon": action("abandon", "lobo: leave the game."),
        "LoboEnd": action("end", "lobo: all tiles are placed."),
        "LoboMeadows": action(
            "meadows",
            "lobo, after the end, once per seat (may be corrected until every seat has entered).",
            {
                "meadows": array(
                    obj(
                        {
                            "sheep": {"type": "integer", "minimum": 0, "maximum": MAX_SHEEP},
                            "fenced": {"type": "boolean"},
                            "wolf": {"type": "boolean"},
                        }
                    ),
                    maxItems=MAX_MEADOWS,
                )
            },
            ["meadows"],
        ),
        "TwentyOneRoll": action(
            "roll", "twenty-one: the active seat (or the host), once per round.", {"dice": ref("TwentyOneDice")}, ["dice"]
        ),
        "TwentyOneReroll": action(
            "reroll",
            "twenty-one: once per round, before anyone has written; every die that showed 1 still shows 1.",
            {"dice": ref("TwentyOneDice")},
            ["dice"],
        ),
        "TwentyOneEnter": action(
            "enter",
            "twenty-one: write these dice into the seat's current row.",
            {
                "colors": array({"enum": list(DIE_COLORS)}, minItems=1, maxItems=len(DIE_COLORS), uniqueItems=True),
                **TWENTY_ONE_SEEN,
            },
            ["colors"],
        ),
        "TwentyOneCross": action("cross", "twenty-one: cross out the leftmost empty field of the current row.", TWENTY_ONE_SEEN),
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
            description="Optional: an empty body undoes without a version check.",
        ),
        "RedoRequest": obj(
            {
                "expected_version": {**VERSION, "description": "409 stale_version if the table has moved on."},
                "all": {"type": "boolean", "description": "Redo every undone action that still applies, in order."},
            },
            required=[],
            description="Optional: an empty body redoes the next undone action.",
        ),
    }


# What the writer's page showed: refused if the table has moved past it.
TWENTY_ONE_SEEN = {
    "row": {"type": "integer", "minimum": 0, "description": "The row the page showed (422 not_current_row otherwise)."},
    "roll": {**ref("TwentyOneDice"), "description": "The roll the page showed (409 roll_changed after a re-roll)."},
}


# --- responses -----------------------------------------------------------------------------
def worm_dice_turn() -> dict[str, Any]:
    return obj(
        {
            "seat": SEAT,
            "kept": array(obj({"face": ref("Face"), "count": {"type": "integer", "minimum": 1}})),
            "total": COUNT,
            "dice_left": {"type": "integer", "minimum": 0, "maximum": DICE_COUNT},
            "roll": nullable(array(ref("Face"))),
            "has_worm": {"type": "boolean"},
        }
    )


def last_turn(outcomes: list[str], fields: dict[str, Any]) -> dict[str, Any]:
    return nullable(
        obj(
            {
                "seat": SEAT,
                "total": COUNT,
                "kept": array(obj({"face": ref("Face"), "count": {"type": "integer", "minimum": 1}})),
                "outcome": {"enum": outcomes},
                **fields,
                "reason": {"type": "string", "description": "Why a failed turn failed."},
                "text": {**TEXT, "description": "The outcome as a sentence."},
            },
            required=["seat", "total", "outcome", *fields, "text"],
        )
    )


TILE_OR_NULL = nullable({"type": "integer", "minimum": TILE_VALUES[0], "maximum": TILE_VALUES[-1]})
SPOT_OR_NULL = nullable({"type": "integer", "minimum": SPOT_VALUES[0], "maximum": SPOT_VALUES[-1]})
SEAT_OR_NULL = nullable(SEAT)


def game_state_schemas() -> dict[str, Any]:
    dice = obj({color: {"type": "integer", "minimum": 1, "maximum": 6} for color in DIE_COLORS})
    return {
        "Face": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 6}, {"const": WORM}], "description": "A die face."},
        "FlockColor": {"enum": list(FLOCK_COLORS)},
        "TwentyOneDice": {**dice, "description": "The six dice by colour, each 1..6.", "additionalProperties": False},
        "WormDiceTurn": nullable(worm_dice_turn()),
        "PickominoOptions": obj({"alternative_return": {"type": "boolean"}, "flip_when_empty": {"type": "boolean"}}),
        "PickominoState": obj(
            {
                "grill": array(
                    obj(
                        {
                            "value": {"type": "integer", "minimum": TILE_VALUES[0], "maximum": TILE_VALUES[-1]},
                            "worms": {"type": "integer", "minimum": 1, "maximum": 4},
                            "face_up": {"type": "boolean"},
                        }
                    ),
                    description="The tiles on the grill, ascending, face-down ones included.",
                ),
                "stacks": array(array({"type": "integer"}), description="Per seat, bottom to top."),
                "turn": ref("WormDiceTurn"),
                "last_turn": last_turn(
                    ["took", "stole", "failed"],
                    {"tile": TILE_OR_NULL, "from_seat": SEAT_OR_NULL, "returned": TILE_OR_NULL, "turned": TILE_OR_NULL},
                ),
                "claim": obj(
                    {"on_grill": {"type": "boolean"}, "steal_from": SEAT_OR_NULL, "lower": TILE_OR_NULL},
                    description="What stopping now would claim (only while a claim is possible).",
                ),
            },
            required=["grill", "stacks", "turn", "last_turn"],
        ),
        "HeckmeckBarbecueOptions": obj(
            {
                "spot_worms": {
                    "type": "object",
                    "propertyNames": {"enum": [str(value) for value in SPOT_VALUES]},
                    "additionalProperties": {"type": "integer"},
                    "required": [str(value) for value in SPOT_VALUES],
                }
            }
        ),
        "HeckmeckBarbecueState": obj(
            {
                "spots": array(
                    obj(
                        {
                            "value": {"type": "integer", "minimum": SPOT_VALUES[0], "maximum": SPOT_VALUES[-1]},
                            "worms": {"type": "integer", "minimum": SPOT_WORMS_RANGE[0], "maximum": SPOT_WORMS_RANGE[-1]},
                            "plates": array(SEAT, maxItems=2, description="The owners' seats."),
                            "snail": {"type": "boolean"},
                        }
                    ),
                    minItems=len(SPOT_VALUES),
                    maxItems=len(SPOT_VALUES),
                ),
                "worms": array({"type": "integer"}),
                "snails": array(COUNT),
                "plates_left": array(COUNT),
                "snail_supply": COUNT,
                "colours": array({"enum": list(PLATE_COLOURS)}, description="The plate colour of each seat."),
                "turn": ref("WormDiceTurn"),
                "last_turn": last_turn(
                    ["placed", "protected", "stole", "snail", "failed"],
                    {"spot": SPOT_OR_NULL, "from_seat": SEAT_OR_NULL, "snail_to": SPOT_OR_NULL},
                ),
                "claim": obj(
                    {
                        "outcome": {"enum": ["placed", "protected", "stole", "snail", "failed"]},
                        "spot": SPOT_OR_NULL,
                        "from_seat": SEAT_OR_NULL,
                        "reason": {"type": "string"},
                    },
                    required=["outcome", "spot", "from_seat"],
                    description="What stopping now would do (only once dice are set aside).",
                ),
            },
            required=["spots", "worms", "snails", "plates_left", "snail_supply", "turn", "last_turn"],
        ),
        "LoboOptions": obj({"deal_colors": {"type": "boolean"}}),
        "LoboState": obj(
            {
                "seats": array(
                    obj(
                        {
                            "seat": SEAT,
                            "color": nullable(ref("FlockColor")) | {"description": "null while hidden from the reader."},
                            "color_recorded": {"type": "boolean"},
                            "revealed": {"type": "boolean"},
                            "left": nullable({"type": "integer", "minimum": 1}) | {"description": "Order of leaving."},
                            "bonus": COUNT,
                            "meadow": nullable(COUNT),
                            "meadows": nullable(
                                array(
                                    obj(
                                        {
                                            "sheep": COUNT,
                                            "fenced": {"type": "boolean"},
                                            "wolf": {"type": "boolean"},
                                            "valid": {"type": "boolean"},
                                            "counts": {"type": "boolean"},
                                            "reason": nullable({"enum": ["not_fenced", "wolf", "smaller"]}),
                                        }
                                    )
                                )
                            ),
                        },
                        required=["seat", "color", "revealed", "left", "bonus", "meadow"],
                    )
                ),
                "ended": {"type": "boolean"},
                "end_reason": nullable({"enum": ["tiles_placed", "all_left"]}),
                "next_bonus": COUNT,
                "waiting_for": array(SEAT, description="Seats yet to enter their meadows after the end."),
            },
            required=["seats", "ended"],
        ),
        "TwentyOneOptions": obj(
            {
                "sheets": nullable(array(nullable({"enum": list(LETTERS)}))),
                "sheet_layouts": nullable(array(nullable(ref("SheetLayout")))),
            }
        ),
        "TwentyOneState": obj(
            {
                "round": {"type": "integer", "minimum": 1},
                "roll": nullable(ref("TwentyOneDice")),
                "first_roll": nullable(ref("TwentyOneDice")),
                "rerolled": {"type": "boolean"},
                "waiting_for": array(SEAT, description="Seats yet to write this roll down."),
                "sheets": array(
                    obj(
                        {
                            "seat": SEAT,
                            "letter": {"enum": list(LETTERS)},
                            "copied": {"type": "boolean"},
                            "row": {"type": "integer", "minimum": 0, "maximum": ROWS},
                            "total": COUNT,
                            "rows": array(
                                obj(
                                    {
                                        "score": nullable(COUNT),
                                        "hits": {"type": "integer", "minimum": 0, "maximum": len(FIELD_NUMBERS)},
                                        "fields": array(
                                            obj(
                                                {
                                                    "color": {"enum": list(DIE_COLORS)},
                                                    "value": {"enum": list(FIELD_NUMBERS)},
                                                    "entry": nullable({"type": "integer", "minimum": 1, "maximum": 6}),
                                                    "crossed": {"type": "boolean"},
                                                    "hit": {"type": "boolean"},
                                                }
                                            ),
                                            minItems=len(FIELD_NUMBERS),
                                            maxItems=len(FIELD_NUMBERS),
                                        ),
                                    }
                                ),
                                minItems=ROWS,
                                maxItems=ROWS,
                            ),
                        }
                    )
                ),
            },
            required=["roll", "rerolled", "waiting_for", "sheets"],
        ),
    }


def schema_name(slug: str) -> str:
    """pickomino -> Pickomino, heckmeck-barbecue -> HeckmeckBarbecue."""
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
                "current_seat": {**SEAT_OR_NULL, "description": "Whose move it is (twenty-one: the roller); null when finished."},
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
                "detail": {"type": "string", "description": "How the score is made up (twenty-one's row scores)."},
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
                            "by_host": {"type": "boolean"},
                            "action": {"type": "object", "required": ["type"], "description": "As entered, secrets redacted."},
                            "undone": {"type": "boolean"},
                            "at": {"type": "string", "format": "date-time"},
                            "undone_at": nullable({"type": "string", "format": "date-time"}),
                            "redo_of": nullable({"type": "integer", "minimum": 1, "description": "The line this one enters again."}),
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
                                "redone": {"type": "integer", "minimum": 1},
                                "stopped": nullable(ref("Error")),
                            },
                            description="How many actions were entered again, and the refusal that stopped a redo of all.",
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
    503: "The database cannot be used (a full disk, a read-only file): nothing was changed.",
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
                "summary": "The table state; with a seat token also that seat's private information (lobo's secret colour).",
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
            "schemas": {**request_schemas(), **game_state_schemas(), **table_schemas()},
        },
    }

"""JSON Schema pieces with which each game describes its part of the JSON API: its options,
its actions and its state. web/openapi.py assembles the OpenAPI document from the games in
the registry, so adding a game adds its part of the document with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ApiSchemas:
    """A game's part of the API. Response objects never forbid additional properties (a
    response may carry more fields than listed); requests are described as the API takes
    them. Enumerations come from the game's own constants, so the document names exactly
    what the server accepts."""

    options_request: dict[str, Any]  # the options a new table may set (POST /api/tables)
    options: dict[str, Any]  # the effective options in the table state
    state: dict[str, Any]  # the `state` part of the table state
    actions: dict[str, dict[str, Any]]  # by schema name (games may share some: the worm-dice ones)
    named: dict[str, dict[str, Any]] = field(default_factory=dict)  # schemas the others refer to by name


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
SEAT_OR_NULL = nullable(SEAT)
COUNT = {"type": "integer", "minimum": 0}
TEXT = {"type": "string", "minLength": 1}
VERSION = {"type": "integer", "minimum": 0}
NO_OPTIONS = obj({}, required=[], additionalProperties=False)


def action(kind: str, description: str, properties: dict[str, Any] | None = None, required: list[str] | None = None):
    """One action: its `type`, its own fields, and the two every action may carry. No other
    field is taken (Game.apply reads the fields an action may hold from here)."""
    fields = {
        "type": {"const": kind},
        **(properties or {}),
        "seat": {**SEAT, "description": "The seat acted for: the host names any seat, a seat token only its own."},
        "expected_version": {**VERSION, "description": "409 stale_version if the table has moved on."},
    }
    return obj(fields, required=["type", *(required or [])], description=description, additionalProperties=False)

"""JSON Schema pieces with which each game describes its part of the JSON API: its options,
its actions and its state. web/openapi.py assembles the OpenAPI document from the games in
the registry, so adding a game adds its part of the document with it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Scene


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


class ApiDescription:
    """A game's part of the JSON API and its scenes (Game's fourth part)."""

    # Fields the API's schemas name, shared with another game, that nothing here reads.
    fields_not_read: tuple[str, ...] = ()

    def api_schemas(self) -> ApiSchemas:
        """The game's part of the JSON API (games/schema.py): its options, actions, state."""
        raise NotImplementedError

    def scenes(self) -> dict[str, Scene]:
        """Named points of a game (Scene), "start" and "finished" among them."""
        raise NotImplementedError

    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """The game at len(names) players (any count it allows, the names as given) "late"
        in play (much on the board, a round or turn under way) and "finished" with a tie its
        ranking explains: the tables the table screen's tests must fit on a TV."""
        raise NotImplementedError

    @cached_property
    def action_fields(self) -> dict[str, Fields]:
        """The fields each type of action may hold, as the game's schemas name them."""
        schemas = self.api_schemas()
        return {
            schema["properties"]["type"]["const"]: Fields.of(schema, schemas.named).without(*self.fields_not_read)
            for schema in schemas.actions.values()
        }


@dataclass(frozen=True)
class Fields:
    """What a request's JSON may hold, read from a JSON schema: an object's fields by name
    (None where the schema names none) and an array's items (None where it says none)."""

    named: dict[str, Fields] | None = None
    items: Fields | None = None

    @classmethod
    def of(cls, schema: dict[str, Any], named_schemas: dict[str, dict[str, Any]]) -> Fields:
        """The fields of `schema`, whose $refs name schemas of `named_schemas`."""
        if "$ref" in schema:
            return cls.of(named_schemas[schema["$ref"].removeprefix("#/components/schemas/")], named_schemas)
        properties = schema.get("properties")
        return cls(
            None if properties is None else {name: cls.of(inner, named_schemas) for name, inner in properties.items()},
            cls.of(schema["items"], named_schemas) if "items" in schema else None,
        )

    def without(self, *names: str) -> Fields:
        """These fields but `names`, of an object's."""
        if self.named is None or not names:
            return self
        return replace(self, named={key: inner for key, inner in self.named.items() if key not in names})

    def unknown(self, value: Any, path: tuple[str, ...] = ()) -> tuple[str, ...] | None:
        """The path to the first field of `value` these fields do not name, or None. Values
        of the wrong kind are left to the rules, which refuse them with their own sentence."""
        if isinstance(value, dict) and self.named is not None:
            for key, inner in value.items():
                found = (*path, key) if key not in self.named else self.named[key].unknown(inner, (*path, key))
                if found is not None:
                    return found
        elif isinstance(value, list) and self.items is not None:
            for index, inner in enumerate(value):
                found = self.items.unknown(inner, (*path, str(index)))
                if found is not None:
                    return found
        return None

"""How a page's form becomes an action: the tapped button's JSON (the field `action`),
completed by the form's fields named after the action's keys. The same for every game, so
a game's page needs no code of its own, only field names in its templates:

    action.dice.red = 4            ->  {"dice": {"red": 4}}
    action.colors[] = red, blue    ->  {"colors": ["red", "blue"]}       (ticked boxes)
    action.meadows.0.sheep = 7     ->  {"meadows": [{"sheep": 7}]}     (rows of a form)

A value is read as the rules should see it: a whole number as an int (inputs.typed_value),
"true" and "false" as booleans, anything else as typed, for the rules to refuse with their
own sentence; a blank field is left out. When a name comes several times the last value
counts (a hidden "false" before a checkbox of the same name), except for names ending in
`[]`, which collect every value. A row of a list whose fields are all blank or unticked is
an unused row and left out. What the button's JSON says already is never overwritten.

A key that players named (the score pad's categories: any text, a "." or digits alone
included) is written as it is named, percent-encoded after a "=" (the template filter
form_key), and is never a row's number:

    action.points.=coins%2Ebank = 3  ->  {"points": {"coins.bank": 3}}
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

from werkzeug.datastructures import MultiDict

from .. import inputs

PREFIX = "action."
MOST_FIELDS = 200  # far more than any page has: a request with more is not one of ours
LONGEST_PATH = 4
NAMED = "="  # before a key written as it is named (form_key)


class NamedKey(str):
    """A key as players named it (form_key): never read as a row's number."""


def form_key(key: str) -> str:
    """`key` as one part of a field's name, whatever it holds (a template filter)."""
    return NAMED + quote(key, safe="").replace(".", "%2E")  # quote leaves "." as it is


def _key(part: str) -> str:
    return NamedKey(unquote(part[len(NAMED):])) if part.startswith(NAMED) else part


def action_from_form(action: dict[str, Any], form: MultiDict) -> dict[str, Any]:
    filled: dict[str, Any] = {}
    names = [name for name in form if name.startswith(PREFIX)][:MOST_FIELDS]
    for name in names:
        collect = name.endswith("[]")
        path = [_key(part) for part in name[len(PREFIX) : -2 if collect else None].split(".")]
        if len(path) > LONGEST_PATH or not all(path):
            continue
        values = [typed(value) for value in form.getlist(name)]
        if collect:
            _put(filled, path, [value for value in values if value is not None])
        elif values[-1] is not None:
            _put(filled, path, values[-1])
    return {**{key: _rows_as_lists(value) for key, value in filled.items()}, **action}


def typed(value: str) -> Any:
    stripped = value.strip()
    if stripped == "":
        return None
    if stripped in ("true", "false"):
        return stripped == "true"
    return inputs.typed_value(stripped)


def _put(into: dict[str, Any], path: list[str], value: Any) -> None:
    for key in path[:-1]:
        found = into.get(key)
        if not isinstance(found, dict):
            found = into[key] = {}
        into = found
    into[path[-1]] = value


def _rows_as_lists(value: Any) -> Any:
    """{"0": {...}, "1": {...}} -> the rows in order, unused ones left out."""
    if not isinstance(value, dict):
        return value
    named = any(isinstance(key, NamedKey) for key in value)
    value = {str(key): _rows_as_lists(inner) for key, inner in value.items()}  # read, a named key is text like any other
    if value and not named and all(key.isascii() and key.isdigit() and len(key) <= 3 for key in value):
        rows = [value[key] for key in sorted(value, key=int)]
        return [row for row in rows if not (isinstance(row, dict) and all(field is False for field in row.values()))]
    return value

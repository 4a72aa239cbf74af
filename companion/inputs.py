"""What the companion reads from a request, parsed in one place: whole numbers with bounds
(typed in a form or sent as JSON) and JSON bodies. What a typed name may hold is the
games' (games/names.py), which the score pad's titles and categories share.

Pure Python (no Flask, no database), so the games' form readers use it too. A refusal is
an InputError carrying a sentence; the web layer answers it like any other refusal.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .games.errors import MalformedAction
from .games.names import is_valid_unicode
from .games.text import N_, Text, shown

# No count, score, seat or version at a table comes near this; a bigger number is a slip
# or a probe. Bounding every number here keeps a huge one out of the rules' sentences
# (Babel cannot format ~10^26) and out of Python's int-from-text limit (4,300 digits).
NUMBER_LIMIT = 10**9
_LONGEST_NUMBER = len(str(NUMBER_LIMIT))

class InputError(MalformedAction):
    """A request the companion cannot read: 400, a stable code, a sentence (a refusal
    like the rules' own, so it is answered wherever theirs are)."""

    def __init__(self, code: str, text: Text):
        super().__init__(text, code=code)


TOO_LARGE = N_("A number in this request is too large: numbers go up to %(max)s.", max=NUMBER_LIMIT)


class OutOfRange(InputError):
    """A well-formed number beyond ±NUMBER_LIMIT: 422, as the API contract has it for a
    request that is well-formed but out of range."""

    def __init__(self):
        super().__init__("number_too_large", TOO_LARGE)
        self.status = 422


NOT_A_JSON_NUMBER = N_("NaN and Infinity are not numbers JSON allows: send whole numbers.")


# --- a table page's id ----------------------------------------------------------------------
PAGE_ID_LENGTH = 16  # secrets.token_urlsafe(12)
_PAGE_ID_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def page_id(typed: str | None) -> str | None:
    """The id a table page was given when it was rendered (web/pages.py), as its taps and
    its held connection send it back; anything else is no page."""
    if typed is None or len(typed) != PAGE_ID_LENGTH or not _PAGE_ID_CHARACTERS.issuperset(typed):
        return None
    return typed


# --- numbers ------------------------------------------------------------------------------
def whole_number(typed: str | None) -> int | None:
    """A whole number typed in a form field: decimal digits (of any script, as Python reads
    them) with an optional sign, within ±NUMBER_LIMIT. None when it is not one: blank, a
    superscript or circled digit (², ①), a fraction, words. Too many digits is refused."""
    text = (typed or "").strip()
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits.isdecimal():
        return None
    if len(digits) > _LONGEST_NUMBER or abs(int(text)) > NUMBER_LIMIT:
        raise OutOfRange()
    return int(text)


UNREADABLE_NUMBER = N_("This request holds a number the companion cannot read. Reload the page and try again.")


def sent_number(typed: str | None) -> int | None:
    """A number a page's form sends back (the version the page shows, the seat the host
    enters for, the line of the log to go back to): None when the field is absent or blank,
    else a whole number within ±NUMBER_LIMIT. Anything else is refused: a garbled version
    must not skip the stale-page check, nor a garbled seat act as the phone's own."""
    if typed is None or not typed.strip():
        return None
    number = whole_number(typed)
    if number is None:
        raise InputError("malformed_number", UNREADABLE_NUMBER)
    return number


def number_or_none(typed: str | None) -> int | None:
    """A number that only chooses what a page shows (the version a phone has, the seat the
    host enters for): anything that is not a whole number in bounds shows the default."""
    try:
        return whole_number(typed)
    except InputError:
        return None


def typed_value(typed: str) -> int | str:
    """A form field's value as the rules should see it: a whole number as an int, anything
    else as typed (stripped), for the rules to refuse with their own sentence."""
    number = whole_number(typed)
    return typed.strip() if number is None else number


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _LONGEST_NUMBER or abs(int(text)) > NUMBER_LIMIT:
        raise OutOfRange()
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > NUMBER_LIMIT:  # 1e999 is read as infinity
        # every number here is a whole one: a fraction is a wrong type (400), as the rules
        # say of a smaller one, but this one is refused before its size reaches a sentence
        raise InputError("number_too_large", TOO_LARGE)
    return value


def _json_constant(name: str) -> float:
    raise InputError("malformed_json", NOT_A_JSON_NUMBER)  # NaN, Infinity, -Infinity: not JSON


NOT_JSON = N_("The request body must be a JSON object.")
NOT_UNICODE = N_("The request holds text that is not valid Unicode.")


def load_json(raw: bytes | str) -> Any:
    """A JSON document whose every number is within ±NUMBER_LIMIT and every text valid
    Unicode (no lone surrogate, which JSON's \\ud800 escapes can make and nothing can store
    or show). InputError otherwise."""
    try:
        value = json.loads(
            raw, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant, object_pairs_hook=_fields_once
        )
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError; an InputError is neither
        raise InputError("malformed_json", NOT_JSON) from None
    _check_texts(value)
    return value


def _fields_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every field is named once: of {"count": 3, "count": 8} the
    parser would keep the last, and the request would mean what it does not say."""
    fields: dict[str, Any] = {}
    for name, value in pairs:
        if name in fields:
            if not is_valid_unicode(name):
                raise InputError("invalid_text", NOT_UNICODE)
            raise InputError("duplicate_field", N_("The request names the field %(field)s twice: send each field once.", field=shown(name)))
        fields[name] = value
    return fields


def _check_texts(value: Any) -> None:
    pending = [value]
    while pending:  # by hand, not recursively: the parser takes deeper nesting than Python's stack
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and not is_valid_unicode(item):
            raise InputError("invalid_text", NOT_UNICODE)

"""Parts of a table page rendered once per table version and shared by the phones.

After every action each phone of the table fetches the fresh page (half of all polls in
bench/load.py), and most of it reads the same on every phone: the grill, the log. Those
parts are wrapped in a call block,

    {% call shared_fragment("grill", table.id, table.version) %} ... {% endcall %}

and rendered once per (part, table, version, language, *more). A table's version changes
with every action and undo, so a kept part is never stale. Whatever else a part shows must
be in `more` (the log of a game with secrets is keyed by the seat reading it).
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from flask import current_app
from flask_babel import get_locale
from markupsafe import Markup

from ..server.snapshots import RecentlyUsed

FRAGMENTS_KEPT = 1000  # a few per table of a café: a few KB each


def install(app) -> None:
    app.extensions["companion.fragments"] = RecentlyUsed(FRAGMENTS_KEPT)
    app.jinja_env.globals["shared_fragment"] = shared_fragment


def shared_fragment(name: str, table_id: str, version: int, *more: Hashable, caller: Callable[[], Any]) -> Markup:
    found = kept(name, table_id, version, *more)
    if found is None:
        found = Markup(caller())
        keep(found, name, table_id, version, *more)
    return found


def kept(name: str, table_id: str, version: int, *more: Hashable) -> Markup | None:
    """The part kept for these, in the request's language, if any."""
    return current_app.extensions["companion.fragments"].get((name, table_id, version, str(get_locale()), *more))


def keep(part: str, name: str, table_id: str, version: int, *more: Hashable) -> None:
    current_app.extensions["companion.fragments"].put((name, table_id, version, str(get_locale()), *more), Markup(part))

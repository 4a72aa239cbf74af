"""Parts of a table page rendered once per table version and shared by the phones.

After every action each phone of the table fetches the fresh page (half of all polls in
bench/load.py), and most of it reads the same on every phone: the grill, the log. Those
parts are wrapped in a call block,

    {% call shared_fragment("grill", table.id, table.version) %} ... {% endcall %}

and rendered once per (part, table, version, language, *more). A table's version changes
with every action and undo, so a kept part is never stale. Whatever else a part shows must
be in `more` (the log of a game with secrets is keyed by the seat reading it).

Each server process keeps the parts it rendered. Under the push server, a tap's process
also shares the parts it rendered for the watching phones through the database (published,
web/pages.py), and the other processes read them there before rendering their own: the
phones of a table are spread over the processes, and all are woken by the same change.
Only games whose watching phones all see the same table publish (Game's
watchers_see_the_same_table); for the others nothing is looked for there.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Hashable, Iterator

from flask import current_app, g
from flask_babel import get_locale
from jinja2 import pass_context
from markupsafe import Markup

from ..tables.snapshots import RecentlyUsed
from ..tables import service
from . import push_mode
from .database import get_db

FRAGMENTS_KEPT = 1000  # a few per table of a café: a few KB each
PUBLISHING = "companion_publishing"  # on g: (table id, version, parts) while gathered


def install(app) -> None:
    app.extensions["companion.fragments"] = RecentlyUsed(FRAGMENTS_KEPT)
    app.jinja_env.globals["shared_fragment"] = shared_fragment


@pass_context
def shared_fragment(context, name: str, table_id: str, version: int, *more: Hashable, caller: Callable[[], Any]) -> Markup:
    # only the table of a game whose watching phones all see the same is ever published
    # (pages.share_with_watchers): for the others, nothing to look for in the database
    shared_by_watchers = getattr(context.get("game"), "watchers_see_the_same_table", False)
    found = kept(name, table_id, version, *more, may_be_published=shared_by_watchers)
    if found is None:
        found = Markup(caller())
        keep(found, name, table_id, version, *more)
    return found


def kept(name: str, table_id: str, version: int, *more: Hashable, may_be_published: bool = True) -> Markup | None:
    """The part kept for these, in the request's language, if any: this process', or, when
    it may have been published, one that another process published."""
    key = (name, table_id, version, str(get_locale()), *more)
    found = current_app.extensions["companion.fragments"].get(key)
    if found is None and may_be_published and push_mode.is_on():
        stored = service.published_part(get_db(), table_id, version, part_name(key))
        if stored is not None:
            found = Markup(stored)
            current_app.extensions["companion.fragments"].put(key, found)
    return found


def keep(part: str, name: str, table_id: str, version: int, *more: Hashable) -> None:
    key = (name, table_id, version, str(get_locale()), *more)
    current_app.extensions["companion.fragments"].put(key, Markup(part))
    publishing = g.get(PUBLISHING)
    if publishing is not None and publishing[:2] == (table_id, version):
        publishing[2][part_name(key)] = str(part)


@contextmanager
def published(table_id: str, version: int) -> Iterator[dict[str, str]]:
    """Gathers the parts of the table's `version` kept in the block, by their names in the
    database, for service.publish_parts."""
    parts: dict[str, str] = {}
    setattr(g, PUBLISHING, (table_id, version, parts))
    try:
        yield parts
    finally:
        g.pop(PUBLISHING, None)


def part_name(key: tuple) -> str:
    """What a part is called in the database, where its table and version are columns of
    their own: the rest of its key, which holds only words, numbers and truth values."""
    name, _table_id, _version, *rest = key
    return repr((name, *rest))

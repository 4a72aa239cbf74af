"""Sharing a write's table with the watching phones: under the push server the process
whose write made a table's version renders what its watching phones see once, and puts it
in the database for every other process to read instead of rendering it again. Used by
every write, a page's tap or an API call."""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Callable, Iterator

from ..tables import service
from ..tables.database import STORAGE_LOG
from ..tables.store import StorageFailure
from . import fragments, push_mode
from .table_parts import is_watching, situation, watchers_table


@contextmanager
def sharing_the_write(db, writer: service.Viewer) -> Iterator[Callable[[service.Table], None]]:
    """Around a write (a page's tap, an API call): under the push server, the table it
    made, handed to the function this gives once the write committed, goes to the table's
    watching phones with the news (share_with_watchers), which is held until then
    (service.announcing_at_end). Under the thread server (no phone waits for news),
    nothing is shared."""
    if not push_mode.is_on():
        yield lambda table: None
        return
    with service.announcing_at_end(db) as moved:
        # `moved`: the tables the write moved, known once it is done (nothing: a refusal)
        yield lambda table: share_with_watchers(db, table, writer) if moved else None


def share_with_watchers(db, table: service.Table, writer: service.Viewer) -> None:
    """Under the push server, the process whose write made the table's version renders the
    table as its watching phones see it, in the writer's language (the tapping phone's, or
    the one an API call asks for: its language cookie, else Accept-Language), before the
    version is announced, and puts it in the database with the parts rendered for it (the
    grill, the log): every other process, woken with its phones, reads them there instead
    of rendering them again (a cold rendering, the costliest part of a push). Only if
    another seat is open on a phone: a host entering for players without one has nobody
    to share it with. Only a saving of work, made once the write is saved: the database
    failing now is logged, and the write answered all the same."""
    if not table.game.watchers_see_the_same_table:
        return  # each phone's table is its own (Lobo's secret colour, a Qwixx sheet first)
    if table.row["status"] == "finished":
        # a seated phone's finished table holds its own rematch form (its CSRF token): never
        # shared, and rendering it would put a token in the writer's session (an API call's)
        return
    try:
        with fragments.published(table.id, table.version) as parts:
            for seat in sorted(service.opened_seats(db, table.id) - {writer.seat}):
                context = situation(table, service.Viewer(seat=seat), whole_log=False)
                if is_watching(context):
                    watchers_table(table, context)
                    break
        if parts:
            service.publish_parts(db, table.id, table.version, parts)
    except StorageFailure as error:
        logging.getLogger(STORAGE_LOG).warning("The watching phones' table was not shared: %s", error)

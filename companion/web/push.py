"""The held connection of a table page or table screen (Server-Sent Events, served by the
push server): the fresh table as soon as an action changed it, whichever server process
saved it (companion/notify.py wakes the connection). A page that reconnects says the
version it shows (Last-Event-ID, or `v`) and catches up at once; after a rematch it is led
where the caller says. No database connection is held while waiting.

A table page says which page it is (`page`, and the same id on its taps): for a version its
own tap made, the page is sent just `own` and the version, as the tap's answer brings the
table (that table was the costliest rendering of an action, the tapping phone's own
controls, made twice). Should the answer never land, the page asks for its table itself
(static/app.js).

A phone that accepts gzip gets the stream gzipped, each event flushed by itself
(web/compression.py): a pushed table weighs about what the same page does gzipped. The
server must send each piece the moment it is given one (gevent's server does, chunk by
chunk), and must not compress the stream again."""

from __future__ import annotations

import logging
from typing import Callable

from flask import Response, abort, current_app, request, stream_with_context

from .. import inputs
from ..tables import service
from ..tables.database import STORAGE_LOG
from ..tables.store import StorageFailure
from . import push_mode
from .database import close_db, get_db
from . import compression



def server_sent(event: str, data: str = "", event_id: int | None = None) -> str:
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return head + "data: " + data.replace("\n", "\ndata: ") + "\n\n"


def held_connection(table_id: str, body: Callable, rematch_address: Callable[[str], str | None]) -> Response:
    """`body(db)`: the page's part to send for the table as it is now; `rematch_address(id)`:
    where a page of this table goes once rematch `id` started, or None to stay."""
    if service.version_and_rematch(get_db(), table_id) is None:
        abort(404)
    notifier = push_mode.current()
    if notifier is None:
        abort(404)  # the thread server holds no connections: its pages poll
    seen = inputs.number_or_none(request.headers.get("Last-Event-ID") or request.args.get("v"))
    # a rematch starts without a new version: a page that stays (nobody's seat) is sent the
    # table that says so, unless it shows it already
    rematch_seen = request.args.get("rematch") == "1"
    page = inputs.page_id(request.args.get("page"))  # a table page's own taps are not sent back
    # Said at least this often: a dead connection is noticed (and a proxy that would close a
    # silent one keeps it), and the page knows push still works (static/app.js).
    heartbeat = current_app.config["PUSH_HEARTBEAT_SECONDS"]
    close_db()

    def stream():
        nonlocal seen, rematch_seen
        with notifier.watching(table_id):
            yield f"retry: 2000\n\n{server_sent('hello')}"
            while True:
                try:
                    db = get_db()
                    followed = service.followed(db, table_id)
                    if followed is None:
                        return
                    version, rematch_id, mark = followed
                    found = version, rematch_id
                    address = rematch_address(rematch_id) if rematch_id is not None else None
                    if address is not None:
                        close_db()
                        yield server_sent("redirect", address)
                        return
                    sent = None
                    if version != seen:
                        # the page's own tap made it: its answer brings the table, so the page is
                        # only told (no id: a reconnect asks from the last table it was sent)
                        own = service.made_by_page(mark, page, version)
                        sent = server_sent("own", str(version)) if own else server_sent("table", body(db), version)
                    elif rematch_id is not None and not rematch_seen:
                        sent = server_sent("table", body(db), version)
                    seen, rematch_seen = version, rematch_id is not None
                except StorageFailure as error:
                    # The database went away (PostgreSQL stopped, the file removed): the page
                    # connects again, and its request is answered with the sentence for it.
                    logging.getLogger(STORAGE_LOG).warning("A held connection ended: the database cannot be used (%s)", error)
                    close_db()
                    return
                close_db()
                if sent is not None:
                    yield sent
                if not notifier.wait(table_id, found, heartbeat):
                    yield server_sent("ping")

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Vary": "Accept-Encoding"}  # nginx: do not buffer it
    events = stream_with_context(stream())
    if compression.accepts_gzip():
        headers["Content-Encoding"] = "gzip"
        return Response(compression.gzipped_events(events), mimetype="text/event-stream", headers=headers)
    return Response(events, mimetype="text/event-stream", headers=headers)

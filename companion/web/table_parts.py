"""A table page's part that changes (#table): what this phone may do with the table
(situation), rendered as the page, its poll, its held connection and a tap's answer send it,
and the one a watching phone sees, rendered once per version and language for all of them
(watchers_table). Shared by the pages, the held connections and the sharing of a write."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask import current_app, render_template, request

from .. import inputs
from ..games import Game
from ..tables import service, undo_redo
from .database import get_db
from . import fragments, push_mode, views
from . import session as phone


# --- the table ---------------------------------------------------------------------------
# The table page shows the newest log lines; the whole log is one tap away. Rendering every
# line into every phone's refresh made long games the costliest thing the server did.
LOG_LINES_SHOWN = 12


def situation(
    table: service.Table, viewer: service.Viewer, error: str | None = None, whole_log: bool | None = None
) -> dict[str, Any]:
    """What this phone may do with the table, and how its page refreshes: all of the
    page's context but the table in words (table_view), which a watching phone whose
    refresh is already rendered never needs. `whole_log`: unless the request says."""
    db = get_db()
    page = tapped_on()
    if whole_log is None:
        whole_log = request.args.get("log") == "all" or page.get("log") == ["all"]
    actors = [] if service.is_closed(table) else table.game.actors(table.state)
    # the seat the host asked for in the address, the one the host just entered for, or the
    # one the page tapped on was entering for
    chosen = None
    if viewer.host:
        chosen = inputs.number_or_none(request.values.get("as", request.form.get("seat", (page.get("as") or [None])[0])))
    acting_for = None
    if chosen in actors:
        acting_for = chosen
    elif viewer.seat in actors:
        acting_for = viewer.seat
    elif viewer.host and viewer.seat is None and actors:
        acting_for = actors[0]  # a host who keeps the score for everyone: whoever acts
    # A host who plays a seat of their own keeps their own sheet in front: another seat's
    # controls only once they choose to enter for it, never under their thumb. They may
    # choose whenever another seat can act: in its turn, or where seats act at once (Lobo
    # at any time: a player without a phone must still be able to leave and count).
    others_act = any(seat != viewer.seat for seat in actors)
    host_choices = actors if viewer.host and others_act and (len(actors) > 1 or viewer.seat is not None) else []
    return {
        "game": table.game,
        "viewer": viewer,
        "acting_for": acting_for,
        "host_choices": host_choices,
        "can_undo": undo_redo.can_undo(db, table, viewer),
        # what "Undo the last action" undoes (the host's undoes whoever acted last), read only then
        "undo_line": lambda: views.last_line_view(db, table, viewer),
        "redo_offer": views.redo_offer_view(db, table, viewer),
        # read only by a form that starts from what was entered before going back
        "undone_actions": lambda: [] if acting_for is None else undo_redo.undone_actions(db, table, acting_for, viewer),
        # the host may go back to any line of the log (not once a rematch has started)
        "line_undo": viewer.host and table.row.get("rematch_id") is None and not service.is_closed(table),
        # read only when the log is not kept already (web/fragments.py). Newest first, here
        # and on the results page: at a table the log is read to see what just happened (did
        # my tap count, what did Bruno take), and the newest lines come first under the board
        # without scrolling; the page shows only the newest lines, which oldest first would
        # start mid-game.
        "read_log": lambda: list(reversed(views.log_view(db, table, viewer, None if whole_log else LOG_LINES_SHOWN))),
        "read_log_total": lambda: service.log_length(db, table.id),
        # a game that hides parts of actions from some seats (Lobo) shows each seat its own log
        "log_reader": viewer.seat if type(table.game).redact_action is not Game.redact_action else None,
        "whole_log": whole_log,
        # the refresh keeps what this page shows: the seat the host enters for, the whole log
        "poll_params": {
            **({"as": acting_for} if host_choices and acting_for is not None else {}),
            **({"log": "all"} if whole_log else {}),
            # a rematch starts without a new version: the page says it shows one
            **({"rematch": 1} if table.row.get("rematch_id") is not None else {}),
        },
        "error": error,
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "push": push_mode.is_on(),
        # whether this phone's player must act now (their dice turn, their writing, their count)
        "must_act": viewer.seat is not None and not service.is_closed(table) and table.game.must_act(table.state, viewer.seat),
    }


def tapped_on() -> dict[str, list[str]]:
    """The query of the page a tap was made on, which htmx names (HX-Current-URL): a tap's
    answer keeps what that page shows, the whole log (`log=all`) and the seat the host
    enters for (`as`), as the page's refresh does (a host going back to an old line of the
    whole log stays on it; one entering for Bruno who taps "Undo" stays on Bruno)."""
    if request.method != "POST":
        return {}
    try:
        return parse_qs(urlsplit(request.headers.get("HX-Current-URL", "")).query)
    except ValueError:  # not an address: a page of ours always sends one
        return {}


def table_body(table: service.Table, viewer: service.Viewer, error: str | None = None) -> str:
    """The table part of a page, as a refresh (a poll, a push) sends it."""
    context = situation(table, viewer, error)
    if not is_watching(context):
        return render_template("table_body.html", **context, table=views.table_view(table, viewer))
    return watchers_table(table, context)


def is_watching(context: dict[str, Any]) -> bool:
    """Whether a phone only watches (not its turn, nothing to undo or redo, no error) and
    sees what every other watching phone of the table sees, in a game that shows them all
    the same (`context`: situation's)."""
    return (
        context["game"].watchers_see_the_same_table
        and context["acting_for"] is None
        and not context["viewer"].host
        and not context["can_undo"]
        and not context["redo_offer"]
        and context["error"] is None
    )


def watchers_table(table: service.Table, context: dict[str, Any]) -> str:
    """A watching phone's table part: rendered once per version and language and shared
    (after an action, all but one or two phones of a table are watching), and found before
    the table is put in words again."""
    # a seated phone and a phone that only looks differ after the game (the rematch form)
    key = ("table", table.id, table.version, context["viewer"].seat is not None, *sorted(context["poll_params"].items()))
    shared = fragments.kept(*key)
    if shared is None:
        shared = render_template("table_body.html", **context, table=views.table_view(table, context["viewer"]))
        if phone.CSRF_FIELD in shared:
            return shared  # it holds a form for this phone (a rematch): never another's
        fragments.keep(shared, *key)
    return shared

"""What the readers see of a table: the service's tables, events and offers with every
sentence rendered in the reader's language (the API's table state, the log lines). The
service decides what each viewer may read; this says it in words."""

from __future__ import annotations

from typing import Any

from ..tables import log_lines, service, undo_redo
from .i18n import render, render_all


def table_view(table: service.Table, viewer: service.Viewer = service.ANONYMOUS) -> dict[str, Any]:
    """The API's table state, with every sentence rendered in the reader's language."""
    game, state = table.game, table.state
    finished = game.is_finished(state)
    public = game.public_state(state, viewer.seat)
    if public.get("last_turn") is not None:
        public = {**public, "last_turn": {**public["last_turn"], "text": render(game.describe_last_turn(state))}}
    return {
        "id": table.id,
        "game": game.slug,
        "status": "finished" if finished else "playing",
        "version": table.version,
        "options": table.row["options"],
        "players": [
            {"seat": seat, "name": name, "score": score}
            for seat, (name, score) in enumerate(zip(table.names, game.scores(state)))
        ],
        "current_seat": game.current_seat(state),
        "ranking": render_all(game.ranking(state)) if finished else None,
        "rematch": table.row.get("rematch_id"),  # the table a rematch of this one started, if any
        "closed": service.is_closed(table),  # its host closed it: it takes no more actions
        "state": public,
    }


def log_view(db, table: service.Table, viewer: service.Viewer = service.ANONYMOUS, latest: int | None = None) -> list[dict[str, Any]]:
    """The log as `viewer` may read it (log_lines.log), each line in words."""
    return [worded(entry) for entry in log_lines.log(db, table, viewer, latest)]


def last_line_view(db, table: service.Table, viewer: service.Viewer = service.ANONYMOUS) -> dict[str, Any] | None:
    """The newest action still in effect, in words (log_lines.last_in_effect), if any."""
    last = log_lines.last_in_effect(db, table, viewer)
    return None if last is None else worded(last)


def redo_offer_view(db, table: service.Table, viewer: service.Viewer) -> list[dict[str, Any]]:
    return [worded(event) for event in undo_redo.redo_offer(db, table, viewer)]


def worded(entry: dict[str, Any]) -> dict[str, Any]:
    """An event with its `line` (a Text) as `text` in the reader's language, and the line
    a redo would give it now (`now`, undo_redo.redo_offer) as `now_text`."""
    entry = dict(entry)
    entry["text"] = render(entry.pop("line"))
    now = entry.pop("now", None)
    if now is not None:
        entry["now_text"] = render(now)
    return entry

"""The log as each reader may read it: every line with its sentence, what came of the
action where the game tells it ("stopped — took 27 from the grill"), undone lines saying
what they did when in effect, and secrets (Lobo's recorded colours) redacted per reader.
What a line says never changes once said: it is kept with the table's states (snapshots).
"""

from __future__ import annotations

import copy
from typing import Any

from . import corrections
from .service import ANONYMOUS, Table, Viewer, replay
from ..games import Game
from ..games.text import Text


def log(db, table: Table, viewer: Viewer = ANONYMOUS, latest: int | None = None) -> list[dict[str, Any]]:
    """The event log as `viewer` may read it: secrets in actions (Lobo's recorded colours)
    are redacted by the game, in the action and in its sentence (`line`, a Text to render
    in the reader's language). With `latest`, only the newest events, back to the
    `latest`-th still in effect (store.events)."""
    return _described(db, table, db.events(table.id, latest), viewer)


def last_in_effect(db, table: Table, viewer: Viewer = ANONYMOUS) -> dict[str, Any] | None:
    """The newest action still in effect, as the log shows it to `viewer`, if any."""
    last = db.last_event_in_effect(table.id)
    return None if last is None else _described(db, table, [db.event(table.id, last["seq"])], viewer)[0]


def _described(db, table: Table, entries: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """Log `entries` with their sentence (`line`) and their secrets redacted for `viewer`."""
    outcomes = _outcomes(db, table, {entry["seq"] for entry in entries if not entry["undone"]})
    outcomes.update(_undone_outcomes(db, table, [entry for entry in entries if entry["undone"]]))
    for entry in entries:
        entry["action"] = table.game.redact_action(table.state, entry["seat"], entry["action"], viewer.seat)
        entry["line"] = outcomes.get(entry["seq"]) or table.game.describe_action(table.state, entry["seat"], entry["action"])
    return entries


def _outcomes(db, table: Table, wanted: set[int]) -> dict[int, Text]:
    """The log lines that say what came of their action (Game.describe_outcome), for the
    events `wanted`: the game is replayed up to the last of them, and each of those is
    described from the states around it."""
    game = table.game
    if not wanted or type(game).describe_outcome is Game.describe_outcome:
        return {}
    lines, missing = {}, set()
    for seq in wanted:
        kept = db.outcomes.get((table.id, seq))  # (line or None,): the writer kept it
        if kept is None:
            missing.add(seq)
        else:
            lines[seq] = kept[0]
    if missing:
        state = copy.deepcopy(game.setup(table.names, table.row["options"], table.row["deal"]))
        last = max(missing)
        for seq, seat, action in db.moves(table.id):
            if seq > last:
                break
            if seq not in missing:
                game.step(state, seat, action)  # in place: accepted once, so it is accepted again
                continue
            after = game.reapply(state, seat, action)
            lines[seq] = game.describe_outcome(state, after, seat, action)
            db.outcomes.put((table.id, seq), (lines[seq],))
            state = after
    return {seq: line for seq, line in lines.items() if line is not None}


# Undone lines whose outcome is not kept: up to this many are each described from a replay
# (a few undone lines among the table page's newest); more (the results page, the whole
# log, a page whose newest lines reach back over many undone ones) from one walk through
# the table's history (corrections.replayed).
REPLAYS_BEFORE_ONE_WALK = 3


def _undone_outcomes(db, table: Table, undone: list[dict[str, Any]]) -> dict[int, Text]:
    """What the undone lines did when they were in effect, so the host choosing what to redo
    reads it: each line's action applied to the game as it stood at the version before it
    (an event's seq is the version it made). That never changes: it is kept as the lines in
    effect are. Lines undone before undos were numbered (no undone_version) cannot be placed
    in time and keep their action alone."""
    game = table.game
    if type(game).describe_outcome is Game.describe_outcome:
        return {}
    lines, missing = {}, []
    for event in undone:
        if event["undone_version"] is None:
            continue
        kept = db.outcomes.get((table.id, event["seq"]))
        if kept is None:
            missing.append(event)
        else:
            lines[event["seq"]] = kept[0]

    def describe(event: dict[str, Any], before: dict[str, Any]) -> None:
        after = game.reapply(before, event["seat"], event["action"])
        lines[event["seq"]] = game.describe_outcome(before, after, event["seat"], event["action"])
        db.outcomes.put((table.id, event["seq"]), (lines[event["seq"]],))

    unknown = []
    for event in missing:
        before = db.snapshots.get((table.id, event["seq"] - 1))  # often kept since that version
        if before is None:
            unknown.append(event)
        else:
            describe(event, before)
    if len(unknown) > REPLAYS_BEFORE_ONE_WALK:  # the whole history, once, as far as the last one
        wanted = {event["seq"]: event for event in unknown}
        for _version, event, before in corrections.replayed(game, table.start(), db.events(table.id)):
            if event is not None and wanted.pop(event["seq"], None) is not None:
                describe(event, before)
                if not wanted:
                    break
    for event in unknown:
        if event["seq"] not in lines:  # a few, or a log the walk cannot follow
            describe(event, replay(db, game, table.row, table.names, event["seq"] - 1))
    return {seq: line for seq, line in lines.items() if line is not None}

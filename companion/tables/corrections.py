"""The corrections' policy, a pure function of a table's log: which undone actions can be
entered again and in what order, after any history of actions, undos, redos and skips,
and what "redo all" must ask before entering one again. No database: the service
(tables/undo_redo.py) reads the log and the states it keeps and hands them here, and
tests/test_corrections_policy.py checks it at engine speed.

A log entry is an event as the store reads it: seq (the table version it made), seat,
action, undone, undone_version (the version of the undo that took it back), redo_of (the
line a redone one enters again), skipped_version (the version that left it out of the
redo offer) and undone_by_seat (the seat that took back its own action).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Iterator

from ..games import Game


def redoable(
    log: list[dict[str, Any]], game: Game, seat_in_turn_at: Callable[[int | None], int | None], as_of: int | None = None
) -> list[dict[str, Any]]:
    """The undone actions that can be entered again, in order: the log's appends and undos
    replayed in the order they happened (an event's seq is the version it made, an undo's
    is its undone_version). An undo puts the actions it undid in front of the list; a redo
    takes its action out, and so does a skip (its skipped_version: not to be redone). An action entered anew is a correction and takes the place of
    undone actions of its own seat, so what follows can be redone on top of it:

    - in a game of turns (`game.one_seat_at_a_time`), the undone action in front while it
      is that seat's; once the corrected turn is over (another seat acts, or the seat in
      turn is another, `seat_in_turn_at(version)`, None for now) the rest of that seat's
      undone actions in front go too. So a turn entered again with more or fewer taps than
      the wrong one replaces all of it, and the next player's turn is redone as it was;
    - where seats act at once, that seat's first undone action of the same kind
      (`game.correction_kind`) in the round in front (up to the undone action that starts
      the next round, `game.starts_round`); an action that starts a round ends the one in
      front, whose undone actions left go, and takes the place of the undone start.

    An action its own player took back (their undo, not the host's) stays on offer, for them
    to redo at once, only until the table moves on without it: the host going back, or,
    where seats act at once, another action entered anew (in a game of turns nobody else
    can act in between, and the turn's own correction above applies).

    `log`: the table's log (events in seq order, undone ones included, as the store reads
    them), or as of the version `as_of` to tell what could be redone then.
    `seat_in_turn_at(version)`: the seat in turn at that table version (None: now)."""
    by_seq = {event["seq"]: event for event in log}
    undos: dict[int, list[dict[str, Any]]] = {}
    for event in log:
        if event["undone"] and event["undone_version"] is not None:
            undos.setdefault(event["undone_version"], []).append(event)
    happenings = sorted(
        [(event["seq"], "entered", [event]) for event in log]
        + [(version, "undone", undone) for version, undone in undos.items()]
        + [(event["skipped_version"], "skipped", [event]) for event in log if event["skipped_version"] is not None],
        key=lambda happening: happening[0],
    )
    pending: list[dict[str, Any]] = []
    taken_back: set[int] = set()  # the seqs in `pending` their own player took back
    correcting = None  # in a game of turns: the seat whose turn is being entered again
    for version, kind, touched in happenings:
        if kind == "skipped":  # nothing entered: a corrected turn goes on
            pending = [undone for undone in pending if undone["seq"] != touched[0]["seq"]]
            continue
        if kind == "undone":
            if correcting is not None and seat_in_turn_at(version - 1) != correcting:
                pending = _without_front_of(pending, correcting)  # that turn was over
            front = [by_seq[event["redo_of"] or event["seq"]] for event in touched]
            if touched[0]["undone_by_seat"] is None:  # the host going back: what it undid is the host's to redo
                pending = [undone for undone in pending if undone["seq"] not in taken_back]
                taken_back.difference_update(undone["seq"] for undone in front)
            else:
                taken_back.update(undone["seq"] for undone in front)
            pending = front + pending
            correcting = None
            continue
        event = touched[0]
        if correcting is not None and event["seat"] != correcting:
            pending = _without_front_of(pending, correcting)  # the corrected turn is over
        correcting = None
        if event["redo_of"] is not None:
            if pending and pending[0]["seq"] == event["redo_of"]:
                pending = pending[1:]  # the usual redo: the one in front
            else:
                pending = [undone for undone in pending if undone["seq"] != event["redo_of"]]
            if game.one_seat_at_a_time:
                correcting = event["seat"]  # a redone action may end a corrected turn by itself
        elif game.one_seat_at_a_time:
            correcting = event["seat"]
            if pending and pending[0]["seat"] == correcting:
                pending = pending[1:]
        else:
            pending = _corrected_at_once(pending, event, game)
            pending = [undone for undone in pending if undone["seq"] not in taken_back]  # moved on without it
    if correcting is not None and seat_in_turn_at(as_of) != correcting:
        pending = _without_front_of(pending, correcting)
    return pending


def after_redo(pending: list[dict[str, Any]], game: Game, seat_in_turn: int | None) -> list[dict[str, Any]]:
    """What redoable says once `pending[0]` was redone (`seat_in_turn` now), without reading
    the log again: a redo of all asks after every line. The line goes, and in a game of
    turns, the rest of a corrected turn it ended."""
    redone, rest = pending[0], pending[1:]
    if game.one_seat_at_a_time and seat_in_turn != redone["seat"]:
        return _without_front_of(rest, redone["seat"])
    return rest


def _without_front_of(pending: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """`pending` without the actions of `seat` in front: what was left of a corrected turn."""
    kept = 0
    while kept < len(pending) and pending[kept]["seat"] == seat:
        kept += 1
    return pending[kept:]


def _corrected_at_once(pending: list[dict[str, Any]], event: dict[str, Any], game: Game) -> list[dict[str, Any]]:
    """`pending` once `event`, entered anew where seats act at once, took its place."""
    round_end = next((index for index, undone in enumerate(pending) if game.starts_round(undone["action"])), len(pending))
    if game.starts_round(event["action"]):
        return pending[round_end + 1 :]  # the round in front is over; its start is replaced
    kind = game.correction_kind(event["action"])
    for index, undone in enumerate(pending[:round_end]):
        if undone["seat"] == event["seat"] and game.correction_kind(undone["action"]) == kind:
            return pending[:index] + pending[index + 1 :]
    return pending


def seats_in_turn_before_undos(game: Game, start: dict[str, Any], log: list[dict[str, Any]]) -> dict[int, int | None]:
    """For each undo in `log` (the table's, or as of a version), the seat in turn just
    before it (at its version - 1), by that version, all in one replay (replayed) where
    replaying up to each undo's version was one replay per undo (a long game corrected
    often: seconds). Empty for a log with undos made before they were numbered."""
    undos = len({event["undone_version"] for event in log if event["undone"]})
    seats: dict[int, int | None] = {}
    for version, event, state in replayed(game, start, log):
        if event is None:
            seats[version - 1] = game.current_seat(state)
            if len(seats) == undos:
                break  # the last undo: nothing after it is asked about
    return seats


def replayed(
    game: Game, start: dict[str, Any], log: list[dict[str, Any]]
) -> Iterator[tuple[int, dict[str, Any] | None, dict[str, Any]]]:
    """The table's history from `start` (its game's setup) replayed once, in the order
    things happened: for each line of
    `log`, (its seq, the line, the state just before it), and for each undo, (its version,
    None, the state just before it); each undo takes the state back to the one before the
    first line it undid, kept on the way. The states are lent: not to be changed. Nothing
    for a log with undos made before they were numbered (their time is unknown)."""
    if any(event["undone"] and event["undone_version"] is None for event in log):
        return
    undone_from: dict[int, int] = {}  # an undo's version -> the first line it undid
    for event in log:
        if event["undone"]:
            version = event["undone_version"]
            undone_from[version] = min(undone_from.get(version, event["seq"]), event["seq"])
    restore_points = set(undone_from.values())
    happenings = sorted(
        [(event["seq"], event) for event in log] + [(version, None) for version in undone_from],
        key=lambda happening: happening[0],
    )
    state = copy.deepcopy(start)
    kept: dict[int, dict[str, Any]] = {}
    for version, event in happenings:
        yield version, event, state
        if event is None:
            state = kept.pop(undone_from[version])
            continue
        if event["seq"] in restore_points:
            kept[event["seq"]] = copy.deepcopy(state)
        game.step(state, event["seat"], event["action"])  # accepted once, so accepted again


def unlike_when_first_entered(
    game: Game, seat: int, before: dict[str, Any], then: dict[str, Any], now: dict[str, Any], redone: dict[str, Any]
) -> str | None:
    """Why "redo all" stops before an action of `seat` that made `then` of `before` when it
    was first entered and would make `redone` of `now` entered again: "ends_badly" (a
    failed turn, a penalty, Game.ends_badly) where it did not then, or "touches_others"
    (Game.others_touched: a take become a steal) otherwise than then. Going back changed what
    it means: the host, or its player, decides, redoing it alone. None: it goes with the rest."""
    if game.ends_badly(now, redone, seat) and not game.ends_badly(before, then, seat):
        return "ends_badly"
    if game.others_touched(now, redone, seat) != game.others_touched(before, then, seat):
        return "touches_others"
    return None

"""Correcting a table: a player's undo of their own last action, the host going back to any
line of the log, redoing undone actions one by one or all that still apply, and leaving one
out. Each write takes the table's lock as every write does (writing); what can be
redone, and what a redo of all must ask first, is the pure policy of corrections.py.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Iterator

from . import corrections
from .service import (
    STALE_CORRECTION, STALE_SKIP, ServiceError, Table, Viewer, check_expected_version, is_closed, load, refuse_after_rematch,
    refuse_closed, refuse_host_only, replay, save, tried_once_more, writing,
)
from ..games import Game
from ..games.errors import RuleError
from ..games.text import N_, Text


@tried_once_more
def undo(db, table_id: str, viewer: Viewer, expected_version: Any = None, from_seq: Any = None) -> Table:
    """Undo the last action still in effect or, with `from_seq`, that line of the log and
    every later one still in effect (the host going back to fix an earlier mistake). Each
    undone action stays in the log, marked, and can be redone (see redo)."""
    if viewer.anonymous:
        raise ServiceError(401, "no_token", N_("Join the table with your own link to undo."))
    if from_seq is not None and (isinstance(from_seq, bool) or not isinstance(from_seq, int)):
        raise ServiceError(400, "malformed_request", N_("The line to go back to must be a whole number."))
    with writing(db, table_id):
        table = load(db, table_id)
        check_expected_version(table, viewer, expected_version)
        refuse_closed(table)
        refuse_after_rematch(table)
        last = db.last_event_in_effect(table_id)
        if last is None:
            raise ServiceError(409, "nothing_to_undo", N_("There is nothing to undo."))
        target = last if from_seq is None else db.event_in_effect(table_id, from_seq)
        if target is None:
            raise ServiceError(
                422, "line_not_in_effect", N_("Line %(seq)s of the log is not in effect: there is nothing to undo there.", seq=from_seq)
            )
        if not viewer.host and target["seq"] != last["seq"]:
            raise ServiceError(403, "host_only", N_("Only the host can go back further than the last action."))
        if not viewer.host and viewer.seat != last["seat"]:
            raise ServiceError(
                403,
                "not_your_action",
                N_("Only %(name)s or the host can undo the last action.", name=table.names[last["seat"]]),
            )
        if not viewer.host and table.game.host_only_actions:
            refuse_host_only(table, viewer, db.event(table_id, last["seq"])["action"])
        version = table.version + 1
        # a player's undo of their own last action takes it back (a host playing that seat
        # too); anything else is the host going back (corrections.redoable)
        taken_back = target["seq"] == last["seq"] and viewer.seat is not None and viewer.seat == last["seat"]
        db.mark_undone_from(table_id, target["seq"], version, viewer.seat if taken_back else None)
        save(db, table, replay(db, table.game, table.row, table.names, version), version, viewer)
    db.snapshots.put((table_id, table.version), table.state)
    return table


@dataclass
class Redone:
    table: Table
    count: int  # actions entered again
    stopped: ServiceError | None  # why a redo of everything stopped early, if it did


def _holds_a_secret_from(table: Table, viewer: Viewer, event: dict[str, Any]) -> bool:
    """Whether the undone `event` holds a secret of its seat's that `viewer` may not read
    (Lobo's recorded colour), so only its seat redoes it (or the host who entered it);
    never in a game whose redo enters a secret unseen (Game.secret_redone_unseen)."""
    if viewer.seat == event["seat"] or event["by_host"] or table.game.secret_redone_unseen:
        return False
    return table.game.redact_action(table.state, event["seat"], event["action"], viewer.seat) != event["action"]


def _line_for(table: Table, viewer: Viewer, event: dict[str, Any]) -> Text:
    """The log line of `event` as `viewer` may read it (Lobo: a recorded colour named to its
    holder only, so they can tell a slip from the right one)."""
    game, seat = table.game, event["seat"]
    return game.describe_action(table.state, seat, game.redact_action(table.state, seat, event["action"], viewer.seat))


def _redone_state(table: Table, viewer: Viewer, event: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The state with `event` entered again as `action` (Game.redone)."""
    refuse_host_only(table, viewer, action)
    if not viewer.host and viewer.seat != event["seat"]:
        raise ServiceError(
            403, "not_your_action", N_("Only %(name)s or the host can redo %(name)s's action.", name=table.names[event["seat"]])
        )
    if _holds_a_secret_from(table, viewer, event):
        # The rules' answer would tell a secret of the seat's (Lobo: a colour another player
        # revealed since is refused, naming it), and so would redoing it or not.
        line = _line_for(table, viewer, event)
        raise ServiceError(
            403,
            "secret_action",
            N_("Only %(name)s can redo “%(name)s %(line)s”: it holds their secret.", name=table.names[event["seat"]], line=line),
        )
    try:
        # entered again: checked as new, by whoever enters it now
        return table.game.apply(table.state, event["seat"], action, entered_by_seat=viewer.seat == event["seat"])
    except RuleError as error:
        # the rules speak to the player who acted; whoever redoes it is told whose line it was
        line = _line_for(table, viewer, event)
        name = table.names[event["seat"]]
        if error.code == "not_your_turn":  # the rules' "not you" would mean whoever redoes it
            reason = N_("“%(name)s %(line)s” cannot be redone now: it is not %(name)s's turn.", name=name, line=line)
            raise ServiceError(error.status, error.code, reason) from None
        if viewer.seat == event["seat"]:
            reason = N_("“%(name)s %(line)s” cannot be redone: %(reason)s", name=name, line=line, reason=error.text)
        else:  # the host: the rules' "you" is the seat's player, said as such
            reason = N_("“%(name)s %(line)s” cannot be redone. The rules tell %(name)s: %(reason)s", name=name, line=line, reason=error.text)
        raise ServiceError(error.status, error.code, reason) from None


def _unlike_when_first_entered(db, table: Table, viewer: Viewer, event: dict[str, Any], redone: dict[str, Any]) -> ServiceError | None:
    """Why "redo all" stops before the undone `event`, entered again as `redone` says
    (corrections.unlike_when_first_entered), in words: what it would do now that it did not
    when first entered. The table as it stood then is kept, or replayed."""
    game, seat = table.game, event["seat"]
    before = db.snapshots.get((table.id, event["seq"] - 1))  # an event's seq is the version it made
    if before is None:
        before = replay(db, game, table.row, table.names, event["seq"] - 1)
    then = game.reapply(before, seat, event["action"])
    unlike = corrections.unlike_when_first_entered(game, seat, before, then, table.state, redone)
    name = table.names[seat]
    if unlike == "ends_badly":
        reason = replace(game.redo_ends_badly, params={"name": name, "line": _line_for(table, viewer, event)})
        return ServiceError(409, "redo_ends_badly", reason)
    if unlike == "touches_others":
        action = game.redact_action(table.state, seat, event["action"], viewer.seat)
        line = game.describe_outcome(before, then, seat, action) or _line_for(table, viewer, event)
        now = game.describe_outcome(table.state, redone, seat, action) or line
        reason = replace(game.redo_touches_others, params={"name": name, "line": line, "now": now})
        return ServiceError(409, "redo_touches_others", reason)
    return None


def redoable(db, table: Table, as_of: int | None = None) -> list[dict[str, Any]]:
    game = table.game
    found: dict[int, int | None] | None = None

    def seat_in_turn_at(version: int | None) -> int | None:
        nonlocal found
        if version is None or version == table.version:
            return game.current_seat(table.state)
        state = db.snapshots.get((table.id, version))  # often kept since that version
        if state is not None:
            return game.current_seat(state)
        if found is None:  # the versions redoable asks about, all found in one replay
            found = corrections.seats_in_turn_before_undos(game, table.start(), log)
        if version in found:
            return found[version]
        return game.current_seat(replay(db, game, table.row, table.names, version))

    if not db.anything_undone(table.id, as_of):
        return []  # nothing was taken back: nothing to redo, and the whole log left unread
    log = db.events(table.id) if as_of is None else db.events_as_of(table.id, as_of)
    return corrections.redoable(log, game, seat_in_turn_at, as_of)


@contextmanager
def _redo_offer(
    db, table_id: str, viewer: Viewer, expected_version: Any, stale: Text = STALE_CORRECTION
) -> Iterator[tuple[Table, list[dict[str, Any]]]]:
    """Inside the table's write: the table and the undone actions that can be redone (at
    least one), once the checks a redo and a skip share have passed."""
    if viewer.anonymous:
        raise ServiceError(401, "no_token", N_("Join the table with your own link to redo."))
    with writing(db, table_id):
        table = load(db, table_id)
        check_expected_version(table, viewer, expected_version, stale)
        refuse_closed(table)
        refuse_after_rematch(table)
        pending = redoable(db, table)
        if not pending:
            raise ServiceError(409, "nothing_to_redo", N_("There is nothing to redo."))
        yield table, pending


@tried_once_more
def redo(db, table_id: str, viewer: Viewer, expected_version: Any = None, everything: bool = False) -> Redone:
    """Enter the next undone action again (corrections.redoable) or, with `everything`, each in
    turn: every one is checked by the rules again, and the first that no longer applies, or
    would now do what it did not when first entered (_unlike_when_first_entered), stops the
    redo with its sentence (those before it stay entered). Allowed to the host, and to a
    player for their own action."""
    with _redo_offer(db, table_id, viewer, expected_version) as (table, pending):
        count, stopped = 0, None
        while pending:
            event = pending[0]
            action = table.game.redone(event["action"])
            try:
                state = _redone_state(table, viewer, event, action)
                unlike = _unlike_when_first_entered(db, table, viewer, event, state) if everything else None
                if unlike is not None:
                    raise unlike
            except ServiceError as refused:
                if count == 0:
                    raise
                # a player's own actions are redone: the next one being another's says nothing wrong
                stopped = None if refused.code == "not_your_action" else refused
                break
            version = table.version + 1
            logged = table.game.as_logged(table.state, event["seat"], action)
            db.append_event(table_id, version, event["seat"], event["by_host"], logged, redo_of=event["seq"])
            save(db, table, state, version, viewer)
            count += 1
            if not everything:
                break
            pending = corrections.after_redo(pending, table.game, table.game.current_seat(table.state))
    db.snapshots.put((table_id, table.version), table.state)
    return Redone(table, count, stopped)


@tried_once_more
def skip(db, table_id: str, viewer: Viewer, expected_version: Any = None) -> tuple[Table, dict[str, Any]]:
    """Take the next undone action out of the redo offer without entering it: a wrong tap
    that was gone back over (an action for the wrong player), or one the rules now refuse,
    no longer stands in front of the rest. It stays in the log, undone; the table moves to
    a new version, its state unchanged. The host, or a player for their own action."""
    with _redo_offer(db, table_id, viewer, expected_version, STALE_SKIP) as (table, pending):
        event = pending[0]
        if not viewer.host and viewer.seat != event["seat"]:
            raise ServiceError(
                403, "not_your_action", N_("Only %(name)s or the host can skip %(name)s's action.", name=table.names[event["seat"]])
            )
        version = table.version + 1
        db.mark_skipped(table_id, event["seq"], version)
        save(db, table, table.state, version, viewer)
    db.snapshots.put((table_id, table.version), table.state)
    return table, event


def can_undo(db, table: Table, viewer: Viewer) -> bool:
    if table.row.get("rematch_id") is not None or is_closed(table):
        return False
    last = db.last_event_in_effect(table.id)
    if last is None:
        return False
    if viewer.host:
        return True
    if viewer.seat is None or viewer.seat != last["seat"]:
        return False
    # an action only the host takes back is logged under a seat all the same (the score pad's end)
    host_only = table.game.host_only_actions
    return not host_only or db.event(table.id, last["seq"])["action"].get("type") not in host_only


def redo_offer(db, table: Table, viewer: Viewer) -> list[dict[str, Any]]:
    """The undone actions `viewer` can redo in a row from here, each with its log line
    (`line`, a Text); in a game of turns, those in front that are the turn in play's, being
    entered again, are marked `of_turn_in_play` (the page lists them: the taps of the turn
    as it was entered, which redoing would enter)."""
    if table.row.get("rematch_id") is not None or viewer.anonymous or is_closed(table):
        return []
    offer = []
    for event in _pending(db, table):
        if not viewer.host and viewer.seat != event["seat"]:
            break
        secret = _holds_a_secret_from(table, viewer, event)
        if secret and offer:
            break  # "redo all" stops before it: its seat redoes it
        offer.append({**event, "line": _line_for(table, viewer, event), "secret": secret})
        if secret:
            break  # in front: it can only be left out here
    if offer and not offer[0]["secret"]:
        offer[0].update(_redone_now(table, viewer, offer[0]))
    if table.game.one_seat_at_a_time:
        in_turn = table.game.current_seat(table.state)
        for entry in offer:
            if entry["seat"] != in_turn:
                break
            entry["of_turn_in_play"] = True
    return offer


def _pending(db, table: Table) -> list[dict[str, Any]]:
    """The undone actions that can be redone, in order (redoable). What can be redone at a
    version never changes: every phone of the table shares it."""
    pending = db.redoable.get((table.id, table.version))
    if pending is None:
        pending = redoable(db, table, as_of=table.version)
        db.redoable.put((table.id, table.version), pending)
    return pending


def undone_actions(db, table: Table, seat: int, viewer: Viewer) -> list[dict[str, Any]]:
    """`seat`'s undone actions that can still be redone, oldest first, as `viewer` may read
    them: a form of that seat's starts from what was entered before the host went back over
    it (Lobo's meadows), so entering it again is one tap."""
    if viewer.anonymous or (not viewer.host and viewer.seat != seat):
        return []
    return [
        table.game.redact_action(table.state, seat, event["action"], viewer.seat)
        for event in _pending(db, table)
        if event["seat"] == seat
    ]


def _redone_now(table: Table, viewer: Viewer, event: dict[str, Any]) -> dict[str, Any]:
    """What redoing `event` would do now, in games whose log tells what came of an action
    (Game.describe_outcome): its log line then (`now`: "stopped — turn failed …", "entered
    red: 1 hit"), and whether it would end badly for its seat (`ends_badly`: the page then
    asks once more, as for any tap that fails a turn). Going back may have changed both
    since it was first entered."""
    game = table.game
    if type(game).describe_outcome is Game.describe_outcome:
        return {"ends_badly": False, "now": None}
    try:
        after = _redone_state(table, viewer, event, game.redone(event["action"]))
    except ServiceError:
        return {"ends_badly": False, "now": None}  # refused: the tap says why
    return {
        "ends_badly": game.ends_badly(table.state, after, event["seat"]),
        "now": game.describe_outcome(table.state, after, event["seat"], event["action"]),
    }

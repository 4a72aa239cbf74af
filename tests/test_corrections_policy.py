"""docs/rules.md (corrections), the policy alone (companion/tables/corrections.py): which undone
actions can be redone, in what order, after a history of actions, undos, redos and skips,
written as the store writes it and read at engine speed, with no database."""

from __future__ import annotations

from typing import Any

from companion.games import GAMES
from companion.tables import corrections

W = "worm"
PICKOMINO, TWENTY_ONE = GAMES["pickomino"], GAMES["twenty-one"]


class History:
    """A table's log as the store writes it: each action, undo, redo and skip makes the
    next version; an event's seq is the version it made. The game is played along, so the
    seat in turn at every version is known."""

    def __init__(self, game, players=("Ana", "Bruno", "Caio")):
        self.game = game
        self.version = 0
        self.log: list[dict[str, Any]] = []
        self.start = game.setup(list(players), game.effective_options({}), None)
        self.turns = {0: game.current_seat(self.start)}  # version -> seat in turn

    def moved(self) -> None:
        """A new version: the seat in turn once the actions in effect are replayed."""
        in_effect = [(event["seat"], event["action"]) for event in self.log if not event["undone"]]
        self.turns[self.version] = self.game.current_seat(self.game.replay(self.start, in_effect))

    def act(self, seat: int, action: dict[str, Any], redo_of: int | None = None) -> int:
        self.version += 1
        self.log.append({
            "seq": self.version, "seat": seat, "by_host": False, "action": action, "undone": False, "at": "",
            "undone_at": None, "undone_version": None, "redo_of": redo_of, "skipped_version": None, "undone_by_seat": None,
        })
        self.moved()
        return self.version

    def undo_from(self, seq: int, by_seat: int | None = None) -> None:
        self.version += 1
        for event in self.log:
            if event["seq"] >= seq and not event["undone"]:
                event.update(undone=True, undone_version=self.version, undone_by_seat=by_seat)
        self.moved()

    def redo(self, seq: int) -> None:
        original = next(event for event in self.log if event["seq"] == seq)
        self.act(original["seat"], original["action"], redo_of=seq)

    def skip(self, seq: int) -> None:
        self.version += 1
        for event in self.log:
            if event["undone"] and event["skipped_version"] is None and seq in (event["seq"], event["redo_of"]):
                event["skipped_version"] = self.version
        self.moved()

    def redoable(self) -> list[int]:
        """The seqs on offer now."""
        def seat_in_turn_at(version):
            return self.turns[self.version if version is None else version]

        return [event["seq"] for event in corrections.redoable(self.log, self.game, seat_in_turn_at)]


def aside(face, count):
    return {"type": "set_aside", "face": face, "count": count}


STOP = {"type": "stop"}


def test_rule_6_an_undo_puts_what_it_undid_in_front_and_a_redo_takes_the_front_one():
    history = History(PICKOMINO)
    for action in (aside(W, 2), aside(5, 3), STOP):
        history.act(0, action)
    assert history.redoable() == []
    history.undo_from(2)
    assert history.redoable() == [2, 3]
    history.redo(2)
    assert history.redoable() == [3]


def test_rule_6_a_skipped_action_leaves_the_offer_and_the_rest_stays():
    history = History(PICKOMINO)
    for action in (aside(3, 1), aside(W, 5), STOP):
        history.act(0, action)
    history.undo_from(1)
    history.skip(1)
    assert history.redoable() == [2, 3]


def test_rule_6_in_a_game_of_turns_a_turn_entered_again_replaces_all_of_the_wrong_one_once_it_is_over():
    """Bruno's turn (lines 3-4) is entered again with three taps (7-9): once Caio is in turn,
    nothing of the wrong turn is left, and Caio's turn (5-6) is offered as it was."""
    history = History(PICKOMINO)
    for seat, action in [(0, aside(W, 5)), (0, STOP), (1, aside(W, 5)), (1, STOP), (2, aside(W, 5)), (2, STOP)]:
        history.act(seat, action)
    history.undo_from(3)
    history.act(1, aside(W, 2))
    assert history.redoable() == [4, 5, 6]  # Bruno's first tap replaced the wrong first one
    history.act(1, aside(5, 3))
    history.act(1, STOP)
    assert history.redoable() == [5, 6]  # his turn is over: the rest of the wrong turn went


ONES = {"type": "roll", "dice": {"white": 1, "black": 1, "red": 1, "blue": 1, "yellow": 1, "green": 1}}
CROSS = {"type": "cross"}


def test_rule_6_where_players_act_at_once_an_entry_replaces_that_players_undone_entry_of_the_round():
    """Twenty One: going back to Ana's writing of round 1 (lines 2-6 undone), Ana and Bruno
    write anew (each replaces their own undone writing of that round: entering and crossing
    out are one kind); round 2's roll entered anew replaces the undone one, and the writes
    made on it are redone on top."""
    history = History(TWENTY_ONE, ("Ana", "Bruno"))
    history.act(0, ONES)
    history.act(0, {"type": "enter", "colors": ["white"]})
    history.act(1, CROSS)
    roller = history.turns[history.version]
    history.act(roller, ONES)
    history.act(0, CROSS)
    history.act(1, CROSS)
    history.undo_from(2)
    assert history.redoable() == [2, 3, 4, 5, 6]
    history.act(1, {"type": "enter", "colors": ["red"]})  # Bruno first: his cross (3) is replaced
    assert history.redoable() == [2, 4, 5, 6]
    history.act(0, CROSS)  # Ana's entry (2) is replaced
    assert history.redoable() == [4, 5, 6]
    history.act(roller, ONES)  # round 2's roll anew: the undone one goes, the writes on it stay
    assert history.redoable() == [5, 6]


def test_rule_6_an_action_its_player_took_back_stays_on_offer_only_until_the_table_moves_on():
    history = History(TWENTY_ONE, ("Ana", "Bruno"))
    history.act(0, ONES)
    history.act(0, {"type": "enter", "colors": ["white"]})
    history.undo_from(2, by_seat=0)
    assert history.redoable() == [2]
    history.act(1, CROSS)  # another's writing: the table moved on without it
    assert history.redoable() == []


def test_rule_6_after_a_redo_the_offer_is_worked_out_again_without_the_log():
    """A redo of all asks after every line: the redone line goes, and in a game of turns the
    rest of a corrected turn it ended."""
    pending = [{"seq": 3, "seat": 1}, {"seq": 4, "seat": 1}, {"seq": 5, "seat": 2}]
    assert corrections.after_redo(pending, PICKOMINO, seat_in_turn=1) == pending[1:]
    assert corrections.after_redo(pending, PICKOMINO, seat_in_turn=2) == pending[2:]
    assert corrections.after_redo(pending, TWENTY_ONE, seat_in_turn=None) == pending[1:]


def test_rule_6_redo_all_asks_before_an_action_that_now_ends_badly_or_touches_another_player():
    game = PICKOMINO
    start = game.setup(["Ana", "Bruno"], game.effective_options({}), None)
    ana_24 = game.replay(start, [(0, aside(W, 3)), (0, aside(3, 3)), (0, STOP)])
    ana_25 = game.replay(start, [(0, aside(W, 3)), (0, aside(5, 2)), (0, STOP)])
    before_then, before_now = (game.apply(state, 1, aside(W, 5)) for state in (ana_24, ana_25))
    then, now = game.apply(before_then, 1, STOP), game.apply(before_now, 1, STOP)
    assert corrections.unlike_when_first_entered(game, 1, before_then, then, before_now, now) == "touches_others"
    assert corrections.unlike_when_first_entered(game, 1, before_then, then, before_then, then) is None
    no_worm = game.apply(start, 0, aside(5, 3))
    failed = game.apply(no_worm, 0, STOP)
    took = game.apply(game.apply(start, 0, aside(W, 5)), 0, STOP)
    assert corrections.unlike_when_first_entered(game, 0, game.apply(start, 0, aside(W, 5)), took, no_worm, failed) == "ends_badly"

"""Random Twenty One games (docs/rules.md (Twenty One)): random rolls and re-rolls, every seat writing in a
random order what it likes (a random choice of the dice that fit, or a cross), with
mistakes thrown in that must be refused with the state untouched.

After every accepted action: each scored row equals its entries plus the hit bonus, hits
are exactly the entries equal to their field, totals are the sums of the row scores, and
only the acting seat's current row changed. Per round, a player writes in at most one
row. Every game ends (30 fields a sheet, at least one used per round), as §5 says, and
replaying the accepted actions gives the same state.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.twentyone import COLORS, FIELD_NUMBERS, HIT_BONUS, ROWS

GAME = GAMES["twenty-one"]
MOST_ROUNDS = ROWS * len(FIELD_NUMBERS)  # every round uses at least one field of every sheet

dice = st.fixed_dictionaries({color: st.integers(1, 6) for color in COLORS})


def is_used(field) -> bool:
    return field["entry"] is not None or field["crossed"]


def check_sheets(state) -> None:
    for sheet in state["sheets"]:
        for index, row in enumerate(sheet["rows"]):
            for field in row["fields"]:
                assert not (field["crossed"] and field["entry"] is not None)
                if field["entry"] is not None:
                    assert 1 <= field["entry"] <= field["value"]
                assert field["hit"] == (field["entry"] == field["value"])
            assert row["hits"] == sum(field["hit"] for field in row["fields"])
            full = all(is_used(field) for field in row["fields"])
            if row["score"] is not None:
                assert row["score"] == sum(field["entry"] or 0 for field in row["fields"]) + HIT_BONUS[row["hits"]]
            if index < sheet["row"]:
                assert full and row["score"] is not None
            elif index > sheet["row"]:
                assert not any(is_used(field) for field in row["fields"]) and row["score"] is None
            elif not GAME.is_finished(state):
                assert not full and row["score"] is None
        assert sheet["total"] == sum(row["score"] or 0 for row in sheet["rows"])
    assert GAME.scores(state) == [sheet["total"] for sheet in state["sheets"]]


def changed_rows(before, after, seat) -> set[int]:
    rows_before, rows_after = before["sheets"][seat]["rows"], after["sheets"][seat]["rows"]
    return {
        index
        for index, (old, new) in enumerate(zip(rows_before, rows_after))
        if old["fields"] != new["fields"]
    }


def assert_refused(state, seat, action) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError):
        GAME.apply(state, seat, action)
    assert state == before


class Game:
    """One random game: the state, and the accepted actions for the replay."""

    def __init__(self, data):
        self.data = data
        players = data.draw(st.integers(2, 6), label="players")
        self.names = [f"P{seat}" for seat in range(players)]
        options = GAME.effective_options({})
        self.setup = GAME.setup(self.names, options, GAME.deal(self.names, options, random.Random(data.draw(st.integers(0, 99)))))
        self.state = self.setup
        self.moves = []

    def accept(self, seat, action) -> None:
        before = self.state
        self.state = GAME.apply(before, seat, action)
        self.moves.append((seat, action))
        # only the acting seat's sheet changed, and only in the row it was on; at the end
        # the others' current rows get their score, nothing else
        for other in range(len(self.names)):
            if other != seat:
                if GAME.is_finished(self.state):
                    assert changed_rows(before, self.state, other) == set()
                else:
                    assert self.state["sheets"][other] == before["sheets"][other]
        if action["type"] in ("enter", "cross"):
            assert changed_rows(before, self.state, seat) == {before["sheets"][seat]["row"]}
        check_sheets(self.state)

    def mistake(self, seat) -> None:
        """A wrong action of a kind §5 forbids, refused without a change."""
        state = self.state
        sheet = state["sheets"][seat]
        row = sheet["rows"][sheet["row"]]["fields"]
        used = [field["color"] for field in row if is_used(field)]
        too_high = [field["color"] for field in row if not is_used(field) and state["roll"][field["color"]] > field["value"]]
        wrong = [{"type": "reroll", "dice": state["roll"]} if state["rerolled"] else {"type": "roll", "dice": state["roll"]}]
        wrong += [{"type": "enter", "colors": [color]} for color in used + too_high]
        wrong.append({"type": "cross", "colors": [field["color"] for field in row if not is_used(field)][:1]})
        wrong.append({"type": "enter", "colors": [], "row": sheet["row"]})
        wrong.append({"type": "enter", "colors": [row[-1]["color"]], "row": sheet["row"] + 1})
        assert_refused(state, seat, self.data.draw(st.sampled_from(wrong), label="mistake"))

    def write(self, seat) -> None:
        sheet, round_ = self.state["sheets"][seat], self.state["round"]
        fits = sorted(GAME.targets(self.state, seat))
        if self.data.draw(st.integers(0, 9), label="mistake?") == 0:
            self.mistake(seat)
        chosen = self.data.draw(st.lists(st.sampled_from(fits), unique=True), label="dice") if fits else []
        if chosen:
            self.accept(seat, {"type": "enter", "colors": chosen, "row": sheet["row"]})
        else:
            self.accept(seat, {"type": "cross"})
        if self.state["round"] == round_ and not GAME.is_finished(self.state):
            assert seat not in self.state["waiting_for"]
        assert_refused(self.state, seat, {"type": "cross"})  # never twice in a round

    def play_round(self) -> None:
        state = self.state
        active = GAME.current_seat(state)
        assert GAME.actors(state) == [active] and state["waiting_for"] == list(range(len(self.names)))
        other = self.data.draw(st.integers(0, len(self.names) - 1), label="a seat rolls")
        if other != active:
            assert_refused(state, other, {"type": "roll", "dice": {color: 1 for color in COLORS}})
        self.accept(active, {"type": "roll", "dice": self.data.draw(dice, label="roll")})
        if self.data.draw(st.booleans(), label="re-roll?"):
            first = self.state["roll"]
            again = self.data.draw(dice, label="re-roll")
            changes_a_one = any(first[color] == 1 and again[color] != 1 for color in COLORS)
            if changes_a_one:
                assert_refused(self.state, active, {"type": "reroll", "dice": again})
            again = {color: 1 if first[color] == 1 else value for color, value in again.items()}
            self.accept(active, {"type": "reroll", "dice": again})
        at_start = copy.deepcopy(self.state)
        order = self.data.draw(st.permutations(range(len(self.names))), label="writing order")
        for seat in order:
            assert GAME.actors(self.state) == [s for s in range(len(self.names)) if s in self.state["waiting_for"]]
            self.write(seat)
        # at most one row per player per round
        for seat in range(len(self.names)):
            assert len(changed_rows(at_start, self.state, seat)) == 1


@given(st.data())
def test_random_games_keep_the_sheets_true_and_always_end(data):
    game = Game(data)
    rounds = 0
    while not GAME.is_finished(game.state):
        rounds += 1
        assert rounds <= MOST_ROUNDS, "the game must end"
        game.play_round()
    state = game.state
    assert state["round"] == rounds
    # §5 End: someone completed the fifth row; everyone else's current row was scored
    assert any(sheet["row"] == ROWS for sheet in state["sheets"])
    for sheet in state["sheets"]:
        if sheet["row"] < ROWS:
            assert sheet["rows"][sheet["row"]]["score"] is not None
    assert GAME.current_seat(state) is None and GAME.actors(state) == []
    # the ranking: best first, equal scores share a place and say so
    ranking = GAME.ranking(state)
    assert [entry["score"] for entry in ranking] == sorted(GAME.scores(state), reverse=True)
    for entry in ranking:
        tied = [other for other in ranking if other["score"] == entry["score"]]
        assert entry["place"] == 1 + sum(other["score"] > entry["score"] for other in ranking)
        assert (entry["tiebreak"] is not None) == (len(tied) > 1)
    # the event log rebuilds the same state
    assert GAME.replay(game.setup, game.moves) == state

"""Random Qwixx games (docs/rules.md (Qwixx)): random rolls, every seat choosing its white
sum in a random order among what the rules allow (or passing), the active seat a random
colour sum (or a pass), with mistakes thrown in that must be refused, state untouched.

After every accepted action: each row's crosses run left to right, a lock only after five
crosses, nothing crossed in a row locked before the turn, penalties only ever added to the
active seat and only when it crossed nothing that turn, the scores equal the formula. Every
game ends, exactly on its end conditions, and replaying the accepted actions gives the
same state.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.games.qwixx import (
    CROSSES_TO_LOCK,
    MAX_PENALTIES,
    ROW_NUMBERS,
    ROWS,
    Qwixx,
    colour_choices,
    dice_in_play,
    row_score,
    white_choices,
)

GAME = Qwixx()
MOST_ACTIONS = 4000  # far more than any game takes: penalties alone end it within 16 turns of passing


def check(before, after, seat, action) -> None:
    for old, sheet in zip(before["sheets"], after["sheets"]):
        for row in ROWS:
            crossed = sheet["rows"][row]
            positions = [ROW_NUMBERS[row].index(number) for number in crossed]
            assert positions == sorted(set(positions)), "crosses run left to right"
            if crossed and crossed[-1] == ROW_NUMBERS[row][-1]:
                assert len(crossed) - 1 >= CROSSES_TO_LOCK and row in sheet["locks"]
            if row in before["locked"]:
                assert crossed == old["rows"][row], "nothing crossed in a row locked before"
        if sheet["penalties"] != old["penalties"]:
            assert sheet["seat"] == before["active"] == seat and sheet["penalties"] == old["penalties"] + 1
            assert not before["active_crossed"] and action == {"type": "colour", "row": None}
        assert sheet["penalties"] <= MAX_PENALTIES
    for sheet, score in zip(after["sheets"], GAME.scores(after)):
        rows = sum(row_score(len(sheet["rows"][row]) + (row in sheet["locks"])) for row in ROWS)
        assert score == rows - 5 * sheet["penalties"]
    ended = len(after["locked"]) >= 2 or any(sheet["penalties"] == MAX_PENALTIES for sheet in after["sheets"])
    assert GAME.is_finished(after) == ended


def next_move(state, rng: random.Random):
    """A legal move now, or a mistake (wrong seat, a number the rules refuse)."""
    if state["step"] == "roll":
        return state["active"], {"type": "roll", "dice": {die: rng.randint(1, 6) for die in dice_in_play(state)}}
    if state["step"] == "white":
        seat = rng.choice(state["waiting_for"])
        choices = white_choices(state, seat)
        row = rng.choice(choices)["row"] if choices and rng.random() < 0.8 else None
        return seat, {"type": "white", "row": row}
    seat = state["active"]
    choices = colour_choices(state, seat)
    if choices and rng.random() < 0.7:
        choice = rng.choice(choices)
        return seat, {"type": "colour", "row": choice["row"], "white": choice["white"]}
    return seat, {"type": "colour", "row": None}


def mistake(state, rng: random.Random):
    seat = rng.randrange(len(state["players"]))
    return seat, rng.choice(
        [
            {"type": "roll", "dice": {"white1": 1}},
            {"type": "white", "row": rng.choice(ROWS)},
            {"type": "colour", "row": rng.choice(ROWS), "white": rng.choice([1, 2, 3])},
            {"type": "white", "row": "purple"},
        ]
    )


@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_qwixx_random_games_keep_every_rule_and_end(players, seed):
    rng = random.Random(seed)
    state = GAME.setup([f"P{n}" for n in range(players)], {}, None)
    accepted = []
    for _ in range(MOST_ACTIONS):
        if GAME.is_finished(state):
            break
        if rng.random() < 0.15:
            seat, action = mistake(state, rng)
            before = copy.deepcopy(state)
            try:
                after = GAME.apply(state, seat, action)
            except RuleError:
                assert state == before
                continue
        else:
            seat, action = next_move(state, rng)
            after = GAME.apply(state, seat, action)  # the legal move is accepted
        check(state, after, seat, action)
        accepted.append((seat, action))
        state = after
    assert GAME.is_finished(state)
    assert GAME.replay(GAME.setup([f"P{n}" for n in range(players)], {}, None), accepted) == state
    ranking = GAME.ranking(state)
    assert [entry["score"] for entry in ranking] == sorted(GAME.scores(state), reverse=True)

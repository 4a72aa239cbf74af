"""The worked examples of seed 000 (figures 3 to 7b), played through the engine.

The figures themselves are missing from the text; the dice below are the ones the captions
describe, the other dice and the tiles not named are chosen to fit them.
"""

from __future__ import annotations

import copy

import pytest

from companion.games import GAMES
from companion.games.errors import RuleError

GAME = GAMES["pickomino"]
W = "worm"
STOP = {"type": "stop"}
BUST = {"type": "bust"}


def arrange(players, stacks=(), face_down=(), seat=0, **options):
    """A game in progress: `stacks` per seat (bottom to top) are off the grill,
    `face_down` tiles are turned over on it, `seat` is to play."""
    state = GAME.setup(list(players), GAME.effective_options(options))
    for owner, stack in enumerate(stacks):
        state["stacks"][owner] = list(stack)
    held = {tile for stack in stacks for tile in stack}
    state["grill"] = [tile for tile in state["grill"] if tile["value"] not in held]
    for tile in state["grill"]:
        tile["face_up"] = tile["value"] not in face_down
    state["turn"]["seat"] = seat
    return state


def play(state, seat, *actions):
    for action in actions:
        state = GAME.apply(state, seat, action)
    return state


def roll(*dice):
    return {"type": "roll", "dice": list(dice)}


def keep(face):
    return {"type": "keep", "face": face}


def set_aside(face, count):
    return {"type": "set_aside", "face": face, "count": count}


def face_up(state):
    return [tile["value"] for tile in state["grill"] if tile["face_up"]]


def face_down(state):
    return [tile["value"] for tile in state["grill"] if not tile["face_up"]]


def test_figures_3_and_4a_jonathan_collects_24_and_takes_it_from_the_grill():
    state = arrange(["Jonathan", "Steven"])
    state = play(state, 0, roll(W, 3, W, 1, 5, 3, 2, 1), keep(W))  # 1st roll: both worms
    state = play(state, 0, roll(4, W, 4, W, W, 1))  # 2nd roll: the six dice left
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, 0, keep(W))  # he cannot take the three worms he just rolled
    assert str(caught.value) == "You already set aside worms this turn."
    assert state == before
    state = play(state, 0, keep(4))
    assert state["turn"]["total"] == 18  # 2 × worm + 2 × 4
    state = play(state, 0, roll(2, 4, 2, 2))  # 3rd roll
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, 0, keep(4))  # the 4s are taken: he has to take the three 2s
    assert caught.value.code == "face_already_kept"
    state = play(state, 0, keep(2))
    assert state["turn"]["total"] == 24
    state = play(state, 0, STOP)
    assert state["stacks"] == [[24], []]
    assert 24 not in [tile["value"] for tile in state["grill"]]
    assert str(GAME.describe_last_turn(state)) == "Jonathan took 24 from the grill."


def test_figure_4b_steven_steals_21_from_heather():
    state = arrange(["Steven", "Heather"], stacks=[[], [21]])
    state = play(state, 0, set_aside(W, 1), set_aside(4, 4), STOP)
    assert state["stacks"] == [[21], []]
    assert str(GAME.describe_last_turn(state)) == "Steven stole 21 from Heather."


def test_figure_4c_nicole_scores_her_own_23_and_takes_21():
    # 23 lies on Nicole's stack; 22 is safe under another tile of Tom's.
    state = arrange(["Nicole", "Tom"], stacks=[[23], [22, 30]])
    state = play(state, 0, set_aside(W, 3), set_aside(4, 2), STOP)
    assert state["stacks"] == [[23, 21], [22, 30]]
    assert str(GAME.describe_last_turn(state)) == "Nicole scored 23 and took 21 from the grill."


def test_figure_4d_tom_scores_31_and_takes_28():
    # 31 and 30 are face down; 29 is covered on Nicole's stack.
    state = arrange(["Tom", "Nicole"], stacks=[[], [29, 21]], face_down=[30, 31])
    state = play(state, 0, set_aside(W, 5), set_aside(3, 2), STOP)
    assert state["stacks"] == [[28], [29, 21]]


def test_figure_4e_heather_overlooks_26_in_front_of_jonathan_and_takes_25():
    state = arrange(["Heather", "Jonathan"], stacks=[[], [26]])
    state = play(state, 0, set_aside(W, 2), set_aside(4, 4))
    assert GAME.public_state(state, 0)["claim"] == {"on_grill": False, "steal_from": 1, "lower": 25}
    state = play(state, 0, {"type": "stop", "take": "grill"})
    assert state["stacks"] == [[25], [26]]


def test_figure_5_tiles_under_the_top_of_a_stack_are_safe():
    state = arrange(["Nicole", "Tom"], stacks=[[22, 25], []])
    state = play(state, 0, set_aside(W, 4), set_aside(4, 2), STOP)
    assert state["stacks"][0] == [22, 25, 28]
    state = play(state, 1, set_aside(W, 5), STOP)  # 25 is covered now: Tom takes 24 instead
    assert state["stacks"] == [[22, 25, 28], [24]]


def test_figure_6a_nicole_rolls_only_faces_she_has_already_set_aside():
    state = arrange(["Nicole", "Tom"], stacks=[[24], []])
    state = play(state, 0, roll(W, W, 1, 2, 3, 5, 4, 4), keep(W), roll(5, 5, 1, 2, 3, 4), keep(5))
    state = play(state, 0, roll(4, 4, 5, W), keep(4))
    state = play(state, 0, roll(W, 5))  # 4th roll: nothing new
    record = state["last_turn"]
    assert (record["outcome"], record["reason"], record["returned"], record["turned"]) == (
        "failed", "nothing_new", 24, 36
    )
    assert state["stacks"] == [[], []]
    assert GAME.current_seat(state) == 1


def test_figure_6b_heather_scores_31_without_a_worm():
    state = arrange(["Heather", "Tom"])
    state = play(state, 0, roll(4, 4, 4, 1, 3, 2, 2, 5), keep(4), roll(3, 3, 3, 5, 1), keep(3))
    state = play(state, 0, roll(5, 5), keep(5))  # all eight dice set aside: the turn ends
    record = state["last_turn"]
    assert (record["outcome"], record["reason"], record["total"]) == ("failed", "no_worm", 31)
    assert 31 in face_up(state)
    assert state["stacks"] == [[], []]


def test_figure_6c_tom_scores_his_own_25_with_nothing_lower_on_the_grill():
    state = arrange(["Tom", "Nicole", "Heather"], stacks=[[25], [21, 22], [23, 24]])
    state = play(state, 0, roll(W, W, W, 4, 4, 1, 2, 3), keep(W), roll(4, 4, 1, 1, 2), keep(4))
    state = play(state, 0, roll(1, 1, 3), keep(1), STOP)  # two 1s: 25
    record = state["last_turn"]
    assert (record["outcome"], record["reason"], record["total"]) == ("failed", "no_tile", 25)
    # The failed turn gives 25 back, and the highest tile is turned over.
    assert (record["returned"], record["turned"]) == (25, 36)
    assert state["stacks"][0] == []


def test_figure_7a_tom_returns_27_and_turns_over_34():
    state = arrange(["Tom", "Heather"], stacks=[[27], [35]], face_down=[36])
    state = play(state, 0, {"type": "set_aside", "face": 1, "count": 1}, BUST)
    assert 27 in face_up(state)
    assert face_down(state) == [34, 36]
    assert str(GAME.describe_last_turn(state)) == (
        "Tom failed (declared failed): 27 went back to the grill and 34 was turned over."
    )


def test_figure_7b_heather_returns_30_the_highest_which_stays_face_up():
    state = arrange(["Heather", "Tom"], stacks=[[30], [31, 32]], face_down=[33, 34, 35, 36])
    state = play(state, 0, {"type": "set_aside", "face": 1, "count": 1}, BUST)
    assert max(face_up(state)) == 30
    assert face_down(state) == [33, 34, 35, 36]
    assert str(GAME.describe_last_turn(state)) == (
        "Heather failed (declared failed): 30 went back to the grill and stays face up."
    )


def test_alternative_rule_heather_returns_30_and_it_is_turned_over():
    state = arrange(
        ["Heather", "Tom"], stacks=[[30], [31, 32]], face_down=[33, 34, 35, 36], alternative_return=True
    )
    state = play(state, 0, {"type": "set_aside", "face": 1, "count": 1}, BUST)
    assert face_down(state) == [30, 33, 34, 35, 36]

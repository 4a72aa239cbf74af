"""docs/rules.md (Heckmeck Barbecue), Heckmeck Barbecue: grill spots, plates, snails, failed turns, the end,
scores and ranking; seed 002's examples A and B."""

from __future__ import annotations

import functools
import itertools

import pytest

from companion.games import GAMES
from companion.games.barbecue import (
    DEFAULT_SPOT_WORMS,
    PLATE_COLOURS,
    PLATES_PER_PLAYER,
    SNAIL_POINTS,
    SNAILS,
    SPOT_VALUES,
)
from companion.games.errors import RuleError
from .refusals import refusals_of

GAME = GAMES["heckmeck-barbecue"]
W = "worm"
STOP = {"type": "stop"}
BUST = {"type": "bust"}
FACE_VALUES = {1: 1, 2: 2, 3: 3, 4: 4, W: 5, 6: 6}


def arrange(players=("Ana", "Bruno", "Caio"), plates=None, snails_on=(), held_snails=None, worms=None,
            seat=0, supply=None, **options):
    """A game in progress: `plates` {spot: [owner seats]}, snails on the spots
    `snails_on`, snails held per seat, worms per seat, `seat` to play. Plates in hand and
    the supply follow from what is on the grill (or `supply` when given)."""
    state = GAME.setup(list(players), GAME.effective_options(options))
    for value, owners in (plates or {}).items():
        spot(state, value)["plates"] = list(owners)
        for owner in owners:
            state["plates_left"][owner] -= 1
    for value in snails_on:
        spot(state, value)["snail"] = True
    if held_snails is not None:
        state["snails"] = list(held_snails)
    if worms is not None:
        state["worms"] = list(worms)
    state["snail_supply"] = SNAILS - len(snails_on) - sum(state["snails"]) if supply is None else supply
    state["turn"]["seat"] = seat
    return state


def spot(state, value):
    return next(entry for entry in state["spots"] if entry["value"] == value)


@functools.cache
def groups_for(total):
    """Quick-entry groups (face, count) with at least one worm that add up to `total`,
    with as few dice as possible (so the turn usually waits for the stop)."""
    faces = [W, 6, 4, 3, 2, 1]
    candidates = [
        [(face, count) for face, count in zip(faces, counts) if count]
        for counts in itertools.product(range(9), repeat=len(faces))
        if counts[0] and sum(counts) <= 8 and sum(FACE_VALUES[f] * c for f, c in zip(faces, counts)) == total
    ]
    assert candidates, f"no dice give {total}"
    return min(candidates, key=lambda groups: sum(count for _, count in groups))


def scoring(state, seat, total, end=STOP):
    """Seat sets aside dice worth `total` (a worm among them) by quick entry, then `end`."""
    for face, count in groups_for(total):
        state = GAME.apply(state, seat, {"type": "set_aside", "face": face, "count": count})
    if GAME.current_seat(state) == seat and state["turn"]["kept"]:
        state = GAME.apply(state, seat, end)
    return state


def failing(state, seat):
    """Seat sets a first group aside (a failure cannot come before one), then declares the
    turn failed."""
    state = GAME.apply(state, seat, {"type": "set_aside", "face": 1, "count": 1})
    return GAME.apply(state, seat, BUST)


refused = refusals_of(GAME)


def said(state):
    return str(GAME.describe_last_turn(state))


# --- players, plates, snails and the board ---------------------------------------------
def test_rule_3_players_two_to_five():
    assert (GAME.min_players, GAME.max_players) == (2, 5)


def test_rule_3_plate_colours_green_yellow_blue_black_orange_by_seat():
    state = arrange(("Ana", "Bruno", "Caio", "Davi", "Eva"))
    assert PLATE_COLOURS == ("green", "yellow", "blue", "black", "orange")
    assert GAME.public_state(state, None)["colours"] == ["green", "yellow", "blue", "black", "orange"]
    assert GAME.public_state(arrange(("Ana", "Bruno")), None)["colours"] == ["green", "yellow"]


def test_rule_3_each_player_has_10_plates_and_12_snails_lie_in_the_supply():
    state = arrange()
    assert state["plates_left"] == [PLATES_PER_PLAYER] * 3 == [10] * 3
    assert state["snail_supply"] == SNAILS == 12
    assert state["worms"] == state["snails"] == [0, 0, 0]


def test_rule_3_board_has_14_spots_23_to_36_empty_at_the_start():
    state = arrange()
    assert [entry["value"] for entry in state["spots"]] == list(range(23, 37)) == list(SPOT_VALUES)
    assert all(entry["plates"] == [] and entry["snail"] is False for entry in state["spots"])


@pytest.mark.parametrize(
    "spots, worms", [((23, 24), 1), ((25, 26, 27, 28), 2), ((29, 30, 31, 32), 3), ((33, 34, 35, 36), 4)]
)
def test_rule_3_decision_default_spot_worms_use_pickomino_bands(spots, worms):
    state = arrange()
    assert all(spot(state, value)["worms"] == worms for value in spots)
    assert all(DEFAULT_SPOT_WORMS[str(value)] == worms for value in spots)


def test_rule_3_option_spot_worms_overrides_the_default_table():
    options = GAME.effective_options({"spot_worms": {"23": 9, "30": 5}})
    assert options["spot_worms"]["23"] == 9 and options["spot_worms"]["30"] == 5
    assert options["spot_worms"]["36"] == DEFAULT_SPOT_WORMS["36"]  # spots not named keep the default
    state = GAME.setup(["Ana", "Bruno"], options)
    assert spot(state, 23)["worms"] == 9 and spot(state, 30)["worms"] == 5
    state = scoring(state, 0, 30)
    assert state["worms"] == [5, 0]


def test_rule_3_option_spot_worms_default_is_the_whole_table():
    assert GAME.effective_options({})["spot_worms"] == DEFAULT_SPOT_WORMS
    assert len(DEFAULT_SPOT_WORMS) == 14


@pytest.mark.parametrize("worms", [0, 10, -1, 99])
def test_rule_3_option_spot_worms_outside_1_to_9_is_refused(worms):
    with pytest.raises(RuleError) as caught:
        GAME.effective_options({"spot_worms": {"30": worms}})
    assert (caught.value.code, caught.value.status) == ("invalid_spot_worms", 422)
    assert str(caught.value) == f"Spot 30 cannot show {worms} worms: a spot shows 1 to 9 worms."


@pytest.mark.parametrize("key", ["22", "37", "0", "grill"])
def test_rule_3_option_spot_worms_for_other_spots_is_refused(key):
    with pytest.raises(RuleError) as caught:
        GAME.effective_options({"spot_worms": {key: 3}})
    assert (caught.value.code, caught.value.status) == ("invalid_spot", 422)
    assert str(caught.value) == f"There is no grill spot {key}: the spots are 23 to 36."


@pytest.mark.parametrize("raw", [[3, 3], "3", {"30": "3"}, {"30": 3.0}, {"30": True}, {"30": None}])
def test_rule_3_option_spot_worms_of_the_wrong_type_is_malformed(raw):
    with pytest.raises(RuleError) as caught:
        GAME.effective_options({"spot_worms": raw})
    assert caught.value.status == 400


# --- the dice -----------------------------------------------------------------------------
def test_rule_3_dice_faces_1_2_3_4_worm_6():
    assert GAME.dice.faces == (1, 2, 3, 4, W, 6)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "roll", "dice": [5, 1, 2, 3, 4, 6, W, W]},
        {"type": "set_aside", "face": 5, "count": 2},
    ],
)
def test_rule_3_dice_have_no_5(action):
    assert refused(arrange(), 0, action, "invalid_face") == "These dice have no 5."


def test_rule_3_keeping_a_5_is_refused():
    state = GAME.apply(arrange(), 0, {"type": "roll", "dice": [6, 6, 1, 2, 3, 4, W, W]})
    assert refused(state, 0, {"type": "keep", "face": 5}, "invalid_face") == "These dice have no 5."


def test_rule_3_a_6_counts_6_and_a_worm_counts_5():
    state = GAME.apply(arrange(), 0, {"type": "set_aside", "face": 6, "count": 3})
    state = GAME.apply(state, 0, {"type": "set_aside", "face": W, "count": 2})
    assert state["turn"]["total"] == 28 and state["turn"]["has_worm"]


def test_rule_3_everything_refused_in_the_dice_phase_is_refused_here_too():
    state = GAME.apply(arrange(), 0, {"type": "set_aside", "face": 6, "count": 2})
    assert refused(state, 0, {"type": "set_aside", "face": 6, "count": 1}, "face_already_kept") == (
        "You already set aside 6s this turn."
    )
    assert refused(state, 0, {"type": "set_aside", "face": 4, "count": 7}, "too_many_dice") == "Only 6 dice are left."
    assert refused(state, 0, {"type": "roll", "dice": [1, 2]}, "wrong_dice_count") == (
        "You have 6 dice left to roll, not 2."
    )
    refused(state, 1, STOP, "not_your_turn", status=403)


def test_seed_002_example_a_ionut_scores_30_from_2x6_2xworm_1x4_2x2():
    state = arrange(("Ionut", "John"))
    for face, count in [(6, 2), (W, 2), (4, 1), (2, 2)]:
        state = GAME.apply(state, 0, {"type": "set_aside", "face": face, "count": count})
    assert state["turn"]["total"] == 30
    state = GAME.apply(state, 0, STOP)
    assert state["last_turn"]["total"] == 30
    assert state["last_turn"]["outcome"] == "placed" and spot(state, 30)["plates"] == [0]


def test_seed_002_example_a_roll_by_roll():
    state = arrange(("Ionut", "John"))
    rolls = [([6, 6, 1, 3, 3, 4, 2, 1], 6), ([W, W, 1, 3, 4, 2], W), ([4, 1, 1, 3], 4), ([2, 2, 1], 2)]
    for roll, keep in rolls:
        state = GAME.apply(state, 0, {"type": "roll", "dice": roll})
        state = GAME.apply(state, 0, {"type": "keep", "face": keep})
    assert state["turn"]["total"] == 30
    assert GAME.apply(state, 0, STOP)["last_turn"]["outcome"] == "placed"


def test_seed_002_example_b_result_on_a_spot_with_two_plates_fails():
    state = arrange(("John", "Ionut"), plates={30: [1, 1]}, seat=0)
    state = scoring(state, 0, 30)
    assert state["last_turn"]["outcome"] == "failed" and state["last_turn"]["reason"] == "closed"
    assert spot(state, 30)["plates"] == [1, 1]
    assert state["worms"] == [0, 0]
    assert said(state) == "John failed (spot 30 already has two plates): a snail went on 36."


# --- what a result does on the grill ------------------------------------------------------
def test_rule_3_result_below_23_fails():
    state = scoring(arrange(), 0, 22)
    assert state["last_turn"]["outcome"] == "failed" and state["last_turn"]["reason"] == "too_low"
    assert said(state) == "Ana failed (22 is below 23): a snail went on 36."


def test_rule_3_result_23_is_on_the_grill():
    state = scoring(arrange(), 0, 23)
    assert state["last_turn"]["outcome"] == "placed" and spot(state, 23)["plates"] == [0]


def test_rule_3_empty_spot_the_player_puts_a_plate_there_and_takes_its_worms():
    state = scoring(arrange(), 0, 33)
    assert spot(state, 33)["plates"] == [0]
    assert state["plates_left"] == [9, 10, 10]
    assert state["worms"] == [4, 0, 0]
    assert state["last_turn"] | {"kept": None} == {
        "seat": 0, "total": 33, "kept": None, "outcome": "placed", "spot": 33, "from_seat": None, "snail_to": None,
    }
    assert said(state) == "Ana put a plate on 33 and took 4 worms."


def test_rule_3_own_plate_a_second_plate_takes_the_worms_again_and_closes_the_spot():
    state = arrange(plates={27: [0]}, worms=[2, 0, 0])
    state = scoring(state, 0, 27)
    assert spot(state, 27)["plates"] == [0, 0]
    assert state["plates_left"][0] == 8 and state["worms"][0] == 4
    assert state["last_turn"]["outcome"] == "protected"
    assert said(state) == "Ana put a second plate on 27 and took 2 worms again: the spot is closed."


def test_rule_3_closed_spot_fails_even_for_its_owner():
    state = arrange(plates={27: [0, 0]}, worms=[4, 0, 0])
    state = scoring(state, 0, 27)
    assert state["last_turn"]["reason"] == "closed" and spot(state, 27)["plates"] == [0, 0]
    assert state["worms"][0] == 4


def test_rule_3_other_players_plate_the_player_steals_its_worms_and_the_plate_goes_back():
    state = arrange(plates={31: [1]}, worms=[0, 5, 0])
    state = scoring(state, 0, 31)
    assert spot(state, 31)["plates"] == [0]
    assert state["worms"] == [3, 2, 0]
    assert state["plates_left"] == [9, 10, 10]
    assert state["last_turn"]["outcome"] == "stole" and state["last_turn"]["from_seat"] == 1
    assert said(state) == "Ana stole 3 worms from Bruno on 31; Bruno's plate went back."


def test_rule_3_a_stolen_spot_can_be_stolen_back():
    state = arrange(plates={31: [1]}, worms=[0, 3, 0])
    state = scoring(state, 0, 31)
    state = scoring(state, 1, 31)
    assert spot(state, 31)["plates"] == [1] and state["worms"] == [0, 3, 0]
    assert state["plates_left"] == [10, 9, 10]


def test_rule_3_spot_with_a_snail_the_player_takes_the_snail_and_the_spot_becomes_free():
    state = arrange(snails_on=(29,))
    state = scoring(state, 0, 29)
    assert spot(state, 29) == {"value": 29, "worms": 3, "plates": [], "snail": False}
    assert state["snails"] == [1, 0, 0] and state["snail_supply"] == 11
    assert state["plates_left"][0] == 10 and state["worms"][0] == 0
    assert state["last_turn"]["outcome"] == "snail" and state["last_turn"]["spot"] == 29
    assert said(state) == "Ana took the snail from spot 29."


def test_rule_3_result_above_36_takes_a_snail_from_the_supply():
    state = scoring(arrange(), 0, 40)
    assert state["snails"] == [1, 0, 0] and state["snail_supply"] == 11
    assert state["last_turn"]["outcome"] == "snail" and state["last_turn"]["spot"] is None
    assert said(state) == "Ana scored 40 and took a snail from the supply."


def test_rule_3_result_above_36_with_an_empty_supply_takes_the_snail_on_the_highest_spot():
    state = arrange(snails_on=(25, 32), held_snails=[0, 5, 5], supply=0)
    state = scoring(state, 0, 38)
    assert spot(state, 32)["snail"] is False and spot(state, 25)["snail"] is True
    assert state["snails"] == [1, 5, 5]
    assert state["last_turn"]["outcome"] == "snail" and state["last_turn"]["spot"] == 32
    assert said(state) == "Ana scored 38; the supply is empty, so they took the snail from spot 32."
    assert not GAME.is_finished(state)


def test_rule_3_decision_no_plate_in_hand_cannot_place():
    state = arrange(("Ana", "Bruno"), plates={value: [0] for value in range(23, 33)})
    assert state["plates_left"][0] == 0
    state = scoring(state, 0, 34)
    assert state["last_turn"]["outcome"] == "failed" and state["last_turn"]["reason"] == "no_plate"
    assert spot(state, 34)["plates"] == [] and state["worms"][0] == 0
    assert said(state) == "Ana failed (no plate left to put on 34): a snail went on 36."


def test_rule_3_decision_no_plate_in_hand_cannot_steal():
    plates = {value: [0] for value in range(23, 33)} | {35: [1]}
    state = arrange(("Ana", "Bruno"), plates=plates, worms=[0, 4])
    state = scoring(state, 0, 35)
    assert state["last_turn"]["reason"] == "no_plate"
    assert spot(state, 35)["plates"] == [1] and state["worms"] == [0, 4]


def test_rule_3_decision_no_plate_in_hand_cannot_protect():
    state = arrange(("Ana", "Bruno"), plates={value: [0] for value in range(23, 33)})
    state = scoring(state, 0, 32)
    assert state["last_turn"]["reason"] == "no_plate" and spot(state, 32)["plates"] == [0]


def test_rule_3_decision_no_plate_in_hand_can_still_take_a_snail():
    state = arrange(("Ana", "Bruno"), plates={value: [0] for value in range(23, 33)}, snails_on=(34,))
    state = scoring(state, 0, 34)
    assert state["last_turn"]["outcome"] == "snail" and state["snails"] == [1, 0]
    state = scoring(arrange(("Ana", "Bruno"), plates={value: [0] for value in range(23, 33)}), 0, 40)
    assert state["last_turn"]["outcome"] == "snail"


@pytest.mark.parametrize(
    "enter, reason",
    [
        (lambda state: GAME.apply(GAME.apply(state, 0, {"type": "set_aside", "face": 6, "count": 5}), 0, STOP), "no_worm"),
        (lambda state: failing(state, 0), "declared"),
        (
            lambda state: GAME.apply(
                GAME.apply(GAME.apply(state, 0, {"type": "roll", "dice": [6, 6, 6, 6, 1, 1, 1, 1]}), 0, {"type": "keep", "face": 6}),
                0, {"type": "roll", "dice": [6, 6, 6, 6]},
            ),
            "nothing_new",
        ),
    ],
)
def test_rule_3_every_failed_dice_turn_is_a_failed_turn(enter, reason):
    state = enter(arrange())
    assert state["last_turn"]["outcome"] == "failed" and state["last_turn"]["reason"] == reason
    assert spot(state, 36)["snail"] is True


def test_rule_3_the_turn_ends_by_itself_when_all_8_dice_are_set_aside():
    state = GAME.apply(arrange(), 0, {"type": "set_aside", "face": W, "count": 5})
    state = GAME.apply(state, 0, {"type": "set_aside", "face": 3, "count": 3})
    assert state["last_turn"]["outcome"] == "placed" and spot(state, 34)["plates"] == [0]
    assert GAME.current_seat(state) == 1


def test_rule_3_the_stop_outcome_is_shown_during_the_turn():
    state = arrange(plates={31: [1]})
    for face, count in groups_for(31):
        state = GAME.apply(state, 0, {"type": "set_aside", "face": face, "count": count})
    assert GAME.public_state(state, None)["claim"] == {"outcome": "stole", "spot": 31, "from_seat": 1}
    assert "claim" not in GAME.public_state(arrange(), None)


def test_rule_3_turns_go_round_the_table():
    state = scoring(arrange(), 0, 30)
    assert GAME.current_seat(state) == 1
    state = failing(state, 1)
    assert GAME.current_seat(state) == 2
    state = scoring(state, 2, 40)
    assert GAME.current_seat(state) == 0


# --- failed turns ---------------------------------------------------------------------------
def test_rule_3_failed_turn_a_snail_goes_on_the_highest_empty_spot():
    state = arrange(plates={36: [1], 35: [2, 2]}, snails_on=(34,))
    state = failing(state, 0)
    assert spot(state, 33)["snail"] is True
    assert state["snail_supply"] == SNAILS - 2
    assert state["last_turn"]["snail_to"] == 33 and state["last_turn"]["from_seat"] is None
    assert said(state) == "Ana failed (declared failed): a snail went on 33."


def test_rule_3_failed_turn_the_player_loses_nothing():
    state = arrange(plates={30: [0]}, worms=[3, 0, 0], held_snails=[2, 0, 0])
    state = failing(state, 0)
    assert state["worms"][0] == 3 and state["snails"][0] == 2
    assert spot(state, 30)["plates"] == [0] and state["plates_left"][0] == 9


def test_rule_3_failed_turn_without_an_empty_spot_the_snail_sends_the_highest_single_plate_back():
    plates = {value: [1, 1] for value in range(23, 37)}
    plates |= {31: [2], 28: [0]}
    snails = [value for value in range(32, 37)]
    for value in snails:
        plates.pop(value)
    state = arrange(plates=plates, snails_on=snails, worms=[2, 0, 3], seat=1)
    state = failing(state, 1)
    assert spot(state, 31) == {"value": 31, "worms": 3, "plates": [], "snail": True}
    assert state["plates_left"][2] == 10
    assert state["worms"] == [2, 0, 3]  # the owner keeps the worms
    assert state["last_turn"]["snail_to"] == 31 and state["last_turn"]["from_seat"] == 2
    assert said(state) == "Bruno failed (declared failed): a snail went on 31 and Caio's plate went back."
    assert not GAME.is_finished(state)


def test_rule_3_failed_turn_can_send_the_failing_players_own_plate_back():
    plates = {value: [1, 1] for value in range(23, 37)} | {36: [0]}
    state = arrange(plates=plates, worms=[4, 0, 0])
    state = failing(state, 0)
    assert spot(state, 36)["snail"] and spot(state, 36)["plates"] == []
    assert state["plates_left"][0] == 10 and state["worms"][0] == 4


# --- the end ---------------------------------------------------------------------------------
def test_rule_3_end_after_a_failed_turn_with_an_empty_supply():
    state = arrange(snails_on=(36, 35), held_snails=[4, 3, 3], supply=0)
    state = failing(state, 0)
    assert GAME.is_finished(state) and GAME.current_seat(state) is None
    assert state["last_turn"]["snail_to"] is None
    assert said(state) == "Ana failed (declared failed): the snail supply is empty, so the game is over."


def test_rule_3_end_after_a_failed_turn_when_every_spot_has_two_plates_or_a_snail():
    plates = {value: [value % 3, value % 3] for value in range(23, 33)}
    state = arrange(plates=plates, snails_on=(33, 34, 35, 36))
    state = failing(state, 0)
    assert GAME.is_finished(state)
    assert state["snail_supply"] == SNAILS - 4
    assert said(state) == (
        "Ana failed (declared failed): every spot has two plates or a snail, so no snail can be placed and the game is over."
    )


def test_rule_3_end_a_result_above_36_that_finds_no_snail():
    state = arrange(held_snails=[4, 4, 4], supply=0)
    state = scoring(state, 0, 37)
    assert GAME.is_finished(state)
    assert state["last_turn"]["outcome"] == "failed" and state["last_turn"]["reason"] == "no_snail"
    assert said(state) == "Ana failed (37 is above 36 and no snail is left): the game is over."


def test_rule_3_placing_the_last_snail_does_not_end_the_game_the_next_failure_does():
    state = arrange(supply=1, held_snails=[11, 0, 0])
    state = failing(state, 0)
    assert spot(state, 36)["snail"] and state["snail_supply"] == 0
    assert not GAME.is_finished(state)
    state = failing(state, 1)
    assert GAME.is_finished(state)


def test_rule_3_the_game_goes_on_while_a_snail_can_be_placed():
    plates = {value: [1, 1] for value in range(23, 37)} | {23: [2]}
    state = failing(arrange(plates=plates), 0)
    assert not GAME.is_finished(state)


def test_rule_3_after_the_end_every_action_is_refused():
    state = failing(arrange(supply=0, held_snails=[12, 0, 0]), 0)
    assert refused(state, 1, {"type": "set_aside", "face": W, "count": 1}, "game_over") == "The game is over."


# --- score and ranking ----------------------------------------------------------------------
def test_rule_3_score_is_one_point_per_worm_and_three_per_snail():
    state = arrange(worms=[7, 2, 0], held_snails=[1, 3, 0])
    assert SNAIL_POINTS == 3
    assert GAME.scores(state) == [10, 11, 0]


def finished(players=("Ana", "Bruno", "Caio"), **arranged):
    """A game that has just ended: the supply is empty and seat 0 fails."""
    state = arrange(players, supply=0, **arranged)
    state = failing(state, 0)
    assert GAME.is_finished(state)
    return state


def test_rule_3_ranking_most_points_wins():
    state = finished(worms=[7, 2, 0], held_snails=[1, 3, 8])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Caio", 24, 1), ("Bruno", 11, 2), ("Ana", 10, 3),
    ]
    assert all(entry["tiebreak"] is None for entry in ranking)


def test_rule_3_tiebreak_the_plate_on_the_highest_spot_wins():
    state = finished(("Ana", "Bruno"), plates={34: [0], 31: [1], 24: [1, 1]}, worms=[12, 12], held_snails=[4, 4])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["place"]) for entry in ranking] == [("Ana", 1), ("Bruno", 2)]
    assert [str(entry["tiebreak"]) for entry in ranking] == [
        "Tied on 24 points: Ana's plate on 34 is higher than Bruno's on 31.",
    ] * 2


def test_rule_3_tiebreak_then_the_next_highest_and_so_on():
    state = finished(
        ("Ana", "Bruno", "Caio", "Davi"),
        plates={25: [0], 33: [1, 1], 29: [2]},
        worms=[6, 6, 6, 20],
        held_snails=[0, 0, 0, 4],
    )
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["place"]) for entry in ranking] == [("Davi", 1), ("Bruno", 2), ("Caio", 3), ("Ana", 4)]
    assert ranking[0]["tiebreak"] is None
    assert [str(entry["tiebreak"]) for entry in ranking[1:]] == [
        "Tied on 6 points: Bruno's plate on 33 is higher than Caio's on 29.",
        "Tied on 6 points: Caio's plate on 29 is higher than Ana's on 25.",
        "Tied on 6 points: Caio's plate on 29 is higher than Ana's on 25.",
    ]


def test_rule_3_tiebreak_players_without_a_plate_on_the_grill_share_the_place():
    state = finished(("Ana", "Bruno", "Caio"), plates={30: [2]}, worms=[3, 3, 0], held_snails=[0, 0, 1])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["place"]) for entry in ranking] == [("Caio", 1), ("Ana", 2), ("Bruno", 2)]
    assert [str(entry["tiebreak"]) for entry in ranking] == [
        "Tied on 3 points: Caio has a plate on 30 and Ana has none on the grill.",
        "Tied on 3 points: Ana and Bruno have no plate on the grill and share the place.",
        "Tied on 3 points: Ana and Bruno have no plate on the grill and share the place.",
    ]


def test_rule_3_no_ranking_before_the_end():
    assert GAME.ranking(arrange()) is None

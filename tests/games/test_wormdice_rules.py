"""docs/rules.md (the worm-dice turn), the worm-dice phase, through the Pickomino engine (and the Barbecue dice)."""

from __future__ import annotations


import pytest

from companion.games import GAMES, wormdice
from companion.games.errors import RuleError
from .refusals import refusals_of

GAME = GAMES["pickomino"]
W = "worm"


def new_game(players=("Ana", "Bruno"), **options):
    return GAME.setup(list(players), GAME.effective_options(options))


def play(state, seat, *actions):
    for action in actions:
        state = GAME.apply(state, seat, action)
    return state


refused = refusals_of(GAME)

def roll(*dice):
    return {"type": "roll", "dice": list(dice)}


def keep(face):
    return {"type": "keep", "face": face}


def set_aside(face, count):
    return {"type": "set_aside", "face": face, "count": count}


STOP = {"type": "stop"}
BUST = {"type": "bust"}


# --- 1. rolling the dice not yet set aside --------------------------------------------
def test_rule_1_1_first_roll_is_all_eight_dice():
    state = new_game()
    message = refused(state, 0, roll(1, 2, 3, 4, 5, W, W), "wrong_dice_count")
    assert message == "You have 8 dice left to roll, not 7."
    refused(state, 0, roll(1, 2, 3, 4, 5, W, W, 1, 2), "wrong_dice_count")
    state = play(state, 0, roll(1, 2, 3, 4, 5, W, W, 1))
    assert state["turn"]["roll"] == [1, 2, 3, 4, 5, W, W, 1]


def test_rule_1_1_next_roll_is_the_dice_left():
    state = play(new_game(), 0, roll(W, W, 1, 2, 3, 3, 4, 4), keep(W))
    assert state["turn"]["dice_left"] == 6
    message = refused(state, 0, roll(1, 2, 3, 4, 5, W, W, 1), "wrong_dice_count")
    assert message == "You have 6 dice left to roll, not 8."
    state = play(state, 0, roll(1, 2, 3, 4, 5, 5))
    assert state["turn"]["roll"] == [1, 2, 3, 4, 5, 5]


def test_rule_1_1_a_roll_is_a_list_of_faces():
    refused(new_game(), 0, {"type": "roll", "dice": "12345"}, "malformed_action", 400)
    refused(new_game(), 0, {"type": "roll"}, "malformed_action", 400)
    refused(new_game(), 0, roll(1, 2, 3, 4, 5, W, W, "5"), "malformed_action", 400)
    refused(new_game(), 0, roll(1, 2, 3, 4, 5, W, W, True), "malformed_action", 400)


# --- 2. setting aside all dice of one new face ------------------------------------------
def test_rule_1_2_all_dice_of_the_kept_face_are_set_aside():
    state = play(new_game(), 0, roll(4, 1, 4, W, 2, 4, 3, 3), keep(4))
    turn = state["turn"]
    assert turn["kept"] == [{"face": 4, "count": 3}]
    assert (turn["total"], turn["dice_left"], turn["roll"], turn["has_worm"]) == (12, 5, None, False)


def test_rule_1_2_kept_face_must_be_in_the_roll():
    state = play(new_game(), 0, roll(1, 1, 2, 2, 3, 3, 4, 4))
    message = refused(state, 0, keep(W), "face_not_in_roll")
    assert message == "Your roll has no worms."
    assert refused(state, 0, keep(5), "face_not_in_roll") == "Your roll has no 5s."


def test_rule_1_2_kept_face_must_be_new_this_turn():
    state = play(new_game(), 0, roll(4, 4, W, 1, 1, 2, 3, 5), keep(4), roll(4, 4, W, 2, 3, 5))
    message = refused(state, 0, keep(4), "face_already_kept")
    assert message == "You already set aside 4s this turn."
    state = play(state, 0, keep(W))
    assert state["turn"]["kept"] == [{"face": 4, "count": 2}, {"face": W, "count": 1}]


def test_rule_1_2_a_face_is_kept_from_an_entered_roll():
    message = refused(new_game(), 0, keep(W), "no_roll")
    assert message == "Enter your roll before choosing the dice to keep."


def test_rule_1_2_a_face_must_be_kept_before_anything_else():
    state = play(new_game(), 0, roll(W, W, 1, 2, 3, 3, 4, 4))
    for action in (roll(W, W, 1, 2, 3, 3, 4, 4), STOP, set_aside(W, 2)):
        message = refused(state, 0, action, "keep_first")
        assert message == "First choose which face to keep from the roll you entered."


def test_rule_1_2_roll_with_only_faces_already_set_aside_fails_the_turn_at_once():
    state = play(new_game(), 0, roll(W, W, 1, 2, 3, 3, 4, 4), keep(W), roll(W, 4, 4, 4, 1, 1), keep(4))
    state = play(state, 0, roll(W, 4, 4))
    assert state["last_turn"]["outcome"] == "failed"
    assert state["last_turn"]["reason"] == wormdice.NOTHING_NEW
    assert state["last_turn"]["total"] == 22
    assert GAME.current_seat(state) == 1
    assert state["turn"] == wormdice.new_turn(1)


def test_rule_1_2_forced_failure_is_not_declared_while_a_new_face_is_rolled():
    state = play(new_game(), 0, roll(W, W, 1, 2, 3, 3, 4, 4), keep(W), roll(W, W, 4, 4, 4, 5))
    message = refused(state, 0, BUST, "roll_has_new_face")
    assert message == "Your roll has a face you have not set aside yet: keep one of them."


# --- 3. roll again or stop -----------------------------------------------------------
def test_rule_1_3_after_keeping_the_player_may_roll_again():
    state = play(new_game(), 0, roll(W, W, 1, 2, 3, 3, 4, 4), keep(W), roll(5, 5, 5, 1, 1, 2))
    assert GAME.current_seat(state) == 0
    assert state["turn"]["roll"] == [5, 5, 5, 1, 1, 2]


def test_rule_1_3_after_keeping_the_player_may_stop():
    state = play(new_game(), 0, roll(W, W, W, 5, 5, 5, 4, 4), keep(W), roll(5, 5, 5, 5, 1), keep(5), STOP)
    assert state["last_turn"]["outcome"] == "took"
    assert state["last_turn"]["tile"] == 35
    assert state["stacks"] == [[35], []]


# --- 4. the turn ends by itself ------------------------------------------------------
def test_rule_1_4_all_eight_dice_set_aside_ends_the_turn_as_a_stop():
    state = play(
        new_game(), 0, roll(W, W, W, 5, 5, 4, 4, 1), keep(W), roll(5, 5, 4, 4, 1), keep(5), roll(4, 4, 1), keep(4)
    )
    state = play(state, 0, roll(1))
    assert GAME.current_seat(state) == 0
    state = play(state, 0, keep(1))
    assert GAME.current_seat(state) == 1
    assert state["last_turn"]["outcome"] == "took"
    assert state["last_turn"]["tile"] == 34  # 3 worms + 2 fives + 2 fours + a 1: 15 + 10 + 8 + 1


def test_rule_1_4_all_eight_dice_set_aside_by_quick_entry_ends_the_turn():
    state = play(new_game(), 0, set_aside(W, 3), set_aside(5, 3))
    assert GAME.current_seat(state) == 0
    state = play(state, 0, set_aside(1, 2))
    assert state["last_turn"]["tile"] == 32
    assert state["stacks"] == [[32], []]


def test_rule_1_4_all_six_faces_taken_ends_the_turn_as_a_stop():
    state = play(new_game(), 0, *(set_aside(face, 1) for face in (W, 5, 4, 3, 2)))
    assert GAME.current_seat(state) == 0 and state["turn"]["dice_left"] == 3
    state = play(state, 0, roll(1, 1, 4), keep(1))
    assert GAME.current_seat(state) == 1
    assert state["last_turn"]["total"] == 21  # 5 + 5 + 4 + 3 + 2 + 2 × 1
    assert state["stacks"] == [[21], []]


def test_rule_1_4_a_turn_ended_by_itself_without_a_worm_fails():
    state = play(new_game(), 0, set_aside(5, 4), set_aside(4, 4))
    assert state["last_turn"]["outcome"] == "failed"
    assert state["last_turn"]["reason"] == "no_worm"
    assert state["last_turn"]["total"] == 36


# --- 5. the result -------------------------------------------------------------------
def test_rule_1_5_result_is_the_sum_of_the_dice_with_a_worm_worth_five():
    state = play(new_game(), 0, set_aside(W, 2), set_aside(3, 3), set_aside(2, 1))
    assert state["turn"]["total"] == 2 * 5 + 3 * 3 + 2
    assert state["turn"]["has_worm"] is True
    state = play(state, 0, STOP)
    assert state["stacks"] == [[21], []]


def test_rule_1_5_a_stop_without_a_worm_is_a_failed_turn():
    state = play(new_game(), 0, set_aside(5, 4), set_aside(4, 2), STOP)
    assert state["last_turn"]["outcome"] == "failed"
    assert state["last_turn"]["reason"] == "no_worm"
    assert state["stacks"] == [[], []]
    assert all(tile["face_up"] for tile in state["grill"])


# --- quick entry ---------------------------------------------------------------------
def test_rule_1_quick_entry_faces_are_distinct():
    state = play(new_game(), 0, set_aside(4, 2))
    message = refused(state, 0, set_aside(4, 1), "face_already_kept")
    assert message == "You already set aside 4s this turn."


def test_rule_1_quick_entry_count_is_at_least_one():
    assert refused(new_game(), 0, set_aside(W, 0), "invalid_count") == "Set aside at least one die."
    refused(new_game(), 0, set_aside(W, -2), "invalid_count")


def test_rule_1_quick_entry_total_is_at_most_eight():
    state = play(new_game(), 0, set_aside(W, 3), set_aside(5, 3))
    assert refused(state, 0, set_aside(4, 3), "too_many_dice") == "Only 2 dice are left."
    assert refused(new_game(), 0, set_aside(W, 9), "too_many_dice") == "Only 8 dice are left."
    state = play(state, 0, set_aside(4, 1))
    assert refused(state, 0, set_aside(1, 2), "too_many_dice") == "Only 1 die is left."


def test_rule_1_quick_entry_count_is_a_whole_number():
    for count in ("2", 2.0, None, True):
        refused(new_game(), 0, set_aside(W, count), "malformed_action", 400)


def test_rule_1_quick_entry_failure_is_declared_explicitly():
    state = play(new_game(), 0, set_aside(W, 2), set_aside(4, 2), BUST)
    record = state["last_turn"]
    assert (record["outcome"], record["reason"], record["total"]) == ("failed", wormdice.DECLARED_FAILED, 18)
    assert GAME.current_seat(state) == 1


def test_rule_1_no_failure_before_anything_is_set_aside():
    sentence = refused(new_game(), 0, BUST, "nothing_set_aside")
    assert "before any dice are set aside" in sentence


def test_rule_1_no_failure_before_anything_is_set_aside_in_barbecue():
    barbecue = GAMES["heckmeck-barbecue"]
    state = barbecue.setup(["Ana", "Bruno"], barbecue.effective_options({}))
    with pytest.raises(RuleError) as caught:
        barbecue.apply(state, 0, BUST)
    assert (caught.value.code, caught.value.status) == ("nothing_set_aside", 422)


def test_rule_1_no_failure_declared_on_the_first_roll_entered():
    state = play(new_game(), 0, roll(W, W, 3, 3, 3, 1, 1, 2))
    refused(state, 0, BUST, "nothing_set_aside")


def test_rule_1_both_ways_of_entering_are_offered_turn_by_turn():
    state = play(new_game(), 0, roll(W, W, 3, 3, 3, 1, 1, 2), keep(3), roll(W, W, W, 5, 1), keep(W), STOP)
    state = play(state, 1, set_aside(W, 2), set_aside(4, 3), STOP)
    assert state["stacks"] == [[24], [22]]


# --- faces the dice do not have; unknown actions ----------------------------------------
@pytest.mark.parametrize(
    "action",
    [roll(1, 2, 3, 4, 5, W, W, 6), set_aside(6, 2), roll(1, 2, 3, 4, 5, W, W, 0), set_aside(7, 1)],
)
def test_rule_1_pickomino_dice_have_no_six(action):
    refused(new_game(), 0, action, "invalid_face")


def test_rule_1_keeping_a_face_the_dice_do_not_have_is_refused():
    state = play(new_game(), 0, roll(1, 2, 3, 4, 5, W, W, 1))
    assert refused(state, 0, keep(6), "invalid_face") == "These dice have no 6."


def test_rule_1_a_face_is_a_number_or_worm():
    refused(new_game(), 0, set_aside("worms", 1), "malformed_action", 400)
    refused(new_game(), 0, set_aside(None, 1), "malformed_action", 400)


def test_rule_1_barbecue_dice_have_a_six_and_no_five():
    turn = wormdice.new_turn(0)
    with pytest.raises(RuleError) as caught:
        wormdice.play(turn, set_aside(5, 1), wormdice.BARBECUE_DICE)
    assert caught.value.code == "invalid_face"
    assert turn == wormdice.new_turn(0)
    assert wormdice.play(turn, set_aside(6, 2), wormdice.BARBECUE_DICE) is wormdice.CONTINUES
    assert wormdice.play(turn, set_aside(W, 1), wormdice.BARBECUE_DICE) is wormdice.CONTINUES
    assert (turn["total"], turn["dice_left"], turn["has_worm"]) == (17, 5, True)


def test_rule_1_unknown_action_is_refused():
    message = refused(new_game(), 0, {"type": "reroll"}, "unknown_action")
    assert message == "There is no action called reroll in this game."
    refused(new_game(), 0, {"dice": [1]}, "malformed_action", 400)


def test_rule_1_3_a_stop_comes_after_setting_dice_aside():
    message = refused(new_game(), 0, STOP, "nothing_set_aside")
    assert message == "Set aside dice before you stop: a turn starts by rolling all 8 dice."

"""docs/rules.md (Qwixx): a test per rule, on the engine alone (no Flask). Sheets with
crosses already made are given directly (`given`), so each rule is tested where it
applies; everything after that goes through `apply`."""

from __future__ import annotations

import copy

import jsonschema
import pytest

from companion.games.errors import RuleError
from companion.games.qwixx import DICE, ROW_NUMBERS, ROWS, Qwixx, colour_choices, row_score, white_choices
from .refusals import refusals_of

GAME = Qwixx()
NAMES = ["Ana", "Bruno", "Caio"]
PASS_WHITE = {"type": "white", "row": None}
PASS_COLOUR = {"type": "colour", "row": None}


def new_game(players=NAMES):
    return GAME.setup(list(players), GAME.effective_options({}), None)


def roll(white1=1, white2=1, red=1, yellow=1, green=1, blue=1, without=()):
    dice = {"white1": white1, "white2": white2, "red": red, "yellow": yellow, "green": green, "blue": blue}
    return {"type": "roll", "dice": {die: value for die, value in dice.items() if die not in without}}


def white(row):
    return {"type": "white", "row": row}


def colour(row, die):
    return {"type": "colour", "row": row, "white": die}


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def everyone(state, *rows):
    """Step 1 for every seat in order: seat n crosses the white sum in rows[n] (None: pass)."""
    return play(state, *[(seat, white(row)) for seat, row in enumerate(rows)])


def given(state, seat, **rows):
    state = copy.deepcopy(state)
    state["sheets"][seat]["rows"].update({row: list(numbers) for row, numbers in rows.items()})
    return state


refused = refusals_of(GAME)

def test_qwixx_players_2_to_5_and_the_same_sheet_for_everyone():
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    state = new_game()
    assert all(sheet["rows"] == {row: [] for row in ROWS} for sheet in state["sheets"])
    assert ROW_NUMBERS["red"] == ROW_NUMBERS["yellow"] == tuple(range(2, 13))
    assert ROW_NUMBERS["green"] == ROW_NUMBERS["blue"] == tuple(range(12, 1, -1))


def test_qwixx_only_the_active_seat_rolls_once_per_turn_the_dice_in_play_each_1_to_6():
    state = new_game()
    refused(state, 1, roll(), "not_your_turn", 403)
    refused(state, 0, roll(without=("blue",)), "wrong_dice")
    purple = refused(state, 0, {"type": "roll", "dice": {**roll()["dice"], "purple": 3}}, "malformed_action", 400)
    assert purple == "Qwixx actions have no field called dice.purple."
    refused(state, 0, roll(red=7), "invalid_face")
    refused(state, 0, roll(red=0), "invalid_face")
    with pytest.raises(RuleError):
        GAME.apply(state, 0, roll(red=True))
    rolled = play(state, (0, roll(2, 3)))
    assert (rolled["step"], rolled["waiting_for"]) == ("white", [0, 1, 2])
    refused(rolled, 0, roll(), "already_rolled")


def test_qwixx_white_sum_everyone_may_cross_it_in_any_one_row_or_pass():
    state = play(new_game(), (0, roll(3, 4)))
    state = play(state, (2, white("blue")), (1, PASS_WHITE))  # any order
    assert state["sheets"][2]["rows"]["blue"] == [7]
    refused(state, 2, white("red"), "white_done")
    state = play(state, (0, white("red")))
    assert state["sheets"][0]["rows"]["red"] == [7] and state["step"] == "colour"


def test_qwixx_white_sum_choices_do_not_depend_on_the_other_seats():
    state = play(new_game(), (0, roll(3, 4)))
    assert [choice["row"] for choice in white_choices(state, 1)] == list(ROWS)
    assert not GAME.tap_depends_on(state, 1, white("red"), 2, white("blue"))
    assert GAME.tap_depends_on(state, 1, white("red"), 0, roll())


def test_qwixx_crossing_strictly_left_to_right_skipped_numbers_are_gone():
    state = given(play(new_game(), (0, roll(3, 4))), 1, red=[8])
    refused(state, 1, white("red"), "left_of_a_cross")  # 7 is left of 8
    state = given(play(new_game(), (0, roll(3, 4))), 1, green=[12, 6])
    refused(state, 1, white("green"), "left_of_a_cross")  # 7 was skipped in green
    state = given(play(new_game(), (0, roll(3, 4))), 1, red=[5])
    assert play(state, (1, white("red")))["sheets"][1]["rows"]["red"] == [5, 7]


def test_qwixx_the_last_number_needs_five_crosses_and_crosses_the_lock_too():
    state = given(play(new_game(), (0, roll(6, 6))), 1, red=[2, 3, 4, 5])
    refused(state, 1, white("red"), "lock_needs_five")
    state = given(play(new_game(), (0, roll(6, 6))), 1, red=[2, 3, 4, 5, 6])
    state = play(state, (1, white("red")))
    sheet = state["sheets"][1]
    assert sheet["locks"] == ["red"] and GAME.scores(state)[1] == row_score(7) == 28


def test_qwixx_a_row_locked_in_step_1_stays_open_to_the_same_white_sum_and_several_take_the_lock():
    state = given(given(play(new_game(), (0, roll(6, 6))), 1, red=[2, 3, 4, 5, 6]), 2, red=[3, 4, 5, 6, 7])
    state = play(state, (1, white("red")))
    assert state["locked"] == []  # closed when step 1 ends
    state = play(state, (2, white("red")), (0, PASS_WHITE))
    assert [sheet["locks"] for sheet in state["sheets"]] == [[], ["red"], ["red"]]
    assert state["locked"] == ["red"]


def test_qwixx_decision_a_row_locked_in_step_1_is_closed_for_step_2():
    state = given(play(new_game(), (0, roll(6, 6, red=5))), 1, red=[2, 3, 4, 5, 6])
    state = everyone(state, None, "red", None)
    assert state["step"] == "colour"
    refused(state, 0, colour("red", 1), "row_locked")
    assert all(choice["row"] != "red" for choice in colour_choices(state, 0))


def test_qwixx_a_locked_rows_die_leaves_the_game():
    state = given(play(new_game(), (0, roll(6, 6))), 1, red=[2, 3, 4, 5, 6])
    state = play(everyone(state, None, "red", None), (0, PASS_COLOUR))
    assert GAME.dice_in_play(state) == [die for die in DICE if die != "red"]
    refused(state, 1, roll(), "wrong_dice")
    assert play(state, (1, roll(without=("red",))))["roll"].keys() == {"white1", "white2", "yellow", "green", "blue"}
    later = play(state, (1, roll(without=("red",))))
    refused(later, 0, white("red"), "row_locked")


def test_qwixx_colour_sum_the_active_seat_only_after_everyone_did_step_1():
    state = play(new_game(), (0, roll(3, 4, blue=5)), (0, PASS_WHITE))
    refused(state, 0, colour("blue", 1), "white_first")
    state = play(state, (1, PASS_WHITE), (2, PASS_WHITE))
    refused(state, 1, colour("blue", 1), "not_your_turn", 403)
    refused(state, 0, colour("blue", 3), "white_die")
    state = play(state, (0, colour("blue", 2)))  # white 2 (4) + blue 5 = 9
    assert state["sheets"][0]["rows"]["blue"] == [9] and state["active"] == 1 and state["step"] == "roll"


def test_qwixx_colour_sum_in_the_same_row_lies_right_of_the_step_1_cross_which_counts_toward_the_lock():
    state = given(play(new_game(), (0, roll(3, 4, red=1))), 0, red=[2, 3, 4, 5])
    state = everyone(state, "red", None, None)  # Ana crosses 7: five crosses
    refused(state, 0, colour("red", 1), "left_of_a_cross")  # 3 + 1 = 4, left of 7
    state = given(play(new_game(), (0, roll(6, 5, red=6))), 0, red=[2, 3, 4, 5])
    state = everyone(state, "red", None, None)  # 11: the fifth cross
    state = play(state, (0, colour("red", 1)))  # 6 + 6 = 12 locks red
    assert state["sheets"][0]["locks"] == ["red"] and state["locked"] == ["red"]


def test_qwixx_penalty_when_the_active_seat_crossed_nothing_others_never():
    state = everyone(play(new_game(), (0, roll(3, 4))), None, None, None)
    assert GAME.passing_costs_a_penalty(state, 0)
    state = play(state, (0, PASS_COLOUR))
    assert [sheet["penalties"] for sheet in state["sheets"]] == [1, 0, 0]
    assert GAME.scores(state) == [-5, 0, 0]
    state = everyone(play(state, (1, roll(3, 4))), None, "red", None)
    state = play(state, (1, colour("blue", 1)))  # crossed in step 2: no penalty
    state = everyone(play(state, (2, roll(3, 4))), None, None, "green")
    state = play(state, (2, PASS_COLOUR))  # crossed in step 1: no penalty
    assert [sheet["penalties"] for sheet in state["sheets"]] == [1, 0, 0]


def test_qwixx_penalty_what_the_state_says_the_active_seat_crossed_is_of_this_turn():
    """The API's state tells whether the active seat crossed this turn: the next turn starts
    with nothing crossed, whatever the last active seat did."""
    state = everyone(play(new_game(), (0, roll(3, 4))), "red", None, None)
    assert GAME.public_state(state, None)["active_crossed"]
    state = play(state, (0, PASS_COLOUR))  # crossed in step 1: no penalty, and the turn passes
    assert state["active"] == 1 and not GAME.public_state(state, None)["active_crossed"]
    assert not GAME.passing_costs_a_penalty(state, 1)  # nothing rolled yet: nothing to pass


def test_qwixx_end_at_the_fourth_penalty_at_once():
    state = new_game(["Ana", "Bruno"])
    state["sheets"][0]["penalties"] = 3
    state = play(state, (0, roll()), (0, PASS_WHITE), (1, PASS_WHITE), (0, PASS_COLOUR))
    assert GAME.is_finished(state) and state["end_reason"] == "fourth_penalty"
    assert GAME.current_seat(state) is None and GAME.actors(state) == []
    refused(state, 1, roll(), "game_over")


def test_qwixx_end_when_a_second_row_is_locked_after_step_1_without_step_2():
    state = play(new_game(), (0, roll(6, 6)))
    state["locked"] = ["green"]
    state = given(state, 1, red=[2, 3, 4, 5, 6])
    state = everyone(state, None, "red", None)
    assert state["end_reason"] == "second_lock" and GAME.is_finished(state)


def test_qwixx_end_two_rows_locked_in_the_same_step_count():
    state = given(given(play(new_game(), (0, roll(6, 6))), 1, red=[2, 3, 4, 5, 6]), 2, yellow=[2, 3, 4, 5, 6])
    state = everyone(state, None, "red", "yellow")
    assert state["locked"] == ["red", "yellow"] and state["end_reason"] == "second_lock"


def test_qwixx_score_is_each_row_by_its_crosses_minus_5_per_penalty():
    assert [row_score(n) for n in range(13)] == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    state = given(new_game(), 0, red=[2, 5, 6], green=[12])
    state["sheets"][0]["penalties"] = 1
    assert GAME.scores(state)[0] == 6 + 1 - 5


def test_qwixx_ranking_most_points_first_ties_share_the_place():
    scene = GAME.scenes()["finished"]
    state = GAME.replay(GAME.setup(list(scene.players), {}, None), scene.actions)
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [("Ana", 56, 1), ("Bruno", 56, 1)]
    assert "share the place" in str(ranking[0]["tiebreak"])
    assert str(ranking[0]["detail"]) == "red 28, yellow 28, green 0 and blue 0"


def test_qwixx_host_acting_without_a_seat_acts_as_the_active_seat_while_it_may_still_choose():
    """API contract: without a seat the host acts as the seat whose move it is."""
    state = play(new_game(), (0, roll()))
    assert GAME.seat_for_host(state, white("red")) == 0
    assert GAME.seat_for_host(play(state, (1, PASS_WHITE)), white("red")) == 0


def test_qwixx_host_acting_without_a_seat_in_step_1_must_name_one_once_the_active_seat_chose_unless_only_one_is_left():
    state = play(new_game(), (0, roll()), (0, PASS_WHITE))
    assert GAME.seat_for_host(state, white("red")) is None
    state = play(state, (1, PASS_WHITE))
    assert GAME.seat_for_host(state, white("red")) == 2
    assert GAME.seat_for_host(play(state, (2, PASS_WHITE)), PASS_COLOUR) == 0


def test_qwixx_unknown_rows_and_actions_are_refused():
    state = play(new_game(), (0, roll()))
    refused(state, 1, white("purple"), "unknown_row")
    refused(state, 1, {"type": "shout"}, "unknown_action")


def test_qwixx_the_public_state_is_the_same_for_every_viewer_and_fits_its_schema():
    state = everyone(play(new_game(), (0, roll(3, 4))), "red", None, "blue")
    public = GAME.public_state(state, None)
    assert all(GAME.public_state(state, seat) == public for seat in range(3))
    schemas = GAME.api_schemas()
    jsonschema.validate(public, {**schemas.state, "components": {"schemas": schemas.named}})
    assert public["white_sum"] == 7 and public["step"] == "colour"
    assert public["sheets"][0] == {"seat": 0, "rows": {"red": [7], "yellow": [], "green": [], "blue": []}, "locks": [], "penalties": 0, "score": 1}


def test_qwixx_log_lines_say_the_number_the_lock_the_penalty_and_the_end():
    state = play(new_game(["Ana", "Bruno"]), (0, roll(3, 4, blue=5)))
    after = GAME.apply(state, 1, white("red"))
    assert str(GAME.describe_outcome(state, after, 1, white("red"))) == "crossed 7 in red (white sum)"
    state = play(after, (0, PASS_WHITE))
    after = GAME.apply(state, 0, PASS_COLOUR)
    assert str(GAME.describe_outcome(state, after, 0, PASS_COLOUR)) == "passed — took penalty 1 of 4"
    assert str(GAME.describe_action(state, 0, roll(3, 4))).startswith("rolled white die 1 = 3, white die 2 = 4, red = 1")


@pytest.mark.parametrize(
    "action",
    [{"type": "white"}, {"type": "white", "row": 1}, {"type": "white", "row": ["red"]}],
)
def test_qwixx_a_crossing_names_its_row_or_null_and_nothing_else_is_understood(action):
    state = play(new_game(), (0, roll(3, 4)))
    with pytest.raises(RuleError) as caught:  # MalformedAction: 400, not a pass
        GAME.apply(state, 1, action)
    assert caught.value.status == 400


@pytest.mark.parametrize("die", [True, "1", 1.0, None])
def test_qwixx_the_white_die_of_a_colour_sum_is_the_number_1_or_2(die):
    state = everyone(play(new_game(), (0, roll(3, 4))), None, None, None)
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, 0, {"type": "colour", "row": "red", "white": die})
    assert caught.value.status == 400
    refused(state, 0, colour("red", 3), "white_die")


def test_qwixx_every_refusal_is_a_sentence_that_starts_with_a_capital():
    state = given(play(new_game(), (0, roll(3, 4))), 1, red=[8])
    for sentence in (
        refused(state, 1, white("red"), "left_of_a_cross"),
        refused(given(play(new_game(), (0, roll(6, 6))), 1, red=[2]), 1, white("red"), "lock_needs_five"),
        refused(state, 0, colour("red", 1), "white_first"),
    ):
        assert sentence[0].isupper() and sentence.endswith(".")

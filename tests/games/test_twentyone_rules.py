"""docs/rules.md (Twenty One), Twenty One: a test per rule. Engine tests (pure), plus the rules that
live in the shell (player count, who may write on which sheet, the phones' forms)
through the JSON API and the pages."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.twentyone import COLORS, FIELD_NUMBERS, HIT_BONUS, ROWS, SHEET_LAYOUTS, row_points
from .refusals import refusals_of

GAME = GAMES["twenty-one"]
# A sheet whose every row reads white 6, black 5, red 4, blue 3, yellow 2, green 1.
PLAIN = [list(COLORS)] * ROWS


def dice(white=1, black=1, red=1, blue=1, yellow=1, green=1) -> dict[str, int]:
    return {"white": white, "black": black, "red": red, "blue": blue, "yellow": yellow, "green": green}


ONES = dice()  # every die fits every field
EXACT = dice(6, 5, 4, 3, 2, 1)  # on a PLAIN sheet: six hits


def roll(values):
    return {"type": "roll", "dice": values}


def reroll(values):
    return {"type": "reroll", "dice": values}


def enter(*colors, **guards):
    return {"type": "enter", "colors": list(colors), **guards}


CROSS = {"type": "cross"}


def new_game(players=("Ema", "Tomás"), layouts=None, sheets=None):
    names = list(players)
    options = GAME.effective_options(
        {"sheets": sheets or list("ABCDEF"[: len(names)]), "sheet_layouts": layouts or [PLAIN] * len(names)}
    )
    return GAME.setup(names, options, GAME.deal(names, options, random.Random(0)))


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


refused = refusals_of(GAME)

def field(state, seat, row, color):
    return next(f for f in state["sheets"][seat]["rows"][row]["fields"] if f["color"] == color)


def everyone_crosses(state, *seats):
    return play(state, *[(seat, CROSS) for seat in seats])


def test_rule_5_every_player_gets_a_different_sheet_dealt_or_chosen():
    names = ["Ana", "Bruno", "Caio", "Dora", "Edu", "Fia"]
    for seed in range(20):
        options = GAME.effective_options({"sheets": [None, "D", None, None, "A", None]})
        letters = GAME.deal(names, options, random.Random(seed))
        assert sorted(letters) == list("ABCDEF")
        assert letters[1] == "D" and letters[4] == "A"
    state = GAME.setup(names[:3], GAME.effective_options({}), ["F", "A", "C"])
    assert [sheet["letter"] for sheet in state["sheets"]] == ["F", "A", "C"]
    assert state["sheets"][0]["rows"][2]["fields"][0]["color"] == SHEET_LAYOUTS["F"][2][0]


def test_rule_5_a_sheet_has_five_rows_numbered_6_to_1_with_each_colour_once():
    state = new_game(layouts=[None, None])
    for sheet in state["sheets"]:
        assert len(sheet["rows"]) == ROWS == 5
        for row, colors in zip(sheet["rows"], SHEET_LAYOUTS[sheet["letter"]]):
            assert [f["value"] for f in row["fields"]] == [6, 5, 4, 3, 2, 1] == list(FIELD_NUMBERS)
            assert sorted(f["color"] for f in row["fields"]) == sorted(COLORS)
            assert [f["color"] for f in row["fields"]] == list(colors)
            assert row["score"] is None and row["hits"] == 0


# --- 1. the roll ----------------------------------------------------------------------------
def test_rule_5_round_1_the_active_player_rolls_all_six_dice():
    state = new_game()
    assert GAME.current_seat(state) == 0 and GAME.actors(state) == [0]
    state = play(state, (0, roll(dice(3, 1, 6, 2, 5, 4))))
    assert state["roll"] == dice(3, 1, 6, 2, 5, 4)
    assert state["rerolled"] is False


def test_rule_5_round_1_rolling_out_of_turn_is_refused():
    state = new_game()
    refused(state, 1, roll(ONES), "not_your_turn", 403)


@pytest.mark.parametrize(
    "values, code, status",
    [
        ({"white": 3}, "malformed_action", 400),
        ({**dice(), "purple": 2}, "malformed_action", 400),
        (dice(white="3"), "malformed_action", 400),
        (dice(white=True), "malformed_action", 400),
        (dice(white=7), "invalid_die", 422),
        (dice(green=0), "invalid_die", 422),
    ],
)
def test_rule_5_round_1_a_roll_is_six_dice_showing_1_to_6(values, code, status):
    refused(new_game(), 0, roll(values), code, status)


def test_rule_5_round_1_one_roll_per_round():
    state = play(new_game(), (0, roll(ONES)))
    refused(state, 0, roll(EXACT), "already_rolled")


def test_rule_5_round_1_reroll_once_every_die_but_the_1s():
    state = play(new_game(), (0, roll(dice(6, 4, 3, 3, 1, 1))))  # Tomás's roll in the seed
    state = play(state, (0, reroll(dice(2, 5, 5, 6, 1, 1))))
    assert state["roll"] == dice(2, 5, 5, 6, 1, 1)
    assert state["first_roll"] == dice(6, 4, 3, 3, 1, 1)
    assert state["rerolled"] is True
    refused(state, 0, reroll(dice(2, 5, 5, 6, 1, 1)), "already_rerolled")


def test_rule_5_round_1_a_reroll_may_not_change_a_1():
    state = play(new_game(), (0, roll(dice(6, 4, 3, 3, 1, 1))))
    sentence = refused(state, 0, reroll(dice(6, 4, 3, 3, 1, 2)), "ones_stay")
    assert "green" in sentence
    # a die that was not a 1 may come up 1
    assert play(state, (0, reroll(dice(1, 1, 1, 1, 1, 1))))["roll"] == ONES


def test_rule_5_round_1_reroll_only_by_the_roller_after_a_roll_before_anyone_writes():
    state = new_game()
    refused(state, 0, reroll(ONES), "no_roll")
    state = play(state, (0, roll(ONES)))
    refused(state, 1, reroll(ONES), "not_your_turn", 403)
    written = play(state, (1, CROSS))
    refused(written, 0, reroll(ONES), "reroll_after_entry")


# --- 2. every player writes -----------------------------------------------------------------
def test_rule_5_round_2_nothing_is_written_before_the_roll():
    state = new_game()
    refused(state, 1, enter("green"), "no_roll")
    refused(state, 0, CROSS, "no_roll")


def test_rule_5_round_2_every_player_writes_the_active_one_included():
    state = play(new_game(("Ana", "Bruno", "Caio")), (0, roll(ONES)))
    assert state["waiting_for"] == [0, 1, 2]
    assert GAME.actors(state) == [0, 1, 2]
    state = play(state, (2, CROSS), (0, enter("green")))
    assert state["waiting_for"] == [1] and GAME.actors(state) == [1]
    assert state["round"] == 1 and state["roll"] == ONES  # the round waits for Bruno


def test_rule_5_round_2_a_die_goes_in_its_colour_field_when_lower_or_equal():
    state = play(new_game(), (0, roll(dice(white=5, red=4, blue=2))))
    state = play(state, (0, enter("white", "red", "blue")))
    assert field(state, 0, 0, "white")["entry"] == 5  # 5 in the field 6
    assert field(state, 0, 0, "red")["entry"] == 4  # 4 in the field 4
    assert field(state, 0, 0, "blue")["entry"] == 2  # 2 in the field 3
    assert field(state, 0, 0, "black")["entry"] is None


def test_rule_5_round_2_a_die_higher_than_its_field_is_refused():
    state = play(new_game(), (0, roll(dice(white=6, green=2))))
    sentence = refused(state, 1, enter("white", "green"), "die_too_high")
    assert "green" in sentence and "2" in sentence


def test_rule_5_round_2_a_value_equal_to_the_field_number_is_a_hit():
    state = play(new_game(), (0, roll(dice(white=5, red=4))), (0, enter("white", "red")))
    assert field(state, 0, 0, "red")["hit"] is True
    assert field(state, 0, 0, "white")["hit"] is False
    assert state["sheets"][0]["rows"][0]["hits"] == 1


def test_rule_5_round_2_a_used_field_is_refused():
    state = play(new_game(), (0, roll(dice(white=5))), (0, enter("white")), (1, CROSS))
    state = play(state, (1, roll(dice(white=2))))
    refused(state, 0, enter("white"), "field_used")
    crossed_white = play(state, (1, CROSS))  # Tomás's leftmost field, white, is crossed
    assert field(crossed_white, 1, 0, "white")["crossed"] is True


def test_rule_5_round_2_cross_out_the_leftmost_empty_field():
    state = play(new_game(), (0, roll(dice(white=6, black=5))), (0, enter("white", "black")), (1, CROSS))
    state = play(state, (1, roll(ONES)), (0, CROSS), (1, CROSS))
    assert field(state, 0, 0, "red")["crossed"] is True  # white and black were used: red is the leftmost
    assert field(state, 1, 0, "black")["crossed"] is True  # the second cross after white
    assert field(state, 0, 0, "red")["entry"] is None


def test_rule_5_round_2_exactly_one_action_per_player_per_round():
    state = play(new_game(("Ana", "Bruno", "Caio")), (0, roll(ONES)), (1, enter("green")))
    refused(state, 1, enter("yellow"), "already_written")
    refused(state, 1, CROSS, "already_written")
    crossed = play(state, (2, CROSS))
    refused(crossed, 2, enter("green"), "already_written")


def test_rule_5_round_2_entering_and_crossing_together_is_refused():
    state = play(new_game(), (0, roll(ONES)))
    refused(state, 0, {"type": "cross", "colors": ["green"]}, "enter_or_cross")


def test_rule_5_round_2_only_the_current_row_is_written():
    state = play(new_game(), (0, roll(EXACT)), (0, enter(*COLORS)), (1, CROSS))
    assert state["sheets"][0]["row"] == 1
    state = play(state, (1, roll(ONES)))
    refused(state, 0, enter("green", row=0), "not_current_row")
    refused(state, 0, enter("green", row=2), "not_current_row")
    state = play(state, (0, enter("green", row=1)))
    assert field(state, 0, 1, "green")["entry"] == 1


@pytest.mark.parametrize(
    "action, code, status",
    [
        (enter(), "nothing_to_enter", 422),
        (enter("purple"), "unknown_color", 422),
        (enter("green", "green"), "duplicate_color", 422),
        ({"type": "enter", "colors": "green"}, "malformed_action", 400),
        ({"type": "enter"}, "malformed_action", 400),
        ({"type": "enter", "colors": ["green"], "row": "0"}, "malformed_action", 400),
        ({"type": "score"}, "unknown_action", 422),
    ],
)
def test_rule_5_round_2_malformed_or_empty_entries_are_refused(action, code, status):
    refused(play(new_game(), (0, roll(ONES))), 1, action, code, status)


def test_rule_5_round_2_an_entry_for_a_roll_that_was_rerolled_since_is_refused():
    state = play(new_game(), (0, roll(dice(6, 4, 3, 3, 1, 1))))
    seen = state["roll"]
    state = play(state, (0, reroll(dice(2, 2, 2, 2, 1, 1))))
    refused(state, 1, enter("green", roll=seen), "roll_changed", 409)
    assert play(state, (1, enter("green", roll=state["roll"])))["waiting_for"] == [0]


@pytest.mark.parametrize(
    "seen, code, status",
    [
        ("x", "malformed_action", 400),
        ([], "malformed_action", 400),
        ({}, "malformed_action", 400),
        ({**ONES, "white": "1"}, "malformed_action", 400),
        ({color: 1 for color in list(ONES)[:5]}, "malformed_action", 400),
        ({**ONES, "white": 7}, "invalid_die", 422),
    ],
)
def test_rule_5_round_2_a_malformed_roll_guard_is_refused_as_malformed_not_as_a_reroll(seen, code, status):
    state = play(new_game(), (0, roll(ONES)))
    refused(state, 1, {**CROSS, "roll": seen}, code, status)
    refused(state, 1, enter("green", roll=seen), code, status)


def test_rule_5_round_2_an_entry_checked_in_full_before_anything_is_written():
    state = play(new_game(), (0, roll(dice(white=3, green=2))))
    refused(state, 1, enter("white", "green"), "die_too_high")  # white fits, green does not


# --- 3. the next round ------------------------------------------------------------------------
def test_rule_5_round_3_when_everyone_has_written_the_next_player_clockwise_rolls():
    state = new_game(("Ana", "Bruno", "Caio"))
    for active in (0, 1, 2, 0):
        assert GAME.current_seat(state) == active
        state = play(state, (active, roll(ONES)))
        state = everyone_crosses(state, 2, 0, 1) if active != 2 else everyone_crosses(state, 0, 1, 2)
    assert state["round"] == 5
    assert state["roll"] is None and state["rerolled"] is False and state["waiting_for"] == [0, 1, 2]


# --- row scoring ------------------------------------------------------------------------------
def test_rule_5_row_scoring_seed_example_ema_row_14_plus_bonus_6_is_20():
    """Seed 004: Ema's first row holds 5, crossed, 4, 2, 2, 1 in the fields 6..1: 14 points
    and three hits (4, 2, 1), bonus 6: the row scores 20."""
    state = new_game()  # Ema has seat 0; every row of her sheet is white 6 … green 1
    state = play(state, (0, roll(dice(white=5, black=6, red=4, blue=6, yellow=6, green=6))), (0, enter("white", "red")), (1, CROSS))
    state = play(state, (1, roll(dice(black=6, blue=2, yellow=2, green=1))), (0, enter("blue", "yellow", "green")), (1, CROSS))
    assert state["sheets"][0]["rows"][0]["score"] is None
    state = play(state, (0, roll(dice(black=6))), (0, CROSS))  # nothing fits: the black 5 is crossed
    row = state["sheets"][0]["rows"][0]
    assert [f["entry"] for f in row["fields"]] == [5, None, 4, 2, 2, 1]
    assert [f["crossed"] for f in row["fields"]] == [False, True, False, False, False, False]
    assert [f["hit"] for f in row["fields"]] == [False, False, True, False, True, True]
    assert row["hits"] == 3
    assert row["score"] == 14 + 6 == 20
    assert state["sheets"][0]["total"] == 20
    assert state["sheets"][0]["row"] == 1


@pytest.mark.parametrize("hits", range(7))
def test_rule_5_row_scoring_hit_bonus_table(hits):
    assert HIT_BONUS == (0, 1, 3, 6, 10, 15, 21)
    # The last `hits` fields hit, the others get one less than their number. A green die
    # on the green 1 is always a hit: with no hits at all, that field is crossed instead.
    values = {
        color: number if index >= len(COLORS) - hits else max(number - 1, 1)
        for index, (color, number) in enumerate(zip(COLORS, FIELD_NUMBERS))
    }
    entered = COLORS if hits else COLORS[:-1]
    state = play(new_game(), (0, roll(dice(**values))), (0, enter(*entered)), (1, CROSS))
    if not hits:
        state = play(state, (1, roll(ONES)), (0, CROSS), (1, CROSS))
    row = state["sheets"][0]["rows"][0]
    assert row["hits"] == hits
    assert row["score"] == sum(values[color] for color in entered) + HIT_BONUS[hits]


def test_rule_5_row_scoring_six_hits_score_21_plus_21():
    state = play(new_game(), (0, roll(EXACT)), (0, enter(*COLORS)))
    assert state["sheets"][0]["rows"][0]["score"] == 21 + 21


def test_rule_5_row_scoring_crossed_fields_count_0():
    state = new_game()
    for round_ in range(6):
        roller = round_ % 2
        state = play(state, (roller, roll(ONES)), (0, CROSS), (1, enter("green") if round_ == 0 else CROSS))
    assert state["sheets"][0]["rows"][0]["score"] == 0
    assert state["sheets"][1]["rows"][0]["score"] == 1 + HIT_BONUS[1]


def test_rule_5_the_next_row_starts_in_the_next_round_never_two_rows_in_one_round():
    state = play(new_game(("Ana", "Bruno", "Caio")), (0, roll(EXACT)), (0, enter(*COLORS)))
    assert state["sheets"][0]["row"] == 1 and state["sheets"][0]["rows"][0]["score"] == 42
    refused(state, 0, enter("green"), "already_written")  # row 2 waits for the next roll
    state = play(state, (1, CROSS), (2, CROSS), (1, roll(ONES)), (0, enter("green")))
    assert field(state, 0, 1, "green")["entry"] == 1


# --- the end ----------------------------------------------------------------------------------
def five_rows_for_ema(state, last_round_moves=((1, CROSS),)):
    """Ema (seat 0) fills a whole row every round with six 1s; Tomás crosses; the fifth
    round ends with `last_round_moves` for the others."""
    for round_ in range(5):
        roller = round_ % len(state["players"])
        state = play(state, (roller, roll(ONES)), (0, enter(*COLORS)))
        if round_ < 4:
            state = play(state, *[(seat, CROSS) for seat in range(1, len(state["players"]))])
    return state, last_round_moves


def test_rule_5_end_at_the_end_of_the_round_in_which_a_player_completes_the_fifth_row():
    state, _ = five_rows_for_ema(new_game(("Ema", "Tomás", "João")))
    assert state["sheets"][0]["row"] == 5
    assert not GAME.is_finished(state)  # the others still write this round
    assert GAME.actors(state) == [1, 2]
    state = play(state, (1, CROSS))
    assert not GAME.is_finished(state)
    state = play(state, (2, CROSS))
    assert GAME.is_finished(state)
    assert GAME.current_seat(state) is None and GAME.actors(state) == []
    refused(state, 0, roll(ONES), "game_over")


def test_rule_5_end_the_others_score_their_current_row_as_it_stands():
    state = new_game(("Ema", "Tomás", "João"))
    # Tomás keeps writing into his first row: 1s in green (a hit) and yellow, then crosses
    for round_ in range(5):
        roller = round_ % 3
        state = play(state, (roller, roll(ONES)), (0, enter(*COLORS)))
        state = play(state, (1, enter("green") if round_ == 0 else enter("yellow") if round_ == 1 else CROSS))
        state = play(state, (2, CROSS))
    assert GAME.is_finished(state)
    tomas, joao = state["sheets"][1], state["sheets"][2]
    assert tomas["row"] == 0 and tomas["rows"][0]["score"] == 1 + 1 + HIT_BONUS[1]  # unfinished: 2 + 1
    assert tomas["rows"][1]["score"] is None
    assert joao["rows"][0]["score"] == 0  # five crosses, nothing entered
    assert state["sheets"][0]["total"] == 5 * (6 + HIT_BONUS[1])  # one hit (green 1) per row
    assert GAME.scores(state) == [35, 3, 0]


def test_rule_5_end_a_player_who_just_finished_a_row_scores_the_empty_next_row_as_0():
    state = new_game()
    for round_ in range(5):  # Tomás crosses white, black, red and blue, then enters yellow and green
        state = play(state, (round_ % 2, roll(EXACT)), (0, enter(*COLORS)), (1, enter("yellow", "green") if round_ == 4 else CROSS))
    assert GAME.is_finished(state)
    tomas = state["sheets"][1]
    assert tomas["rows"][0]["score"] == 2 + 1 + HIT_BONUS[2]  # the row he completed in the last round
    assert tomas["rows"][1]["score"] == 0  # his current row, empty
    assert tomas["total"] == 6


def test_rule_5_end_two_players_completing_the_fifth_row_in_the_same_round():
    state = new_game()
    for round_ in range(5):
        state = play(state, (round_ % 2, roll(EXACT)), (0, enter(*COLORS)), (1, enter(*COLORS)))
    assert GAME.is_finished(state)
    assert GAME.scores(state) == [5 * 42, 5 * 42]


def test_rule_5_total_is_the_sum_of_the_row_scores():
    state = new_game()
    state = play(state, (0, roll(EXACT)), (0, enter(*COLORS)), (1, enter("green")))
    state = play(state, (1, roll(ONES)), (0, enter("green", "yellow")), (1, CROSS))
    sheet = state["sheets"][0]
    assert sheet["total"] == 42 == sum(row["score"] or 0 for row in sheet["rows"])
    assert GAME.scores(state) == [42, 0]  # Tomás's unfinished row does not count yet


def test_rule_5_ranking_most_points_first_and_ties_share_the_place():
    state = new_game(("Ana", "Bruno", "Caio"))
    for round_ in range(5):
        state = play(state, (round_ % 3, roll(EXACT)), (0, enter(*COLORS)), (1, enter(*COLORS)), (2, enter("green") if round_ == 0 else CROSS))
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Ana", 210, 1), ("Bruno", 210, 1), ("Caio", 2, 3),
    ]
    assert "share the place" in str(ranking[0]["tiebreak"]) and "Ana and Bruno" in str(ranking[0]["tiebreak"])
    assert ranking[2]["tiebreak"] is None
    assert ranking[0]["rows"] == [42] * 5 and ranking[0]["detail"] == "42 + 42 + 42 + 42 + 42"
    assert ranking[2]["rows"] == [2, None, None, None, None]  # Caio's current row, as it stood
    assert GAME.ranking(new_game()) is None


def test_rule_5_the_game_log_says_what_was_done():
    state = new_game()
    assert str(GAME.describe_action(state, 0, roll(dice(3, 1, 6, 2, 5, 4)))) == (
        "rolled white 3, black 1, red 6, blue 2, yellow 5 and green 4."
    )
    assert str(GAME.describe_action(state, 0, reroll(ONES))).startswith("re-rolled: white 1, ")
    assert str(GAME.describe_action(state, 1, enter("black", "blue"))) == "entered black and blue."
    assert str(GAME.describe_action(state, 1, CROSS)) == "crossed out a field."


def test_rule_5_row_points_are_entries_plus_the_hit_bonus():
    row = {"hits": 3, "fields": [{"entry": 5}, {"entry": None}, {"entry": 4}, {"entry": 2}, {"entry": 2}, {"entry": 1}]}
    assert row_points(row) == 20

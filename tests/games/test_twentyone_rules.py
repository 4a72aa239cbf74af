"""docs/rules.md (Twenty One), Twenty One: a test per rule. Engine tests (pure), plus the rules that
live in the shell (player count, who may write on which sheet, the phones' forms)
through the JSON API and the pages."""

from __future__ import annotations

import copy
import random
import re

import pytest

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.twentyone import COLORS, FIELD_NUMBERS, HIT_BONUS, ROWS, SHEET_LAYOUTS, row_points

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


def refused(state, seat, action, code, status=422):
    """The action is refused with `code`/`status`, and the state given is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, seat, action)
    assert (caught.value.code, caught.value.status) == (code, status), str(caught.value)
    assert state == before
    sentence = str(caught.value)
    assert sentence.strip() and sentence[0].isupper() and sentence.endswith("."), sentence
    return sentence


def field(state, seat, row, color):
    return next(f for f in state["sheets"][seat]["rows"][row]["fields"] if f["color"] == color)


def everyone_crosses(state, *seats):
    return play(state, *[(seat, CROSS) for seat in seats])


# --- players and sheets -------------------------------------------------------------------
@pytest.mark.parametrize("count, status", [(1, 422), (2, 201), (6, 201), (7, 422)])
def test_rule_5_two_to_six_players(client, count, status):
    names = [f"P{index}" for index in range(count)]
    response = client.post("/api/tables", json={"game": "twenty-one", "players": names, "options": {}})
    assert response.status_code == status, response.get_json()
    if status == 422:
        assert response.get_json()["code"] == "player_count"


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


@pytest.mark.parametrize(
    "sheets, code",
    [(["A", "A"], "duplicate_sheet"), (["A", "G"], "unknown_sheet"), (["a", "B"], "unknown_sheet"), (["A", "B", "C"], "option_per_seat")],
)
def test_rule_5_sheets_refused_when_not_different_letters_a_to_f(client, sheets, code):
    response = client.post("/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheets": sheets}})
    assert response.status_code == 422
    assert response.get_json()["code"] == code


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


# --- who may write on which sheet (the shell) -------------------------------------------------
def create(client, players=("Ana", "Bruno", "Caio"), options=None):
    response = client.post(
        "/api/tables", json={"game": "twenty-one", "players": list(players), "options": options or {"sheets": ["A", "B", "C"]}}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client, table, token, action):
    return client.post(f"/api/tables/{table['id']}/actions", json=action, headers={"Authorization": f"Bearer {token}"})


def test_rule_5_writing_on_someone_elses_sheet_is_refused_403_and_the_host_may_write_for_anyone(client):
    table = create(client)
    ana, bruno, host = table["seats"][0]["token"], table["seats"][1]["token"], table["host_token"]
    assert post(client, table, ana, roll(ONES)).status_code == 200
    before = client.get(f"/api/tables/{table['id']}").get_json()
    response = post(client, table, ana, {**enter("green"), "seat": 1})
    assert response.status_code == 403 and response.get_json()["code"] == "not_your_seat"
    response = post(client, table, bruno, roll(ONES))
    assert response.status_code == 403
    assert client.get(f"/api/tables/{table['id']}").get_json() == before
    # the host writes for Caio, who has no phone
    state = post(client, table, host, {**CROSS, "seat": 2}).get_json()
    assert state["state"]["waiting_for"] == [0, 1]
    assert state["state"]["sheets"][2]["rows"][0]["fields"][0]["crossed"] is True


def test_rule_5_the_host_without_a_seat_acts_for_the_roller_first(client):
    table = create(client)
    host = table["host_token"]
    state = post(client, table, host, roll(ONES)).get_json()
    assert state["current_seat"] == 0 and state["state"]["roll"] == ONES
    state = post(client, table, host, reroll(ONES)).get_json()  # Ana's re-roll
    assert state["state"]["rerolled"] is True
    state = post(client, table, host, CROSS).get_json()  # Ana's cross
    assert state["state"]["waiting_for"] == [1, 2]
    state = post(client, table, host, CROSS).get_json()  # then the first seat still writing
    assert state["state"]["waiting_for"] == [2]


def test_rule_5_api_state_shape(client):
    table = create(client)
    state = post(client, table, table["seats"][0]["token"], roll(dice(3, 1, 6, 2, 5, 4))).get_json()
    assert state["game"] == "twenty-one" and state["current_seat"] == 0 and state["status"] == "playing"
    body = state["state"]
    assert body["roll"] == dice(3, 1, 6, 2, 5, 4) and body["rerolled"] is False and body["waiting_for"] == [0, 1, 2]
    sheet = body["sheets"][1]
    assert {"seat", "letter", "row", "total", "rows"} <= set(sheet) and sheet["seat"] == 1 and sheet["letter"] == "B"
    assert {"score", "hits", "fields"} <= set(sheet["rows"][0])
    assert set(sheet["rows"][0]["fields"][0]) >= {"color", "value", "entry", "crossed", "hit"}
    assert state["players"] == [{"seat": seat, "name": name, "score": 0} for seat, name in enumerate(["Ana", "Bruno", "Caio"])]


# --- the phones' forms ------------------------------------------------------------------------
def phone(app, join_url):
    client = app.test_client()
    assert client.get("/j/" + join_url.rsplit("/j/", 1)[1]).status_code == 303
    return client


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def tap(client, table, fields):
    page = client.get(f"/t/{table['id']}").text
    return client.post(f"/t/{table['id']}/act", data={"csrf_token": csrf(page), **fields}, headers={"HX-Request": "true"})


def test_rule_5_phones_roll_by_tapping_a_face_per_die_and_write_by_ticking_dice(app, client):
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])
    page = ana.get(f"/t/{table['id']}").text
    assert "Enter the roll" in page and 'name="action.dice.white"' in page
    faces = {f"action.dice.{color}": str(value) for color, value in dice(3, 1, 6, 2, 5, 4).items()}
    response = tap(ana, table, {"action": '{"type": "roll"}', **faces})
    assert response.status_code == 200
    assert "Waiting for: Ana, Bruno, Caio" in response.text
    # Bruno's sheet B, row 1: red 6, blue 5, white 4, yellow 3, green 2, black 1
    page = bruno.get(f"/t/{table['id']}").text
    assert 'value="red"' in page and "→ field 6" in page  # the red 6 fits the field 6: a hit
    assert 'id="tw-pick-yellow"' not in page  # the yellow 5 is higher than its 3
    response = tap(bruno, table, {"action": '{"type": "cross", "row": 0}', "action.colors[]": ["red"]})
    assert response.status_code == 422 and "not both" in response.text
    response = tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["red", "white"]})
    assert response.status_code == 200 and "Waiting for: Ana, Caio" in response.text
    assert "Your row" not in response.text  # Bruno has written: no more controls this round
    sheet = client.get(f"/api/tables/{table['id']}").get_json()["state"]["sheets"][1]
    assert [(f["color"], f["entry"], f["hit"]) for f in sheet["rows"][0]["fields"][:3]] == [
        ("red", 6, True), ("blue", None, False), ("white", 3, False),
    ]
    response = tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["blue"]})
    assert response.status_code == 422 and "already written" in response.text


def test_rule_5_phones_a_reroll_keeps_the_1s_fixed(app, client):
    table = create(client)
    ana = phone(app, table["seats"][0]["join_url"])
    faces = {f"action.dice.{color}": str(value) for color, value in dice(6, 4, 3, 3, 1, 1).items()}
    page = tap(ana, table, {"action": '{"type": "roll"}', **faces}).text
    assert "Re-roll (once; the 1s stay)" in page
    assert page.count("1 stays") == 2
    assert '<input type="hidden" name="action.dice.yellow" value="1">' in page
    response = tap(ana, table, {"action": '{"type": "reroll"}', "action.dice.yellow": "1", "action.dice.green": "1", **{f"action.dice.{c}": "2" for c in COLORS[:4]}})
    assert response.status_code == 200 and "re-rolled" in response.text and "Re-roll (once" not in response.text


def test_rule_5_phones_crossing_names_the_leftmost_field_and_the_reroll_goes_once_someone_wrote(app, client):
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])
    faces = {f"action.dice.{color}": str(value) for color, value in dice(6, 6, 6, 6, 6, 6).items()}
    assert "Re-roll (once" in tap(ana, table, {"action": '{"type": "roll"}', **faces}).text
    # Bruno's sheet B, row 1 starts with the red 6: nothing fits but a 6 there
    assert "Cross out the red 6 instead" in bruno.get(f"/t/{table['id']}").text
    assert tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["red"]}).status_code == 200
    page = ana.get(f"/t/{table['id']}").text
    assert "Your row 1" in page and "Re-roll (once" not in page  # Bruno has written this roll down


def test_rule_5_row_points_are_entries_plus_the_hit_bonus():
    row = {"hits": 3, "fields": [{"entry": 5}, {"entry": None}, {"entry": 4}, {"entry": 2}, {"entry": 2}, {"entry": 1}]}
    assert row_points(row) == 20


def test_rule_5_the_ranking_page_shows_each_players_row_scores_and_total_and_shared_places(client):
    table = create(client, players=("Ana", "Bruno"), options={"sheets": ["A", "B"], "sheet_layouts": [PLAIN, PLAIN]})
    host = table["host_token"]
    for round_ in range(5):
        post(client, table, host, {**roll(EXACT), "seat": round_ % 2})
        for seat in (0, 1):
            assert post(client, table, host, {**enter(*COLORS), "seat": seat}).status_code == 200
    state = client.get(f"/api/tables/{table['id']}").get_json()
    assert state["status"] == "finished" and state["current_seat"] is None
    assert [(entry["name"], entry["score"], entry["place"]) for entry in state["ranking"]] == [("Ana", 210, 1), ("Bruno", 210, 1)]
    assert state["ranking"][0]["rows"] == [42] * 5
    page = client.get(f"/t/{table['id']}").text
    assert page.count("42 + 42 + 42 + 42 + 42") == 2
    assert "Ana and Bruno tied on 210 points: the rules have no tie-break, they share the place." in page

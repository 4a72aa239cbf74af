"""docs/rules.md (Score pad): a test per rule, on the engine alone (no Flask)."""

from __future__ import annotations

import copy

import jsonschema
import pytest

from companion.games.errors import RuleError
from companion.games.scorepad import MOST_ROUNDS, ScorePad
from companion.games.text import Text
from .refusals import refusals_of

GAME = ScorePad()
NAMES = ["Ana", "Bruno", "Caio"]
WONDERS = ["Military", "Coins", "Science"]

refused = refusals_of(GAME)


def sheet(raw):
    """A score pad's options as checked: the title is required, so "Azul" unless `raw` names one."""
    return GAME.effective_options({"title": "Azul", **raw})


def new_game(players=NAMES, **options):
    return GAME.setup(list(players), sheet(options))


def score(points, **more):
    return {"type": "score", "points": points, **more}


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def rounds(state, *points):
    """Whole rounds: each one's points entered seat by seat, the last seat closing it."""
    for entries in points:
        state = play(state, *enumerate(score(entry) for entry in entries))
    return state


def options_refused(raw, code, status=422):
    with pytest.raises(RuleError) as caught:
        sheet(raw)
    assert (caught.value.code, caught.value.status) == (code, status), str(caught.value)
    return str(caught.value)


def words(text):
    return None if text is None else str(text)


def ranking(state):
    return [(entry["name"], entry["score"], entry["place"], words(entry["tiebreak"])) for entry in GAME.ranking(state)]


# --- the sheet the host sets up ------------------------------------------------------------------
def test_score_pad_seats_2_to_12_players():
    assert (GAME.min_players, GAME.max_players) == (2, 12)


def test_the_title_is_kept_as_typed_trimmed_in_one_unicode_form_in_any_script():
    assert sheet({"title": "  Azul "})["title"] == "Azul"
    assert sheet({"title": "Cafe\u0301"})["title"] == "Caf\u00e9"  # NFC
    for title in ("アズール", "أزول", "🀄 Mahjong", "7 Wonders: Duel", "x" * 60):
        assert GAME.table_title(sheet({"title": title})) == title


def test_the_title_is_1_to_60_characters_of_visible_unicode():
    assert options_refused({"title": "x" * 61}, "text_too_long") == "A game's name has at most 60 characters."
    assert options_refused({"title": "  "}, "text_empty") == "Name the game: 1 to 60 characters."
    options_refused({"title": "\u200b\u3164"}, "text_empty")  # a zero-width space and a filler show nothing
    options_refused({"title": "Azul\nWingspan"}, "text_invalid")
    options_refused({"title": "Azul\u202e"}, "text_invalid")  # a direction override
    options_refused({"title": "Azul\ufffd"}, "text_invalid")
    options_refused({"title": 7}, "malformed_option", 400)


def test_the_start_form_sends_the_title_which_may_not_be_blank():
    assert sheet({"title": {"text": "007"}})["title"] == "007"  # as typed: not the number 7
    options_refused({"title": {"text": ""}}, "text_empty")


def test_a_table_without_a_title_is_refused():
    for raw in ({}, {"title": None}):
        with pytest.raises(RuleError) as caught:
            GAME.effective_options(raw)
        assert (caught.value.code, caught.value.status) == ("missing_option", 422)
        assert str(caught.value) == "Score pad needs the option title."


def test_categories_are_1_to_20_distinct_names_of_1_to_40_characters():
    assert sheet({"categories": [" Military", "Coins "]})["categories"] == ["Military", "Coins"]
    assert sheet({"categories": None})["categories"] is None
    options_refused({"categories": []}, "category_count")
    options_refused({"categories": [f"c{n}" for n in range(21)]}, "category_count")
    assert options_refused({"categories": ["Coins", "coins"]}, "duplicate_category") == (
        "Two categories are called coins: give them different names."
    )
    options_refused({"categories": ["x" * 41]}, "text_too_long")
    options_refused({"categories": ["Coins", " "]}, "text_empty")
    options_refused({"categories": "Coins"}, "malformed_option", 400)
    options_refused({"categories": [3]}, "malformed_option", 400)


def test_the_start_form_sends_the_categories_one_per_line():
    form = {"categories": {"lines": "Military\r\n\r\nCoins.bank\n7\n"}}
    assert sheet(form)["categories"] == ["Military", "Coins.bank", "7"]
    assert sheet({"categories": {"lines": "\n  \n"}})["categories"] is None


def test_rounds_are_1_to_100_and_the_target_a_whole_number():
    assert sheet({"rounds": 100, "target": -50})["rounds"] == 100
    assert sheet({"rounds": {"count": ""}, "target": {"points": ""}})["rounds"] is None
    options_refused({"rounds": 0}, "invalid_rounds")
    options_refused({"rounds": 101}, "invalid_rounds")
    options_refused({"rounds": {"count": "ten"}}, "invalid_rounds")
    options_refused({"rounds": True}, "malformed_option", 400)
    options_refused({"target": 1.5}, "malformed_option", 400)
    options_refused({"target": {"points": "a hundred"}}, "invalid_target")


def test_ties_are_shared_by_default_or_the_last_round_or_a_category_of_the_sheet():
    assert sheet({})["tie_break"] == "shared"
    assert sheet({"tie_break": "last_round"})["tie_break"] == "last_round"
    # the category as the sheet spells it
    assert sheet({"categories": WONDERS, "tie_break": "coins"})["tie_break"] == "Coins"
    assert sheet({"categories": WONDERS, "tie_break": {"rule": "category", "category": "Coins"}})["tie_break"] == "Coins"
    assert sheet({"tie_break": {"rule": "last_round", "category": ""}})["tie_break"] == "last_round"
    options_refused({"tie_break": "Coins"}, "unknown_tie_break")
    options_refused({"categories": WONDERS, "tie_break": "Wonder"}, "unknown_tie_break")
    options_refused({"categories": WONDERS, "tie_break": {"rule": "category", "category": ""}}, "text_empty")
    options_refused({"tie_break": {"rule": "coin toss"}}, "malformed_option", 400)


# --- a round -----------------------------------------------------------------------------------
def test_every_seat_enters_its_points_once_per_round_in_any_order():
    state = play(new_game(), (2, score(9)), (0, score(12)))
    assert GAME.actors(state) == [1] and GAME.must_act(state, 1) and not GAME.must_act(state, 0)
    assert refused(state, 2, score(3), "already_entered") == (
        "Caio has entered their points for round 1 already: to change them, undo that entry."
    )
    assert GAME.current_seat(state) is None  # no turns


def test_an_entry_is_hidden_from_the_other_seats_until_the_round_closes():
    state = play(new_game(), (0, score(12)))
    mine, bruno, nobody = (GAME.public_state(state, viewer) for viewer in (0, 1, None))
    assert mine["entry"] == 12 and bruno["entry"] is None and nobody["entry"] is None
    assert mine["entered"] == bruno["entered"] == [0] and bruno["waiting_for"] == [1, 2]
    assert "12" not in str(bruno) and "12" not in str(nobody)
    assert GAME.scores(state) == [0, 0, 0]  # nothing moves before the round closes


def test_the_round_closes_when_every_seat_has_entered_and_the_totals_move():
    state = play(new_game(), (0, score(12)), (2, score(-3)), (1, score(7)))
    assert GAME.scores(state) == [12, 7, -3]
    public = GAME.public_state(state, 1)
    assert public["rounds"] == [{"round": 1, "points": [12, 7, -3]}]
    assert (public["round"], public["entered"], public["waiting_for"]) == (2, [], [0, 1, 2])


def test_points_are_whole_numbers_from_minus_to_plus_a_million():
    state = new_game()
    assert GAME.scores(rounds(state, [1_000_000, -1_000_000, 0])) == [1_000_000, -1_000_000, 0]
    refused(state, 0, score(1_000_001), "points_out_of_range")
    refused(state, 0, score(-1_000_001), "points_out_of_range")
    for wrong in (1.5, "12", True, None, [12], {}):
        refused(state, 0, score(wrong), "malformed_action", 400)
    refused(state, 0, {"type": "score"}, "malformed_action", 400)
    refused(state, 0, score(3, bonus=2), "malformed_action", 400)  # no field the schema does not name


def test_with_categories_an_entry_has_a_whole_number_for_each_and_no_other():
    state = new_game(categories=WONDERS, rounds=1)
    entered = play(state, (0, score({"Science": 8, "Military": 5, "Coins": 3})))
    assert GAME.public_state(entered, 0)["entry"] == {"Military": 5, "Coins": 3, "Science": 8}  # in the sheet's order
    assert refused(state, 0, score({"Military": 5, "Coins": 3}), "missing_category") == (
        "Enter a number for every category: Science has none."
    )
    refused(state, 0, score({"Military": 5, "Coins": 3, "Science": 8, "Guilds": 1}), "unknown_category")
    refused(state, 0, score(16), "points_by_category")
    refused(state, 0, score({"Military": 5, "Coins": 3, "Science": 2_000_000}), "points_out_of_range")
    refused(new_game(), 0, score({"Military": 5}), "no_categories")


def test_a_players_total_adds_every_category_over_the_closed_rounds():
    state = new_game(categories=WONDERS)
    state = rounds(state, *[[{"Military": 1 + seat, "Coins": 2, "Science": turn} for seat in range(3)] for turn in (3, 4)])
    assert GAME.scores(state) == [13, 15, 17]
    assert GAME.public_state(state, None)["category_totals"][2] == {"Military": 6, "Coins": 4, "Science": 7}


def test_an_entry_made_for_another_round_is_refused():
    state = rounds(new_game(), [1, 2, 3])
    assert refused(state, 0, score(5, round=1), "not_current_round") == (
        "These points are for round 1, and round 2 is the one in progress."
    )
    assert GAME.public_state(play(state, (0, score(5, round=2))), 0)["entry"] == 5


# --- the end ---------------------------------------------------------------------------------------
def test_the_game_ends_when_the_last_round_to_play_closes():
    state = rounds(new_game(rounds=2), [1, 2, 3])
    assert not GAME.is_finished(state)
    state = rounds(state, [1, 2, 3])
    assert GAME.is_finished(state) and GAME.public_state(state, None)["end_reason"] == "rounds"
    assert GAME.public_state(state, None)["round"] == 2  # the last one played
    refused(state, 0, score(1), "game_over")


def test_the_game_ends_when_the_round_in_which_a_total_reaches_the_target_closes():
    state = play(new_game(target=100), (0, score(150)))
    assert not GAME.is_finished(state)  # the round ends first: the others still enter theirs
    state = play(state, (1, score(2)), (2, score(100)))
    assert GAME.is_finished(state) and GAME.public_state(state, None)["end_reason"] == "target"


def test_a_target_ends_the_game_when_reached_with_the_lowest_total_winning_too():
    """Hearts: at 100 points the game ends, and the lowest total wins."""
    state = rounds(new_game(target=100, lowest_wins=True), [26, 0, 0], [26, 0, 0], [26, 0, 0])
    assert not GAME.is_finished(state)
    state = rounds(state, [26, 13, 13])
    assert GAME.is_finished(state)
    assert ranking(state) == [
        ("Bruno", 13, 1, "Bruno and Caio tied on 13 points: they share the place."),
        ("Caio", 13, 1, "Bruno and Caio tied on 13 points: they share the place."),
        ("Ana", 104, 3, None),
    ]


def test_the_host_ends_the_game_only_between_rounds_after_a_closed_round():
    state = new_game()
    assert refused(state, 0, {"type": "end"}, "no_round_played") == "No round is over yet: the game ends after a round."
    state = rounds(state, [5, 6, 7])
    half = play(state, (1, score(3)))
    assert refused(half, 0, {"type": "end"}, "round_half_entered").startswith("Round 2 is half entered (Bruno)")
    ended = play(state, (0, {"type": "end"}))
    assert GAME.is_finished(ended) and GAME.public_state(ended, None)["round"] == 1
    assert [entry["name"] for entry in GAME.ranking(ended)] == ["Caio", "Bruno", "Ana"]
    assert GAME.host_only_actions == ("end",)  # the service refuses it to a player's phone


def test_every_sheet_ends_when_round_100_closes():
    state = rounds(new_game(players=["Ana", "Bruno"]), *[[1, 2]] * (MOST_ROUNDS - 1))
    assert not GAME.is_finished(state)
    state = rounds(state, [1, 2])
    assert GAME.is_finished(state) and GAME.public_state(state, None)["end_reason"] == "most_rounds"


# --- the ranking --------------------------------------------------------------------------------
def test_the_highest_total_wins_or_the_lowest():
    played = [[10, 30, 20]]
    assert [entry["name"] for entry in GAME.ranking(rounds(new_game(rounds=1), *played))] == ["Bruno", "Caio", "Ana"]
    assert [entry["name"] for entry in GAME.ranking(rounds(new_game(rounds=1, lowest_wins=True), *played))] == ["Ana", "Caio", "Bruno"]
    assert GAME.highest_wins({"lowest_wins": True}) is False


def test_ties_are_shared_by_default():
    state = rounds(new_game(rounds=1), [7, 7, 3])
    assert ranking(state)[:2] == [
        ("Ana", 7, 1, "Ana and Bruno tied on 7 points: they share the place."),
        ("Bruno", 7, 1, "Ana and Bruno tied on 7 points: they share the place."),
    ]


def test_ties_broken_by_the_better_last_round():
    state = rounds(new_game(rounds=2, tie_break="last_round"), [5, 8, 10], [9, 6, 4])
    assert ranking(state) == [
        ("Ana", 14, 1, "Ana, Bruno and Caio tied on 14 points; the last round decided (Ana 9, Bruno 6, Caio 4)."),
        ("Bruno", 14, 2, "Ana, Bruno and Caio tied on 14 points; the last round decided (Ana 9, Bruno 6, Caio 4)."),
        ("Caio", 14, 3, "Ana, Bruno and Caio tied on 14 points; the last round decided (Ana 9, Bruno 6, Caio 4)."),
    ]


def test_ties_broken_by_the_last_round_are_shared_by_those_who_scored_the_same_in_it():
    state = rounds(new_game(rounds=2, tie_break="last_round"), [5, 5, 6], [9, 9, 8])
    assert ranking(state)[0][2:] == (1, "Ana, Bruno and Caio tied on 14 points; the last round decided (Ana 9, Bruno 9, Caio 8),"
                                     " and those who scored the same in it share the place.")
    assert [place for _, _, place, _ in ranking(state)] == [1, 1, 3]
    same = rounds(new_game(players=["Ana", "Bruno"], rounds=2, tie_break="last_round"), [5, 5], [9, 9])
    assert ranking(same)[0][3] == "Ana and Bruno tied on 14 points and scored the same in the last round (9): they share the place."


def test_with_the_lowest_total_winning_the_lower_last_round_breaks_a_tie():
    state = rounds(new_game(players=["Ana", "Bruno"], rounds=2, tie_break="last_round", lowest_wins=True), [5, 8], [9, 6])
    assert [(name, place) for name, _, place, _ in ranking(state)] == [("Bruno", 1), ("Ana", 2)]


def test_ties_broken_by_the_most_in_a_category_then_shared():
    sheet = lambda coins, science: {"Military": 5, "Coins": coins, "Science": science}  # noqa: E731
    state = rounds(new_game(categories=WONDERS, rounds=1, tie_break="Coins"), [sheet(6, 4), sheet(3, 7), sheet(3, 7)])
    assert ranking(state) == [
        ("Ana", 15, 1, "Ana, Bruno and Caio tied on 15 points; the most in Coins decided (Ana 6, Bruno 3, Caio 3),"
                       " and those with the same in it share the place."),
        ("Bruno", 15, 2, "Ana, Bruno and Caio tied on 15 points; the most in Coins decided (Ana 6, Bruno 3, Caio 3),"
                         " and those with the same in it share the place."),
        ("Caio", 15, 2, "Ana, Bruno and Caio tied on 15 points; the most in Coins decided (Ana 6, Bruno 3, Caio 3),"
                        " and those with the same in it share the place."),
    ]
    assert words(GAME.ranking(state)[0]["detail"]) == "Military 5, Coins 6 and Science 4"


def test_with_the_lowest_total_winning_the_fewest_in_the_category_breaks_a_tie():
    sheet = lambda coins: {"Military": 10 - coins, "Coins": coins, "Science": 0}  # noqa: E731
    state = rounds(new_game(players=["Ana", "Bruno"], categories=WONDERS, rounds=1, tie_break="Coins", lowest_wins=True),
                   [sheet(6), sheet(2)])
    assert ranking(state)[0] == ("Bruno", 10, 1, "Bruno and Ana tied on 10 points; the fewest in Coins decided (Bruno 2, Ana 6).")


def test_a_score_per_round_is_made_up_of_its_rounds():
    state = rounds(new_game(rounds=3), [1, 2, 3], [10, 20, 30], [-4, 0, 5])
    assert words(GAME.ranking(state)[-1]["detail"]) == "rounds: 1 + 10 + -4"


# --- the log, the pages and the corrections -------------------------------------------------------
def test_the_log_keeps_every_entry_with_its_round():
    state = rounds(new_game(), [1, 2, 3])
    assert GAME.as_logged(state, 0, score(5)) == score(5, round=2)
    assert GAME.as_logged(state, 0, {"type": "end"}) == {"type": "end"}


def test_the_log_hides_an_entry_from_the_other_seats_until_its_round_closes():
    logged = score(12, round=1)
    state = play(new_game(), (0, logged))
    assert GAME.redact_action(state, 0, logged, 0) == logged
    assert GAME.redact_action(state, 0, logged, 1) == score(None, round=1)
    assert GAME.redact_action(state, 0, logged, None) == score(None, round=1)  # the table screen, the host's own phone
    assert words(GAME.describe_action(state, 0, score(None, round=1))) == "entered their points for round 1."
    assert words(GAME.describe_action(state, 0, logged)) == "entered 12 points for round 1."
    closed = play(state, (1, score(1)), (2, score(2)))
    assert GAME.redact_action(closed, 0, logged, 1) == logged
    # an entry for a later round than the one in progress (the host went back over it) stays hidden
    assert GAME.redact_action(state, 0, score(3, round=2), 1) == score(None, round=2)


def test_the_line_of_the_entry_that_ends_the_game_says_why_without_its_points():
    def last_line(state):
        before = play(state, (0, score(4)), (1, score(5)))
        return words(GAME.describe_outcome(before, GAME.apply(before, 2, score(6)), 2, score(6)))

    assert last_line(rounds(new_game(rounds=2), [1, 2, 3])) == "entered their points for round 2 — the game is over: every round is played."
    assert last_line(new_game(rounds=1)) == "entered their points — the game is over: everyone has entered."
    assert last_line(new_game(target=6)) == "entered their points for round 1 — the game is over: a total reached the target, 6."
    assert GAME.describe_outcome(new_game(), play(new_game(), (0, score(4))), 0, score(4)) is None  # the reader's own words
    ended = GAME.apply(rounds(new_game(), [1, 2, 3]), 0, {"type": "end"})
    assert words(GAME.describe_outcome(rounds(new_game(), [1, 2, 3]), ended, 0, {"type": "end"})) == "ended the game after round 1."


def test_another_seats_entry_never_makes_a_page_out_of_date():
    state = new_game()
    assert not GAME.tap_depends_on(state, 1, score(3), 0, score(5))
    assert GAME.tap_depends_on(state, 1, score(3), 1, score(5))  # entered for that seat from another phone
    assert GAME.tap_depends_on(state, 1, score(3), 0, {"type": "end"})
    assert GAME.tap_depends_on(state, 0, {"type": "end"}, 1, score(3))


def test_an_entry_changes_no_other_players_score_when_redone():
    before = play(new_game(), (0, score(12)), (1, score(7)))
    after = GAME.apply(before, 2, score(3))
    assert GAME.scores(after) != GAME.scores(before) and GAME.others_touched(before, after, 2) == ()


def test_the_chart_takes_a_point_per_closed_round():
    state = play(new_game(), (0, score(12)))
    assert not GAME.charted(state, 0, score(12))
    state = play(state, (1, score(1)), (2, score(2)))
    assert GAME.charted(state, 2, score(2))
    assert isinstance(GAME.chart_axis, Text) and GAME.chart_axis.msgid == "the game, round by round"


def test_the_sheet_is_saved_under_its_title():
    assert GAME.preset_name(sheet({"title": "Azul"})) == "Azul"


# --- its scenes and its part of the API ------------------------------------------------------------
def played(scene):
    state = GAME.setup(list(scene.players), GAME.effective_options(scene.options))
    for seat, action in scene.actions:
        state = GAME.apply(state, seat, GAME.as_logged(state, seat, action))
    return state


def test_the_scenes_reach_every_state_of_a_score_pad():
    scenes = {name: played(scene) for name, scene in GAME.scenes().items()}
    assert scenes["start"]["entries"] == [None] * 3 and not scenes["start"]["rounds"]
    assert scenes["round-half-entered"]["entries"][0] is not None and not scenes["round-half-entered"]["rounds"]
    assert len(scenes["rounds-closed"]["rounds"]) == 2 and any(scenes["rounds-closed"]["entries"])
    assert scenes["categories"]["categories"] and any(scenes["categories"]["entries"])
    assert not GAME.is_finished(scenes["rounds-closed"])  # the last scene before the end is in play
    tiebreaks = {name: words(GAME.ranking(scenes[name])[0]["tiebreak"]) for name in ("finished", "tie-by-last-round", "tie-by-category")}
    assert "they share the place" in tiebreaks["finished"]
    assert "the last round decided" in tiebreaks["tie-by-last-round"]
    assert "the most in 🪙 decided" in tiebreaks["tie-by-category"]


@pytest.mark.parametrize("players", range(2, 13))
def test_the_screen_scenes_are_late_in_play_and_finished_with_a_tie_at_every_player_count(players):
    names = tuple(f"Player {n}" for n in range(players))
    scenes = GAME.screen_scenes(names)
    late, finished = played(scenes["late"]), played(scenes["finished"])
    assert late["players"] == list(names) and len(late["rounds"]) == 11 and any(late["entries"]) and not GAME.is_finished(late)
    assert GAME.is_finished(finished) and GAME.ranking(finished)[0]["tiebreak"] is not None


def test_the_api_schemas_describe_the_options_actions_and_states_of_the_scenes():
    schemas = GAME.api_schemas()
    for scene in GAME.scenes().values():
        jsonschema.validate(scene.options, schemas.options_request)
        jsonschema.validate(GAME.effective_options(scene.options), schemas.options)
        state = copy.deepcopy(played(scene))
        for viewer in (None, *range(len(scene.players))):
            jsonschema.validate(GAME.public_state(state, viewer), schemas.state)
        for _seat, action in scene.actions:
            jsonschema.validate(action, schemas.actions["ScorePadScore"])

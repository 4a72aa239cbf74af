"""docs/rules.md (Lobo), Lobo: secret colours, revealing, leaving bonuses, the end, the meadow count,
score and ranking. Engine tests (pure), plus the few rules that live in the shell
(player count, dealing, the host) through the JSON API."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.lobo import COLORS, LEAVING_BONUSES, MAX_SHEEP
from .refusals import refusals_of

GAME = GAMES["lobo"]
DEALT = ["blue", "red", "yellow"]


def dealt_game(players=("Ana", "Bruno", "Caio"), colors=DEALT):
    options = GAME.effective_options({})
    return GAME.setup(list(players), options, list(colors[: len(players)]))


def drawn_game(players=("Ana", "Bruno", "Caio")):
    options = GAME.effective_options({"deal_colors": False})
    return GAME.setup(list(players), options, GAME.deal(list(players), options, random.Random(1)))


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


refused = refusals_of(GAME)

def meadow(sheep, fenced=True, wolf=False):
    return {"sheep": sheep, "fenced": fenced, "wolf": wolf}


def meadows(*entries):
    return {"type": "meadows", "meadows": list(entries)}


CHOOSE = lambda color: {"type": "choose_color", "color": color}  # noqa: E731
REVEAL = {"type": "reveal"}
ABANDON = {"type": "abandon"}
END = {"type": "end"}


def seen_by(state, viewer):
    return [seat["color"] for seat in GAME.public_state(state, viewer)["seats"]]


def finish(state, *entries_per_seat):
    """End the game (if not ended) and enter each seat's meadows."""
    if not state["ended"]:
        state = play(state, (0, END))
    for seat, entries in enumerate(entries_per_seat):
        state = play(state, (seat, meadows(*entries)))
    return state


def test_rule_4_the_four_flock_colours():
    assert COLORS == ("red", "blue", "yellow", "black")


def test_rule_4_dealt_colours_are_distinct_and_drawn_from_the_four():
    options = GAME.effective_options({})
    for seed in range(50):
        deal = GAME.deal(["A", "B", "C", "D"], options, random.Random(seed))
        assert sorted(deal) == sorted(COLORS)
        deal = GAME.deal(["A", "B"], options, random.Random(seed))
        assert len(set(deal)) == 2 and set(deal) <= set(COLORS)


def test_rule_4_secret_colour_each_player_sees_only_their_own():
    state = dealt_game()
    assert seen_by(state, 0) == ["blue", None, None]
    assert seen_by(state, 1) == [None, "red", None]
    assert seen_by(state, 2) == [None, None, "yellow"]
    assert seen_by(state, None) == [None, None, None]  # the host and watchers


def test_rule_4_recorded_colours_each_player_records_the_colour_drawn():
    state = drawn_game()
    assert seen_by(state, 0) == [None, None, None]
    state = play(state, (0, CHOOSE("black")), (1, CHOOSE("red")))
    assert seen_by(state, 0) == ["black", None, None]
    assert seen_by(state, 1) == [None, "red", None]
    assert [seat["color_recorded"] for seat in GAME.public_state(state, 2)["seats"]] == [True, True, False]


def test_rule_4_colours_are_distinct_a_colour_someone_revealed_is_refused():
    state = play(drawn_game(), (0, CHOOSE("black")), (0, REVEAL))
    assert refused(state, 1, CHOOSE("black"), "color_taken") == (
        "Ana revealed black: each colour is in one hand only. Check the shepherd tile you drew and record it again."
    )


def test_rule_4_no_answer_depends_on_another_players_hidden_colour():
    """Recording a colour another player holds in secret is answered exactly as recording a
    free one: a refusal would tell the prober that colour."""
    held = play(drawn_game(), (0, CHOOSE("black")))
    free = drawn_game()
    for color in COLORS:
        after_held, after_free = GAME.apply(held, 1, CHOOSE(color)), GAME.apply(free, 1, CHOOSE(color))
        assert GAME.public_state(after_held, 1)["seats"][1] == GAME.public_state(after_free, 1)["seats"][1]
        assert GAME.public_state(after_held, 1)["seats"][0]["color"] is None


def test_rule_4_colours_are_distinct_a_clash_is_found_when_one_is_revealed():
    state = play(drawn_game(), (0, CHOOSE("black")), (1, CHOOSE("black")))
    assert [seat["color_clashes"] for seat in GAME.public_state(state, 1)["seats"]] == [[], [], []]
    state = play(state, (0, REVEAL))
    # only Bruno's own phone learns his recorded tile clashes with Ana's revealed one
    assert GAME.public_state(state, 1)["seats"][1]["color_clashes"] == [0]
    for viewer in (0, 2, None):
        assert GAME.public_state(state, viewer)["seats"][1] == {**GAME.public_state(state, viewer)["seats"][1], "color": None}
    assert refused(state, 1, REVEAL, "color_taken").startswith("Ana revealed black")
    state = play(state, (1, CHOOSE("red")))
    assert GAME.public_state(state, 1)["seats"][1]["color_clashes"] == []


def test_rule_4_colours_are_distinct_the_final_count_reveals_the_colour_and_refuses_a_clash():
    """Each player counts the meadows of their colour in the open: the count reveals it,
    checked as a reveal is, so a slip left hidden is caught before the game can end."""
    state = play(drawn_game(), (0, CHOOSE("black")), (1, CHOOSE("black")), (2, CHOOSE("red")), (0, END))
    state = play(state, (0, meadows(meadow(5))))
    assert seen_by(state, 2) == ["black", None, "red"]
    assert refused(state, 1, meadows(), "color_taken") == (
        "Ana revealed black: each colour is in one hand only. Check the shepherd tile you drew and record it again."
    )
    state = play(state, (1, CHOOSE("blue")), (1, meadows()), (2, meadows()))
    assert GAME.is_finished(state)
    seats = GAME.public_state(state, None)["seats"]
    assert [(seat["color"], seat["color_clashes"]) for seat in seats] == [("black", []), ("blue", []), ("red", [])]


def test_rule_4_the_final_count_needs_a_recorded_colour():
    state = play(drawn_game(), (0, CHOOSE("black")), (0, END))
    assert refused(state, 1, meadows(), "no_color") == "Record the colour you drew first: you count the meadows of your colour."
    state = play(state, (1, CHOOSE("red")), (1, meadows()))
    assert seen_by(state, None) == [None, "red", None]


def test_rule_4_a_count_stored_before_that_check_replays_and_its_clash_shows_at_the_end():
    """Tables saved by an earlier companion may hold counts with a clash or no colour: they
    replay as they were, and the clash is told to everyone at the end."""
    stored = [(0, CHOOSE("black")), (1, CHOOSE("black")), (0, END), (0, meadows()), (1, meadows()), (2, meadows())]
    state = GAME.replay(drawn_game(), stored)
    assert GAME.is_finished(state)
    seats = GAME.public_state(state, None)["seats"]
    assert [(seat["color"], seat["color_clashes"]) for seat in seats] == [("black", [1]), ("black", [0]), (None, [])]


def test_rule_4_a_recorded_colour_can_be_corrected_until_it_is_revealed():
    state = play(drawn_game(), (0, CHOOSE("black")), (0, CHOOSE("blue")))
    assert seen_by(state, 0)[0] == "blue"
    state = play(state, (1, CHOOSE("black")))  # black is free again
    assert seen_by(play(state, (0, CHOOSE("blue"))), 0)[0] == "blue"  # the same again: taken, nothing told


def test_rule_4_the_host_recording_for_a_seat_learns_nothing_of_its_hidden_colour():
    """Found at a real table: recording for Ana the colour she holds was refused with "You
    already hold blue", so the host (or a redo of Ana's earlier entry) learnt her secret."""
    state = play(drawn_game(), (0, CHOOSE("blue")))
    for color in COLORS:
        after = GAME.apply(state, 0, CHOOSE(color))
        assert GAME.public_state(after, None)["seats"][0] == GAME.public_state(state, None)["seats"][0]
    state = play(state, (0, REVEAL))
    assert refused(state, 0, CHOOSE("yellow"), "already_revealed") == "Your colour is revealed: it cannot change any more."


def test_rule_4_the_hosts_reveal_for_a_seat_is_answered_alike_whatever_its_hidden_colour():
    """Found by a tester: the host's reveal for Bruno was refused, naming Caio's revealed
    colour, exactly when Bruno's hidden one was the same: a probe of his secret that nobody
    else saw. Entered by another phone during play, it is taken whatever the colour, shows
    it to everyone, and a clash to everyone too."""
    for hidden in COLORS:
        state = play(drawn_game(), (1, CHOOSE(hidden)), (2, CHOOSE("blue")), (2, REVEAL))
        revealed = GAME.apply(state, 1, REVEAL, entered_by_seat=False)
        assert seen_by(revealed, None)[1] == hidden  # shown to everyone, as a reveal is
        for viewer in (0, 1, 2, None):
            assert GAME.public_state(revealed, viewer)["seats"][1]["color_clashes"] == ([2] if hidden == "blue" else [])
    # the seat's own reveal is still refused: it tells Bruno nothing he does not know
    clashing = play(drawn_game(), (1, CHOOSE("blue")), (2, CHOOSE("blue")), (2, REVEAL))
    assert refused(clashing, 1, REVEAL, "color_taken").startswith("Caio revealed blue")


def test_rule_4_colours_are_distinct_the_game_never_ends_on_a_clash_whoever_enters_the_count():
    """From review: had the host's count for a hidden seat gone unchecked, the last count
    could end the game with two players of one colour, past mending. A count comes after
    the end, tile face up: it is checked whoever enters it."""
    state = play(drawn_game(), (0, CHOOSE("red")), (1, CHOOSE("blue")), (2, CHOOSE("blue")), (1, END))
    state = play(state, (1, meadows(meadow(5))), (0, meadows()))
    for entered_by_seat in (True, False):
        with pytest.raises(Exception) as refusal:
            GAME.apply(state, 2, meadows(meadow(9)), entered_by_seat=entered_by_seat)
        assert refusal.value.code == "color_taken"
    state = play(state, (2, CHOOSE("yellow")), (2, meadows(meadow(9))))
    assert GAME.is_finished(state)
    assert [(seat["color"], seat["color_clashes"]) for seat in GAME.public_state(state, None)["seats"]] == [
        ("red", []), ("blue", []), ("yellow", [])
    ]


def test_rule_4_colours_are_distinct_two_revealed_tiles_of_one_colour_are_recorded_again():
    """A clash among revealed colours (the host revealed a slip) is public: either seat may
    record its colour again, seen by everyone at once, and no count goes in until it is."""
    state = play(drawn_game(), (1, CHOOSE("blue")), (2, CHOOSE("blue")), (2, REVEAL))
    state = GAME.apply(state, 1, REVEAL, entered_by_seat=False)
    ended = play(state, (0, END))
    for entered_by_seat in (True, False):
        with pytest.raises(Exception) as refusal:
            GAME.apply(ended, 1, meadows(), entered_by_seat=entered_by_seat)
        assert refusal.value.code == "color_taken"
    state = play(state, (1, CHOOSE("red")))
    assert seen_by(state, 0)[1:] == ["red", "blue"]
    assert [seat["color_clashes"] for seat in GAME.public_state(state, None)["seats"]] == [[], [], []]
    assert refused(state, 1, CHOOSE("yellow"), "already_revealed") == "Your colour is revealed: it cannot change any more."


def test_rule_4_unknown_colours_and_choosing_when_dealt_are_refused():
    assert refused(drawn_game(), 0, CHOOSE("green"), "unknown_color") == (
        "There is no green flock: choose red, blue, yellow or black."
    )
    refused(drawn_game(), 0, CHOOSE(3), "malformed_action", status=400)
    assert refused(dealt_game(), 0, CHOOSE("black"), "colors_dealt") == (
        "The companion dealt the colours: yours is shown on your own phone."
    )


# --- reveal -----------------------------------------------------------------------------
def test_rule_4_reveal_makes_the_colour_public_at_any_moment():
    state = play(dealt_game(), (1, REVEAL))
    for viewer in (0, 1, 2, None):
        assert seen_by(state, viewer)[1] == "red"
    assert seen_by(state, 0) == ["blue", "red", None]
    # at any moment: after leaving, and after the end too
    state = play(state, (2, ABANDON), (0, END), (2, REVEAL))
    assert seen_by(state, None) == [None, "red", "yellow"]


def test_rule_4_reveal_twice_or_without_a_colour_is_refused():
    state = play(dealt_game(), (1, REVEAL))
    assert refused(state, 1, REVEAL, "already_revealed") == "Your colour is already revealed."
    assert refused(drawn_game(), 0, REVEAL, "no_color") == "Record the colour you drew before revealing it."


# --- abandon ----------------------------------------------------------------------------
def test_rule_4_leaving_bonuses_are_6_3_1_then_0():
    assert LEAVING_BONUSES == (6, 3, 1)
    state = dealt_game(("A", "B", "C", "D"), ["red", "blue", "yellow", "black"])
    state = play(state, (2, ABANDON), (0, ABANDON), (3, ABANDON))
    public = GAME.public_state(state, None)
    assert [(seat["left"], seat["bonus"]) for seat in public["seats"]] == [(2, 3), (None, 0), (1, 6), (3, 1)]
    assert GAME.scores(state) == [3, 0, 6, 1]
    state = play(state, (1, ABANDON))
    assert GAME.public_state(state, None)["seats"][1]["bonus"] == 0


def test_rule_4_leaving_at_any_moment_but_only_once():
    state = play(dealt_game(), (1, ABANDON))
    message = refused(state, 1, ABANDON, "already_left")
    assert message == "You already left the game (number 1 to leave, bonus 6)."


def test_rule_4_leaving_after_the_end_is_refused():
    state = play(dealt_game(), (0, END))
    assert refused(state, 1, ABANDON, "game_ended") == "The game has ended: there is nothing left to leave."


def test_rule_4_the_next_bonus_is_shown_before_leaving():
    state = dealt_game()
    assert GAME.public_state(state, 0)["next_bonus"] == 6
    state = play(state, (0, ABANDON))
    assert GAME.public_state(state, 0)["next_bonus"] == 3


# --- the end ----------------------------------------------------------------------------
def test_rule_4_end_when_all_tiles_are_placed_any_player_says_so():
    for seat in range(3):
        state = play(dealt_game(), (seat, END))
        public = GAME.public_state(state, None)
        assert public["ended"] and public["end_reason"] == "tiles_placed"
        assert public["waiting_for"] == [0, 1, 2]
        assert not GAME.is_finished(state)


def test_rule_4_end_when_every_player_has_left():
    state = play(dealt_game(), (0, ABANDON), (2, ABANDON))
    assert not GAME.public_state(state, None)["ended"]
    state = play(state, (1, ABANDON))
    public = GAME.public_state(state, None)
    assert public["ended"] and public["end_reason"] == "all_left"


def test_rule_4_end_twice_is_refused():
    state = play(dealt_game(), (0, END))
    assert refused(state, 1, END, "already_ended") == "The game has already ended: enter your meadows."


# --- the final count --------------------------------------------------------------------
def test_rule_4_meadows_before_the_end_are_refused():
    message = refused(dealt_game(), 0, meadows(meadow(5)), "not_ended")
    assert message == "Meadows are counted at the end: first say that all tiles are placed (or everyone leaves)."


def test_rule_4_only_the_largest_valid_meadow_counts_never_a_sum():
    state = finish(
        dealt_game(),
        [meadow(4), meadow(9), meadow(7)],
        [meadow(12, fenced=False), meadow(3)],
        [meadow(15, wolf=True), meadow(2, fenced=False)],
    )
    assert [seat["meadow"] for seat in GAME.public_state(state, None)["seats"]] == [9, 3, 0]
    assert GAME.scores(state) == [9, 3, 0]


def test_rule_4_a_meadow_is_valid_only_fenced_and_without_an_uncovered_wolf_and_the_page_says_why():
    state = finish(dealt_game(), [meadow(4), meadow(9), meadow(11, fenced=False), meadow(20, wolf=True), meadow(9)], [], [])
    judged = GAME.public_state(state, None)["seats"][0]["meadows"]
    assert [(m["valid"], m["counts"], m["reason"]) for m in judged] == [
        (True, False, "smaller"),
        (True, True, None),  # the first of two equal largest meadows is the one shown counting
        (False, False, "not_fenced"),
        (False, False, "wolf"),
        (True, False, "smaller"),
    ]


def test_rule_4_no_meadow_entered_scores_zero_sheep():
    state = finish(dealt_game(), [], [meadow(0)], [meadow(5, fenced=False, wolf=True)])
    assert [seat["meadow"] for seat in GAME.public_state(state, None)["seats"]] == [0, 0, 0]


@pytest.mark.parametrize(
    "entry, code, status, sentence",
    [
        (meadow(-1), "negative_sheep", 422, "Meadow 1: a meadow cannot have fewer than 0 sheep."),
        (meadow(MAX_SHEEP + 1), "too_many_sheep", 422, "Meadow 1: 101 sheep is more than a meadow can hold; enter at most 100."),
        (meadow("7"), "malformed_action", 400, "Meadow 1: the number of sheep must be a whole number from 0 to 100."),
        (meadow(True), "malformed_action", 400, "Meadow 1: the number of sheep must be a whole number from 0 to 100."),
        ({"sheep": 7, "fenced": "yes", "wolf": False}, "malformed_action", 400, "Meadow 1: say yes or no to fenced and to an uncovered wolf."),
        ({"sheep": 7}, "malformed_action", 400, "Meadow 1: say yes or no to fenced and to an uncovered wolf."),
        (7, "malformed_action", 400, 'Meadow 1 must be an object with "sheep", "fenced" and "wolf".'),
    ],
)
def test_rule_4_negative_absurd_or_garbled_sheep_counts_are_refused(entry, code, status, sentence):
    state = play(dealt_game(), (0, END))
    assert refused(state, 1, meadows(entry), code, status) == sentence


def test_rule_4_the_sheep_limit_is_100_inclusive():
    state = finish(dealt_game(), [meadow(MAX_SHEEP)], [meadow(0)], [])
    assert GAME.scores(state) == [100, 0, 0]


def test_rule_4_meadows_must_be_a_list_of_at_most_20():
    state = play(dealt_game(), (0, END))
    refused(state, 0, {"type": "meadows"}, "malformed_action", status=400)
    refused(state, 0, {"type": "meadows", "meadows": meadow(3)}, "malformed_action", status=400)
    assert refused(state, 0, meadows(*[meadow(1)] * 21), "too_many_meadows") == (
        "Enter at most 20 meadows: only the largest valid one counts."
    )


def test_rule_4_meadows_can_be_corrected_until_every_player_has_entered():
    state = play(dealt_game(), (0, END), (0, meadows(meadow(5))), (1, meadows(meadow(3))))
    state = play(state, (0, meadows(meadow(8), meadow(2))))
    assert GAME.public_state(state, None)["seats"][0]["meadow"] == 8
    assert GAME.public_state(state, None)["waiting_for"] == [2]
    state = play(state, (2, meadows()))
    assert GAME.is_finished(state) and GAME.actors(state) == []
    message = refused(state, 0, meadows(meadow(9)), "game_over")
    assert message == "The game is over: every player has entered their meadows."
    refused(state, 1, REVEAL, "game_over")


def test_rule_4_no_turn_order_every_seat_may_act_until_the_count_is_complete():
    state = dealt_game()
    assert GAME.current_seat(state) is None
    assert GAME.actors(state) == [0, 1, 2]
    state = play(state, (2, REVEAL), (0, ABANDON), (1, END))  # in any order, by any seat
    assert GAME.actors(state) == [0, 1, 2]


def test_rule_4_unknown_actions_are_refused():
    assert refused(dealt_game(), 0, {"type": "roll"}, "unknown_action") == "There is no action called roll in this game."


# --- score and ranking ------------------------------------------------------------------
def test_rule_4_score_is_the_largest_valid_meadow_plus_the_leaving_bonus():
    state = play(dealt_game(), (1, ABANDON), (2, ABANDON))
    state = finish(state, [meadow(10)], [meadow(7), meadow(30, wolf=True)], [meadow(2)])
    assert GAME.scores(state) == [10, 7 + 6, 2 + 3]
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Bruno", 13, 1),
        ("Ana", 10, 2),
        ("Caio", 5, 3),
    ]
    assert all(entry["tiebreak"] is None for entry in ranking)


def test_rule_4_ranking_only_when_every_meadow_is_entered():
    state = play(dealt_game(), (0, END), (0, meadows(meadow(3))))
    assert GAME.ranking(state) is None


def test_rule_4_tie_break_the_larger_meadow_wins_and_the_sentence_says_so():
    # Ana 9 sheep + 0, Bruno 3 sheep + 6 (first to leave): both 9 points
    state = play(dealt_game(), (1, ABANDON))
    state = finish(state, [meadow(9)], [meadow(3)], [meadow(1)])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Ana", 9, 1),
        ("Bruno", 9, 2),
        ("Caio", 1, 3),
    ]
    sentence = "Ana and Bruno tied on 9 points; the larger meadow decided (Ana 9, Bruno 3)."
    assert str(ranking[0]["tiebreak"]) == sentence and str(ranking[1]["tiebreak"]) == sentence
    assert ranking[2]["tiebreak"] is None


def test_rule_4_tie_break_still_tied_the_place_is_shared():
    state = finish(dealt_game(), [meadow(6)], [meadow(6), meadow(2)], [meadow(1)])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["place"]) for entry in ranking] == [("Ana", 1), ("Bruno", 1), ("Caio", 3)]
    assert str(ranking[0]["tiebreak"]) == (
        "Ana and Bruno tied on 6 points with meadows of the same size (6 sheep): they share the place."
    )


def test_rule_4_tie_break_partly_decided_three_tied():
    # Ana 8 sheep, Bruno 2 sheep + 6 (first to leave), Caio 5 sheep + 3 (second): all 8 points
    state = play(dealt_game(), (1, ABANDON), (2, ABANDON))
    state = finish(state, [meadow(8)], [meadow(2)], [meadow(5)])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Ana", 8, 1),
        ("Caio", 8, 2),
        ("Bruno", 8, 3),
    ]
    assert str(ranking[0]["tiebreak"]) == "Ana, Caio and Bruno tied on 8 points; the larger meadow decided (Ana 8, Caio 5, Bruno 2)."
    state = play(dealt_game(("A", "B", "C", "D"), list(COLORS)), (1, ABANDON))
    state = finish(state, [meadow(9)], [meadow(3)], [meadow(9)], [])
    ranking = GAME.ranking(state)
    assert [(entry["name"], entry["place"]) for entry in ranking] == [("A", 1), ("C", 1), ("B", 3), ("D", 4)]
    assert str(ranking[0]["tiebreak"]) == (
        "A, C and B tied on 9 points; the larger meadow decided (A 9, C 9, B 3), and those with equal meadows share the place."
    )


# --- the log ----------------------------------------------------------------------------
def test_rule_4_the_log_never_names_a_recorded_colour_to_others():
    state = play(drawn_game(), (0, CHOOSE("black")))
    action = CHOOSE("black")
    assert GAME.redact_action(state, 0, action, 0) == action
    for viewer in (1, 2, None):
        assert GAME.redact_action(state, 0, action, viewer) == {"type": "choose_color", "color": None}
    # the line says what the reader's copy of the action says: its holder reads the colour
    # (a slip told from the right one), the others do not
    assert "black" in str(GAME.describe_action(state, 0, GAME.redact_action(state, 0, action, 0)))
    for viewer in (1, 2, None):
        assert "black" not in str(GAME.describe_action(state, 0, GAME.redact_action(state, 0, action, viewer)))
    # a colour chosen then corrected stays hidden even once the final colour is revealed
    state = play(state, (0, CHOOSE("blue")), (0, REVEAL))
    assert GAME.redact_action(state, 0, action, 1)["color"] is None
    assert GAME.redact_action(state, 0, CHOOSE("blue"), 1)["color"] == "blue"


def test_rule_4_secret_colours_are_all_shown_after_the_final_count():
    state = play(drawn_game(), (0, CHOOSE("black")), (0, CHOOSE("blue")), (1, CHOOSE("red")), (2, CHOOSE("yellow")), (0, END))
    assert seen_by(state, None) == [None, None, None]  # the end alone shows none
    state = play(state, (0, meadows(meadow(7))), (1, meadows()))
    assert seen_by(state, None) == ["blue", "red", None]  # each count is made in the open
    state = play(state, (2, meadows()))
    for viewer in (0, 1, 2, None):
        assert seen_by(state, viewer) == ["blue", "red", "yellow"]
    # the log names every recorded colour, corrections included
    assert GAME.redact_action(state, 0, CHOOSE("black"), 1) == CHOOSE("black")
    assert str(GAME.describe_action(state, 0, CHOOSE("black"))) == "recorded the colour they drew: black."
    details = {entry["name"]: str(entry["detail"]) for entry in GAME.ranking(state)}
    assert details == {
        "Ana": "Counting meadow of 7 sheep + leaving bonus 0 (blue flock)",
        "Bruno": "No valid meadow + leaving bonus 0 (red flock)",
        "Caio": "No valid meadow + leaving bonus 0 (yellow flock)",
    }
    # a count saved by an earlier companion for a player who never recorded a colour
    stored = GAME.replay(drawn_game(), [(0, END), (0, meadows()), (1, meadows()), (2, meadows())])
    assert str(GAME.ranking(stored)[0]["detail"]) == "No valid meadow + leaving bonus 0"


def test_rule_4_the_log_describes_each_action_in_a_sentence():
    state = play(dealt_game(), (0, END))
    lines = [
        str(GAME.describe_action(state, 0, action))
        for action in (REVEAL, ABANDON, END, meadows(), meadows(meadow(4)), meadows(meadow(4), meadow(9, wolf=True)))
    ]
    assert lines == [
        "revealed their colour.",
        "left the game.",
        "said all tiles are placed: the game has ended.",
        "entered no meadow of their colour: 0 sheep count.",
        "entered 1 meadow; 4 sheep count.",
        "entered 2 meadows; the largest valid one counts: 4 sheep.",
    ]


def test_rule_4_setup_needs_the_dealt_colours_when_dealing():
    with pytest.raises(ValueError):
        GAME.setup(["Ana", "Bruno"], GAME.effective_options({}), None)
    with pytest.raises(ValueError):
        GAME.setup(["Ana", "Bruno"], GAME.effective_options({}), ["red", "red"])

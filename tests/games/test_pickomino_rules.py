"""docs/rules.md (Pickomino), Pickomino: tiles, claiming, failed turns, the end, scores and ranking."""

from __future__ import annotations


import pytest

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.pickomino import TILE_WORMS
from .refusals import refusals_of

GAME = GAMES["pickomino"]
W = "worm"
STOP = {"type": "stop"}
DECLINE_STEAL = {"type": "stop", "take": "grill"}
BUST = {"type": "bust"}


def arrange(players=("Ana", "Bruno", "Caio"), stacks=(), face_down=(), seat=0, **options):
    """A game in progress: `stacks` per seat (bottom to top) taken off the grill,
    `face_down` tiles turned over on the grill, `seat` to play."""
    state = GAME.setup(list(players), GAME.effective_options(options))
    for owner, stack in enumerate(stacks):
        state["stacks"][owner] = list(stack)
    held = {tile for stack in stacks for tile in stack}
    state["grill"] = [tile for tile in state["grill"] if tile["value"] not in held]
    for tile in state["grill"]:
        tile["face_up"] = tile["value"] not in face_down
    state["turn"]["seat"] = seat
    return state


def set_aside(face, count):
    return {"type": "set_aside", "face": face, "count": count}


def scoring(state, seat, *groups, end=STOP):
    """Seat enters the groups set aside by quick entry, then `end` (a stop unless the dice ran out)."""
    for face, count in groups:
        state = GAME.apply(state, seat, set_aside(face, count))
    if GAME.current_seat(state) == seat and state["turn"]["kept"]:
        state = GAME.apply(state, seat, end)
    return state


def failing(state, seat):
    """Seat sets a first group aside (a failure cannot come before one), then declares the
    turn failed."""
    return scoring(state, seat, (1, 1), end=BUST)


refused = refusals_of(GAME)

def face_up(state):
    return [tile["value"] for tile in state["grill"] if tile["face_up"]]


def face_down(state):
    return [tile["value"] for tile in state["grill"] if not tile["face_up"]]


# Quick-entry groups for the results the tests need (every one has a worm).
RESULT = {
    25: [(W, 5)],
    27: [(W, 3), (4, 3)],
    30: [(W, 6)],
    40: [(W, 4), (5, 4)],
}


@pytest.mark.parametrize("total", sorted(RESULT))
def test_result_groups_add_up(total):
    groups = RESULT[total]
    assert sum((5 if face == W else face) * count for face, count in groups) == total
    assert sum(count for _, count in groups) <= 8


# --- players and tiles ---------------------------------------------------------------
def test_rule_2_players_two_to_seven():
    assert (GAME.min_players, GAME.max_players) == (2, 7)


def test_rule_2_tiles_21_to_36_with_their_worms_all_face_up_at_the_start():
    state = GAME.setup(["Ana", "Bruno"], GAME.effective_options({}))
    assert state["grill"] == [{"value": v, "worms": TILE_WORMS[v], "face_up": True} for v in range(21, 37)]
    assert state["stacks"] == [[], []]
    assert GAME.current_seat(state) == 0


@pytest.mark.parametrize(
    "tiles, worms", [((21, 22, 23, 24), 1), ((25, 26, 27, 28), 2), ((29, 30, 31, 32), 3), ((33, 34, 35, 36), 4)]
)
def test_rule_2_worms_per_tile(tiles, worms):
    assert [TILE_WORMS[tile] for tile in tiles] == [worms] * 4


def test_rule_2_options_default_to_false_and_unknown_ones_are_refused():
    assert GAME.effective_options({}) == {"alternative_return": False, "flip_when_empty": False}
    with pytest.raises(RuleError) as caught:
        GAME.effective_options({"fast": True})
    assert (caught.value.code, caught.value.status) == ("unknown_option", 422)
    with pytest.raises(RuleError) as caught:
        GAME.effective_options({"flip_when_empty": "yes"})
    assert caught.value.status == 400


# --- claiming ------------------------------------------------------------------------
def test_rule_2_claim_1_takes_tile_on_the_grill():
    state = scoring(arrange(), 0, *RESULT[27])
    assert state["stacks"][0] == [27]
    assert 27 not in [tile["value"] for tile in state["grill"]]
    record = state["last_turn"]
    assert (record["outcome"], record["tile"], record["from_seat"]) == ("took", 27, None)


def test_rule_2_claim_1_no_choice_when_the_tile_is_on_the_grill():
    state = arrange(stacks=[[], [26]])
    state = scoring(state, 0, *RESULT[27], end=DECLINE_STEAL)
    assert state["stacks"] == [[27], [26], []]


def test_rule_2_claim_2_steals_top_tile_of_another_stack():
    state = scoring(arrange(stacks=[[], [22, 27], [30]]), 0, *RESULT[27])
    assert state["stacks"] == [[27], [22], [30]]
    assert 27 not in [tile["value"] for tile in state["grill"]]
    record = state["last_turn"]
    assert (record["outcome"], record["tile"], record["from_seat"]) == ("stole", 27, 1)


def test_rule_2_claim_2_only_the_exact_top_tile_can_be_stolen():
    state = scoring(arrange(stacks=[[], [27, 22]]), 0, *RESULT[27])
    assert state["stacks"] == [[26], [27, 22], []]
    assert state["last_turn"]["outcome"] == "took"


def test_rule_2_claim_3_own_top_tile_means_the_lower_grill_tile():
    state = scoring(arrange(stacks=[[27]]), 0, *RESULT[27])
    assert state["stacks"][0] == [27, 26]


def test_rule_2_claim_3_highest_face_up_tile_lower_than_the_result():
    # 30 is face down, 29 lies on Bruno's stack (not the result, so not stealable): 28.
    state = scoring(arrange(stacks=[[], [29]], face_down=[30]), 0, *RESULT[30])
    assert state["stacks"] == [[28], [29], []]


def test_rule_2_claim_3_results_above_36_take_the_highest_face_up_tile():
    state = scoring(arrange(face_down=[36]), 0, *RESULT[40])
    assert state["stacks"][0] == [35]
    assert state["last_turn"]["total"] == 40


def test_rule_2_claim_4_no_tile_within_reach_fails():
    state = arrange(stacks=[[25], [21, 22], [23, 24]])
    state = scoring(state, 0, *RESULT[25])
    record = state["last_turn"]
    assert (record["outcome"], record["reason"], record["returned"]) == ("failed", "no_tile", 25)


def test_rule_2_results_below_21_fail():
    state = scoring(arrange(), 0, (W, 2), (4, 2))
    assert state["last_turn"]["reason"] == "no_tile"
    assert state["stacks"] == [[], [], []]


def test_rule_2_choice_declines_a_steal_for_the_lower_grill_tile():
    state = scoring(arrange(stacks=[[], [27]]), 0, *RESULT[27], end=DECLINE_STEAL)
    assert state["stacks"] == [[26], [27], []]
    assert state["last_turn"]["declined_steal"] is True
    assert str(GAME.describe_last_turn(state)) == "Ana scored 27 and took 26 from the grill instead of stealing."


def test_rule_2_choice_declines_a_steal_on_the_entry_that_ends_the_turn_by_itself():
    state = arrange(stacks=[[], [27]])
    for face, count in [(W, 1), (4, 3), (3, 2)]:
        state = GAME.apply(state, 0, set_aside(face, count))
    state = GAME.apply(state, 0, {"type": "set_aside", "face": 2, "count": 2, "take": "grill"})  # the 8th die
    assert state["stacks"] == [[26], [27], []]


def test_rule_2_choice_is_only_there_when_a_lower_tile_exists():
    state = arrange(stacks=[[], [27], [21, 22, 23, 24, 25, 26]])
    for face, count in RESULT[27]:
        state = GAME.apply(state, 0, set_aside(face, count))
    message = refused(state, 0, DECLINE_STEAL, "no_lower_tile")
    assert message == "There is no lower tile on the grill: you can only steal 27."
    state = GAME.apply(state, 0, STOP)
    assert state["stacks"][:2] == [[27], []]


def test_rule_2_take_can_only_be_grill():
    state = GAME.apply(arrange(), 0, set_aside(W, 3))
    refused(state, 0, {"type": "stop", "take": "stack"}, "invalid_take")
    refused(state, 0, {"type": "stop", "take": 26}, "malformed_action", 400)


def test_rule_2_claim_options_are_shown_during_the_turn():
    state = arrange(stacks=[[], [27]])
    for face, count in RESULT[27]:
        state = GAME.apply(state, 0, set_aside(face, count))
    assert GAME.public_state(state, None)["claim"] == {"on_grill": False, "steal_from": 1, "lower": 26}


def test_rule_2_the_tap_that_ends_the_turn_offers_the_steal_or_the_lower_tile():
    state = GAME.apply(arrange(stacks=[[], [26]]), 0, set_aside(W, 3))
    state = GAME.apply(state, 0, set_aside(1, 3))  # 18, two dice left
    assert GAME.ending_choice(state, 0, 4, 2) == {"on_grill": False, "steal_from": 1, "lower": 25, "total": 26}
    assert GAME.ending_choice(state, 0, 4, 1) is None  # a die left: the turn goes on
    without_worm = GAME.apply(arrange(stacks=[[], [26]]), 0, set_aside(5, 5))
    assert GAME.ending_choice(without_worm, 0, 3, 3) is None  # the last dice, but no worm: a failure


def test_rule_2_new_tile_goes_on_top_of_the_stack():
    state = scoring(arrange(stacks=[[21, 30]]), 0, *RESULT[25])
    assert state["stacks"][0] == [21, 30, 25]


# --- failed turns --------------------------------------------------------------------
def test_rule_2_failed_turn_returns_top_tile_and_turns_the_highest():
    state = failing(arrange(stacks=[[21, 27]]), 0)
    assert state["stacks"][0] == [21]
    assert 27 in face_up(state)
    assert face_down(state) == [36]
    record = state["last_turn"]
    assert (record["returned"], record["turned"]) == (27, 36)
    assert [tile["value"] for tile in state["grill"]] == sorted(tile["value"] for tile in state["grill"])


def test_rule_2_failed_turn_returned_highest_tile_stays_face_up():
    state = arrange(stacks=[[30]], face_down=[31, 32, 33, 34, 35, 36])
    state = failing(state, 0)
    assert 30 in face_up(state)
    assert face_down(state) == [31, 32, 33, 34, 35, 36]
    assert state["last_turn"]["turned"] is None


def test_rule_2_failed_turn_without_a_tile_turns_nothing():
    state = failing(arrange(), 0)
    assert face_down(state) == []
    assert (state["last_turn"]["returned"], state["last_turn"]["turned"]) == (None, None)


def test_rule_2_flip_when_empty_turns_the_highest_tile_on_every_failure():
    state = failing(arrange(flip_when_empty=True), 0)
    assert face_down(state) == [36]
    assert state["last_turn"]["turned"] == 36


def test_rule_2_alternative_return_turns_the_returned_highest_tile():
    state = arrange(stacks=[[30]], face_down=[31, 32, 33, 34, 35, 36], alternative_return=True)
    state = failing(state, 0)
    assert 30 in face_down(state)
    assert (state["last_turn"]["returned"], state["last_turn"]["turned"]) == (30, 30)


@pytest.mark.parametrize("reason, end", [("no_worm", [(5, 4), (4, 2)]), ("no_tile", [(W, 1), (1, 2)])])
def test_rule_2_every_kind_of_failure_returns_the_top_tile(reason, end):
    state = scoring(arrange(stacks=[[21, 27]]), 0, *end)
    assert state["last_turn"]["reason"] == reason
    assert state["stacks"][0] == [21]
    assert (state["last_turn"]["returned"], state["last_turn"]["turned"]) == (27, 36)


def test_rule_2_face_down_tiles_cannot_be_taken():
    state = scoring(arrange(face_down=[30]), 0, *RESULT[30])
    assert state["stacks"][0] == [29]
    assert face_down(state) == [30]


# --- turns, the end, scores ----------------------------------------------------------
def test_rule_2_turns_go_round_the_table():
    state = arrange()
    for seat in (0, 1, 2, 0):
        assert GAME.current_seat(state) == seat
        state = failing(state, seat)


def test_rule_2_acting_out_of_turn_is_refused():
    state = arrange()
    message = refused(state, 1, set_aside(W, 2), "not_your_turn", 403)
    assert message == "It is Ana's turn, not yours."
    refused(state, 2, BUST, "not_your_turn", 403)


def test_rule_2_game_ends_when_the_last_face_up_tile_is_taken():
    state = arrange(stacks=[list(range(21, 27)), list(range(27, 36))], face_down=[])
    assert face_up(state) == [36]
    state = scoring(state, 0, (W, 4), (5, 3), (1, 1))
    assert GAME.is_finished(state)
    assert GAME.current_seat(state) is None
    refused(state, 1, BUST, "game_over")


def test_rule_2_game_ends_when_the_last_face_up_tile_is_turned():
    state = arrange(stacks=[[21], list(range(22, 36))], face_down=[36], alternative_return=True)
    state = failing(state, 0)  # 21 goes back and is turned: it was the only face-up tile
    assert face_up(state) == []
    assert GAME.is_finished(state)


def test_rule_2_game_goes_on_while_a_face_up_tile_is_left():
    state = arrange(stacks=[[21], list(range(22, 36))], face_down=[36])
    state = failing(state, 0)  # 21 goes back face up, above the face-down 36 it is the highest
    assert face_up(state) == [21]
    assert not GAME.is_finished(state)


def test_rule_2_score_is_the_worms_in_the_stack():
    state = arrange(stacks=[[21, 25, 29, 33], [36], []])
    assert GAME.scores(state) == [1 + 2 + 3 + 4, 4, 0]


def finished(stacks):
    """A finished game: everything not in a stack is face down on the grill."""
    names = ["Ana", "Bruno", "Caio", "Davi", "Edu"][: len(stacks)]
    state = arrange(players=names, stacks=stacks, face_down=range(21, 37))
    state["turn"] = None
    return state


def test_rule_2_ranking_most_worms_wins():
    ranking = GAME.ranking(finished([[21], [33, 25], [29]]))
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Bruno", 6, 1), ("Caio", 3, 2), ("Ana", 1, 3)
    ]
    assert all(entry["tiebreak"] is None for entry in ranking)


def test_rule_2_ranking_tie_broken_by_highest_tile():
    ranking = GAME.ranking(finished([[21, 25], [24, 26], [23, 27], [36]]))
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Davi", 4, 1), ("Caio", 3, 2), ("Bruno", 3, 3), ("Ana", 3, 4)
    ]
    assert ranking[0]["tiebreak"] is None
    assert str(ranking[1]["tiebreak"]) == (
        "Caio, Bruno and Ana tied on 3 worms; the highest tile decided (Caio 27, Bruno 26, Ana 25)."
    )


def test_rule_2_ranking_players_without_tiles_share_the_place():
    ranking = GAME.ranking(finished([[], [29], [], []]))
    assert [(entry["name"], entry["place"]) for entry in ranking] == [
        ("Bruno", 1), ("Ana", 2), ("Caio", 2), ("Davi", 2)
    ]
    assert str(ranking[1]["tiebreak"]) == "Ana, Caio and Davi tied with no tiles: they share the place."


def test_rule_2_no_ranking_before_the_end():
    assert GAME.ranking(arrange()) is None

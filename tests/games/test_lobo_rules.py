"""docs/rules.md (Lobo), Lobo: secret colours, revealing, leaving bonuses, the end, the meadow count,
score and ranking. Engine tests (pure), plus the few rules that live in the shell
(player count, dealing, the host) through the JSON API."""

from __future__ import annotations

import copy
import html
import json
import random
import re

import pytest

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.lobo import COLORS, LEAVING_BONUSES, MAX_SHEEP

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


def refused(state, seat, action, code, status=422):
    """The action is refused with `code`/`status`, and the state given is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, seat, action)
    assert (caught.value.code, caught.value.status) == (code, status)
    assert state == before
    return str(caught.value)


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


# --- players and colours ----------------------------------------------------------------
def test_rule_4_players_2_to_4(client):
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    for names, accepted in ((["Ana"], False), (["Ana", "Bruno"], True), (["A", "B", "C", "D"], True), (list("ABCDE"), False)):
        response = client.post("/api/tables", json={"game": "lobo", "players": names})
        assert response.status_code == (201 if accepted else 422), names
    assert response.get_json()["error"] == "Lobo is played by 2 to 4 players, not 5."


def test_rule_4_the_four_flock_colours():
    assert COLORS == ("red", "blue", "yellow", "black")


def test_rule_4_dealt_colours_are_distinct_and_drawn_from_the_four():
    options = GAME.effective_options({})
    for seed in range(50):
        deal = GAME.deal(["A", "B", "C", "D"], options, random.Random(seed))
        assert sorted(deal) == sorted(COLORS)
        deal = GAME.deal(["A", "B"], options, random.Random(seed))
        assert len(set(deal)) == 2 and set(deal) <= set(COLORS)


def test_rule_4_deal_colors_is_on_by_default_and_the_deal_stays_out_of_the_options(client):
    created = client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).get_json()
    assert created["table"]["options"] == {"deal_colors": True}
    own = [
        client.get(f"/api/tables/{created['id']}", headers={"Authorization": f"Bearer {seat['token']}"}).get_json()
        for seat in created["seats"]
    ]
    colors = [own[seat]["state"]["seats"][seat]["color"] for seat in range(2)]
    assert len(set(colors)) == 2 and set(colors) <= set(COLORS)


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


def test_rule_4_colours_are_distinct_a_clash_left_hidden_shows_at_the_end():
    state = play(drawn_game(), (0, CHOOSE("black")), (1, CHOOSE("black")), (2, CHOOSE("red")), (0, END))
    state = play(state, (0, meadows()), (1, meadows()), (2, meadows()))
    seats = GAME.public_state(state, None)["seats"]
    assert [(seat["color"], seat["color_clashes"]) for seat in seats] == [("black", [1]), ("black", [0]), ("red", [])]


def test_rule_4_a_recorded_colour_can_be_corrected_until_it_is_revealed():
    state = play(drawn_game(), (0, CHOOSE("black")), (0, CHOOSE("blue")))
    assert seen_by(state, 0)[0] == "blue"
    state = play(state, (1, CHOOSE("black")))  # black is free again
    refused(state, 0, CHOOSE("blue"), "same_color")
    state = play(state, (0, REVEAL))
    assert refused(state, 0, CHOOSE("yellow"), "already_revealed") == "Your colour is revealed: it cannot change any more."


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


def test_rule_4_the_host_says_all_tiles_are_placed(client):
    created = client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    response = client.post(f"/api/tables/{created['id']}/actions", json=END, headers=host)
    assert response.status_code == 200
    assert response.get_json()["state"]["ended"] is True
    assert response.get_json()["current_seat"] is None


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
    assert "black" not in str(GAME.describe_action(state, 0, action))
    # a colour chosen then corrected stays hidden even once the final colour is revealed
    state = play(state, (0, CHOOSE("blue")), (0, REVEAL))
    assert GAME.redact_action(state, 0, action, 1)["color"] is None
    assert GAME.redact_action(state, 0, CHOOSE("blue"), 1)["color"] == "blue"


def test_rule_4_secret_colours_are_all_shown_after_the_final_count():
    state = play(drawn_game(), (0, CHOOSE("black")), (0, CHOOSE("blue")), (1, CHOOSE("red")), (0, END))
    state = play(state, (0, meadows(meadow(7))), (1, meadows()))
    assert seen_by(state, None) == [None, None, None]  # the count is not done: still secret
    state = play(state, (2, meadows()))
    for viewer in (0, 1, 2, None):
        assert seen_by(state, viewer) == ["blue", "red", None]  # Caio never recorded one
    # the log names every recorded colour, corrections included
    assert GAME.redact_action(state, 0, CHOOSE("black"), 1) == CHOOSE("black")
    assert str(GAME.describe_action(state, 0, CHOOSE("black"))) == "recorded the colour they drew: black."
    details = {entry["name"]: str(entry["detail"]) for entry in GAME.ranking(state)}
    assert details == {
        "Ana": "blue flock: Counting meadow of 7 sheep + leaving bonus 0",
        "Bruno": "red flock: No valid meadow + leaving bonus 0",
        "Caio": "No valid meadow + leaving bonus 0",
    }


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


# --- refusals through the phones and the API -------------------------------------------
def lobo_table(client, players=("Ana", "Bruno", "Caio"), **options) -> dict:
    created = client.post("/api/tables", json={"game": "lobo", "players": list(players), "options": options}).get_json()
    created["bearer"] = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
    created["host"] = {"Authorization": f"Bearer {created['host_token']}"}
    return created


def post(client, table, headers, action):
    return client.post(f"/api/tables/{table['id']}/actions", json=action, headers=headers)


def version(client, table) -> int:
    return client.get(f"/api/tables/{table['id']}").get_json()["version"]


def phone_of(app, table, seat):
    phone = app.test_client()
    assert phone.get("/j/" + table["seats"][seat]["token"]).status_code == 303  # the join link sets the cookie
    return phone


def tap(phone, table, action, **fields):
    page = phone.get(f"/t/{table['id']}").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_version" value="(\d+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps(action), "expected_version": expected, **fields}
    return phone.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})


def alert(page: str) -> str | None:
    found = re.search(r'role="alert">([^<]+)<', page)
    return html.unescape(found.group(1).strip()) if found else None


@pytest.mark.parametrize(
    "typed, status, sentence",
    [
        ("-3", 422, "Meadow 1: a meadow cannot have fewer than 0 sheep."),
        ("150", 422, "Meadow 1: 150 sheep is more than a meadow can hold; enter at most 100."),
        ("lots", 400, "Meadow 1: the number of sheep must be a whole number from 0 to 100."),
    ],
)
def test_rule_4_bad_sheep_counts_typed_on_a_phone_are_refused_with_a_sentence(app, client, typed, status, sentence):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    ana = phone_of(app, table, 0)
    response = tap(ana, table, {"type": "meadows"}, **{"action.meadows.0.sheep": typed, "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true"})
    assert response.status_code == status
    assert alert(response.text) == sentence
    assert response.text.index('role="alert"') > response.text.index('id="controls"')
    assert version(client, table) == 1


def test_rule_4_meadows_typed_on_a_phone_show_which_counts_and_why_the_others_do_not(app, client):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    ana = phone_of(app, table, 0)
    fields = {
        "action.meadows.0.sheep": "6", "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true",
        "action.meadows.1.sheep": "11", "action.meadows.1.wolf": "false", "action.meadows.1.fenced": "false",
        "action.meadows.2.sheep": "13", "action.meadows.2.fenced": "true", "action.meadows.2.wolf": "true",
        "action.meadows.3.sheep": "4", "action.meadows.3.wolf": "false", "action.meadows.3.fenced": "true",
        "action.meadows.4.sheep": "", "action.meadows.4.wolf": "false", "action.meadows.4.fenced": "false",  # an unused row
    }
    page = tap(ana, table, {"type": "meadows"}, **fields).text
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]
    assert [(m["sheep"], m["fenced"], m["wolf"]) for m in state["seats"][0]["meadows"]] == [
        (6, True, False), (11, False, False), (13, True, True), (4, True, False),
    ]
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert "6 sheep — counts: the largest valid meadow." in text
    assert "11 sheep — does not count: it is not completely fenced." in text
    assert "13 sheep — does not count: it borders a forest with an uncovered wolf." in text
    assert "4 sheep — valid, but does not count: only the largest valid meadow counts, never a sum." in text
    assert "Correct the meadows" in page and 'value="13"' in page  # the entry can be corrected


def test_rule_4_leaving_twice_on_a_phone_is_refused_with_a_sentence(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    assert tap(bruno, table, ABANDON).status_code == 200
    assert "I leave the game" not in bruno.get(f"/t/{table['id']}").text  # the button is gone
    response = post(client, table, table["bearer"][1], ABANDON)
    assert response.status_code == 422
    assert response.get_json() == {"code": "already_left", "error": "You already left the game (number 1 to leave, bonus 6)."}
    assert version(client, table) == 1


def test_rule_4_no_turns_a_tap_is_not_refused_because_someone_else_acted(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    page = bruno.get(f"/t/{table['id']}").text
    assert post(client, table, table["bearer"][0], REVEAL).status_code == 200  # Ana reveals meanwhile
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps(ABANDON), "expected_version": "0"}
    response = bruno.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})
    assert (response.status_code, alert(response.text)) == (200, None)
    assert client.get(f"/api/tables/{table['id']}").get_json()["state"]["seats"][1]["left"] == 1


def test_rule_4_a_leaving_tap_is_refused_when_the_bonus_it_showed_has_changed(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    page = bruno.get(f"/t/{table['id']}").text
    assert "I leave the game (bonus 6)" in page
    assert post(client, table, table["bearer"][0], ABANDON).status_code == 200  # Ana leaves first
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps(ABANDON), "expected_version": "0"}
    response = bruno.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert alert(response.text).startswith("The table has moved on since your page was loaded")
    assert "I leave the game (bonus 3)" in response.text
    assert version(client, table) == 1


def test_rule_4_an_undo_since_the_page_was_shown_makes_every_tap_stale(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    page = bruno.get(f"/t/{table['id']}").text
    assert post(client, table, table["bearer"][0], ABANDON).status_code == 200
    assert client.post(f"/api/tables/{table['id']}/undo", headers=table["host"]).status_code == 200
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps({"type": "end"}), "expected_version": "0"}
    response = bruno.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 409 and version(client, table) == 2


def test_rule_4_colours_are_distinct_a_clash_is_shown_only_on_the_phone_that_holds_it(app, client):
    table = lobo_table(client, deal_colors=False)
    ana, bruno, caio = (phone_of(app, table, seat) for seat in range(3))
    assert post(client, table, table["bearer"][0], CHOOSE("black")).status_code == 200
    assert post(client, table, table["bearer"][1], CHOOSE("black")).status_code == 200
    assert post(client, table, table["bearer"][0], REVEAL).status_code == 200
    page = bruno.get(f"/t/{table['id']}").text
    assert "Ana revealed the colour recorded here" in page
    assert "Reveal my colour" not in page and "Which shepherd tile did you draw?" in page
    for other in (ana, caio, client):
        assert "lobo-clash" not in other.get(f"/t/{table['id']}").text
    # left as it is until the end, the clash is told to everyone with the colours
    assert post(client, table, table["host"], END).status_code == 200
    for seat in range(3):
        assert post(client, table, table["bearer"][seat], meadows()).status_code == 200
    page = html.unescape(caio.get(f"/t/{table['id']}").text)
    assert "Ana, Bruno recorded the same colour: one shepherd tile was entered wrong." in page
    results = caio.get(f"/t/{table['id']}/results").text
    assert results.count("black flock: No valid meadow") == 2


def test_rule_4_entering_meadows_for_someone_else_is_403_the_host_may_naming_the_seat(client):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    entry = {"type": "meadows", "meadows": [meadow(5)]}
    response = post(client, table, table["bearer"][0], {**entry, "seat": 1})
    assert response.status_code == 403 and response.get_json()["code"] == "not_your_seat"
    response = post(client, table, table["host"], entry)
    assert response.status_code == 422
    assert response.get_json() == {"code": "seat_required", "error": 'Say which seat you are entering for (the "seat" field).'}
    assert version(client, table) == 1
    response = post(client, table, table["host"], {**entry, "seat": 1})
    assert response.status_code == 200
    assert response.get_json()["state"]["seats"][1]["meadow"] == 5
    log = client.get(f"/api/tables/{table['id']}/log").get_json()["events"]
    assert (log[-1]["seat"], log[-1]["by_host"]) == (1, True)


def test_rule_4_meadows_before_the_end_through_the_api_change_nothing(client):
    table = lobo_table(client)
    response = post(client, table, table["bearer"][0], {"type": "meadows", "meadows": [meadow(5)]})
    assert response.status_code == 422 and response.get_json()["code"] == "not_ended"
    assert version(client, table) == 0


def test_rule_4_the_host_phone_enters_for_any_seat_and_stays_on_it(client):
    form_page = client.get("/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form_page).group(1)
    response = client.post("/tables", data={"csrf_token": csrf, "game": "lobo", "player": ["Ana", "Bruno"], "lobo.deal_colors": "on"})
    table = {"id": response.headers["Location"].split("/")[2]}
    page = client.get(f"/t/{table['id']}").text
    assert "Enter for:" in page and "Entering for Ana" in page
    response = tap(client, table, ABANDON, seat="1")
    assert response.status_code == 200
    assert "Entering for Bruno" in response.text  # still on Bruno after entering for him
    seats = client.get(f"/api/tables/{table['id']}").get_json()["state"]["seats"]
    assert [seat["left"] for seat in seats] == [None, 1]

"""docs/api.md "POST /api/tables/<id>/actions": what is accepted, and every refused entry with
its status and body, leaving the table unchanged."""

from __future__ import annotations

from datetime import datetime

import pytest
from played import assert_error
from .api_client import FULL_ROLL

ANA, BRUNO, CAIO = 0, 1, 2
HOST = "host"


def roll(*dice):
    return {"type": "roll", "dice": list(dice)}


def keep(face):
    return {"type": "keep", "face": face}


def set_aside(face, count):
    return {"type": "set_aside", "face": face, "count": count}


STOP = {"type": "stop"}
BUST = {"type": "bust"}


def token(table, who):
    return table.host if who == HOST else table.seat(who)


def play(api, table, moves):
    for who, action in moves:
        api.accept(table, token(table, who), action)


# Each case: the moves that lead there (all accepted), then who sends which refused action.
REFUSED_ENTRIES = [
    # docs/rules.md (the worm-dice turn) step 1: a roll has as many dice as are left, with faces these dice have.
    pytest.param([], ANA, roll(1, 2, 3), 422, "wrong_dice_count", id="rule_1_roll_with_too_few_dice"),
    pytest.param([], ANA, roll(*FULL_ROLL, 1), 422, "wrong_dice_count", id="rule_1_roll_with_too_many_dice"),
    pytest.param(
        [(ANA, roll(*FULL_ROLL)), (ANA, keep("worm"))],
        ANA, roll(*FULL_ROLL), 422, "wrong_dice_count",
        id="rule_1_roll_counts_only_the_dice_left",
    ),
    pytest.param([], ANA, roll(6, 1, 2, 3, 4, 5, 5, 5), 422, "invalid_face", id="rule_1_roll_with_a_face_pickomino_dice_lack"),
    pytest.param([], ANA, roll("1", 2, 3, 4, 5, 5, 5, 5), 400, "malformed_action", id="rule_1_roll_face_as_text"),
    pytest.param([], ANA, roll(2.5, 2, 3, 4, 5, 5, 5, 5), 400, "malformed_action", id="rule_1_roll_face_not_whole"),
    pytest.param([], ANA, {"type": "roll", "dice": "12345555"}, 400, "malformed_action", id="rule_1_roll_dice_not_a_list"),
    pytest.param([(ANA, roll(*FULL_ROLL))], ANA, roll(*FULL_ROLL), 422, "keep_first", id="rule_1_roll_again_before_keeping"),
    # docs/rules.md (the worm-dice turn) step 2: keep all dice of one face from the roll, a face not set aside before.
    pytest.param([], ANA, keep(5), 422, "no_roll", id="rule_1_keep_without_a_roll"),
    pytest.param(
        [(ANA, roll(1, 1, 1, 2, 2, 2, 3, 3))], ANA, keep("worm"), 422, "face_not_in_roll", id="rule_1_keep_a_face_not_in_the_roll"
    ),
    pytest.param(
        [(ANA, roll(*FULL_ROLL)), (ANA, keep("worm")), (ANA, roll("worm", 1, 1, 2, 2))],
        ANA, keep("worm"), 422, "face_already_kept",
        id="rule_1_keep_a_face_already_set_aside",
    ),
    pytest.param([(ANA, roll(*FULL_ROLL))], ANA, keep(6), 422, "invalid_face", id="rule_1_keep_a_face_pickomino_dice_lack"),
    pytest.param([(ANA, roll(*FULL_ROLL))], ANA, keep("five"), 400, "malformed_action", id="rule_1_keep_a_face_that_is_no_face"),
    pytest.param(
        [(ANA, roll(*FULL_ROLL))], ANA, {"type": "keep"}, 400, "malformed_action", id="rule_1_keep_without_a_face"
    ),
    pytest.param(
        [(ANA, roll(*FULL_ROLL)), (ANA, keep(1)), (ANA, roll(1, 2, 2, 3, 3, "worm", "worm"))], ANA, BUST, 422,
        "roll_has_new_face", id="rule_1_bust_while_the_roll_has_a_new_face",
    ),
    pytest.param([], ANA, BUST, 422, "nothing_set_aside", id="rule_1_no_failure_before_anything_is_set_aside"),
    pytest.param(
        [(ANA, roll(*FULL_ROLL))], ANA, BUST, 422, "nothing_set_aside",
        id="rule_1_no_failure_declared_on_the_first_roll",
    ),
    pytest.param([(ANA, roll(*FULL_ROLL))], ANA, STOP, 422, "keep_first", id="rule_1_stop_before_keeping_from_the_roll"),
    # docs/rules.md (the worm-dice turn) quick entry: distinct faces, counts at least 1, at most the dice left.
    pytest.param(
        [(ANA, set_aside("worm", 2))], ANA, set_aside("worm", 1), 422, "face_already_kept",
        id="rule_1_quick_entry_face_already_set_aside",
    ),
    pytest.param([], ANA, set_aside(4, 0), 422, "invalid_count", id="rule_1_quick_entry_count_zero"),
    pytest.param(
        [(ANA, set_aside("worm", 3))], ANA, set_aside(4, 6), 422, "too_many_dice", id="rule_1_quick_entry_more_dice_than_left"
    ),
    pytest.param([], ANA, set_aside(4, "2"), 400, "malformed_action", id="rule_1_quick_entry_count_as_text"),
    pytest.param([(ANA, roll(*FULL_ROLL))], ANA, set_aside(4, 1), 422, "keep_first", id="rule_1_quick_entry_while_a_roll_waits"),
    # docs/rules.md (Pickomino): "take" can only decline a steal for the grill.
    pytest.param([(ANA, set_aside("worm", 5))], ANA, {"type": "stop", "take": "steal"}, 422, "invalid_take", id="rule_2_take_other_than_grill"),
    pytest.param([(ANA, set_aside("worm", 5))], ANA, {"type": "stop", "take": 1}, 400, "malformed_action", id="rule_2_take_not_text"),
    # Who may act: only the seat whose turn it is, or the host.
    pytest.param([], BRUNO, roll(*FULL_ROLL), 403, "not_your_turn", id="acting_out_of_turn"),
    pytest.param(
        [(ANA, set_aside("worm", 8))], ANA, roll(*FULL_ROLL), 403, "not_your_turn", id="acting_again_after_the_turn_passed"
    ),
    pytest.param([], BRUNO, {**roll(*FULL_ROLL), "seat": ANA}, 403, "not_your_seat", id="seat_token_acting_for_another_seat"),
    pytest.param([], ANA, {**roll(*FULL_ROLL), "seat": BRUNO}, 403, "not_your_seat", id="seat_token_naming_another_seat_on_its_turn"),
    pytest.param([], HOST, {**roll(*FULL_ROLL), "seat": BRUNO}, 403, "not_your_turn", id="host_naming_a_seat_out_of_turn"),
    pytest.param([], HOST, {**roll(*FULL_ROLL), "seat": 3}, 422, "unknown_seat", id="host_naming_a_seat_that_does_not_exist"),
    pytest.param([], HOST, {**roll(*FULL_ROLL), "seat": -1}, 422, "unknown_seat", id="host_naming_a_negative_seat"),
    pytest.param([], HOST, {**roll(*FULL_ROLL), "seat": "0"}, 400, "malformed_request", id="seat_as_text"),
    pytest.param([], HOST, {**roll(*FULL_ROLL), "seat": False}, 400, "malformed_request", id="seat_as_a_boolean"),
    # The shape of an action.
    pytest.param([], ANA, {"type": "pass"}, 422, "unknown_action", id="unknown_action_type"),
    pytest.param([], ANA, {"dice": FULL_ROLL}, 400, "malformed_action", id="action_without_type"),
    pytest.param([], ANA, {"type": 1}, 400, "malformed_action", id="action_type_not_text"),
    # Stale pages.
    pytest.param([(ANA, roll(*FULL_ROLL))], ANA, {**keep("worm"), "expected_version": 0}, 409, "stale_version", id="stale_expected_version"),
    pytest.param([], ANA, {**roll(*FULL_ROLL), "expected_version": 1}, 409, "stale_version", id="expected_version_from_the_future"),
    pytest.param([], ANA, {**roll(*FULL_ROLL), "expected_version": "0"}, 400, "malformed_request", id="expected_version_as_text"),
    pytest.param([], ANA, {**roll(*FULL_ROLL), "expected_version": 0.5}, 400, "malformed_request", id="expected_version_not_whole"),
    pytest.param([], ANA, {**roll(*FULL_ROLL), "expected_version": False}, 400, "malformed_request", id="expected_version_as_a_boolean"),
]


@pytest.mark.parametrize("moves, who, action, status, code", REFUSED_ENTRIES)
def test_refused_entry_answers_its_status_and_changes_nothing(api, table, moves, who, action, status, code):
    play(api, table, moves)

    with api.changes_nothing(table):
        response = api.act(table, token(table, who), action)

    assert_error(response, status, code)


def test_the_host_entering_out_of_turn_is_told_whose_turn_it_is_not_addressed_as_the_seat(api, table):
    """The rules' "It is Ana's turn, not yours" speaks to Bruno; the host who named Bruno's
    seat is not Bruno. A player out of turn is still spoken to."""
    host = api.act(table, token(table, HOST), {**roll(*FULL_ROLL), "seat": BRUNO})
    assert host.get_json()["error"] == "It is Ana's turn, not Bruno's."
    bruno = api.act(table, token(table, BRUNO), roll(*FULL_ROLL))
    assert bruno.get_json()["error"] == "It is Ana's turn, not yours."


def test_the_host_rolling_for_the_wrong_seat_in_twenty_one_is_told_who_rolls(client):
    """Twenty One: every seat writes at once, so "not Bruno's turn" would be untrue while
    Bruno writes; the game says who rolls."""
    created = client.post("/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"]}).get_json()
    dice = dict.fromkeys(("white", "black", "red", "blue", "yellow", "green"), 1)
    answer = client.post(f"/api/tables/{created['id']}/actions", json={"type": "roll", "dice": dice, "seat": 1},
                         headers={"Authorization": f"Bearer {created['host_token']}"})
    assert (answer.status_code, answer.get_json()["error"]) == (403, "Ana rolls the dice this round, not Bruno.")


def test_wrong_number_of_dice_names_how_many_are_left(api, table):
    response = api.act(table, table.seat(ANA), roll(1, 2, 3))

    assert response.get_json()["error"] == "You have 8 dice left to roll, not 3."


def test_out_of_turn_names_whose_turn_it_is(api, table):
    response = api.act(table, table.seat(BRUNO), roll(*FULL_ROLL))

    assert "Ana" in response.get_json()["error"]


# --- tokens ------------------------------------------------------------------------------
def test_action_without_a_token_is_401(api, table):
    with api.changes_nothing(table):
        response = api.act(table, None, roll(*FULL_ROLL))

    assert_error(response, 401, "no_token")


def test_action_with_an_unknown_token_is_401(api, table):
    with api.changes_nothing(table):
        response = api.act(table, "not-a-token", roll(*FULL_ROLL))

    assert_error(response, 401, "unknown_token")


@pytest.mark.parametrize("whose", ["seat", "host"])
def test_action_with_another_tables_token_is_401(api, table, whose):
    other = api.create(players=["Ana", "Bruno"])
    foreign = other.seat(ANA) if whose == "seat" else other.host

    with api.changes_nothing(table), api.changes_nothing(other):
        response = api.act(table, foreign, roll(*FULL_ROLL))

    assert_error(response, 401, "unknown_token")


@pytest.mark.parametrize("header", ["Basic YW5hOmFuYQ==", "Bearer", "Bearer    ", "token"])
def test_action_with_a_malformed_authorization_header_is_401(api, client, table, header):
    with api.changes_nothing(table):
        response = client.post(f"/api/tables/{table.id}/actions", json=roll(*FULL_ROLL), headers={"Authorization": header})

    assert_error(response, 401, "unknown_token")


def test_action_at_an_unknown_table_is_404_before_the_token_is_looked_at(api, table):
    assert_error(api.act("ZZZZZZ", "not-a-token", roll(*FULL_ROLL)), 404, "unknown_table")
    assert_error(api.act("ZZZZZZ", table.seat(ANA), roll(*FULL_ROLL)), 404, "unknown_table")
    assert_error(api.post_raw("/api/tables/ZZZZZZ/actions", "{", table.seat(ANA)), 404, "unknown_table")


# --- the body ----------------------------------------------------------------------------
DEEP_JSON = '{"type": "roll", "dice": ' + "[" * 5000 + "]" * 5000 + "}"


@pytest.mark.parametrize("raw", ["{", '{"type": "roll", "dice": [1, 2', "roll", '["roll"]', '"roll"', "null", "", pytest.param(DEEP_JSON, id="nested_deeper_than_the_parser_goes")])
def test_malformed_json_is_400(api, table, raw):
    with api.changes_nothing(table):
        response = api.post_raw(f"/api/tables/{table.id}/actions", raw, table.seat(ANA))

    assert_error(response, 400, "malformed_json")


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "set_aside", "face": "worm", "count": 3, "count": 8}',
        '{"type": "bust", "type": "stop"}',
        '{"type": "roll", "dice": [1, 2, 3, 4, 5, 6, 6, 6], "seat": 0, "seat": 1}',
    ],
    ids=["count_twice", "type_twice", "seat_twice"],
)
def test_a_field_named_twice_is_400_not_the_last_one_taken(api, table, raw):
    """JSON parsers keep the last of two equal names: {"count": 3, "count": 8} set eight
    worms aside. Such a body means nothing certain, so it is refused."""
    with api.changes_nothing(table):
        response = api.post_raw(f"/api/tables/{table.id}/actions", raw, table.host)
    assert_error(response, 400, "duplicate_field")
    assert "twice" in response.get_json()["error"]


def test_a_body_over_64_kilobytes_is_413(api, table):
    with api.changes_nothing(table):
        response = api.act(table, table.seat(ANA), {**roll(*FULL_ROLL), "note": "x" * 70_000})

    assert_error(response, 413, "too_large")


# --- accepted actions ----------------------------------------------------------------------
def test_accepted_action_answers_the_new_table_state(api, table):
    state = api.accept(table, table.seat(ANA), roll(*FULL_ROLL))

    assert state == api.state(table)
    assert state["version"] == 1
    assert state["state"]["turn"]["roll"] == FULL_ROLL


def test_each_accepted_action_moves_the_version_up_by_one(api, table):
    moves = [roll(*FULL_ROLL), keep("worm"), roll(5, 5, 1, 2, 3), keep(5), STOP]

    versions = [api.accept(table, table.seat(ANA), action)["version"] for action in moves]

    assert versions == [1, 2, 3, 4, 5]


def test_rule_2_a_whole_turn_through_the_api_takes_the_tile(api, table):
    for action in [roll(*FULL_ROLL), keep("worm"), roll(5, 5, 1, 2, 3), keep(5)]:
        api.accept(table, table.seat(ANA), action)

    state = api.accept(table, table.seat(ANA), STOP)

    assert state["state"]["stacks"] == [[25], [], []]
    assert 25 not in [tile["value"] for tile in state["state"]["grill"]]
    assert state["state"]["last_turn"]["outcome"] == "took"
    assert state["state"]["last_turn"]["tile"] == 25
    assert state["players"][ANA]["score"] == 2
    assert state["current_seat"] == BRUNO


def test_expected_version_that_matches_is_accepted(api, table):
    api.accept(table, table.seat(ANA), roll(*FULL_ROLL))

    state = api.accept(table, table.seat(ANA), keep("worm"), expected_version=1)

    assert state["version"] == 2


def test_seat_token_may_name_its_own_seat(api, table):
    state = api.accept(table, table.seat(ANA), roll(*FULL_ROLL), seat=ANA)

    assert state["version"] == 1
    assert api.log(table)[0]["seat"] == ANA


def test_host_without_seat_acts_for_the_seat_whose_move_it_is(api, table):
    api.accept(table, table.seat(ANA), set_aside("worm", 8))  # Ana's turn ends: Bruno to move

    state = api.accept(table, table.host, roll(*FULL_ROLL))

    assert state["state"]["turn"]["seat"] == BRUNO
    entry = api.log(table)[-1]
    assert entry["seat"] == BRUNO
    assert entry["action"] == roll(*FULL_ROLL)


def test_host_naming_the_seat_to_move_acts_for_it(api, table):
    api.accept(table, table.host, set_aside("worm", 8))

    state = api.accept(table, table.host, roll(*FULL_ROLL), seat=BRUNO)

    assert state["state"]["turn"]["roll"] == FULL_ROLL
    assert api.log(table)[-1]["seat"] == BRUNO


def test_the_log_records_each_action_without_seat_or_expected_version(api, table):
    api.accept(table, table.seat(ANA), roll(*FULL_ROLL), expected_version=0)
    api.accept(table, table.host, keep("worm"), seat=ANA)

    events = api.log(table)

    assert [(e["seq"], e["seat"], e["action"], e["undone"]) for e in events] == [
        (1, ANA, roll(*FULL_ROLL), False),
        (2, ANA, keep("worm"), False),
    ]
    for event in events:
        assert datetime.fromisoformat(event["at"]).tzinfo is not None


def test_log_of_an_unknown_table_is_404(client):
    assert_error(client.get("/api/tables/ZZZZZZ/log"), 404, "unknown_table")


# --- the end of the game -------------------------------------------------------------------
@pytest.fixture
def finished_table(api):
    """Sixteen failed turns with flip_when_empty turn every grill tile face down."""
    table = api.create(players=["Ana", "Bruno"], options={"flip_when_empty": True})
    for _ in range(16):
        api.accept(table, table.host, set_aside(1, 1))
        api.accept(table, table.host, BUST)
    return table


def test_rule_2_game_finished_shows_status_ranking_and_no_current_seat(api, finished_table):
    state = api.state(finished_table)

    assert state["status"] == "finished"
    assert state["version"] == 32
    assert state["current_seat"] is None
    assert [(entry["seat"], entry["place"], entry["score"]) for entry in state["ranking"]] == [(0, 1, 0), (1, 1, 0)]
    assert all(isinstance(entry["tiebreak"], str) for entry in state["ranking"])


@pytest.mark.parametrize("who", [HOST, ANA, BRUNO])
def test_action_after_the_game_is_over_is_422(api, finished_table, who):
    with api.changes_nothing(finished_table):
        response = api.act(finished_table, token(finished_table, who), BUST)

    assert_error(response, 422, "game_over")


TWENTY_ONE_DICE = dict.fromkeys(["white", "black", "red", "blue", "yellow", "green"], 3)


@pytest.mark.parametrize(
    "game, action, field",
    [
        ("pickomino", {**set_aside("worm", 2), "pad": "x" * 50000}, "pad"),
        ("pickomino", {**STOP, "x" * 50000: 1}, "x" * 32 + "…"),
        ("heckmeck-barbecue", {**roll(*FULL_ROLL), "note": "hi"}, "note"),
        # declining a steal is Pickomino's: the worm-dice schemas both games share name "take"
        ("heckmeck-barbecue", {**set_aside("worm", 2), "take": "grill"}, "take"),
        ("heckmeck-barbecue", {**STOP, "take": "grill"}, "take"),
        ("lobo", {"type": "abandon", "pad": "x" * 50000}, "pad"),
        ("lobo", {"type": "meadows", "meadows": [{"sheep": 3, "fenced": True, "wolf": False, "pad": 1}]}, "meadows.0.pad"),
        ("twenty-one", {"type": "roll", "dice": {**TWENTY_ONE_DICE, "pad": 1}}, "dice.pad"),
        ("twenty-one", {"type": "cross", "roll": {**TWENTY_ONE_DICE, "pad": 1}}, "roll.pad"),
        ("qwixx", {"type": "roll", "dice": {"white1": 1, "white2": 2, "purple": 3}}, "dice.purple"),
        ("qwixx", {"type": "white", "row": None, "why": "x"}, "why"),
    ],
)
def test_an_action_with_a_field_its_game_does_not_have_is_refused_and_not_logged(api, game, action, field):
    table = api.create(game=game)
    title = {"pickomino": "Pickomino", "heckmeck-barbecue": "Heckmeck Barbecue", "lobo": "Lobo", "twenty-one": "Twenty One", "qwixx": "Qwixx"}
    with api.changes_nothing(table):
        response = api.act(table, table.seat(ANA), action)
    assert_error(response, 400, "malformed_action")
    assert response.get_json()["error"] == f"{title[game]} actions have no field called {field}."


def test_seat_and_expected_version_are_fields_of_every_action(api, table):
    api.accept(table, table.host, {**set_aside("worm", 2), "seat": ANA, "expected_version": 0})


def test_the_host_names_the_seat_while_several_twenty_one_players_are_still_writing(api):
    """docs/api.md: without "seat" the host acts for the seat whose move it is. Once the
    roller has written, two others still writing: neither is, and a guess would write on
    the wrong sheet. With one left, that one's."""
    table = api.create(("Ana", "Bruno", "Caio"), game="twenty-one")
    dice = {"white": 3, "black": 3, "red": 3, "blue": 3, "yellow": 3, "green": 3}
    api.accept(table, table.host, {"type": "roll", "dice": dice})
    api.accept(table, table.host, {"type": "cross"})  # the roller's, while they may still write
    with api.changes_nothing(table):
        assert_error(api.act(table, table.host, {"type": "cross"}), 422, "seat_required")
    api.accept(table, table.host, {"type": "cross", "seat": 2})
    api.accept(table, table.host, {"type": "cross"})  # Bruno, the one left
    assert [entry["seat"] for entry in api.log(table)] == [0, 0, 2, 1]


def test_the_host_acts_as_the_active_qwixx_player_in_step_1_until_they_chose_then_names_the_seat(api):
    """shared/API.md: without "seat" the host acts as the seat whose move it is; in Qwixx's
    step 1 that is the active player while they have still to choose (as in Twenty One).
    Once they chose, with two others still choosing, the host names one."""
    table = api.create(("Ana", "Bruno", "Caio"), game="qwixx")
    dice = {"white1": 3, "white2": 4, "red": 1, "yellow": 2, "green": 5, "blue": 6}
    api.accept(table, table.host, {"type": "roll", "dice": dice})
    api.accept(table, table.host, {"type": "white", "row": "red"})  # Ana's, the active player
    with api.changes_nothing(table):
        assert_error(api.act(table, table.host, {"type": "white", "row": "red"}), 422, "seat_required")
    api.accept(table, table.host, {"type": "white", "row": None, "seat": 2})
    api.accept(table, table.host, {"type": "white", "row": "yellow"})  # Bruno, the one left
    assert [entry["seat"] for entry in api.log(table)] == [0, 0, 2, 1]
    assert api.state(table)["state"]["sheets"][0]["rows"]["red"] == [7]


@pytest.mark.parametrize(
    "game, action",
    [
        pytest.param("twenty-one", {"type": "enter", "colors": "white"}, id="twenty_one_colours_not_a_list"),
        pytest.param("twenty-one", {"type": "cross", "row": "first"}, id="twenty_one_row_not_a_number"),
        pytest.param("lobo", {"type": "meadows", "meadows": "x"}, id="lobo_meadows_not_a_list"),
        pytest.param("qwixx", {"type": "white", "row": ["red"]}, id="qwixx_white_row_not_a_name"),
        pytest.param("qwixx", {"type": "colour", "row": 3}, id="qwixx_colour_row_not_a_name"),
        pytest.param("qwixx", {"type": "colour", "row": "red", "white": "x"}, id="qwixx_colour_white_die_not_a_number"),
    ],
)
def test_a_field_of_the_wrong_type_is_400_even_before_the_moment_it_could_be_sent(api, game, action):
    """docs/api.md: wrong types are 400 and against the rules 422. A malformed action is
    malformed whenever it comes: before the roll, or before the end, too."""
    table = api.create(("Ana", "Bruno"), game=game)
    with api.changes_nothing(table):
        assert_error(api.act(table, table.seat(0), action), 400, "malformed_action")


def test_a_well_formed_action_sent_too_early_is_told_it_is_too_early(api):
    """The other way round: right types, wrong moment: the rule of the moment, not a bound
    of the entry (Lobo's meadows before the end, with a sheep count no meadow holds)."""
    table = api.create(("Ana", "Bruno"), game="lobo")
    refused = api.act(table, table.seat(0), {"type": "meadows", "meadows": [{"sheep": -1, "fenced": True, "wolf": False}]})
    assert_error(refused, 422, "not_ended")


@pytest.mark.parametrize(
    "game, seat, action",
    [
        pytest.param("pickomino", 1, {"type": "roll", "dice": "all"}, id="pickomino_roll_out_of_turn"),
        pytest.param("pickomino", 0, {"type": "keep", "face": "six"}, id="pickomino_keep_before_the_roll"),
        pytest.param("pickomino", 1, {"type": "set_aside", "face": 3, "count": "two"}, id="pickomino_count_out_of_turn"),
        pytest.param("pickomino", 1, {"type": "stop", "take": 24}, id="pickomino_take_out_of_turn"),
        pytest.param("heckmeck-barbecue", 1, {"type": "roll", "dice": [1, True]}, id="barbecue_face_out_of_turn"),
        pytest.param("lobo", 0, {"type": "choose_color", "color": 2}, id="lobo_colour_when_dealt"),
        pytest.param("twenty-one", 1, {"type": "roll", "dice": "all"}, id="twenty_one_roll_by_another"),
        pytest.param("twenty-one", 0, {"type": "reroll", "dice": []}, id="twenty_one_reroll_before_the_roll"),
        pytest.param("twenty-one", 0, {"type": "cross", "roll": "seen"}, id="twenty_one_seen_roll_before_the_roll"),
        pytest.param("twenty-one", 0, {"type": "cross", "colors": "white"}, id="twenty_one_cross_colours_before_the_roll"),
        pytest.param("qwixx", 1, {"type": "roll", "dice": {"white1": "6"}}, id="qwixx_roll_out_of_turn"),
    ],
)
def test_a_field_of_the_wrong_type_is_400_before_the_turn_and_the_step(api, game, seat, action):
    """docs/api.md: wrong types are 400, whoever's turn it is and whatever the step: the
    shape of an action is checked before any rule of the moment (Game.check_shape)."""
    table = api.create(("Ana", "Bruno"), game=game)
    with api.changes_nothing(table):
        assert_error(api.act(table, table.seat(seat), action), 400, "malformed_action")

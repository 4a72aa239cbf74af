"""docs/api.md "POST /api/tables/<id>/undo" and docs/rules.md (corrections): undo the latest action still in effect,
by the host or the seat that made it; the log keeps what was undone."""

from __future__ import annotations

import pytest
from played import assert_error
from .api_client import FULL_ROLL

ANA, BRUNO, CAIO = 0, 1, 2
ROLL = {"type": "roll", "dice": FULL_ROLL}
KEEP_WORMS = {"type": "keep", "face": "worm"}
ANA_TAKES_36 = {"type": "set_aside", "face": "worm", "count": 8}  # 40 with worms: the turn ends


def test_rule_6_seat_undoes_its_own_last_action(api, table):
    before = api.state(table)
    api.accept(table, table.seat(ANA), ROLL)

    response = api.undo(table, table.seat(ANA))

    assert response.status_code == 200
    state = response.get_json()
    assert state["version"] == 2
    assert state["state"] == before["state"]
    assert state == api.state(table)


def test_rule_6_host_undoes_anyones_last_action(api, table):
    api.accept(table, table.seat(ANA), ANA_TAKES_36)
    api.accept(table, table.seat(BRUNO), ROLL)

    state = api.undo(table, table.host).get_json()
    assert state["current_seat"] == BRUNO
    assert state["state"]["turn"]["roll"] is None

    state = api.undo(table, table.host).get_json()
    assert state["current_seat"] == ANA
    assert state["state"]["stacks"] == [[], [], []]
    assert state["version"] == 4


def test_rule_6_seat_undoes_the_hosts_entry_for_that_seat(api, table):
    api.accept(table, table.host, ROLL)

    assert api.undo(table, table.seat(ANA)).status_code == 200


def test_rule_6_undo_of_someone_elses_action_is_403(api, table):
    api.accept(table, table.seat(ANA), ANA_TAKES_36)

    with api.changes_nothing(table):
        response = api.undo(table, table.seat(BRUNO))

    assert_error(response, 403, "not_your_action")
    assert "Ana" in response.get_json()["error"]


def test_rule_6_nothing_to_undo_is_409(api, table):
    with api.changes_nothing(table):
        response = api.undo(table, table.host)

    assert_error(response, 409, "nothing_to_undo")


def test_rule_6_nothing_to_undo_once_every_action_is_undone(api, table):
    api.accept(table, table.seat(ANA), ROLL)
    api.undo(table, table.seat(ANA))

    with api.changes_nothing(table):
        response = api.undo(table, table.seat(ANA))

    assert_error(response, 409, "nothing_to_undo")


def test_undo_with_a_stale_expected_version_is_409(api, table):
    api.accept(table, table.seat(ANA), ROLL)

    with api.changes_nothing(table):
        response = api.undo(table, table.seat(ANA), {"expected_version": 0})

    assert_error(response, 409, "stale_version")


def test_undo_with_the_current_expected_version_is_accepted(api, table):
    api.accept(table, table.seat(ANA), ROLL)

    response = api.undo(table, table.seat(ANA), {"expected_version": 1})

    assert response.status_code == 200
    assert response.get_json()["version"] == 2


def test_undo_with_an_expected_version_of_the_wrong_type_is_400(api, table):
    api.accept(table, table.seat(ANA), ROLL)

    with api.changes_nothing(table):
        response = api.undo(table, table.seat(ANA), {"expected_version": "1"})

    assert_error(response, 400, "malformed_request")


@pytest.mark.parametrize(
    "raw", ["{", "[1]", "null", '"undo"', pytest.param("[" * 5000 + "]" * 5000, id="nested_deeper_than_the_parser_goes")]
)
def test_undo_with_malformed_json_is_400(api, table, raw):
    api.accept(table, table.seat(ANA), ROLL)

    with api.changes_nothing(table):
        response = api.post_raw(f"/api/tables/{table.id}/undo", raw, table.seat(ANA))

    assert_error(response, 400, "malformed_json")


def test_undo_without_a_token_is_401(api, table):
    api.accept(table, table.seat(ANA), ROLL)

    with api.changes_nothing(table):
        response = api.undo(table, None)

    assert_error(response, 401, "no_token")


def test_undo_with_another_tables_token_is_401(api, table):
    other = api.create(players=["Ana", "Bruno"])
    api.accept(table, table.seat(ANA), ROLL)
    api.accept(other, other.seat(ANA), ROLL)

    with api.changes_nothing(table), api.changes_nothing(other):
        by_seat = api.undo(table, other.seat(ANA))
        by_host = api.undo(table, other.host)

    assert_error(by_seat, 401, "unknown_token")
    assert_error(by_host, 401, "unknown_token")


def test_undo_at_an_unknown_table_is_404_before_the_token_is_looked_at(api):
    assert_error(api.undo("ZZZZZZ", "not-a-token"), 404, "unknown_table")


def test_versions_grow_by_one_per_action_and_per_undo(api, table):
    versions = [
        api.accept(table, table.seat(ANA), ROLL)["version"],
        api.accept(table, table.seat(ANA), KEEP_WORMS)["version"],
        api.undo(table, table.seat(ANA)).get_json()["version"],
        api.accept(table, table.seat(ANA), {"type": "keep", "face": 1})["version"],
        api.undo(table, table.host).get_json()["version"],
        api.undo(table, table.host).get_json()["version"],
    ]

    assert versions == [1, 2, 3, 4, 5, 6]


def test_rule_6_the_log_shows_what_was_undone(api, table):
    api.accept(table, table.seat(ANA), ROLL)
    api.accept(table, table.seat(ANA), KEEP_WORMS)
    api.undo(table, table.seat(ANA))
    api.accept(table, table.seat(ANA), {"type": "keep", "face": 3})

    events = api.log(table)

    # An undo takes a version but writes no event: the next action's seq is its version.
    assert [(e["seq"], e["seat"], e["action"], e["undone"]) for e in events] == [
        (1, ANA, ROLL, False),
        (2, ANA, KEEP_WORMS, True),
        (4, ANA, {"type": "keep", "face": 3}, False),
    ]
    assert api.state(table)["state"]["turn"]["kept"] == [{"face": 3, "count": 1}]


def test_rule_6_undo_skips_actions_already_undone(api, table):
    api.accept(table, table.seat(ANA), ROLL)
    api.accept(table, table.seat(ANA), KEEP_WORMS)
    api.undo(table, table.host)

    api.undo(table, table.host)

    assert [e["undone"] for e in api.log(table)] == [True, True]
    assert api.state(table)["state"]["turn"]["roll"] is None

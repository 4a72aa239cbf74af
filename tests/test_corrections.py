"""docs/rules.md (corrections), corrections at the table: the host goes back to any line of the log (every
later action is undone, each kept and marked), and the undone actions are redone one by
one or all that still apply, each checked by the rules again."""

from __future__ import annotations

import html
import random
import re
from contextlib import closing

import pytest

from companion.tables import snapshots
from companion.tables import corrections, log_lines, service, undo_redo
from companion.tables.database import connect
from played import assert_error, bearer, create, joined
from databases import on_both_databases

# Going back, redoing, and the store's log queries under them, on SQLite and on PostgreSQL alike.
database = on_both_databases()

W = "worm"


def act(client, table, token, action):
    return client.post(f"/api/tables/{table.id}/actions", json=action, headers=bearer(token))


def undo(client, table, token, **body):
    return client.post(f"/api/tables/{table.id}/undo", json=body, headers=bearer(token))


def redo(client, table, token, **body):
    return client.post(f"/api/tables/{table.id}/redo", json=body, headers=bearer(token))


def state(client, table) -> dict:
    return client.get(f"/api/tables/{table.id}").get_json()


def log(client, table) -> list[dict]:
    return client.get(f"/api/tables/{table.id}/log").get_json()["events"]


@pytest.fixture
def played(client):
    """Ana takes 25 (lines 1-2), Bruno sets aside 3 × 4 and 2 worms and stops on 22 (lines 3-5)."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for token, action in [
        (table.seats[0], {"type": "set_aside", "face": W, "count": 5}),
        (table.seats[0], {"type": "stop"}),
        (table.seats[1], {"type": "set_aside", "face": 4, "count": 3}),
        (table.seats[1], {"type": "set_aside", "face": W, "count": 2}),
        (table.seats[1], {"type": "stop"}),
    ]:
        assert act(client, table, token, action).status_code == 200
    return table


def test_rule_6_the_host_goes_back_to_any_line_and_every_later_action_is_undone_and_kept(client, played):
    response = undo(client, played, played.host, **{"from": 3})
    assert response.status_code == 200
    now = response.get_json()
    assert now["version"] == 6  # one correction, one version
    assert now["state"]["stacks"] == [[25], []] and now["current_seat"] == 1
    assert now["state"]["turn"]["kept"] == []
    assert [(event["seq"], event["undone"]) for event in log(client, played)] == [
        (1, False), (2, False), (3, True), (4, True), (5, True)
    ]


def test_rule_6_only_the_host_goes_back_further_than_the_last_action(client, played):
    before = state(client, played)
    response = undo(client, played, played.seats[1], **{"from": 3})
    assert response.status_code == 403 and response.get_json()["code"] == "host_only"
    assert state(client, played) == before
    # the player who made the last action still undoes it, as before
    assert undo(client, played, played.seats[1], **{"from": 5}).status_code == 200


def test_rule_6_going_back_to_a_line_not_in_effect_is_refused(client, played):
    assert undo(client, played, played.host).status_code == 200  # line 5 undone
    for line, code in [(5, "line_not_in_effect"), (99, "line_not_in_effect")]:
        response = undo(client, played, played.host, **{"from": line})
        assert (response.status_code, response.get_json()["code"]) == (422, code)
    assert undo(client, played, played.host, **{"from": True}).status_code == 400


def test_rule_6_redo_one_by_one_then_all_each_checked_by_the_rules(client, played):
    final = state(client, played)["state"]
    assert undo(client, played, played.host, **{"from": 3}).status_code == 200
    one = redo(client, played, played.host)
    assert one.status_code == 200
    assert one.get_json()["redo"] == {"redone": 1, "stopped": None}
    assert one.get_json()["state"]["turn"]["kept"] == [{"face": 4, "count": 3}]
    rest = redo(client, played, played.host, all=True).get_json()
    assert rest["redo"] == {"redone": 2, "stopped": None}
    assert rest["state"] == final
    events = log(client, played)
    assert [(event["seq"], event["undone"], event["redo_of"]) for event in events[5:]] == [
        (7, False, 3), (8, False, 4), (9, False, 5)
    ]
    nothing = redo(client, played, played.host)
    assert (nothing.status_code, nothing.get_json()["code"]) == (409, "nothing_to_redo")


def test_rule_6_nothing_is_on_offer_to_redo_before_an_undo_and_the_log_is_not_read_for_it(app, client, played, monkeypatch):
    """Only an undo puts actions on offer to redo: until one, the offer is empty without the
    whole log being read (every phone's first look at a new version asks); as of a version
    before the undo, still empty; from the undo on, the undone lines."""
    with closing(connect(app.config["DATABASE"])) as db:
        table = service.load(db, played.id)
        assert undo_redo.redoable(db, table) == [] and not db.anything_undone(played.id)

        def unread(*args, **kwargs):
            raise AssertionError("the whole log was read")

        with monkeypatch.context() as patched:
            patched.setattr(type(db), "events", unread)
            patched.setattr(type(db), "events_as_of", unread)
            assert undo_redo.redoable(db, table) == [] and undo_redo.redoable(db, table, as_of=5) == []
    assert undo(client, played, played.host, **{"from": 3}).status_code == 200  # version 6
    with closing(connect(app.config["DATABASE"])) as db:
        table = service.load(db, played.id)
        assert [event["seq"] for event in undo_redo.redoable(db, table)] == [3, 4, 5]
        assert not db.anything_undone(played.id, as_of=5) and undo_redo.redoable(db, table, as_of=5) == []
        assert db.anything_undone(played.id, as_of=6) and db.anything_undone(played.id)


def test_rule_6_a_corrected_line_takes_the_place_of_the_wrong_one_and_the_rest_is_redone_on_top(client, played):
    """Bruno's 3 × 4 should have been 3 × 5: the host goes back, enters 3 × 5, and redoes
    the rest. His stop now claims 25, which Ana holds: a steal where it took 22 from the
    grill, and Bruno could also take 24 instead, so "redo all" stops before it and the host
    redoes it on its own."""
    assert undo(client, played, played.host, **{"from": 3}).status_code == 200
    assert act(client, played, played.host, {"type": "set_aside", "face": 5, "count": 3}).status_code == 200
    everything = redo(client, played, played.host, all=True).get_json()
    assert everything["redo"]["redone"] == 1 and everything["redo"]["stopped"]["code"] == "redo_touches_others"
    assert redo(client, played, played.host).get_json()["redo"] == {"redone": 1, "stopped": None}
    assert state(client, played)["state"]["stacks"] == [[], [25]]


def test_rule_6_the_first_redo_that_no_longer_applies_stops_with_its_sentence(client, played):
    """After going back, a different correction makes the later lines impossible: the
    redo of all enters what still applies and stops at the first refusal."""
    assert undo(client, played, played.host, **{"from": 3}).status_code == 200
    # instead of 3 × 4, Bruno set aside 2 worms first: the redone "2 worms" no longer applies
    assert act(client, played, played.host, {"type": "set_aside", "face": W, "count": 2}).status_code == 200
    response = redo(client, played, played.host, all=True)
    assert response.status_code == 422 and response.get_json()["code"] == "face_already_kept"
    # the rules' sentence, with whose line it is: the host redoing it is not Bruno, whom the
    # rules' "you" means (game night: the host read "You already set aside 4s")
    assert response.get_json()["error"] == (
        "“Bruno set aside 2 × worm” cannot be redone. The rules tell Bruno: You already set aside worms this turn."
    )
    # Bruno redoing his own line is spoken to as before
    bruno = redo(client, played, played.seats[1], all=True)
    assert bruno.get_json()["error"] == "“Bruno set aside 2 × worm” cannot be redone: You already set aside worms this turn."
    assert state(client, played)["version"] == 7  # nothing entered


def test_rule_6_redo_of_all_keeps_what_applied_before_the_stop(client):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for action in [{"type": "set_aside", "face": 1, "count": 1}, {"type": "set_aside", "face": 2, "count": 1},
                   {"type": "set_aside", "face": W, "count": 1}]:
        assert act(client, table, table.seats[0], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "set_aside", "face": 3, "count": 1}).status_code == 200  # replaces 1
    assert act(client, table, table.seats[0], {"type": "set_aside", "face": W, "count": 3}).status_code == 200  # replaces 2
    response = redo(client, table, table.host, all=True)  # left: "worm × 1": worms are kept already
    assert response.status_code == 422 and response.get_json()["code"] == "face_already_kept"


def worm_left_out(client):
    """Ana's turn: 2 worms (line 1), 3 × 5 (line 2), a stop that took 25 (line 3). The host
    goes back to the worms and leaves them out: her stop, redone, would fail her turn."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for action in [{"type": "set_aside", "face": W, "count": 2}, {"type": "set_aside", "face": 5, "count": 3}, {"type": "stop"}]:
        assert act(client, table, table.seats[0], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    assert redo(client, table, table.host, skip=True).status_code == 200
    return table


FAILS_ANAS_TURN = (
    "Redoing “Ana stopped” would now fail Ana's turn, which it did not when it was first entered: "
    "redo it on its own if that is right, or leave it out."
)


@pytest.mark.parametrize("restarted", [False, True], ids=["states kept", "restarted"])
def test_rule_6_redo_of_all_stops_before_an_action_that_would_now_fail_a_turn_it_did_not(client, monkeypatch, restarted):
    """Game night: the host left out Ana's worms, and "redo all" failed her turn without a
    word (her stop, which took 25, now found no worm). It stops before the stop instead and
    says why; the stop is redone only on its own, as the host decides. A restarted server,
    which kept no state, works out what the stop did when first entered from the log."""
    table = worm_left_out(client)
    if restarted:
        monkeypatch.setattr(snapshots, "_by_database", {})
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 1, "stopped": {"code": "redo_ends_badly", "error": FAILS_ANAS_TURN}}
    assert everything["state"]["turn"]["total"] == 15 and everything["state"]["stacks"] == [[], []]
    again = redo(client, table, table.host, all=True)  # first in line now: nothing is entered
    assert_error(again, 409, "redo_ends_badly")
    assert again.get_json()["error"] == FAILS_ANAS_TURN
    assert state(client, table)["version"] == everything["version"]
    alone = redo(client, table, table.host).get_json()
    assert alone["redo"] == {"redone": 1, "stopped": None}
    assert alone["state"]["last_turn"]["outcome"] == "failed"


def test_rule_6_the_hosts_page_says_why_redo_of_all_stopped_before_a_turn_it_would_now_fail(app, client):
    table = worm_left_out(client)
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host}}
    page = html.unescape(host.get(f"/t/{table.id}").text)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    version = state(client, table)["version"]
    stopped = host.post(
        f"/t/{table.id}/redo", data={"csrf_token": csrf, "expected_version": str(version), "all": "yes"}, headers={"HX-Request": "true"}
    )
    shown = html.unescape(stopped.text)
    assert stopped.status_code == 200 and FAILS_ANAS_TURN in shown
    # the stop waits, to be redone alone or left out; redone alone, it asks once more first
    # (game night: one tap on "Redo: Bruno stopped" failed his turn), saying what it does now
    confirm = re.search(r'<details class="confirm redo-badly">(.*?)</details>', shown, re.S).group(1)
    assert re.search(r"<summary[^>]*>Redo: Ana stopped</summary>", confirm)
    assert "If redone now: Ana stopped — turn failed (no worm set aside)" in confirm
    assert re.search(r'<button class="btn danger" name="all" value="no">Yes, redo it</button>', confirm)


def test_rule_6_the_redo_button_says_what_a_stop_does_now(app, client, played):
    """The host went back to Ana's stop: the redo says what it does now, not just "stopped"."""
    assert undo(client, played, played.host, **{"from": 2}).status_code == 200
    shown = host_page(app, played)
    assert "Redo: Ana stopped — took 25 from the grill</button>" in shown
    assert "redo-badly" not in shown  # nothing fails: one tap


def host_page(app, table) -> str:
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host}}
    return html.unescape(host.get(f"/t/{table.id}").text)


def test_rule_6_no_redo_of_all_beside_a_redo_that_asks_once_more(app, client):
    """review: "Redo all" beside the question either stopped at once or, where the turn had
    failed when first entered too, failed it without asking: the question comes first."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for seat, action in [(0, {"type": "set_aside", "face": W, "count": 2}), (0, {"type": "set_aside", "face": 5, "count": 3}),
                         (0, {"type": "stop"}), (1, {"type": "set_aside", "face": W, "count": 6}), (1, {"type": "stop"})]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    assert redo(client, table, table.host, skip=True).status_code == 200
    assert redo(client, table, table.host).get_json()["redo"] == {"redone": 1, "stopped": None}  # 3 × 5
    shown = host_page(app, table)
    assert 'class="confirm redo-badly"' in shown and "Redo all that still apply" not in shown
    assert redo(client, table, table.host).status_code == 200  # Ana's failed stop, as the host decided
    assert "Redo all that still apply (2)" in host_page(app, table)  # Bruno's turn


def test_rule_6_the_redo_button_says_what_an_entry_does_now_in_twenty_one(app, client):
    """review: Twenty One's log tells the hits an entry made; its redo button did not."""
    table = create(client, "twenty-one", ("Ana", "Bruno"))
    row = state(client, table)["state"]["sheets"][0]["rows"][0]["fields"]
    white = next(field["value"] for field in row if field["color"] == "white")
    dice = {"white": white, "black": 1, "red": 1, "blue": 1, "yellow": 1, "green": 1}  # a hit in Ana's row 1
    assert act(client, table, table.seats[0], {"type": "roll", "dice": dice}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "enter", "colors": ["white"]}).status_code == 200
    assert undo(client, table, table.host).status_code == 200
    assert "Redo: Ana entered white: 1 hit.</button>" in host_page(app, table)


def test_rule_6_every_game_whose_actions_can_end_badly_says_why_redo_of_all_stops():
    from companion.games import GAMES, Game

    for game in GAMES.values():
        if type(game).ends_badly is not Game.ends_badly:
            assert game.redo_ends_badly is not None, game.slug


def test_rule_6_redo_of_all_redoes_a_turn_that_failed_when_it_was_first_entered(client):
    """A stop that failed the turn when first entered is redone by "redo all" like any other
    action: only a failure that going back brought about stops it."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for seat, action in [(0, {"type": "set_aside", "face": 5, "count": 3}), (0, {"type": "stop"}),
                         (1, {"type": "set_aside", "face": W, "count": 5}), (1, {"type": "stop"})]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 4, "stopped": None}
    assert everything["state"]["stacks"] == [[], [25]]


def test_rule_6_redo_of_all_stops_before_a_qwixx_pass_that_would_now_cost_a_penalty(client):
    """Qwixx: Ana, active, crossed 7 in red and passed the colour sum. The host corrects her
    cross to a pass: her colour pass, redone, would now cost her a penalty."""
    table = create(client, "qwixx", ("Ana", "Bruno"))
    dice = {"white1": 3, "white2": 4, "red": 1, "yellow": 1, "green": 1, "blue": 1}
    for seat, action in [(0, {"type": "roll", "dice": dice}), (0, {"type": "white", "row": "red"}),
                         (1, {"type": "white", "row": None}), (0, {"type": "colour", "row": None})]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "white", "row": None}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"]["redone"] == 1 and everything["redo"]["stopped"]["code"] == "redo_ends_badly"
    assert everything["redo"]["stopped"]["error"].startswith("Redoing “Ana passed the colour sum” would now cost Ana a penalty")
    assert [sheet["penalties"] for sheet in everything["state"]["sheets"]] == [0, 0]


def corrected_to_25(client, bruno: list[dict]):
    """Ana's turn was entered as 3 worms and 3 × 3, and her stop took 24 (lines 1-3); then
    Bruno's turn, `bruno`. The host goes back to her 3 × 3 and enters 2 × 5 instead: she
    scored 25. Her stop and Bruno's turn wait to be redone."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    ana = [{"type": "set_aside", "face": W, "count": 3}, {"type": "set_aside", "face": 3, "count": 3}, {"type": "stop"}]
    for seat, action in [(0, action) for action in ana] + [(1, action) for action in bruno]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    assert act(client, table, table.host, {"type": "set_aside", "face": 5, "count": 2}).status_code == 200
    return table


TAKE_NOW_A_STEAL = (
    "Redoing “Bruno stopped — took 25 from the grill” would now be “Bruno stopped — stole 25 from Ana”: what another"
    " player holds changes, and that was Bruno's choice to make. Redo it on its own if that is right, or leave it out."
)


def test_rule_6_redo_of_all_stops_before_a_take_that_would_now_be_a_steal(client):
    """Game night: Ana's last group was entered wrong (24 instead of 25). Going back to it and
    entering it right, "redo all" redid Bruno's plain stop, which had taken 25 from the grill,
    as a steal of Ana's 25, without a word; Bruno had a choice there (steal, or take 24 from
    the grill). It stops before his stop and says what changed. Ana's own stop, which takes 25
    where it took 24, changes nothing for another player: it is redone with the rest."""
    table = corrected_to_25(client, [{"type": "set_aside", "face": W, "count": 5}, {"type": "stop"}])
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 2, "stopped": {"code": "redo_touches_others", "error": TAKE_NOW_A_STEAL}}
    assert everything["state"]["stacks"] == [[25], []] and everything["state"]["turn"]["total"] == 25
    again = redo(client, table, table.host, all=True)  # first in line now: nothing is entered
    assert_error(again, 409, "redo_touches_others")
    assert again.get_json()["error"] == TAKE_NOW_A_STEAL
    alone = redo(client, table, table.host).get_json()  # the host decides: redone alone, it steals
    assert alone["redo"] == {"redone": 1, "stopped": None}
    assert alone["state"]["stacks"] == [[], [25]]


def test_rule_6_redo_of_all_stops_before_a_steal_that_would_now_be_a_take(client):
    """Bruno stole Ana's 24; once her turn is corrected to take 25, his stop would take 24
    from the grill instead: another player's tiles change (Ana keeps hers), so it asks."""
    table = corrected_to_25(client, [{"type": "set_aside", "face": W, "count": 4}, {"type": "set_aside", "face": 2, "count": 2}, {"type": "stop"}])
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"]["redone"] == 3 and everything["redo"]["stopped"]["code"] == "redo_touches_others"
    assert everything["redo"]["stopped"]["error"].startswith(
        "Redoing “Bruno stopped — stole 24 from Ana” would now be “Bruno stopped — took 24 from the grill”"
    )
    assert everything["state"]["stacks"] == [[25], []]


def test_rule_6_redo_of_all_stops_before_a_steal_from_another_player_than_first(client):
    """Caio stole Bruno's 25; with Ana's turn corrected to 25 (she takes it first), Bruno's
    stop takes 26 and Caio's would steal from Ana: the same tile, another player."""
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    for seat, action in [
        (0, {"type": "set_aside", "face": W, "count": 3}), (0, {"type": "set_aside", "face": 3, "count": 3}), (0, {"type": "stop"}),
        (1, {"type": "set_aside", "face": W, "count": 5}), (1, {"type": "stop"}),
        (2, {"type": "set_aside", "face": W, "count": 5}), (2, {"type": "stop"}),
    ]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert state(client, table)["state"]["stacks"] == [[24], [], [25]]
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    assert act(client, table, table.host, {"type": "set_aside", "face": 5, "count": 2}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    # Bruno's stop took 25 from the grill and now steals it from Ana: that is where it stops
    assert everything["redo"]["redone"] == 2 and everything["redo"]["stopped"]["code"] == "redo_touches_others"
    assert "“Bruno stopped — stole 25 from Ana”" in everything["redo"]["stopped"]["error"]


def test_rule_6_redo_of_all_stops_before_a_barbecue_plate_that_would_now_steal_a_spot(client):
    """Heckmeck Barbecue: Ana put her plate on 23, Bruno his on 24. Ana's turn corrected to
    24, his stop would steal her spot: it asks first."""
    table = create(client, "heckmeck-barbecue", ("Ana", "Bruno"))
    for seat, action in [
        (0, {"type": "set_aside", "face": W, "count": 4}), (0, {"type": "set_aside", "face": 3, "count": 1}), (0, {"type": "stop"}),
        (1, {"type": "set_aside", "face": W, "count": 4}), (1, {"type": "set_aside", "face": 4, "count": 1}), (1, {"type": "stop"}),
    ]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    assert act(client, table, table.host, {"type": "set_aside", "face": 4, "count": 1}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"]["redone"] == 3 and everything["redo"]["stopped"]["code"] == "redo_touches_others"
    assert everything["redo"]["stopped"]["error"].startswith(
        "Redoing “Bruno stopped — put a plate on 24 and took 1 worm” would now be “Bruno stopped — stole 1 worm from Ana on 24”"
    )
    spots = {spot["value"]: spot["plates"] for spot in everything["state"]["spots"]}
    assert spots[23] == [] and spots[24] == [0]


def test_rule_6_the_hosts_page_says_why_redo_of_all_stopped_before_a_take_become_a_steal(app, client):
    table = corrected_to_25(client, [{"type": "set_aside", "face": W, "count": 5}, {"type": "stop"}])
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host}}
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', host.get(f"/t/{table.id}").text).group(1)
    version = state(client, table)["version"]
    stopped = host.post(
        f"/t/{table.id}/redo", data={"csrf_token": csrf, "expected_version": str(version), "all": "yes"}, headers={"HX-Request": "true"}
    )
    shown = html.unescape(stopped.text)
    assert stopped.status_code == 200 and TAKE_NOW_A_STEAL in shown
    # what waits says what it does now, for the host to redo alone or leave out
    assert "Redo: Bruno stopped — stole 25 from Ana</button>" in shown


def test_rule_6_while_a_turn_is_entered_again_the_redo_offer_lists_its_taps_as_they_were_entered(app, client):
    """Going back to Ana's first roll to enter her turn again, the host sees what redoing would
    enter of the turn as it was entered, in order; entering a roll anew takes the first one's
    place, and the list goes on from there."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for action in [
        {"type": "roll", "dice": [W, W, 4, 4, 1, 2, 3, 3]}, {"type": "keep", "face": W},
        {"type": "roll", "dice": [4, 4, 5, 5, 1, 1]}, {"type": "keep", "face": 4}, {"type": "stop"},
    ]:
        assert act(client, table, table.seats[0], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    shown = host_page(app, table)
    listed = re.search(r'<div class="turn-as-entered">\s*<p>(.*?)</p>\s*<ol>(.*?)</ol>', shown, re.S)
    assert listed.group(1) == "Ana's turn as it was entered, from here:"
    assert re.findall(r"<li>(.*?)</li>", listed.group(2)) == [
        "rolled worm, worm, 4, 4, 1, 2, 3, 3", "kept the worms", "rolled 4, 4, 5, 5, 1, 1", "kept the 4s", "stopped",
    ]
    assert act(client, table, table.host, {"type": "roll", "dice": [W, W, 4, 4, 1, 1, 3, 3]}).status_code == 200
    listed = re.search(r'<div class="turn-as-entered">.*?<ol>(.*?)</ol>', host_page(app, table), re.S)
    assert re.findall(r"<li>(.*?)</li>", listed.group(1))[0] == "kept the worms"
    # Bruno's turn, or a single tap left of Ana's: nothing to list (the redo button says it)
    assert redo(client, table, table.host, all=True).get_json()["redo"]["redone"] == 4
    assert "turn-as-entered" not in host_page(app, table)


def test_rule_6_a_player_redoes_their_own_action_but_not_someone_elses(client, played):
    assert undo(client, played, played.seats[1]).status_code == 200  # Bruno undoes his stop
    assert redo(client, played, played.seats[0]).status_code == 403
    assert redo(client, played, played.seats[1]).status_code == 200
    assert redo(client, played, None).status_code == 401


def test_rule_6_a_players_redo_of_all_stops_quietly_before_someone_elses_action(client, played):
    """The host went back to Ana's stop: Ana's "redo all" redoes her stop and stops before
    Bruno's turn, with nothing said as if it had gone wrong."""
    assert undo(client, played, played.host, **{"from": 2}).status_code == 200
    everything = redo(client, played, played.seats[0], all=True).get_json()
    assert everything["redo"] == {"redone": 1, "stopped": None}
    assert redo(client, played, played.seats[1], all=True).get_json()["redo"] == {"redone": 3, "stopped": None}


def test_rule_6_the_undo_button_says_whose_action_it_undoes_and_what(app, client, played):
    """Game night, Qwixx: the host, playing Ana, tapped "Undo the last action" to take back
    her own cross, and undid Bruno's pass, entered just after: the button did not say
    whose. It says it now, on the host's phone and on the player's."""
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {played.id: {"host": played.host}}
    for phone in (host, joined(app, played.seats[1])):
        page = html.unescape(phone.get(f"/t/{played.id}").text)
        undo_button = re.search(r'<form class="undo".*?<button class="btn">(.*?)</button>', page, re.S).group(1)
        assert re.sub(r"<[^>]+>", " ", undo_button).split() == "Undo the last action Bruno stopped — took 22 from the grill".split()
    assert '<form class="undo"' not in joined(app, played.seats[0]).get(f"/t/{played.id}").text  # not Ana's to undo


def test_rule_6_undo_and_redo_from_the_page_every_phone_sees_it(app, client, played):
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {played.id: {"host": played.host}}
    page = html.unescape(host.get(f"/t/{played.id}").text)
    assert page.count("Go back to here") == 4  # every line in effect but the last (that is "Undo")
    assert "Undo this line and the 2 after it" in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    back = host.post(
        f"/t/{played.id}/undo", data={"csrf_token": csrf, "expected_version": "5", "from": "3"}, headers={"HX-Request": "true"}
    )
    assert back.status_code == 200
    shown = html.unescape(back.text)
    assert "Redo: Bruno set aside 3 × 4" in shown and "Redo all that still apply (3)" in shown
    assert shown.count("(undone)") == 3
    bruno = joined(app, played.seats[1])
    assert "(undone)" in html.unescape(bruno.get(f"/t/{played.id}").text)  # every phone
    assert "Go back to here" not in bruno.get(f"/t/{played.id}").text  # the host's alone
    again = host.post(
        f"/t/{played.id}/redo", data={"csrf_token": csrf, "expected_version": "6", "all": "yes"}, headers={"HX-Request": "true"}
    )
    assert again.status_code == 200
    assert html.unescape(again.text).count("(entered again)") == 3


def test_rule_6_going_back_from_the_whole_log_stays_on_the_whole_log(app, client):
    """Game night: the host opened the whole log, went back to an old line, and the answer
    showed the newest 12 lines again, its refresh too: the next old line was out of reach."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for turn in range(20):  # 40 lines: 35 taken, then stolen back and forth
        for action in ({"type": "set_aside", "face": W, "count": 7}, {"type": "stop"}):
            assert act(client, table, table.seats[turn % 2], action).status_code == 200
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host}}
    address = f"http://localhost/t/{table.id}?log=all"
    page = host.get(address).text
    assert page.count("data-seq=") == 40
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)

    def go_back(line: int, version: int, page_address: str | None):
        headers = {"HX-Request": "true", **({"HX-Current-URL": page_address} if page_address else {})}
        data = {"csrf_token": csrf, "expected_version": str(version), "from": str(line)}
        return host.post(f"/t/{table.id}/undo", data=data, headers=headers).text

    answer = go_back(39, 40, address)
    assert answer.count("data-seq=") == 40 and "log=all" in re.search(r'hx-get="([^"]+)"', answer).group(1)
    # a page showing the newest lines: back to the 12th in effect, line 25 (37 to 40 undone)
    assert go_back(37, 41, f"http://localhost/t/{table.id}").count("data-seq=") == 16
    assert go_back(35, 42, "http://[").count("data-seq=") == 18  # no address: the newest lines


def test_rule_6_after_going_back_the_newest_lines_still_show_twelve_lines_in_effect(app, client):
    """Game night: after the host went back a few times, most of the newest 12 lines were
    undone ones, and the lines still in effect, the ones to go back to, were out of sight
    but for "Show the whole log". The newest lines now reach back to the 12th in effect,
    at most 48 lines in all."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for turn in range(30):  # 60 lines
        for action in ({"type": "set_aside", "face": W, "count": 7}, {"type": "stop"}):
            assert act(client, table, table.seats[turn % 2], action).status_code == 200
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host}}
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', host.get(f"/t/{table.id}").text).group(1)
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://localhost/t/{table.id}"}

    def newest_lines_after_going_back_to(line: int, version: int) -> list[str]:
        data = {"csrf_token": csrf, "expected_version": str(version), "from": str(line)}
        page = host.post(f"/t/{table.id}/undo", data=data, headers=headers).text
        return re.findall(r'<li class="(undone)?" data-seat="\d+" data-seq="(\d+)"', page)

    lines = newest_lines_after_going_back_to(51, 60)  # 51 to 60 undone
    assert [int(seq) for _, seq in lines] == list(range(60, 38, -1))  # back to line 39, the 12th in effect
    assert sum(1 for undone, _ in lines if not undone) == 12
    lines = newest_lines_after_going_back_to(21, 61)  # 21 to 50 undone too: 40 undone lines
    assert [int(seq) for _, seq in lines] == list(range(60, 12, -1))  # 48 at most: 8 of the 12 in effect
    ana = joined(app, table.seats[0]).get(f"/t/{table.id}").text  # every phone's newest lines alike
    assert ana.count("data-seq=") == 48 and "Show the whole log" in ana
    assert host.get(f"/t/{table.id}?log=all").text.count("data-seq=") == 60  # the rest one tap away


@pytest.fixture
def three_turns(client):
    """Ana stops on 23 (lines 1-3); Bruno's turn is entered as 2 worms, 3 × 5 and a stop on
    25 (lines 4-6); Caio sets aside 4 worms and 2 × 3 and stops on 26 (lines 7-9)."""
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    for seat, action in [
        (0, {"type": "set_aside", "face": W, "count": 3}), (0, {"type": "set_aside", "face": 4, "count": 2}), (0, {"type": "stop"}),
        (1, {"type": "set_aside", "face": W, "count": 2}), (1, {"type": "set_aside", "face": 5, "count": 3}), (1, {"type": "stop"}),
        (2, {"type": "set_aside", "face": W, "count": 4}), (2, {"type": "set_aside", "face": 3, "count": 2}), (2, {"type": "stop"}),
    ]:
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert state(client, table)["state"]["stacks"] == [[23], [25], [26]]
    return table


def test_rule_6_a_turn_entered_again_with_more_taps_replaces_the_whole_wrong_turn(client, three_turns):
    """Bruno really set aside 2 × 5 and 1 × 4 (three taps where the wrong turn had two
    left): his new turn replaces all of the wrong one, and Caio's turn is redone as it was."""
    assert undo(client, three_turns, three_turns.host, **{"from": 5}).status_code == 200
    for action in [{"type": "set_aside", "face": 5, "count": 2}, {"type": "set_aside", "face": 4, "count": 1}, {"type": "stop"}]:
        assert act(client, three_turns, three_turns.seats[1], action).status_code == 200
    everything = redo(client, three_turns, three_turns.host, all=True).get_json()
    assert everything["redo"] == {"redone": 3, "stopped": None}
    assert everything["state"]["stacks"] == [[23], [24], [26]]
    assert [event["redo_of"] for event in log(client, three_turns)[-3:]] == [7, 8, 9]


def test_rule_6_a_turn_entered_again_with_fewer_taps_leaves_nothing_of_the_wrong_one_to_redo(client, three_turns):
    """Bruno really set aside 5 worms and stopped: the rest of the wrong turn (3 × 5 and its
    stop) is not offered again, and Caio's turn is."""
    assert undo(client, three_turns, three_turns.host, **{"from": 4}).status_code == 200
    assert act(client, three_turns, three_turns.seats[1], {"type": "set_aside", "face": W, "count": 5}).status_code == 200
    assert act(client, three_turns, three_turns.seats[1], {"type": "stop"}).status_code == 200
    everything = redo(client, three_turns, three_turns.host, all=True).get_json()
    assert everything["redo"] == {"redone": 3, "stopped": None}
    assert everything["state"]["stacks"] == [[23], [25], [26]]


def test_rule_6_a_turn_that_fails_after_going_back_drops_the_rest_of_the_wrong_turn(client, three_turns):
    """Going back to Bruno's 3 × 5, the host enters his failed turn instead: what was left
    of his wrong turn goes, even before anyone acts again."""
    assert undo(client, three_turns, three_turns.host, **{"from": 5}).status_code == 200
    assert act(client, three_turns, three_turns.seats[1], {"type": "bust"}).status_code == 200
    everything = redo(client, three_turns, three_turns.host, all=True).get_json()
    assert everything["redo"] == {"redone": 3, "stopped": None}
    assert everything["state"]["stacks"] == [[23], [], [26]]


def test_rule_6_where_players_write_at_once_an_entry_replaces_that_players_undone_entry(client):
    """Twenty One: the host goes back to Ana's first entry; Caio happens to write first, and
    his new entry replaces his own undone one, not Ana's."""
    ones = dict.fromkeys(("white", "black", "red", "blue", "yellow", "green"), 1)
    table = create(client, "twenty-one", ("Ana", "Bruno", "Caio"))
    for colour in ("white", "black"):
        assert act(client, table, table.host, {"type": "roll", "dice": ones}).status_code == 200
        assert act(client, table, table.seats[0], {"type": "enter", "colors": [colour]}).status_code == 200
        for seat in (1, 2):
            assert act(client, table, table.seats[seat], {"type": "cross"}).status_code == 200
    final = state(client, table)["state"]
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    assert act(client, table, table.seats[2], {"type": "cross"}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 6, "stopped": None}
    assert everything["state"] == final


def test_rule_6_going_back_again_after_a_corrected_turn_leaves_nothing_of_the_wrong_turn(client, three_turns):
    """Bruno's turn is corrected to a failure, then the host goes back further, to Ana's
    turn: what was left of Bruno's wrong turn is not offered again, Caio's turn is."""
    assert undo(client, three_turns, three_turns.host, **{"from": 5}).status_code == 200
    assert act(client, three_turns, three_turns.seats[1], {"type": "bust"}).status_code == 200
    assert undo(client, three_turns, three_turns.host, **{"from": 1}).status_code == 200
    everything = redo(client, three_turns, three_turns.host, all=True).get_json()
    assert everything["redo"] == {"redone": 8, "stopped": None}
    assert everything["state"]["stacks"] == [[23], [], [26]]


def test_rule_6_where_players_write_at_once_an_added_action_takes_no_later_rounds_place(client):
    """Twenty One: after going back to Ana's first entry, the host enters the re-roll that
    was forgotten, and Ana writes again: her entry of the next round is still redone."""
    others = ("black", "red", "blue", "yellow", "green")
    table = create(client, "twenty-one", ("Ana", "Bruno", "Caio"))
    for dice, colour in [({"white": 1, **dict.fromkeys(others, 3)}, "white"), (dict.fromkeys(("white", *others), 1), "black")]:
        assert act(client, table, table.host, {"type": "roll", "dice": dice}).status_code == 200
        assert act(client, table, table.seats[0], {"type": "enter", "colors": [colour]}).status_code == 200
        for seat in (1, 2):
            assert act(client, table, table.seats[seat], {"type": "cross"}).status_code == 200
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    assert act(client, table, table.host, {"type": "reroll", "dice": {"white": 1, **dict.fromkeys(others, 2)}}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "enter", "colors": ["white"]}).status_code == 200
    for seat in (1, 2):
        assert act(client, table, table.seats[seat], {"type": "cross"}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 4, "stopped": None}  # round 2: the roll, Ana's entry, two crosses
    assert [event["redo_of"] for event in log(client, table)[-4:]] == [5, 6, 7, 8]


def test_rule_6_a_redone_action_that_ends_the_corrected_turn_drops_the_rest_of_the_wrong_one(client, three_turns):
    """Bruno's first group was 5 worms, not 2: with it, the redone 3 × 5 uses his last dice
    and ends his turn by itself; his wrong turn's stop is not offered again, Caio's turn is."""
    assert undo(client, three_turns, three_turns.host, **{"from": 4}).status_code == 200
    assert act(client, three_turns, three_turns.seats[1], {"type": "set_aside", "face": W, "count": 5}).status_code == 200
    everything = redo(client, three_turns, three_turns.host, all=True).get_json()
    assert everything["redo"] == {"redone": 4, "stopped": None}  # 3 × 5, then Caio's three lines
    assert everything["state"]["stacks"] == [[23], [36], [26]]


def test_rule_6_a_corrected_roll_and_the_writes_on_it_as_the_phones_sent_them_are_redone(client):
    """Found at a real table (Twenty One): the phones send with every entry the roll and row
    their page showed, so that a tap from an older page is refused. After the host went back
    to a wrong roll and entered it right, every entry of that round was refused on redo
    ("The dice changed after your page showed them"), so each player had to write
    again by hand. A redo enters them on the roll now; what no longer fits is refused."""
    wrong = {"white": 1, "black": 2, "red": 6, "blue": 4, "yellow": 5, "green": 3}
    right = {**wrong, "red": 5}
    table = create(client, "twenty-one", ("Ana", "Bruno", "Caio"), {"sheets": ["A", "B", "C"]})
    assert act(client, table, table.seats[0], {"type": "roll", "dice": wrong}).status_code == 200
    for seat, kind, colors in [(0, "enter", ["white"]), (1, "cross", None), (2, "enter", ["white"])]:
        action = {"type": kind, "row": 0, "roll": wrong, **({"colors": colors} if colors else {})}
        assert act(client, table, table.seats[seat], action).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "roll", "dice": right}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 3, "stopped": None}
    # the same as a table where the roll was entered right the first time
    fresh = create(client, "twenty-one", ("Ana", "Bruno", "Caio"), {"sheets": ["A", "B", "C"]})
    assert act(client, fresh, fresh.seats[0], {"type": "roll", "dice": right}).status_code == 200
    for seat, kind, colors in [(0, "enter", ["white"]), (1, "cross", None), (2, "enter", ["white"])]:
        assert act(client, fresh, fresh.seats[seat], {"type": kind, **({"colors": colors} if colors else {})}).status_code == 200
    assert everything["state"] == state(client, fresh)["state"]
    # the redone entries are stored as they applied, so the log replays to the same table
    assert [event["action"].get("roll") for event in log(client, table)[-3:]] == [None, None, None]
    assert undo(client, table, table.seats[2]).status_code == 200
    assert redo(client, table, table.seats[2]).get_json()["state"] == everything["state"]


@pytest.fixture
def stray_tap(client):
    """Ana's turn was entered with a tap too many in front (1 × 3, line 1), then 5 worms and
    a stop that took 28 (lines 2-3). Without the stray tap she would have taken 25."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    for action in [{"type": "set_aside", "face": 3, "count": 1}, {"type": "set_aside", "face": W, "count": 5}, {"type": "stop"}]:
        assert act(client, table, table.seats[0], action).status_code == 200
    assert state(client, table)["state"]["stacks"] == [[28], []]
    return table


def test_rule_6_an_undone_action_left_out_is_not_redone_and_the_rest_is(client, stray_tap):
    assert undo(client, stray_tap, stray_tap.host, **{"from": 1}).status_code == 200
    before = state(client, stray_tap)
    response = redo(client, stray_tap, stray_tap.host, skip=True, expected_version=before["version"])
    assert response.status_code == 200
    skipped = response.get_json()
    assert skipped["redo"] == {"redone": 0, "stopped": None, "skipped": 1}
    assert skipped["version"] == before["version"] + 1  # every phone refreshes its redo offer
    assert skipped["state"] == before["state"]  # nothing entered
    assert [(event["seq"], event["undone"], event["skipped_version"]) for event in log(client, stray_tap)] == [
        (1, True, 5), (2, True, None), (3, True, None)
    ]
    everything = redo(client, stray_tap, stray_tap.host, all=True).get_json()
    assert everything["redo"] == {"redone": 2, "stopped": None}
    assert everything["state"]["stacks"] == [[25], []]
    nothing = redo(client, stray_tap, stray_tap.host, skip=True)
    assert (nothing.status_code, nothing.get_json()["code"]) == (409, "nothing_to_redo")


def test_rule_6_a_tap_for_the_wrong_player_is_left_out_and_the_rest_is_redone(client):
    """Lobo: the host tapped "leaves" for Ana when Bruno left, then Caio left. Going back
    and entering Bruno's leave leaves Ana's wrong one in front of the offer ("redo all"
    would make her leave); left out, Caio's leave is redone and Bruno's bonus is the 6."""
    table = create(client, "lobo", ("Ana", "Bruno", "Caio"), {"deal_colors": True})
    assert act(client, table, table.host, {"type": "abandon", "seat": 0}).status_code == 200
    assert act(client, table, table.host, {"type": "abandon", "seat": 2}).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    assert act(client, table, table.host, {"type": "abandon", "seat": 1}).status_code == 200
    first = redo(client, table, table.host, skip=True).get_json()
    assert first["redo"]["skipped"] == 1
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 1, "stopped": None}
    seats = everything["state"]["seats"]
    assert [(seat["left"], seat["bonus"]) for seat in seats] == [(None, 0), (1, 6), (2, 3)]


def lobo_table(client):
    return create(client, "lobo", ("Ana", "Bruno", "Caio", "Dora"), {"deal_colors": True})


def caio_took_back_his_leave(client):
    """Lobo: Bruno left, then Caio, who took his leave back himself (his own undo)."""
    table = lobo_table(client)
    assert act(client, table, table.seats[1], {"type": "abandon"}).status_code == 200
    assert act(client, table, table.seats[2], {"type": "abandon"}).status_code == 200
    assert undo(client, table, table.seats[2]).status_code == 200
    return table


def leaves(table) -> list[tuple]:
    return [(seat["left"], seat["bonus"]) for seat in table["state"]["seats"]]


def test_rule_6_a_player_who_took_back_their_own_action_may_redo_it_at_once(client):
    table = lobo_table(client)
    assert act(client, table, table.seats[2], {"type": "abandon"}).status_code == 200
    assert undo(client, table, table.seats[2]).status_code == 200
    redone = redo(client, table, table.seats[2]).get_json()
    assert redone["redo"] == {"redone": 1, "stopped": None}
    assert leaves(redone)[2] == (1, 6)


def test_rule_6_an_action_its_player_took_back_is_no_longer_offered_once_the_table_moved_on(client):
    """Lobo: Caio leaves, takes it back, and Dora leaves: Caio's phone offers no "Redo:
    Caio left" for the rest of the game (one tap on it would make him leave), and the
    host's going back later never redoes it either: "redo all" brings back what the host
    undid, Bruno's and Dora's leaves, not Caio's."""
    table = caio_took_back_his_leave(client)
    assert act(client, table, table.seats[3], {"type": "abandon"}).status_code == 200
    assert_error(redo(client, table, table.seats[2]), 409, "nothing_to_redo")
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 2, "stopped": None}
    assert leaves(everything) == [(None, 0), (1, 6), (None, 0), (2, 3)]
    assert_error(redo(client, table, table.host), 409, "nothing_to_redo")


def test_rule_6_the_hosts_going_back_right_after_a_player_took_back_an_action_does_not_redo_it(client):
    table = caio_took_back_his_leave(client)
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 1, "stopped": None}
    assert leaves(everything) == [(None, 0), (1, 6), (None, 0), (None, 0)]


def test_rule_6_an_action_taken_back_then_redone_is_the_hosts_to_redo_once_the_host_undoes_it(client):
    """review: Caio takes back his leave and redoes it; the host goes back to Bruno's leave,
    redoes it, and undoes it again: "redo all" brings back both leaves, Caio's included
    (it was in effect when the host undid it), and so after Dora leaves in between."""
    table = caio_took_back_his_leave(client)
    assert redo(client, table, table.seats[2]).status_code == 200
    assert undo(client, table, table.host, **{"from": 1}).status_code == 200
    assert redo(client, table, table.host).status_code == 200
    assert undo(client, table, table.host).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 2, "stopped": None}
    assert leaves(everything) == [(None, 0), (1, 6), (2, 3), (None, 0)]
    assert undo(client, table, table.host).status_code == 200  # Caio's leave, undone by the host
    assert act(client, table, table.seats[3], {"type": "abandon"}).status_code == 200
    assert redo(client, table, table.host).get_json()["redo"] == {"redone": 1, "stopped": None}


def test_rule_6_a_host_who_plays_a_seat_takes_back_their_own_action_as_any_player(app, client):
    """review: the host's phone that holds a seat too undid its own leave as "the host going
    back", so it stayed on offer with a later bonus after others left."""
    from companion.web.database import get_db

    table = lobo_table(client)
    assert act(client, table, table.seats[0], {"type": "abandon"}).status_code == 200
    host_playing_ana = service.Viewer(seat=0, host=True)
    with app.app_context():
        undo_redo.undo(get_db(), table.id, host_playing_ana)
    assert act(client, table, table.seats[3], {"type": "abandon"}).status_code == 200
    with app.app_context():
        db = get_db()
        assert undo_redo.redo_offer(db, service.load(db, table.id), host_playing_ana) == []
    assert log(client, table)[0]["undone_by_seat"] == 0


def test_rule_6_where_players_write_at_once_a_cross_taken_back_is_not_redone_once_another_wrote(client):
    """Twenty One: Bruno takes back his cross and Caio writes: Bruno writes again himself;
    the host going back to the roll redoes Ana's entry and Caio's cross, not Bruno's."""
    ones = dict.fromkeys(("white", "black", "red", "blue", "yellow", "green"), 1)
    table = create(client, "twenty-one", ("Ana", "Bruno", "Caio"))
    assert act(client, table, table.host, {"type": "roll", "dice": ones}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "enter", "colors": ["white"]}).status_code == 200
    assert act(client, table, table.seats[1], {"type": "cross"}).status_code == 200
    assert undo(client, table, table.seats[1]).status_code == 200
    assert act(client, table, table.seats[2], {"type": "cross"}).status_code == 200
    assert_error(redo(client, table, table.seats[1]), 409, "nothing_to_redo")
    assert undo(client, table, table.host, **{"from": 2}).status_code == 200
    everything = redo(client, table, table.host, all=True).get_json()
    assert everything["redo"] == {"redone": 2, "stopped": None}
    assert everything["state"]["waiting_for"] == [1]


def test_rule_6_a_redo_out_of_turn_says_whose_line_cannot_come_yet_not_you(client):
    """Twenty One: Bruno's cross is left out, so round 1 is not over and his roll of round 2
    cannot be redone yet. The rules' own sentence ("Ana rolls the dice this round, not
    you") would speak to the host redoing it as if they were Bruno."""
    ones = dict.fromkeys(("white", "black", "red", "blue", "yellow", "green"), 1)
    table = create(client, "twenty-one", ("Ana", "Bruno"))
    assert act(client, table, table.seats[0], {"type": "roll", "dice": ones}).status_code == 200
    assert act(client, table, table.seats[0], {"type": "cross"}).status_code == 200
    assert act(client, table, table.seats[1], {"type": "cross"}).status_code == 200
    assert act(client, table, table.seats[1], {"type": "roll", "dice": ones}).status_code == 200
    assert undo(client, table, table.host, **{"from": 3}).status_code == 200
    assert redo(client, table, table.host, skip=True).status_code == 200
    refused = redo(client, table, table.host)
    assert_error(refused, 403, "not_your_turn")
    assert refused.get_json()["error"] == (
        "“Bruno rolled white 1, black 1, red 1, blue 1, yellow 1 and green 1.” cannot be redone now: it is not Bruno's turn."
    )


def test_rule_6_an_undo_or_redo_from_a_page_shown_before_a_change_says_nothing_was_undone_or_redone(client, played):
    version = state(client, played)["version"]
    assert act(client, played, played.seats[0], {"type": "set_aside", "face": W, "count": 1}).status_code == 200
    for refused in (undo(client, played, played.host, expected_version=version), redo(client, played, played.host, expected_version=version)):
        assert_error(refused, 409, "stale_version")
        assert refused.get_json()["error"] == (
            "The table has moved on since your page was loaded: nothing was undone or redone. This is the table as it is now."
        )
    skipped = redo(client, played, played.host, expected_version=version, skip=True)
    assert_error(skipped, 409, "stale_version")
    assert skipped.get_json()["error"] == (
        "The table has moved on since your page was loaded: nothing was left out. This is the table as it is now."
    )


def test_rule_6_only_the_host_or_the_player_leaves_out_their_undone_action(client, stray_tap):
    assert undo(client, stray_tap, stray_tap.host, **{"from": 1}).status_code == 200
    before = state(client, stray_tap)
    refused = redo(client, stray_tap, stray_tap.seats[1], skip=True)
    assert (refused.status_code, refused.get_json()["code"]) == (403, "not_your_action")
    assert refused.get_json()["error"] == "Only Ana or the host can skip Ana's action."
    assert redo(client, stray_tap, None, skip=True).status_code == 401
    for body in [{"skip": "yes"}, {"skip": 1}, {"skip": True, "all": True}]:
        wrong = redo(client, stray_tap, stray_tap.host, **body)
        assert (wrong.status_code, wrong.get_json()["code"]) == (400, "malformed_request")
    stale = redo(client, stray_tap, stray_tap.host, skip=True, expected_version=before["version"] - 1)
    assert (stale.status_code, stale.get_json()["code"]) == (409, "stale_version")
    assert state(client, stray_tap) == before and all(event["skipped_version"] is None for event in log(client, stray_tap))
    assert redo(client, stray_tap, stray_tap.seats[0], skip=True).status_code == 200  # Ana, her own


def test_rule_6_the_host_leaves_out_an_undone_action_from_the_page_and_every_phone_sees_it(app, client, stray_tap):
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {stray_tap.id: {"host": stray_tap.host}}
    page = host.get(f"/t/{stray_tap.id}").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    back = host.post(
        f"/t/{stray_tap.id}/undo", data={"csrf_token": csrf, "expected_version": "3", "from": "1"}, headers={"HX-Request": "true"}
    )
    shown = html.unescape(back.text)
    assert "Redo: Ana set aside 1 × 3" in shown and "Leave out: Ana set aside 1 × 3" in shown
    left_out = host.post(
        f"/t/{stray_tap.id}/redo", data={"csrf_token": csrf, "expected_version": "4", "skip": "yes"}, headers={"HX-Request": "true"}
    )
    assert left_out.status_code == 200
    shown = html.unescape(left_out.text)
    assert "Redo: Ana set aside 5 × worm" in shown and "Redo all that still apply (2)" in shown
    assert "<strong>Ana</strong> set aside 1 × 3 <small>(undone, not to be redone)</small>" in shown
    bruno = html.unescape(joined(app, stray_tap.seats[1]).get(f"/t/{stray_tap.id}").text)
    assert "(undone, not to be redone)" in bruno and "Leave out" not in bruno  # a player sees the log, not the host's offer


@pytest.mark.parametrize(
    "path, body",
    [
        pytest.param("undo", {"form": 1}, id="undo_from_misspelt"),  # would undo the last action only
        pytest.param("undo", {"expected_versoin": 0}, id="undo_expected_version_misspelt"),  # would skip the check
        pytest.param("redo", {"al": True}, id="redo_all_misspelt"),  # would redo just one
    ],
)
def test_rule_6_a_misspelt_field_of_undo_or_redo_is_refused_and_changes_nothing(client, played, path, body):
    assert undo(client, played, played.host, **{"from": 3}).status_code == 200  # something to redo
    before, lines = state(client, played), log(client, played)
    response = client.post(f"/api/tables/{played.id}/{path}", json=body, headers=bearer(played.host))
    assert (response.status_code, response.get_json()["code"]) == (400, "malformed_request")
    assert response.get_json()["error"] == f"This request has no field called {next(iter(body))}."
    assert (state(client, played), log(client, played)) == (before, lines)


def test_rule_6_a_tap_from_a_page_shown_before_a_skip_is_taken_as_the_skip_changed_nothing(client):
    """A page is out of date only when what changed matters to its tap: leaving an undone
    action out changes nothing on the table, so a tap from before it is taken (Lobo)."""
    table = create(client, "lobo", ("Ana", "Bruno", "Caio"), {"deal_colors": True})
    assert act(client, table, table.seats[0], {"type": "reveal"}).status_code == 200
    assert undo(client, table, table.seats[0]).status_code == 200
    shown = state(client, table)["version"]  # Bruno's page
    assert redo(client, table, table.seats[0], skip=True).status_code == 200
    late = client.post(
        f"/api/tables/{table.id}/actions", json={"type": "reveal", "expected_version": shown}, headers=bearer(table.seats[1])
    )
    assert late.status_code == 200, late.get_json()
    assert undo(client, table, table.seats[1]).status_code == 200  # an undo since still makes a page stale
    stale = client.post(
        f"/api/tables/{table.id}/actions", json={"type": "reveal", "expected_version": shown}, headers=bearer(table.seats[2])
    )
    assert (stale.status_code, stale.get_json()["code"]) == (409, "stale_version")


def test_rule_6_what_could_be_redone_before_a_skip_still_counts_the_line_left_out(app, client, stray_tap):
    assert undo(client, stray_tap, stray_tap.host, **{"from": 1}).status_code == 200
    before = state(client, stray_tap)["version"]
    assert redo(client, stray_tap, stray_tap.host, skip=True).status_code == 200
    db = connect(app.config["DATABASE"])
    try:
        table = service.load(db, stray_tap.id)
        assert [event["seq"] for event in undo_redo.redoable(db, table, as_of=before)] == [1, 2, 3]
        assert [event["seq"] for event in undo_redo.redoable(db, table)] == [2, 3]
    finally:
        db.close()


def test_rule_6_a_line_entered_again_then_undone_and_left_out_is_marked_on_every_copy(client, stray_tap):
    assert undo(client, stray_tap, stray_tap.host, **{"from": 1}).status_code == 200
    assert redo(client, stray_tap, stray_tap.host).status_code == 200  # line 5 enters line 1 again
    assert undo(client, stray_tap, stray_tap.host).status_code == 200
    assert redo(client, stray_tap, stray_tap.host, skip=True).get_json()["redo"]["skipped"] == 1
    marked = [(event["seq"], event["redo_of"]) for event in log(client, stray_tap) if event["skipped_version"] is not None]
    assert marked == [(1, None), (5, 1)]


@pytest.mark.parametrize("seed", range(6))
def test_rule_6_what_can_be_redone_is_the_same_with_every_state_forgotten(app, client, seed):
    """A long Pickomino game with random corrections (go back, redo one or all, enter
    anew): the seat in turn before each undo, found in one replay of the log, is the one a
    replay up to that version gives, and the redo offer and the log's lines worked out
    with nothing kept in memory (a restarted server, the other process) are those told as
    the game went."""
    rng = random.Random(seed)
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    for _ in range(160):
        dice = rng.random()
        if dice < 0.08:
            lines = [event["seq"] for event in log(client, table) if not event["undone"]]
            if lines:
                undo(client, table, table.host, **{"from": rng.choice(lines[-12:])})
        elif dice < 0.16:
            everything = rng.random() < 0.5
            redone = redo(client, table, table.host, all=everything)
            if everything and redone.status_code == 200 and redone.get_json()["redo"]["stopped"] is None:
                # the redo worked out what was left as it went: all of it was redone
                with closing(connect(app.config["DATABASE"])) as db:
                    assert undo_redo.redoable(db, service.load(db, table.id)) == []
        else:
            turn = state(client, table)["state"]["turn"]
            if turn is None:
                break
            act(client, table, table.host, next_action(turn, rng))
    db = connect(app.config["DATABASE"])
    try:
        loaded = service.load(db, table.id)
        game = loaded.game
        seats = corrections.seats_in_turn_before_undos(loaded.game, loaded.start(), db.events(table.id))
        assert seats, "the game had no undo"
        for version, seat in seats.items():
            assert seat == game.current_seat(service.replay(db, game, loaded.row, loaded.names, version)), version
        offer = [event["seq"] for event in undo_redo.redoable(db, loaded)]
        told = [entry["line"] for entry in log_lines.log(db, loaded)]
        db.snapshots = snapshots.RecentlyUsed(0)  # nothing kept: every state found anew
        db.outcomes = snapshots.RecentlyUsed(0)
        assert [event["seq"] for event in undo_redo.redoable(db, loaded)] == offer
        # and the log tells what each undone line did, found in one walk through the history
        assert [entry["line"] for entry in log_lines.log(db, loaded)] == told
    finally:
        db.close()


def next_action(turn: dict, rng: random.Random) -> dict:
    """A Pickomino action for the turn in front (the rules may still refuse it)."""
    if turn["roll"] is not None:
        kept = {entry["face"] for entry in turn["kept"]}
        return {"type": "keep", "face": rng.choice([face for face in turn["roll"] if face not in kept] or [1])}
    if turn["kept"] and (turn["total"] >= 25 or rng.random() < 0.2):
        return {"type": "stop"}
    return {"type": "roll", "dice": [rng.choice([1, 2, 3, 4, 5, "worm"]) for _ in range(turn["dice_left"])]}

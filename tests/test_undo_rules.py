"""docs/rules.md (corrections), corrections at the table, through the service layer (event log and replay)."""

from __future__ import annotations

import pytest

from companion.tables import log_lines, service, undo_redo
from companion.web.database import get_db
from companion.web import views
from databases import on_both_databases

# The service and the store under it, on SQLite and on PostgreSQL alike.
database = on_both_databases()

W = "worm"


@pytest.fixture
def db(app):
    with app.app_context():
        yield get_db()


@pytest.fixture
def table(db):
    """A Pickomino table for Ana, Bruno and Caio, with a viewer per seat and the host."""
    created = service.create_table(db, "pickomino", ["Ana", "Bruno", "Caio"], {})
    table_id = created.table.id
    seats = [service.identify(db, table_id, token) for token in created.seat_tokens]
    host = service.identify(db, table_id, created.host_token)
    return Seats(db, table_id, seats, host)


class Seats:
    def __init__(self, db, table_id, seats, host):
        self.db = db
        self.id = table_id
        self.seats = seats
        self.host = host

    def act(self, viewer, action):
        return service.act(self.db, self.id, viewer, action)

    def undo(self, viewer):
        return undo_redo.undo(self.db, self.id, viewer)

    def load(self):
        return service.load(self.db, self.id)

    def events(self):
        return log_lines.log(self.db, self.load(), self.host)

    def refused_undo(self, viewer, status, code):
        before = self.load()
        events_before = self.events()
        with pytest.raises(service.ServiceError) as caught:
            self.undo(viewer)
        assert (caught.value.status, caught.value.code) == (status, code)
        after = self.load()
        assert (after.version, after.state) == (before.version, before.state)
        assert self.events() == events_before
        return str(caught.value)


def test_rule_6_host_undoes_the_last_action_of_any_seat(table):
    table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 3})
    before = table.load().state
    table.act(table.seats[0], {"type": "set_aside", "face": 4, "count": 3})
    undone = table.undo(table.host)
    assert undone.state == before
    assert undone.state["turn"]["kept"] == [{"face": W, "count": 3}]


def test_rule_6_player_undoes_their_own_last_action(table):
    start = table.load().state
    table.act(table.seats[0], {"type": "roll", "dice": [W, W, 1, 2, 3, 3, 4, 4]})
    assert table.undo(table.seats[0]).state == start


def test_rule_6_player_undoes_again_while_their_action_is_the_last_in_effect(table):
    start = table.load().state
    table.act(table.seats[0], {"type": "roll", "dice": [W, W, 1, 2, 3, 3, 4, 4]})
    table.act(table.seats[0], {"type": "keep", "face": W})
    table.undo(table.seats[0])
    assert table.undo(table.seats[0]).state == start


def test_rule_6_undo_by_a_player_who_did_not_make_the_last_action_is_refused(table):
    table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 5})
    table.act(table.seats[0], {"type": "stop"})
    table.act(table.seats[1], {"type": "set_aside", "face": 1, "count": 1})
    table.act(table.seats[1], {"type": "bust"})
    for other in (0, 2):
        message = table.refused_undo(table.seats[other], 403, "not_your_action")
        assert message == "Only Bruno or the host can undo the last action."


def test_rule_6_undo_without_a_seat_or_host_is_refused(table):
    table.act(table.seats[0], {"type": "set_aside", "face": 1, "count": 1})
    table.refused_undo(service.ANONYMOUS, 401, "no_token")


def test_rule_6_nothing_to_undo_at_the_start(table):
    assert table.refused_undo(table.host, 409, "nothing_to_undo") == "There is nothing to undo."


def test_rule_6_nothing_to_undo_once_every_action_is_undone(table):
    table.act(table.seats[0], {"type": "set_aside", "face": 1, "count": 1})
    table.undo(table.seats[0])
    table.refused_undo(table.seats[0], 409, "nothing_to_undo")


def test_rule_6_undo_puts_back_a_tile_taken(table):
    table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 5})
    table.act(table.seats[0], {"type": "stop"})
    assert table.load().state["stacks"][0] == [25]
    state = table.undo(table.seats[0]).state
    assert state["stacks"][0] == []
    assert 25 in [tile["value"] for tile in state["grill"] if tile["face_up"]]
    assert state["turn"]["seat"] == 0 and state["turn"]["kept"] == [{"face": W, "count": 5}]


def test_rule_6_undo_of_a_failed_turn_brings_back_the_tile_turned_over(table):
    table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 5})
    table.act(table.seats[0], {"type": "stop"})
    before = table.load().state
    table.act(table.seats[1], {"type": "set_aside", "face": W, "count": 5})
    table.act(table.seats[1], {"type": "stop"})  # 25 is Ana's top tile: Bruno steals it
    table.act(table.seats[2], {"type": "set_aside", "face": 5, "count": 8})  # no worm
    for seat in (0, 1):  # Ana has nothing to give back; Bruno gives 25 back and 36 is turned over
        table.act(table.seats[seat], {"type": "set_aside", "face": 1, "count": 1})
        table.act(table.seats[seat], {"type": "bust"})
    assert [tile["value"] for tile in table.load().state["grill"] if not tile["face_up"]] == [36]
    for _ in range(7):
        table.undo(table.host)
    assert table.load().state == before


def test_rule_6_the_log_keeps_what_was_undone(table):
    table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 2})
    table.act(table.seats[0], {"type": "set_aside", "face": 4, "count": 2})
    table.undo(table.seats[0])
    table.act(table.seats[0], {"type": "set_aside", "face": 3, "count": 2})
    events = table.events()
    assert [(event["action"]["face"], event["undone"]) for event in events] == [(W, False), (4, True), (3, False)]
    assert [event["seq"] for event in events] == sorted(event["seq"] for event in events)
    assert events[1]["undone_at"] is not None
    assert table.load().state["turn"]["kept"] == [{"face": W, "count": 2}, {"face": 3, "count": 2}]


def test_rule_6_version_grows_with_every_action_and_every_undo(table):
    versions = [table.load().version]
    versions.append(table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 2}).version)
    versions.append(table.undo(table.host).version)
    versions.append(table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 2}).version)
    versions.append(table.undo(table.seats[0]).version)
    assert versions == [0, 1, 2, 3, 4]
    assert table.load().version == 4


def test_rule_6_undo_at_the_end_of_the_game_reopens_it(db):
    created = service.create_table(db, "pickomino", ["Ana", "Bruno"], {"flip_when_empty": True})
    table_id = created.table.id
    host = service.identify(db, table_id, created.host_token)
    for _ in range(15):  # every failed turn turns the highest tile over, down to 21
        service.act(db, table_id, host, {"type": "set_aside", "face": 1, "count": 1})
        service.act(db, table_id, host, {"type": "bust"})
    assert [tile["value"] for tile in service.load(db, table_id).state["grill"] if tile["face_up"]] == [21]
    service.act(db, table_id, host, {"type": "set_aside", "face": W, "count": 1})
    service.act(db, table_id, host, {"type": "set_aside", "face": 4, "count": 4})
    finished = service.act(db, table_id, host, {"type": "stop"})
    assert views.table_view(finished)["status"] == "finished"
    view = views.table_view(undo_redo.undo(db, table_id, host))
    assert (view["status"], view["current_seat"], view["ranking"]) == ("playing", 1, None)
    assert view["state"]["turn"]["total"] == 21


def test_rule_6_a_version_replayed_later_is_the_table_as_it_was_at_that_version(table):
    """A phone that read version v and then replays the log may read it after another
    write (another server process): what it replays is still version v's table."""
    states = {0: table.load().state}
    for face, count in ((W, 2), (4, 2)):
        acted = table.act(table.seats[0], {"type": "set_aside", "face": face, "count": count})
        states[acted.version] = acted.state
    undone = table.undo(table.seats[0])  # version 3: the 4s undone
    states[undone.version] = undone.state
    table.act(table.seats[0], {"type": "set_aside", "face": 3, "count": 2})  # version 4, after all of them
    row = table.db.table_row(table.id)
    names = table.db.seat_names(table.id)
    for version, state in states.items():
        assert service.replay(table.db, table.load().game, row, names, version) == state
    assert states[2] != states[3] == states[1]


def test_rule_6_what_can_be_redone_at_a_version_stays_what_it_was(table):
    table.act(table.seats[0], {"type": "set_aside", "face": W, "count": 2})
    table.act(table.seats[0], {"type": "set_aside", "face": 4, "count": 2})
    offered_at_3 = undo_redo.redo_offer(table.db, table.undo(table.seats[0]), table.seats[0])
    assert [event["action"]["face"] for event in offered_at_3] == [4]
    undo_redo.redo(table.db, table.id, table.seats[0])  # version 4: nothing left to redo
    assert undo_redo.redo_offer(table.db, table.load(), table.seats[0]) == []
    assert [event["action"]["face"] for event in undo_redo.redoable(table.db, table.load(), as_of=3)] == [4]
    assert undo_redo.redoable(table.db, table.load(), as_of=2) == []  # the undo had not happened yet
    assert [event["action"]["face"] for event in undo_redo.redoable(table.db, table.load(), as_of=4)] == []

"""The replayed states kept in memory (companion/snapshots.py) are the log's states: the
same as a fresh replay after every action and undo, in every game, whether replayed or
stepped on from the version before, and never changed by anything that reads them (pages,
the API, the log, exports)."""

from __future__ import annotations

import random

import pytest

from companion.tables import service
from companion.tables.database import connect
from companion.games import GAMES
from companion.tables.snapshots import RecentlyUsed
from played import bearer, create, host_phone, joined

def candidates(game: str) -> list[dict]:
    """Actions to try, legal or not (the engine refuses what does not fit): every kind of
    action the game's scenes play (Game.scenes)."""
    return [action for scene in GAMES[game].scenes().values() for _, action in scene.actions]


def fresh_replay(app, table_id: str) -> dict:
    """The table's state as kept in memory, and replayed afresh from the log."""
    db = connect(app.config["DATABASE"])
    try:
        table = service.load(db, table_id)
        return {"cached": table.state, "replayed": service.replay(db, table.game, table.row, table.names)}
    finally:
        db.conn.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_state_kept_in_memory_is_the_replayed_state_after_every_action_and_undo(app, client, game):
    random.seed(game)
    table = create(client, game, players=("Ana", "Bruno", "Caio"))
    state = client.get(f"/api/tables/{table.id}").get_json()
    accepted = 0
    for attempt in range(300):
        if attempt % 7 == 6:
            response = client.post(f"/api/tables/{table.id}/undo", json={}, headers=bearer(table.host))
        else:
            # whose turn it is, or anyone (several seats write at once in some games)
            seat = random.choice([state["current_seat"], random.randrange(3)]) if state["current_seat"] is not None else random.randrange(3)
            action = random.choice(candidates(game))
            response = client.post(
                f"/api/tables/{table.id}/actions", json={**action, "seat": seat}, headers=bearer(table.host)
            )
        if response.status_code == 200:
            accepted += 1
            state = response.get_json()
            states = fresh_replay(app, table.id)
            assert states["cached"] == states["replayed"]
            if state["status"] == "finished":
                break
    assert accepted >= 5


@pytest.mark.parametrize("game", list(GAMES))
def test_a_process_that_kept_the_version_before_steps_on_to_the_replayed_state(app, client, game, monkeypatch):
    """Another server process kept the state before a write, not the state it made: it
    steps that state on by the action that made the version (service.load), instead of
    replaying the whole log, and gets the replayed state; after an undo (no action made
    that version) it replays. After every action, undo and redo, in every game."""
    random.seed(game)
    replays = []
    replay = service.replay
    monkeypatch.setattr(service, "replay", lambda *args, **kwargs: replays.append(args) or replay(*args, **kwargs))
    table = create(client, game, players=("Ana", "Bruno", "Caio"))
    state = client.get(f"/api/tables/{table.id}").get_json()
    other = connect(app.config["DATABASE"])
    shared = other.snapshots  # what the writing process keeps (one cache per database file here)
    stepped = replayed = 0
    try:
        for attempt in range(300):
            if attempt % 7 == 6:
                response = client.post(f"/api/tables/{table.id}/undo", json={}, headers=bearer(table.host))
            elif attempt % 7 == 0 and attempt:
                response = client.post(f"/api/tables/{table.id}/redo", json={}, headers=bearer(table.host))
            else:
                seat = random.choice([state["current_seat"], random.randrange(3)]) if state["current_seat"] is not None else random.randrange(3)
                action = random.choice(candidates(game))
                response = client.post(f"/api/tables/{table.id}/actions", json={**action, "seat": seat}, headers=bearer(table.host))
            if response.status_code != 200:
                continue
            state = response.get_json()
            version = state["version"]
            # the other process kept the state before the write (the write itself read it)
            other.snapshots = RecentlyUsed(size=10)
            other.snapshots.put((table.id, version - 1), shared.get((table.id, version - 1)))
            replays.clear()
            loaded = service.load(other, table.id)
            if other.event_at(table.id, version) is not None:  # an action or a redo made it
                assert replays == []
                stepped += 1
            else:  # an undo made it
                assert len(replays) == 1
                replayed += 1
            assert loaded.state == replay(other, loaded.game, loaded.row, loaded.names)
            if state["status"] == "finished":
                break
    finally:
        other.conn.close()
    assert stepped >= 5 and replayed >= 1


@pytest.mark.parametrize("game", list(GAMES))
def test_reading_a_table_every_way_changes_nothing_kept_in_memory(app, client, game):
    random.seed(game)
    table = create(client, game, players=("Ana", "Bruno", "Caio"))
    state = client.get(f"/api/tables/{table.id}").get_json()
    for _ in range(40):
        seat = state["current_seat"] if state["current_seat"] is not None else random.randrange(3)
        action = random.choice(candidates(game))
        response = client.post(f"/api/tables/{table.id}/actions", json={**action, "seat": seat}, headers=bearer(table.host))
        if response.status_code == 200:
            state = response.get_json()
    phones = [joined(app, token) for token in table.seats] + [host_phone(app, table), app.test_client()]
    for phone in phones:
        for path in ("", "?log=all", "/poll?v=0", "/screen", "/screen/poll", "/export.json", "/export.csv", "/results"):
            phone.get(f"/t/{table.id}{path}", headers={"HX-Request": "true"} if "poll" in path else {})
        phone.get(f"/api/tables/{table.id}")
        phone.get(f"/api/tables/{table.id}/log")
    client.get(f"/api/tables/{table.id}/log", headers=bearer(table.host))
    states = fresh_replay(app, table.id)
    assert states["cached"] == states["replayed"]


def test_the_states_kept_are_the_most_recently_used_ones():
    kept = RecentlyUsed(size=2)
    kept.put(("AAAAAA", 1), {"v": 1})
    kept.put(("BBBBBB", 1), {"v": 2})
    assert kept.get(("AAAAAA", 1)) == {"v": 1}  # now the most recent
    kept.put(("CCCCCC", 1), {"v": 3})
    assert kept.get(("BBBBBB", 1)) is None
    assert kept.get(("AAAAAA", 1)) == {"v": 1}
    assert kept.get(("CCCCCC", 1)) == {"v": 3}
    assert kept.get(("AAAAAA", 2)) is None  # another version is another state

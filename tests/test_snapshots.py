"""The replayed states kept in memory (companion/snapshots.py) are the log's states: the
same as a fresh replay after every action and undo, in every game, and never changed by
anything that reads them (pages, the API, the log, exports)."""

from __future__ import annotations

import random

import pytest

from companion.tables import service
from companion.tables.db import connect
from companion.games import GAMES
from companion.server.snapshots import RecentlyUsed
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

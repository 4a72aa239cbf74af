"""Push (issue 15): `companion serve` holds each table page's connection (Server-Sent
Events) and sends the phone its fresh table as soon as an action is saved, whichever server
process saved it; a phone that reconnects catches up from its version at once; after a
rematch it is led to its new seat. Real HTTP against the server as users run it.
"""

from __future__ import annotations

import subprocess
import sys

import gevent
import requests

from companion import create_app
from companion.notify import Notifier

class Stream:
    """One phone's held connection, read event by event."""

    def __init__(self, url: str, session: requests.Session | None = None, last_event: int | None = None):
        headers = {} if last_event is None else {"Last-Event-ID": str(last_event)}
        self.response = (session or requests).get(url, stream=True, timeout=(5, 20), headers=headers)
        assert self.response.status_code == 200
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.lines = self.response.iter_lines(decode_unicode=True)

    def next_event(self) -> dict:
        event = {"data": []}
        for line in self.lines:
            if line == "" and len(event) > 1:
                event["data"] = "\n".join(event["data"])
                return event
            field, _, value = line.partition(": ")
            if field == "data":
                event["data"].append(value)
            elif field in ("event", "id"):
                event[field] = value
        raise AssertionError("the stream ended")

    def next_table(self) -> dict:
        while True:
            event = self.next_event()
            if event["event"] == "table":
                return event

    def close(self) -> None:
        self.response.close()


def new_table(url: str) -> dict:
    return requests.post(url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()


def act(url: str, table: dict, action: dict) -> None:
    response = requests.post(
        f"{url}/api/tables/{table['id']}/actions", json=action,
        headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10,
    )
    assert response.status_code == 200, response.text


def test_push_every_phone_gets_the_change_whichever_process_saved_it(push_server):
    table = new_table(push_server)
    # Eight phones: the kernel spreads them over both processes, and the action lands on one.
    phones = [Stream(f"{push_server}/t/{table['id']}/events?v=0") for _ in range(8)]
    for phone in phones:
        assert phone.next_event()["event"] == "hello"
    act(push_server, table, {"type": "set_aside", "face": "worm", "count": 2})
    for phone in phones:
        pushed = phone.next_table()
        assert pushed["id"] == "1"
        assert 'data-version="1"' in pushed["data"] and "set aside 2 × worm" in pushed["data"]
        phone.close()


def test_push_a_phone_that_reconnects_catches_up_from_its_version_at_once(push_server):
    table = new_table(push_server)
    act(push_server, table, {"type": "set_aside", "face": "worm", "count": 2})
    act(push_server, table, {"type": "set_aside", "face": 3, "count": 2})
    behind = Stream(f"{push_server}/t/{table['id']}/events?v=0", last_event=1)  # it saw version 1, then lost Wi-Fi
    assert behind.next_table()["id"] == "2"
    behind.close()
    current = Stream(f"{push_server}/t/{table['id']}/events?v=2")
    assert current.next_event()["event"] == "hello"
    act(push_server, table, {"type": "stop"})
    assert current.next_table()["id"] == "3"
    current.close()


def test_push_renders_the_table_for_the_phone_that_listens(push_server):
    table = new_table(push_server)
    ana = requests.Session()
    ana.get(table["seats"][0]["join_url"], timeout=10)
    stream = Stream(f"{push_server}/t/{table['id']}/events?v=-1", session=ana)
    first = stream.next_table()["data"]
    assert "You are Ana" in first and 'id="controls"' in first and "data-must-act" in first
    stream.close()


def test_push_after_a_rematch_the_phone_is_led_to_its_new_seat(push_server):
    table = new_table(push_server)
    ana = requests.Session()
    ana.get(table["seats"][0]["join_url"], timeout=10)
    for tile in range(21, 37):  # the whole game, entered by the host
        worms, rest = divmod(tile, 5)
        act(push_server, table, {"type": "set_aside", "face": "worm", "count": worms})
        if rest:
            act(push_server, table, {"type": "set_aside", "face": rest, "count": 1})
        if worms + bool(rest) < 8:
            act(push_server, table, {"type": "stop"})
    stream = Stream(f"{push_server}/t/{table['id']}/events?v=-1", session=ana)
    stream.next_table()
    bruno = requests.Session()
    bruno.get(table["seats"][1]["join_url"], timeout=10)
    bruno_csrf = bruno.get(f"{push_server}/t/{table['id']}", timeout=10).text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    assert bruno.post(f"{push_server}/t/{table['id']}/rematch", data={"csrf_token": bruno_csrf}, timeout=10).status_code == 200
    while True:
        event = stream.next_event()
        if event["event"] == "redirect":
            break
    assert event["data"] == f"/t/{table['id']}/rematch"
    stream.close()


def test_push_the_notifier_wakes_a_waiter_when_another_process_writes(tmp_path):
    """The cross-process wake-up alone: a write by another process (a separate Python)
    moves SQLite's data_version, and the waiting greenlet here is woken."""
    database = str(tmp_path / "companion.sqlite3")
    client = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True}).test_client()
    table_id = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()["id"]
    notifier = Notifier(database)
    script = (
        "import sqlite3, sys\n"
        "connection = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "connection.execute('UPDATE game_tables SET version = version + 1 WHERE id = ?', [sys.argv[2]])\n"
    )
    writer = gevent.spawn_later(0.2, subprocess.run, [sys.executable, "-c", script, database, table_id], check=True)
    assert notifier.wait(table_id, timeout=20) is True
    writer.join()
    assert notifier.wait("NOSUCH", timeout=0.1) is False  # nothing moved it: the wait times out

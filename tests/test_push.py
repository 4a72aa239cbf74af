"""Push (issue 15): `companion serve` holds each table page's connection (Server-Sent
Events) and sends the phone its fresh table as soon as an action is saved, whichever server
process saved it; a phone that reconnects catches up from its version at once; after a
rematch it is led to its new seat. Real HTTP against the server as users run it.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import gevent
import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.app import create_app
from companion.games import GAMES
from companion.web.i18n import LANGUAGE_COOKIE
from companion.tables import doorbell
from companion.server import notify
from servers import running_companion
from companion.server.notify import Notifier
from companion.tables import service, sqlite
from companion.tables.database import connect
from companion.web import fragments, push_mode

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
            event = self.next_news()
            if event["event"] == "table":
                return event

    def next_news(self, within: float = 30) -> dict:
        """The next event that is not a keepalive ping: a stream that only pings would
        otherwise be read for ever."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            event = self.next_event()
            if event["event"] != "ping":
                return event
        raise AssertionError(f"nothing but pings for {within} s")

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


def test_push_the_table_screen_holds_its_connection_too_and_follows_the_rematch(push_server):
    table = new_table(push_server)
    page = requests.get(f"{push_server}/t/{table['id']}/screen", timeout=10).text
    assert f'sse-connect="/t/{table["id"]}/screen/events?v=0"' in page
    screen = Stream(f"{push_server}/t/{table['id']}/screen/events?v=0")
    assert screen.next_event()["event"] == "hello"
    act(push_server, table, {"type": "set_aside", "face": "worm", "count": 2})
    pushed = screen.next_table()
    assert pushed["id"] == "1" and 'id="screen"' in pushed["data"] and "csrf_token" not in pushed["data"]
    screen.close()


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
    """The phone whose turn it is gets its controls; the watching phones get one shared
    rendering, with no form (and so no session's token) in it."""
    table = new_table(push_server)
    phones = [requests.Session() for _ in range(3)]
    for phone, seat in zip(phones, table["seats"]):
        phone.get(seat["join_url"], timeout=10)
    streams = [Stream(f"{push_server}/t/{table['id']}/events?v=-1", session=phone) for phone in phones]
    ana, bruno, caio = (stream.next_table()["data"] for stream in streams)
    assert 'id="controls"' in ana and "data-must-act" in ana
    assert 'id="controls"' not in bruno and "data-must-act" not in bruno
    assert bruno == caio and "csrf_token" not in bruno
    for stream in streams:
        stream.close()


class TablePage:
    """A table page as a phone's browser holds it: its own id and the session's CSRF token,
    which its taps send as htmx sends them."""

    def __init__(self, url: str, table_id: str, phone: requests.Session):
        self.url, self.table_id, self.phone = url, table_id, phone
        html = phone.get(f"{url}/t/{table_id}", timeout=10).text
        self.page_id = re.search(r'"X-Companion-Page": "([^"]+)"', html).group(1)
        self.csrf = re.search(r'"X-CSRF-Token": "([^"]+)"', html).group(1)
        assert f"page={self.page_id}" in re.search(r'sse-connect="([^"]+)"', html).group(1)

    def listen(self, version: int) -> Stream:
        stream = Stream(f"{self.url}/t/{self.table_id}/events?v={version}&page={self.page_id}", session=self.phone)
        assert stream.next_event()["event"] == "hello"
        return stream

    def tap(self, action: dict, version: int) -> str:
        headers = {"HX-Request": "true", "X-CSRF-Token": self.csrf, "X-Companion-Page": self.page_id}
        form = {"action": json.dumps(action), "expected_version": str(version)}
        answer = self.phone.post(f"{self.url}/t/{self.table_id}/act", data=form, headers=headers, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.text


def told(stream: Stream) -> tuple[str, str]:
    """The next table or "own" event: ("table", its id) or ("own", the version)."""
    while True:
        event = stream.next_news()
        if event["event"] == "table":
            return "table", event["id"]
        if event["event"] == "own":
            assert "id" not in event  # a reconnect asks from the last table actually sent
            return "own", event["data"]


def test_push_a_page_is_told_not_sent_the_version_its_own_tap_made(push_server):
    """The tap's answer brought that version to the page already: sending it again on the
    page's held connection rendered the tapping phone's table (its controls) twice. The
    page is told "own" and the version, so it can ask should the answer never land."""
    table = new_table(push_server)
    ana = requests.Session()
    ana.get(table["seats"][0]["join_url"], timeout=10)
    tapping, other_tab = TablePage(push_server, table["id"], ana), TablePage(push_server, table["id"], ana)
    assert tapping.page_id != other_tab.page_id
    streams = [tapping.listen(0), other_tab.listen(0)]
    assert 'data-version="1"' in tapping.tap({"type": "set_aside", "face": "worm", "count": 2}, 0)
    # the same phone's other page gets the table; the tapping page is only told. Both are read
    # before the next write: a stream that looks after it rightly skips to the newest table.
    assert told(streams[1]) == ("table", "1")
    assert told(streams[0]) == ("own", "1")
    act(push_server, table, {"type": "set_aside", "face": 3, "count": 2})  # the host, through the API
    assert told(streams[1]) == ("table", "2")
    assert told(streams[0]) == ("table", "2")  # one it did not make
    # a page that reconnects from before its own tap (its answer lost?) is told again
    streams[0].close()
    assert 'data-version="3"' in tapping.tap({"type": "stop"}, 2)
    behind = Stream(f"{push_server}/t/{table['id']}/events?v=2&page={tapping.page_id}", session=ana)
    assert told(behind) == ("own", "3")
    act(push_server, table, {"type": "set_aside", "face": "worm", "count": 1})  # Bruno's turn, entered by the host
    assert told(behind) == ("table", "4")
    for stream in (behind, streams[1]):
        stream.close()


def test_push_a_mark_left_by_an_older_version_does_not_stand_for_a_later_one(push_server, tmp_path):
    """A write that moves the table without marking it (a server of an older version on the
    same PostgreSQL; here, by hand) leaves the last page's mark behind: that page is still
    sent the later version."""
    table = new_table(push_server)
    ana = requests.Session()
    ana.get(table["seats"][0]["join_url"], timeout=10)
    page = TablePage(push_server, table["id"], ana)
    stream = page.listen(0)
    page.tap({"type": "set_aside", "face": "worm", "count": 2}, 0)
    assert told(stream) == ("own", "1")
    by_hand(str(tmp_path / "companion.sqlite3"), "UPDATE game_tables SET version = version + 1 WHERE id = ?", table["id"])
    assert told(stream) == ("table", "2")
    stream.close()


def test_push_a_page_id_that_is_not_one_is_no_page(push_server):
    """A garbled id on a held connection or on a tap changes nothing: every version is sent."""
    table = new_table(push_server)
    ana = requests.Session()
    ana.get(table["seats"][0]["join_url"], timeout=10)
    page = TablePage(push_server, table["id"], ana)
    for garbled in ("", "x" * 15, "x" * 17, "\u00e9" * 16, "a/b" + "c" * 13):
        page.page_id = garbled
        stream = Stream(f"{push_server}/t/{table['id']}/events?v=-1&page={quote(garbled)}", session=ana)
        version = int(stream.next_table()["id"])
        page.tap({"type": "set_aside", "face": "worm" if version == 0 else 5 - version, "count": 1}, version)
        assert told(stream) == ("table", str(version + 1))
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
    # a phone that joined no seat (someone watching the table's link) stays, and is told
    onlooker = Stream(f"{push_server}/t/{table['id']}/events?v=-1", session=requests.Session())
    assert "A rematch has started" not in onlooker.next_table()["data"]
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
    # found by a tester: a rematch moves no version, and the onlooker was never told
    assert "A rematch has started" in onlooker.next_table()["data"]
    onlooker.close()
    after = requests.get(f"{push_server}/t/{table['id']}", timeout=10).text
    shown = after.split('sse-connect="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert "rematch=1" in shown  # a page that shows it already is not sent it again


def new_table_in(database: str) -> dict:
    client = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True}).test_client()
    return client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()


def quick_notifier(database: str) -> Notifier:
    """One that looks every 5 ms whatever rings: for the tests of what it reads, not of what
    wakes it."""
    return Notifier(database, check_seconds=0.005, unrung_seconds=0.005)


# Another process (a separate Python) enters an action as the companion does: its write
# rings the database's doorbell once committed.
ACT = (
    "import sys\n"
    "from companion.web.app import create_app\n"
    "client = create_app({'DATABASE': sys.argv[1], 'SECRET_KEY': 'test', 'TESTING': True}).test_client()\n"
    "response = client.post(f'/api/tables/{sys.argv[2]}/actions', json={'type': 'set_aside', 'face': 'worm', 'count': 2},"
    " headers={'Authorization': 'Bearer ' + sys.argv[3]})\n"
    "assert response.status_code == 200, response.get_data(as_text=True)\n"
)

BUMP = "UPDATE game_tables SET version = version + 1 WHERE id = ?"


def by_hand(database: str, statement: str, *values: str) -> None:
    """A hand at the sqlite3 prompt, in another process: a write that rings nothing."""
    script = (
        "import sqlite3, sys\n"
        "connection = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "connection.execute(sys.argv[2], sys.argv[3:])\n"
    )
    subprocess.run([sys.executable, "-c", script, database, statement, *values], check=True)


# --- the watching phones' table, rendered once for every process ------------------------
def push_process(database: str):
    """A server process' app as the push server runs it (its notifier), with its own kept
    parts: two of them on one database stand for two processes of `companion serve`."""
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})
    push_mode.hand_over(app, notify.for_database(database))
    return app


def joined_phone(app, join_url: str, language: str = "en"):
    """A phone that opened its seat's join link and whose table page loaded, saying so
    (static/app.js): its seat is open on a phone."""
    phone = app.test_client()
    phone.set_cookie(LANGUAGE_COOKIE, language)
    table_page = phone.get("/j/" + join_url.rsplit("/j/", 1)[1]).headers["Location"]
    csrf = re.search(r'"X-CSRF-Token": "([^"]+)"', phone.get(table_page).get_data(as_text=True)).group(1)
    assert phone.post(table_page + "/opened", headers={"X-CSRF-Token": csrf}).status_code == 200
    return phone


def page_tap(phone, table_id: str, action: dict, version: int):
    csrf = re.search(r'"X-CSRF-Token": "([^"]+)"', phone.get(f"/t/{table_id}").get_data(as_text=True)).group(1)
    form = {"action": json.dumps(action), "expected_version": str(version)}
    return phone.post(f"/t/{table_id}/act", data=form, headers={"HX-Request": "true", "X-CSRF-Token": csrf})


def published_parts(database: str, table_id: str) -> dict[str, str]:
    with sqlite3.connect(database) as connection:
        return dict(connection.execute("SELECT part, html FROM rendered_parts WHERE table_id = ?", [table_id]))


def test_push_a_tap_renders_the_watching_phones_table_once_for_every_server_process(tmp_path):
    """Profile: each server process rendered the watching phones' table of every version
    itself, the costliest part of a push (a table's phones are spread over the processes).
    The tapping phone's process renders it and puts it in the database; another process
    sends its watching phones that one (here marked by hand to tell it from one rendered
    again), in their language, and renders its own only for a language not shared."""
    database = str(tmp_path / "companion.sqlite3")
    tapping, other = push_process(database), push_process(database)
    table = tapping.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno", "Caio"]}).get_json()
    ana = joined_phone(tapping, table["seats"][0]["join_url"])
    bruno = joined_phone(other, table["seats"][1]["join_url"])
    caio = joined_phone(other, table["seats"][2]["join_url"], language="fr")
    answer = page_tap(ana, table["id"], {"type": "set_aside", "face": "worm", "count": 2}, 0)
    assert answer.status_code == 200 and 'data-version="1"' in answer.get_data(as_text=True)
    parts = published_parts(database, table["id"])
    watchers = [part for part in parts if part.startswith("('table', 'en', True")]
    assert len(watchers) == 1 and 'data-version="1"' in parts[watchers[0]] and "csrf_token" not in parts[watchers[0]]
    assert any(part.startswith("('grill', 'en'") for part in parts)  # what a phone with controls of its own needs too
    by_hand(database, "UPDATE rendered_parts SET html = html || '<!-- published -->' WHERE part = ?", watchers[0])
    seen = bruno.get(f"/t/{table['id']}/poll?v=0", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'data-version="1"' in seen and seen.endswith("<!-- published -->")
    seen_in_french = caio.get(f"/t/{table['id']}/poll?v=0", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'data-version="1"' in seen_in_french and "<!-- published -->" not in seen_in_french
    # the next version's parts take the place of this one's
    assert page_tap(ana, table["id"], {"type": "set_aside", "face": 3, "count": 2}, 1).status_code == 200
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT DISTINCT version FROM rendered_parts WHERE table_id = ?", [table["id"]]).fetchall() == [(2,)]


def test_push_an_api_action_undo_redo_and_skip_share_the_watching_phones_table_as_a_tap_does(tmp_path, monkeypatch):
    """Review: the API's writes shared nothing, so every process rendered the watching
    phones' table of each version itself. Each API write now shares it as a page's tap does,
    in the language the call asks for, before the other processes are woken; under the thread
    server (no phone waits for news) it shares nothing."""
    database = str(tmp_path / "companion.sqlite3")
    api = push_process(database)
    host = api.test_client()
    table = host.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    joined_phone(api, table["seats"][0]["join_url"])
    joined_phone(api, table["seats"][1]["join_url"])
    parts_when_rung = []
    monkeypatch.setattr(doorbell, "ring", lambda _path: parts_when_rung.append(published_parts(database, table["id"])))
    calls = [
        ("actions", {"type": "set_aside", "face": "worm", "count": 2, "seat": 0}),
        ("undo", {}),
        ("redo", {}),
        ("undo", {}),
        ("redo", {"skip": True}),
    ]
    for version, (path, body) in enumerate(calls, start=1):
        answer = host.post(
            f"/api/tables/{table['id']}/{path}", json=body,
            headers={"Authorization": f"Bearer {table['host_token']}", "Accept-Language": "fr"},
        )
        assert answer.status_code == 200 and answer.get_json()["version"] == version
        shared = parts_when_rung[-1]  # in the database when the other processes are woken
        watchers = [part for part in shared if part.startswith("('table', 'fr', True")]
        assert len(watchers) == 1 and f'data-version="{version}"' in shared[watchers[0]], (path, list(shared))
    assert len(parts_when_rung) == len(calls)
    threads = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})  # no notifier
    by_hand(database, "DELETE FROM rendered_parts")
    answer = threads.test_client().post(
        f"/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": 3, "count": 1, "seat": 0},
        headers={"Authorization": f"Bearer {table['host_token']}"},
    )
    assert answer.status_code == 200 and published_parts(database, table["id"]) == {}


@pytest.mark.parametrize("game", ["pickomino", "heckmeck-barbecue"])
def test_push_the_api_answers_set_no_cookie_through_a_whole_game_to_its_end(tmp_path, game):
    """Review: sharing the finished table rendered a seated phone's rematch form, whose CSRF
    token went into the API caller's session (a cookie on the last action's answer). A
    finished table is not shared: each seated phone's holds a form of its own."""
    database = str(tmp_path / "companion.sqlite3")
    api = push_process(database)
    host = api.test_client()
    scene = GAMES[game].scenes()["finished"]
    table = host.post("/api/tables", json={"game": game, "players": list(scene.players), "options": scene.options}).get_json()
    for seat in table["seats"]:
        joined_phone(api, seat["join_url"])
    for seat, action in scene.actions:
        answer = host.post(
            f"/api/tables/{table['id']}/actions", json={**action, "seat": seat},
            headers={"Authorization": f"Bearer {table['host_token']}"},
        )
        assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert answer.get_json()["status"] == "finished"
    assert not any("csrf_token" in html for html in published_parts(database, table["id"]).values())


def test_push_a_write_is_answered_when_the_database_fails_while_its_table_is_shared(tmp_path, monkeypatch, caplog):
    """Review: sharing runs once the write is saved; the database failing then (a full disk,
    PostgreSQL gone) answered an error for a saved action, which a client would enter again.
    Sharing is only a saving of work: the failure is logged, the write answered."""
    database = str(tmp_path / "companion.sqlite3")
    api = push_process(database)
    host = api.test_client()
    table = host.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    joined_phone(api, table["seats"][1]["join_url"])
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL

    def failing(*args):
        raise sqlite.raised(full)  # as the store raises it

    monkeypatch.setattr(service, "opened_seats", failing)
    answer = host.post(
        f"/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 2, "seat": 0},
        headers={"Authorization": f"Bearer {table['host_token']}"},
    )
    assert answer.status_code == 200 and answer.get_json()["version"] == 1
    assert host.get(f"/api/tables/{table['id']}").get_json()["version"] == 1
    assert "The watching phones' table was not shared" in caplog.text and published_parts(database, table["id"]) == {}


def test_push_a_tap_shares_nothing_when_no_other_seat_is_open_on_a_phone(tmp_path):
    """Review: a host entering the turns of players without phones rendered and stored the
    watching phones' table at every tap, for nobody."""
    database = str(tmp_path / "companion.sqlite3")
    tapping = push_process(database)
    table = tapping.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    ana = joined_phone(tapping, table["seats"][0]["join_url"])
    assert page_tap(ana, table["id"], {"type": "set_aside", "face": "worm", "count": 2}, 0).status_code == 200
    assert published_parts(database, table["id"]) == {}


@pytest.mark.parametrize(
    "game, shares", [("pickomino", True), ("heckmeck-barbecue", True), ("twenty-one", False), ("lobo", False), ("qwixx", False)]
)
def test_push_parts_are_looked_for_in_the_database_only_for_games_whose_watchers_share_a_table(tmp_path, monkeypatch, game, shares):
    """Re-read: a process rendering a part it did not keep asked the database for it even in
    the games whose tables are never published (each phone sees its own), one read per part,
    process and version for nothing. The first player's own table (not a watching phone's,
    which is looked for whole) is made of the parts, each looked for there or not."""
    database = str(tmp_path / "companion.sqlite3")
    process = push_process(database)
    table = process.test_client().post("/api/tables", json={"game": game, "players": ["Ana", "Bruno"]}).get_json()
    ana = joined_phone(process, table["seats"][0]["join_url"])
    fragments.install(process)  # as a process that has kept nothing of this version yet
    asked = []
    monkeypatch.setattr(service, "published_part", lambda db, table_id, version, part: asked.append(part))
    assert ana.get(f"/t/{table['id']}/poll?v=99", headers={"HX-Request": "true"}).status_code == 200
    if shares:
        assert "('grill', 'en')" in asked and any(part.startswith("('log', 'en'") for part in asked)
        assert not any(part.startswith("('table'") for part in asked)
    else:
        assert asked == []


def test_push_sharing_never_waits_for_another_writer(tmp_path):
    """Review: the version's news waits while its parts are stored; waiting there for a
    busy database (up to SQLite's 5 s busy timeout) would hold every other phone back. A
    database busy with another write leaves the parts unshared at once."""
    database = str(tmp_path / "companion.sqlite3")
    table_id = new_table_in(database)["id"]
    waited = []
    db = connect(database, pause=waited.append)
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        service.publish_parts(db, table_id, 0, {"('table', 'en', True)": "<p>shared</p>"})
    finally:
        other.execute("ROLLBACK")
    assert waited == [] and published_parts(database, table_id) == {}
    service.publish_parts(db, table_id, 0, {"('table', 'en', True)": "<p>shared</p>"})  # free again: stored
    assert published_parts(database, table_id) == {"('table', 'en', True)": "<p>shared</p>"}


def test_push_the_shared_parts_of_a_table_that_stopped_moving_leave_the_database(tmp_path):
    """Review: each table's last version stayed in the database for ever, some KB of HTML a
    table (a café's year of tables); the parts are read within moments of their tap."""
    database = str(tmp_path / "companion.sqlite3")
    tapping = push_process(database)
    tables = [tapping.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json() for _ in range(2)]
    for table in tables:
        ana = joined_phone(tapping, table["seats"][0]["join_url"])
        joined_phone(tapping, table["seats"][1]["join_url"])  # Bruno's phone watches
        assert page_tap(ana, table["id"], {"type": "set_aside", "face": "worm", "count": 2}, 0).status_code == 200
        assert published_parts(database, table["id"])
        if table is tables[0]:  # its parts were published longer ago than they are kept
            by_hand(database, "UPDATE rendered_parts SET published_at = '2026-01-01T00:00:00+00:00' WHERE table_id = ?", table["id"])
    assert not published_parts(database, tables[0]["id"]) and published_parts(database, tables[1]["id"])


def test_push_a_tap_wakes_the_other_processes_only_once_it_shared_the_watching_phones_table(tmp_path, monkeypatch):
    """Woken before the table was in the database, the other processes rendered it again:
    the tap's doorbell rings after it is shared, not when the action commits."""
    database = str(tmp_path / "companion.sqlite3")
    tapping = push_process(database)
    table = tapping.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    ana = joined_phone(tapping, table["seats"][0]["join_url"])
    joined_phone(tapping, table["seats"][1]["join_url"])  # Bruno's phone watches
    parts_when_rung = []
    monkeypatch.setattr(doorbell, "ring", lambda _path: parts_when_rung.append(len(published_parts(database, table["id"]))))
    assert page_tap(ana, table["id"], {"type": "set_aside", "face": "worm", "count": 2}, 0).status_code == 200
    assert len(parts_when_rung) == 1 and parts_when_rung[0] > 0


@pytest.mark.slow  # each example starts two push server processes
@settings(settings.get_profile("served"))
@given(data=st.data())
def test_push_in_random_games_every_watching_phone_is_sent_the_table_it_would_render_itself(tmp_path_factory, data):
    """Invariant of the shared table: whatever was tapped (dice, a stop, a bust, an undo), a
    watching phone served by another process than the tapping one's gets exactly the table
    a server that shares nothing renders for that phone."""
    database = str(tmp_path_factory.mktemp("shared") / "companion.sqlite3")
    processes = [push_process(database), push_process(database)]
    alone = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})  # no notifier: reads no shared part
    table = processes[0].test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno", "Caio"]}).get_json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    phones = [joined_phone(processes[seat % 2], seat_row["join_url"]) for seat, seat_row in enumerate(table["seats"])]
    for _step in range(data.draw(st.integers(min_value=1, max_value=14), label="taps")):
        state = processes[0].test_client().get(f"/api/tables/{table['id']}", headers=host).get_json()
        if state["status"] != "playing":
            break
        seat, turn = state["current_seat"], state["state"]["turn"]
        if turn["roll"] is not None:
            kept = {entry["face"] for entry in turn["kept"]}
            action = {"type": "keep", "face": data.draw(st.sampled_from([face for face in turn["roll"] if face not in kept]))}
        elif turn["kept"] and data.draw(st.booleans()):
            action = {"type": "stop"}
        else:
            action = {"type": "roll", "dice": data.draw(st.lists(st.sampled_from([1, 2, 3, 4, 5, "worm"]), min_size=turn["dice_left"], max_size=turn["dice_left"]))}
        assert page_tap(phones[seat], table["id"], action, state["version"]).status_code == 200
        if data.draw(st.booleans(), label="undo it"):
            csrf = re.search(r'"X-CSRF-Token": "([^"]+)"', phones[seat].get(f"/t/{table['id']}").get_data(as_text=True)).group(1)
            undone = phones[seat].post(
                f"/t/{table['id']}/undo", data={"expected_version": str(state["version"] + 1)},
                headers={"HX-Request": "true", "X-CSRF-Token": csrf},
            )
            assert undone.status_code == 200
        for watcher, phone in enumerate(phones):
            if watcher == seat:
                continue
            shared = phone.get(f"/t/{table['id']}/poll?v=-1", headers={"HX-Request": "true"}).get_data(as_text=True)
            by_itself = alone.test_client()
            by_itself.set_cookie("session", phone.get_cookie("session").value)
            assert shared == by_itself.get(f"/t/{table['id']}/poll?v=-1", headers={"HX-Request": "true"}).get_data(as_text=True)


def test_push_the_notifier_wakes_a_waiter_when_another_process_writes(tmp_path):
    """The cross-process wake-up alone: another process' action rings the doorbell after
    its commit, and the greenlet waiting here is woken at once (the notifier's own look is
    a minute away here, so only the ring can wake it in time)."""
    database = str(tmp_path / "companion.sqlite3")
    table = new_table_in(database)
    notifier = Notifier(database, check_seconds=60, unrung_seconds=60)
    with notifier.watching(table["id"]):
        gevent.sleep(0.05)  # the watcher listens
        writer = gevent.spawn(subprocess.run, [sys.executable, "-c", ACT, database, table["id"], table["host_token"]], check=True)
        assert notifier.wait(table["id"], (0, None), timeout=30) is True
        writer.join()
        assert writer.successful(), writer.exception
    with notifier.watching("NOSUCH"):
        assert notifier.wait("NOSUCH", (0, None), timeout=0.1) is False  # nothing moved it: the wait times out


def assert_woken_by_a_write_that_rings_nothing(notifier: Notifier, database: str, table_id: str) -> None:
    with notifier.watching(table_id):
        gevent.sleep(0.05)  # the watcher has looked once
        writer = gevent.spawn(by_hand, database, BUMP, table_id)
        assert notifier.wait(table_id, (0, None), timeout=30) is True
        writer.join()


def test_push_a_write_that_rings_nothing_still_reaches_the_phones(tmp_path):
    """A write made by another hand (the sqlite3 prompt) does not ring: the notifier's own
    look finds it."""
    database = str(tmp_path / "companion.sqlite3")
    table_id = new_table_in(database)["id"]
    notifier = Notifier(database, check_seconds=60, unrung_seconds=0.05)
    assert_woken_by_a_write_that_rings_nothing(notifier, database, table_id)


def test_push_a_notifier_started_while_the_database_file_is_away_makes_none_and_finds_it_back(tmp_path, monkeypatch, caplog):
    """helper review, then CI: a watcher that started (its first held connection) just after
    the database file was moved away made an empty database in its place, stood there for
    the removed one, and ended in a traceback, leaving that process' phones unwoken. It now
    makes nothing, says so once, and once the file is back wakes the phones of what moved."""
    monkeypatch.setattr(Notifier, "RECONNECT_SECONDS", 0.05)
    database = tmp_path / "companion.sqlite3"
    table_id = new_table_in(str(database))["id"]
    aside = tmp_path / "aside"
    aside.mkdir()
    for part in tmp_path.glob("companion.sqlite3*"):
        part.rename(aside / part.name)
    notifier = Notifier(str(database), check_seconds=60, unrung_seconds=0.05)
    with notifier.watching(table_id):
        gevent.sleep(0.3)  # several looks for it
        assert not database.exists(), "the watcher made a database where the removed one was"
        assert notifier.watcher is not None and not notifier.watcher.dead
        by_hand(str(aside / database.name), BUMP, table_id)  # moved while it was away
        for part in aside.iterdir():
            part.rename(tmp_path / part.name)
        assert notifier.wait(table_id, (0, None), timeout=30) is True
        assert notifier.known[table_id] == (1, None)  # the move made while it was away
    said = [record.getMessage() for record in caplog.records if "watch the database" in record.getMessage() or "for changes again" in record.getMessage()]
    assert len(said) == 2 and said[0].startswith("Cannot watch the database for changes") and said[1] == "Watching the database for changes again.", said


def test_push_without_a_doorbell_the_notifier_asks_sqlite_every_few_milliseconds(tmp_path, monkeypatch, caplog):
    """Where inotify cannot be had (not Linux, a file system that does not tell, a folder
    nobody may write), the notifier asks SQLite every `check_seconds`, and on Linux says so."""
    monkeypatch.setattr(notify.DoorbellListener, "open", classmethod(lambda cls, path: None))
    database = str(tmp_path / "companion.sqlite3")
    table_id = new_table_in(database)["id"]
    notifier = Notifier(database, check_seconds=0.005, unrung_seconds=60)
    assert_woken_by_a_write_that_rings_nothing(notifier, database, table_id)
    assert "phones are woken by a look every 5 ms instead" in caplog.text


def test_push_a_doorbell_that_cannot_be_rung_costs_the_write_nothing_and_is_said_once(tmp_path, caplog):
    from companion.tables import doorbell

    bell = str(tmp_path / "gone" / "companion.sqlite3-moved")  # its folder is not there
    doorbell.ring(bell)
    doorbell.ring(bell)
    assert caplog.text.count("Cannot ring") == 1


def test_push_the_doorbell_is_heard_again_after_someone_deleted_it(tmp_path):
    """The doorbell file lives beside the database, where someone tidying may delete it:
    the next write that rings makes it again, and the notifiers hear that too."""
    from companion.tables import doorbell

    database = str(tmp_path / "companion.sqlite3")
    table = new_table_in(database)
    bell = doorbell.path_for(database)
    listener = notify.DoorbellListener.open(bell)
    assert listener is not None  # Linux, a writable folder
    try:
        assert listener.wait(0.05) is False
        (tmp_path / "unrelated.txt").write_text("x")
        assert listener.wait(0.05) is False  # another file of the folder is no ring
        doorbell.ring(bell)
        assert listener.wait(5) is True
        Path(bell).unlink()
        assert listener.wait(0.05) is False  # deleting it is no ring
        subprocess.run([sys.executable, "-c", ACT, database, table["id"], table["host_token"]], check=True)
        assert listener.wait(5) is True
        assert Path(bell).exists()
    finally:
        listener.close()


def test_push_a_change_made_between_reading_the_table_and_waiting_is_not_missed(tmp_path):
    """A held connection reads its table, sends it (which may yield to other greenlets:
    the watcher among them), then waits. A change saved in between is already behind it."""
    database = str(tmp_path / "companion.sqlite3")
    client = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True}).test_client()
    table_id = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()["id"]
    notifier = quick_notifier(database)
    with notifier.watching(table_id):
        read = (0, None)  # what the connection read and sent
        by_hand(database, BUMP, table_id)
        gevent.sleep(0.2)  # the watcher runs and reads version 1 before anyone waits
        assert notifier.wait(table_id, read, timeout=0) is True
        assert notifier.wait(table_id, (1, None), timeout=0.1) is False  # up to date: it waits


def test_push_the_notifier_wakes_just_the_tables_that_moved_however_many_moved_at_once(tmp_path):
    """Several tables moved by one write between two checks all wake their phones; a table
    that did not move keeps its phones waiting, and so does a moved one nobody here follows."""
    database = str(tmp_path / "companion.sqlite3")
    client = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True}).test_client()
    tables = [client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()["id"] for _ in range(4)]
    moved, still, unfollowed = tables[:2], tables[2], tables[3]
    notifier = quick_notifier(database)
    script = (
        "import sqlite3, sys\n"
        "connection = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "connection.execute('BEGIN IMMEDIATE')\n"
        "for table_id in sys.argv[2:]:\n"
        "    connection.execute('UPDATE game_tables SET version = version + 1 WHERE id = ?', [table_id])\n"
        "connection.execute('COMMIT')\n"
    )
    with notifier.watching(moved[0]), notifier.watching(moved[1]), notifier.watching(still):
        gevent.sleep(0.05)  # the watcher has looked once
        writer = gevent.spawn_later(0.1, subprocess.run, [sys.executable, "-c", script, database, *moved, unfollowed], check=True)
        assert notifier.wait(moved[0], (0, None), timeout=20) is True
        assert notifier.wait(moved[1], (0, None), timeout=20) is True
        writer.join()
        assert notifier.wait(still, (0, None), timeout=0.2) is False
        assert unfollowed not in notifier.known


def test_push_moves_made_after_a_table_was_deleted_by_hand_still_wake_the_phones(tmp_path):
    """Someone tidies old tables away at the sqlite3 prompt, the one that moved last among
    them: the moves after it are numbered above every move before, and still seen."""
    database = str(tmp_path / "companion.sqlite3")
    kept, tidied = new_table_in(database)["id"], new_table_in(database)["id"]
    notifier = quick_notifier(database)
    with notifier.watching(kept):
        by_hand(database, BUMP, kept)
        assert notifier.wait(kept, (0, None), timeout=20) is True
        by_hand(database, BUMP, tidied)  # the last move so far
        gevent.sleep(0.1)  # the watcher has seen it
        by_hand(database, "DELETE FROM game_tables WHERE id = ?", tidied)  # its seats stay: SQLite checks no keys by default
        by_hand(database, BUMP, kept)
        assert notifier.wait(kept, (1, None), timeout=20) is True


def test_push_a_rematch_wakes_the_phones_of_the_finished_table(tmp_path):
    """A rematch does not move the old table's version; it still wakes its phones, which
    are led to their new seats."""
    database = str(tmp_path / "companion.sqlite3")
    client = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True}).test_client()
    table_id = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()["id"]
    notifier = quick_notifier(database)
    with notifier.watching(table_id):
        by_hand(database, BUMP, table_id)
        assert notifier.wait(table_id, (0, None), timeout=20) is True
        writer = gevent.spawn_later(0.1, by_hand, database, "UPDATE game_tables SET rematch_id = 'NEXT' WHERE id = ?", table_id)
        assert notifier.wait(table_id, (1, None), timeout=20) is True
        writer.join()
        assert notifier.wait(table_id, (1, "NEXT"), timeout=0.1) is False


def test_push_a_phone_that_read_more_than_the_notifier_has_yet_waits_for_it(tmp_path):
    """A phone that reconnects may have read the table after a change this process' watcher
    has not seen yet (a rematch saved through another process): its wait must let the
    watcher run, not return at once as if there were news, round after round (which froze
    the whole process: one thread serves all its connections)."""
    database = str(tmp_path / "companion.sqlite3")
    table_id = new_table_in(database)["id"]
    notifier = Notifier(database, check_seconds=60, unrung_seconds=60)
    with notifier.watching(table_id):
        gevent.sleep(0.05)  # the watcher has read the table: (0, None)
        assert notifier.known[table_id] == (0, None)
        # what the phone read (a rematch the watcher has not seen): nothing is newer than that
        assert notifier.wait(table_id, (0, "NEXT"), timeout=0.1) is False
        assert notifier.wait(table_id, (0, None), timeout=0) is False


def test_push_a_writer_waiting_for_another_writers_lock_lets_the_other_connections_go_on(tmp_path):
    """Under the push server one thread serves every connection of a process. A write that
    finds the lock held (by another process, here a second connection) must wait by
    gevent's sleep: SQLite's own busy wait would stop the whole process, the holder too
    when it is a connection of this process, until the busy timeout gives up."""
    from companion.tables import sqlite as database_module

    path = str(tmp_path / "companion.sqlite3")
    database_module.migrate(path)
    holder = database_module.connect(path, pause=Notifier.pause)
    writer = database_module.connect(path, {"busy_timeout": 2000}, pause=Notifier.pause)
    ticks = []

    def hold_the_lock():
        with holder.write():
            gevent.sleep(0.3)  # another request of this process, mid-write

    def count():
        while len(ticks) < 1000:
            ticks.append(1)
            gevent.sleep(0.001)

    def write():
        with writer.write():
            writer.conn.execute("PRAGMA user_version")
        return len(ticks)

    holding, counting = gevent.spawn(hold_the_lock), gevent.spawn(count)
    gevent.sleep(0.01)
    written = gevent.spawn(write)
    gevent.joinall([holding, written], raise_error=True)
    counting.kill()
    assert written.value > 10  # the other greenlets ran while the writer waited
    assert writer.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 2000  # SQLite's wait is back


def test_push_a_writer_finding_another_processes_lock_waits_a_moment_inside_sqlite_once_before_giving_the_process_away(tmp_path):
    """A busy process comes back to a paused request only after everything else it has to
    do (~100 ms at 1,000 tables x 5), and the lock may be taken again by then: paused from
    the first try, writers waited up to 1.5 s for locks held under a millisecond. So a
    writer's first try lets SQLite wait BLOCKING_WAIT_MS; its later tries do not (several
    writers waiting for a long-held lock would otherwise stop the process at every turn)."""
    from companion.tables import sqlite as database_module

    path = str(tmp_path / "companion.sqlite3")
    database_module.migrate(path)
    other_process = sqlite3.connect(path, isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")
    paused = []  # when, and the busy timeout the next try will have

    def pause(seconds):
        paused.append((time.perf_counter(), writer.conn.execute("PRAGMA busy_timeout").fetchone()[0]))
        if len(paused) == 2:
            other_process.execute("ROLLBACK")  # the other process' write ends meanwhile

    writer = database_module.connect(path, pause=pause)
    asked = time.perf_counter()
    with writer.write():
        writer.conn.execute("PRAGMA user_version = 7")
    assert len(paused) == 2
    assert paused[0][0] - asked >= database_module.BLOCKING_WAIT_MS / 1000  # SQLite waited on the first try
    assert [timeout for _, timeout in paused] == [0, 0]  # and not on the later ones
    assert other_process.execute("PRAGMA user_version").fetchone()[0] == 7
    assert writer.conn.execute("PRAGMA busy_timeout").fetchone()[0] == database_module.BUSY_TIMEOUT_MS
    other_process.close()
    writer.conn.close()


def test_push_server_sends_each_part_of_an_answer_at_once_without_waiting_for_an_ack():
    """TCP_NODELAY on every connection of the push server: with Nagle's algorithm, an
    answer's second part waited for the phone's delayed ACK (40 ms) whenever the phone
    sent its next request right after the last answer."""
    import socket

    from gevent import socket as green_socket
    from gevent.pywsgi import WSGIServer

    from companion.server.front import push_handler

    options = []

    class Recording(push_handler()):
        def run_application(self) -> None:
            options.append(self.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            super().run_application()

    def application(environ, start_response):
        start_response("204 No Content", [])
        return [b""]

    server = WSGIServer(("127.0.0.1", 0), application, log=None, handler_class=Recording)
    server.start()
    try:
        with green_socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert client.recv(1024).startswith(b"HTTP/1.1 204")
    finally:
        server.stop()
    assert options == [1]


def test_push_a_fifo_at_the_doorbells_path_freezes_nothing_and_stopping_still_stops(tmp_path):
    """Issue 40, item 10: the notifier opened the doorbell with a blocking open(), which a
    FIFO put at its path never returns from: each process froze at its first held
    connection, and SIGTERM never stopped the companion. Only a regular file is used now;
    the phones are woken by the notifier's own looks instead."""
    os.mkfifo(tmp_path / "companion.sqlite3-moved")
    with running_companion(tmp_path) as url:
        table = new_table(url)
        phones = [Stream(f"{url}/t/{table['id']}/events?v=0") for _ in range(4)]  # both processes, most likely
        for phone in phones:
            assert phone.next_event()["event"] == "hello"
        act(url, table, {"type": "set_aside", "face": "worm", "count": 2})
        for phone in phones:
            assert phone.next_table()["id"] == "1"
            phone.close()
        for _ in range(10):
            assert requests.get(url + "/healthz", headers={"Connection": "close"}, timeout=10).status_code == 204
    # running_companion stopped it with SIGINT and waited: it stopped

"""The companion on PostgreSQL (issue 18), on a real server: the schema is SQLite's, two
servers starting at once migrate once, two `companion serve` on different ports share one
database (a phone on one sees an action made through the other; 20 phones writing through
both lose nothing), a lost notification connection catches up, and a backup is pg_dump's.
The API, concurrency, service, results and SIGKILL suites run on both databases
(`on_both_databases`); this file holds what only PostgreSQL has."""

from __future__ import annotations

import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
import requests

from companion.web.app import create_app

from companion import web
from companion.server.notify import NOTIFIER_NAME
from companion.tables import database as database_module, postgres, schema, service
from companion.tables.postgres import POOL_SIZE
from databases import PostgresServer, binaries
from faults.workload import next_action
from played import assert_error, bearer, rows
from servers import running_companion
from test_push import Stream, TablePage, joined_phone, page_tap, push_process, told

pytestmark = pytest.mark.postgresql  # what only PostgreSQL has, on a real server

def columns_of_sqlite(path: str) -> dict[str, list[tuple[str, bool]]]:
    with closing(sqlite3.connect(path)) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        return {name: [(row[1], bool(row[3])) for row in conn.execute(f"PRAGMA table_info({name})")] for name in names}


def columns_of_postgresql(url: str) -> dict[str, list[tuple[str, bool]]]:
    found: dict[str, list[tuple[str, bool]]] = {}
    for table, column, nullable in rows(
        url,
        "SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'"
        " AND table_name != 'companion_schema' ORDER BY table_name, ordinal_position",
    ):
        found.setdefault(table, []).append((column, nullable == "NO"))
    return found


def test_postgresql_schema_has_sqlites_tables_columns_and_not_nulls(postgres_server, tmp_path):
    path = str(tmp_path / "companion.sqlite3")
    url = postgres_server.new_database()
    database_module.Database(path)
    database_module.Database(url)

    on_sqlite, on_postgresql = columns_of_sqlite(path), columns_of_postgresql(url)
    # SQLite's own: the order tables moved in, for its notifier (PostgreSQL's is NOTIFY)
    on_sqlite["game_tables"] = [column for column in on_sqlite["game_tables"] if column[0] != "moved"]
    del on_sqlite["table_moves"]
    # SQLite marks a primary key's columns nullable unless said; PostgreSQL never does.
    primary = {("seats", "table_id"), ("seats", "seat"), ("events", "table_id"), ("events", "seq"), ("game_tables", "id")}
    assert sorted(on_sqlite) == sorted(on_postgresql)
    for table, columns in on_sqlite.items():
        expected = [(name, not_null or (table, name) in primary) for name, not_null in columns]
        assert on_postgresql[table] == expected, table


def test_two_servers_starting_at_once_migrate_the_database_once(postgres_server):
    url = postgres_server.new_database(migrated=False)
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda _: postgres.migrate(url), range(6)))
    assert rows(url, "SELECT version FROM companion_schema") == [(schema.postgresql_version(len(schema.MIGRATIONS)),)]
    postgres.migrate(url)  # and again, later: nothing to do
    assert rows(url, "SELECT count(*) FROM game_tables") == [(0,)]


def test_the_console_never_shows_the_databases_password():
    assert postgres.shown("postgresql://ana:s3cret@db.example:5433/companion") == "postgresql://ana:***@db.example:5433/companion"
    assert postgres.shown("postgresql://ana@db.example/companion") == "postgresql://ana@db.example/companion"


def test_without_psycopg_the_sentence_says_how_to_install_the_projects_postgres_extra(monkeypatch):
    """`companion` on the package index is another project (its postgres extra, asked of
    the index, would install that one), and pipx knows this one as tabletop-companion."""
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails as where it is not installed
    with pytest.raises(SystemExit) as stopped:
        postgres.connect("postgresql://nobody@127.0.0.1:1/none")
    sentence = str(stopped.value)
    assert "psycopg is not installed" in sentence and "pip install '.[postgres]'" in sentence
    extra = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    injected = " ".join(f"'{requirement}'" for requirement in extra["postgres"])
    assert f"pipx inject tabletop-companion {injected}." in sentence  # what the extra holds, kept in step


def test_two_servers_on_one_postgresql_a_phone_on_one_sees_an_action_made_through_the_other(postgres_server, tmp_path):
    url = postgres_server.new_database()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running_companion(tmp_path / "a", url) as first, running_companion(tmp_path / "b", url) as second:
        table = requests.post(first + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
        phones = [Stream(f"{server}/t/{table['id']}/events?v=0") for server in (first, second) for _ in range(3)]
        for phone in phones:
            assert phone.next_event()["event"] == "hello"
        for version, server in enumerate((second, first), start=1):
            response = requests.post(
                f"{server}/api/tables/{table['id']}/actions",
                json={"type": "set_aside", "face": "worm", "count": 1} if version == 1 else {"type": "set_aside", "face": 5, "count": 1},
                headers={"Authorization": f"Bearer {table['host_token']}"},
                timeout=10,
            )
            assert response.status_code == 200, response.text
            for phone in phones:
                pushed = phone.next_table()
                assert pushed["id"] == str(version)
                assert f'data-version="{version}"' in pushed["data"]
        for phone in phones:
            phone.close()


def test_two_servers_a_page_tapping_through_one_is_told_own_on_its_connection_to_the_other(postgres_server, tmp_path, monkeypatch):
    """Behind a load balancer a page's tap and its held connection may reach different
    servers: the mark of the page's tap is in PostgreSQL, so the other server tells the page
    "own" instead of rendering the table it has from its tap's answer."""
    monkeypatch.setenv("COMPANION_SECRET_KEY", "one key for both servers")  # docs/hosting.md: "One cookie key"
    url = postgres_server.new_database()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running_companion(tmp_path / "a", url) as first, running_companion(tmp_path / "b", url) as second:
        table = requests.post(first + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
        ana = requests.Session()
        ana.get(first + "/j/" + table["seats"][0]["join_url"].rsplit("/j/", 1)[1], timeout=10)
        page = TablePage(first, table["id"], ana)
        held = Stream(f"{second}/t/{table['id']}/events?v=0&page={page.page_id}", session=ana)
        assert held.next_event()["event"] == "hello"
        assert 'data-version="1"' in page.tap({"type": "set_aside", "face": "worm", "count": 2}, 0)
        assert told(held) == ("own", "1")
        response = requests.post(
            f"{second}/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": 3, "count": 1},
            headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10,
        )
        assert response.status_code == 200, response.text
        assert told(held) == ("table", "2")
        held.close()


def test_on_postgresql_a_tap_shares_the_watching_phones_table_and_notifies_only_then(postgres_server, monkeypatch):
    """As on SQLite (test_push.py): the tapping server process keeps the watching phones'
    table in the database, and another process (or server) sends its watching phone that
    one, marked here by hand to tell it from one rendered again. NOTIFY goes only once it
    is there: woken before, the other servers rendered it again."""
    url = postgres_server.new_database()
    tapping, other = push_process(url), push_process(url)
    table = tapping.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    ana = joined_phone(tapping, table["seats"][0]["join_url"])
    bruno = joined_phone(other, table["seats"][1]["join_url"])
    shared = "SELECT part, html FROM rendered_parts WHERE table_id = %s AND version = 1 AND part LIKE %s"
    parts_when_notified = []
    notify = postgres.PostgresStore.notify

    def counting_notify(db, table_id: str) -> None:
        with psycopg.connect(url) as connection:
            parts_when_notified.append(len(connection.execute(shared, [table["id"], "('table'%"]).fetchall()))
        notify(db, table_id)

    monkeypatch.setattr(postgres.PostgresStore, "notify", counting_notify)
    assert page_tap(ana, table["id"], {"type": "set_aside", "face": "worm", "count": 2}, 0).status_code == 200
    assert parts_when_notified == [1]
    with psycopg.connect(url) as connection:
        [(part, _html)] = connection.execute(shared, [table["id"], "('table'%"]).fetchall()
        connection.execute("UPDATE rendered_parts SET html = html || '<!-- published -->' WHERE part = %s", [part])
    seen = bruno.get(f"/t/{table['id']}/poll?v=0", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'data-version="1"' in seen and seen.endswith("<!-- published -->")


def test_twenty_phones_writing_through_two_servers_lose_nothing(postgres_server, tmp_path):
    """Each phone sends its table's next action with expected_version, through either
    server at random, as fast as answers come: every 200 is in the log exactly once, in
    order, and every refusal is a 409 that the table moved on."""
    url = postgres_server.new_database()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running_companion(tmp_path / "a", url) as first, running_companion(tmp_path / "b", url) as second:
        servers = (first, second)
        tables = [
            requests.post(first + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
            for _ in range(4)
        ]
        accepted: dict[str, list[tuple[int, dict]]] = {table["id"]: [] for table in tables}
        unexpected: list[tuple[int, str]] = []
        lock = threading.Lock()

        def phone(number: int) -> None:
            table = tables[number % len(tables)]
            pick = random.Random(number)
            with requests.Session() as http:
                http.headers["Authorization"] = f"Bearer {table['host_token']}"
                for _ in range(15):
                    server = pick.choice(servers)
                    state = http.get(f"{server}/api/tables/{table['id']}", timeout=30).json()
                    if state["status"] != "playing":
                        return
                    action = next_action(state["state"]["turn"])
                    response = http.post(
                        f"{server}/api/tables/{table['id']}/actions",
                        json={**action, "expected_version": state["version"]},
                        timeout=30,
                    )
                    with lock:
                        if response.status_code == 200:
                            accepted[table["id"]].append((response.json()["version"], action))
                        elif response.status_code != 409 or response.json()["code"] != "stale_version":
                            unexpected.append((response.status_code, response.text[:200]))

        with ThreadPoolExecutor(20) as pool:
            list(pool.map(phone, range(20)))

        assert not unexpected
        assert sum(len(actions) for actions in accepted.values()) >= 20  # the load did write
        for table in tables:
            log = requests.get(f"{second}/api/tables/{table['id']}/log", timeout=10).json()["events"]
            assert sorted(accepted[table["id"]], key=lambda entry: entry[0]) == [(e["seq"], e["action"]) for e in log]


def test_the_notifier_connects_again_and_misses_nothing_when_postgresql_drops_it(postgres_server, tmp_path):
    url = postgres_server.new_database()
    with running_companion(tmp_path, url, processes=1) as server:
        table = requests.post(server + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
        phone = Stream(f"{server}/t/{table['id']}/events?v=0")
        assert phone.next_event()["event"] == "hello"
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:  # the LISTENing connection cut
            cut = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
                [url.rsplit("/", 1)[1], NOTIFIER_NAME],
            ).fetchall()
        assert cut == [(True,)]
        requests.post(
            f"{server}/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 1},
            headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10,
        ).raise_for_status()
        assert phone.next_table()["id"] == "1"
        phone.close()


def test_backup_of_a_postgresql_database_is_pg_dump_and_restores(postgres_server, tmp_path):
    url = postgres_server.new_database()
    env_path = f"{binaries()}:" + os.environ["PATH"]
    with running_companion(tmp_path, url, processes=1) as server:
        table = requests.post(server + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
        requests.post(
            f"{server}/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 2},
            headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10,
        ).raise_for_status()
        copy = tmp_path / "companion.dump"
        done = subprocess.run(
            [sys.executable, "-m", "companion", "backup", str(copy)],
            env={**os.environ, "COMPANION_DATABASE": url, "PATH": env_path}, capture_output=True, text=True,
        )
        assert done.returncode == 0, done.stderr
        assert copy.stat().st_size > 0
    restored = postgres_server.new_database(migrated=False)  # pg_restore fills an empty one
    subprocess.run([str(binaries() / "pg_restore"), "--no-owner", "-d", restored, str(copy)], check=True)
    (tmp_path / "again").mkdir()
    with running_companion(tmp_path / "again", restored, processes=1) as server:
        log = requests.get(f"{server}/api/tables/{table['id']}/log", timeout=10).json()["events"]
        assert [event["action"] for event in log] == [{"type": "set_aside", "face": "worm", "count": 2}]


def test_unreachable_postgresql_is_a_sentence_at_start_not_a_traceback(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--port", "0"],
        env={**os.environ, "COMPANION_DATABASE": "postgresql://nobody@127.0.0.1:1/none",
             "COMPANION_DATABASE_WAIT": "2", "COMPANION_INSTANCE": str(tmp_path)},
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert "cannot be reached" in done.stderr and "Traceback" not in done.stderr


def test_under_the_push_server_a_request_waiting_for_postgresql_lets_the_others_run(postgres_server):
    """gevent runs every phone's connection of a process on one thread: psycopg's own wait
    (in C) would stop them all while one query waits. With green waits the others go on."""
    import gevent

    url = postgres_server.new_database()
    postgres.use_green_waits()
    ticks = []

    def ticking() -> None:
        for _ in range(20):
            ticks.append(1)
            gevent.sleep(0.01)

    with postgres.connect(url) as conn:
        ticker = gevent.spawn(ticking)
        conn.execute("SELECT pg_sleep(0.3)")
        during = len(ticks)
        ticker.join()
    assert during >= 10  # the ticker ran while the query waited (with C's wait: 0 or 1)


def test_postgresql_gone_is_a_503_with_a_sentence_and_the_companion_recovers_when_it_is_back(tmp_path):
    """Its own PostgreSQL server, stopped under a running companion and started again."""
    server = PostgresServer().start()
    try:
        app = create_app({"DATABASE": server.new_database(), "SECRET_KEY": "test", "TESTING": True})
        client = app.test_client()
        table = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
        assert client.get("/healthz/database").status_code == 204
        server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")

        refused = client.post(
            f"/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 1},
            headers=bearer(table["host_token"]),
        )
        assert_error(refused, 503, "storage_unavailable")
        assert refused.get_json()["error"] == str(web.DATABASE_UNREACHABLE)  # not this machine's disk
        assert client.get(f"/api/tables/{table['id']}").status_code == 503
        page = client.get(f"/t/{table['id']}")
        assert page.status_code == 503 and str(web.DATABASE_UNREACHABLE) in page.text
        assert client.get("/healthz/database").status_code == 503

        server.start_again()
        answers = [client.get(f"/api/tables/{table['id']}").status_code for _ in range(POOL_SIZE + 2)]
        assert answers[-1] == 200  # every broken pooled connection replaced, at the latest once used
        accepted = client.post(
            f"/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 1},
            headers=bearer(table["host_token"]),
        )
        assert accepted.status_code == 200 and accepted.get_json()["version"] == 1
    finally:
        server.stop()


def test_a_write_that_finds_postgresql_gone_says_the_database_is_out_of_reach_not_a_disk(tmp_path):
    """The table was read, then PostgreSQL went away before the write: the refusal says the
    database cannot be reached (not "a full disk"), and nothing was written."""
    server = PostgresServer().start()
    try:
        url = server.new_database()
        app = create_app({"DATABASE": url, "SECRET_KEY": "test", "TESTING": True})
        table = app.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
        db = database_module.connect(url)
        host = service.identify(db, table["id"], table["host_token"])
        server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")
        with pytest.raises(service.ServiceError) as refused:
            service.act(db, table["id"], host, {"type": "set_aside", "face": "worm", "count": 1, "seat": 0})
        assert (refused.value.status, refused.value.code) == (503, "storage_unavailable")
        assert refused.value.text == service.NOT_SAVED_DATABASE_UNREACHABLE
        server.start_again()
        db.close()
        db = database_module.connect(url)
        assert service.load(db, table["id"]).version == 0  # nothing written
        db.close()
    finally:
        server.stop()


def test_a_postgresql_with_a_full_disk_is_said_to_be_full_not_out_of_reach():
    """PostgreSQL answering that its disk is full (SQLSTATE 53100) is a full disk, as on
    SQLite; a lost connection is a database out of reach."""
    disk_full = postgres.failure(psycopg.errors.DiskFull("could not extend file"))
    assert disk_full.full and not disk_full.unreachable
    assert postgres.failure(psycopg.OperationalError("connection refused")).unreachable


def test_after_postgresql_restarted_no_request_meets_a_broken_connection(tmp_path):
    """The push server opens all its pooled connections up front: a restart of PostgreSQL
    breaks every one. The pool checks each before a request gets it (it was: the first
    request answered 503, then the others were checked)."""
    server = PostgresServer().start()
    try:
        with running_companion(tmp_path, server.new_database(), processes=1) as companion:
            table = requests.post(companion + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
            server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")
            server.start_again()
            answers = [requests.get(f"{companion}/api/tables/{table['id']}", timeout=30).status_code for _ in range(POOL_SIZE)]
            assert answers == [200] * POOL_SIZE, answers
    finally:
        server.stop()


def test_while_postgresql_is_unreachable_a_push_server_process_keeps_answering_its_other_connections(tmp_path):
    """A request waiting for a database connection that cannot be had waits gevent's way:
    the same process (one here) answers other requests meanwhile."""
    server = PostgresServer().start()
    try:
        with running_companion(tmp_path, server.new_database(), processes=1) as companion:
            table = requests.post(companion + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
            server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")
            for _ in range(POOL_SIZE):  # every pooled connection found broken, and dropped
                assert requests.get(f"{companion}/api/tables/{table['id']}", timeout=30).status_code == 503
            waiting = ThreadPoolExecutor(1).submit(requests.get, f"{companion}/api/tables/{table['id']}", timeout=30)
            time.sleep(0.5)  # it now waits for a connection that cannot be made
            answered_meanwhile = requests.get(f"{companion}/healthz", timeout=30).status_code
            still_waiting = not waiting.done()
            assert waiting.result().status_code == 503
            assert answered_meanwhile == 204 and still_waiting
    finally:
        server.stop()


def test_after_postgresql_was_away_for_half_a_minute_the_companion_is_back_within_seconds(tmp_path):
    """Found at a real install: psycopg's pool tried again after 1, 2, 4, 8, 16, 32 s, so
    after PostgreSQL was away for a minute the companion answered 503 for another half
    minute. An attempt now gives up after a few seconds and the next request starts a new
    one at once. (Generous bound: the old pool's next try came some 28 s after this restart.)"""
    server = PostgresServer().start()
    try:
        with running_companion(tmp_path, server.new_database(), processes=1) as companion:
            table = requests.post(companion + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
            address = f"{companion}/api/tables/{table['id']}"
            server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")
            away_until = time.monotonic() + 35
            while time.monotonic() < away_until:  # phones keep asking meanwhile
                assert requests.get(address, timeout=30).status_code == 503
                time.sleep(1)
            server.start_again()
            back = time.monotonic()
            while requests.get(address, timeout=30).status_code != 200:
                assert time.monotonic() - back < 15, "still unreachable 15 s after PostgreSQL was back"
                time.sleep(0.5)
    finally:
        server.stop()


def test_a_companion_started_before_postgresql_waits_for_it(tmp_path):
    """Both started at boot, the companion first: it says it waits, and serves once
    PostgreSQL answers (found by the operations test: it exited at once)."""
    server = PostgresServer().start()
    database = server.new_database()
    server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--processes", "1"],
            env={**os.environ, "COMPANION_DATABASE": database, "COMPANION_INSTANCE": str(tmp_path)},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        try:
            said = process.stdout.readline()
            assert " WARNING companion: Waiting for PostgreSQL at" in said and "up to 30 s" in said, said  # the log's format
            server.start_again()
            deadline = time.monotonic() + 30
            while True:
                try:
                    if requests.get(f"http://127.0.0.1:{port}/healthz/database", timeout=2).status_code == 204:
                        break
                except requests.ConnectionError:
                    pass
                assert process.poll() is None and time.monotonic() < deadline, "the companion gave up or never served"
                time.sleep(0.2)
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
    finally:
        server.stop()


def test_a_postgresql_that_answers_and_refuses_is_said_at_once_and_bad_settings_too(postgres_server, tmp_path):
    base = postgres_server.new_database().rsplit("/", 1)[0]
    for environment, sentence in [
        ({"COMPANION_DATABASE": base + "/no_such_database"}, "cannot be reached"),
        ({"COMPANION_DATABASE": postgres_server.new_database(), "COMPANION_DATABASE_WAIT": "soon"}, "COMPANION_DATABASE_WAIT is how many seconds"),
        ({"COMPANION_DATABASE": postgres_server.new_database(), "COMPANION_DATABASE_POOL": "eight"}, "COMPANION_DATABASE_POOL is how many connections"),
        ({"COMPANION_DATABASE": postgres_server.new_database(), "COMPANION_DATABASE_POOL": "0"}, "from 1 to 100: '0' is not one."),
    ]:
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--port", "0"],
            env={**os.environ, **environment, "COMPANION_INSTANCE": str(tmp_path)}, capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 1 and sentence in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert "Waiting for PostgreSQL" not in done.stderr + done.stdout

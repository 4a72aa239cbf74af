"""PostgreSQL run unattended (issue 43): a restart under traffic costs no request once it is
back, the schema's ownership is said in one sentence, the pools fit PostgreSQL's
connections, a backup keeps the password off pg_dump's command line, the logs."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import requests

from companion.tables import postgres
from companion.tables.store import StorageFailure
from databases import PostgresServer, binaries
from servers import running_companion

pytestmark = pytest.mark.postgresql

NAMES = itertools.count(1)


def test_after_a_restart_of_postgresql_under_traffic_every_request_answers_200(tmp_path):
    """Phones keep asking while PostgreSQL restarts (`pg_ctl restart` as an upgrade does):
    once it answers again, not one request fails, on any server process (each of which has
    a pool of connections the restart broke)."""
    server = PostgresServer().start()
    try:
        with running_companion(tmp_path, server.new_database(), processes=2) as companion:
            table = requests.post(companion + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
            addresses = [f"{companion}/api/tables/{table['id']}", f"{companion}/t/{table['id']}", f"{companion}/"]
            answers: list[tuple[float, int]] = []  # (when asked, status)
            stop = threading.Event()

            def phone(number: int) -> None:
                session = requests.Session()  # a phone's kept-alive connection, as a browser's
                while not stop.is_set():
                    asked = time.monotonic()
                    status = session.get(addresses[number % len(addresses)], timeout=30).status_code
                    answers.append((asked, status))
                    time.sleep(1)  # polls a second apart: the restart falls between most

            phones = [threading.Thread(target=phone, args=(number,)) for number in range(6)]
            for thread in phones:
                thread.start()
            time.sleep(1.5)
            server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "-w", "restart")
            back = time.monotonic()
            time.sleep(5)
            stop.set()
            for thread in phones:
                thread.join()
            after = [status for asked, status in answers if asked >= back]
            assert len(after) >= 20 and set(after) == {200}, sorted(set(after))
            acted = requests.post(
                f"{companion}/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 1},
                headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10,
            )
            assert acted.status_code == 200
    finally:
        server.stop()


def cut(admin_url: str, store) -> None:
    """End `store`'s connection from PostgreSQL's side, as a restart does."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [store.conn.info.backend_pid])
    time.sleep(0.2)  # the end reaches the client's socket


def test_a_read_that_meets_a_broken_connection_is_tried_again_once_on_a_fresh_one(postgres_server):
    """A connection broken after the pool checked it (PostgreSQL restarted between): the
    read is run again on a fresh connection; a write is not (it may have been done) and is
    refused as the storage failing."""
    url = postgres_server.new_database()
    pool = postgres.pool_for(url, green=False)
    store = pool.take()
    try:
        cut(postgres_server.url(), store)
        assert store.execute("SELECT count(*) FROM game_tables").fetchone() == (0,)
        cut(postgres_server.url(), store)
        with pytest.raises(StorageFailure):
            with store.transaction(("a-table",), wait=True):
                store.execute("SELECT 1")
    finally:
        store.close()


def test_a_retried_read_that_finds_no_fresh_connection_gives_the_broken_one_back_once(postgres_server, monkeypatch):
    """Review of issue 43: PostgreSQL still down when the read is tried again (no fresh
    connection in time): the broken connection went back to the pool at the exchange and
    again when the request ended, and each return made the pool queue another connection,
    past the budget it was sized to. Now it goes back once, and the request fails as the
    storage failing."""
    from psycopg_pool import PoolTimeout

    url = postgres_server.new_database()
    pool = postgres.pool_for(url, green=False)
    store = pool.take()
    returned = []
    real_putconn = pool.pool.putconn
    monkeypatch.setattr(pool.pool, "putconn", lambda connection: (returned.append(connection), real_putconn(connection)))

    def still_down(*args, **kwargs):
        raise PoolTimeout("PostgreSQL is still restarting")

    cut(postgres_server.url(), store)
    broken = store.conn
    monkeypatch.setattr(pool.pool, "getconn", still_down)
    with pytest.raises(StorageFailure):
        store.execute("SELECT count(*) FROM game_tables")
    store.close()
    assert returned == [broken]


def serve_until_it_ends(database: str, tmp_path, *options: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`companion serve` that is expected to refuse to start: what it said, and how it ended."""
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path), "COMPANION_DATABASE": database, **(env or {})}
    if "--port" not in options:
        options = ("--port", "0", *options)
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", *options],
        env=env, capture_output=True, text=True, timeout=60,
    )


def new_role_and_database(postgres_server, owner: bool) -> tuple[str, str]:
    """A login role and an empty database (owned by the role, as docs/hosting.md creates it,
    or by the superuser, as following PostgreSQL's defaults does): (role, its URL)."""
    role = f"companion_role_{os.getpid()}_{next(NAMES)}"
    name = f"{role}_db"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"CREATE DATABASE {name}" + (f" OWNER {role}" if owner else ""))
    return role, postgres_server.url(name).replace("postgres@", f"{role}@", 1)


def test_a_role_that_does_not_own_the_public_schema_is_told_the_fix_in_one_sentence(postgres_server, tmp_path):
    """PostgreSQL 15 lets only a database's owner create tables in `public`: the companion's
    role refused at its first migration is one sentence naming the fix, no traceback; the
    fix it names works."""
    role, url = new_role_and_database(postgres_server, owner=False)
    refused = serve_until_it_ends(url, tmp_path)
    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr and "InsufficientPrivilege" not in refused.stderr
    said = refused.stderr.strip()
    assert said.count("\n") == 0 and f"The role {role} may not create the companion's tables" in said
    assert f"ALTER SCHEMA public OWNER TO {role};" in said
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} OWNER TO {role}")
    with psycopg.connect(postgres_server.url(name), autocommit=True) as admin:
        admin.execute(f"ALTER SCHEMA public OWNER TO {role}")
    postgres.migrate(url)  # the fix said


def test_a_database_created_owned_by_the_companions_role_migrates(postgres_server):
    """docs/hosting.md's commands: `createdb --owner companion companion`."""
    _role, url = new_role_and_database(postgres_server, owner=True)
    postgres.migrate(url)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT version FROM companion_schema").fetchone()[0] > 0


def test_backup_gives_pg_dump_the_password_through_its_environment_and_writes_the_dump_0600(postgres_server, tmp_path):
    """Anyone on the machine may list processes' command lines (ps, /proc/<pid>/cmdline): the
    password is not on pg_dump's, and the dump (the players' names) is its owner's only, as
    SQLite's backup is. pg_dump runs for real, through a recorder on the PATH that writes
    down the command line it was given and whether PGPASSWORD reached it."""
    url = postgres_server.new_database().replace("postgres@", "postgres:s3cr%40t@", 1)
    recorder = tmp_path / "bin"
    recorder.mkdir()
    (recorder / "pg_dump").write_text(
        "#!/bin/sh\n"
        f"tr '\\0' '\\n' < /proc/$$/cmdline > {tmp_path}/cmdline\n"
        f"printf '%s' \"$PGPASSWORD\" > {tmp_path}/password\n"
        f"exec {binaries()}/pg_dump \"$@\"\n"
    )
    (recorder / "pg_dump").chmod(0o755)
    copy = tmp_path / "companion.dump"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "backup", str(copy)],
        env={**os.environ, "COMPANION_DATABASE": url, "PATH": f"{recorder}:{os.environ['PATH']}"},
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    command_line = (tmp_path / "cmdline").read_text()
    assert "s3cr" not in command_line and "127.0.0.1" in command_line
    assert (tmp_path / "password").read_text() == "s3cr@t"
    assert copy.stat().st_mode & 0o777 == 0o600 and copy.stat().st_size > 0
    assert "s3cr" not in done.stdout + done.stderr


def test_a_url_without_its_password_keeps_everything_else():
    assert postgres.without_password("postgresql://companion:p%2Fw@db.example:5433/companion?sslmode=require") == (
        "postgresql://companion@db.example:5433/companion?sslmode=require", "p/w"
    )
    assert postgres.without_password("postgresql://companion@db.example/companion") == ("postgresql://companion@db.example/companion", None)
    # libpq reads a password in the query too (review of issue 43): out of the command line and the console
    assert postgres.without_password("postgresql://companion@db.example/companion?sslmode=require&password=s%40cret") == (
        "postgresql://companion@db.example/companion?sslmode=require", "s@cret"
    )
    assert postgres.shown("postgresql://companion@db.example/companion?password=secret&sslmode=require") == (
        "postgresql://companion@db.example/companion?sslmode=require&password=***"
    )
    assert postgres.shown("postgresql://companion:secret@db.example/companion") == "postgresql://companion:***@db.example/companion"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_pools_that_postgresql_cannot_hold_are_refused_with_the_budget_or_made_smaller(tmp_path):
    """A PostgreSQL of 30 connections (3 reserved for its superuser): 8 processes asking for
    8 connections each (and a notifier's) are refused with the budget in one sentence; the
    default pool is made smaller to fit and says so; too many processes for even one each
    are refused."""
    server = PostgresServer(max_connections=30).start()
    try:
        url = server.new_database()
        port = str(free_port())
        refused = serve_until_it_ends(url, tmp_path, "--processes", "8", "--port", port, env={"COMPANION_DATABASE_POOL": "8"})
        assert refused.returncode == 1, refused.stdout + refused.stderr
        said = refused.stderr.strip()
        assert "\n" not in said and "Traceback" not in said
        assert said.startswith("8 processes × 9 connections = 72 of PostgreSQL's 30, with 3 reserved and 0 in use already: too many.")
        assert "--processes" in said and "COMPANION_DATABASE_POOL" in said and "max_connections" in said
        too_many = serve_until_it_ends(url, tmp_path, "--processes", "30", "--port", port)
        assert too_many.returncode == 1 and too_many.stderr.startswith("30 processes × 9 connections = 270 of PostgreSQL's 30")
        log = tmp_path / "served.log"
        with running_companion(tmp_path, url, processes=4, log=log) as companion:
            table = requests.post(companion + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10)
            assert table.status_code == 201
            with psycopg.connect(server.url(), autocommit=True) as admin:
                held = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'companion%'").fetchone()[0]
        assert "PostgreSQL connections: 4 processes × 6 connections = 24 of PostgreSQL's 30, with 3 reserved" in log.read_text()
        assert held <= 24
    finally:
        server.stop()


@contextmanager
def serving(tmp_path, database: str, *options: str):
    """`companion serve` with its console (stdout) and its log (stderr) apart: (address,
    process, the log's file)."""
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    log = tmp_path / "stderr.log"
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path), "COMPANION_DATABASE": database}
    with open(tmp_path / "stdout.log", "ab") as console, open(log, "ab") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--public-url", address, *options],
            env=env, stdout=console, stderr=errors,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(address + "/healthz", timeout=2)
                break
            except requests.ConnectionError:
                assert process.poll() is None and time.monotonic() < deadline, "the companion did not start"
                time.sleep(0.1)
        yield address, process, log
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def test_a_postgresql_outage_logs_a_few_json_lines_and_its_end_at_info(tmp_path):
    """`--log-format json`: every line of the log, psycopg's and the companion's alike, is a
    JSON object with its time and level. 24 phones polling through a 6 s outage (each
    failed request waited up to 3 s for a connection) leave a few lines, each failure said once with the rest counted, and
    the recovery is said at INFO with that count (it was a warning, and 100-160 lines)."""
    server = PostgresServer().start()
    try:
        with serving(tmp_path, server.new_database(), "--processes", "2", "--log-format", "json") as (address, _process, log):
            table = requests.post(address + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
            stop = threading.Event()
            statuses: list[int] = []

            def phone() -> None:
                while not stop.is_set():
                    statuses.append(requests.get(f"{address}/api/tables/{table['id']}", timeout=30).status_code)
                    time.sleep(0.05)

            phones = [threading.Thread(target=phone) for _ in range(24)]
            for thread in phones:
                thread.start()
            server.run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-m", "fast", "stop")
            time.sleep(6)
            server.start_again()
            time.sleep(4)
            stop.set()
            for thread in phones:
                thread.join()
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    finally:
        server.stop()
    assert statuses.count(503) >= 24 and statuses[-1] == 200
    assert all(set(line) >= {"time", "level", "logger", "message"} for line in lines)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"]) for line in lines)
    loggers = {line["logger"] for line in lines}
    assert "companion.storage" in loggers and any(name.startswith("psycopg") for name in loggers), loggers
    assert len(lines) <= 40, "\n".join(line["message"] for line in lines)
    back = [line for line in lines if line["message"].startswith("PostgreSQL answers again")]
    assert back and all(line["level"] == "INFO" for line in back)
    assert all(line["level"] == "INFO" for line in lines if "are back" in line["message"] or "again" in line["message"])


def test_the_log_has_its_time_and_level_on_every_line_and_keeps_to_the_level_asked(tmp_path):
    """Text lines: `<ISO time> <LEVEL> <logger>: <message>` (a worker that dies and is
    started again is a warning); with --log-level error that warning is not written."""
    for level in ("info", "error"):
        folder = tmp_path / level
        folder.mkdir()
        with serving(folder, str(folder / "companion.sqlite3"), "--processes", "2", "--log-level", level) as (_address, process, log):
            worker = int(Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()[0])
            os.kill(worker, signal.SIGKILL)
            time.sleep(1.5)  # the parent starts another
        lines = log.read_text().splitlines()
        restarted = [line for line in lines if "stopped; starting it again" in line]
        if level == "info":
            assert restarted and re.fullmatch(
                r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARNING companion: Worker \d+ stopped; starting it again\.", restarted[0]
            ), lines
        else:
            assert not restarted, lines

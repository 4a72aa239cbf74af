"""`companion backup PATH` while phones are writing: each copy is one consistent moment of
the live database, and restoring it as the README says brings exactly that moment back."""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import closing
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from .workload import Writers

pytestmark = pytest.mark.slow  # backs up while real server processes write

TABLES = 8
COPIES = 3


def backup(database: Path, target: Path) -> None:
    """The command as the README gives it, run as users run it."""
    env = {**os.environ, "COMPANION_DATABASE": str(database)}
    done = subprocess.run([sys.executable, "-m", "companion", "backup", str(target)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"Backed up {database} to {target}." in done.stdout


def rows(path: Path) -> dict[str, set[tuple]]:
    with closing(sqlite3.connect(path)) as conn:
        return {
            "game_tables": set(conn.execute("SELECT id, version FROM game_tables")),
            "seats": set(conn.execute("SELECT * FROM seats")),
            "events": set(conn.execute("SELECT * FROM events")),
        }


def assert_consistent(copy: Path) -> None:
    """What one transaction writes together is all in the copy or all out of it."""
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        tables = conn.execute(
            "SELECT t.id, t.version, (SELECT count(*) FROM events e WHERE e.table_id = t.id),"
            " (SELECT count(*) FROM events e WHERE e.table_id = t.id AND e.undone = 1),"
            " (SELECT count(*) FROM seats s WHERE s.table_id = t.id) FROM game_tables t"
        ).fetchall()
    for table_id, version, events, undone, seats in tables:
        assert version == events + undone, table_id  # an action adds an event, an undo marks one
        assert seats >= 2, table_id


def test_backup_while_phones_write_is_consistent_and_restores_as_the_readme_says(companion_process, tmp_path: Path):
    server = companion_process()
    writers = Writers(server.url, TABLES).start()
    copies = []
    try:
        for number in range(COPIES):
            writers.wait_for(100 * (number + 1))
            copies.append(tmp_path / f"backup-{number}.sqlite3")
            backup(server.database, copies[-1])
        writers.wait_for(100 * (COPIES + 1))  # and the live database moves on after the last copy
        server.kill()  # the worst way to stop: the -wal and -shm files stay behind
    finally:
        writers.stop()
    assert not writers.acknowledged.unexpected

    live = rows(server.database)
    for copy in copies:
        assert_consistent(copy)
        kept = rows(copy)
        assert kept["events"] <= live["events"] and kept["seats"] <= live["seats"]  # a moment of the live database
    assert rows(copies[-1])["events"] < live["events"]

    # The README's restore: stop the companion (done: killed), delete the -wal and -shm files
    # beside the database, copy the backup in its place, start the companion again.
    for leftover in (Path(f"{server.database}-wal"), Path(f"{server.database}-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(copies[-1], server.database)
    restored = companion_process()
    for table_id, version in rows(copies[-1])["game_tables"]:
        state = requests.get(f"{restored.url}/api/tables/{table_id}")
        assert state.status_code == 200 and state.json()["version"] == version
    with closing(sqlite3.connect(server.database)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

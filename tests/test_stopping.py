"""Stopping `companion serve` the normal ways (Ctrl+C in its terminal, SIGTERM from a
service manager): every process stops quietly, the companion says so in one line, and the
database file alone holds every table, since the WAL's writes were moved into it.

Before, the last games stayed in the -wal file (a host who copied just companion.sqlite3
lost them), and Ctrl+C printed a KeyboardInterrupt from each worker."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from companion.server import processes

pytestmark = pytest.mark.slow  # each test starts and stops `companion serve` processes

SERVER_PATHS = [
    ["--server", "push", "--processes", "1"],
    ["--server", "push", "--processes", "2"],
    ["--server", "threads", "--processes", "1"],
    ["--server", "threads", "--processes", "2"],
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Companion:
    """`companion serve` on `database`, in a process group of its own (as a terminal's
    foreground job: Ctrl+C reaches the server and every worker)."""

    def __init__(self, folder: Path, database: Path, server: list[str]):
        self.url = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "COMPANION_INSTANCE": str(folder), "COMPANION_DATABASE": str(database)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", self.url.rsplit(":", 1)[1],
             *server],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(self.url + "/healthz", timeout=2)
                break
            except requests.ConnectionError:
                assert self.process.poll() is None and time.monotonic() < deadline, "the companion did not start"
                time.sleep(0.1)

    def start_a_table(self) -> str:
        created = requests.post(self.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10)
        table = created.json()
        acted = requests.post(
            f"{self.url}/api/tables/{table['id']}/actions", json={"type": "roll", "dice": ["worm"] * 8},
            headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10,
        )
        assert acted.status_code == 200
        return table["id"]

    def stop(self, how: str) -> list[str]:
        """What it printed after "Stop it with Ctrl+C.", once stopped."""
        if how == "SIGTERM":
            self.process.terminate()
        else:  # Ctrl+C in the terminal: SIGINT to every process of the foreground group
            os.killpg(self.process.pid, signal.SIGINT)
        out, _ = self.process.communicate(timeout=30)
        assert self.process.returncode == 0, out
        return out.split("Stop it with Ctrl+C.\n", 1)[1].splitlines()


@pytest.fixture
def start():
    """Companion(...) for a test, killed at its end if the test did not stop it."""
    started: list[Companion] = []

    def starting(*arguments) -> Companion:
        started.append(Companion(*arguments))
        return started[-1]

    yield starting
    for companion in started:
        if companion.process.poll() is None:
            os.killpg(companion.process.pid, signal.SIGKILL)
            companion.process.wait(timeout=10)


def tables_in_the_file_alone(database: Path, elsewhere: Path) -> list[str]:
    """The tables a copy of the .sqlite3 file alone holds (no -wal, no -shm beside it)."""
    elsewhere.mkdir()
    shutil.copy(database, elsewhere / database.name)
    with sqlite3.connect(elsewhere / database.name) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [row[0] for row in copy.execute("SELECT table_id FROM events ORDER BY table_id")]


def needs_processes(server: list[str]) -> None:
    if server[-1] != "1" and not processes.supported():
        pytest.skip("several processes are served on Linux only")


@pytest.mark.parametrize("how", ["SIGTERM", "Ctrl+C"])
@pytest.mark.parametrize("server", SERVER_PATHS, ids=" ".join)
def test_a_stopped_companion_leaves_every_table_in_the_database_file(start, tmp_path: Path, server: list[str], how: str):
    needs_processes(server)
    database = tmp_path / "companion.sqlite3"
    companion = start(tmp_path, database, server)
    tables = sorted(companion.start_a_table() for _ in range(3))
    companion.stop(how)
    wal = Path(f"{database}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert tables_in_the_file_alone(database, tmp_path / "copied") == tables


@pytest.mark.parametrize("server", SERVER_PATHS, ids=" ".join)
def test_ctrl_c_stops_every_process_quietly_in_one_line(start, tmp_path: Path, server: list[str]):
    needs_processes(server)
    companion = start(tmp_path, tmp_path / "companion.sqlite3", server)
    table_id = companion.start_a_table()
    held = requests.get(f"{companion.url}/t/{table_id}/events", stream=True, timeout=10)  # a phone's page, held
    time.sleep(2)  # idle workers: a KeyboardInterrupt then landed in gevent's hub, which printed it
    try:
        printed = companion.stop("Ctrl+C")
    finally:
        held.close()
    assert not any("KeyboardInterrupt" in line or "Traceback" in line for line in printed), printed
    # (on a busy machine waitress may have logged a queued request meanwhile)
    said = [line for line in printed if not line.startswith("WARNING:waitress.queue:")]
    several = server[-1] != "1"
    assert said == (["Serving from 2 processes."] if several else []) + ["Stopped."]


def test_stopping_one_companion_leaves_another_on_the_same_database_serving(start, tmp_path: Path):
    database = tmp_path / "companion.sqlite3"
    staying = start(tmp_path, database, ["--processes", "2"])
    leaving = start(tmp_path, database, ["--processes", "2"])
    tables = [staying.start_a_table(), leaving.start_a_table()]
    reading = requests.Session()
    assert leaving.stop("SIGTERM")[-1] == "Stopped."  # its checkpoint waited for the other's readers at most
    tables.append(staying.start_a_table())
    assert all(reading.get(f"{staying.url}/api/tables/{table}", timeout=10).status_code == 200 for table in tables)
    staying.stop("SIGTERM")
    assert tables_in_the_file_alone(database, tmp_path / "copied") == sorted(tables)

"""Shared fixtures: an app on a temporary SQLite file (or, where a suite runs on both
databases, on a fresh PostgreSQL database), and a real server over HTTP."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import pytest
import requests
from waitress.server import create_server

from companion import create_app
from databases import PostgresServer, make_database
from servers import running_companion


def pytest_configure(config):
    """A run started in the background by a script ignores SIGINT (the shell's rule for
    background jobs), and so would every server a test starts, inheriting it: a test's
    Ctrl+C would then stop nothing. The tests' servers get SIGINT as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server for the whole run (each test gets a database of its own)."""
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def database(tmp_path: Path) -> str:
    """The companion's DATABASE: a SQLite file, unless the suite runs on both databases."""
    return make_database("sqlite", None, tmp_path)


@pytest.fixture
def app(database: str):
    return create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


class LiveServer:
    """The companion on waitress in a thread, on a free loopback port."""

    def __init__(self, app):
        self.app = app
        self.server = create_server(app, host="127.0.0.1", port=0, threads=8)
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        app.config["PUBLIC_URL"] = self.url
        self.stopping = False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        try:
            self.server.run()
        except OSError:
            # stop() closed the sockets under the loop's select(): the end, not a failure
            if not self.stopping:
                raise

    def start(self) -> "LiveServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping = True
        self.server.close()

    def create(self, players=("Ana", "Bruno", "Caio"), game="pickomino", options=None) -> dict:
        response = requests.post(
            self.url + "/api/tables", json={"game": game, "players": list(players), "options": options or {}}
        )
        response.raise_for_status()
        return response.json()


@pytest.fixture
def live_server(app):
    server = LiveServer(app).start()
    yield server
    server.stop()


@pytest.fixture
def push_server(tmp_path):
    """`companion serve` as users run it (the push server, two processes) on a fresh
    database in a free loopback port: its address."""
    with running_companion(tmp_path) as url:
        yield url

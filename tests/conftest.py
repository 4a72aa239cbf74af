"""Shared fixtures: an app on a temporary SQLite file, and a real server over HTTP."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
from waitress.server import create_server

from companion import create_app


@pytest.fixture
def app(tmp_path: Path):
    return create_app({"DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "test", "TESTING": True})


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
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--processes", "2",
         "--public-url", url],
        env={**os.environ, "COMPANION_INSTANCE": str(tmp_path)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            requests.get(url + "/healthz", timeout=2)
            break
        except requests.ConnectionError:
            assert process.poll() is None and time.monotonic() < deadline, "the companion did not start"
            time.sleep(0.1)
    yield url
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)

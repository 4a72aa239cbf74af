"""`companion serve` and `companion backup`, run as users run them."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import requests

from companion.server.cli import main


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_prints_the_phone_address_and_serves_on_a_production_server(tmp_path: Path):
    port = free_port()
    env = {**os.environ, "COMPANION_DATABASE": str(tmp_path / "db.sqlite3"), "COMPANION_INSTANCE": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        first_line = process.stdout.readline()
        assert "Phones on the same network open: http://" in first_line
        assert "localhost" not in first_line and f":{port}" in first_line
        for _attempt in range(100):
            try:
                response = requests.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        assert response.status_code == 200
        assert "Werkzeug" not in response.headers.get("Server", "")  # not Flask's development server
        created = requests.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "pickomino", "players": ["A", "B"]}, timeout=5)
        events = requests.get(f"http://127.0.0.1:{port}/t/{created.json()['id']}/events", stream=True, timeout=5)
        assert events.headers["Content-Type"].startswith("text/event-stream")  # the push server holds it
        events.close()
        assert (tmp_path / "db.sqlite3").exists()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_backup_copies_the_live_database_consistently(app, tmp_path: Path, monkeypatch, capsys):
    client = app.test_client()
    created = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    headers = {"Authorization": f"Bearer {created['host_token']}"}
    client.post(f"/api/tables/{created['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 3}, headers=headers)
    monkeypatch.setenv("COMPANION_DATABASE", app.config["DATABASE"])
    target = tmp_path / "copy.sqlite3"
    assert main(["backup", str(target)]) == 0
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT id FROM game_tables").fetchall() == [(created["id"],)]
    assert copy.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    assert main(["backup", str(target)]) == 1  # never overwrites without --force
    assert "exists already" in capsys.readouterr().err


def test_serve_with_threads_leaves_the_pages_polling(tmp_path: Path):
    """Where the push server cannot run (or with --server threads), waitress serves and
    the table pages poll: no held connection is offered."""
    port = free_port()
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--server", "threads"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )
    try:
        for _attempt in range(100):
            try:
                created = requests.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "pickomino", "players": ["A", "B"]}, timeout=2)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        table_id = created.json()["id"]
        page = requests.get(f"http://127.0.0.1:{port}/t/{table_id}", timeout=5).text
        assert "sse-connect" not in page and 'class="poller"' in page
        assert requests.get(f"http://127.0.0.1:{port}/t/{table_id}/events", timeout=5).status_code == 404
    finally:
        process.terminate()
        process.wait(timeout=10)

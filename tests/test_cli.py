"""`companion serve` and `companion backup`, run as users run them."""

from __future__ import annotations

import gc
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

from companion.web.app import PublicUrlUnusable, create_app
from companion.server import cli
from companion.server.cli import GC_YOUNG_OBJECTS, main


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
        assert first_line.startswith("Companion is running at http://") and "on this machine only" in first_line
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
    assert target.stat().st_mode & 0o777 == 0o600  # as private as the database it copies
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


SERVER_PATHS = [
    ["--server", "push", "--processes", "1"],
    ["--server", "push", "--processes", "2"],  # 1 where several processes are not supported
    ["--server", "threads", "--processes", "1"],  # macOS and Windows
    ["--server", "threads", "--processes", "2"],
]


def serve_once(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path)}
    env.pop("COMPANION_DATABASE", None)
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", *arguments], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("server", SERVER_PATHS, ids=" ".join)
def test_a_port_in_use_is_one_sentence_before_any_address_is_printed(tmp_path: Path, server: list[str]):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve_once(tmp_path, "--host", "127.0.0.1", "--port", str(port), *server)
    assert done.returncode == 1
    assert done.stderr == f"Port {port} is in use by another program.\n"
    assert done.stdout == ""  # no address, no QR code leading the phones to another program


@pytest.mark.parametrize("server", SERVER_PATHS, ids=" ".join)
@pytest.mark.parametrize(
    ("host", "sentence"),
    [
        # TEST-NET-3: an address no machine here has (as yesterday's DHCP address)
        ("203.0.113.7", "This machine has no address 203.0.113.7 (on the networks it is on now)"),
        ("nosuchhost.invalid", "This machine cannot find the address nosuchhost.invalid"),
    ],
    ids=["address-not-here", "unknown-name"],
)
def test_an_address_this_machine_does_not_have_is_one_sentence(tmp_path: Path, server: list[str], host: str, sentence: str):
    done = serve_once(tmp_path, "--host", host, "--port", str(free_port()), *server)
    assert done.returncode == 1
    assert done.stderr.startswith(sentence) and done.stderr.count("\n") == 1
    assert "--host" in done.stderr and done.stdout == ""


def test_port_0_prints_the_port_the_system_chose(tmp_path: Path):
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path)}
    env.pop("COMPANION_DATABASE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        first_line = process.stdout.readline()
        address = re.search(r"http://\S+?(?=,|\s|$)", first_line).group(0)
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", address) and not address.endswith(":0")
        assert requests.get(address + "/healthz", timeout=5).status_code == 204
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_backup_into_a_folder_that_does_not_exist_says_so(app, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DATABASE", app.config["DATABASE"])
    assert main(["backup", str(tmp_path / "no" / "such" / "b.sqlite3")]) == 1
    assert capsys.readouterr().err == f"The folder {tmp_path / 'no' / 'such'} does not exist; nothing was written.\n"
    assert not (tmp_path / "no").exists()


def test_a_backup_that_cannot_be_written_is_a_sentence(app, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DATABASE", app.config["DATABASE"])
    (tmp_path / "b.sqlite3.partial").mkdir()  # where the copy is written first: SQLite cannot open it
    assert main(["backup", str(tmp_path / "b.sqlite3")]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"The copy to {tmp_path / 'b.sqlite3'} failed (unable to open database file)")
    assert not (tmp_path / "b.sqlite3").exists()


def test_a_port_reserved_to_the_administrator_is_one_sentence():
    lowest = Path("/proc/sys/net/ipv4/ip_unprivileged_port_start")
    if not lowest.exists() or int(lowest.read_text()) <= 80:
        pytest.skip("this system lets anyone listen on port 80 (or does not say)")
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("as root, a low port needs another user to be refused (setpriv)")
    folder = Path(tempfile.mkdtemp(prefix="companion-port-"))  # where the unprivileged user may write
    folder.chmod(0o777)
    try:
        command = [sys.executable, "-m", "companion", "serve", "--port", "80", "--processes", "1"]
        if os.geteuid() == 0:
            command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
        env = {**os.environ, "COMPANION_INSTANCE": str(folder)}
        env.pop("COMPANION_DATABASE", None)
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "Port 80 is reserved to the system's administrator here: choose a port above 1023, e.g. --port 5000.\n"


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_backup_into_a_folder_asks_for_a_file_name(app, tmp_path: Path, monkeypatch, capsys, force):
    """`backup --force FOLDER`, which the "exists already" sentence led to, ended in a
    traceback (IsADirectoryError) and left a .partial copy beside the folder."""
    monkeypatch.setenv("COMPANION_DATABASE", app.config["DATABASE"])
    (tmp_path / "backups").mkdir()
    assert main(["backup", *force, str(tmp_path / "backups")]) == 1
    assert capsys.readouterr().err == (
        f"{tmp_path / 'backups'} is a folder: give the file to write, e.g. {tmp_path / 'backups' / 'companion-backup.sqlite3'}.\n"
    )
    assert not (tmp_path / "backups.partial").exists() and not any((tmp_path / "backups").iterdir())


@pytest.mark.parametrize(
    "option, value, sentence",
    [
        ("--port", "70000", "give a whole number from 0 to 65535, not '70000'"),
        ("--port", "-1", "give a whole number from 0 to 65535, not '-1'"),
        ("--processes", "0", "give a whole number from 1 to 64, not '0'"),
        ("--processes", "4000", "give a whole number from 1 to 64, not '4000'"),
        ("--threads", "0", "give a whole number from 1 to 256, not '0'"),
        ("--connections", "-3", "give a whole number from 1 to 100000, not '-3'"),
        ("--port", "5e3", "give a whole number from 0 to 65535, not '5e3'"),
        ("--port", "9" * 50, "give a whole number from 0 to 65535, not '" + "9" * 50 + "'"),
    ],
)
def test_a_number_option_out_of_its_bounds_is_one_sentence(capsys, option, value, sentence):
    """--port 70000 listened on 4464 (modulo 65536) and printed :70000 in the QR code;
    --threads 0 or --connections 0 served nothing and would not stop on Ctrl+C."""
    with pytest.raises(SystemExit) as stopped:
        main(["serve", option, value])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"companion serve: error: argument {option}: {sentence}"


@pytest.mark.parametrize(
    "url, problem",
    [
        ("notaurl", "is not an address"),
        ("http://[bad", "is not an address"),
        ("ftp://x y", "is not an address"),
        ("http://192.168.1.20:99999", "is not an address"),
        ("http://127.0.0.1:5640/sub", "has a path"),
        ("http://127.0.0.1:5640/?x=1", "has a path"),
    ],
)
def test_a_public_url_phones_could_not_use_is_one_sentence(tmp_path: Path, url, problem):
    """Join links were made of whatever --public-url said: notaurl/j/..., or /sub/j/... that
    led to /t/<id> without the prefix, a 404 behind the proxy."""
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path), "COMPANION_PUBLIC_URL": url}
    env.pop("COMPANION_DATABASE", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(free_port())],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"The public URL {url!r} {problem}"), done.stderr


def test_another_wsgi_server_is_refused_a_public_url_phones_could_not_use(tmp_path: Path, monkeypatch):
    """create_app() is what gunicorn or any WSGI server serves: it used to take any
    COMPANION_PUBLIC_URL, which only `companion serve` checked, and print join links with a
    path that led the phones to a 404."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "https://example.org/companion")
    monkeypatch.delenv("COMPANION_DATABASE", raising=False)
    with pytest.raises(PublicUrlUnusable, match=r"^The public URL 'https://example.org/companion' has a path"):
        create_app()
    assert list(tmp_path.iterdir()) == []  # refused before anything was made: not even the data folder


@pytest.mark.parametrize("output", ["ascii", "closed", "reader_gone"])
def test_serve_goes_on_whatever_becomes_of_its_output(tmp_path: Path, output):
    """Printing the QR code stopped the server before it served: an output whose encoding
    has no block characters (UnicodeEncodeError), a closed one (>&-), a pipe whose reader
    left (| head -1: BrokenPipeError)."""
    port = free_port()
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path), "PYTHONIOENCODING": "ascii" if output == "ascii" else "utf-8"}
    env.pop("COMPANION_DATABASE", None)
    stdout = {"ascii": subprocess.PIPE, "closed": subprocess.DEVNULL, "reader_gone": subprocess.PIPE}[output]
    command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if output == "closed":
        command = ["sh", "-c", 'exec "$@" >&-', "serve", *command]
    process = subprocess.Popen(command, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True)
    try:
        if output == "reader_gone":
            process.stdout.readline()
            process.stdout.close()
            process.stdout = None
        answered = None
        for _attempt in range(100):
            try:
                answered = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code
                break
            except requests.ConnectionError:
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.1)
        assert answered == 204
        assert requests.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
    finally:
        process.terminate()
        printed, errors = process.communicate(timeout=10)
    assert "Traceback" not in errors, errors
    if output == "ascii":
        assert "(No QR code here: this output cannot draw it. Phones open the address above.)" in printed
        assert "Stopped." in printed


def test_a_terminal_that_cannot_draw_the_qr_code_is_told_so_and_served(tmp_path: Path):
    """A real terminal (a tty) whose encoding has no block characters: qrcode draws with
    them there too, so the code came out as question marks no phone could read."""
    import pty

    port = free_port()
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path), "PYTHONIOENCODING": "ascii"}
    env.pop("COMPANION_DATABASE", None)
    terminal, its_end = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--processes", "1"],
        env=env, stdout=its_end, stderr=subprocess.PIPE, text=True,
    )
    os.close(its_end)
    try:
        shown = b""
        while b"Stop it with Ctrl+C." not in shown:
            shown += os.read(terminal, 4096)
        assert b"(No QR code here: this output cannot draw it. Phones open the address above.)" in shown
        assert b"?" not in shown.split(b"Data folder:")[0].split(b"\n", 2)[-1]  # no code drawn in question marks
        assert requests.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 204
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
        os.close(terminal)
    assert "Traceback" not in errors, errors


def test_serving_keeps_what_lives_as_long_as_the_server_out_of_the_collector_and_collects_less_often(tmp_path: Path, monkeypatch, capsys):
    """Thousands of held connections: the collector's young generation takes GC_YOUNG_OBJECTS
    before a pass, so the requests under way are not promoted into full passes that stop
    every connection of a process (bench/push.py at 1,000 x 5). Settled before the server
    (and its worker processes, forked from it) starts."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("COMPANION_DATABASE", str(tmp_path / "companion.sqlite3"))
    before = gc.get_threshold()
    started_with = []

    def serve_push(app, args, workers, sock):
        started_with.append((gc.get_threshold(), gc.get_freeze_count()))
        sock.close()
        return 0

    monkeypatch.setattr(cli, "serve_push", serve_push)
    try:
        assert main(["serve", "--host", "127.0.0.1", "--port", "0"]) == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    [(threshold, frozen)] = started_with
    assert threshold == (GC_YOUNG_OBJECTS, before[1], before[2]) and GC_YOUNG_OBJECTS > before[0]
    assert frozen > 0

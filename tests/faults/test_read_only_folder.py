"""A database in a folder nobody may write: `companion serve` serves its tables for reading
(every change refused with a sentence), or says in one sentence why it cannot.

Real conditions: the database is made by the companion, its folder and file are then made
read-only, and `companion serve` runs as an unprivileged user (as root, chmod stops
nothing: the server is started as `nobody` through setpriv). SQLite needs a WAL
database's -shm file to read it and cannot create one there: before, the server died with
a traceback at its first PRAGMA.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests


COMPANION = str(Path(sys.executable).with_name("companion"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_unprivileged_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]


@pytest.fixture
def folders():
    """A database folder and an instance folder the unprivileged user can reach."""
    top = Path(tempfile.mkdtemp(prefix="companion-ro-"))
    top.chmod(0o755)
    data, instance = top / "data", top / "instance"
    data.mkdir()
    instance.mkdir(mode=0o777)
    instance.chmod(0o777)
    yield data, instance
    data.chmod(0o755)
    shutil.rmtree(top)


def made_by_the_companion(data: Path, instance: Path) -> tuple[Path, str]:
    """A database with one table, made by a companion process that then stopped."""
    database = data / "companion.sqlite3"
    script = (
        "import sys\n"
        "from companion.web.app import create_app\n"
        "app = create_app({'DATABASE': sys.argv[1], 'SECRET_KEY': 'test', 'TESTING': True})\n"
        "created = app.test_client().post('/api/tables', json={'game': 'pickomino', 'players': ['Ana', 'Bruno']})\n"
        "print(created.get_json()['id'])\n"
    )
    made = subprocess.run(
        [sys.executable, "-c", script, str(database)], env={**os.environ, "COMPANION_INSTANCE": str(instance)},
        capture_output=True, text=True, check=True,
    )
    return database, made.stdout.strip()


def serve(database: Path, instance: Path, port: int) -> subprocess.Popen:
    environment = {**os.environ, "COMPANION_DATABASE": str(database), "COMPANION_INSTANCE": str(instance)}
    command = [COMPANION, "serve", "--host", "127.0.0.1", "--port", str(port), "--processes", "1"]
    return subprocess.Popen(
        as_unprivileged_user(command), env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def make_read_only(data: Path) -> None:
    for path in data.iterdir():
        path.chmod(0o444)
    data.chmod(0o555)


def test_read_only_folder_the_tables_are_served_for_reading_and_changes_refused(folders):
    data, instance = folders
    database, table_id = made_by_the_companion(data, instance)
    assert not Path(f"{database}-shm").exists()  # closed cleanly: no -shm left to read it with
    make_read_only(data)
    port = free_port()
    server = serve(database, instance, port)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.communicate()
            try:
                page = requests.get(f"{url}/t/{table_id}", timeout=5)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        assert page.status_code == 200 and "Pickomino" in page.text
        assert requests.get(f"{url}/api/tables/{table_id}", timeout=5).json()["players"][0]["name"] == "Ana"
        refused = requests.post(
            f"{url}/api/tables", json={"game": "pickomino", "players": ["Caio", "Davi"]}, timeout=5
        )
        assert refused.status_code == 503 and refused.json()["code"] == "storage_unavailable"
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert "The database's folder is read-only: the tables are served for reading" in out
    assert "Traceback" not in err
    assert sorted(path.name for path in data.iterdir()) == ["companion.sqlite3"]  # nothing written there


def test_read_only_folder_with_unsaved_writes_left_in_the_wal_says_why_it_cannot_start(folders):
    data, instance = folders
    database, _table_id = made_by_the_companion(data, instance)
    # A process killed while writing leaves its last commits in the -wal file.
    script = (
        "import os, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute(\"UPDATE game_tables SET updated_at = 'later'\")\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(database)], check=True)
    assert Path(f"{database}-wal").stat().st_size > 0
    Path(f"{database}-shm").unlink()
    make_read_only(data)
    server = serve(database, instance, free_port())
    out, err = server.communicate(timeout=60)
    assert server.returncode == 1
    assert "Traceback" not in err
    assert err.strip() == (
        f"The database {database} cannot be opened: its folder is read-only and its last writes are still in"
        " companion.sqlite3-wal. Make the folder writable (or copy the folder somewhere writable) and start again."
    )


def serve_in(instance: Path, database: Path | None = None) -> subprocess.CompletedProcess:
    """`companion serve` as the unprivileged user, its data folder `instance`, until it stops."""
    environment = {**os.environ, "COMPANION_INSTANCE": str(instance)}
    environment.pop("COMPANION_DATABASE", None)
    if database is not None:
        environment["COMPANION_DATABASE"] = str(database)
    command = [COMPANION, "serve", "--host", "127.0.0.1", "--port", str(free_port()), "--processes", "1"]
    return subprocess.run(as_unprivileged_user(command), env=environment, capture_output=True, text=True, timeout=60)


def test_a_data_folder_it_cannot_make_is_one_sentence_naming_it(folders):
    data, _instance = folders
    data.chmod(0o555)
    done = serve_in(data / "companion")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"The companion cannot write to its data folder {data / 'companion'} (Permission denied): make it"
        " writable, or set COMPANION_INSTANCE to a folder it may write.\n"
    )


def test_a_read_only_data_folder_is_one_sentence_naming_it(folders):
    data, _instance = folders
    data.chmod(0o555)  # its cookie key cannot be written
    done = serve_in(data)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"The companion cannot write to its data folder {data} (Permission denied)")
    assert "COMPANION_INSTANCE" in done.stderr and done.stderr.count("\n") == 1


def test_a_database_it_cannot_create_is_one_sentence_naming_it(folders):
    data, instance = folders
    data.chmod(0o555)
    done = serve_in(instance, data / "companion.sqlite3")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"The database {data / 'companion.sqlite3'} cannot be created")
    assert "COMPANION_DATABASE" in done.stderr and done.stderr.count("\n") == 1
    done = serve_in(instance, data / "more" / "companion.sqlite3")  # its folder cannot be made either
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"The companion cannot write to the database's folder {data / 'more'}")


def test_a_new_database_and_its_wal_are_readable_by_their_owner_only(tmp_path: Path):
    """helper QA: the database was made 0644 (names, Lobo's dealt colours) while the secret
    key's file is 0600."""
    from companion.web.app import create_app

    database = tmp_path / "companion.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test", "TESTING": True})
    assert app.test_client().post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).status_code == 201
    made = sorted(path.name for path in tmp_path.glob("companion.sqlite3*"))
    assert made == ["companion.sqlite3", "companion.sqlite3-shm", "companion.sqlite3-wal"]  # the app keeps one open
    for name in made:
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name


@pytest.mark.parametrize("below", ["", "companion"])
def test_a_data_folder_that_is_a_file_is_one_sentence_naming_the_file(folders, below):
    """helper QA: COMPANION_INSTANCE=/etc/passwd said "cannot write ... (File exists)"."""
    data, _instance = folders
    (data / "notes.txt").write_text("")
    folder = data / "notes.txt" / below if below else data / "notes.txt"
    done = serve_in(folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"The companion cannot use its data folder {folder}: {data / 'notes.txt'} is a file, not a folder."
        " Give a folder: set COMPANION_INSTANCE to a folder it may write.\n"
    )

"""The data folder on a small volume that fills up (an SD card, a small partition): real
ENOSPC on a tmpfs of its own (conftest's small_volume). Issue 40, items 9 and 11."""

from __future__ import annotations

import sqlite3
import stat
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from companion.web.app import DataFolderUnusable, create_app


def test_a_full_disk_at_the_first_start_leaves_no_empty_key_and_the_next_start_serves(small_volume, tmp_path, monkeypatch):
    """A 0-byte secret_key (mode 0644) was left, and once there was room every page that
    signs a cookie answered 500, "no secret key was set", on every start."""
    instance = small_volume.path / "instance"
    instance.mkdir()
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    database = str(tmp_path / "companion.sqlite3")  # elsewhere: only the key meets the full disk
    small_volume.fill()
    with pytest.raises(DataFolderUnusable, match="No space left on device"):
        create_app({"DATABASE": database})
    assert not (instance / "secret_key").exists()
    assert list(instance.iterdir()) == []  # no half-written key left either

    small_volume.free()
    phone = create_app({"DATABASE": database}).test_client()
    assert phone.get("/").status_code == 200  # the page's form carries a CSRF token: a signed cookie
    key = instance / "secret_key"
    assert len(key.read_text().strip()) == 64
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_an_empty_key_is_a_missing_key(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text("\n")
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite3")})
    assert len(app.config["SECRET_KEY"]) == 64
    assert (tmp_path / "secret_key").read_text() == app.config["SECRET_KEY"]
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert app.test_client().get("/").status_code == 200


def test_a_kept_key_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    first = create_app({"DATABASE": str(tmp_path / "companion.sqlite3")}).config["SECRET_KEY"]
    assert create_app({"DATABASE": str(tmp_path / "companion.sqlite3")}).config["SECRET_KEY"] == first
    assert [path.name for path in tmp_path.iterdir() if "secret_key" in path.name] == ["secret_key"]


# --- item 11: the database's own WAL filling the volume --------------------------------------------
ONE_DIE_EACH = [{"type": "set_aside", "face": face, "count": 1} for face in (1, 2, 3, 4, 5, "worm")]


def write_until_refused(client, writes: int) -> int:
    """Up to `writes` writes through the API (tables started, actions entered): how many
    were taken before the first one refused (503), or `writes`."""
    done = 0
    while done < writes:
        created = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]})
        if created.status_code != 201:
            return done
        done += 1
        table = created.get_json()
        host = {"Authorization": f"Bearer {table['host_token']}"}
        for action in ONE_DIE_EACH:  # a die at a time: every action a version of its own
            if done >= writes:
                break
            acted = client.post(f"/api/tables/{table['id']}/actions", json=action, headers=host)
            if acted.status_code != 200:
                assert acted.status_code == 503, acted.get_json()
                return done
            done += 1
    return done


def test_writes_go_on_when_the_wal_fills_a_small_volume(small_volume):
    """On a 2 MB volume every write was refused after about 76 actions, for good: the WAL
    (checkpointed only once it holds 1,000 pages, 4 MB) had taken the volume. A write
    refused for space now moves the WAL into the database, empties it and tries once more."""
    database = small_volume.path / "companion.sqlite3"
    client = create_app({"DATABASE": str(database), "SECRET_KEY": "test"}).test_client()
    assert write_until_refused(client, 400) == 400


def test_a_start_after_a_killed_server_empties_its_wal_and_writes_go_on(small_volume):
    """A server killed on a small volume left its WAL behind, holding the volume: every write
    of the next start was refused too. The WAL is kept from taking the last bytes (so that
    it can still be moved into the database), and a start moves it and empties it."""
    database = small_volume.path / "companion.sqlite3"
    killed = (
        "import os, sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from companion.web.app import create_app\n"
        "from test_small_volume import write_until_refused\n"
        "client = create_app({'DATABASE': sys.argv[1], 'SECRET_KEY': 'test'}).test_client()\n"
        "print(write_until_refused(client, 200))\n"
        "os._exit(0)  # killed, as far as SQLite knows: no checkpoint as it closes\n"
    )
    taken = subprocess.run([sys.executable, "-c", killed, str(database), str(Path(__file__).parent)],
                           check=True, timeout=300, capture_output=True, text=True).stdout
    assert int(taken) > 0
    assert Path(f"{database}-wal").stat().st_size > 0  # left behind
    client = create_app({"DATABASE": str(database), "SECRET_KEY": "test"}).test_client()
    wal = Path(f"{database}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert write_until_refused(client, 100) == 100


def test_a_write_refused_for_space_is_tried_once_more_once_the_wal_is_emptied(small_volume):
    """Another program takes the volume's last bytes while the WAL holds a few writes: the
    next write is refused for space, the WAL is moved into the database (into pages the
    database file has free already) and emptied, and the write goes through on its second try."""
    database = small_volume.path / "companion.sqlite3"
    client = create_app({"DATABASE": str(database), "SECRET_KEY": "test"}).test_client()
    with closing(sqlite3.connect(database, isolation_level=None)) as conn:  # 400 KB of free pages in the file
        conn.execute("CREATE TABLE scratch (data BLOB)")
        conn.execute("INSERT INTO scratch VALUES (zeroblob(400000))")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("DROP TABLE scratch")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert write_until_refused(client, 10) == 10
    assert Path(f"{database}-wal").stat().st_size > 100_000
    small_volume.fill()
    assert write_until_refused(client, 5) == 5

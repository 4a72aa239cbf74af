"""Upgrades keep every table: a database made by the previous release (0.1.0, schema step 5)
is upgraded at the first start after a copy of it is made beside it, each step logged; a
database a newer companion upgraded is refused with a sentence and left as it is; on
PostgreSQL an existing database is upgraded by `companion db upgrade` once backed up; and
`companion db status` tells where a database stands.

companion-0.1.0.sqlite3 was made by 0.1.0's own code (commit 7e96c8d) playing through its
API: make_0_1_0_database.py says how."""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

import companion
from companion.tables import postgres, schema
from companion.tables.database import DatabaseUnusable
from companion.web.app import create_app
from played import create, play_pickomino

MADE_BY_0_1_0 = Path(__file__).with_name("companion-0.1.0.sqlite3")
STEPS = len(schema.MIGRATIONS)
# what make_0_1_0_database.py played: a finished Pickomino, its rematch under way, a finished
# Lobo, a Pickomino with an undone action
FINISHED, REMATCH, LOBO, UNDONE = "CRY6RW", "T2HVC2", "AFTTY7", "2V89P7"


def rows(path: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchall()


def companion_command(*arguments: str, database: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "COMPANION_DATABASE": database}
    return subprocess.run(
        [sys.executable, "-m", "companion", *arguments], env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def old_database(tmp_path: Path) -> Path:
    copy = tmp_path / "companion.sqlite3"
    shutil.copy(MADE_BY_0_1_0, copy)
    return copy


def test_a_database_made_by_0_1_0_is_backed_up_beside_itself_then_upgraded_with_every_table_kept(old_database, caplog):
    before = {
        table: rows(old_database, f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("game_tables", "seats", "events", "results", "player_memories")
    }
    assert rows(old_database, "PRAGMA user_version") == [(5,)]
    with caplog.at_level(logging.INFO, logger="companion.schema"):
        app = create_app({"DATABASE": str(old_database), "SECRET_KEY": "test", "TESTING": True})

    backup = old_database.with_name("companion.schema-5.backup.sqlite3")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # the players' names, as private as the database
    assert rows(backup, "PRAGMA user_version") == [(5,)]
    for table, kept in before.items():  # the copy is the database as 0.1.0 left it
        assert rows(backup, f"SELECT * FROM {table} ORDER BY 1, 2") == kept

    assert rows(old_database, "PRAGMA user_version") == [(STEPS,)]
    assert [row[:4] for row in rows(old_database, "SELECT seat, name, token_hash, table_id FROM seats ORDER BY 4, 1")] == [
        row[:4] for row in rows(backup, "SELECT seat, name, token_hash, table_id FROM seats ORDER BY 4, 1")
    ]
    assert rows(old_database, "SELECT count(*), sum(undone) FROM events") == rows(backup, "SELECT count(*), sum(undone) FROM events")
    assert rows(old_database, "SELECT DISTINCT name_key IS NOT NULL FROM seats") == [(1,)]  # step 5's keys kept

    said = [record.getMessage() for record in caplog.records if record.name == "companion.schema"]
    assert said[0] == f"Upgrading the database {old_database} from schema step 5 to {STEPS}; its copy before the upgrade is {backup}."
    assert said[1:] == [f"Database {old_database}: schema step {number} of {STEPS} taken." for number in range(6, STEPS + 1)]
    assert all(record.levelno == logging.INFO for record in caplog.records if record.name == "companion.schema")

    client = app.test_client()  # the tables as the phones and the API read them
    finished = client.get(f"/api/tables/{FINISHED}").get_json()
    assert finished["status"] == "finished" and finished["rematch"] == REMATCH
    assert {player["name"]: player["score"] for player in finished["players"]} == {"Ana": 15, "Bruno": 12, "Caio": 13}
    assert client.get(f"/api/tables/{REMATCH}").get_json()["status"] == "playing"
    assert client.get(f"/api/tables/{LOBO}").get_json()["status"] == "finished"
    undone = client.get(f"/api/tables/{UNDONE}").get_json()
    assert undone["status"] == "playing" and undone["version"] > 0
    assert client.get(f"/t/{FINISHED}/results").status_code == 200
    assert "Ana" in client.get("/players").get_data(as_text=True)
    play_pickomino(client, create(client, "pickomino", ("Ana", "Bruno", "Caio")))  # and new tables play on it

    create_app({"DATABASE": str(old_database), "SECRET_KEY": "test", "TESTING": True})  # the next start: nothing to do
    assert sorted(path.name for path in old_database.parent.glob("*.backup*")) == [backup.name]


def test_a_second_copy_of_one_schema_step_is_numbered_not_written_over(old_database):
    taken = old_database.with_name("companion.schema-5.backup.sqlite3")
    taken.write_text("an earlier copy, kept")
    create_app({"DATABASE": str(old_database), "SECRET_KEY": "test", "TESTING": True})
    assert taken.read_text() == "an earlier copy, kept"
    assert rows(old_database.with_name("companion.schema-5.backup-2.sqlite3"), "PRAGMA user_version") == [(5,)]


def newer_sentence(database: str) -> str:
    return (
        f"The database {database} is at schema step {STEPS + 1}, newer than this companion ({companion.__version__},"
        f" schema step {STEPS}): a newer companion upgraded it, and this one would misread it. Upgrade the companion"
        " to the release that upgraded it (or a later one), or give this one another data folder (COMPANION_INSTANCE)"
        " or database (COMPANION_DATABASE). Nothing was changed."
    )


def test_a_database_a_newer_companion_upgraded_is_refused_with_both_versions_and_left_unchanged(tmp_path: Path):
    path = tmp_path / "companion.sqlite3"
    create_app({"DATABASE": str(path), "SECRET_KEY": "test", "TESTING": True})
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {STEPS + 1}")  # as the next release leaves it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = path.read_bytes()
    with pytest.raises(DatabaseUnusable) as refused:
        create_app({"DATABASE": str(path), "SECRET_KEY": "test", "TESTING": True})
    assert str(refused.value) == newer_sentence(str(path))
    assert path.read_bytes() == before and not list(tmp_path.glob("*.backup*"))

    served = companion_command("serve", "--host", "127.0.0.1", "--port", "0", database=str(path))
    assert served.returncode == 1 and served.stdout == "" and served.stderr == newer_sentence(str(path)) + "\n"


def test_a_read_only_database_a_newer_companion_upgraded_is_refused_as_newer():
    """Not "made by an older companion": read frozen, its schema step is still compared. As
    root chmod stops nothing: the companion runs as nobody (tests/faults/test_read_only_folder.py)."""
    top = Path(tempfile.mkdtemp(prefix="companion-newer-"))
    try:
        top.chmod(0o755)
        path = top / "data" / "companion.sqlite3"
        path.parent.mkdir()
        create_app({"DATABASE": str(path), "SECRET_KEY": "test", "TESTING": True})
        with closing(sqlite3.connect(path)) as conn:
            conn.execute(f"PRAGMA user_version = {STEPS + 1}")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (top / "instance").mkdir()
        (top / "instance").chmod(0o777)  # the key and catalogs: written by nobody
        path.chmod(0o444)
        path.parent.chmod(0o555)
        unprivileged = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if os.geteuid() == 0 else []
        status = subprocess.run(
            [*unprivileged, sys.executable, "-m", "companion", "db", "status"],
            env={**os.environ, "COMPANION_DATABASE": str(path)}, capture_output=True, text=True, timeout=120, cwd="/",
        )
        assert status.returncode == 1 and status.stderr == newer_sentence(str(path)) + "\n"
        served = subprocess.run(
            [*unprivileged, sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0"],
            env={**os.environ, "COMPANION_DATABASE": str(path), "COMPANION_INSTANCE": str(top / "instance")},
            capture_output=True, text=True, timeout=120, cwd="/",
        )
        assert served.returncode == 1 and served.stderr == newer_sentence(str(path)) + "\n"
    finally:
        (top / "data").chmod(0o755)
        shutil.rmtree(top)


def test_db_status_names_the_database_both_schema_steps_and_what_is_pending(old_database, tmp_path: Path):
    status = companion_command("db", "status", database=str(old_database))
    assert status.returncode == 0 and status.stdout == (
        f"Database: {old_database}\n"
        "Schema of the database: step 5\n"
        f"Schema of this companion ({companion.__version__}): step {STEPS}\n"
        f"Pending: steps 6 to {STEPS} ({STEPS - 5}), taken at the next start (or by companion db upgrade) after a copy"
        " is made beside the database.\n"
    )
    assert rows(old_database, "PRAGMA user_version") == [(5,)] and not list(tmp_path.glob("*.backup*"))  # only read

    upgraded = companion_command("db", "upgrade", database=str(old_database))
    backup = old_database.with_name("companion.schema-5.backup.sqlite3")
    assert upgraded.returncode == 0
    assert upgraded.stdout == f"Upgraded the database {old_database} from schema step 5 to {STEPS}; its copy from before is {backup}.\n"
    assert companion_command("db", "status", database=str(old_database)).stdout.endswith(
        f"step {STEPS}\nPending: none; the database is up to date.\n"
    )

    nothing = tmp_path / "none.sqlite3"
    status = companion_command("db", "status", database=str(nothing))
    assert status.returncode == 0 and "Schema of the database: none yet\n" in status.stdout
    assert status.stdout.endswith("Pending: none; the companion makes the database when it first starts.\n")
    assert not nothing.exists()

    with closing(sqlite3.connect(old_database)) as conn:
        conn.execute(f"PRAGMA user_version = {STEPS + 1}")
    newer = companion_command("db", "status", database=str(old_database))
    assert newer.returncode == 1 and newer.stderr == newer_sentence(str(old_database)) + "\n"


# --- PostgreSQL ------------------------------------------------------------------------------


def pg_rows(url: str, sql: str) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()


def before_option_presets(url: str) -> int:
    """The database as the release before the option presets' step left it: the tables of
    that step and of every later one dropped and the schema version it counts set back (a
    step never changes once shipped, so the steps before it are what that code took). Its steps."""
    presets = next(number for number, step in enumerate(schema.MIGRATIONS, start=1) if "option_presets" in step.sql)
    with psycopg.connect(url, autocommit=True) as conn:
        for step in schema.MIGRATIONS[presets - 1:]:
            for name in re.findall(r"CREATE TABLE (\w+)", step.postgresql or step.sql):
                conn.execute(f"DROP TABLE {name}")
        conn.execute("UPDATE companion_schema SET version = %s", [schema.postgresql_version(presets - 1)])
    return presets - 1


@pytest.mark.postgresql
def test_postgresql_an_older_database_with_tables_waits_for_its_backup_then_upgrades_with_every_table_kept(postgres_server, tmp_path):
    url = postgres_server.new_database()
    client = create_app({"DATABASE": url, "SECRET_KEY": "test", "TESTING": True}).test_client()
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    postgres.close_pools(url)
    older = before_option_presets(url)
    kept = pg_rows(url, "SELECT * FROM events ORDER BY table_id, seq")

    with pytest.raises(DatabaseUnusable) as refused:
        create_app({"DATABASE": url, "SECRET_KEY": "test", "TESTING": True})
    assert str(refused.value) == (
        f"The database {url} is at schema step {older}, and this companion ({companion.__version__}) needs step {STEPS}:"
        " back it up first (companion backup FILE), then upgrade it with companion db upgrade, and start again."
        " Nothing was changed."
    )
    assert pg_rows(url, "SELECT version FROM companion_schema") == [(schema.postgresql_version(older),)]

    status = companion_command("db", "status", database=url)
    assert status.returncode == 0 and status.stdout == (
        f"Database: {url}\nSchema of the database: step {older}\n"
        f"Schema of this companion ({companion.__version__}): step {STEPS}\n"
        f"Pending: steps {older + 1} to {STEPS} ({STEPS - older}), taken by companion db upgrade once the database is backed up"
        " (companion backup FILE).\n"
    )
    upgraded = companion_command("db", "upgrade", database=url)
    assert upgraded.returncode == 0 and upgraded.stdout == f"Upgraded the database {url} from schema step {older} to {STEPS}.\n"
    assert pg_rows(url, "SELECT * FROM events ORDER BY table_id, seq") == kept
    client = create_app({"DATABASE": url, "SECRET_KEY": "test", "TESTING": True}).test_client()
    assert client.get(f"/api/tables/{table.id}").get_json()["status"] == "finished"
    postgres.close_pools(url)


@pytest.mark.postgresql
def test_postgresql_a_database_a_newer_companion_upgraded_is_refused_and_left_unchanged(postgres_server):
    url = postgres_server.new_database()
    newer = schema.postgresql_version(STEPS + 1)
    pg_rows(url, f"UPDATE companion_schema SET version = {newer} RETURNING version")
    with pytest.raises(DatabaseUnusable) as refused:
        create_app({"DATABASE": url, "SECRET_KEY": "test", "TESTING": True})
    assert str(refused.value) == newer_sentence(url)
    assert pg_rows(url, "SELECT version FROM companion_schema") == [(newer,)]
    upgrade = companion_command("db", "upgrade", database=url)
    assert upgrade.returncode == 1 and upgrade.stderr == newer_sentence(url) + "\n"


@pytest.mark.postgresql
def test_postgresql_a_new_database_is_made_at_start_without_asking_for_a_backup(postgres_server):
    url = postgres_server.new_database(migrated=False)
    create_app({"DATABASE": url, "SECRET_KEY": "test", "TESTING": True})
    assert pg_rows(url, "SELECT version FROM companion_schema") == [(schema.postgresql_version(STEPS),)]
    postgres.close_pools(url)

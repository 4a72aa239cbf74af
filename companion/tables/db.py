"""The database: one connection per request, schema created by migrations.

SQLite (a file) is the embedded default; a DATABASE that is a postgresql:// URL runs the
same companion on PostgreSQL (postgres.py).
"""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import threading
import weakref
from contextlib import closing
from pathlib import Path
from typing import Callable

import sqlite_utils
from flask import current_app, g

from ..server import doorbell, snapshots
from . import postgres, store

# How long a writer waits for another's write lock: under the pages' request timeout (6 s,
# templates/base.html), so a tap that waited in vain is told so (503) rather than lost.
BUSY_TIMEOUT_MS = 5_000
# Durability of an acknowledged action (WAL mode): with FULL every commit is flushed to the
# disk (fsync) before the phone gets its answer, so it survives the server process being
# killed AND the machine losing power or crashing. NORMAL would survive a killed process
# only: its commits reach the disk at the next checkpoint. bench/sqlite_sync.py measures
# the price on this machine's disk: about 0.2 ms per commit, against ~2 ms per action.
SYNCHRONOUS = "FULL"
# The logger of the storage failing, which every request may meet in turn: its repeats are
# counted, not written (RepeatsQuieted, in create_app).
STORAGE_LOG = "companion.storage"

# Each entry moves the schema one version up (PRAGMA user_version). Never edit a
# migration that has shipped: add the next one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE game_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        host_token_hash TEXT NOT NULL UNIQUE,
        version INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'playing',
        current_seat INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE INDEX game_tables_by_status ON game_tables (status, updated_at);
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        seq INTEGER NOT NULL,
        seat INTEGER,
        by_host INTEGER NOT NULL DEFAULT 0,
        action TEXT NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        at TEXT NOT NULL,
        undone_at TEXT,
        PRIMARY KEY (table_id, seq)
    );
    """,
    # Whatever chance decided at the start (Lobo's dealt colours): kept out of `options`,
    # which every phone may read.
    """
    ALTER TABLE game_tables ADD COLUMN deal TEXT;
    """,
    # What a player set up once and their next tables start from (a copied score sheet),
    # by player name (case-folded) and game.
    """
    CREATE TABLE player_memories (
        name_key TEXT NOT NULL,
        game TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (name_key, game, key)
    );
    """,
    # Rematches: the table a rematch came from, and on the old table the rematch's id and
    # its host token sealed with the server's secret (phones joined to the old table are
    # handed their new seat from it). Results: each finished table's places and scores as
    # of its version, read by the history and the players' pages without replaying.
    """
    ALTER TABLE game_tables ADD COLUMN rematch_of TEXT;
    ALTER TABLE game_tables ADD COLUMN rematch_id TEXT;
    ALTER TABLE game_tables ADD COLUMN rematch_host_sealed TEXT;
    CREATE TABLE results (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        name_key TEXT NOT NULL,
        score INTEGER NOT NULL,
        place INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX results_by_player ON results (name_key);
    """,
    # Each seat's player key (store.name_key), so a player's page finds their tables through
    # an index instead of reading every seat; the seats already there get theirs.
    """
    ALTER TABLE seats ADD COLUMN name_key TEXT;
    UPDATE seats SET name_key = companion_name_key(name);
    CREATE INDEX seats_by_player ON seats (name_key);
    """,
    # Going back to any line and redoing: the table version an event was undone at (which
    # undone actions can still be redone), and on a redone action the event it repeats.
    # Closing: when the host closed a table (an unfinished one becomes 'abandoned').
    """
    ALTER TABLE events ADD COLUMN undone_version INTEGER;
    ALTER TABLE events ADD COLUMN redo_of INTEGER;
    ALTER TABLE game_tables ADD COLUMN closed_at TEXT;
    """,
    # The order tables moved in: whatever moves a table's version or rematch (an action, an
    # undo, a rematch, closing, or a hand at the sqlite3 prompt) takes the next number of a
    # counter, so each server process' notifier reads just the tables moved since it last
    # looked (companion/server/notify.py), not every table its phones follow. A counter of
    # its own, not max(moved) + 1: that would go back when a table is deleted, and the moves
    # numbered again below what a notifier has seen would never be read.
    """
    CREATE TABLE table_moves (last INTEGER NOT NULL);
    INSERT INTO table_moves (last) VALUES (0);
    ALTER TABLE game_tables ADD COLUMN moved INTEGER;
    CREATE INDEX game_tables_by_move ON game_tables (moved);
    CREATE TRIGGER game_tables_move AFTER UPDATE OF version, rematch_id ON game_tables
    BEGIN
        UPDATE table_moves SET last = last + 1;
        UPDATE game_tables SET moved = (SELECT last FROM table_moves) WHERE id = NEW.id;
    END;
    """,
    # The table page whose tap made the table's version, if a page's tap made it (as
    # "<page id>@<version>", store.page_mark): that page has the version from its tap's
    # answer, so its held connection does not render and send it again.
    """
    ALTER TABLE game_tables ADD COLUMN moved_by_page TEXT;
    """,
    # An undone action the host (or its player) chose not to redo: the table version that
    # took it out of the redo offer (corrections.redoable). It stays in the log, undone.
    """
    ALTER TABLE events ADD COLUMN skipped_version INTEGER;
    """,
    # The seat that took back its own last action (an undo by its player, not the host's
    # going back; NULL for those and for undos made before): it stays in the redo offer
    # only until the table moves on without it (corrections.redoable).
    """
    ALTER TABLE events ADD COLUMN undone_by_seat INTEGER;
    """,
    # The phone (a random id in its cookie, no secret) whose table page of the seat loaded
    # last: another phone scanning the seat's code is asked first (web/pages.py, join).
    """
    ALTER TABLE seats ADD COLUMN opened_by TEXT;
    """,
    # What a tap's process rendered of the table's newest version for the phones watching
    # it (web/fragments.py), read by the other server processes instead of rendering it again;
    # removed by a later publishing once a minute old (store.publish_parts).
    """
    CREATE TABLE rendered_parts (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        version INTEGER NOT NULL,
        part TEXT NOT NULL,
        html TEXT NOT NULL,
        published_at TEXT NOT NULL,
        PRIMARY KEY (table_id, version, part)
    );
    CREATE INDEX rendered_parts_by_age ON rendered_parts (published_at);
    """,
    # Option sets a host saved by name (tables/presets.py: the score pad's sheets), offered
    # on the start form by game, the latest first.
    """
    CREATE TABLE option_presets (
        game TEXT NOT NULL,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        options TEXT NOT NULL,
        used_at TEXT NOT NULL,
        PRIMARY KEY (game, name_key)
    );
    """,
]


class DatabaseUnusable(Exception):
    """The database can be neither written nor read as it is: the sentence says why and
    what to do."""


def connect(
    path: str | Path, pragmas: dict[str, str | int] | None = None, frozen: bool = False, pause: Callable | None = None
) -> sqlite_utils.Database:
    """A connection in autocommit mode: transactions are opened explicitly (BEGIN IMMEDIATE).

    `pragmas` (the SQLITE_PRAGMAS setting) come after the defaults and may override them.
    `frozen`: the database is read as a file nobody changes (see open_database).
    `pause`: how a writer waits for another's write lock when SQLite must not (store.write).
    A postgresql:// URL: a PostgreSQL connection of its own (the server's come from a pool).
    """
    if postgres.is_url(str(path)):
        return postgres.open_database(str(path))
    # the timeout is SQLite's busy timeout: a writer waits that long for another's lock
    target, uri = (Path(path).resolve().as_uri() + "?mode=ro&immutable=1", True) if frozen else (str(path), False)
    conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=True, uri=uri)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
    for name, value in (pragmas or {}).items():
        conn.execute(f"PRAGMA {name} = {value}")
    db = sqlite_utils.Database(conn)
    db.snapshots = snapshots.for_database(path)
    db.outcomes = snapshots.for_database(path, "outcomes")
    db.redoable = snapshots.for_database(path, "redoable")
    db.pause = pause
    # what a write that moved a table rings once committed (store.write); none to ring frozen
    db.doorbell = None if frozen else doorbell.path_for(str(path))
    return db


def open_database(path: str | Path, pragmas: dict[str, str | int] | None = None) -> bool:
    """Bring the database to the current schema; whether it must be read frozen.

    A WAL database in a folder nobody may write cannot even be read the usual way: SQLite
    needs its -shm file beside it, and cannot create it. Such a database, closed cleanly
    (no -wal left), is read as a file nobody changes (SQLite's immutable mode) and served
    for reading; every write is refused with a sentence. Anything else it cannot use
    raises DatabaseUnusable with a sentence. PostgreSQL is never frozen."""
    if postgres.is_url(str(path)):
        try:
            postgres.setting(*postgres.POOL_SETTING)
            postgres.migrate_once_it_answers(str(path))
        except ValueError as wrong:
            raise DatabaseUnusable(str(wrong)) from None
        except postgres.storage_errors() as error:
            raise DatabaseUnusable(f"The database {postgres.shown(str(path))} cannot be reached: {error}") from error
        return False
    try:
        create_for_this_user_only(path)
        migrate(path, pragmas)
        return False
    except sqlite3.OperationalError as error:
        if not is_storage_failure(error):
            raise
        if error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL:  # not read-only: read as such, it looked old
            raise DatabaseUnusable(
                f"The database {path} cannot be made or upgraded: the disk it is on is full ({error}). Make room"
                " on it and start again."
            ) from error
        if not Path(path).is_file():  # its folder is read-only, or gone
            raise DatabaseUnusable(
                f"The database {path} cannot be created ({error}): make its folder writable, or set COMPANION_DATABASE"
                " (or COMPANION_INSTANCE) to a place the companion may write."
            ) from error
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise DatabaseUnusable(
            f"The database {path} cannot be opened: its folder is read-only and its last writes are still in"
            f" {wal.name}. Make the folder writable (or copy the folder somewhere writable) and start again."
        )
    db = connect(path, pragmas, frozen=True)
    try:
        version = db.conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.conn.close()
    if version != len(MIGRATIONS):
        raise DatabaseUnusable(
            f"The database {path} is read-only and was made by an older companion: it must be upgraded, which"
            " needs writing. Make it writable and start again."
        )
    return True


def create_for_this_user_only(path: str | Path) -> None:
    """A new database file readable by its owner only (SQLite gives its -wal and -shm the
    same mode), as the secret key's file is: it holds the players' names and Lobo's dealt
    colours, which another user of a shared machine has no business reading. An existing
    file keeps the mode it has."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:  # there already, or a folder it may not write (SQLite's attempt says so)
        pass


def migrate(path: str | Path, pragmas: dict[str, str | int] | None = None) -> None:
    db = connect(path, pragmas)
    try:
        db.conn.execute("PRAGMA journal_mode = WAL")
        if db.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS):
            return  # nothing to write: a read-only database still serves its tables for reading
        db.conn.create_function("companion_name_key", 1, store.name_key, deterministic=True)
        db.conn.execute("BEGIN IMMEDIATE")
        version = db.conn.execute("PRAGMA user_version").fetchone()[0]
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            for statement in statements(script):
                db.conn.execute(statement)
            db.conn.execute(f"PRAGMA user_version = {number}")
        db.conn.execute("COMMIT")
    finally:
        db.conn.close()


def statements(script: str) -> list[str]:
    """A migration's statements, one by one: split at each `;` that ends a statement (a
    trigger's body holds several)."""
    found, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending)
            pending = ""
    return found


# What a failing disk or file system makes SQLite answer (primary result codes): the disk is
# full, the database cannot be written or opened, or reading/writing it failed.
STORAGE_FAILURE_CODES = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}


@functools.cache
def storage_errors() -> tuple[type[BaseException], ...]:
    """The exceptions among which storage failures are (is_storage_failure tells which)."""
    return (sqlite3.OperationalError, *postgres.storage_errors())


def is_storage_failure(error: BaseException) -> bool:
    """Whether `error` is the storage failing (nothing a player did), not a bug in a query:
    SQLite's disk full or unwritable, PostgreSQL unreachable."""
    if isinstance(error, postgres.storage_errors()):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in STORAGE_FAILURE_CODES


def is_busy(error: BaseException) -> bool:
    """Whether `error` is SQLite's write lock still held by another writer once this one
    stopped waiting (BUSY_TIMEOUT_MS): nothing is wrong, the database was busy."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.OperationalError) and code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


POSTGRESQL_DISK_FULL = "53100"  # SQLSTATE of a PostgreSQL that answers but cannot write


def is_database_unreachable(error: BaseException) -> bool:
    """Whether `error` is a database server out of reach (PostgreSQL down, the network),
    not a disk that is full."""
    return isinstance(error, postgres.storage_errors()) and getattr(error, "sqlstate", None) != POSTGRESQL_DISK_FULL


class DatabaseFileGone(sqlite3.OperationalError):
    """The database file the companion started on was removed or replaced while it ran. Its
    open connections would go on writing into the removed file (every change answered, then
    lost), and a new connection would make an empty database: neither may happen."""

    sqlite_errorcode = sqlite3.SQLITE_CANTOPEN  # a storage failure: 503 with a sentence


def file_identity(path: str | Path) -> tuple[int, int] | None:
    """Which file `path` is (device and inode), or None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _check_same_file(app) -> None:
    """The database file is still the one the app opened (DATABASE_FILE, from create_app)."""
    started_on = app.config.get("DATABASE_FILE")
    if started_on is None or file_identity(app.config["DATABASE"]) == started_on:
        return
    raise DatabaseFileGone(
        f"The database file {app.config['DATABASE']} was removed or replaced while the companion ran: nothing is"
        " read or saved until that same file is back. Move it back if it was moved; otherwise stop the companion,"
        " restore a backup if there is one (see the README), and start it again."
    )


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        app = current_app._get_current_object()
        if postgres.is_url(app.config["DATABASE"]):
            green = "companion.notifier" in app.extensions  # the push server (gevent)
            g.db = postgres.pool_for(app.config["DATABASE"], green).take()
            return g.db
        _check_same_file(app)
        frozen = app.config.get("DATABASE_FROZEN", False)
        if not frozen:  # a frozen database has no WAL to keep
            keep_open(app)
        notifier = app.extensions.get("companion.notifier")
        if notifier is None:
            g.db = connect(app.config["DATABASE"], app.config.get("SQLITE_PRAGMAS"), frozen)
            return g.db
        # The push server (gevent): a writer waits for the lock by gevent's sleep, and a
        # connection a request is done with serves the next one (see close_db).
        idle = _idle_connections(app)
        if idle:
            g.db = idle.pop()
        else:
            g.db = connect(app.config["DATABASE"], app.config.get("SQLITE_PRAGMAS"), frozen, notifier.pause)
            g.db.idle = idle
    return g.db


# Under the push server, SQLite connections that requests are done with, kept for the next
# ones: opening one costs ~190 µs (SQLite reads the schema on its first statement), which
# was 16 % of a push process' time at 1,000 tables (py-spy), a connection per pushed table.
# Only there: gevent runs a process' requests on one thread, one at a time between their
# waits, so a kept connection is only ever used by one request.
IDLE_CONNECTIONS_KEPT = 32


def _idle_connections(app) -> list:
    kept = app.extensions.get("companion.idle_connections")
    if kept is None or kept[0] != os.getpid():  # a forked process opens its own
        kept = app.extensions["companion.idle_connections"] = (os.getpid(), [])
    return kept[1]


def keep_open(app) -> None:
    """One idle connection to the app's database for as long as the process serves it.

    When the last connection to a WAL database closes, SQLite checkpoints the WAL and
    deletes it, and the next connection builds it again. With one connection per request
    that happened on most requests; with this one kept open, opening a request's connection
    costs 0.07 ms instead of 0.24 ms and a write 0.5 ms instead of 1.1 ms. Opened in the
    process that serves (never carried across a fork), and closed with the app.
    """
    kept = app.extensions.get("companion.kept_connection")
    if kept is not None and kept[0] == os.getpid():
        return
    with _keep_open_lock:
        kept = app.extensions.get("companion.kept_connection")
        if kept is None or kept[0] != os.getpid():
            conn = sqlite3.connect(app.config["DATABASE"], check_same_thread=False)
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # opens the WAL too
            app.extensions["companion.kept_connection"] = (os.getpid(), conn)
            weakref.finalize(app, conn.close)


_keep_open_lock = threading.Lock()

# How long a stopping process' checkpoint waits for another process' reader or writer.
CHECKPOINT_WAIT_SECONDS = 2


def checkpoint_and_close(app) -> None:
    """This process stops serving cleanly (Ctrl+C, SIGTERM): close the connections it kept
    and move the WAL's writes into the database file, leaving the -wal file empty (or gone).

    Without it the last games stayed in the -wal file after a stop (a connection was
    still open when the process ended, so SQLite never checkpointed): a host who copied
    just companion.sqlite3 lost them, and a read-only copy never counted as closed
    cleanly (open_database). Other processes still serving the database go on: the
    checkpoint waits a moment for their readers and writers, and what it cannot move
    now stays in the WAL for the next stop."""
    database = app.config["DATABASE"]
    if postgres.is_url(database) or app.config.get("DATABASE_FROZEN"):
        return
    idle = _idle_connections(app)
    for connection in idle:
        connection.close()
    idle.clear()
    kept = app.extensions.pop("companion.kept_connection", None)
    if kept is not None and kept[0] == os.getpid():
        kept[1].close()
    current = file_identity(database)
    if current is None or current != app.config.get("DATABASE_FILE", current):
        return  # gone or replaced meanwhile: connecting would make an empty one, or replay this WAL into another
    try:
        with closing(sqlite3.connect(database, timeout=CHECKPOINT_WAIT_SECONDS)) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error as error:
        logging.getLogger("companion").warning("Could not move the last writes into %s: %s", database, error)


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    idle = getattr(db, "idle", None)
    if idle is not None and len(idle) < IDLE_CONNECTIONS_KEPT and not db.conn.in_transaction:
        idle.append(db)
    else:
        db.close()

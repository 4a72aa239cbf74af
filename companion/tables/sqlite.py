"""The companion on SQLite, the embedded default: a file in the data folder, in WAL mode.

SqliteStore runs the store's statements on one sqlite_utils Database (one connection in
autocommit mode; transactions are opened explicitly, BEGIN IMMEDIATE), rings the doorbell a
write's moves ring once committed (doorbell.py), and keeps the WAL from taking a small
volume whole. A failing disk or file is raised as StorageFailure.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import sqlite_utils

from . import doorbell, schema
from .store import Store, StorageFailure, name_key

# How long a writer waits for another's write lock: under the pages' request timeout (6 s,
# templates/base.html), so a tap that waited in vain is told so (503) rather than lost.
BUSY_TIMEOUT_MS = 5_000
# Durability of an acknowledged action (WAL mode): with FULL every commit is flushed to the
# disk (fsync) before the phone gets its answer, so it survives the server process being
# killed AND the machine losing power or crashing. NORMAL would survive a killed process
# only: its commits reach the disk at the next checkpoint. bench/sqlite_sync.py measures
# the price on this machine's disk: about 0.2 ms per commit, against ~2 ms per action.
SYNCHRONOUS = "FULL"
# The room a WAL leaves on its volume before it is moved into the database: a write of a few
# actions' pages, and then some.
WAL_ROOM_BYTES = 256 * 1024
# How long a writer under the push server first waits for another process' write lock
# inside SQLite (its busy handler, which stops the whole process) before letting the
# process' other connections run: a write holds the lock under a millisecond (91 % of them
# at 1,000 tables x 5, 99.8 % under 5 ms).
BLOCKING_WAIT_MS = 2
# What a failing disk or file system makes SQLite answer (primary result codes): the disk is
# full, the database cannot be written or opened, or reading/writing it failed.
STORAGE_FAILURE_CODES = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}


def result_code(error: BaseException) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None or not isinstance(error, sqlite3.Error) else code & 0xFF


def raised(error: BaseException) -> BaseException:
    """What to raise for SQLite's `error`: the storage's failure, or the error itself."""
    failed = failure(error)
    if failed is None:
        return error
    failed.__cause__ = error
    return failed


def failure(error: BaseException) -> StorageFailure | None:
    """`error` as the storage failing (a full or unwritable disk, a file gone, another writer
    holding the lock too long), or None: a bug in a query, not the storage."""
    code = result_code(error)
    if code == sqlite3.SQLITE_BUSY and isinstance(error, sqlite3.OperationalError):
        return StorageFailure(error, busy=True)
    if code in STORAGE_FAILURE_CODES:
        return StorageFailure(error, full=code == sqlite3.SQLITE_FULL)
    return None


class DatabaseFileGone(sqlite3.OperationalError):
    """The database file the companion started on was removed or replaced while it ran. Its
    open connections would go on writing into the removed file (every change answered, then
    lost), and a new connection would make an empty database: neither may happen."""

    sqlite_errorcode = sqlite3.SQLITE_CANTOPEN  # a storage failure: 503 with a sentence


class SqliteStore(Store):
    """`frozen`: the database is read as a file nobody changes (database.py). `pause`: how a
    writer waits for another's write lock when SQLite must not (the push server's gevent
    sleep: transaction)."""

    def __init__(self, path: str, connection: sqlite3.Connection, frozen: bool = False, pause: Callable | None = None):
        super().__init__(path)
        self.sqlite = sqlite_utils.Database(connection)
        self.conn = connection
        self.pause = pause
        # what a write that moved a table rings once committed; none to ring frozen
        self.doorbell = None if frozen else doorbell.path_for(path)
        self.wal = None if frozen else f"{path}-wal"  # kept from filling its volume (keep_room)

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        try:
            return self.sqlite.execute(sql, params)
        except sqlite3.Error as error:
            raise raised(error)

    @contextmanager
    def transaction(self, table_ids: tuple[str, ...], wait: bool) -> Iterator[None]:
        try:
            if wait and self.pause is None:
                self.conn.execute("BEGIN IMMEDIATE")  # SQLite's busy timeout waits for another writer
            else:
                self._begin_pausing(self.pause if wait else None)
        except sqlite3.Error as error:
            raise raised(error)
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as error:
            # SQLite may have rolled back already (a full disk, a read-only file): a second
            # ROLLBACK would raise and hide the real error.
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise raised(error)
            raise
        self.keep_room()

    def _begin_pausing(self, pause: Callable[[float], None] | None) -> None:
        """BEGIN IMMEDIATE that waits for another process' writer by `pause` (gevent's sleep),
        or with no `pause` not at all (SQLite's busy error at once). SQLite's own busy handler
        sleeps inside C, which under gevent stops every connection of the process
        (bench/load.py at 100 x 5: poll p99 749 ms with it), not just this request; so it is
        given BLOCKING_WAIT_MS on the first try only, which most locks are released within:
        a busy process comes back to a paused request only after everything else it has to do
        (~100 ms at 1,000 tables x 5), and at each return the lock may be taken again (waits
        of up to 1.5 s, paused from the first try). Only once a writer, so that writers
        waiting together for a long-held lock do not stop the process at every turn."""
        conn = self.conn
        timeout_ms = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        deadline = time.monotonic() + timeout_ms / 1000
        conn.execute(f"PRAGMA busy_timeout = {BLOCKING_WAIT_MS if pause is not None else 0}")
        try:
            while True:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as error:
                    if result_code(error) != sqlite3.SQLITE_BUSY or pause is None or time.monotonic() > deadline:
                        raise
                    conn.execute("PRAGMA busy_timeout = 0")
                    pause(0.001)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {timeout_ms}")

    def ring(self) -> None:
        if self.doorbell:
            doorbell.ring(self.doorbell)

    def announce_now(self, table_ids: set[str]) -> None:
        self.ring()  # nothing to write: the servers read what moved from the database

    def keep_room(self) -> None:
        """After a commit: a WAL about to take the last free bytes of its volume is moved into
        the database and emptied while that can still be done. SQLite does it by itself only
        once the WAL holds 1,000 pages (4 MB), and a checkpoint needs room for the pages it
        adds to the database: on a 2 MB volume the WAL took it all after 76 actions, and every
        write (and checkpoint) was refused for good, restarts included. Two stats a write."""
        if self.wal is None:
            return
        try:
            if os.stat(self.wal).st_size + WAL_ROOM_BYTES > shutil.disk_usage(os.path.dirname(os.path.abspath(self.wal))).free:
                self.make_room()
        except OSError:  # no WAL (yet), a folder gone: nothing to keep
            pass

    def make_room(self) -> bool:
        """Move SQLite's WAL into the database file and empty it (a TRUNCATE checkpoint, which
        waits for the other connections' reads); whether it could."""
        try:
            busy = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.Error:
            return False
        return busy == 0

    def close(self) -> None:
        self.conn.close()


def connect(
    path: str | Path, pragmas: dict[str, str | int] | None = None, frozen: bool = False, pause: Callable | None = None
) -> SqliteStore:
    """A store on a connection of its own. `pragmas` (the SQLITE_PRAGMAS setting) come after
    the defaults and may override them."""
    # the timeout is SQLite's busy timeout: a writer waits that long for another's lock
    target, uri = (Path(path).resolve().as_uri() + "?mode=ro&immutable=1", True) if frozen else (str(path), False)
    try:
        conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=True, uri=uri)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        for name, value in (pragmas or {}).items():
            conn.execute(f"PRAGMA {name} = {value}")
    except sqlite3.Error as error:
        raise raised(error)
    return SqliteStore(str(path), conn, frozen, pause)


def migrate(path: str | Path, pragmas: dict[str, str | int] | None = None) -> Path | None:
    """Take the steps of schema.MIGRATIONS the database has not taken, in one transaction,
    each logged; an existing database is backed up beside itself first (backed_up_before):
    that backup's path, or None when nothing was upgraded. schema.NewerThanCode when a newer
    companion has upgraded it: nothing is changed."""
    store = connect(path, pragmas)
    conn = store.conn
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] > len(schema.MIGRATIONS):
            raise schema.NewerThanCode(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute("PRAGMA journal_mode = WAL")
        # A server stopped the hard way may have left a WAL that holds most of a small volume:
        # moved into the database and emptied now, the writes of this start have room.
        store.make_room()
        if conn.execute("PRAGMA user_version").fetchone()[0] == len(schema.MIGRATIONS):
            return None  # nothing to write: a read-only database still serves its tables for reading
        conn.create_function("companion_name_key", 1, name_key, deterministic=True)
        conn.execute("BEGIN IMMEDIATE")  # another process starting now waits, then finds it done
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(schema.MIGRATIONS):
            raise schema.NewerThanCode(version)
        backup = backed_up_before(path, version) if version else None  # a new database has nothing to lose
        schema.log_upgrade(str(path), version, backup)
        for number, step in enumerate(schema.MIGRATIONS[version:], start=version + 1):
            for statement in step.statements("sqlite"):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
            schema.log_step(str(path), number, upgrading=version > 0)
        conn.execute("COMMIT")
        return backup
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


def backed_up_before(path: str | Path, steps: int) -> Path:
    """A copy of the database as it is, beside it and named by its schema step
    (companion.schema-5.backup.sqlite3; -2, -3… when one of that step is there already),
    readable by its owner only: what a host goes back to with the release that made it.
    SQLite's online backup, read while the caller holds the write lock, so nothing changes
    meanwhile. A copy that cannot be made raises (sqlite3.Error): nothing is upgraded."""
    source = Path(path)
    for attempt in range(1, 1000):
        numbered = "" if attempt == 1 else f"-{attempt}"
        target = source.with_name(f"{source.stem}.schema-{steps}.backup{numbered}{source.suffix}")
        if not target.exists():
            break
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)  # left by a copy that was stopped: it may have another mode
    create_for_this_user_only(partial)
    try:
        with closing(sqlite3.connect(source)) as reading, closing(sqlite3.connect(partial)) as copy:
            reading.backup(copy)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)
    return target


def steps_taken(path: str | Path) -> int:
    """The steps the database file has taken, as its writers see it (its WAL included),
    opened read-only: nothing made, nothing changed."""
    try:
        with closing(sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)) as conn:
            return conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.OperationalError:  # a folder it may not write (no -shm): the file as it is
        return schema_version(path)


def schema_version(path: str | Path) -> int:
    """The steps the database file has taken, read without changing it."""
    store = connect(path, frozen=True)
    try:
        return store.conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        store.close()


def create_for_this_user_only(path: str | Path) -> None:
    """A new database file readable by its owner only (SQLite gives its -wal and -shm the
    same mode), as the secret key's file is: it holds the players' names and Lobo's dealt
    colours, which another user of a shared machine has no business reading. An existing
    file keeps the mode it has."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:  # there already, or a folder it may not write (SQLite's attempt says so)
        pass


def file_identity(path: str | Path) -> tuple[int, int] | None:
    """Which file `path` is (device and inode), or None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino

"""The companion's database as an app holds it: opened (its schema brought up to date) when
the app is made, a store for each request, and its WAL moved into the file when a server
process stops. SQLite (a file) is the embedded default; a postgresql:// URL runs the same
companion on PostgreSQL (postgres.py), several servers on one database.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import weakref
from contextlib import closing
from pathlib import Path
from typing import Callable

from .. import __version__
from . import postgres, schema, sqlite
from .store import Store, StorageFailure

# The logger of the storage failing, which every request may meet in turn: its repeats are
# counted, not written (web/app.py's RepeatsQuieted).
STORAGE_LOG = "companion.storage"
# Under the push server, SQLite stores that requests are done with, kept for the next ones:
# opening a connection costs ~190 µs (SQLite reads the schema on its first statement), which
# was 16 % of a push process' time at 1,000 tables (py-spy), a connection per pushed table.
# Only there: gevent runs a process' requests on one thread, one at a time between their
# waits, so a kept store is only ever used by one request.
IDLE_STORES_KEPT = 32
# How long a stopping process' checkpoint waits for another process' reader or writer.
CHECKPOINT_WAIT_SECONDS = 2


class DatabaseUnusable(Exception):
    """The database can be neither written nor read as it is: the sentence says why and
    what to do."""


def newer_than_code(database: str, steps: int) -> str:
    """Why the companion will not open a database a newer companion upgraded, and what to do."""
    return (
        f"The database {database} is at schema step {steps}, newer than this companion ({__version__}, schema step"
        f" {len(schema.MIGRATIONS)}): a newer companion upgraded it, and this one would misread it. Upgrade the"
        " companion to the release that upgraded it (or a later one), or give this one another data folder"
        " (COMPANION_INSTANCE) or database (COMPANION_DATABASE). Nothing was changed."
    )


class Database:
    """`name`: a SQLite file's path or a postgresql:// URL; `pragmas`: SQLite's extra
    PRAGMAs. Opening it migrates it, or finds it must be read frozen (open)."""

    def __init__(self, name: str, pragmas: dict[str, str | int] | None = None):
        self.name = str(name)
        self.pragmas = pragmas or {}
        self.on_postgresql = postgres.is_url(self.name)
        self.frozen = self._open()
        # which file the app started on: checked on every request (store)
        self.file = None if self.on_postgresql else sqlite.file_identity(self.name)
        self._kept: tuple[int, sqlite3.Connection] | None = None  # (pid, connection): keep_open
        self._idle: tuple[int, list[Store]] = (os.getpid(), [])
        self._lock = threading.Lock()

    def _open(self) -> bool:
        """Bring the database to the current schema; whether it must be read frozen.

        A WAL database in a folder nobody may write cannot even be read the usual way: SQLite
        needs its -shm file beside it, and cannot create it. Such a database, closed cleanly
        (no -wal left), is read as a file nobody changes (SQLite's immutable mode) and served
        for reading; every write is refused with a sentence. Anything else it cannot use
        raises DatabaseUnusable with a sentence. PostgreSQL is never frozen."""
        if self.on_postgresql:
            try:
                postgres.setting(*postgres.POOL_SETTING)
                postgres.migrate_once_it_answers(self.name)
            except ValueError as wrong:
                raise DatabaseUnusable(str(wrong)) from None
            except postgres.storage_errors() as error:
                raise DatabaseUnusable(f"The database {postgres.shown(self.name)} cannot be reached: {error}") from error
            except schema.NewerThanCode as newer:
                raise DatabaseUnusable(newer_than_code(postgres.shown(self.name), newer.steps)) from None
            except schema.BackUpFirst as behind:
                raise DatabaseUnusable(
                    f"The database {postgres.shown(self.name)} is at schema step {behind.steps}, and this companion"
                    f" ({__version__}) needs step {len(schema.MIGRATIONS)}: back it up first (companion backup FILE),"
                    " then upgrade it with companion db upgrade, and start again. Nothing was changed."
                ) from None
            return False
        path = self.name
        try:
            sqlite.create_for_this_user_only(path)
            sqlite.migrate(path, self.pragmas)
            return False
        except schema.NewerThanCode as newer:
            raise DatabaseUnusable(newer_than_code(path, newer.steps)) from None
        except (sqlite3.OperationalError, StorageFailure) as error:
            cause = error.__cause__ if isinstance(error, StorageFailure) else error
            if sqlite.failure(cause) is None:
                raise
            if sqlite.result_code(cause) == sqlite3.SQLITE_FULL:  # not read-only: read as such, it looked old
                raise DatabaseUnusable(
                    f"The database {path} cannot be made or upgraded: the disk it is on is full ({cause}). Make room"
                    " on it and start again."
                ) from error
            if not Path(path).is_file():  # its folder is read-only, or gone
                raise DatabaseUnusable(
                    f"The database {path} cannot be created ({cause}): make its folder writable, or set"
                    " COMPANION_DATABASE (or COMPANION_INSTANCE) to a place the companion may write."
                ) from error
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise DatabaseUnusable(
                f"The database {path} cannot be opened: its folder is read-only and its last writes are still in"
                f" {wal.name}. Make the folder writable (or copy the folder somewhere writable) and start again."
            )
        steps = sqlite.schema_version(path)
        if steps > len(schema.MIGRATIONS):
            raise DatabaseUnusable(newer_than_code(path, steps))
        if steps != len(schema.MIGRATIONS):
            raise DatabaseUnusable(
                f"The database {path} is read-only and was made by an older companion: it must be upgraded, which"
                " needs writing. Make it writable and start again."
            )
        return True

    def size_pools(self, processes: int) -> str | None:
        """On PostgreSQL: each of `processes` server processes' pool fitted into the server's
        connections (postgres.size_pools), the budget in a sentence; DatabaseUnusable when
        they cannot fit."""
        if not self.on_postgresql:
            return None
        try:
            return postgres.size_pools(self.name, processes)
        except ValueError as wrong:
            raise DatabaseUnusable(str(wrong)) from None
        except postgres.storage_errors() as error:
            raise DatabaseUnusable(f"The database {postgres.shown(self.name)} cannot be reached: {error}") from error

    def store(self, pause: Callable[[float], None] | None = None, green: bool = False) -> Store:
        """A store for one request, given back with release. `pause` and `green`: the push
        server's (gevent) ways of waiting for a lock and for PostgreSQL. StorageFailure when
        the database cannot be reached (or its file is gone)."""
        if self.on_postgresql:
            return postgres.pool_for(self.name, green).take()
        self._check_same_file()
        if not self.frozen:  # a frozen database has no WAL to keep
            self._keep_open()
        if pause is not None:
            idle = self._idle_here()
            if idle:
                return idle.pop()
        return sqlite.connect(self.name, self.pragmas, self.frozen, pause)

    def release(self, store: Store) -> None:
        """The request is done with `store`: kept for the next one under the push server
        (a store made with `pause`), else closed."""
        idle = self._idle_here()
        kept = getattr(store, "pause", None) is not None and not store.conn.in_transaction
        if kept and len(idle) < IDLE_STORES_KEPT:
            store.held_announcements, store.room_made = None, False
            idle.append(store)
        else:
            store.close()

    def _idle_here(self) -> list[Store]:
        if self._idle[0] != os.getpid():  # a forked process opens its own
            self._idle = (os.getpid(), [])
        return self._idle[1]

    def _check_same_file(self) -> None:
        """The database file is still the one the app opened."""
        if self.file is None or sqlite.file_identity(self.name) == self.file:
            return
        gone = sqlite.DatabaseFileGone(
            f"The database file {self.name} was removed or replaced while the companion ran: nothing is read or"
            " saved until that same file is back. Move it back if it was moved; otherwise stop the companion,"
            " restore a backup if there is one (see docs/hosting.md, Backups), and start it again."
        )
        raise sqlite.raised(gone)

    def _keep_open(self) -> None:
        """One idle connection to the database for as long as the process serves it.

        When the last connection to a WAL database closes, SQLite checkpoints the WAL and
        deletes it, and the next connection builds it again. With one connection per request
        that happened on most requests; with this one kept open, opening a request's
        connection costs 0.07 ms instead of 0.24 ms and a write 0.5 ms instead of 1.1 ms.
        Opened in the process that serves (never carried across a fork), and closed with the
        app."""
        if self._kept is not None and self._kept[0] == os.getpid():
            return
        with self._lock:
            if self._kept is None or self._kept[0] != os.getpid():
                conn = sqlite3.connect(self.name, check_same_thread=False)
                conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # opens the WAL too
                self._kept = (os.getpid(), conn)
                weakref.finalize(self, conn.close)

    def checkpoint_and_close(self) -> None:
        """This process stops serving cleanly (Ctrl+C, SIGTERM): close the connections it
        kept and move the WAL's writes into the database file, leaving the -wal file empty (or
        gone).

        Without it the last games stayed in the -wal file after a stop (a connection was still
        open when the process ended, so SQLite never checkpointed): a host who copied just
        companion.sqlite3 lost them, and a read-only copy never counted as closed cleanly
        (_open). Other processes still serving the database go on: the checkpoint waits a
        moment for their readers and writers, and what it cannot move now stays in the WAL
        for the next stop."""
        if self.on_postgresql or self.frozen:
            return
        idle = self._idle_here()
        for store in idle:
            store.close()
        idle.clear()
        if self._kept is not None and self._kept[0] == os.getpid():
            self._kept[1].close()
        self._kept = None
        current = sqlite.file_identity(self.name)
        if current is None or current != (self.file or current):
            return  # gone or replaced meanwhile: connecting would make an empty one, or replay this WAL into another
        try:
            with closing(sqlite3.connect(self.name, timeout=CHECKPOINT_WAIT_SECONDS)) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as error:
            logging.getLogger("companion").warning("Could not move the last writes into %s: %s", self.name, error)


def connect(name: str | Path, pragmas: dict[str, str | int] | None = None, pause: Callable | None = None) -> Store:
    """A store on a connection of its own, outside any app (tools, benchmarks, the tests).
    `pause`: how a SQLite writer waits for another's lock (SqliteStore)."""
    if postgres.is_url(str(name)):
        return postgres.open_database(str(name))
    return sqlite.connect(str(name), pragmas, pause=pause)


def schema_steps(name: str | Path) -> int | None:
    """The schema steps the database has taken, read without making or changing anything;
    None when there is none yet (the companion makes it at its first start). PostgreSQL out
    of reach raises its error (postgres.storage_errors)."""
    if postgres.is_url(str(name)):
        return postgres.schema_steps(str(name))
    return sqlite.steps_taken(name) if Path(name).is_file() else None


def upgrade(name: str | Path) -> Path | None:
    """Bring the database to this companion's schema now (companion db upgrade): SQLite
    backed up beside it first, as at a start (its copy's path); PostgreSQL once its operator
    has backed it up. schema.NewerThanCode when a newer companion upgraded it."""
    if postgres.is_url(str(name)):
        postgres.migrate(str(name), backed_up=True)
        return None
    return sqlite.migrate(name)

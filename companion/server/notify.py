"""Waking the phones that wait for a table's next version, across server processes.

A write in any server process must reach the connections (Server-Sent Events) held by
every other. No broker of our own: SQLite itself tells. `PRAGMA data_version` on an idle
connection changes whenever another connection (of this process or another) commits; one
watcher per process reads it when the database's doorbell rings (tables/doorbell.py: a
file every write that moved a table touches after its commit, heard through inotify on
Linux), and by itself every half second, or every 10 ms where there is no doorbell. When
it moved, the watcher reads the tables moved since it last looked (a trigger gives every
move the next number of a counter: game_tables.moved, by an index) and wakes the phones
here that follow those: one indexed read of the few tables a write moved, whatever the
number of tables followed.

On PostgreSQL (several companion servers on one database) the database tells: every
write that moves a table sends NOTIFY with the table's id when it commits (store.announce),
and one connection per process LISTENs; the versions of the named tables followed here
are read and the moved ones woken, as above.

The interface is the Notifier's `watching(table_id)`, `wait(table_id, seen, timeout)` and
`pause(seconds)`; `for_database` gives the one that suits the database.
The waiting is gevent's (the push server's); nothing here runs under the thread server.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sqlite3
import struct
import sys
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import gevent
from gevent.event import Event
from gevent.socket import wait_read

from ..tables import doorbell, postgres

NOTIFIER_NAME = "companion-notifier"  # its application_name, as PostgreSQL's pg_stat_activity shows it
# Without a doorbell, a change reaches a waiting phone within this, plus rendering; each
# check wakes the process (~0.1 ms of CPU).
CHECK_SECONDS = 0.01
# With one, the watcher still looks this often by itself: writes that do not ring (a hand
# at the sqlite3 prompt) and file systems that do not tell are seen within it.
UNRUNG_SECONDS = 0.5


def for_database(database: str) -> "Notifier":
    return PostgresNotifier(database) if postgres.is_url(database) else Notifier(database)


def is_ahead(known: tuple[int, str | None], seen: tuple[int, str | None]) -> bool:
    """Whether a table read as `known` has moved on from `seen`: a later version, or the same
    one with its rematch started. Not when the caller read more than the watcher has yet
    (a rematch the watcher has not seen): that must wait for the watcher, or the caller
    would go round without ever letting it run."""
    return known[0] > seen[0] or (known[0] == seen[0] and known[1] is not None and seen[1] is None)


class Notifier:
    """One per server process and database: phones wait here for their table to move.
    This one watches a SQLite database."""

    def __init__(self, database: str, check_seconds: float = CHECK_SECONDS, unrung_seconds: float = UNRUNG_SECONDS):
        self.database = database
        self.check_seconds = check_seconds
        self.unrung_seconds = unrung_seconds
        self.watched: Counter[str] = Counter()  # table id -> how many connections here follow it
        self.waiting: dict[str, Event] = {}  # table id -> the event its waiters share
        # table id -> its (version, rematch) when the watcher last read it
        self.known: dict[str, tuple[int, str | None]] = {}
        self.watcher: gevent.Greenlet | None = None
        self.lost = False  # the watcher has lost the database and looks for it again
        self.said_unheard = False  # the log has said the doorbell cannot be heard

    @contextmanager
    def watching(self, table_id: str) -> Iterator[None]:
        """Follow a table for as long as a connection is held: from before the connection
        first reads the table, so that no later change can slip by unseen."""
        if self.watcher is None or self.watcher.dead:
            self.watcher = gevent.spawn(self._watch)
        self.watched[table_id] += 1
        try:
            yield
        finally:
            self.watched[table_id] -= 1
            if not self.watched[table_id]:
                del self.watched[table_id]
                self.known.pop(table_id, None)

    def wait(self, table_id: str, seen: tuple[int, str | None] | None, timeout: float) -> bool:
        """Return once watched table `table_id` has moved on from `seen`, the (version,
        rematch) the caller read (True, at once if it already has), or after `timeout`
        seconds (False). Versions only grow, and a rematch once set stays."""
        known = self.known.get(table_id)
        if known is not None and seen is not None and is_ahead(known, seen):
            return True
        event = self.waiting.get(table_id)
        if event is None:
            event = self.waiting[table_id] = Event()
        return event.wait(timeout)

    @staticmethod
    def pause(seconds: float) -> None:
        """How a request waits here (for another process' write lock, say): it lets the
        other connections of the process go on."""
        gevent.sleep(seconds)

    RECONNECT_SECONDS = 1.0

    def _watch(self) -> None:
        """Watches until the process ends. A database it cannot open or read (its file
        missing when the watcher starts, a disk gone) is said once, and looked for again
        every second: the file is never made here (it would stand in for the removed one),
        and once it can be read every table followed here is read again, so nothing that
        happened meanwhile is missed. (A file removed after the watcher opened it stays open
        here and simply stops changing: the requests refuse it, see tables/database.py.)"""
        while True:
            try:
                self._watch_until_lost()
            except sqlite3.Error as error:
                if not self.lost:  # said once an outage, not once a try (on the notifier's own logger: a state, not a repeat)
                    logging.getLogger("companion").warning(
                        "Cannot watch the database for changes (%s); trying again every %g s.", error, self.RECONNECT_SECONDS
                    )
                    self.lost = True
            gevent.sleep(self.RECONNECT_SECONDS)

    def _watch_until_lost(self) -> None:
        """Returns only by raising the error that lost it."""
        # mode=rw: an existing file only
        connection = sqlite3.connect(Path(self.database).resolve().as_uri() + "?mode=rw", uri=True, isolation_level=None, check_same_thread=False)
        listener = None
        try:
            seen = connection.execute("PRAGMA data_version").fetchone()[0]
            last_move = connection.execute("SELECT last FROM table_moves").fetchone()[0]
            # what changed since the first connections read their tables, before this ran
            self._wake_moved(self._read(connection, list(self.watched)))
            if self.lost:
                logging.getLogger("companion").info("Watching the database for changes again.")  # a recovery: no warning
                self.lost = False
            listener = DoorbellListener.open(doorbell.path_for(self.database))
            if listener is None and sys.platform.startswith("linux") and not self.said_unheard:
                logging.getLogger("companion").warning(
                    "Cannot listen for %s: phones are woken by a look every %g ms instead.",
                    doorbell.path_for(self.database), self.check_seconds * 1000,
                )
                self.said_unheard = True
            while True:
                if listener is None:
                    gevent.sleep(self.check_seconds)
                else:
                    listener.wait(self.unrung_seconds)
                now = connection.execute("PRAGMA data_version").fetchone()[0]
                if now != seen:
                    seen = now
                    moved = connection.execute(
                        "SELECT id, version, rematch_id, moved FROM game_tables WHERE moved > ? ORDER BY moved", [last_move]
                    ).fetchall()
                    if moved:
                        last_move = moved[-1][3]
                        self._wake_moved(row[:3] for row in moved if row[0] in self.watched)
        finally:
            connection.close()
            if listener is not None:
                listener.close()

    @staticmethod
    def _read(connection, tables: list[str]) -> list[tuple]:
        """(id, version, rematch_id) of those of `tables` that exist."""
        if not tables:
            return []
        marks = ", ".join("?" for _ in tables)
        return list(connection.execute(f"SELECT id, version, rematch_id FROM game_tables WHERE id IN ({marks})", tables))

    def _wake_moved(self, rows: Iterable[tuple]) -> None:
        for table_id, *now in rows:
            if self.known.get(table_id) != tuple(now):
                self.known[table_id] = tuple(now)
                event = self.waiting.pop(table_id, None)
                if event is not None:
                    event.set()


class PostgresNotifier(Notifier):
    """Watches a PostgreSQL database, which several companion servers may share: LISTEN
    on one connection of its own; each notification names a table that moved. When the
    connection is lost (PostgreSQL restarted), it connects again and reads every table
    followed here, so nothing that happened in between is missed."""

    RECONNECT_SECONDS = 1.0

    def _watch(self) -> None:
        postgres.use_green_waits()
        lost = False  # said once per outage, not at every try
        while True:
            try:
                with postgres.connect(self.database, application_name=NOTIFIER_NAME) as connection:
                    connection.execute(f"LISTEN {postgres.CHANNEL}")
                    if lost:
                        logging.getLogger("companion").info("PostgreSQL's notifications are back.")  # a recovery: no warning
                        lost = False
                    self._wake_moved(self._read(connection, list(self.watched)))
                    while True:
                        named = {note.payload for note in connection.notifies(stop_after=1)}
                        # and whatever else arrived meanwhile, in one read
                        named.update(note.payload for note in connection.notifies(timeout=0))
                        self._wake_moved(self._read(connection, [table for table in named if table in self.watched]))
            except postgres.storage_errors() as error:
                if not lost:
                    logging.getLogger("companion").warning("Lost PostgreSQL's notifications (%s); connecting again every %g s.", error, self.RECONNECT_SECONDS)
                    lost = True
                gevent.sleep(self.RECONNECT_SECONDS)

    @staticmethod
    def _read(connection, tables: list[str]) -> list[tuple]:
        if not tables:
            return []
        return list(connection.execute("SELECT id, version, rematch_id FROM game_tables WHERE id = ANY(%s)", [tables]))


IN_ATTRIB = 0x004  # the file's times changed: os.utime
IN_CREATE = 0x100  # a file was made in the folder
EVENT_HEAD = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len; then the name


class DoorbellListener:
    """inotify on the doorbell's folder, for the doorbell's name: a touch, or the file made
    again after someone deleted it. `DoorbellListener.open` gives None where that cannot be had."""

    def __init__(self, descriptor: int, name: bytes):
        self.descriptor = descriptor
        self.name = name

    @classmethod
    def open(cls, path: str) -> "DoorbellListener | None":
        if not sys.platform.startswith("linux"):
            return None
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            descriptor = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return None
        if descriptor < 0:
            return None
        folder, name = os.path.split(os.path.abspath(path))
        try:
            os.close(doorbell.open_regular(path))
        except OSError:  # a folder nobody may write, a FIFO or a link there: nothing rings to be heard
            os.close(descriptor)
            return None
        if libc.inotify_add_watch(descriptor, os.fsencode(folder), IN_ATTRIB | IN_CREATE) < 0:
            os.close(descriptor)
            return None
        return cls(descriptor, os.fsencode(name))

    def wait(self, timeout: float) -> bool:
        """Whether the doorbell rang (True) or `timeout` seconds went by first (False);
        touches of other files in the folder are not a ring."""
        try:
            wait_read(self.descriptor, timeout)
        except TimeoutError:
            return False
        return self._rang()

    def _rang(self) -> bool:
        rang = False
        while True:
            try:
                events = os.read(self.descriptor, 65536)
            except BlockingIOError:
                return rang
            offset = 0
            while offset < len(events):
                _watch, _mask, _cookie, length = EVENT_HEAD.unpack_from(events, offset)
                offset += EVENT_HEAD.size
                rang = rang or events[offset:offset + length].rstrip(b"\0") == self.name
                offset += length

    def close(self) -> None:
        os.close(self.descriptor)

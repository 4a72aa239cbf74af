"""Waking the phones that wait for a table's next version, across server processes.

A write in any server process must reach the connections (Server-Sent Events) held by
every other. No broker of our own: SQLite itself tells. `PRAGMA data_version` on an idle
connection changes whenever another connection (of this process or another) commits; one
watcher per process reads it every few tens of milliseconds and, when it moved, reads the
versions of just the tables followed here, and wakes those whose version moved.

The interface is the Notifier's `watching(table_id)` and `wait(table_id, version, timeout)`;
a database with its own notifications (PostgreSQL's LISTEN/NOTIFY) can take the watcher's
place behind it.
The waiting is gevent's (the push server's); nothing here runs under the thread server.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from contextlib import contextmanager
from typing import Callable, Iterator

import gevent
from gevent.event import Event

CHECK_SECONDS = 0.01  # a change reaches a waiting phone within this, plus rendering (a check costs ~20 µs)


class Notifier:
    """One per server process and database: phones wait here for their table to move."""

    def __init__(self, database: str, check_seconds: float = CHECK_SECONDS):
        self.database = database
        self.check_seconds = check_seconds
        self.watched: Counter[str] = Counter()  # table id -> how many connections here follow it
        self.waiting: dict[str, Event] = {}  # table id -> the event its waiters share
        # table id -> its (version, rematch) when the watcher last read it
        self.known: dict[str, tuple[int, str | None]] = {}
        self.watcher: gevent.Greenlet | None = None

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
        if known is not None and seen is not None and known != seen and known[0] >= seen[0]:
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

    def _watch(self) -> None:
        connection = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
        try:
            seen = connection.execute("PRAGMA data_version").fetchone()[0]
            # what changed since the first connections read their tables, before this ran
            self._wake_moved(connection.execute)
            while True:
                gevent.sleep(self.check_seconds)
                now = connection.execute("PRAGMA data_version").fetchone()[0]
                if now != seen and self.watched:
                    seen = now
                    self._wake_moved(connection.execute)
        finally:
            connection.close()

    def _wake_moved(self, execute: Callable) -> None:
        tables = list(self.watched)
        if not tables:
            return
        marks = ", ".join("?" for _ in tables)
        for table_id, *now in execute(f"SELECT id, version, rematch_id FROM game_tables WHERE id IN ({marks})", tables):
            if self.known.get(table_id) != tuple(now):
                self.known[table_id] = tuple(now)
                event = self.waiting.pop(table_id, None)
                if event is not None:
                    event.set()

"""Waking the phones that wait for a table's next version, across server processes.

A write in any server process must reach the connections (Server-Sent Events) held by
every other. No broker of our own: SQLite itself tells. `PRAGMA data_version` on an idle
connection changes whenever another connection (of this process or another) commits; one
watcher per process reads it every few tens of milliseconds and, when it moved, reads the
versions of just the tables someone here waits for, and wakes those whose version moved.

The interface is the Notifier's `wait(table_id, version, timeout)`; a database with its own
notifications (PostgreSQL's LISTEN/NOTIFY) can take the watcher's place behind it.
The waiting is gevent's (the push server's); nothing here runs under the thread server.
"""

from __future__ import annotations

import sqlite3
from typing import Callable

import gevent
from gevent.event import Event

CHECK_SECONDS = 0.03  # a change reaches a waiting phone within this, plus rendering


class Notifier:
    """One per server process and database: phones wait here for their table to move."""

    def __init__(self, database: str, check_seconds: float = CHECK_SECONDS):
        self.database = database
        self.check_seconds = check_seconds
        self.waiting: dict[str, Event] = {}  # table id -> the event its waiters share
        self.known: dict[str, int] = {}  # table id -> the version last seen by the watcher
        self.watcher: gevent.Greenlet | None = None

    def wait(self, table_id: str, timeout: float) -> bool:
        """Return once table `table_id` may have moved on (True), or after `timeout` seconds
        (False). The caller reads the table's version before (without yielding to other
        greenlets in between, as SQLite's calls do not), so no change can slip by unseen."""
        if self.watcher is None or self.watcher.dead:
            self.watcher = gevent.spawn(self._watch)
        event = self.waiting.get(table_id)
        if event is None:
            event = self.waiting[table_id] = Event()
        return event.wait(timeout)

    def _watch(self) -> None:
        connection = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
        try:
            seen = connection.execute("PRAGMA data_version").fetchone()[0]
            while True:
                gevent.sleep(self.check_seconds)
                now = connection.execute("PRAGMA data_version").fetchone()[0]
                if now != seen and self.waiting:
                    seen = now
                    self._wake_moved(connection.execute)
        finally:
            connection.close()

    def _wake_moved(self, execute: Callable) -> None:
        tables = list(self.waiting)
        marks = ", ".join("?" for _ in tables)
        for table_id, version in execute(f"SELECT id, version FROM game_tables WHERE id IN ({marks})", tables):
            if self.known.get(table_id) != version:
                self.known[table_id] = version
                self.waiting.pop(table_id).set()

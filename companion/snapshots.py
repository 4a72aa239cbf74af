"""Replayed table states kept in memory, by table and version.

A table's state at a version never changes (an undo makes a new version), so the phones
of a table share one replay per version instead of each replaying the log on every
refresh. Each database file has its own cache, so two databases never mix. The states
handed out are shared between requests: nothing may change them in place (the games step
on copies: Game.apply and Game.replay copy first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Hashable

# A café's tables (100 and more), each with its newest version or two. Not more: every
# state kept is objects the garbage collector walks on its full passes.
STATES_KEPT = 300


class RecentlyUsed:
    """The `size` most recently used values, by key; safe to share between threads."""

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)


_by_database: dict[str, RecentlyUsed] = {}
_by_database_lock = threading.Lock()


def for_database(path: str | Path) -> RecentlyUsed:
    """The states kept for one database file, by (table id, version)."""
    key = str(path)
    found = _by_database.get(key)
    if found is None:
        with _by_database_lock:
            found = _by_database.setdefault(key, RecentlyUsed(STATES_KEPT))
    return found

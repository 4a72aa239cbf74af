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
# The log lines that tell an action's outcome, by (table id, seq): a table page shows its
# newest dozen, so a café's tables need a few thousand. Each is one small sentence.
OUTCOMES_KEPT = 5000


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


_by_database: dict[tuple[str, str], RecentlyUsed] = {}
_by_database_lock = threading.Lock()


def for_database(path: str | Path, kind: str = "states") -> RecentlyUsed:
    """What is kept for one database file: its "states" and the undone actions that are
    "redoable", by (table id, version), or its "outcomes" by (table id, seq). None ever
    changes once written: an undo makes a new version, and an event's outcome depends only
    on the events before it, which stay."""
    key = (str(path), kind)
    found = _by_database.get(key)
    if found is None:
        with _by_database_lock:
            found = _by_database.setdefault(key, RecentlyUsed(OUTCOMES_KEPT if kind == "outcomes" else STATES_KEPT))
    return found

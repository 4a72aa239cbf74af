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
from typing import Any

# A café's tables (100 and more), each with its newest version or two. Not more: every
# state kept is objects the garbage collector walks on its full passes.
STATES_KEPT = 300


class Snapshots:
    """The most recently used states, by (table id, version)."""

    def __init__(self, size: int = STATES_KEPT):
        self.size = size
        self._states: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str, version: int) -> dict[str, Any] | None:
        with self._lock:
            state = self._states.get((table_id, version))
            if state is not None:
                self._states.move_to_end((table_id, version))
            return state

    def put(self, table_id: str, version: int, state: dict[str, Any]) -> None:
        with self._lock:
            self._states[(table_id, version)] = state
            self._states.move_to_end((table_id, version))
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def items(self) -> list[tuple[tuple[str, int], dict[str, Any]]]:
        with self._lock:
            return list(self._states.items())


_by_database: dict[str, Snapshots] = {}
_by_database_lock = threading.Lock()


def for_database(path: str | Path) -> Snapshots:
    key = str(path)
    found = _by_database.get(key)
    if found is None:
        with _by_database_lock:
            found = _by_database.setdefault(key, Snapshots())
    return found

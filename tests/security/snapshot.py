"""Everything the database holds, to prove a refused request changed nothing."""

from __future__ import annotations

import sqlite3
from typing import Any


def database_snapshot(path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (tables, seats, the event log, whatever is added later),
    read on a connection of its own, in a stable order."""
    connection = sqlite3.connect(path)
    try:
        names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {name: sorted(connection.execute(f'SELECT * FROM "{name}"'), key=repr) for name in names}
    finally:
        connection.close()

"""Saved option sets: the options a host started a table with, kept under the name its game
gives them (Game.preset_name: the score pad's sheet, by its game's name) and offered on the
start form next time, so that "Azul" again is one tap. Starting a table with the same name
saves it again (edited); the host may forget one. Like store.py, functions taking `db`, SQL
both SQLite and PostgreSQL understand (the schema: option_presets, in db.py and postgres.py).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from . import store

# The start form offers each game's latest ones: a shelf, not an archive.
MOST_OFFERED = 12


def save(db, game: str, name: str, options: dict[str, Any]) -> None:
    """Keep `options` for `game` under `name` (one set per name, whatever its case), or
    replace the set kept under it: the latest is offered first. Inside the caller's write."""
    db.execute(
        "INSERT INTO option_presets (game, name_key, name, options, used_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game, name_key) DO UPDATE SET name = excluded.name, options = excluded.options, used_at = excluded.used_at",
        # to the microsecond: sets saved within one second (a script's tables) keep their order
        [game, store.name_key(name), name, json.dumps(options), datetime.now(timezone.utc).isoformat()],
    )


def offered(db) -> dict[str, list[dict[str, Any]]]:
    """By game, its saved sets, latest first (at most MOST_OFFERED each): name and options.
    Only those are read, however many a year of tables saved (every home page asks)."""
    found: dict[str, list[dict[str, Any]]] = {}
    rows = db.execute(
        "SELECT game, name, options FROM (SELECT game, name, options, used_at, name_key,"
        " row_number() OVER (PARTITION BY game ORDER BY used_at DESC, name_key) AS latest FROM option_presets) AS ranked"
        " WHERE latest <= ? ORDER BY game, used_at DESC, name_key",
        [MOST_OFFERED],
    )
    for game, name, options in rows:
        found.setdefault(game, []).append({"name": name, "options": json.loads(options)})
    return found


def find(db, game: str, name: str) -> dict[str, Any] | None:
    """The options kept for `game` under `name`, if any."""
    row = db.execute(
        "SELECT options FROM option_presets WHERE game = ? AND name_key = ?", [game, store.name_key(name)]
    ).fetchone()
    return None if row is None else json.loads(row[0])


def forget(db, game: str, name: str) -> bool:
    """Stop offering the set kept for `game` under `name`; whether there was one."""
    return db.execute("DELETE FROM option_presets WHERE game = ? AND name_key = ?", [game, store.name_key(name)]).rowcount > 0

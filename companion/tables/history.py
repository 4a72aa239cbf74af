"""The record: the tables on this server, and per player name what they played and scored.

A finished table's places and scores are saved with the version they belong to, the first
time a page needs them after the table finished (a table finished again after an undo is
saved again), so the history and the players' pages never replay every game.
"""

from __future__ import annotations

import logging
import unicodedata
from datetime import datetime, timezone
from typing import Any

from . import service, store
from .store import StorageFailure
from ..games import GAMES
from ..games.text import Text

RECENT_TABLES = 50
PLAYER_RECENT_TABLES = 10


def save_missing_results(db) -> None:
    """Save the results of every finished table whose saved ones are missing or stale."""
    for table_id in db.tables_without_results():
        table = service.load(db, table_id)
        ranking = table.game.ranking(table.state)
        if ranking is None:
            continue
        try:
            with db.write(table_id):
                db.save_results(table_id, table.version, ranking)
        except StorageFailure as error:
            # A read-only or full disk, or another change holding the database: the pages
            # still show everything but these results, saved by a later page.
            logging.getLogger("companion").warning("Could not save the results of table %s: %s", table_id, error)
            return


def recent_tables(db, limit: int = RECENT_TABLES, today_only: bool = False, skipped: int = 0) -> list[dict[str, Any]]:
    """Tables in progress, then finished ones (with their winners), latest first, from the
    `skipped`-th on (the older pages of /tables). With `today_only` (the home page): the
    tables in play and today's finished ones, none that its host closed, so an evening's
    tables do not pile up. Each table with its `title` (table_title)."""
    save_missing_results(db)
    since = None
    if today_only:
        midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        since = midnight.astimezone(timezone.utc).isoformat(timespec="seconds")  # as store.now() writes
    tables = db.list_tables(limit, since, skipped)
    for entry in tables:
        entry["title"] = table_title(entry["game"], entry.pop("options"))
    return tables


def game_night(db, table_id: str) -> dict[str, Any] | None:
    """The game night `table_id` belongs to (tables chained by rematches), when there is
    more than one table: its tables in order, and per player the games finished, wins
    (first places, shared ones included) and points, most wins first. None otherwise."""
    chain = db.rematch_chain(table_id)
    if len(chain) < 2:
        return None
    save_missing_results(db)
    totals: dict[str, dict[str, Any]] = {}
    finished = set()
    for result in db.chain_results(chain):
        finished.add(result["table_id"])
        entry = totals.setdefault(result["name_key"], {"name": result["name"], "games": 0, "wins": 0, "points": 0})
        entry["games"] += 1
        entry["wins"] += result["place"] == 1
        entry["points"] += result["score"]
    players = sorted(totals.values(), key=lambda entry: (-entry["wins"], -entry["points"], entry["name"].casefold()))
    return {"tables": chain, "number": chain.index(table_id) + 1, "finished": len(finished), "players": players}


def player(db, name: str) -> dict[str, Any] | None:
    """What the person `name` is (any name renamed or merged into them: people.py) played on
    this server: per game the tables finished, wins (first places, shared ones included),
    average and best score; and their latest tables. None for a name that never sat at a
    table here."""
    key = db.person_of(store.name_key(name))  # a name renamed or merged: the person it is now (people.py)
    save_missing_results(db)
    finished = db.player_results(key)
    seated = db.seated_names(key)
    if not seated:
        return None
    by_game: dict[tuple[str, str], dict[str, Any]] = {}
    for result in finished:
        title = table_title(result["game"], result["options"])
        # a game by its title: the score pad's Azul and Wingspan are two games, "Azul" and "azul" one
        stats = by_game.setdefault(
            (result["game"], str(title).casefold()),
            {"game": result["game"], "title": title, "played": 0, "wins": 0, "total": 0, "best": None},
        )
        stats["played"] += 1
        stats["wins"] += result["place"] == 1
        stats["total"] += result["score"]
        game = GAMES.get(result["game"])
        better = max if game is None or game.highest_wins(result["options"]) else min
        stats["best"] = result["score"] if stats["best"] is None else better(stats["best"], result["score"])
    games = sorted(by_game.values(), key=lambda stats: (-stats["played"], str(stats["title"]).casefold()))
    for stats in games:
        stats["average"] = stats.pop("total") / stats["played"]
    results = {result["id"]: result for result in finished}
    recent = [
        {**seat, "title": table_title(seat["game"], seat["options"]), "result": results.get(seat["id"])}
        for seat in seated[:PLAYER_RECENT_TABLES]
    ]
    return {
        "name": seated[0]["name"], "key": key, "games": games, "tables": len(seated), "recent": recent,
        **_game_nights(db, key),
        "finished": finished, "seated": seated,  # every finished table and seat, for people.person
    }


def table_title(slug: str, options: dict[str, Any]) -> Text | str:
    """What a table of the game `slug` with `options` is called (Game.table_title); a game
    no longer installed, by its slug."""
    game = GAMES.get(slug)
    return slug if game is None else game.table_title(options)


def _game_nights(db, key: str) -> dict[str, int]:
    """How many game nights (two or more tables chained by rematches) the player `key`
    finished a game of, and how many of those they won (most wins of the night, shared)."""
    nights = [chain for chain in db.player_rematch_chains(key) if len(chain) >= 2]
    wins: dict[tuple[int, str], int] = {}  # (night, name_key) -> first places
    night_of = {table_id: number for number, chain in enumerate(nights) for table_id in chain}
    for result in db.chain_results(list(night_of)) if nights else []:
        player = night_of[result["table_id"]], result["name_key"]
        wins[player] = wins.get(player, 0) + (result["place"] == 1)
    most: dict[int, int] = {}  # night -> the most first places anyone took there
    for (night, _), count in wins.items():
        most[night] = max(most.get(night, 0), count)
    won = sum(wins.get((night, key), 0) == count > 0 for night, count in most.items())
    return {"nights": len(nights), "nights_won": won}


def alphabetical(name: str) -> tuple[str, str]:
    """A name's place in an alphabetical list: its letters without their accents first
    (Çécile among the Cs, not after Zoë), then as written."""
    bare = "".join(char for char in unicodedata.normalize("NFKD", name) if not unicodedata.combining(char))
    return bare.casefold(), name.casefold()

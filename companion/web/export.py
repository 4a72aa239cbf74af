"""A finished table as a download (JSON, CSV) and as a play for the BG Stats app.

Everything here starts from what a viewer may already see (views.table_view and
views.log_view for that viewer), so an export never shows more than the table page does.
"""

from __future__ import annotations

import csv
import io
import json
import math
from datetime import datetime
from typing import Any
from urllib.parse import quote

from ..tables import people, service
from ..games import Game
from . import views

# BG Stats' documented link for pushing a play from another app: the play as URL-encoded
# JSON in `data` (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Companion"
# A spreadsheet runs a cell starting with one of these as a formula: such cells are written
# with a leading apostrophe, which spreadsheets show as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_json(db, table: service.Table, viewer: service.Viewer) -> dict[str, Any]:
    """The API's table state and the game log, both as `viewer` may read them (the names as
    typed at the table), and who each seat is now on this companion (`people`: renames and
    merges followed)."""
    return {
        "table": views.table_view(table, viewer),
        "log": views.log_view(db, table, viewer),
        "people": [{"seat": seat, "name": name} for seat, name in sorted(people.names_at(db, table.id).items())],
    }


def with_people(db, view: dict[str, Any]) -> dict[str, Any]:
    """The table state `view` with each ranked player named as the person they are now on
    this companion (a host's rename or merge followed): for the CSV and BG Stats."""
    names = people.names_at(db, view["id"])
    return {**view, "ranking": [{**entry, "name": names.get(entry["seat"], entry["name"])} for entry in view["ranking"]]}


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def as_csv(ranking: list[dict[str, Any]], header: list[str]) -> str:
    """One row per player, best first: place, name, score, how the score is made up and,
    for players tied on their score, how the tie was broken (or that it was not).
    `ranking` is the table state's (its sentences rendered); `header` names the columns."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for entry in ranking:
        row = (entry["place"], entry["name"], entry["score"], entry.get("detail") or "", entry.get("tiebreak") or "")
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def _local(stamp: str) -> datetime:
    """A stored UTC timestamp in the server's time zone, which is the table's."""
    return datetime.fromisoformat(stamp).astimezone()


def play_minutes(created_at: str, finished_at: str) -> int:
    """From the table's start to its end, in whole minutes (a started minute counts)."""
    seconds = (datetime.fromisoformat(finished_at) - datetime.fromisoformat(created_at)).total_seconds()
    return max(1, math.ceil(seconds / 60))


def bgstats_play(game: Game, view: dict[str, Any], created_at: str, finished_at: str) -> dict[str, Any]:
    """The play in BG Stats' import format: the game (by BoardGameGeek id where it has one,
    by name otherwise, the table's own: Game.table_title), whether the highest score wins,
    date, duration, and each player's score, rank and winner flag, the first seat being the
    start player."""
    title = game.table_title(view["options"])
    game_entry: dict[str, Any] = {
        # the English name (BG Stats matches games by name), or the score pad's as typed
        "name": str(title),
        "highestWins": game.highest_wins(view["options"]),
        "noPoints": False,
        # a game of its own for each title the host typed (the score pad's Azul, Wingspan)
        "sourceGameId": game.slug if title == game.title else f"{game.slug}:{service.player_key(str(title))}",
    }
    if game.bgg_id is not None:
        game_entry["bggId"] = game.bgg_id
    tiebreaks = list(dict.fromkeys(entry["tiebreak"] for entry in view["ranking"] if entry["tiebreak"]))
    play = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": view["id"],
        "playDate": _local(created_at).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": play_minutes(created_at, finished_at),
        "game": game_entry,
        "players": [
            {
                "name": entry["name"],
                "score": entry["score"],
                "rank": entry["place"],
                "winner": entry["place"] == 1,
                "startPlayer": entry["seat"] == 0,
                "sourcePlayerId": service.player_key(entry["name"]),
            }
            for entry in view["ranking"]
        ],
    }
    if tiebreaks:
        play["comments"] = " ".join(tiebreaks)
    return play


def bgstats_url(play: dict[str, Any]) -> str:
    return f"{BGSTATS_CREATE_PLAY}?data={quote(json.dumps(play, ensure_ascii=False, separators=(',', ':')), safe='')}"

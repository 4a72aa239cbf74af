"""Player page benchmark: a player's page (/players/<name>) after a long history of game
nights, each a chain of rematches.

Plays one Pickomino game for Ana, Bruno and Caio through the app, on a fresh SQLite file,
then copies its rows (the table, its seats, its log and its results, each copy with ids and
token hashes of its own) until GAMES games are finished, linked by rematches into nights of
NIGHT games each. Then asks for Ana's page ROUNDS times through the app (the Flask test
client: the page's own time, no HTTP) and reports the median and the slowest.

    .venv/bin/python bench/player_page.py
    .venv/bin/python bench/player_page.py --games 10000 --night 500 --rounds 5

A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from companion.web.app import create_app  # noqa: E402
from played import create, play_pickomino  # noqa: E402


def copy_games(database: str, original: str, games: int, night: int) -> None:
    """`games - 1` copies of table `original`, chained by rematches `night` games at a time
    (the original starts the first night)."""
    with sqlite3.connect(database) as conn:
        columns = {name: [row[1] for row in conn.execute(f"PRAGMA table_info({name})")] for name in ("game_tables", "seats", "events", "results")}
        rows = {name: conn.execute(f"SELECT * FROM {name} WHERE {'id' if name == 'game_tables' else 'table_id'} = ?", [original]).fetchall() for name in columns}
        previous = original
        for number in range(1, games):
            table_id = f"B{number:05d}"  # six characters, as the ids the companion gives
            first_of_night = number % night == 0
            table = dict(zip(columns["game_tables"], rows["game_tables"][0]))
            table.update(id=table_id, host_token_hash=secrets.token_hex(32), rematch_id=None, rematch_host_sealed=None,
                         rematch_of=None if first_of_night else previous)
            conn.execute(f"INSERT INTO game_tables ({', '.join(table)}) VALUES ({', '.join('?' * len(table))})", list(table.values()))
            if not first_of_night:
                conn.execute("UPDATE game_tables SET rematch_id = ? WHERE id = ?", [table_id, previous])
            for name in ("seats", "events", "results"):
                for row in rows[name]:
                    record = dict(zip(columns[name], row), table_id=table_id)
                    if name == "seats":
                        record["token_hash"] = secrets.token_hex(32)
                    conn.execute(f"INSERT INTO {name} ({', '.join(record)}) VALUES ({', '.join('?' * len(record))})", list(record.values()))
            previous = table_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="finished games (default 10,000)")
    parser.add_argument("--night", type=int, default=500, help="games a night, chained by rematches (default 500)")
    parser.add_argument("--rounds", type=int, default=5, help="times the page is asked for (default 5)")
    args = parser.parse_args()
    database = str(Path(tempfile.mkdtemp(prefix="companion-player-bench-")) / "bench.sqlite3")
    app = create_app({"DATABASE": database, "SECRET_KEY": "bench"})
    client = app.test_client()
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    assert client.get("/players/Ana").status_code == 200  # its results saved
    copy_games(database, table.id, args.games, args.night)
    seconds = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        page = client.get("/players/Ana")
        seconds.append(time.perf_counter() - started)
        assert page.status_code == 200
    nights = args.games // args.night
    assert f"{nights} game nights" in page.get_data(as_text=True), "the page does not count the nights"
    print(json.dumps({
        "games": args.games, "games_a_night": args.night,
        "page_median_ms": round(statistics.median(seconds) * 1000, 1), "page_slowest_ms": round(max(seconds) * 1000, 1),
    }, indent=2))


if __name__ == "__main__":
    main()

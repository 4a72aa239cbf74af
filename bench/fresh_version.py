"""What a server process pays for its phones' first look at a table's new version, as the
game's log grows: the table's state, and what can be redone.

An action's own process keeps the state it made; every other process (the phones are
spread over them) finds the new version not kept. It steps the state it kept of the
version before on by the one action that made the new one (service.load), where it used
to replay the whole log; and with nothing ever undone it answers that nothing can be
redone without reading the log (undo_redo.redoable), where it used to read it all. This
plays one 5-player Pickomino game through the app (Flask test client, a fresh SQLite file)
and times, at each version, both ways of each, reporting their means over windows of the
game.

    .venv/bin/python bench/fresh_version.py

A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.web.app import create_app  # noqa: E402
from companion.tables.snapshots import RecentlyUsed  # noqa: E402
from companion.tables import corrections, service, undo_redo  # noqa: E402
from companion.web.database import get_db  # noqa: E402
from load import next_action  # noqa: E402

WINDOWS = ((1, 40), (41, 80), (81, 120), (121, 160), (161, 10_000))


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1e6


def main() -> None:
    random.seed(1)
    app = create_app({"DATABASE": str(Path(tempfile.mkdtemp(prefix="companion-fresh-")) / "bench.sqlite3"), "SECRET_KEY": "bench"})
    client = app.test_client()
    created = client.post("/api/tables", json={"game": "pickomino", "players": [f"P{i}" for i in range(5)]}).get_json()
    table_id, host = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
    state = client.get(f"/api/tables/{table_id}").get_json()
    figures: list[tuple[int, float, float, float, float]] = []
    with app.app_context():
        db = get_db()
        shared = db.snapshots
        while state["status"] != "finished":
            state = client.post(f"/api/tables/{table_id}/actions", json=next_action(state), headers=host).get_json()
            version = state["version"]
            table = service.load(db, table_id)
            # another process: it kept the version before, not this one
            db.snapshots = RecentlyUsed(4)
            db.snapshots.put((table_id, version - 1), shared.get((table_id, version - 1)))
            stepped = timed(lambda: service.load(db, table_id))
            replayed = timed(lambda: service.replay(db, table.game, table.row, table.names))
            db.snapshots = shared
            checked = timed(lambda: undo_redo.redoable(db, table, as_of=version))
            read = timed(lambda: corrections.redoable(db.events_as_of(table_id, version), table.game, lambda _version: None, version))
            figures.append((version, replayed, stepped, read, checked))
    print(f"one game of {len(figures)} actions, microseconds per version (mean over the window):")
    print("versions   state: replayed / stepped on   redoable: log read / undos looked for")
    for first, last in WINDOWS:
        window = [row for row in figures if first <= row[0] <= last]
        if window:
            means = [statistics.mean(row[column] for row in window) for column in range(1, 5)]
            print(f"{first:>3}-{min(last, figures[-1][0]):<4}   {means[0]:8.0f} / {means[1]:<8.0f}            {means[2]:8.0f} / {means[3]:.0f}")


if __name__ == "__main__":
    main()

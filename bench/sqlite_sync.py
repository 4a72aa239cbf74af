"""What SQLite's synchronous=FULL costs over NORMAL for the companion's writes (WAL mode).

With NORMAL a commit is not flushed to the disk (fsync) until the next checkpoint, so a
committed action survives the server process being killed but may be lost if the machine
loses power; with FULL every commit waits for an fsync. This measures both on the disk
that holds the database directory (default: the project's instance folder):

  - a bare commit: BEGIN IMMEDIATE, one small INSERT, COMMIT on the companion's connection;
  - a whole action: POST /api/tables/<id>/actions through the app (Flask test client, no
    network), alternating an action and its undo, both writes.

    .venv/bin/python bench/sqlite_sync.py --writes 500

A benchmark, not a test: the figures depend on the disk and what else the machine does.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.web.app import create_app  # noqa: E402
from companion.tables import sqlite  # noqa: E402


def percentiles(samples_ms: list[float]) -> str:
    cuts = statistics.quantiles(samples_ms, n=100)
    return f"p50 {cuts[49]:6.2f} ms  p95 {cuts[94]:6.2f} ms  p99 {cuts[98]:6.2f} ms  mean {statistics.fmean(samples_ms):6.2f} ms"


def bare_commits(folder: Path, mode: str, writes: int) -> list[float]:
    path = folder / f"bare-{mode}.sqlite3"
    sqlite.migrate(path)
    connection = sqlite.connect(path, {"synchronous": mode}).conn
    connection.execute("CREATE TABLE samples (n INTEGER, note TEXT)")
    samples = []
    for n in range(writes):
        started = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO samples VALUES (?, ?)", [n, "x" * 200])
        connection.execute("COMMIT")
        samples.append((time.perf_counter() - started) * 1000)
    connection.close()
    return samples


def actions(folder: Path, mode: str, writes: int) -> list[float]:
    app = create_app(
        {"DATABASE": str(folder / f"app-{mode}.sqlite3"), "SECRET_KEY": "bench", "SQLITE_PRAGMAS": {"synchronous": mode}}
    )
    client = app.test_client()
    created = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    headers = {"Authorization": f"Bearer {created['host_token']}"}
    base = f"/api/tables/{created['id']}"
    samples = []
    for n in range(writes):
        started = time.perf_counter()
        if n % 2 == 0:
            response = client.post(base + "/actions", json={"type": "set_aside", "face": "worm", "count": 3}, headers=headers)
        else:
            response = client.post(base + "/undo", headers=headers)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.get_json()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=500, help="writes per measurement (default 500)")
    parser.add_argument("--dir", type=Path, default=ROOT / "instance", help="a folder on the disk to measure")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"SQLite {sqlite.sqlite3.sqlite_version}, WAL mode, {args.writes} writes each, on {args.dir}")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for mode in ("NORMAL", "FULL"):
            print(f"synchronous={mode:6}  bare commit  {percentiles(bare_commits(Path(folder), mode, args.writes))}")
            print(f"synchronous={mode:6}  API action   {percentiles(actions(Path(folder), mode, args.writes))}")


if __name__ == "__main__":
    main()

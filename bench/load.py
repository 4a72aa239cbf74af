"""Load benchmark: tables of phones polling while players act, against a real server.

Starts the companion as users run it (`companion serve`, on a fresh SQLite file, or with
--postgresql a fresh PostgreSQL database), then simulates TABLES tables of PHONES phones
each. Every phone joins its seat with its QR link (a cookie), opens the table page (which
says that the seat is open on this phone, as the page's script does), polls its table
every POLL seconds like the pages do, and one player per table acts every ACT seconds
through the JSON API. Reports requests per second, p50/p95/p99 latency for polls and
actions, errors, and the ratio of the poll path to a bare endpoint of the same server
(/healthz) measured in the same run.

    .venv/bin/python bench/load.py --tables 100 --phones 5 --seconds 60
    .venv/bin/python bench/load.py --tables 100 --phones 5 --seconds 60 --postgresql start

A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
REQUEST_TIMEOUT = 10  # seconds: a request that takes longer counts as an error


class Connection:
    """One keep-alive HTTP/1.1 connection: small, so thousands of phones fit in one process."""

    def __init__(self, host: str, port: int, gzip: bool = False):
        self.host, self.port = host, port
        self.reader = self.writer = None
        self.cookie = ""
        self.gzip = gzip  # asks for gzipped answers, as browsers do, and decodes them

    async def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None, form: dict | None = None):
        """`body`: sent as JSON; `form`: as a form (a table page's tap)."""
        try:
            return await self._request(method, path, body, headers, form)
        except BaseException:
            if self.writer is not None:  # a half-read answer: start afresh next time
                self.writer.close()
            self.reader = self.writer = None
            raise

    async def _request(self, method: str, path: str, body: dict | None, headers: dict | None, form: dict | None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        if form is not None:
            payload = urlencode(form).encode()
        else:
            payload = json.dumps(body).encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(payload)}"]
        if form is not None:
            lines.append("Content-Type: application/x-www-form-urlencoded")
        elif body is not None:
            lines.append("Content-Type: application/json")
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        if self.gzip:
            lines.append("Accept-Encoding: gzip")
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        length, close, gzipped = 0, False, False
        while True:
            line = (await self.reader.readline()).decode("latin-1").strip()
            if not line:
                break
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                self.cookie = value.strip().split(";", 1)[0]
            elif name == "connection" and value.strip().lower() == "close":
                close = True
            elif name == "content-encoding":
                gzipped = value.strip().lower() == "gzip"
        data = await self.reader.readexactly(length) if length else b""
        if gzipped:
            data = gzip.decompress(data)
        if close:
            self.writer.close()
            self.reader = self.writer = None
        return status, data


async def until(seconds: float, deadline: float) -> None:
    """Sleep `seconds`, but not past the end of the run: a player's next action due after
    it (up to 1.5 × ACT) kept runs going, idle, past their measured time."""
    await asyncio.sleep(max(0.0, min(seconds, deadline - time.monotonic())))


class Recorder:
    def __init__(self):
        # "poll" is every poll; "poll 204" and "poll 200" split it: nothing new, or the fresh table
        self.latencies: dict[str, list[float]] = {"poll": [], "poll 204": [], "poll 200": [], "action": [], "bare": []}
        self.errors: dict[str, int] = {}
        self.count = 0
        self.lag: list[float] = []

    async def timed(self, kind: str, call, expect: tuple[int, ...]):
        start = time.perf_counter()
        try:
            status, data = await asyncio.wait_for(call, REQUEST_TIMEOUT)
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
            self.errors[f"{kind}: {type(error).__name__}"] = self.errors.get(f"{kind}: {type(error).__name__}", 0) + 1
            return None, None
        elapsed = (time.perf_counter() - start) * 1000
        self.latencies[kind].append(elapsed)
        if kind == "poll" and status in (200, 204):
            self.latencies[f"poll {status}"].append(elapsed)
        self.count += 1
        if status not in expect:
            key = f"{kind}: HTTP {status}"
            self.errors[key] = self.errors.get(key, 0) + 1
        return status, data


CSRF_TOKEN = re.compile(rb'"X-CSRF-Token": "([^"]+)"')
SEAT_OPENED = re.compile(rb'data-seat-opened="([^"]+)"')


def next_action(state: dict) -> dict:
    """A legal quick-entry turn: worms first, then one other face, then stop."""
    turn = state["state"]["turn"]
    kept = [group["face"] for group in turn["kept"]]
    if not kept:
        return {"type": "set_aside", "face": "worm", "count": random.randint(1, 4)}
    if len(kept) == 1 and turn["dice_left"] > 0:
        face = random.choice([face for face in (1, 2, 3, 4, 5) if face not in kept])
        return {"type": "set_aside", "face": face, "count": random.randint(1, min(3, turn["dice_left"]))}
    return {"type": "stop"}


async def set_up_table(host, port, args) -> tuple[str, str, list[Connection]]:
    """A table started through the API, and its phones: each opens its seat's QR link and
    the table page it leads to. Not measured: the figures are for tables in play."""
    setup = Connection(host, port)
    _, data = await setup.request("POST", "/api/tables", {"game": "pickomino", "players": [f"P{i}" for i in range(args.phones)]})
    created = json.loads(data)
    phones = []
    for seat in created["seats"]:
        phone = Connection(host, port)
        await phone.request("GET", "/j/" + seat["join_url"].rsplit("/j/", 1)[1])
        _, page = await phone.request("GET", f"/t/{created['id']}")
        # the page says that its seat is open on this phone, as static/app.js does
        opened = SEAT_OPENED.search(page)
        if opened:
            status, _ = await phone.request("POST", opened.group(1).decode(), headers={"X-CSRF-Token": CSRF_TOKEN.search(page).group(1).decode()})
            if status != 200:  # else no seat is open, and nothing a write shares could be measured
                raise RuntimeError(f"A phone could not say that its seat is open (HTTP {status}).")
        phones.append(phone)
    return created["id"], created["host_token"], phones


async def run_table(host, port, args, recorder: Recorder, table, deadline: float):
    table_id, host_token, phones = table
    version = 0

    async def poll(phone: Connection):
        seen = 0
        await until(random.uniform(0, args.poll), deadline)
        while time.monotonic() < deadline:
            status, _ = await recorder.timed("poll", phone.request("GET", f"/t/{table_id}/poll?v={seen}", headers={"HX-Request": "true"}), (200, 204))
            if status == 200:
                seen = current_version[0]
            await until(args.poll, deadline)

    async def act():
        nonlocal table_id, host_token
        actor = Connection(host, port)
        _, data = await actor.request("GET", f"/api/tables/{table_id}")
        state = json.loads(data)
        await until(random.uniform(0, args.act), deadline)
        while time.monotonic() < deadline:
            action = next_action(state)
            status, data = await recorder.timed(
                "action",
                actor.request("POST", f"/api/tables/{table_id}/actions", action, {"Authorization": f"Bearer {host_token}"}),
                (200,),
            )
            if status == 200:
                state = json.loads(data)
                current_version[0] = state["version"]
                if state["status"] == "finished":
                    _, data = await actor.request("POST", f"/api/tables/{table_id}/undo", {}, {"Authorization": f"Bearer {host_token}"})
                    state = json.loads(data)
                    current_version[0] = state["version"]
            await until(args.act * random.uniform(0.5, 1.5), deadline)

    current_version = [version]
    await asyncio.gather(act(), *(poll(phone) for phone in phones))


async def bare(host, port, args, recorder: Recorder, deadline: float):
    """The baseline: the same server's bare endpoint, at the same rate as one phone polls."""
    connection = Connection(host, port)
    while time.monotonic() < deadline:
        await recorder.timed("bare", connection.request("GET", "/healthz"), (204,))
        await until(args.poll / 10, deadline)


async def generator_lag(recorder, deadline: float):
    """How late this load generator's own event loop wakes up, into `recorder.lag` (a
    Recorder here, bench/push.py's Figures there): measured latencies include it."""
    while time.monotonic() < deadline:
        asked = time.perf_counter()
        await asyncio.sleep(0.01)
        recorder.lag.append((time.perf_counter() - asked - 0.01) * 1000)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# Several servers on one database sign cookies with one key (README "Beyond one machine").
SHARED_SECRET_KEY = os.urandom(16).hex()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgreSQL:
    """The PostgreSQL the benchmarks run on: `url` names a running server (a database on
    it that may create databases), or "start" starts a throwaway one as the tests do
    (tests/databases.py), with PostgreSQL's durable defaults."""

    def __init__(self, url: str):
        sys.path.insert(0, str(ROOT / "tests"))
        from databases import PostgresServer

        self.started = PostgresServer(durable=True).start() if url == "start" else None
        self.admin = self.started.url() if self.started else url
        self.count = 0

    def new_database(self) -> str:
        import psycopg

        self.count += 1
        name = f"companion_bench_{os.getpid()}_{self.count}"
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.admin.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        if self.started is not None:
            self.started.stop()


def start_server(port: int, database: str, serve_options: list[str]) -> subprocess.Popen:
    """`companion serve` on `database` (a SQLite file or a PostgreSQL URL), its data in a
    folder of its own."""
    folder = str(Path(database).parent) if not database.startswith("postgresql://") else tempfile.mkdtemp(prefix="companion-bench-")
    env = {**os.environ, "COMPANION_DATABASE": database, "COMPANION_INSTANCE": folder, "COMPANION_SECRET_KEY": SHARED_SECRET_KEY}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), *serve_options],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the companion did not start")


async def main_async(args) -> dict:
    recorder = Recorder()
    tables = await asyncio.gather(*(set_up_table("127.0.0.1", args.port, args) for _ in range(args.tables)))
    deadline = time.monotonic() + args.seconds
    started = time.monotonic()
    await asyncio.gather(
        *(run_table("127.0.0.1", args.port, args, recorder, table, deadline) for table in tables),
        bare("127.0.0.1", args.port, args, recorder, deadline),
        generator_lag(recorder, deadline),
    )
    elapsed = time.monotonic() - started
    figures = {"requests": recorder.count, "seconds": round(elapsed, 1), "requests_per_second": round(recorder.count / elapsed, 1)}
    for kind, values in recorder.latencies.items():
        figures[kind] = {
            "count": len(values),
            "p50_ms": round(percentile(values, 50), 2),
            "p95_ms": round(percentile(values, 95), 2),
            "p99_ms": round(percentile(values, 99), 2),
        }
    poll, bare_ = recorder.latencies["poll"], recorder.latencies["bare"]
    if poll and bare_:
        figures["poll_to_bare_ratio_p50"] = round(statistics.median(poll) / statistics.median(bare_), 2)
    figures["generator_lag_ms"] = {
        "p50": round(percentile(recorder.lag, 50), 2), "p99": round(percentile(recorder.lag, 99), 2)
    }
    figures["errors"] = recorder.errors
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between two polls of one phone")
    parser.add_argument("--act", type=float, default=4.0, help="mean seconds between two actions at one table")
    parser.add_argument("--port", type=int, default=0, help="0: start a companion on a free port")
    parser.add_argument(
        "--processes", type=int, help="passed on to `companion serve` (default: its own, one per core)"
    )
    parser.add_argument("--threads", type=int, help="passed on to `companion serve` (default: its own)")
    parser.add_argument(
        "--postgresql", metavar="URL", help='run on PostgreSQL: a server\'s URL (a fresh database is made on it), or "start"'
    )
    args = parser.parse_args()
    server = postgresql = None
    if args.port == 0:
        args.port = free_port()
        serve_options = [
            f"--{name}={value}" for name, value in (("processes", args.processes), ("threads", args.threads)) if value is not None
        ]
        if args.postgresql:
            postgresql = PostgreSQL(args.postgresql)
            database = postgresql.new_database()
        else:
            database = os.path.join(tempfile.mkdtemp(prefix="companion-bench-"), "bench.sqlite3")
        server = start_server(args.port, database, serve_options)
    try:
        figures = asyncio.run(main_async(args))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        if postgresql is not None:
            postgresql.stop()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Push benchmark: how soon a change reaches every other phone, and at what cost, with the
phones holding Server-Sent Events connections and, for comparison, with them polling.

Starts the companion as users run it (`companion serve`, on a fresh SQLite file, or with
--postgresql on a fresh PostgreSQL database and --servers N servers on it) for each mode
in turn. TABLES tables of PHONES phones: every phone joins its seat with its QR link
(a cookie); in `push` mode it holds the table page's connection (GET /t/<id>/events) and
reads the tables pushed on it, in `poll` mode it polls every 2 s as the pages do where push
cannot work, and in `poll-threads` mode it polls `companion serve --server threads` (waitress),
as every page did before the push server and does where gevent cannot run. One player
per table acts every ACT seconds (2 to 6 s by default): with `--actor api` (the default) the
host enters every action through the JSON API, for the first phone's player, whose phone is
then left out; with `--actor page` the player in turn taps on their own phone's table page,
as at a real table, and that page shows the tap's answer. Reported per mode: the time from
an action's answer to each other phone having the change (p50, p95, p99; negative when the
push overtook the answer), the actions' and the bare endpoint's (/healthz) round trips
measured in the same run (every BARE_EVERY seconds, 0.2 by default: less gives its p99 more
samples), this generator's own lag, errors, tables pushed to a page that showed them already,
the bytes each phone received on its held connection, and the server's CPU time and memory
(all its processes, read from /proc). The phones ask for gzip as browsers do (`--encoding
identity`: as a client that takes none; every run before 2026-11-28 was one), and decode it.

    .venv/bin/python bench/push.py --tables 100 --phones 5 --seconds 60
    .venv/bin/python bench/push.py --tables 100 --phones 5 --seconds 60 --actor page
    .venv/bin/python bench/push.py --tables 100 --phones 5 --seconds 60 --actor page --modes push,poll,poll-threads
    .venv/bin/python bench/push.py --tables 1000 --phones 5 --seconds 60 --act 10 --modes push --bare-every 0.02
    .venv/bin/python bench/push.py --tables 100 --phones 5 --seconds 60 --postgresql start --servers 2
    .venv/bin/python bench/push.py --tables 100 --phones 5 --seconds 60 --encoding identity

With several servers, a table's phones are spread over them (phone n of table t on server
(t + n) mod N, its actor on server t mod N), so most changes cross from one server to another.

A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import CSRF_TOKEN, REQUEST_TIMEOUT, SEAT_OPENED, Connection, PostgreSQL, free_port, generator_lag, next_action, percentile, start_server, until  # noqa: E402


PUSHED_TABLE = re.compile(rb"event: table\nid: (\d+)\n")


class Figures:
    def __init__(self):
        self.seen: list[float] = []  # ms from an action's answer to a phone having it
        self.action: list[float] = []
        self.bare: list[float] = []
        self.lag: list[float] = []  # ms this generator's own event loop woke late (load.generator_lag)
        self.errors: dict[str, int] = {}
        self.answered: dict[tuple[str, int], float] = {}  # (table, version) -> when the action's answer came
        self.early: dict[tuple[str, int], list[float]] = {}  # pushes that came before the answer
        self.pushed_again = 0  # tables pushed to a page that showed them already
        self.pushed_bytes = 0  # received on the held connections, as they came over the wire

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def got(self, table_id: str, version: int) -> None:
        now = time.perf_counter()
        answered = self.answered.get((table_id, version))
        if answered is None:
            self.early.setdefault((table_id, version), []).append(now)
        else:
            self.seen.append((now - answered) * 1000)

    def answer(self, table_id: str, version: int) -> None:
        now = time.perf_counter()
        self.answered[(table_id, version)] = now
        for moment in self.early.pop((table_id, version), []):
            self.seen.append((moment - now) * 1000)


PAGE_ID = re.compile(rb'"X-Companion-Page": "([^"]+)"')
TABLE_VERSION = re.compile(rb'data-version="(\d+)"')
TURN_OF = re.compile(rb'class="status(?: mine)?" data-seat="(\d+)"')


async def join(port: int, table_id: str, join_url: str, gzip: bool) -> Connection:
    """A phone that opened its seat's QR link and the table page it leads to, which says
    that the seat is open on this phone as static/app.js does (an older companion's page
    does not ask it to): the page's id and the session's CSRF token are kept for its taps,
    `seen` is the version it shows."""
    phone = Connection("127.0.0.1", port, gzip)
    await phone.request("GET", "/j/" + join_url.rsplit("/j/", 1)[1])
    _, page = await phone.request("GET", f"/t/{table_id}")
    found = PAGE_ID.search(page)  # an older companion's page has no id: every version is pushed to it
    phone.page_id = found.group(1).decode() if found else ""
    phone.csrf = CSRF_TOKEN.search(page).group(1).decode()
    opened = SEAT_OPENED.search(page)
    if opened:
        status, _ = await phone.request("POST", opened.group(1).decode(), headers={"X-CSRF-Token": phone.csrf})
        if status != 200:  # else no seat is open, and nothing a tap shares could be measured
            raise RuntimeError(f"A phone could not say that its seat is open (HTTP {status}).")
    phone.seen = 0
    return phone


async def set_up(ports: list[int], number: int, phones: int, gzip: bool):
    """Table `number`: created on its server, each phone joined on its own (see above)."""
    setup = Connection("127.0.0.1", ports[number % len(ports)])
    _, data = await setup.request("POST", "/api/tables", {"game": "pickomino", "players": [f"P{i}" for i in range(phones)]})
    created = json.loads(data)
    joined = [
        await join(ports[(number + seat) % len(ports)], created["id"], entry["join_url"], gzip)
        for seat, entry in enumerate(created["seats"])
    ]
    return created["id"], created["host_token"], joined


class Body:
    """A held connection's body as the phone reads it: the HTTP head skipped, the chunks
    taken apart, gzip decoded if the server gzipped it."""

    def __init__(self):
        self.head: bytes | None = b""  # None once read
        self.pending = b""
        self.decoder = None

    def feed(self, data: bytes) -> bytes:
        if self.head is not None:
            self.head += data
            if b"\r\n\r\n" not in self.head:
                return b""
            head, data = self.head.split(b"\r\n\r\n", 1)
            if re.search(rb"(?im)^content-encoding: *gzip", head):
                self.decoder = zlib.decompressobj(wbits=31)
            self.head = None
        self.pending += data
        body = []
        while (end := self.pending.find(b"\r\n")) >= 0:
            size = int(self.pending[:end].split(b";")[0], 16)
            if len(self.pending) < end + 2 + size + 2:
                break
            body.append(self.pending[end + 2:end + 2 + size])
            self.pending = self.pending[end + 2 + size + 2:]
        data = b"".join(body)
        return self.decoder.decompress(data) if self.decoder is not None else data


async def held_connection(phone: Connection, table_id: str, figures: Figures, deadline: float) -> None:
    """A phone's table page: one held connection (to the server it joined), each pushed
    table's version noted."""
    reader, writer = await asyncio.open_connection("127.0.0.1", phone.port)
    writer.write((
        f"GET /t/{table_id}/events?v=0&page={phone.page_id} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {phone.cookie}\r\n"
        + ("Accept-Encoding: gzip\r\n" if phone.gzip else "") + "Accept: text/event-stream\r\n\r\n"
    ).encode())
    await writer.drain()
    try:
        status = await asyncio.wait_for(reader.readline(), REQUEST_TIMEOUT)
        if b" 200 " not in status:
            figures.error(f"events: {status.decode().strip()}")
            return
        pending, body = b"", Body()
        while time.monotonic() < deadline:
            # Read in blocks and look only for the pushed tables' ids: parsing every line of
            # thousands of pushed pages would make this generator the bottleneck.
            chunk = await asyncio.wait_for(reader.read(65536), max(0.1, deadline - time.monotonic()))
            if not chunk:
                figures.error("events: closed by the server")
                return
            figures.pushed_bytes += len(chunk)
            pending += body.feed(chunk)
            found = list(PUSHED_TABLE.finditer(pending))
            for match in found:
                version = int(match.group(1))
                if version > phone.seen:
                    figures.got(table_id, version)
                    phone.seen = version
                else:
                    figures.pushed_again += 1
            if found:
                pending = pending[found[-1].end():]
            pending = pending[-64:]  # an id cut between two blocks is found with the next one
    except asyncio.TimeoutError:
        pass  # the run is over
    except (ConnectionError, OSError) as error:
        figures.error(f"events: {type(error).__name__}")
    finally:
        writer.close()


async def polling(phone: Connection, table_id: str, figures: Figures, deadline: float, every: float) -> None:
    await until(random.uniform(0, every), deadline)
    while time.monotonic() < deadline:
        try:
            status, data = await asyncio.wait_for(
                phone.request("GET", f"/t/{table_id}/poll?v={phone.seen}", headers={"HX-Request": "true"}), REQUEST_TIMEOUT
            )
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
            figures.error(f"poll: {type(error).__name__}")
            await until(every, deadline)
            continue
        if status == 200:
            version = int(TABLE_VERSION.search(data).group(1))
            for missed in range(phone.seen + 1, version + 1):
                figures.got(table_id, missed)
            phone.seen = max(phone.seen, version)
        elif status != 204:
            figures.error(f"poll: HTTP {status}")
        await until(every, deadline)


async def acting(port: int, table_id: str, host_token: str, figures: Figures, deadline: float, act: float) -> None:
    actor = Connection("127.0.0.1", port)
    _, data = await actor.request("GET", f"/api/tables/{table_id}")
    state = json.loads(data)
    await until(random.uniform(0, act), deadline)
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            status, data = await asyncio.wait_for(
                actor.request("POST", f"/api/tables/{table_id}/actions", next_action(state), {"Authorization": f"Bearer {host_token}"}),
                REQUEST_TIMEOUT,
            )
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
            figures.error(f"action: {type(error).__name__}")
            continue
        if status != 200:
            figures.error(f"action: HTTP {status}")
        else:
            state = json.loads(data)
            figures.answer(table_id, state["version"])
            figures.action.append((time.perf_counter() - started) * 1000)
            if state["status"] == "finished":
                _, data = await actor.request("POST", f"/api/tables/{table_id}/undo", {}, {"Authorization": f"Bearer {host_token}"})
                state = json.loads(data)
                figures.answer(table_id, state["version"])
        await until(act * random.uniform(0.5, 1.5), deadline)


async def tapping(phones: list[Connection], table_id: str, figures: Figures, deadline: float, act: float) -> None:
    """`--actor page`: the player in turn taps on their own phone's table page, as players
    do (a form posted the way htmx posts it, with the page's id); the tap's answer is the
    fresh table, which that page then shows. The turn's dice are followed here (quick
    entry, as next_action plays them); whose turn it is, from each answer."""
    tappers = []
    for phone in phones:  # a connection of its own for the taps: a polling phone's is busy
        tapper = Connection("127.0.0.1", phone.port, phone.gzip)
        tapper.cookie = phone.cookie
        tappers.append(tapper)
    seat, version, turn = 0, 0, {"kept": [], "dice_left": 8}
    await until(random.uniform(0, act), deadline)
    while time.monotonic() < deadline:
        phone, action = phones[seat], next_action({"state": {"turn": turn}})
        ended = await tap(tappers[seat], phone, table_id, "act", {"action": json.dumps(action), "expected_version": version}, figures)
        if ended is not None:
            version, data = ended
            if action["type"] == "set_aside":
                turn = {"kept": turn["kept"] + [{"face": action["face"]}], "dice_left": turn["dice_left"] - action["count"]}
            elif b"The game is over" in data:  # back to before the last stop, as the host would
                ended = await tap(tappers[seat], phone, table_id, "undo", {"expected_version": version}, figures)
                version = ended[0] if ended is not None else version
            else:
                seat, turn = int(TURN_OF.search(data).group(1)), {"kept": [], "dice_left": 8}
        await until(act * random.uniform(0.5, 1.5), deadline)


async def tap(tapper: Connection, phone: Connection, table_id: str, what: str, form: dict, figures: Figures):
    """One tap on `phone`'s table page: the version it made and the answer, or None."""
    headers = {"HX-Request": "true", "X-CSRF-Token": phone.csrf, "X-Companion-Page": phone.page_id}
    started = time.perf_counter()
    try:
        status, data = await asyncio.wait_for(tapper.request("POST", f"/t/{table_id}/{what}", headers=headers, form=form), REQUEST_TIMEOUT)
    except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
        figures.error(f"tap: {type(error).__name__}")
        return None
    if status != 200 or b'role="alert"' in data:
        figures.error(f"tap: HTTP {status}" + (" refused" if status == 200 else ""))
        return None
    version = int(TABLE_VERSION.search(data).group(1))
    phone.seen = max(phone.seen, version)  # the page swaps its answer in
    figures.answer(table_id, version)
    figures.action.append((time.perf_counter() - started) * 1000)
    return version, data


async def bare(port: int, figures: Figures, deadline: float, every: float) -> None:
    connection = Connection("127.0.0.1", port)
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            await asyncio.wait_for(connection.request("GET", "/healthz"), REQUEST_TIMEOUT)
            figures.bare.append((time.perf_counter() - started) * 1000)
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
            figures.error(f"bare: {type(error).__name__}")
        await until(every, deadline)


def server_usage(servers: list[int]) -> tuple[float, int]:
    """CPU seconds (user + system) and resident memory (bytes) of the servers and their
    workers (not PostgreSQL's)."""
    ticks, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
    pids = [
        process for pid in servers
        for process in [pid] + [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    ]
    cpu, memory = 0.0, 0
    for process in pids:
        fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        cpu += (int(fields[11]) + int(fields[12])) / ticks
        memory += int(Path(f"/proc/{process}/statm").read_text().split()[1]) * page
    return cpu, memory


async def run(mode: str, ports: list[int], pids: list[int], args) -> dict:
    figures = Figures()
    tables = []
    for start in range(0, args.tables, 50):  # set up in batches: not measured
        tables += await asyncio.gather(
            *(set_up(ports, number, args.phones, args.encoding == "gzip") for number in range(start, min(args.tables, start + 50)))
        )
    deadline = time.monotonic() + args.seconds
    jobs = [generator_lag(figures, deadline), *(bare(port, figures, deadline, args.bare_every) for port in ports)]
    for number, (table_id, host_token, phones) in enumerate(tables):
        if args.actor == "page":
            jobs.append(tapping(phones, table_id, figures, deadline, args.act))
        else:  # the host through the API, for the first phone's player: that phone is left out
            jobs.append(acting(ports[number % len(ports)], table_id, host_token, figures, deadline, args.act))
            phones = phones[1:]
        for phone in phones:
            if mode == "push":
                jobs.append(held_connection(phone, table_id, figures, deadline))
            else:
                jobs.append(polling(phone, table_id, figures, deadline, 2.0))
    cpu_before, _ = server_usage(pids)
    started = time.monotonic()
    await asyncio.gather(*jobs)
    elapsed = time.monotonic() - started
    cpu_after, memory = server_usage(pids)

    def summary(values: list[float]) -> dict:
        return {"count": len(values), **{f"p{p}_ms": round(percentile(values, p), 1) for p in (50, 95, 99)}}

    return {
        "mode": mode,
        "actor": args.actor,
        "database": "postgresql" if args.postgresql else "sqlite",
        "servers": len(ports),
        "tables": args.tables,
        "phones": args.phones,
        "seconds": round(elapsed, 1),
        "change_seen": summary(figures.seen),
        "action": summary(figures.action),
        "bare": summary(figures.bare),
        "generator_lag": summary(figures.lag),
        "server_cpu_seconds": round(cpu_after - cpu_before, 1),
        "server_cpu_share_of_a_core": round((cpu_after - cpu_before) / elapsed, 2),
        "server_memory_mb": round(memory / 1e6),
        "tables_pushed_again": figures.pushed_again,
        "encoding": args.encoding,
        "pushed_megabytes": round(figures.pushed_bytes / 1e6, 2),
        "errors": figures.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--act", type=float, default=4.0, help="mean seconds between two actions at one table")
    parser.add_argument(
        "--modes", default="push,poll",
        help="push, poll, poll-threads, comma-separated (default push,poll); poll-threads: the phones poll"
        " `companion serve --server threads` (waitress), as they all did before the push server",
    )
    parser.add_argument(
        "--actor", choices=("api", "page"), default="api",
        help="api: the host enters every action through the JSON API (default); page: the player in turn taps on their phone's table page",
    )
    parser.add_argument(
        "--postgresql", metavar="URL", help='run on PostgreSQL: a server\'s URL (a fresh database is made on it), or "start"'
    )
    parser.add_argument(
        "--bare-every", type=float, default=0.2,
        help="seconds between two requests to the bare endpoint, per server (default 0.2); less gives its p99 more samples",
    )
    parser.add_argument(
        "--encoding", choices=("gzip", "identity"), default="gzip",
        help="gzip: the phones ask for gzip, as browsers do (default); identity: for nothing",
    )
    parser.add_argument("--servers", type=int, default=1, help="companion servers on the one database (PostgreSQL)")
    parser.add_argument("--processes", type=int, help="passed on to each `companion serve` (default: its own, one per core)")
    args = parser.parse_args()
    unknown = set(args.modes.split(",")) - {"push", "poll", "poll-threads"}
    if unknown:
        parser.error(f"unknown mode {', '.join(sorted(unknown))}: push, poll or poll-threads")
    if args.servers > 1 and not args.postgresql:
        parser.error("several servers share one database on PostgreSQL: add --postgresql")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of connections
    postgresql = PostgreSQL(args.postgresql) if args.postgresql else None
    serve_options = [] if args.processes is None else [f"--processes={args.processes}"]
    results = []
    try:
        for mode in args.modes.split(","):
            if postgresql is not None:
                database = postgresql.new_database()
            else:
                database = os.path.join(tempfile.mkdtemp(prefix="companion-push-bench-"), "bench.sqlite3")
            ports = [free_port() for _ in range(args.servers)]
            threads = ["--server=threads"] if mode == "poll-threads" else []
            servers = [start_server(port, database, serve_options + threads) for port in ports]
            try:
                results.append(asyncio.run(run(mode, ports, [server.pid for server in servers], args)))
            finally:
                for server in servers:
                    server.terminate()
                    server.wait(timeout=30)
    finally:
        if postgresql is not None:
            postgresql.stop()
    cpu = {result["mode"]: result["server_cpu_seconds"] for result in results}
    ratios = {f"push_cpu_to_{mode.replace('-', '_')}_cpu": round(cpu["push"] / cpu[mode], 2) for mode in cpu if mode != "push" and cpu[mode] and "push" in cpu}
    if ratios:
        results.append(ratios)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

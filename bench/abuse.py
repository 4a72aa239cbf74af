"""Abuse benchmark: one hostile device on the Wi-Fi against the phones of a game night.

Starts the companion as users run it (`companion serve` on a fresh SQLite file; `--server
threads` for waitress), on loopback only, and measures the phones' bare endpoint (/healthz,
each request on a connection of its own, as a phone that opens the page) in three phases:

1. at rest, nothing else on the server;
2. while one client (its own loopback address, 127.0.0.2) holds, at once, UNFINISHED
   requests whose headers never end, IDLE connections that never send a byte, and HELD push
   connections (a table page's Server-Sent Events) each carrying HEADER_KB of headers; a
   connection the server closes is opened again a second later, so the client keeps up the
   pressure for the whole phase;
3. after the client dropped them all.

Reported per phase: the phones' p50 / p99 and errors (any failure, timeout or answer but
204), the server's CPU time; how many of each kind of connection the client held open
(sampled through the phase) and how often the server closed one; and the server's memory
(all its processes, from /proc) at rest, at most during the attack, and after it.

    .venv/bin/python bench/abuse.py
    .venv/bin/python bench/abuse.py --server threads
    .venv/bin/python bench/abuse.py --unfinished 1500 --idle 1500 --held 1500 --header-kb 24

Bounded: connections on loopback only, a fixed number of them, for a fixed time.
A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import Connection, free_port, percentile, start_server  # noqa: E402
from push import server_usage  # noqa: E402

ATTACKER = "127.0.0.2"  # one client, as the server sees it: an address of its own
PHONE_TIMEOUT = 10.0  # seconds: a phone's request that takes longer is an error
REOPEN_SECONDS = 1.0  # the attacker opens a connection the server closed again after this


class Phase:
    def __init__(self, name: str):
        self.name = name
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def figures(self) -> dict:
        return {
            "requests": len(self.latencies),
            "p50_ms": round(percentile(self.latencies, 50), 2),
            "p99_ms": round(percentile(self.latencies, 99), 2),
            "errors": self.errors,
        }


async def phone(port: int, phase_of, stop: asyncio.Event, every: float) -> None:
    """A phone asking the bare endpoint every `every` seconds, on a new connection each time."""
    while not stop.is_set():
        phase = phase_of()
        started = time.perf_counter()
        try:
            writer = None
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), PHONE_TIMEOUT)
            writer.write(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            status_line = await asyncio.wait_for(reader.readline(), PHONE_TIMEOUT - (time.perf_counter() - started))
            if not status_line:
                raise ConnectionError("closed without an answer")
            status = int(status_line.split()[1])
            phase.latencies.append((time.perf_counter() - started) * 1000)
            if status != 204:
                phase.error(f"HTTP {status}")
        except (OSError, ConnectionError, asyncio.TimeoutError, ValueError, IndexError) as error:
            phase.error(type(error).__name__)
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(every)


class Attacker:
    """One client holding `count` connections of one kind, each opened again a second after
    the server closes it."""

    def __init__(self, kind: str, port: int, opening: bytes, count: int):
        self.kind, self.port, self.opening, self.count = kind, port, opening, count
        self.open = 0
        self.closed_by_server = 0
        self.refused = 0  # could not even connect
        self.tasks: list[asyncio.Task] = []
        self.dropped = False

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self.hold()) for _ in range(self.count)]

    async def hold(self) -> None:
        while not self.dropped:
            writer = None
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port, local_addr=(ATTACKER, 0)), 10
                )
                if self.opening:
                    writer.write(self.opening)
                self.open += 1
                try:
                    while await reader.read(65536):  # what the server sends (a push's pings) is read and dropped
                        pass
                finally:
                    self.open -= 1
                self.closed_by_server += 1
            except (OSError, asyncio.TimeoutError):
                self.refused += 1
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(REOPEN_SECONDS)

    async def drop(self) -> None:
        # (a task cancelled while its wait_for completes may not see the cancellation:
        # the flag ends its loop all the same)
        self.dropped = True
        for task in self.tasks:
            task.cancel()
        await asyncio.wait(self.tasks, timeout=2 * REOPEN_SECONDS + 10)


async def create_table(port: int) -> str:
    connection = Connection("127.0.0.1", port)
    status, data = await connection.request("POST", "/api/tables", {"game": "pickomino", "players": ["Ana", "Bruno"]})
    assert status == 201, data
    return json.loads(data)["id"]


async def measure(args, port: int, pid: int) -> dict:
    table_id = await create_table(port)
    phases = {name: Phase(name) for name in ("warm-up", "rest", "attack", "after")}
    current = ["warm-up"]
    stop = asyncio.Event()
    phones = [asyncio.create_task(phone(port, lambda: phases[current[0]], stop, args.every)) for _ in range(args.phones)]
    host = f"Host: 127.0.0.1:{port}\r\n"
    padding = "".join(f"X-Padding-{n}: {'p' * 1000}\r\n" for n in range(args.header_kb))
    attackers = [
        Attacker("unfinished", port, f"GET / HTTP/1.1\r\n{host}User-Agent: Mozilla/5.0 (half a hea".encode(), args.unfinished),
        Attacker("idle", port, b"", args.idle),
        Attacker("held", port, f"GET /t/{table_id}/events HTTP/1.1\r\n{host}{padding}\r\n".encode(), args.held),
    ]
    usage: dict[str, dict] = {}
    await asyncio.sleep(2)  # the first requests of each process (not measured)
    current[0] = "rest"
    cpu_before, memory_at_rest = server_usage([pid])

    await asyncio.sleep(args.rest)
    cpu_rest, memory_at_rest = server_usage([pid])
    usage["rest"] = {"cpu_seconds": round(cpu_rest - cpu_before, 2)}
    current[0] = "attack"
    print("attacking", file=sys.stderr, flush=True)
    for attacker in attackers:
        attacker.start()
    samples: dict[str, list[int]] = {attacker.kind: [] for attacker in attackers}
    most_memory = memory_at_rest
    attack_ends = time.monotonic() + args.attack
    while time.monotonic() < attack_ends:
        await asyncio.sleep(1)
        most_memory = max(most_memory, server_usage([pid])[1])
        for attacker in attackers:
            samples[attacker.kind].append(attacker.open)
    cpu_attack, _ = server_usage([pid])
    usage["attack"] = {"cpu_seconds": round(cpu_attack - cpu_rest, 2)}
    current[0] = "after"
    print("dropping", file=sys.stderr, flush=True)
    for attacker in attackers:
        await attacker.drop()
    print("after", file=sys.stderr, flush=True)
    await asyncio.sleep(args.after)
    cpu_after, memory_after = server_usage([pid])
    usage["after"] = {"cpu_seconds": round(cpu_after - cpu_attack, 2)}
    stop.set()
    await asyncio.gather(*phones)
    return {
        "server": args.server,
        "phases": {name: {**phase.figures(), **usage[name]} for name, phase in phases.items() if name in usage},
        "attacker": {
            attacker.kind: {
                "asked": attacker.count,
                "held_open_median": sorted(samples[attacker.kind])[len(samples[attacker.kind]) // 2] if samples[attacker.kind] else 0,
                "held_open_most": max(samples[attacker.kind], default=0),
                "closed_by_server": attacker.closed_by_server,
                "could_not_connect": attacker.refused,
            }
            for attacker in attackers
        },
        "memory_mb": {
            "at_rest": round(memory_at_rest / 2**20, 1),
            "most_during_attack": round(most_memory / 2**20, 1),
            "after": round(memory_after / 2**20, 1),
        },
        "p99_attack_to_rest": round(phases["attack"].figures()["p99_ms"] / max(phases["rest"].figures()["p99_ms"], 0.01), 2),
        "p99_after_to_rest": round(phases["after"].figures()["p99_ms"] / max(phases["rest"].figures()["p99_ms"], 0.01), 2),
        "memory_after_to_rest": round(memory_after / memory_at_rest, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", choices=("push", "threads"), default="push", help="`companion serve --server` (default push)")
    parser.add_argument("--processes", type=int, help="passed on to `companion serve` (default: its own, one per core)")
    parser.add_argument("--phones", type=int, default=10, help="phones asking the bare endpoint (default 10)")
    parser.add_argument("--every", type=float, default=0.1, help="seconds between two requests of a phone (default 0.1)")
    parser.add_argument("--unfinished", type=int, default=1500, help="requests whose headers never end (default 1500)")
    parser.add_argument("--idle", type=int, default=1500, help="connections that never send a byte (default 1500)")
    parser.add_argument("--held", type=int, default=1500, help="held push connections with large headers (default 1500)")
    parser.add_argument("--header-kb", type=int, default=24, help="KB of headers on each held push connection (default 24)")
    parser.add_argument("--rest", type=float, default=15, help="seconds at rest (default 15)")
    parser.add_argument("--attack", type=float, default=40, help="seconds under attack (default 40)")
    parser.add_argument("--after", type=float, default=20, help="seconds after the attack (default 20)")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of connections
    port = free_port()
    database = os.path.join(tempfile.mkdtemp(prefix="companion-abuse-bench-"), "bench.sqlite3")
    options = [f"--server={args.server}"] + ([] if args.processes is None else [f"--processes={args.processes}"])
    server = start_server(port, database, options)
    try:
        time.sleep(1)  # its workers listening too
        print(json.dumps(asyncio.run(measure(args, port, server.pid)), indent=2))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()

"""Scaling benchmark: how many actions a second the companion saves with one server and
with two servers on one PostgreSQL database, and SQLite's one server for comparison.

Each configuration starts its companion servers as users run them (`companion serve`) on
a fresh database. TABLES tables, each with one player entering actions back to back (the
next as soon as the last was answered, through the JSON API, on the table's server:
table t on server t mod N). Reported per configuration: actions saved per second, the
actions' round trip p50/p99, refusals and errors, how busy the machine's cores were and
how much of them the servers and the load generator took (the rest is PostgreSQL's and
the system's), and the ratio of each configuration's throughput to the first one's, all
from one run of the script.

    .venv/bin/python bench/scaling.py --postgresql start --seconds 20

Configurations (--configurations, comma separated): DATABASE:SERVERSxPROCESSES, e.g.
postgresql:1x1 (one server of one process) and postgresql:2x1 (two such servers). The load
generator runs on the same machine as the servers and PostgreSQL: on a machine of two
cores, everything competes for them.

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
from load import REQUEST_TIMEOUT, Connection, PostgreSQL, free_port, next_action, percentile, start_server  # noqa: E402
from push import server_usage  # noqa: E402

DEFAULT_CONFIGURATIONS = "postgresql:1x1,postgresql:2x1,postgresql:1x2,postgresql:2x2,sqlite:1x1,sqlite:1x2"


async def player(port: int, deadline: float, latencies: list[float], outcomes: dict[str, int]) -> None:
    connection = Connection("127.0.0.1", port)
    _, data = await connection.request("POST", "/api/tables", {"game": "pickomino", "players": ["Ana", "Bruno", "Caio"]})
    created = json.loads(data)
    table_id, headers = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
    state = created["table"]
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            status, data = await asyncio.wait_for(
                connection.request("POST", f"/api/tables/{table_id}/actions", next_action(state), headers), REQUEST_TIMEOUT
            )
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
            outcomes[f"error: {type(error).__name__}"] = outcomes.get(f"error: {type(error).__name__}", 0) + 1
            continue
        if status == 200:
            latencies.append((time.perf_counter() - started) * 1000)
            state = json.loads(data)
            if state["status"] == "finished":
                _, data = await connection.request("POST", f"/api/tables/{table_id}/undo", {}, headers)
                state = json.loads(data)
        else:
            outcomes[f"HTTP {status}"] = outcomes.get(f"HTTP {status}", 0) + 1
            _, data = await connection.request("GET", f"/api/tables/{table_id}", None, headers)
            state = json.loads(data)


def machine_times() -> tuple[int, int]:
    """(busy, total) clock ticks of every core since boot (/proc/stat)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(ports: list[int], pids: list[int], tables: int, seconds: float) -> dict:
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    deadline = time.monotonic() + seconds
    busy_before, total_before = machine_times()
    servers_before, _ = server_usage(pids)
    generator_before = own_cpu_seconds()
    started = time.monotonic()
    await asyncio.gather(*(player(ports[number % len(ports)], deadline, latencies, outcomes) for number in range(tables)))
    elapsed = time.monotonic() - started
    busy_after, total_after = machine_times()
    servers_after, _ = server_usage(pids)
    return {
        "actions": len(latencies),
        "actions_per_second": round(len(latencies) / elapsed, 1),
        "action_p50_ms": round(percentile(latencies, 50), 1),
        "action_p99_ms": round(percentile(latencies, 99), 1),
        "refused_or_failed": outcomes,
        # where the machine's cores went: all of it busy means the cores are the limit
        "machine_busy_share": round((busy_after - busy_before) / (total_after - total_before), 2),
        "servers_cores": round((servers_after - servers_before) / elapsed, 2),
        "load_generator_cores": round((own_cpu_seconds() - generator_before) / elapsed, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--configurations", default=DEFAULT_CONFIGURATIONS)
    parser.add_argument(
        "--postgresql", metavar="URL", default="start",
        help='a PostgreSQL server\'s URL (fresh databases are made on it), or "start" (default)',
    )
    args = parser.parse_args()
    postgresql = PostgreSQL(args.postgresql)
    results = []
    try:
        for configuration in args.configurations.split(","):
            kind, shape = configuration.split(":")
            servers, processes = (int(part) for part in shape.split("x"))
            if kind == "postgresql":
                database = postgresql.new_database()
            else:
                database = os.path.join(tempfile.mkdtemp(prefix="companion-scaling-"), "bench.sqlite3")
            ports = [free_port() for _ in range(servers)]
            started = [start_server(port, database, [f"--processes={processes}"]) for port in ports]
            try:
                figures = asyncio.run(measure(ports, [server.pid for server in started], args.tables, args.seconds))
            finally:
                for server in started:
                    server.terminate()
                    server.wait(timeout=30)
            results.append({"configuration": configuration, **figures})
    finally:
        postgresql.stop()
    first = results[0]["actions_per_second"]
    for result in results:
        result["throughput_to_first"] = round(result["actions_per_second"] / first, 2) if first else None
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

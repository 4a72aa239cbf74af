"""What each kind of poll costs on its own, against the bare endpoint: one phone, nothing
else on the server, so no queueing hides the difference (bench/load.py measures them
under load, where half the polls bring a fresh table).

Starts the companion as users run it (`companion serve`, one process, a fresh SQLite file),
sets up one Pickomino table with one action, and times back to back over one keep-alive
connection: the bare endpoint (/healthz), a poll that finds nothing new (204), and a poll
that brings a fresh table whose rendering is shared already (200, what most watching phones
get after an action). Reports the median and p90 of each in microseconds and their ratio
to the bare endpoint, for several rounds.

    .venv/bin/python bench/poll_kinds.py --requests 2000 --rounds 3

A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import free_port, percentile, start_server  # noqa: E402


def timed(connection: http.client.HTTPConnection, path: str, headers: dict, count: int) -> list[float]:
    spent = []
    for _ in range(count):
        started = time.perf_counter()
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        spent.append((time.perf_counter() - started) * 1e6)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="of each kind, per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, os.path.join(tempfile.mkdtemp(prefix="companion-poll-kinds-"), "bench.sqlite3"), ["--processes=1"])
    try:
        setup = http.client.HTTPConnection("127.0.0.1", port)
        setup.request("POST", "/api/tables", json.dumps({"game": "pickomino", "players": ["Ana", "Bruno", "Caio"]}), {"Content-Type": "application/json"})
        created = json.loads(setup.getresponse().read())
        table_id = created["id"]
        setup.request(
            "POST", f"/api/tables/{table_id}/actions", json.dumps({"type": "set_aside", "face": "worm", "count": 2}),
            {"Content-Type": "application/json", "Authorization": f"Bearer {created['host_token']}"},
        )
        version = json.loads(setup.getresponse().read())["version"]
        phone = http.client.HTTPConnection("127.0.0.1", port)
        phone.request("GET", "/j/" + created["seats"][2]["join_url"].rsplit("/j/", 1)[1])  # Caio: watching
        answer = phone.getresponse()
        answer.read()
        headers = {"Cookie": answer.getheader("Set-Cookie").split(";", 1)[0], "HX-Request": "true"}
        kinds = {"bare": "/healthz", "nothing new (204)": f"/t/{table_id}/poll?v={version}", "fresh, shared (200)": f"/t/{table_id}/poll?v=0"}
        timed(phone, kinds["fresh, shared (200)"], headers, 50)  # the shared rendering made, connections warm
        rounds = []
        for _ in range(args.rounds):
            spent = {kind: timed(phone, path, headers, args.requests) for kind, path in kinds.items()}
            bare = statistics.median(spent["bare"])
            rounds.append({
                kind: {"p50_us": round(statistics.median(values)), "p90_us": round(percentile(values, 90)),
                       "p50_to_bare_p50": round(statistics.median(values) / bare, 2)}
                for kind, values in spent.items()
            })
        print(json.dumps(rounds, indent=2))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()

"""`companion serve` as users run it, in its own process, for the tests that need the real
server (the push server, several processes, several servers on one database)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import requests


@contextmanager
def running_companion(
    folder: Path,
    database: str | None = None,
    processes: int = 2,
    server: str = "push",
    log: Path | None = None,
    heartbeat_seconds: int | None = None,
) -> Iterator[str]:
    """`companion serve --server <server>` (the push server by default) with `processes`
    processes on a free loopback port, its data in `folder` and its database `database`
    (default: the SQLite file in `folder`): its address. What it prints goes to `log`.
    `heartbeat_seconds`: how often its held connections speak (a test that waits for a
    silence shortens it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "COMPANION_INSTANCE": str(folder)}
    env.pop("COMPANION_DATABASE", None)
    if heartbeat_seconds is not None:
        env["COMPANION_PUSH_HEARTBEAT_SECONDS"] = str(heartbeat_seconds)
    if database is not None:
        env["COMPANION_DATABASE"] = database
    output = subprocess.DEVNULL if log is None else open(log, "ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--processes",
         str(processes), "--public-url", url, "--server", server],
        env=env, stdout=output, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(url + "/healthz", timeout=2)
                break
            except requests.ConnectionError:
                assert process.poll() is None and time.monotonic() < deadline, "the companion did not start"
                time.sleep(0.1)
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        if log is not None:
            output.close()

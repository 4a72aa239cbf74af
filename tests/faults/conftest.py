"""The companion as users run it (`python -m companion serve` in its own process), so a test
can kill it the hard way and start it again on the same database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class CompanionProcess:
    """`python -m companion serve` on a free loopback port, on `database` (a SQLite file,
    by default the one in `folder`, or a PostgreSQL URL); its log and cookie key in `folder`."""

    def __init__(self, folder: Path, database: str | None = None, heartbeat_seconds: int | None = None):
        self.folder = folder
        self.database = database or str(folder / "companion.sqlite3")
        self.heartbeat = {} if heartbeat_seconds is None else {"COMPANION_PUSH_HEARTBEAT_SECONDS": str(heartbeat_seconds)}
        self.process: subprocess.Popen | None = None
        self.url = ""

    def start(self) -> "CompanionProcess":
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "COMPANION_DATABASE": str(self.database), "COMPANION_INSTANCE": str(self.folder), **self.heartbeat}
        with open(self.folder / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)],
                env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        for _attempt in range(200):
            try:
                if requests.get(self.url + "/healthz", timeout=1).status_code == 204:
                    return self
            except requests.ConnectionError:
                time.sleep(0.05)
            assert self.process.poll() is None, (self.folder / "server.log").read_text()
        pytest.fail("the companion did not start: " + (self.folder / "server.log").read_text())

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, no checkpoint, as when the process is killed."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def companion_process(tmp_path: Path, database: str):
    """Starts companions on one database; whatever is still running is stopped."""
    started: list[CompanionProcess] = []

    def start() -> CompanionProcess:
        server = CompanionProcess(tmp_path, database).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


class SmallVolume:
    """A file system of its own, of a few hundred KB (tmpfs), that a test can fill to the
    last byte: the real ENOSPC of a full SD card or a small partition, not a simulation."""

    def __init__(self, path: Path):
        self.path = path
        self.filler = path / "filler"

    def fill(self) -> None:
        """Take every free byte (the files already there keep theirs)."""
        descriptor = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while os.write(descriptor, b"\0" * 4096):
                pass
        except OSError:  # ENOSPC: full
            pass
        finally:
            os.close(descriptor)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@pytest.fixture
def small_volume(tmp_path: Path):
    """A 2 MB tmpfs mounted for the test (mounting needs root, as the tests run)."""
    mount_point = tmp_path / "small-volume"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", str(mount_point)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small volume here: {mounted.stderr.decode().strip()}")
    try:
        yield SmallVolume(mount_point)
    finally:
        subprocess.run(["umount", "--lazy", str(mount_point)], check=True)

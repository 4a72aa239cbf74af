"""`companion serve` from several processes on one port (companion/processes.py): the
workers share the phones and the database, a worker that dies is replaced, and no worker
outlives the parent, however it is stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from companion.server import processes

pytestmark = [
    pytest.mark.skipif(not processes.supported(), reason="several processes are served on Linux only"),
    pytest.mark.slow,  # each test starts server processes
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def workers_of(parent: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == parent and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float = 10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("waited in vain")


def answers(url: str) -> bool:
    try:
        return requests.get(url + "/healthz", timeout=1).status_code == 204
    except requests.ConnectionError:
        return False


class Served:
    def __init__(self, folder: Path, count: int = 2):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "COMPANION_DATABASE": str(folder / "companion.sqlite3"), "COMPANION_INSTANCE": str(folder)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--processes", str(count)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        wait_for(lambda: answers(self.url))
        self.workers = wait_for(lambda: len(workers_of(self.process.pid)) == count and workers_of(self.process.pid))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def served(tmp_path: Path):
    started: list[Served] = []

    def start(count: int = 2) -> Served:
        started.append(Served(tmp_path, count))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def test_the_workers_share_the_phones_and_every_write_lands_once(served):
    server = served(2)
    created = requests.post(server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    url = f"{server.url}/api/tables/{created['id']}"

    def roll_and_keep(_attempt: int) -> list[int]:
        # each call on its own connection, so the kernel spreads them over the workers
        statuses = []
        with requests.Session() as phone:
            state = phone.get(url).json()
            version = state["version"]
            roll = phone.post(url + "/actions", json={"type": "roll", "dice": ["worm"] * 8, "expected_version": version}, headers=host)
            statuses.append(roll.status_code)
        return statuses

    with ThreadPoolExecutor(8) as pool:
        statuses = [status for result in pool.map(roll_and_keep, range(40)) for status in result]
    # The first roll is taken; every later one is refused (a roll is pending, or the version moved on):
    # one table, one winner, whichever worker answered.
    assert statuses.count(200) == 1
    assert set(statuses) <= {200, 409, 422}
    state = requests.get(url).json()
    assert state["version"] == 1
    assert state["state"]["turn"]["roll"] == ["worm"] * 8


def test_a_worker_that_dies_is_replaced(served):
    server = served(2)
    victim = min(server.workers)
    os.kill(victim, signal.SIGKILL)
    replaced = wait_for(lambda: (lambda now: len(now) == 2 and victim not in now and now)(workers_of(server.process.pid)))
    assert victim not in replaced
    for _ in range(20):  # whichever worker a new connection reaches answers
        assert requests.get(server.url + "/healthz", headers={"Connection": "close"}, timeout=5).status_code == 204
    # the host's console says it once (each companion line was written twice, in two formats)
    server.process.send_signal(signal.SIGINT)
    output = server.process.communicate(timeout=30)[0]
    assert output.count("stopped; starting it again.") == 1, output


def test_killing_the_parent_takes_the_workers_with_it(served):
    server = served(2)
    server.process.kill()  # SIGKILL: the parent cannot pass anything on
    server.process.wait(timeout=10)
    wait_for(lambda: not any(alive(pid) for pid in server.workers))
    wait_for(lambda: not answers(server.url))


def test_stopping_the_parent_stops_every_worker_cleanly(served):
    server = served(2)
    server.process.terminate()
    assert server.process.wait(timeout=10) == 0
    assert not any(alive(pid) for pid in server.workers)
    assert not answers(server.url)


def test_a_port_in_use_is_refused_with_a_sentence(served, tmp_path: Path):
    server = served(2)
    env = {**os.environ, "COMPANION_DATABASE": str(tmp_path / "other.sqlite3"), "COMPANION_INSTANCE": str(tmp_path)}
    second = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(server.port), "--processes", "2"],
        env=env, capture_output=True, text=True, timeout=30,
    )
    assert second.returncode == 1
    assert f"Port {server.port} is in use by another program." in second.stderr
    assert answers(server.url)


def test_a_worker_that_does_not_stop_is_killed_after_a_grace_period_with_a_sentence(served):
    """Issue 40, item 10: the parent waited for every worker for ever, so one stuck in a call
    no signal ends (a FIFO's open) kept SIGTERM from stopping the companion. A stopped
    process (SIGSTOP) stands in for it: it takes no SIGTERM until killed."""
    server = served(2)
    stuck = min(server.workers)
    os.kill(stuck, signal.SIGSTOP)
    server.process.terminate()
    assert server.process.wait(timeout=processes.STOP_GRACE_SECONDS + 30) == 0
    output = server.process.stdout.read()
    assert "did not stop within 10 s of being asked to: it is killed." in output, output
    assert output.rstrip().endswith("Stopped."), output
    assert not alive(stuck)

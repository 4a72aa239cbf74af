"""The HTTP front of both servers (`companion serve`: the push server, and `--server
threads`) against what one hostile device on the Wi-Fi can send: issue 40. Every test
talks to `companion serve` as users run it, over real sockets, byte by byte where the
framing is the point."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest
import requests

from servers import running_companion

SERVERS = ["push", "threads"]


@pytest.fixture(params=SERVERS)
def served(request, tmp_path):
    """`companion serve --server push|threads` on a fresh database: its address."""
    with running_companion(tmp_path, server=request.param) as url:
        yield url


def exchange(url: str, data: bytes, timeout: float = 15) -> tuple[int, bytes, bytes]:
    """Send `data` on a connection of its own and read until the server closes it: the
    first answer's status, head and body (the rest of the stream, for a close after it)."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=timeout) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), head, body


def chunked(body: bytes, pieces: int = 3) -> bytes:
    size = -(-len(body) // pieces)
    parts = [body[start:start + size] for start in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def post_chunked(url: str, path: str, payload: dict, token: str) -> tuple[int, dict]:
    body = json.dumps(payload).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {urlsplit(url).netloc}\r\nAuthorization: Bearer {token}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode()
    status, _, answer = exchange(url, head + chunked(body))
    return status, json.loads(answer or b"null")


W = "worm"


def played_table(url: str) -> dict:
    """Ana takes 25 (versions 1-2), Bruno sets aside 3 × 4 (version 3)."""
    table = requests.post(url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).json()
    for seat, action in [(0, {"type": "set_aside", "face": W, "count": 5}), (0, {"type": "stop"}),
                         (1, {"type": "set_aside", "face": 4, "count": 3})]:
        acted = requests.post(f"{url}/api/tables/{table['id']}/actions", json=action,
                              headers={"Authorization": f"Bearer {table['seats'][seat]['token']}"})
        assert acted.status_code == 200, acted.text
    return table


def log_of(url: str, table: dict) -> list:
    return requests.get(f"{url}/api/tables/{table['id']}/log").json()["events"]


# --- item 4: chunked bodies are read, never acted on as {} ----------------------------------------
def test_a_chunked_action_is_read_whole_and_taken(served):
    table = played_table(served)
    status, answer = post_chunked(served, f"/api/tables/{table['id']}/actions",
                                  {"type": "set_aside", "face": W, "count": 2, "expected_version": 3},
                                  table["seats"][1]["token"])
    assert status == 200, answer
    assert answer["version"] == 4


def test_a_chunked_stale_undo_is_refused_and_undoes_nothing(served):
    """It undid the last action, its staleness check skipped: the body was read as {}."""
    table = played_table(served)
    before = log_of(served, table)
    status, answer = post_chunked(served, f"/api/tables/{table['id']}/undo", {"from": 1, "expected_version": 0},
                                  table["host_token"])
    assert status == 409, answer
    assert log_of(served, table) == before


def test_a_chunked_skip_skips_rather_than_redoes(served):
    table = played_table(served)
    undone = requests.post(f"{served}/api/tables/{table['id']}/undo", json={},
                           headers={"Authorization": f"Bearer {table['host_token']}"})
    assert undone.status_code == 200
    status, answer = post_chunked(served, f"/api/tables/{table['id']}/redo", {"skip": True}, table["host_token"])
    assert status == 200, answer
    state = requests.get(f"{served}/api/tables/{table['id']}").json()
    assert state["state"]["turn"]["kept"] == []  # Bruno's 3 × 4 left out, not redone

"""The companion as users run it (`python -m companion serve`, the push server, its own
process, loopback only), looked at from outside:

- its output (stdout and stderr, the only log it writes) never holds a token, even when
  the join link /j/<token> itself fails with a server error;
- a body over 64 KB is refused with 413 before any work is done, on pages and API alike,
  sent with a Content-Length or chunked without one: before the table is looked up,
  before the CSRF token is checked, and nothing changes. A body declared far larger than
  any phone sends is refused by the server without waiting for it to arrive;
- a chunked body that cannot be read (a garbled chunk, a phone gone mid-body) is a 400
  with its sentence, changes nothing, and writes no traceback.
"""

from __future__ import annotations

import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from companion.web.app import MAX_REQUEST_BYTES, MAX_SERVER_BODY_BYTES

from .snapshot import database_snapshot

HTTP_TIMEOUT = 10
OVER_THE_LIMIT = MAX_REQUEST_BYTES + 6 * 1024


class Served:
    """`python -m companion serve` on a free loopback port, its output in a file."""

    def __init__(self, folder: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = str(folder / "companion.sqlite3")
        self.output = folder / "output.log"
        env = {
            **os.environ,
            "COMPANION_DATABASE": self.database,
            "COMPANION_INSTANCE": str(folder),
            "COMPANION_PUBLIC_URL": self.url,
        }
        with open(self.output, "wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        for _attempt in range(400):
            try:
                if requests.get(self.url + "/healthz", timeout=1).status_code == 204:
                    return
            except requests.ConnectionError:
                assert self.process.poll() is None, self.output.read_text()
                time.sleep(0.05)
        pytest.fail("the companion did not start: " + self.output.read_text())

    def stop(self) -> str:
        self.process.terminate()
        self.process.wait(timeout=10)
        return self.output.read_text()

    def create(self, players=("Ana", "Bruno")) -> dict:
        response = requests.post(self.url + "/api/tables", json={"game": "pickomino", "players": list(players)})
        assert response.status_code == 201
        return response.json()

    def snapshot(self):
        return database_snapshot(self.database)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("served"))
    yield server
    if server.process.poll() is None:
        server.stop()


def raw_exchange(served: Served, head: bytes, body_parts: list[bytes] = ()) -> bytes:
    """Sends a request byte for byte and returns what the server answers before closing."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=HTTP_TIMEOUT) as connection:
        connection.sendall(head)
        for part in body_parts:
            try:
                connection.sendall(part)
            except (BrokenPipeError, ConnectionResetError):
                break  # the server has refused already and stopped reading
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


# --- 413 before any work -----------------------------------------------------------------------
def test_an_oversized_api_body_is_refused_with_413_in_json_and_nothing_is_created(served):
    before = served.snapshot()
    response = requests.post(
        served.url + "/api/tables",
        json={"game": "pickomino", "players": ["Ana", "Bruno"], "pad": "x" * OVER_THE_LIMIT},
        timeout=HTTP_TIMEOUT,
    )
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert served.snapshot() == before


def test_an_oversized_action_is_refused_before_the_table_is_looked_up(served):
    """An unknown table would answer 404: the size is checked first."""
    body = {"type": "stop", "pad": "x" * OVER_THE_LIMIT}
    response = requests.post(served.url + "/api/tables/ZZZZZZ/actions", json=body, timeout=HTTP_TIMEOUT)
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


def test_an_oversized_action_at_a_real_table_changes_nothing(served):
    table = served.create()
    before = served.snapshot()
    response = requests.post(
        f"{served.url}/api/tables/{table['id']}/actions",
        json={"type": "roll", "dice": [1, 2, 3, 4, 5, "worm", "worm", "worm"], "pad": "x" * OVER_THE_LIMIT},
        headers={"Authorization": f"Bearer {table['host_token']}"},
        timeout=HTTP_TIMEOUT,
    )
    assert response.status_code == 413
    assert served.snapshot() == before


def test_an_oversized_form_is_refused_with_413_before_its_csrf_token_is_checked(served):
    """A form without a CSRF token would answer 400: the size is checked first."""
    before = served.snapshot()
    response = requests.post(
        served.url + "/tables", data={"game": "pickomino", "player": ["Ana", "Bruno"], "pad": "x" * OVER_THE_LIMIT},
        timeout=HTTP_TIMEOUT,
    )
    assert response.status_code == 413
    assert response.headers["Content-Type"].startswith("text/html")
    assert 'role="alert"' in response.text
    assert served.snapshot() == before


def test_an_oversized_tap_at_a_table_page_is_refused_and_changes_nothing(served):
    table = served.create()
    before = served.snapshot()
    response = requests.post(
        f"{served.url}/t/{table['id']}/act", data={"action": '{"type": "stop"}', "pad": "x" * OVER_THE_LIMIT},
        headers={"HX-Request": "true"}, timeout=HTTP_TIMEOUT,
    )
    assert response.status_code == 413
    assert served.snapshot() == before


def test_a_chunked_body_without_content_length_over_the_limit_is_refused(served):
    table = served.create()
    before = served.snapshot()
    pad = b"x" * OVER_THE_LIMIT

    def chunks():
        body = b'{"type": "stop", "pad": "' + pad + b'"}'
        for start in range(0, len(body), 8192):
            yield body[start : start + 8192]

    response = requests.post(
        f"{served.url}/api/tables/{table['id']}/actions",
        data=chunks(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {table['host_token']}"},
        timeout=HTTP_TIMEOUT,
    )
    assert response.request.headers.get("Transfer-Encoding") == "chunked"
    assert "Content-Length" not in response.request.headers
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert served.snapshot() == before


def test_a_body_declared_far_too_large_is_refused_without_waiting_for_it(served):
    """Nothing of the body is sent: the server answers from the headers alone."""
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (50 * 1024 * 1024)
    )
    answer = raw_exchange(served, head)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_a_refused_body_left_unread_is_answered_with_connection_close(served):
    """The server closes the connection rather than read the rest: its answer says so, so
    the phone opens a new one for its next request instead of finding this one reset."""
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % OVER_THE_LIMIT  # kept alive: the server must close it
    )
    answer = raw_exchange(served, head, [b"x" * 1024])
    headers = answer.partition(b"\r\n\r\n")[0]
    assert headers.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"\r\nConnection: close\r\n" in headers, headers
    assert requests.get(served.url + "/healthz", timeout=HTTP_TIMEOUT).status_code == 204


def test_a_chunked_body_far_too_large_is_cut_off_by_the_server(served):
    before = served.snapshot()
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (64 * 1024, b"x" * 64 * 1024)
    answer = raw_exchange(served, head, [chunk] * (2 * MAX_SERVER_BODY_BYTES // (64 * 1024)))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert served.snapshot() == before


@pytest.mark.parametrize(
    "path, kind, chunks",
    [
        ("/api/tables", "application/json", b"zz\r\n{}\r\n0\r\n\r\n"),  # a size that is not hex
        ("/api/tables", "application/json", b"FFFFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n"),  # too large to be one
        ("/tables", "application/x-www-form-urlencoded", b"zz\r\n\r\n0\r\n\r\n"),
        ("/healthz", "text/plain", b"zz\r\n"),
    ],
)
def test_a_garbled_chunked_body_is_a_bad_request_with_its_sentence(served, path, kind, chunks):
    before = served.snapshot()
    method = b"GET" if path == "/healthz" else b"POST"
    head = (
        method + b" " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + kind.encode()
        + b"\r\nTransfer-Encoding: chunked\r\n\r\n"  # kept alive: the server must close it
    )
    answer = raw_exchange(served, head, [chunks])
    assert answer.startswith(b"HTTP/1.1 400"), answer[:300]
    assert b"\r\nConnection: close\r\n" in answer.partition(b"\r\n\r\n")[0], answer[:300]
    if path.startswith("/api/"):
        assert b'{"code":"bad_request","error":"The request could not be understood."}' in answer, answer
    elif method == b"POST":
        assert b"That request could not be understood" in answer, answer
    assert served.snapshot() == before
    assert "Traceback" not in served.output.read_text()


def test_a_phone_gone_in_the_middle_of_a_chunked_body_leaves_no_traceback(served):
    before = served.snapshot()
    with socket.create_connection(("127.0.0.1", served.port), timeout=HTTP_TIMEOUT) as connection:
        connection.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n10\r\n{\"ga"
        )
    assert requests.get(served.url + "/healthz", timeout=HTTP_TIMEOUT).status_code == 204  # it has read the end
    time.sleep(0.2)
    assert served.snapshot() == before
    assert "Traceback" not in served.output.read_text()


# --- logs ---------------------------------------------------------------------------------------
def test_the_servers_output_never_holds_a_token(tmp_path):
    """Everything a table does, a failing join link included, then the output is read."""
    served = Served(tmp_path)
    table = served.create(("Ana", "Bruno", "Caio"))
    tokens = [table["host_token"], *(seat["token"] for seat in table["seats"])]
    host = {"Authorization": f"Bearer {table['host_token']}"}
    with requests.Session() as phone:
        assert phone.get(f"{served.url}/j/{table['seats'][0]['token']}", timeout=HTTP_TIMEOUT).status_code == 200
        phone.get(f"{served.url}/t/{table['id']}/poll?v=0", timeout=HTTP_TIMEOUT)
    requests.post(
        f"{served.url}/api/tables/{table['id']}/actions",
        json={"type": "roll", "dice": [1, 2, 3, 4, 5, "worm", "worm", "worm"]},
        headers=host, timeout=HTTP_TIMEOUT,
    )
    requests.get(f"{served.url}/api/tables/{table['id']}/log", headers=host, timeout=HTTP_TIMEOUT)
    assert requests.get(f"{served.url}/j/not-a-token", timeout=HTTP_TIMEOUT).status_code == 404
    # The join link fails on the server (the seats are gone from the database): the
    # error is logged, with its path, and the token must not be in it.
    database = sqlite3.connect(served.database)
    database.execute("ALTER TABLE seats RENAME TO seats_away")
    database.commit()
    try:
        failed = requests.get(f"{served.url}/j/{table['seats'][1]['token']}", timeout=HTTP_TIMEOUT)
    finally:
        database.execute("ALTER TABLE seats_away RENAME TO seats")
        database.commit()
        database.close()
    assert failed.status_code >= 500
    output = served.stop()
    assert "/j/[token]" in output, "the failure was logged with its path: " + output[-2000:]
    for token in tokens:
        assert token not in output


@pytest.mark.parametrize(
    "logger, line",
    [
        ("waitress", "Exception while serving /j/{token}"),
        ("waitress", "Client disconnected while serving /j/{token}?from=qr"),
        ("werkzeug", '127.0.0.1 - - [21/Nov/2025 20:00:00] "GET /j/{token} HTTP/1.1" 303 -'),
    ],
)
def test_the_servers_own_lines_with_a_join_path_lose_the_token(app, caplog, logger, line):
    """What waitress and the development server write about a request, with its path."""
    token = "Zq9_x-Tok3n"
    with caplog.at_level(logging.INFO):
        logging.getLogger(logger).error(line.format(token=token))
    assert token not in caplog.text
    assert "/j/[token]" in caplog.text

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

from companion.server import front
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
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except ConnectionResetError:  # waitress closes on a refusal with the request unread
            assert answer, "reset before any answer"
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
def test_a_chunked_body_over_the_limit_is_refused(served):
    table = played_table(served)
    status, _answer = post_chunked(served, f"/api/tables/{table['id']}/actions",
                                   {"type": "stop", "padding": "x" * 100_000}, table["seats"][1]["token"])
    assert status == 413
    assert requests.get(f"{served}/api/tables/{table['id']}").json()["version"] == 3


# --- item 1: a request whose head never ended is never run ----------------------------------------
def test_a_request_whose_head_never_ended_is_never_run(served):
    """The push server read the end of the stream as the end of the headers and rendered the
    whole home page (180 KB, 50-90 ms of CPU) for a client that sent half a header and left:
    1,500 of those at once stalled every phone for over a minute."""
    address = urlsplit(served)
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: Mozilla/5.0 (half a hea")
        connection.shutdown(socket.SHUT_WR)  # the rest never comes
        answer = connection.recv(65536)
    assert answer == b""  # closed without a word: nothing was run


# --- item 2: header, body and idle limits; only a held push connection stays -----------------------
def held_open(url: str, data: bytes) -> socket.socket:
    address = urlsplit(url)
    connection = socket.create_connection((address.hostname, address.port), timeout=120)
    if data:
        connection.sendall(data)
    return connection


def closed_by_the_server(connection: socket.socket) -> bool:
    """Reads what the server sends until it closes the connection (True), or until a
    150 s of silence (False): no connection here may last that long."""
    try:
        connection.settimeout(150)
        while connection.recv(65536):
            pass
        return True
    except TimeoutError:
        return False
    finally:
        connection.close()


@pytest.mark.slow  # waits out the front's real time limits (45-60 s): --all and CI
def test_a_connection_that_sends_nothing_half_a_request_or_nothing_more_is_closed(served):
    """They all stayed open for ever (still open after 207 s), each a greenlet or a thread's
    socket, and one client could hold thousands."""
    table = played_table(served)
    connections = {
        "nothing": held_open(served, b""),
        "half a header": held_open(served, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "),
        "half a body": held_open(
            served,
            f"POST /api/tables/{table['id']}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{\"type\": ".encode(),
        ),
        "nothing after an answer": held_open(served, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    }
    still_open = [kind for kind, connection in connections.items() if not closed_by_the_server(connection)]
    assert still_open == []


@pytest.mark.slow  # waits out the front's real time limits (45-60 s): --all and CI
def test_a_held_push_connection_outlives_the_time_limits_of_a_request(tmp_path):
    """The push server's table page holds its connection (pinged every 15 s): it is an
    answer on its way, which no limit of a request's head or body cuts (the idle limit is
    for a connection between requests, which a held one never is)."""
    with running_companion(tmp_path) as url:
        table = played_table(url)
        with requests.get(f"{url}/t/{table['id']}/events?v=3", stream=True, timeout=(5, 60)) as held:
            lines = held.iter_lines(decode_unicode=True)
            pings = 0
            while pings < 3:  # 45 s: past the head's limit and the body's
                if next(lines) == "event: ping":
                    pings += 1
            assert max(front.HEAD_SECONDS, front.BODY_SECONDS) < 45


# --- item 3: header limits -------------------------------------------------------------------------
def test_a_header_over_8_kb_is_refused_by_the_push_server(tmp_path):
    with running_companion(tmp_path) as url:
        status, head, body = exchange(url, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9_000 + b"\r\n\r\n")
        assert status == 400 and b"could not be understood" in body
        status, _, _ = exchange(url, b"GET /" + b"a" * 9_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status == 414
        many = b"".join(b"X-Field-%d: f\r\n" % number for number in range(101))
        status, _, body = exchange(url, b"GET / HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
        assert status == 400 and b"could not be understood" in body


def test_headers_over_32_kb_in_all_are_refused(served):
    """100 push connections with 600 KB of headers each grew the server by 130 MB for good."""
    fields = b"".join(b"X-Padding-%d: %s\r\n" % (number, b"p" * 7_000) for number in range(6))  # 42 KB, each under 8 KB
    status, _, _ = exchange(served, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + fields + b"Connection: close\r\n\r\n")
    assert status in (400, 431)


# --- item 5: ambiguous framing ----------------------------------------------------------------------
AMBIGUOUS = {
    "two different lengths": b"Content-Length: 25\r\nContent-Length: 2\r\n",
    "a length with a sign": b"Content-Length: +25\r\n",
}


@pytest.mark.parametrize("framing", AMBIGUOUS.values(), ids=AMBIGUOUS.keys())
def test_an_ambiguous_length_is_refused_and_acts_on_nothing(served, framing):
    """Two different Content-Length, or +N, were accepted and the action ran; behind a proxy
    that reads the other one, a request can be smuggled (RFC 9112)."""
    table = played_table(served)
    body = b'{"type": "stop"}' + b" " * 9  # 25 bytes
    request = (
        f"POST /api/tables/{table['id']}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {table['seats'][1]['token']}\r\nContent-Type: application/json\r\n"
    ).encode() + framing + b"Connection: close\r\n\r\n" + body
    status, _, _ = exchange(served, request)
    assert status in (400, 501)
    assert requests.get(f"{served}/api/tables/{table['id']}").json()["version"] == 3


@pytest.mark.parametrize("coding", [b"chunked", b"gzip, chunked", b"identity"])
def test_the_push_server_refuses_a_length_beside_a_transfer_coding_and_any_coding_but_chunked(tmp_path, coding):
    """RFC 9112 lets a server refuse both together rather than pick one (waitress reads them
    as chunked and closes the connection after); and a coding it cannot undo (501)."""
    with running_companion(tmp_path) as url:
        table = played_table(url)
        request = (
            f"POST /api/tables/{table['id']}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {table['seats'][1]['token']}\r\nContent-Type: application/json\r\n"
        ).encode() + b"Content-Length: 25\r\nTransfer-Encoding: " + coding + b"\r\nConnection: close\r\n\r\n" + chunked(b'{"type": "stop"}')
        status, _, _ = exchange(url, request)
        assert status in (400, 501)
        assert requests.get(f"{url}/api/tables/{table['id']}").json()["version"] == 3


# --- item 6: one log line per bad request, repeats collapsed ----------------------------------------
def test_garbled_requests_write_a_line_each_at_most_and_repeats_are_counted(tmp_path):
    """40 garbled requests wrote 800 lines of tracebacks."""
    log = tmp_path / "server.log"
    with running_companion(tmp_path, log=log) as url:
        for number in range(40):
            exchange(url, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9_000 + b"\r\n\r\n")
            exchange(url, b"HELLO THERE %d\r\n\r\n" % number)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert not any("Traceback" in line for line in lines), lines
    refusals = [line for line in lines if "Refused a request" in line]
    assert 1 <= len(refusals) <= 4, lines  # one per kind of refusal, and its count once a minute is over


# --- item 7: idle connections do not starve the phones ----------------------------------------------
def test_one_client_holding_thousands_of_idle_connections_locks_no_phone_out(served):
    """With --server threads, 2,100 connections that never sent a byte locked every phone
    out: waitress' limit of 1,000 connections a process counts them all. One client's
    waiting connections are capped (its oldest closed), whichever server."""
    address = urlsplit(served)
    idle = []
    try:
        for _ in range(2_100):
            connection = socket.socket()
            connection.bind(("127.0.0.2", 0))  # one client: an address of its own
            connection.settimeout(10)
            connection.connect((address.hostname, address.port))
            idle.append(connection)
        for _ in range(20):  # the phones: new connections, as a phone opening the page
            assert requests.get(served + "/healthz", headers={"Connection": "close"}, timeout=10).status_code == 204
    finally:
        for connection in idle:
            connection.close()


# --- item 8: Host ------------------------------------------------------------------------------
def test_a_request_addressed_to_another_name_is_refused_with_a_sentence(served):
    """Any Host was served, and join links were built from it: a DNS-rebinding page (its own
    name made to point at the companion) could reach the API from a player's phone."""
    table = played_table(served)
    for path in ("/", f"/api/tables/{table['id']}", f"/t/{table['id']}"):
        refused = requests.get(served + path, headers={"Host": "rebinding.example"})
        assert refused.status_code == 400, path
        assert "does not answer at this address" in refused.text, path
    created = requests.post(served + "/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]},
                            headers={"Host": "rebinding.example:5000"})
    assert created.status_code == 400 and created.json()["code"] == "untrusted_host"
    for host in ("127.0.0.1", "localhost", f"127.0.0.1:{urlsplit(served).port}"):  # where it listens
        assert requests.get(served + "/", headers={"Host": host}).status_code == 200, host


def test_names_given_in_companion_trusted_hosts_are_served(tmp_path, monkeypatch):
    """Behind a reverse proxy or on a name of the host's own: COMPANION_TRUSTED_HOSTS."""
    monkeypatch.setenv("COMPANION_TRUSTED_HOSTS", "companion.example, .club.example")
    with running_companion(tmp_path) as url:
        for host in ("companion.example", "tables.club.example", "club.example"):
            assert requests.get(url + "/", headers={"Host": host}).status_code == 200, host
        assert requests.get(url + "/", headers={"Host": "other.example"}).status_code == 400

"""Requests garbled below the level of any one field: a Host header no address can be made
for, a form whose %-escapes are not UTF-8. Each gets a clear sentence, never a 5xx, and
changes nothing."""

from __future__ import annotations

import html
import re
import socket
import time
from urllib.parse import urlsplit

import pytest
import requests

from played import create, csrf_of, joined

MALFORMED_HOSTS = ["a..b", "a" * 64, "a..b:5000"]


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
@pytest.mark.parametrize("path", ["/", "/healthz", "/t/ZZZZZZ", "/players", "/nothing-here", "/static/app.css"])
def test_a_malformed_host_gets_a_plain_sentence_not_a_page_that_needs_addresses(client, host, path):
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "That request could not be understood. Reload the page and try again."


def test_a_malformed_host_gets_its_sentence_in_the_phones_language(client):
    response = client.post("/tables", headers={"Host": "a..b", "Accept-Language": "pt"}, data={"game": "lobo"})
    assert response.status_code == 400
    assert response.get_data(as_text=True) == "Não foi possível compreender o pedido. Recarregue a página e tente de novo."


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
def test_a_malformed_host_gets_json_under_api(client, host):
    for response in (
        client.get("/api/tables/ZZZZZZ", headers={"Host": host}),
        client.post("/api/tables", headers={"Host": host}, json={"game": "lobo", "players": ["Ana", "Bruno"]}),
    ):
        assert response.status_code == 400
        assert response.get_json() == {"code": "bad_request", "error": "The request could not be understood."}


def test_a_malformed_host_over_http_is_a_400_with_a_sentence(live_server):
    for path in ("/", "/healthz", "/api/tables/ZZZZZZ"):
        response = requests.get(live_server.url + path, headers={"Host": "a..b"})
        assert response.status_code == 400, path
        assert "could not be understood" in response.text, path


# --- forms whose text is not UTF-8 ----------------------------------------------------------
def alert(response) -> str:
    return html.unescape(re.search(r'role="alert">([^<]+)<', response.get_data(as_text=True)).group(1).strip())


def table_count(client) -> int:
    return client.get("/tables").get_data(as_text=True).count('href="/t/')


@pytest.mark.parametrize(
    "broken",
    ["player=%ED%A0%80", "player=%FF%FE", "player=%C0%80", "player=Ana%E9", "%FF=Ana", b"player=Ana\xff"],
)
def test_a_start_form_whose_text_is_not_utf8_is_refused_with_a_sentence_and_creates_nothing(client, broken):
    csrf = csrf_of(client)
    before = table_count(client)
    body = f"csrf_token={csrf}&game=lobo&player=Bruno&".encode() + (broken if isinstance(broken, bytes) else broken.encode())
    response = client.post("/tables", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert alert(response) == "The request holds text that is not valid Unicode."
    assert table_count(client) == before


@pytest.mark.parametrize("typed, stored", [("Ana%25", "Ana%"), ("100%25+sure", "100% sure"), ("%2541", "%41"), ("%E2%82%AC", "€")])
def test_a_percent_sign_typed_in_a_name_is_kept_as_typed(client, typed, stored):
    body = f"csrf_token={csrf_of(client)}&game=lobo&player=Bruno&player={typed}"
    response = client.post("/tables", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 303
    table_id = response.headers["Location"].split("/")[2]
    assert [player["name"] for player in client.get(f"/api/tables/{table_id}").get_json()["players"]] == ["Bruno", stored]


def test_a_tap_whose_text_is_not_utf8_is_refused_with_a_sentence_and_changes_nothing(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    ana = joined(app, table.seats[0])
    before = client.get(f"/api/tables/{table.id}/log").get_json()
    body = f"csrf_token={csrf_of(ana)}&action=%7B%22type%22%3A%22choose_color%22%2C%22color%22%3A%22%ED%A0%80%22%7D"
    response = ana.post(f"/t/{table.id}/act", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert alert(response) == "The request holds text that is not valid Unicode."
    assert client.get(f"/api/tables/{table.id}/log").get_json() == before


# --- requests the push server cannot read at all ---------------------------------------------
UNREADABLE = {
    "a 100 KB address": (b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"414"),
    "a 100 KB header": (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 100_000 + b"\r\n\r\n", b"400"),
    "a negative length": (b"POST /tables HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nhello", b"400"),
    "no HTTP version": (b"HELLO THERE\r\n\r\n", b"400"),
    "an HTTP version that is none": (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", b"400"),
}


@pytest.mark.parametrize("request_bytes, status", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_a_request_the_push_server_cannot_read_gets_the_sentence_and_changes_nothing(push_server, request_bytes, status):
    """gevent answered these with an empty 400 or 414, and reset the connection while the
    rest of the request was unread, which can throw the answer away."""
    tables_before = requests.get(push_server + "/tables").text.count('href="/t/')
    host, port = urlsplit(push_server).hostname, urlsplit(push_server).port
    with socket.create_connection((host, port), timeout=10) as phone:
        phone.sendall(request_bytes)
        answer = b""
        while chunk := phone.recv(65536):  # read to the end: no reset
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 " + status + b" ")
    assert b"Content-Type: text/plain; charset=utf-8" in head and b"Connection: close" in head
    assert body == b"That request could not be understood. Reload the page and try again."
    assert requests.get(push_server + "/tables").text.count('href="/t/') == tables_before
    assert requests.get(push_server + "/healthz").status_code == 204  # still serving


def test_the_push_server_reads_out_an_unreadable_request_for_a_second_at_most(push_server):
    """Review: the second the server gives the rest of an unreadable request was a second
    per read, so a client trickling a byte every half second held it until a megabyte had
    come. It closes within about a second however the rest trickles in."""
    host, port = urlsplit(push_server).hostname, urlsplit(push_server).port
    with socket.create_connection((host, port), timeout=10) as phone:
        phone.sendall(b"HELLO THERE\r\n\r\n")
        started = time.monotonic()
        answer = b""
        while chunk := phone.recv(65536):  # the answer, then the server's end of writing
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 400 ")
        closed_after = None
        while time.monotonic() - started < 6:  # trickling on: refused once the server closed
            try:
                phone.sendall(b"x")
            except OSError:
                closed_after = time.monotonic() - started
                break
            time.sleep(0.2)
        assert closed_after is not None and closed_after < 3, "the server kept reading"

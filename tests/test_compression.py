"""Gzip when the phone accepts it, the same bytes when it does not, and a year of caching
for static files whose name carries their version (companion/web/compression.py); the
held connection of a table page gzipped, each event decodable as it comes (web/push.py)."""

from __future__ import annotations

import gzip
import json
import socket
import zlib

import requests

from companion.paths import PROJECT_ROOT
from companion.web import compression
from companion.web.push import server_sent

GZIP = {"Accept-Encoding": "gzip, deflate, br"}
HTMX = "/static/htmx-2.0.11.min.js"


def test_htmx_is_sent_gzipped_to_a_phone_that_accepts_it_and_decompresses_to_the_file(client):
    response = client.get(HTMX, headers=GZIP)
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert int(response.headers["Content-Length"]) == len(response.data) < 20_000
    assert gzip.decompress(response.data) == (PROJECT_ROOT / "static/htmx-2.0.11.min.js").read_bytes()


def test_a_client_without_gzip_gets_the_file_as_it_is(client):
    for headers in ({}, {"Accept-Encoding": "gzip;q=0, identity"}):
        response = client.get(HTMX, headers=headers)
        assert "Content-Encoding" not in response.headers
        assert response.data == (PROJECT_ROOT / "static/htmx-2.0.11.min.js").read_bytes()


def test_versioned_static_files_are_cached_for_a_year_and_others_revalidated(client):
    htmx = client.get(HTMX, headers=GZIP).headers["Cache-Control"]
    assert "max-age=31536000" in htmx and "immutable" in htmx and "no-cache" not in htmx
    styles = client.get("/static/app.css", headers=GZIP)
    assert styles.headers["Content-Encoding"] == "gzip"
    assert "max-age=31536000" not in styles.headers.get("Cache-Control", "")  # app.css changes under its name


def test_revalidating_a_gzipped_static_file_answers_304(client):
    first = client.get("/static/app.css", headers=GZIP)
    assert first.headers["ETag"].startswith('W/"')  # the file's ETag, weak: another encoding of it
    again = client.get("/static/app.css", headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_pages_and_json_are_gzipped_and_tiny_answers_left_alone(client):
    page = client.get("/", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(page.data)
    created = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, headers=GZIP)
    assert created.status_code == 201 and created.headers["Content-Encoding"] == "gzip"
    table = json.loads(gzip.decompress(created.data))["table"]  # the test client does not decompress
    poll = client.get(f"/t/{table['id']}/poll?v={table['version']}", headers=GZIP)
    assert poll.status_code == 204 and "Content-Encoding" not in poll.headers


# --- the held connection of a table page (web/push.py) ------------------------------------
class RawStream:
    """A phone's held connection read as it comes over the wire: the HTTP chunks the server
    sent (each what the companion handed it at once), not yet decoded."""

    def __init__(self, url: str, path: str, encoding: str, cookie: str = ""):
        host, port = url.removeprefix("http://").split(":")
        self.socket = socket.create_connection((host, int(port)), timeout=20)
        headers = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\nAccept-Encoding: {encoding}\r\n"
        self.socket.sendall((headers + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n").encode())
        self.file = self.socket.makefile("rb")
        assert b" 200 " in self.file.readline()
        self.headers = {}
        while (line := self.file.readline().decode().strip()):
            name, _, value = line.partition(":")
            self.headers[name.lower()] = value.strip()
        assert self.headers["transfer-encoding"] == "chunked"

    def next_chunk(self) -> bytes:
        size = int(self.file.readline().split(b";")[0], 16)
        chunk = self.file.read(size)
        assert self.file.readline() == b"\r\n"
        return chunk  # b"": the last chunk, the stream's end

    def close(self) -> None:
        self.file.close()
        self.socket.close()


def new_pickomino(url: str) -> dict:
    return requests.post(url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno", "Caio"]}, timeout=10).json()


def api_act(url: str, table: dict, action: dict) -> None:
    answer = requests.post(f"{url}/api/tables/{table['id']}/actions", json=action, headers={"Authorization": f"Bearer {table['host_token']}"}, timeout=10)
    assert answer.status_code == 200, answer.text


def test_a_held_connection_is_gzipped_for_a_phone_that_accepts_it_each_event_decodable_as_it_comes(push_server):
    """Issue 44: every pushed table went uncompressed (Twenty One 37 KB a tap) while the
    pages were gzipped. The stream is one gzip stream, each event flushed by itself: the
    phone decodes the hello, then the table, each from the chunk that brought it."""
    table = new_pickomino(push_server)
    stream = RawStream(push_server, f"/t/{table['id']}/events?v=0", "gzip, deflate, br")
    assert stream.headers["content-encoding"] == "gzip" and "Accept-Encoding" in stream.headers["vary"]
    decoder = zlib.decompressobj(wbits=31)
    assert decoder.decompress(stream.next_chunk()) == b"retry: 2000\n\nevent: hello\ndata: \n\n"
    api_act(push_server, table, {"type": "set_aside", "face": "worm", "count": 2})
    pushed = stream.next_chunk()
    event = decoder.decompress(pushed).decode()
    assert event.startswith("event: table\nid: 1\ndata: ") and event.endswith("\n\n")
    assert 'data-version="1"' in event and "set aside 2 × worm" in event
    # about what the same table weighs gzipped, a fraction of it as text
    assert len(pushed) <= 1.5 * len(gzip.compress(event.encode()))
    assert len(pushed) * 4 < len(event.encode())
    stream.close()


def test_a_phone_that_takes_no_gzip_is_sent_the_stream_as_text(push_server):
    table = new_pickomino(push_server)
    for encoding in ("identity", "gzip;q=0, deflate"):
        stream = RawStream(push_server, f"/t/{table['id']}/events?v=0", encoding)
        assert "content-encoding" not in stream.headers
        assert stream.next_chunk() == b"retry: 2000\n\nevent: hello\ndata: \n\n"
        stream.close()


def test_a_held_connection_that_ends_ends_its_gzip_stream_whole(push_server):
    """A stream the companion ends (here: the phone is led to its rematch seat) closes its
    gzip stream with its trailer, the checksum and length of everything sent."""
    table = new_pickomino(push_server)
    for tile in range(21, 37):  # the whole game, entered by the host
        worms, rest = divmod(tile, 5)
        api_act(push_server, table, {"type": "set_aside", "face": "worm", "count": worms})
        if rest:
            api_act(push_server, table, {"type": "set_aside", "face": rest, "count": 1})
        if worms + bool(rest) < 8:
            api_act(push_server, table, {"type": "stop"})
    ana = requests.Session()
    ana.get(table["seats"][0]["join_url"], timeout=10)
    cookie = "; ".join(f"{name}={value}" for name, value in ana.cookies.items())
    stream = RawStream(push_server, f"/t/{table['id']}/events?v=-1", "gzip", cookie)
    sent = [stream.next_chunk(), stream.next_chunk()]  # the hello, the finished table
    bruno = requests.Session()
    bruno.get(table["seats"][1]["join_url"], timeout=10)
    csrf = bruno.get(f"{push_server}/t/{table['id']}", timeout=10).text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    assert bruno.post(f"{push_server}/t/{table['id']}/rematch", data={"csrf_token": csrf}, timeout=10).status_code == 200
    while sent[-1]:
        sent.append(stream.next_chunk())
    stream.close()
    events = gzip.decompress(b"".join(sent)).decode()  # checks the trailer's CRC-32 and length
    assert events.startswith("retry: 2000\n\nevent: hello\n") and f"event: redirect\ndata: /t/{table['id']}/rematch\n\n" in events


def test_an_event_sent_to_many_phones_is_deflated_once():
    """The watching phones of a table are sent one rendering of each version: it is
    deflated once, and the same bytes go to each phone's stream."""
    event = server_sent("table", "<div id='table'>" + "<p>Ana set aside 2 × worm</p>" * 40 + "</div>", 7)
    streams = [compression.gzipped_events(iter([server_sent("hello"), event])) for _ in range(5)]
    before = compression.deflated_event.cache_info()
    pieces = [(next(stream), next(stream)) for stream in streams]
    after = compression.deflated_event.cache_info()
    assert after.misses - before.misses <= 2 and after.hits - before.hits >= 8  # the hello and the table, once each
    assert len({table for _hello, table in pieces}) == 1
    for stream, (hello, table) in zip(streams, pieces):
        assert gzip.decompress(hello + table + next(stream)).decode() == server_sent("hello") + event

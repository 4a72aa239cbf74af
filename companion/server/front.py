"""The HTTP front of both servers: what a request must be before the app sees it, how long a
connection may take, and, under the thread server, how many waiting connections one
client may hold.

A club's guest Wi-Fi or a hosted server can hold a device that sends requests no phone
would: half a request, then nothing; thousands of connections that never send a byte;
megabytes of headers; two lengths for one body. Each is refused or closed here, cheaply,
so that the phones at the tables do not wait behind it (bench/abuse.py; issue 40):

- A request is run only once its head (request line and headers) has arrived whole, within
  HEAD_SECONDS of its first byte, and its body within BODY_SECONDS. A new connection must
  start its request within HEAD_SECONDS, a kept-alive one its next within IDLE_SECONDS.
  Only a table page's held connection (push) stays open longer: it is an answer on its
  way, pinged every 15 s.
- A request line or header line over MAX_LINE_BYTES (8 KB), more than MAX_FIELDS header
  lines, or a head over MAX_HEAD_BYTES (32 KB) is refused, as are ambiguous framings (two
  different Content-Length, a length that is not digits, a length and a transfer coding
  together, any coding but chunked): RFC 9112 asks a server to, as a proxy in front may
  read them otherwise. Each refusal is one log line, repeats counted rather than written.

The push server (gevent's pywsgi) gets all of this from PushHandler; gevent alone ran a
request whose headers never ended (the end of the stream read as their end), had no
timeouts and no limit on the headers' total, and took the first of two lengths. Waitress
(`--server threads`) runs no request before its head and body have arrived whole, limits
the head's size, refuses ambiguous lengths and closes idle connections (channel_timeout),
but counts every connection against its limit, so 2,100 idle ones locked every phone out:
there one client (an address) holds at most WAITING_PER_CLIENT connections per process
that have yet to bring a request whole, its oldest closed past that (CappedChannel).
Behind a reverse proxy every phone comes from the proxy's address: there the proxy guards,
and no client is capped. The push server caps no client: a greenlet waiting costs a few KB,
its time is bounded, and closing a flood's connections only makes it reconnect at once,
which cost the phones more than holding them (bench/README.md, abuse).
"""

from __future__ import annotations

import http.client
import io
import logging
import re
import socket
import time
from collections import OrderedDict

from ..web.app import BODY_LEFT_UNREAD, MAX_REQUEST_BYTES, RepeatsQuieted
from ..web import GARBLED_REQUEST

HEAD_SECONDS = 10
BODY_SECONDS = 30
IDLE_SECONDS = 60
MAX_LINE_BYTES = 8 * 1024
MAX_FIELDS = 100
MAX_HEAD_BYTES = 32 * 1024
WAITING_PER_CLIENT = 64

FRONT_LOG = "companion.front"  # one line per refused request, repeats counted (quiet_repeats)
log = logging.getLogger(FRONT_LOG)

# A request refused for its own unreadable form is read out this long, at most this much, so
# that the answer is not lost to a reset (closing with unread bytes resets the connection).
UNREADABLE_DRAIN_BYTES = 1 << 20
UNREADABLE_DRAIN_SECONDS = 1.0


def quiet_repeats() -> None:
    """The same refusal again within a minute (one client's flood) is counted, not written."""
    if not any(isinstance(f, RepeatsQuieted) for f in log.filters):
        log.addFilter(RepeatsQuieted())


class Unreadable(Exception):
    """A request refused before the app sees it: its status and why (for the log)."""

    def __init__(self, status: str, why: str):
        super().__init__(why)
        self.status = status


class Incomplete(Exception):
    """The connection ended, or its time ran out, before the request was whole."""


def unreadable_request_answer(status: str) -> bytes:
    """The answer to a request the server cannot read: the app's sentence for any garbled
    request, in English, since the request's language cannot be read either."""
    reasons = {"414": "URI Too Long", "501": "Not Implemented"}
    body = GARBLED_REQUEST.msgid.encode()
    return (
        f"HTTP/1.1 {status} {reasons.get(status, 'Bad Request')}\r\nConnection: close\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def read_head(rfile) -> tuple[str, bytes]:
    """The request line and the header lines of one request, up to the empty line that ends
    them; Incomplete if the stream ends first, Unreadable past a limit."""
    line = rfile.readline(MAX_LINE_BYTES + 1)
    if not line.endswith(b"\n"):
        if len(line) > MAX_LINE_BYTES:
            raise Unreadable("414", "a request line over 8 KB")
        raise Incomplete()
    request_line, head, fields = line.decode("latin-1"), bytearray(), 0
    while True:
        line = rfile.readline(MAX_LINE_BYTES + 1)
        if not line.endswith(b"\n"):
            if len(line) > MAX_LINE_BYTES:
                raise Unreadable("400", "a header over 8 KB")
            raise Incomplete()
        if line in (b"\r\n", b"\n"):
            return request_line, bytes(head)
        fields += 1
        if fields > MAX_FIELDS:
            raise Unreadable("400", f"more than {MAX_FIELDS} headers")
        if line[:1] in (b" ", b"\t"):
            raise Unreadable("400", "a header folded over lines")
        head += line
        if len(request_line) + len(head) > MAX_HEAD_BYTES:
            raise Unreadable("400", "headers over 32 KB")


DIGITS = re.compile(r"[0-9]+")


def body_length(headers: http.client.HTTPMessage) -> int | None:
    """The body's length the headers say, None for a chunked body (or none at all: 0 then);
    Unreadable where they say it in a way two readers could take differently."""
    lengths = {value.strip() for field in headers.get_all("Content-Length", []) for value in field.split(",")}
    codings = [value.strip().lower() for field in headers.get_all("Transfer-Encoding", []) for value in field.split(",")]
    if codings:
        if codings != ["chunked"]:
            raise Unreadable("501", "a transfer coding other than chunked")
        if lengths:
            raise Unreadable("400", "both a length and chunked")
        return None
    if not lengths:
        return 0
    if len(lengths) > 1:
        raise Unreadable("400", "two different lengths")
    (length,) = lengths
    if not DIGITS.fullmatch(length):
        raise Unreadable("400", "a length that is not a number")
    return int(length)


class GarbledBody(io.RawIOBase):
    """A body that cannot be read: reading it raises, as gevent's garbled chunk did."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise OSError("a garbled chunked body")


def push_handler():
    """gevent's request handler, as the push server needs it: the front above, the app's
    sentence for an unreadable request, TCP_NODELAY."""
    import gevent
    from gevent.pywsgi import WSGIHandler, _InvalidClientInput, headers_factory

    class PushHandler(WSGIHandler):
        requests_served = 0

        def handle(self) -> None:
            # Each part of an answer leaves at once (no Nagle): with Nagle, the second part
            # of an answer waited for the phone's delayed ACK, 40 ms, whenever a phone sent
            # its next request right after the last answer (bench/scaling.py: 44 ms per
            # action with one player sending back to back, 1.3 ms without).
            self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            super().handle()

        def handle_one_request(self):
            if self.rfile.closed:
                return None
            try:
                self._read_request()
            except Incomplete:
                return None  # nothing to answer: it never asked anything whole
            except Unreadable as refused:
                client = self.client_address[0] if isinstance(self.client_address, tuple) else "a socket"
                log.warning("Refused a request from %s: %s.", client, refused)
                self._refuse(refused.status)
                return None
            self.handle_one_response()
            self.requests_served += 1
            if self.close_connection or self.rfile.closed:
                return None
            return True

        def _read_request(self) -> None:
            """The whole request, head and body, within its times; Incomplete or Unreadable."""
            idle = IDLE_SECONDS if self.requests_served else HEAD_SECONDS
            try:
                with gevent.Timeout(idle, Incomplete):
                    if not self.rfile.peek(1):
                        raise Incomplete()  # closed between requests, as phones do
                self.time_start = time.time()
                with gevent.Timeout(HEAD_SECONDS, Incomplete):
                    request_line, head = read_head(self.rfile)
                self._parse(request_line, head)
                self.environ = self.get_environ()
                self.application = self.server.application
                self._read_body()
            except _InvalidClientInput:
                # A garbled chunk: the app refuses the body it cannot read (400, in its own
                # words: JSON under /api) and the connection closes after its answer.
                self.environ["wsgi.input"] = GarbledBody()
            except (OSError, ValueError) as error:  # a reset mid-request
                raise Incomplete() from error

        def _parse(self, request_line: str, head: bytes) -> None:
            """What gevent's read_request sets, from a head read whole."""
            self.requestline = request_line.rstrip("\r\n")
            words = self.requestline.split(" ")
            if len(words) != 3 or not words[0].isalpha() or not words[1]:
                raise Unreadable("400", "a request line that is not one")
            self.command, self.path, self.request_version = words
            if self.request_version not in ("HTTP/1.0", "HTTP/1.1"):
                raise Unreadable("400", "an HTTP version that is not 1.0 or 1.1")
            self.headers = headers_factory(io.BytesIO(head + b"\r\n"))
            length = body_length(self.headers)
            if length is not None and length and self.command == "HEAD":
                raise Unreadable("400", "a body on a HEAD request")
            self.content_length = length
            connection = self.headers.get("Connection", "").lower()
            self.close_connection = connection == "close" if self.request_version == "HTTP/1.1" else connection != "keep-alive"

        def _read_body(self) -> None:
            """A body the app will read (at most the app's limit, plus one byte to tell a
            chunked one over it) is read now, within BODY_SECONDS: the app never waits on a
            phone's upload, and a body that trickles in ends the connection. A longer one
            is left unread: the app refuses it (413) from its length and the connection closes."""
            chunked = self.content_length is None
            if not chunked and not 0 < self.content_length <= MAX_REQUEST_BYTES:
                return
            with gevent.Timeout(BODY_SECONDS, Incomplete):
                body = self.wsgi_input.read(MAX_REQUEST_BYTES + 1 if chunked else self.content_length)
            if not chunked and len(body) < self.content_length:
                raise Incomplete()
            self.environ["wsgi.input"] = io.BytesIO(body)
            self.environ["CONTENT_LENGTH"] = str(len(body))
            self.environ.pop("HTTP_TRANSFER_ENCODING", None)

        def _refuse(self, status: str) -> None:
            """The app's sentence, then the connection closed gently: the rest of what the
            client sends is read out for a moment, so that the answer is not lost to a reset."""
            self.status = status
            try:
                self.socket.sendall(unreadable_request_answer(status))
                self.close_gently()
            except OSError:  # the client left, or kept sending: close all the same
                pass

        def close_gently(self) -> None:
            self.socket.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + UNREADABLE_DRAIN_SECONDS
            left = UNREADABLE_DRAIN_BYTES
            while left > 0 and time.monotonic() < deadline:
                self.socket.settimeout(max(0.01, deadline - time.monotonic()))
                read = len(self.socket.recv(65536))
                if read == 0:
                    break
                left -= read

        def start_response(self, status, headers, exc_info=None):
            if self.environ.get(BODY_LEFT_UNREAD):
                # said in the answer (HTTP/1.1), so the phone does not send its next request
                # on a connection about to close (run_application closes it)
                headers = [*headers, ("Connection", "close")]
            return super().start_response(status, headers, exc_info)

        def run_application(self) -> None:
            super().run_application()
            if self.environ.get(BODY_LEFT_UNREAD):
                # Refused for its size, or garbled: close, instead of reading (gevent's
                # default) a body of megabytes, one that never comes, or one past reading,
                # once what the client still sends was read out for a moment (no reset).
                self.close_connection = True
                self.wsgi_input.content_length = self.wsgi_input.position
                self.wsgi_input.chunked_input = False
                try:
                    self.close_gently()
                except OSError:
                    pass

    return PushHandler


def capped_channel(channel_class, behind_proxy: bool):
    """Waitress' connection (HTTPChannel), counted against its client's connections that
    have yet to bring a request whole: past WAITING_PER_CLIENT the oldest is closed."""
    limit = None if behind_proxy else WAITING_PER_CLIENT

    class CappedChannel(channel_class):
        asked = False  # has brought a request whole

        def __init__(self, server, sock, addr, adj, map=None):
            super().__init__(server, sock, addr, adj, map)
            self.client = addr[0] if isinstance(addr, tuple) else ""
            if limit is None:
                return
            mine = server.channels_by_client.setdefault(self.client, OrderedDict())
            mine[self] = None
            waiting = [channel for channel in mine if not channel.asked and not channel.requests and not channel.will_close]
            for oldest in waiting[: max(0, len(waiting) - limit)]:
                oldest.will_close = True  # waitress closes it on its next turn (nothing to flush)

        def received(self, data):
            result = super().received(data)
            if self.requests:
                self.asked = True
            return result

        def del_channel(self, map=None):
            mine = self.server.channels_by_client.get(self.client) if limit is not None else None
            if mine is not None:
                mine.pop(self, None)
                if not mine:
                    del self.server.channels_by_client[self.client]
            super().del_channel(map)

    return CappedChannel

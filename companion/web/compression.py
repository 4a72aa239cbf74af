"""Gzip for the text phones download (pages, styles, scripts, JSON, and the tables pushed
on a held connection), when they accept it, and a year of caching for static files whose
name carries their version.

A phone opening its first table fetches htmx (52 KB, 16 KB gzipped), the styles and the
page: gzip brings that well under issue 8's 60 KB (bench/page_weight.py measures it), and
every page a poll brings back shrinks the same way. Static files are compressed once per
version of the file (their ETag) and kept; pages are compressed as they are sent (a
fraction of a millisecond for a table page).

A held connection (web/push.py) is one gzip stream that lasts as long as the connection,
each event flushed as it is sent (browsers decode a gzipped text/event-stream as it
comes). Each event is deflated by itself, from an empty window, and ends on a byte
boundary (a sync flush): such pieces can follow each other in any stream, so the one
rendering of a version that every watching phone is sent is also deflated once per
process and the same bytes go to each. A window carried from event to event would make
each push smaller still (most of a table is the one pushed before), but it is 262 KB of
zlib's memory per connection, 1.3 GB for 5,000 phones, and a compression per phone.
"""

from __future__ import annotations

import functools
import gzip
import re
import struct
import zlib
from typing import Iterable, Iterator

from flask import Response, request

COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json", "image/svg+xml"}
NO_BODY_TO_COMPRESS = {204, 206, 304}  # no body, or a byte range of the file as it is
MIN_BYTES = 512  # below this, gzip's own header and trailer eat most of the saving
LEVEL = 6
VERSIONED_NAME = re.compile(r"-\d+\.\d+\.\d+[.-]")  # htmx-2.0.11.min.js: a new version, a new name
YEAR_SECONDS = 365 * 24 * 60 * 60
_static_gzipped: dict[tuple[str, str], bytes] = {}
STATIC_CACHE_ENTRIES = 64


def compress(response: Response) -> Response:
    if request.endpoint == "static" and VERSIONED_NAME.search(request.view_args.get("filename", "")):
        response.cache_control.no_cache = None  # Flask's default for static files: ask every time
        response.cache_control.public = True
        response.cache_control.max_age = YEAR_SECONDS
        response.cache_control.immutable = True
    if response.mimetype not in COMPRESSIBLE:
        return response
    response.vary.add("Accept-Encoding")
    if (
        response.status_code in NO_BODY_TO_COMPRESS
        or "Content-Encoding" in response.headers
        or (response.is_streamed and not response.direct_passthrough)
        or not accepts_gzip()
    ):
        return response
    response.direct_passthrough = False  # a static file: read it here to compress it
    body = response.get_data()
    if len(body) < MIN_BYTES:
        return response
    etag, _weak = response.get_etag()
    if request.endpoint == "static" and etag:
        key = (request.path, etag)
        if key not in _static_gzipped:
            if len(_static_gzipped) >= STATIC_CACHE_ENTRIES:
                _static_gzipped.clear()
            _static_gzipped[key] = gzip.compress(body, LEVEL, mtime=0)
        compressed = _static_gzipped[key]
    else:
        compressed = gzip.compress(body, LEVEL, mtime=0)
    response.set_data(compressed)
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)  # byte ranges of the file, not of its gzip
    if etag:
        # The same file in another encoding: a weak ETag, so revalidation (weak comparison
        # for If-None-Match) still answers 304, as nginx does when it gzips.
        response.set_etag(etag, weak=True)
    return response


def accepts_gzip() -> bool:
    return request.accept_encodings["gzip"] > 0


# --- held connections ----------------------------------------------------------------
GZIP_HEADER = bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])  # deflate, no name, no time, any system
LAST_BLOCK = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS).flush()  # an empty final block
EVENTS_KEPT = 128  # a version's event is sent to its phones within moments of each other


def gzipped_events(events: Iterable[str]) -> Iterator[bytes]:
    """`events` (Server-Sent Events' text) as one gzip stream, each event in a piece of its
    own that the phone can decode at once; the gzip trailer once `events` ends."""
    crc = size = 0
    head = GZIP_HEADER
    try:
        for event in events:
            text, deflated = deflated_event(event)
            crc = zlib.crc32(text, crc)
            size += len(text)
            yield head + deflated
            head = b""
        yield head + LAST_BLOCK + struct.pack("<II", crc, size & 0xFFFFFFFF)
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()  # the phone went away: the events' generator lets go of what it holds


@functools.lru_cache(maxsize=EVENTS_KEPT)
def deflated_event(event: str) -> tuple[bytes, bytes]:
    """The event's bytes and their deflate blocks from an empty window, ending on a byte
    boundary (see the module's docstring): the same for every phone sent this event."""
    text = event.encode()
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return text, compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH)

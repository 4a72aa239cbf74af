"""Gzip for the text phones download (pages, styles, scripts, JSON), when they accept it,
and a year of caching for static files whose name carries their version.

A phone opening its first table fetches htmx (52 KB, 16 KB gzipped), the styles and the
page: gzip brings that well under issue 8's 60 KB (bench/page_weight.py measures it), and
every page a poll brings back shrinks the same way. Static files are compressed once per
version of the file (their ETag) and kept; pages are compressed as they are sent (a
fraction of a millisecond for a table page).
"""

from __future__ import annotations

import gzip
import re

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
        or request.accept_encodings["gzip"] <= 0
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

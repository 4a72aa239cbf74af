"""Gzip when the phone accepts it, the same bytes when it does not, and a year of caching
for static files whose name carries their version (companion/web/compression.py)."""

from __future__ import annotations

import gzip
import json

from companion import PROJECT_ROOT

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

"""No redirect leads off this site: the language switcher goes back only to one of the
companion's own pages, whatever `next` it is given, read the way a browser reads a URL
(tabs and newlines dropped, backslashes taken as slashes); and a `next` the server cannot
even put in a header is refused with a redirect home, not a server error."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

ESCAPES = [
    "//evil.example/",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    " //evil.example",
    "javascript:alert(1)",
    "/\x00/home",
]


def lands_on_this_site(location: str) -> bool:
    as_a_browser_reads_it = re.sub(r"[\t\n\r]", "", location).replace("\\", "/").strip()
    parts = urlsplit(as_a_browser_reads_it)
    return as_a_browser_reads_it.startswith("/") and not as_a_browser_reads_it.startswith("//") and not (
        parts.scheme or parts.netloc
    )


@pytest.mark.parametrize("target", ESCAPES)
def test_the_language_switcher_leads_back_only_to_this_sites_pages(app, client, target):
    assert "pages.choose_language" in {rule.endpoint for rule in app.url_map.iter_rules()}
    response = client.get("/language/en", query_string={"next": target})
    assert response.status_code == 303
    assert lands_on_this_site(response.headers["Location"]), repr(response.headers["Location"])


def test_the_language_switcher_goes_back_to_the_page_it_was_tapped_on(client):
    response = client.get("/language/en", query_string={"next": "/t/K7QM2P?as=1"})
    assert response.headers["Location"] == "/t/K7QM2P?as=1"

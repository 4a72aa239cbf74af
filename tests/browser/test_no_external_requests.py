"""Nothing a phone loads comes from anywhere but the companion: a table works on a LAN
without internet, and no third party learns who plays (issue 8). bench/page_weight.py
measures the bytes; this asserts the hosts."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from companion.games import GAMES


def record_requests(page, urls: list[str]) -> None:
    """Every URL the phone asks for from now on (pages, redirects, scripts, styles, polls)
    goes into `urls`."""
    page.context.on("request", lambda request: urls.append(request.url))


def test_no_request_leaves_the_server_from_start_to_polling_tables_of_every_game(live_server, new_phone):
    server = urlsplit(live_server.url).netloc
    asked: list[str] = []
    host = new_phone()
    record_requests(host, asked)
    host.goto(live_server.url + "/")
    host.get_by_label("Game").select_option(value="pickomino")
    for position, name in enumerate(["Ana", "Bruno"], start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.locator(".join-code")).to_have_count(2)  # the join screen with its QR codes

    for slug, game in GAMES.items():
        created = live_server.create(players=[f"P{n}" for n in range(game.min_players)], game=slug)
        phone = new_phone()
        record_requests(phone, asked)
        with phone.expect_request(lambda request: "/poll" in request.url):  # and its first poll
            phone.goto(created["seats"][0]["join_url"])
            expect(phone.locator(".who")).to_be_visible()

    loaded = [url for url in asked if not url.startswith("data:")]
    assert sum(url.endswith("/static/htmx-2.0.11.min.js") for url in loaded) >= 1 + len(GAMES)  # every phone
    assert sum("/poll" in url for url in loaded) >= len(GAMES)
    assert [url for url in loaded if urlsplit(url).netloc != server] == []


def test_the_browser_gets_htmx_gzipped_and_cached_for_a_year(live_server, new_phone):
    phone = new_phone()
    with phone.expect_response(lambda response: response.url.endswith("/static/htmx-2.0.11.min.js")) as answer:
        phone.goto(live_server.url + "/")
    headers = answer.value.headers
    assert headers["content-encoding"] == "gzip"
    assert "max-age=31536000" in headers["cache-control"] and "no-cache" not in headers["cache-control"]
    assert phone.evaluate("typeof htmx.version") == "string"  # and it runs

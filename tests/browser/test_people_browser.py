"""People across the night, on the host's 360 px phone (issue 42): two tables where one
player was typed two ways, the person's page with its head-to-head and streak, a rename, a
merge after its confirmation page, and each page no wider than the phone, with nothing axe
finds serious."""

from __future__ import annotations

import requests
from playwright.sync_api import Page, expect

from .accessibility import violations

LONG = "W" * 24  # as long as a name can be, with no space to break at


def width(phone: Page) -> int:
    return phone.evaluate("document.scrollingElement.scrollWidth")


def lobo_played(url: str, names: list[str], meadows: list[int]) -> dict:
    """A Lobo table played to its end through the API: each seat counts one fenced meadow."""
    created = requests.post(url + "/api/tables", json={"game": "lobo", "players": names}, timeout=10).json()

    def act(seat: int, action: dict) -> None:
        answer = requests.post(
            f"{url}/api/tables/{created['id']}/actions", json=action,
            headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"}, timeout=10,
        )
        assert answer.status_code == 200, answer.text

    act(0, {"type": "end"})
    for seat, sheep in enumerate(meadows):
        act(seat, {"type": "meadows", "meadows": [{"sheep": sheep, "fenced": True, "wolf": False}]})
    return created


def readable(phone: Page, what: str) -> None:
    phone.wait_for_load_state()  # its styles too: unstyled, a page is wider
    assert width(phone) <= 360, what
    assert violations(phone) == [], what


def test_a_host_renames_and_merges_people_from_their_phone(live_server, new_phone):
    url = live_server.url
    first = lobo_played(url, [LONG, "Ana"], [7, 2])
    second = lobo_played(url, [LONG, "Anna"], [3, 5])
    host = new_phone()  # the evening's host: it started both tables, so its cookie holds their host tokens
    app = live_server.app
    hosted = {table["id"]: {"host": table["host_token"]} for table in (first, second)}
    cookie = app.session_interface.get_signing_serializer(app).dumps({"tables": hosted})
    host.context.add_cookies([{"name": app.config["SESSION_COOKIE_NAME"], "value": cookie, "url": url}])
    host.goto(f"{url}/players/{LONG}")
    expect(host.get_by_role("heading", name="Head to head")).to_have_count(0)  # Ana and Anna: once each
    expect(host.get_by_text("Current streak: 1")).to_be_visible()  # a win or not: the games finished within a second
    readable(host, "a person's page, the host's forms on it")

    host.goto(f"{url}/players/Anna")
    host.get_by_label("The same person as").fill("ana")
    host.get_by_role("button", name="Merge…").tap()
    expect(host.get_by_role("heading", name="Merge Anna into Ana?")).to_be_visible()
    readable(host, "the merge's confirmation")
    host.get_by_role("button", name="Merge Anna into Ana").tap()
    expect(host.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    expect(host.get_by_role("button", name="Separate: not Ana")).to_be_visible()

    host.get_by_label("New name").fill("Ana Maria")
    host.get_by_role("button", name="Rename", exact=True).tap()
    expect(host.get_by_role("heading", name="Ana Maria")).to_be_visible()
    host.goto(f"{url}/players/{LONG}")
    head_to_head = host.locator("table.head-to-head tbody tr")
    expect(head_to_head).to_have_count(1)
    expect(head_to_head).to_contain_text("Ana Maria")  # two games together now: a regular opponent
    readable(host, "a person's page with the head-to-head")
    host.goto(f"{url}/players")
    expect(host.locator(".players-index li")).to_have_count(2)
    readable(host, "the players")

"""The rules on a 360 px phone: a player taps "Rules" on their table page and lands on
their game's own section, readable without sideways scrolling; back at the table, the page
is live again."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from companion.games import GAMES


def seated_phone(new_phone, server_url: str, slug: str):
    game = GAMES[slug]
    names = ["Ana", "Bruno", "Caio", "Dora"][: max(game.min_players, 2)]
    created = requests.post(server_url + "/api/tables", json={"game": slug, "players": names}, timeout=10).json()
    phone = new_phone()
    phone.goto(created["seats"][1]["join_url"])
    expect(phone.locator(".who")).to_have_text("You are Bruno")
    return phone, created


def fits_the_screen_width(phone) -> bool:
    return phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("slug", GAMES)
def test_rules_from_the_table_page_open_at_the_games_section_on_a_phone(live_server, new_phone, slug):
    phone, _created = seated_phone(new_phone, live_server.url, slug)
    assert fits_the_screen_width(phone)
    phone.get_by_role("link", name="Rules", exact=True).tap()
    section = phone.locator(f"h2#{slug}")
    expect(section).to_be_in_viewport()
    assert fits_the_screen_width(phone)
    phone.go_back()
    expect(phone.locator(".who")).to_have_text("You are Bruno")


def test_the_hosts_table_header_fits_a_phone_with_its_rules_link(live_server, new_phone):
    host = new_phone()
    host.goto(live_server.url + "/")
    host.get_by_label("Game").select_option(value="heckmeck-barbecue")  # the longest title
    for position, name in enumerate(["Ana", "Bruno"], start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    host.get_by_role("link", name="Go to the table").tap()
    header = host.locator("header.top")
    expect(header.get_by_role("link", name="Rules", exact=True)).to_be_visible()
    expect(header.get_by_role("link", name="Join codes")).to_be_visible()
    assert fits_the_screen_width(host)
    box = header.get_by_role("link", name="Rules", exact=True).bounding_box()
    assert box["x"] + box["width"] <= 360

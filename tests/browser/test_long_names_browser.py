"""Names as long as the start form allows (24 characters, here with no space to break at)
never make a page wider than a 360 px phone: every game's table page, seen by a player and
by the host, the join codes, the home page, the tables and players' pages."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from companion.games import GAMES

LONGEST = ("W" * 24, "M" * 24)


def width(phone: Page) -> int:
    return phone.evaluate("document.scrollingElement.scrollWidth")


@pytest.mark.parametrize("slug", GAMES)
def test_the_longest_names_fit_every_games_table_page_on_a_phone(live_server, new_phone, slug):
    names = [*LONGEST, *(f"P{n}" for n in range(GAMES[slug].min_players - 2))]
    created = requests.post(live_server.url + "/api/tables", json={"game": slug, "players": names}, timeout=10).json()
    phone = new_phone()
    for seat in created["seats"][:2]:  # the first to play, and one who watches
        phone.goto(seat["join_url"])
        expect(phone.locator(".who")).to_contain_text(seat["name"])
        assert width(phone) <= 360, (slug, seat["name"])


def test_the_longest_names_fit_the_join_codes_home_tables_and_players_pages(live_server, new_phone):
    host = new_phone()
    host.goto(live_server.url + "/")
    host.get_by_label("Game").select_option(value="pickomino")
    for position, name in enumerate(LONGEST, start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.get_by_role("heading", name="Everyone scans their own code")).to_be_visible()
    host.wait_for_load_state()  # the stylesheets too: the page is laid out as it will be shown
    assert width(host) <= 360
    host.get_by_role("link", name="Go to the table").tap()
    expect(host.locator(".who")).to_have_text(re.compile("host"))
    host.wait_for_load_state()
    assert width(host) <= 360
    for path in ("/", "/tables", "/players", "/players/" + LONGEST[0]):
        host.goto(live_server.url + path)
        assert width(host) <= 360, path


@pytest.mark.parametrize("slug", GAMES)
def test_the_longest_names_fit_a_finished_games_table_and_results_on_a_phone(live_server, new_phone, slug):
    """The ranking, the tie-break in words, the log and the results chart name the players."""
    scene = GAMES[slug].scenes()["finished"]
    names = [*LONGEST, *(f"{'Q' * 23}{n}" for n in range(len(scene.players) - 2))]
    created = requests.post(
        live_server.url + "/api/tables", json={"game": slug, "players": names, "options": scene.options}, timeout=10
    ).json()
    for seat, action in scene.actions:
        answer = requests.post(
            f"{live_server.url}/api/tables/{created['id']}/actions", json={**action, "seat": seat},
            headers={"Authorization": f"Bearer {created['host_token']}"}, timeout=10,
        )
        assert answer.status_code == 200, answer.text
    phone = new_phone()
    phone.goto(created["seats"][0]["join_url"])
    expect(phone.locator(".ranking, .rank-score").first).to_be_attached()
    phone.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")  # the log too
    assert width(phone) <= 360
    phone.goto(f"{live_server.url}/t/{created['id']}/results")
    assert width(phone) <= 360

"""Names as long as the start form allows (24 characters, here with no space to break at)
never make a page wider than a 360 px phone: every game's table page, seen by a player and
by the host, the join codes, the home page, the tables and players' pages."""

from __future__ import annotations

import re

import pytest
import requests
from played import start_options
from playwright.sync_api import Page, expect

from companion.games import GAMES

from .late_tables import BUILDERS, NAMES

LONGEST = ("W" * 24, "M" * 24)


def width(phone: Page) -> int:
    return phone.evaluate("document.scrollingElement.scrollWidth")


@pytest.mark.parametrize("slug", GAMES)
def test_the_longest_names_fit_every_games_table_page_on_a_phone(live_server, new_phone, slug):
    names = [*LONGEST, *(f"P{n}" for n in range(GAMES[slug].min_players - 2))]
    created = requests.post(
        live_server.url + "/api/tables", json={"game": slug, "players": names, "options": start_options(slug)}, timeout=10
    ).json()
    phone = new_phone()
    for seat in created["seats"][:2]:  # the first to play, and one who watches
        phone.goto(seat["join_url"])
        if seat is not created["seats"][0]:  # the phone was the first player's: it asks first
            expect(phone.get_by_role("heading", name=f"This phone is {created['seats'][0]['name']}'s at this table")).to_be_visible()
            assert width(phone) <= 360, (slug, "the question")
            phone.get_by_role("link", name=f"This phone is {seat['name']}'s now").tap()
        expect(phone.locator(".who")).to_contain_text(seat["name"])
        phone.wait_for_load_state()  # after the tap, its styles too: unstyled, a page is wider
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


def test_the_game_nights_and_players_tables_and_the_hosts_header_fit_the_narrowest_phones(live_server, new_phone):
    """The game night's table (seven players with long names) on the results page, a
    player's page in French (longer headings) at 360 px, and the host's header (the table,
    Rules, Join codes) at 320 px in every language."""
    finished = BUILDERS["pickomino"](live_server.url, 7, "finished")
    phone = new_phone()
    phone.goto(finished.join_urls[1])  # the 24 letters of Wolfeschlegelsteinhausen
    phone.get_by_role("button", name="Rematch").tap()
    expect(phone.locator(".who")).to_contain_text(NAMES[1])
    phone.goto(f"{live_server.url}/t/{finished.id}/results")
    expect(phone.get_by_role("heading", name="Game night")).to_be_visible()
    assert width(phone) <= 360
    french = new_phone(locale="fr-FR")
    french.goto(f"{live_server.url}/players/{NAMES[1]}")
    expect(french.locator(".player-stats").first).to_be_visible()
    assert width(french) <= 360
    for locale in ("en-GB", "pt-PT", "fr-FR", "ro-RO"):
        host = new_phone(locale=locale, viewport={"width": 320, "height": 640})
        host.goto(f"{live_server.url}/")
        host.locator("select[name=game]").select_option(value="pickomino")
        host.locator("input[name=player]").nth(0).fill("Ana")
        host.locator("input[name=player]").nth(1).fill("Bruno")
        host.locator("input[name=player]").nth(1).press("Enter")
        expect(host).to_have_url(re.compile(r"/t/\w+/join$"))
        host.goto(host.url.removesuffix("/join"))
        expect(host.locator("header .small-link")).to_have_count(2)  # Rules, Join codes
        host.wait_for_load_state()
        assert width(host) <= 320, locale
        # the title keeps its words whole ("Pickomi / no" at 360 px): the links wrap instead
        split = host.locator("header .table-id").evaluate(
            """title => [...title.textContent.matchAll(/\\S+/g)].filter(match => {
                 const range = document.createRange();
                 range.setStart(title.firstChild, match.index);
                 range.setEnd(title.firstChild, match.index + match[0].length);
                 return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
               }).map(match => match[0])"""
        )
        assert split == [], (locale, split)
        for link in host.locator("header .small-link").all():  # a thumb's size, "Rules" too
            box = link.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (locale, link.text_content(), box)

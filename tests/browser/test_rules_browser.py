"""The rules on a 360 px phone: a player taps "Rules" on their table page and reads their
game's guide in their phone's language, readable without sideways scrolling, in a tab of
its own (the table page keeps what the player had begun to enter); the guide leads to the
reference's section of the game and to the other games' guides."""

from __future__ import annotations

import re
from itertools import cycle

import pytest
import requests
from played import start_options
from playwright.sync_api import expect

from companion.games import GAMES
from companion.web.i18n import LANGUAGES

# Each game read in another language, every language in turn.
GAME_AND_LANGUAGE = list(zip(GAMES, cycle(LANGUAGES)))
RULES_WORD = {"en": "Rules", "pt": "Regras", "fr": "Règles", "ro": "Reguli"}


def seated_phone(new_phone, server_url: str, slug: str, locale: str = "en-GB"):
    game = GAMES[slug]
    names = ["Ana", "Bruno", "Caio", "Dora"][: max(game.min_players, 2)]
    created = requests.post(
        server_url + "/api/tables", json={"game": slug, "players": names, "options": start_options(slug)}, timeout=10
    ).json()
    phone = new_phone(locale=locale)
    phone.goto(created["seats"][1]["join_url"])
    expect(phone.locator(".who")).to_have_attribute("data-seat", "1")
    return phone, created


def fits_the_screen_width(phone) -> bool:
    # the layout's width: a phone's innerWidth grows to a page wider than the screen
    return phone.evaluate("document.scrollingElement.scrollWidth <= document.documentElement.clientWidth")


def wider_than_the_screen(phone) -> list[str]:
    """What sticks out past the phone's right edge (said when a page does not fit)."""
    return phone.evaluate(
        """() => [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
               .slice(0, 8).map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
    )


@pytest.mark.parametrize("slug, language", GAME_AND_LANGUAGE)
def test_rules_from_the_table_page_open_the_games_guide_in_the_phones_language(live_server, new_phone, slug, language):
    phone, _created = seated_phone(new_phone, live_server.url, slug, locale=language)
    assert fits_the_screen_width(phone)
    phone.evaluate("window.notReloaded = true")
    with phone.context.expect_page() as opened:
        phone.get_by_role("link", name=RULES_WORD[language], exact=True).tap()
    guide = opened.value
    expect(guide.locator("html")).to_have_attribute("lang", language)
    expect(guide.locator(f"h1#{slug}")).to_be_in_viewport()
    sections = [line[3:] for line in GAMES[slug].guide(language).read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    expect(guide.locator("article.guide h2")).to_have_text(sections)
    assert fits_the_screen_width(guide), wider_than_the_screen(guide)
    # the other games' guides, a thumb's tap each
    others = guide.locator("nav.other-guides a")
    expect(others).to_have_count(len(GAMES) - 1)
    assert all(link.bounding_box()["height"] >= 44 for link in others.all())
    # in a tab of its own: the table page stays as it was, its connection open
    assert phone.evaluate("window.notReloaded === true")

    # the reference, for the details: the game's own section
    guide.locator(f'article.guide a[href="/rules#{slug}"]').tap()
    guide.wait_for_url(re.compile(rf"/rules#{slug}$"))
    expect(guide.locator(f"h2#{slug}")).to_be_in_viewport()


def test_a_roll_half_entered_is_still_there_after_reading_the_rules(live_server, new_phone):
    created = requests.post(live_server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
    ana = new_phone()
    ana.goto(created["seats"][0]["join_url"])
    ana.locator(".modes").get_by_text("Roll by roll", exact=True).tap()
    panel = ana.locator(".panel-roll")
    for face in (3, 5, "worm"):
        panel.locator(".face-row").get_by_role("button", name=str(face), exact=True).tap()
    expect(panel.locator(".composed-count")).to_have_text("3 / 8")
    with ana.context.expect_page() as opened:
        ana.get_by_role("link", name="Rules", exact=True).tap()
    expect(opened.value.locator("h1#pickomino")).to_be_in_viewport()
    opened.value.close()
    ana.bring_to_front()
    expect(panel.locator(".composed-count")).to_have_text("3 / 8")


def test_the_hosts_table_header_fits_a_phone_with_its_rules_link(live_server, new_phone):
    host = new_phone()
    host.goto(live_server.url + "/")
    guides = host.locator(".rules-link a")  # the start form's links to each game's guide
    expect(guides).to_have_count(len(GAMES))
    assert all(link.bounding_box()["height"] >= 48 for link in guides.all())  # tap targets
    assert fits_the_screen_width(host), wider_than_the_screen(host)
    host.get_by_label("Game").select_option(value="heckmeck-barbecue")  # the longest title
    for position, name in enumerate(["Ana", "Bruno"], start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    host.get_by_role("link", name="Go to the table").tap()
    # measured once the table page has loaded, stylesheets included (a page measured as soon
    # as its markup was there was found unstyled once: 34b36b7)
    host.wait_for_url(re.compile(r"/t/\w+$"), wait_until="load")
    header = host.locator("header.top")
    expect(header.get_by_role("link", name="Rules", exact=True)).to_be_visible()
    expect(header.get_by_role("link", name="Join codes")).to_be_visible()
    assert fits_the_screen_width(host), wider_than_the_screen(host)
    box = header.get_by_role("link", name="Rules", exact=True).bounding_box()
    assert box["x"] + box["width"] <= 360 and box["height"] >= 48

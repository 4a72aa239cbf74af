"""A Heckmeck Barbecue table played on phones in a real browser (issue 3).

The host starts the table from the home page (correcting one grill spot's worms), the
players join on their own phones and play by tapping. The other phones are never
reloaded: they must show each change by themselves.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import PHONE, SYNC_TIMEOUT_MS

WORM = "worm"
GREEN, YELLOW = "rgb(63, 170, 90)", "rgb(242, 207, 58)"  # plates of seats 0 and 1 (static/app.css)


def start_table(new_phone, server_url: str, names: list[str], spot_worms: dict[int, int]) -> dict[str, str]:
    """The host starts the table from the home page; returns each player's join link."""
    host = new_phone()
    host.goto(server_url + "/")
    host.get_by_label("Game").select_option(label="Heckmeck Barbecue")
    for position, name in enumerate(names, start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    if spot_worms:  # folded until the host says the board differs
        expect(host.get_by_label("Worms on spot 23")).to_be_hidden()
        host.get_by_text("My board prints other numbers").tap()
    for spot, worms in spot_worms.items():
        host.get_by_label(f"Worms on spot {spot}").select_option(str(worms))
    host.get_by_role("button", name="Start the table").tap()
    expect(host.get_by_role("heading", name="Everyone scans their own code")).to_be_visible()
    links = {}
    for name in names:
        code = host.locator(".join-code").filter(has=host.locator(".join-name", has_text=re.compile(rf"^{name}$")))
        links[name] = code.get_by_role("link").get_attribute("href")
    return links


def join(new_phone, link: str, name: str) -> Page:
    phone = new_phone()
    phone.goto(link)
    expect(phone.locator(".who")).to_have_text(f"You are {name}")
    phone.evaluate("window.notReloaded = true")  # a page that reloads loses this mark
    return phone


def set_aside(phone: Page, face, count: int) -> None:
    """Quick entry: tap the face set aside, then how many dice; wait for the answer."""
    version = phone.locator("#table").get_attribute("data-version")
    phone.locator(".modes").get_by_text("Quick", exact=True).tap()
    panel = phone.locator(".panel-quick")
    panel.locator(f'label[for="quick-{face}"]').tap()
    panel.locator(f'.counts[data-face="{face}"]').get_by_role("button", name=str(count), exact=True).tap()
    expect(phone.locator("#table")).not_to_have_attribute("data-version", version)


def tap(phone: Page, button_name: str) -> None:
    version = phone.locator("#table").get_attribute("data-version")
    phone.get_by_role("button", name=button_name).tap()
    expect(phone.locator("#table")).not_to_have_attribute("data-version", version)


def tap_failing(phone: Page, summary: str) -> None:
    """A tap that fails the turn asks once more; only the second tap ends it."""
    version = phone.locator("#table").get_attribute("data-version")
    phone.locator("summary", has_text=summary).tap()
    confirm = phone.get_by_role("button", name="Yes, the turn fails")
    expect(confirm).to_be_visible()
    assert phone.locator("#table").get_attribute("data-version") == version
    confirm.tap()
    expect(phone.locator("#table")).not_to_have_attribute("data-version", version)


def grill_spot(phone: Page, value: int):
    return phone.locator(f'.spots .spot[data-spot="{value}"]')


def player_row(phone: Page, name: str):
    return phone.locator(".players .player", has=phone.locator(".player-name", has_text=re.compile(rf"^{name}$")))


def marker_colour(element) -> str:
    """The colour of the dot that marks a player's name outside the board."""
    return element.evaluate("element => getComputedStyle(element, '::before').backgroundColor")


def fits_the_phone(phone: Page, shots_dir, name: str) -> None:
    """Nothing sticks out sideways at 360 px; the screenshot is kept to be looked at."""
    phone.screenshot(path=str(shots_dir / f"{name}.png"), full_page=True)
    overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name}: the page is {overflow}px wider than the {PHONE['viewport']['width']}px phone"


def test_rule_3_a_steal_is_seen_on_the_victims_phone(live_server, new_phone, shots_dir):
    links = start_table(new_phone, live_server.url, ["Ana", "Bruno"], spot_worms={31: 5})
    ana = join(new_phone, links["Ana"], "Ana")
    bruno = join(new_phone, links["Bruno"], "Bruno")
    expect(ana.locator(".spots .spot")).to_have_count(14)
    expect(grill_spot(ana, 31).locator(".worms svg")).to_have_count(5)  # the host's correction
    expect(ana.locator(".snail-supply")).to_have_text("12 snails left in the supply")
    fits_the_phone(ana, shots_dir, "bbq-01-grill")

    # Ana: 5 worms + a 6 = 31, an empty spot: her green plate goes on it.
    set_aside(ana, WORM, 5)
    set_aside(ana, 6, 1)
    fits_the_phone(ana, shots_dir, "bbq-02-stop-offered")
    tap(ana, "Stop and put a plate on 31")
    expect(grill_spot(bruno, 31).locator(".plate")).to_have_class(["plate plate-green"], timeout=SYNC_TIMEOUT_MS)
    expect(player_row(bruno, "Ana").locator(".player-score")).to_contain_text("5 worms")

    # Bruno: the same 31, on Ana's plate: he steals.
    expect(bruno.locator(".status")).to_have_text("Your turn")
    set_aside(bruno, WORM, 5)
    set_aside(bruno, 6, 1)
    expect(bruno.locator(".stop .plate-green")).to_have_count(1)  # the victim's colour on the button
    tap(bruno, "Stop and steal 5 worms from Ana on 31")

    # Ana's phone, never reloaded, shows what happened to her.
    expect(ana.locator(".outcome")).to_have_text(
        "Bruno stole 5 worms from Ana on 31; Ana's plate went back.", timeout=SYNC_TIMEOUT_MS
    )
    expect(grill_spot(ana, 31).locator(".plate")).to_have_class(["plate plate-yellow"])
    expect(grill_spot(ana, 31)).to_contain_text("Bruno's plate")
    ana_row = player_row(ana, "Ana").locator(".player-score")
    expect(ana_row).to_contain_text("0 worms")
    expect(ana_row).to_contain_text("10 plates in hand")
    expect(player_row(ana, "Ana").locator(".player-points")).to_have_text("0 points")
    bruno_row = player_row(ana, "Bruno").locator(".player-score")
    expect(bruno_row).to_contain_text("5 worms")
    expect(bruno_row).to_contain_text("9 plates in hand")
    expect(ana.locator(".status")).to_have_text("Your turn")
    # Each player's plate colour marks them outside the grill too: Ana green, Bruno yellow.
    assert marker_colour(ana.locator(".who")) == GREEN
    assert marker_colour(bruno.locator(".status")) == GREEN  # "Ana's turn"
    assert marker_colour(ana.locator("details.log li").first) == YELLOW  # Bruno's stop
    assert ana.evaluate("window.notReloaded === true"), "the victim's page was reloaded"
    fits_the_phone(ana, shots_dir, "bbq-03-victim-after-the-steal")


def test_rule_3_a_failed_turn_puts_a_snail_on_the_highest_empty_spot(live_server, new_phone, shots_dir):
    links = start_table(new_phone, live_server.url, ["Ana", "Bruno"], spot_worms={})
    ana = join(new_phone, links["Ana"], "Ana")
    bruno = join(new_phone, links["Bruno"], "Bruno")

    set_aside(ana, 2, 3)
    tap_failing(ana, "Stop: no worm yet, the turn fails")
    expect(bruno.locator(".outcome")).to_have_text(
        "Ana failed (no worm set aside): a snail went on 36.", timeout=SYNC_TIMEOUT_MS
    )
    expect(grill_spot(bruno, 36).locator(".snail")).to_have_count(1)
    expect(bruno.locator(".snail-supply")).to_have_text("11 snails left in the supply")

    # Bruno scores 36 and picks the snail up: the spot is free again, he has 3 points.
    set_aside(bruno, WORM, 6)
    set_aside(bruno, 6, 1)
    tap(bruno, "Stop and take the snail from 36")
    expect(ana.locator(".outcome")).to_have_text("Bruno took the snail from spot 36.", timeout=SYNC_TIMEOUT_MS)
    expect(grill_spot(ana, 36).locator(".snail")).to_have_count(0)
    expect(player_row(ana, "Bruno").locator(".player-score")).to_contain_text("1 snail")
    expect(player_row(ana, "Bruno").locator(".player-points")).to_have_text("3 points")
    assert ana.evaluate("window.notReloaded === true")
    fits_the_phone(ana, shots_dir, "bbq-04-after-a-snail")

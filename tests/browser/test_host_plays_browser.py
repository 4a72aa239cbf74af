"""The host who plays, on a 360 px phone (issue 39): "Me" beside their name on the start
form makes the host's phone their seat, and on that seat's turn the phone says "Your turn"
and alerts them as every player's phone does. Against `companion serve` as users run it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import SYNC_TIMEOUT_MS
from .test_pickomino_table import fits_the_phone
from .test_push_browser import SPIES, asked


def test_a_host_who_plays_is_their_seat_and_hears_their_turn(push_server, new_phone, shots_dir):
    host = new_phone()
    host.add_init_script(SPIES)
    host.goto(push_server + "/")
    host.get_by_label("Game").select_option(label="Pickomino")
    host.get_by_label("Player 1", exact=True).fill("Ana")
    host.get_by_label("Player 2", exact=True).fill("Bruno")
    me = host.locator(".name-slot").nth(1).locator("label.host-plays")  # "Me", beside Bruno
    assert me.bounding_box()["height"] >= 44  # a thumb's tap
    me.tap()
    expect(host.get_by_role("radio", name="I play as player 2")).to_be_checked()
    fits_the_phone(host, shots_dir, "host-plays-01-start-form")
    host.get_by_role("button", name="Start the table").tap()

    # The codes: only Ana's to scan; Bruno's seat is this phone.
    expect(host.get_by_role("heading", name="Everyone scans their own code")).to_be_visible()
    expect(host.locator(".join-code")).to_have_count(2)
    expect(host.locator(".join-code.own-seat")).to_contain_text("Bruno")
    expect(host.locator(".join-code.own-seat")).to_contain_text("Your seat, on this phone")
    ana_code = host.locator(".join-code").filter(has=host.locator(".join-name", has_text=re.compile(r"^Ana$")))
    ana_link = ana_code.get_by_role("link").get_attribute("href")
    fits_the_phone(host, shots_dir, "host-plays-02-codes")
    host.get_by_role("link", name="Go to the table").tap()
    expect(host.locator(".who")).to_have_text("You are Bruno · host")
    expect(host.locator(".status")).to_have_text("Ana's turn")
    expect(host.get_by_role("link", name="Join codes")).to_be_visible()  # still the host
    host.locator(".who").tap()  # a first tap: a browser lets a page vibrate only after one
    expect(host).not_to_have_title("Your turn · Pickomino")

    # Ana plays her turn on her own phone: the host's phone is told it is Bruno's, his.
    ana = new_phone()
    ana.goto(ana_link)
    expect(ana.locator(".who")).to_have_text("You are Ana")
    ana.locator('label[for="mode-quick"]').tap()
    ana.locator('label[for="quick-worm"]').tap()
    ana.locator('.counts[data-face="worm"] button.count').nth(4).tap()  # 5 worms: 25
    ana.get_by_role("button", name="Stop and take 25").tap()
    expect(host.locator(".status")).to_have_text("Your turn", timeout=SYNC_TIMEOUT_MS)
    expect(host).to_have_title("Your turn · Pickomino")
    expect(host.locator("[data-turn-said]")).to_have_text("Your turn")
    assert asked(host)["vibrate"] >= 1
    expect(host.locator(".host-choices")).to_have_count(0)  # his own turn: his own controls, not "Enter for:"
    fits_the_phone(host, shots_dir, "host-plays-03-your-turn")

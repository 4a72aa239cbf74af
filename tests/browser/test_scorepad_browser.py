"""A score pad for Azul on three phones in a real browser, 360 px wide (issue 42): the host
sets the sheet up on the start form, every player enters their own points at the same time,
hidden from the others until the round closes, and the results explain the tie.

Ana, Bruno and Caio play two rounds, ties broken by the last round. In round 1 Bruno and
Caio type their points while Ana enters hers: their phones refresh by themselves, show a ✓
for Ana and not her points, and keep what they typed; then Bruno and Caio tap at the same
moment, and both are taken. The round closes on every phone. In round 2 the last entry ends
the game: Ana and Bruno tie on 20, Bruno's better last round wins it, and the results say
so, with the chart round by round. No phone is ever reloaded.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .phones import join

PLAYERS = ["Ana", "Bruno", "Caio"]


def row(phone: Page, seat: int):
    return phone.locator(f'.sp-sheet tbody tr[data-seat="{seat}"]')


def points_field(phone: Page):
    return phone.get_by_role("spinbutton", name="Points")


def fits(phone: Page) -> bool:
    return phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")


def test_an_azul_score_pad_by_rounds_on_three_phones(new_phone, live_server, shots_dir):
    host = new_phone()
    host.goto(live_server.url + "/")
    host.get_by_label("Game").select_option(value="score-pad")
    for position, name in enumerate(PLAYERS, start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    sheet = host.locator('fieldset.options[data-game="score-pad"]')
    sheet.get_by_label("Title").fill("Azul")
    sheet.get_by_label("Rounds").fill("2")
    sheet.get_by_label("The better last round decides").check()
    assert fits(host)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.locator(".join-code")).to_have_count(3)
    links = host.locator(".join-link").all_text_contents()
    ana, bruno, caio = phones = [join(new_phone, link, name) for link, name in zip(links, PLAYERS)]

    for phone in phones:
        expect(phone.locator("h1.table-id")).to_contain_text("Azul")
        expect(phone.locator(".sp-round-title")).to_have_text("Round 1 of 2")
        expect(phone.locator(".sp-waiting")).to_contain_text("Waiting for Ana, Bruno, Caio")

    # Bruno and Caio type while Ana enters hers: their typing survives the refresh
    points_field(bruno).fill("12")
    points_field(caio).fill("7")
    points_field(ana).fill("15")
    ana.get_by_role("button", name="Enter my points").tap()
    expect(ana.locator(".sp-waiting")).to_contain_text("You entered 15: hidden from the others until everyone has entered.")
    expect(ana.locator("form.sp-entry")).to_have_count(0)
    for phone in (bruno, caio):
        expect(phone.locator(".sp-waiting")).to_contain_text("Waiting for Bruno, Caio")
        expect(row(phone, 0).locator(".sp-open")).to_have_text("✓entered")
        expect(row(phone, 0)).not_to_contain_text("15")
    expect(points_field(bruno)).to_have_value("12")
    expect(points_field(caio)).to_have_value("7")
    bruno.screenshot(path=str(shots_dir / "scorepad-bruno-typing.png"), full_page=True)
    assert all(fits(phone) for phone in phones)

    # both at the same moment: neither is refused for the other's entry
    bruno.get_by_role("button", name="Enter my points").click(no_wait_after=True)
    caio.get_by_role("button", name="Enter my points").click(no_wait_after=True)
    for phone in phones:
        expect(phone.locator(".sp-round-title")).to_have_text("Round 2 of 2")
        expect(row(phone, 0).locator(".player-points")).to_have_text("15")
        expect(row(phone, 1).locator(".player-points")).to_have_text("12")
        expect(row(phone, 2).locator(".player-points")).to_have_text("7")
    expect(bruno.locator(".error")).to_have_count(0)
    expect(caio.locator(".error")).to_have_count(0)

    # round 2: the last entry ends the game; Ana and Bruno tie on 20, Bruno's last round wins
    for phone, points in ((ana, "5"), (caio, "3"), (bruno, "8")):
        points_field(phone).fill(points)
        phone.get_by_role("button", name="Enter my points").tap()
        expect(phone.locator("form.sp-entry")).to_have_count(0)
    tie = "Bruno and Ana tied on 20 points; the last round decided (Bruno 8, Ana 5)."
    for phone in phones:
        expect(phone.locator(".ranking .rank-name")).to_have_text(["Bruno", "Ana", "Caio"])
        expect(phone.locator(".ranking .tiebreak")).to_have_text(tie)
    caio.screenshot(path=str(shots_dir / "scorepad-finished.png"), full_page=True)

    ana.get_by_role("link", name="Results, log and downloads").tap()
    expect(ana.locator("h1")).to_have_text("Results")
    expect(ana.locator(".table-id")).to_contain_text("Azul")
    expect(ana.locator(".score-chart")).to_contain_text("the game, round by round")
    assert len(ana.locator('.score-chart polyline[data-seat="1"]').get_attribute("points").split()) == 3
    assert re.match(r"Azul · ", ana.locator(".share").get_attribute("data-share-text"))
    assert fits(ana)
    ana.screenshot(path=str(shots_dir / "scorepad-results.png"), full_page=True)
    for phone in (bruno, caio):
        assert phone.evaluate("window.notReloaded")

"""A Lobo table on two phones in a real browser (issue 5).

The host starts the table from the home page form with dealt colours; Ana and Bruno open
their join links on their own phones. Bruno's phone is never reloaded: it must show Ana's
colour by itself once she reveals it, and never before.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .phones import join

COLORS = ("red", "blue", "yellow", "black")


def start_lobo(new_phone, server_url: str, names: list[str]) -> dict[str, str]:
    host = new_phone()
    host.goto(server_url + "/")
    host.get_by_label("Game").select_option(label="Lobo")
    expect(host.get_by_label(re.compile("Deal the colours"))).to_be_checked()  # on by default
    for position, name in enumerate(names, start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.get_by_role("heading", name="Everyone scans their own code")).to_be_visible()
    links = {}
    for name in names:
        code = host.locator(".join-code").filter(has=host.locator(".join-name", has_text=re.compile(rf"^{name}$")))
        links[name] = code.get_by_role("link").get_attribute("href")
    return links


def seat_row(phone: Page, seat: int):
    return phone.locator(f'.lobo-seat[data-seat="{seat}"]')


def test_two_phones_one_reveals_the_other_sees_it(new_phone, live_server, shots_dir):
    links = start_lobo(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, links["Ana"], "Ana")
    bruno = join(new_phone, links["Bruno"], "Bruno")

    # Ana's colour is behind a cover on her phone, and nowhere on Bruno's
    cover = seat_row(ana, 0).locator("details.flock-cover")
    own = cover.locator(".flock")
    expect(own).to_be_hidden()
    cover.locator("summary").tap()
    expect(own).to_be_visible()
    color = own.inner_text().strip()
    assert color in COLORS
    ana.screenshot(path=str(shots_dir / "lobo-ana-own-colour.png"), full_page=True)
    expect(seat_row(bruno, 0)).to_contain_text("secret colour")
    assert color not in bruno.locator("#table").inner_text()

    # a colour shown cannot be hidden again: the first tap only asks
    ana.locator("details.lobo-reveal summary", has_text="Reveal my colour").tap()
    expect(seat_row(bruno, 0)).to_contain_text("secret colour")
    ana.get_by_role("button", name="Yes, show my colour to everyone").tap()
    expect(seat_row(ana, 0).locator(f".flock-{color}")).to_be_visible()

    # Bruno's phone shows it by itself (polling), without a reload
    expect(seat_row(bruno, 0).locator(f".flock.flock-{color}")).to_have_text(color)
    assert bruno.evaluate("window.notReloaded === true")
    bruno.screenshot(path=str(shots_dir / "lobo-bruno-sees-reveal.png"), full_page=True)

    # Bruno leaves with the first bonus; Ana's phone shows it
    bruno.locator("details.lobo-leave summary").tap()  # asks once more
    bruno.get_by_role("button", name="Yes, I leave the game").tap()
    expect(seat_row(ana, 1)).to_contain_text("Left the game as number 1: bonus 6")

    # Ana says all tiles are placed; both enter their meadows in the form
    ana.locator("details.lobo-end summary").tap()
    ana.get_by_role("button", name="Yes, end the game").tap()
    expect(ana.get_by_role("heading", name="Your meadows")).to_be_visible()
    rows = ana.locator("fieldset.meadow-row")
    rows.nth(0).get_by_label("Sheep").fill("9")
    rows.nth(0).get_by_label("Fenced").check()
    rows.nth(1).get_by_label("Sheep").fill("14")
    rows.nth(1).get_by_label("Fenced").check()
    rows.nth(1).get_by_label("Uncovered wolf").check()
    ana.screenshot(path=str(shots_dir / "lobo-meadows-form.png"), full_page=True)

    # Bruno is typing his meadows while Ana's entry reaches his phone: what he typed stays
    expect(bruno.get_by_role("heading", name="Your meadows")).to_be_visible()
    bruno_sheep = bruno.locator("fieldset.meadow-row").nth(0).get_by_label("Sheep")
    bruno_sheep.fill("3")
    ana.get_by_role("button", name="Enter the meadows").tap()
    expect(seat_row(ana, 0).locator(".meadow-counts")).to_contain_text("9 sheep")
    expect(seat_row(ana, 0).locator(".meadow-counts")).to_be_visible()
    expect(seat_row(ana, 0)).to_contain_text("does not count: it borders a forest with an uncovered wolf.")
    expect(seat_row(bruno, 0).locator(".meadow-counts")).to_contain_text("9 sheep")  # his page refreshed
    expect(bruno_sheep).to_have_value("3")
    bruno.locator("fieldset.meadow-row").nth(0).get_by_label("Fenced").check()
    bruno.get_by_role("button", name="Enter the meadows").tap()

    # 9 + 0 against 3 + 6: tied on 9, the larger meadow decides
    for phone in (ana, bruno):
        ranking = phone.locator(".ranking")
        expect(ranking).to_contain_text("Ana and Bruno tied on 9 points; the larger meadow decided (Ana 9, Bruno 3).")
        expect(ranking.locator(".place").first).to_contain_text("Ana")
    ana.screenshot(path=str(shots_dir / "lobo-ranking.png"), full_page=True)


def test_a_correction_being_typed_stays_when_another_phone_enters_its_meadows(new_phone, push_server):
    """Ana has entered her meadows and is typing a correction when Bruno enters his: her
    page updates and her typing stays in her form (the rows' id must be one htmx can look up)."""
    links = start_lobo(new_phone, push_server, ["Ana", "Bruno", "Caio"])
    ana, bruno = join(new_phone, links["Ana"], "Ana"), join(new_phone, links["Bruno"], "Bruno")
    errors = []
    ana.on("pageerror", lambda error: errors.append(str(error)))
    ana.locator("details.lobo-end summary").tap()
    ana.get_by_role("button", name="Yes, end the game").tap()
    expect(bruno.get_by_role("heading", name="Your meadows")).to_be_visible()

    def meadow(phone: Page, row: int):
        return phone.locator("#table fieldset.meadow-row").nth(row)

    meadow(ana, 0).get_by_label("Sheep").fill("9")
    meadow(ana, 0).get_by_label("Fenced").check()
    ana.get_by_role("button", name="Enter the meadows").tap()
    expect(ana.get_by_role("button", name="Correct the meadows")).to_be_visible()
    version = ana.locator("#table").get_attribute("data-version")
    meadow(ana, 0).get_by_label("Sheep").fill("12")
    meadow(ana, 1).get_by_label("Sheep").fill("4")

    meadow(bruno, 0).get_by_label("Sheep").fill("3")
    bruno.get_by_role("button", name="Enter the meadows").tap()
    expect(ana.locator("#table")).not_to_have_attribute("data-version", version)
    expect(meadow(ana, 0).get_by_label("Sheep")).to_have_value("12")
    expect(meadow(ana, 1).get_by_label("Sheep")).to_have_value("4")
    expect(ana.locator(".meadow-rows")).to_have_count(1)
    assert errors == []
    ana.get_by_role("button", name="Correct the meadows").tap()
    expect(meadow(ana, 0).get_by_label("Sheep")).to_have_value("12")
    assert ana.evaluate("window.notReloaded === true")

"""Twenty One on three phones in a real browser (issue 4): everyone writes on their own
sheet at the same time.

Ana, Bruno and Caio have sheets A, B and C. Ana taps the roll in; every phone shows it.
Each player ticks the dice for their own sheet; while the others write, their phones
refresh by themselves and a tick already made survives it. The waiting list shrinks on
every phone as players write, and the next round starts when the last one has written.
In the second round all three tap "Enter" at the same moment, and all three are taken.
No phone is ever reloaded.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .phones import join

PLAYERS = ["Ana", "Bruno", "Caio"]
# Row 1 of sheet A: yellow 6, green 5, red 4, white 3, black 2, blue 1
#              of B: red 6, blue 5, white 4, yellow 3, green 2, black 1
#              of C: green 6, yellow 5, blue 4, black 3, white 2, red 1
HIT = re.compile(r"\btw-hit\b")
FIRST_ROLL = {"white": 3, "black": 1, "red": 6, "blue": 2, "yellow": 5, "green": 4}


def tap_roll(phone: Page, roll: dict[str, int]) -> None:
    for color, value in roll.items():
        phone.locator("label.tw-face").filter(has=phone.locator(f'input[name="action.dice.{color}"][value="{value}"]')).tap()
    phone.get_by_role("button", name="Enter the roll").tap()


def tick(phone: Page, *colors: str) -> None:
    for color in colors:
        phone.locator("label.tw-pick").filter(has=phone.locator(f'input[value="{color}"]')).tap()
        expect(pick(phone, color)).to_be_checked()


def pick(phone: Page, color: str):
    return phone.locator(f'input[name="action.colors[]"][value="{color}"]')


def own_field(phone: Page, seat: int, row: int, color: str):
    sheet = phone.locator(f'.tw-mine .tw-sheet[data-seat="{seat}"]')
    return sheet.locator(".tw-row").nth(row).locator(f'.tw-field[data-color="{color}"]')


def waiting(phone: Page):
    return phone.locator(".tw-waiting")


def test_three_phones_write_the_same_roll_each_on_their_own_sheet(new_phone, live_server, shots_dir):
    table = live_server.create(PLAYERS, game="twenty-one", options={"sheets": ["A", "B", "C"]})
    ana, bruno, caio = phones = [join(new_phone, seat["join_url"], seat["name"]) for seat in table["seats"]]

    # each phone shows its own sheet first, with its letter
    for seat, phone in enumerate(phones):
        mine = phone.locator(".tw-mine .tw-sheet")
        expect(mine).to_have_attribute("data-seat", str(seat))
        expect(mine.locator(".tw-letter")).to_have_text("ABC"[seat])
        expect(phone.locator(".tw-others .tw-sheet")).to_have_count(2)  # the others' sheets, to look at
    expect(waiting(bruno)).to_have_text("Waiting for Ana to roll.")
    expect(bruno.locator("form.tw-roll")).to_have_count(0)

    # Ana taps the roll in; it appears on every phone
    tap_roll(ana, FIRST_ROLL)
    for phone in phones:
        expect(waiting(phone)).to_have_text("Waiting for: Ana, Bruno, Caio")
        for color, value in FIRST_ROLL.items():
            expect(phone.locator(f'.tw-dice .tw-die[data-color="{color}"]')).to_contain_text(str(value))

    # only the dice that fit each sheet can be ticked, and each shows its field
    expect(pick(bruno, "red")).to_have_count(1)
    expect(bruno.locator("label.tw-pick").filter(has=pick(bruno, "red"))).to_contain_text("→ field 6 · hit")
    expect(pick(bruno, "yellow")).to_have_count(0)  # the yellow 5 is higher than Bruno's yellow 3
    expect(bruno.locator(".tw-unfit")).to_have_count(2)

    # Bruno and Caio tick their dice; Ana writes first; their phones refresh by themselves
    tick(bruno, "red", "black")
    tick(caio, "yellow", "green")
    tick(ana, "yellow", "white")
    ana.get_by_role("button", name="Enter the chosen dice").tap()
    expect(waiting(ana)).to_have_text("Waiting for: Bruno, Caio")
    expect(own_field(ana, 0, 0, "yellow")).to_contain_text("5")
    expect(own_field(ana, 0, 0, "white")).to_have_class(HIT)
    expect(ana.locator("form.tw-write")).to_have_count(0)  # Ana has written this round
    for phone in (bruno, caio):
        expect(waiting(phone)).to_have_text("Waiting for: Bruno, Caio")
        expect(phone.locator('.tw-others .tw-sheet[data-seat="0"] .tw-field[data-color="yellow"]').first).to_contain_text("5")
    # the ticks made before the refresh are still there
    expect(pick(bruno, "red")).to_be_checked()
    expect(pick(bruno, "black")).to_be_checked()
    expect(pick(caio, "yellow")).to_be_checked()
    bruno.screenshot(path=str(shots_dir / "twentyone-bruno-ticked.png"), full_page=True)

    bruno.get_by_role("button", name="Enter the chosen dice").tap()
    expect(waiting(bruno)).to_have_text("Waiting for: Caio")
    expect(waiting(caio)).to_have_text("Waiting for: Caio")
    expect(waiting(ana)).to_have_text("Waiting for: Caio")
    expect(pick(caio, "green")).to_be_checked()
    caio.get_by_role("button", name="Enter the chosen dice").tap()

    # round 2: Bruno rolls
    for phone in phones:
        expect(phone.locator(".tw-round-title")).to_have_text("Round 2 · Bruno rolls")
    expect(waiting(ana)).to_have_text("Waiting for Bruno to roll.")
    expect(own_field(bruno, 1, 0, "red")).to_have_class(HIT)
    expect(own_field(caio, 2, 0, "yellow")).to_contain_text("5")
    tap_roll(bruno, {"white": 1, "black": 1, "red": 1, "blue": 1, "yellow": 1, "green": 1})
    for phone in phones:
        expect(waiting(phone)).to_have_text("Waiting for: Ana, Bruno, Caio")

    # all three tick and tap "Enter" at the same moment: every entry is taken
    tick(ana, "blue")
    tick(bruno, "green")
    tick(caio, "white")
    for phone in phones:
        phone.get_by_role("button", name="Enter the chosen dice").tap(no_wait_after=True)
    for phone in phones:
        expect(phone.locator(".tw-round-title")).to_have_text("Round 3 · Caio rolls")
    expect(own_field(ana, 0, 0, "blue")).to_contain_text("1")
    expect(own_field(bruno, 1, 0, "green")).to_contain_text("1")
    expect(own_field(caio, 2, 0, "white")).to_contain_text("1")
    ana.screenshot(path=str(shots_dir / "twentyone-ana-round-3.png"), full_page=True)
    for phone in phones:
        assert phone.evaluate("window.notReloaded === true")


@pytest.mark.parametrize("width", [360, 320])
def test_every_face_to_tap_is_a_thumb_wide_at_360_and_320_px_in_every_language(new_phone, live_server, width):
    """Six faces a die beside the colour's name: each face at least 44 px square, and the
    colour's name inside its column, in the longest of the four languages' names too. At
    320 px (helper QA: faces 37.8 px wide, 3 px apart) the name goes above its faces."""
    for locale in ["en-GB", "pt-BR", "fr-FR", "ro-RO"]:
        table = live_server.create(PLAYERS, game="twenty-one")  # Ana's seat, opened on one phone only
        ana = new_phone(locale=locale, viewport={"width": width, "height": 740})
        ana.goto(table["seats"][0]["join_url"])
        expect(ana.locator("form.tw-roll")).to_be_visible()
        faces = ana.locator("label.tw-face").evaluate_all(
            "labels => labels.map(label => [label.getBoundingClientRect().width, label.getBoundingClientRect().height])"
        )
        assert len(faces) == 36, faces
        small = [size for size in faces if min(size) < 44]
        assert not small, f"{locale}: faces under 44 px: {small[:3]}"
        names = ana.locator(".tw-die-input legend").evaluate_all(
            "legends => legends.map(legend => [legend.textContent.trim(), legend.scrollWidth - legend.clientWidth])"
        )
        assert all(overflow <= 0 for _, overflow in names), f"{locale}: colour names wider than their column: {names}"
        overflow = ana.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{locale}: the page is {overflow}px wider than the phone"


def test_the_printed_sheet_picker_shows_the_keyboards_focus_and_names_each_field(live_server, new_phone):
    """Copying a printed sheet's colours: swatches of colour alone, so the hint says their
    order; each field is a named group of its six colours; the keyboard's focus is seen."""
    phone = new_phone()
    phone.goto(live_server.url + "/")
    phone.get_by_label("Game").select_option(label="Twenty One")
    copy = phone.locator("details.tw-copy").first
    copy.locator("summary").tap()
    expect(copy.locator(".hint")).to_contain_text("Under each number the colours are, top to bottom: white, black, red, blue, yellow and green.")
    field = copy.get_by_role("radiogroup", name="Field 6").first
    expect(field.get_by_role("radio")).to_have_count(6)
    expect(field.get_by_role("radio", name="green")).to_have_count(1)
    phone.keyboard.press("Tab")  # from the summary to the first swatch
    focused = phone.evaluate("document.activeElement.name + ' ' + getComputedStyle(document.activeElement.closest('label')).outlineStyle")
    assert focused == "twenty-one.sheet_layouts.0.0.0 dashed", focused

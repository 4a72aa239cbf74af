"""Colour never carries meaning alone: whatever the companion tells apart by colour also
shows a name, a number, a shape or a pattern that tells it apart, for a player who does
not see the difference between red and green (or yellow and white). Qwixx's rows and dice
(a shape each), Heckmeck Barbecue's plates (the seat's number), Lobo's flocks (the colour's
name), the results chart's lines (their dashes), on a phone and on the table screen."""

from __future__ import annotations

from collections import defaultdict

from playwright.sync_api import Page

from .late_tables import BUILDERS

# For each kind of coloured thing: its elements, its colour, and what else it shows (the
# links of its drawn shapes, its visible text, a line's dashes), as the browser draws it.
SIGNS = """(kind) => {
  const drawn = element => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden"
    && element.getBoundingClientRect().width >= 4 && !element.closest(".visually-hidden");
  const shapes = element => [...element.querySelectorAll("use")].filter(use => drawn(use.closest("svg"))).map(use => use.getAttribute("href"));
  const text = element => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const parts = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.data.trim() && drawn(node.parentElement)) parts.push(node.data.trim());
    return parts.join(" ");
  };
  const colourClass = (element, prefix) => [...element.classList].find(name => name.startsWith(prefix) && name !== prefix + "die" && name !== prefix + "row");
  const kinds = {
    "qwixx rows": () => [...document.querySelectorAll(".qx-row")].map(row => [row.dataset.row, shapes(row).join()]),
    "qwixx dice": () => [...document.querySelectorAll(".qx-dice .qx-die")].map(die => [colourClass(die, "qx-"), shapes(die).join()]),
    "barbecue plates": () => [...document.querySelectorAll(".plate")].filter(drawn).map(plate => [colourClass(plate, "plate-"), text(plate)]),
    "lobo flocks": () => [...document.querySelectorAll(".flock:not(.flock-hidden)")].filter(drawn).map(flock => [colourClass(flock, "flock-"), text(flock)]),
    "chart lines": () => [...document.querySelectorAll(".score-chart polyline[data-seat]")].map(line => [line.getAttribute("stroke"), line.getAttribute("stroke-dasharray") || "solid"]),
  };
  return kinds[kind]();
}"""


def signs_by_colour(page: Page, kind: str) -> dict[str, set[str]]:
    found = defaultdict(set)
    for colour, sign in page.evaluate(SIGNS, kind):
        found[colour].add(sign)
    return found


def check_told_apart(page: Page, kind: str, colours: int, where: str, unmarked: str | None = None) -> None:
    """Each of at least `colours` colours shows one sign, its own (an empty one only for the
    colour `unmarked`: the white dice among coloured ones)."""
    found = signs_by_colour(page, kind)
    assert len(found) >= colours, f"{where}: {kind}: {dict(found)}"
    for colour, signs in found.items():
        assert len(signs) == 1, f"{where}: {kind}: {colour} shows {signs}"
        assert colour == unmarked or "" not in signs, f"{where}: {kind}: {colour} is told by its colour alone"
    signs = [next(iter(signs)) for signs in found.values()]
    assert len(set(signs)) == len(signs), f"{where}: {kind}: two colours show the same sign: {dict(found)}"


def pages_of(new_phone, table) -> list[tuple[str, Page]]:
    """The table as its first seat's phone shows it, and its table screen on a TV."""
    phone = new_phone()
    phone.goto(table.join_urls[0])
    phone.locator("#table").wait_for()
    tv = new_phone(viewport={"width": 1280, "height": 720}, is_mobile=False, has_touch=False, device_scale_factor=1)
    tv.goto(f"{table.url}/t/{table.id}/screen")
    tv.locator("#screen").wait_for()
    return [("phone", phone), ("table screen", tv)]


def test_qwixx_rows_and_dice_each_show_their_own_shape(live_server, new_phone):
    table = BUILDERS["qwixx"](live_server.url, 4, "late")  # dice rolled, the white sum under way
    for where, page in pages_of(new_phone, table):
        check_told_apart(page, "qwixx rows", 4, where)
        check_told_apart(page, "qwixx dice", 5, where, unmarked="qx-white")


def test_heckmeck_barbecue_plates_show_their_players_seat_number(live_server, new_phone):
    table = BUILDERS["heckmeck-barbecue"](live_server.url, 5, "late")  # plates of all five on the grill
    for where, page in pages_of(new_phone, table):
        check_told_apart(page, "barbecue plates", 5, where)
        shown = page.eval_on_selector_all(
            ".players .plate", "plates => plates.map(plate => plate.textContent.replace(plate.querySelector('.visually-hidden').textContent, '').trim())"
        )
        assert shown == ["1", "2", "3", "4", "5"], (where, shown)  # in seating order: the list is the plates' legend


def test_lobo_flocks_name_their_colour(live_server, new_phone):
    table = BUILDERS["lobo"](live_server.url, 4, "finished")  # every colour shown after the count
    for where, page in pages_of(new_phone, table):
        check_told_apart(page, "lobo flocks", 4, where)


def test_the_results_charts_lines_each_have_their_own_dashes(live_server, new_phone):
    table = BUILDERS["pickomino"](live_server.url, 7, "finished")
    phone = new_phone()
    phone.goto(f"{live_server.url}/t/{table.id}/results")
    check_told_apart(phone, "chart lines", 7, "results")

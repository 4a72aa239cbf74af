"""The table screen is made for a TV read from three metres (issue 17): at 1280 x 720 and
1920 x 1080, for every game in play and finished, nothing overflows the screen's width,
the key numbers (scores, the turn's total, the grill's tiles) are large and within the
first screen. And the results' Share button sends the text and a PNG picture."""

from __future__ import annotations

import time

import pytest
import requests
from playwright.sync_api import Page, expect

from companion.games import GAMES

W = "worm"
# The smallest font size of a key number, in CSS pixels, by screen width: read from 3 m.
LEAST_KEY_SIZE = {1280: 28, 1920: 40}


def started(server, game: str, players: list[str], actions: list[dict], options=None) -> str:
    created = requests.post(
        server.url + "/api/tables", json={"game": game, "players": players, "options": options or {}}, timeout=10
    ).json()
    for action in actions:
        answer = requests.post(
            f"{server.url}/api/tables/{created['id']}/actions", json=action,
            headers={"Authorization": f"Bearer {created['host_token']}"}, timeout=10,
        )
        assert answer.status_code == 200, answer.text
    return created["id"]


# Each game of the registry at its last scene before the end, and at its end (Game.scenes).
SCREENS = [
    (slug, name)
    for slug, game in GAMES.items()
    for name in [[name for name in game.scenes() if name != "finished"][-1], "finished"]
]


def at_scene(server, slug: str, name: str) -> str:
    scene = GAMES[slug].scenes()[name]
    actions = [{**action, "seat": seat} for seat, action in scene.actions]
    return started(server, slug, list(scene.players), actions, scene.options)


def finished(server, players=("Ana", "Bruno", "Caio")) -> tuple[str, list[str]]:
    """A Pickomino game played to its end: the ranking's scores are the key numbers."""
    actions = []
    for tile in range(21, 37):
        worms, rest = divmod(tile, 5)
        actions.append({"type": "set_aside", "face": W, "count": worms})
        if rest:
            actions.append({"type": "set_aside", "face": rest, "count": 1})
        if worms + bool(rest) < 8:
            actions.append({"type": "stop"})
    return started(server, "pickomino", list(players), actions), [".rank-score"]


def check_fits_and_reads_from_afar(screen: Page, selectors: list[str], width: int) -> None:
    overflow = screen.evaluate(
        """() => {
            const width = innerWidth;
            const wide = [...document.querySelectorAll('body *')]
                .filter(element => element.getBoundingClientRect().right > width + 1)
                .map(element => element.className || element.tagName);
            return [document.documentElement.scrollWidth - width, wide.slice(0, 5)];
        }"""
    )
    assert overflow == [0, []], f"wider than the screen: {overflow}"
    for selector in selectors:
        sizes = screen.locator(selector).evaluate_all(
            """elements => elements.map(element => [parseFloat(getComputedStyle(element).fontSize),
                element.getBoundingClientRect().bottom])"""
        )
        assert sizes, selector
        smallest = min(size for size, _bottom in sizes)
        assert smallest >= LEAST_KEY_SIZE[width], f"{selector} is {smallest} px at {width} px wide"
        first = sizes[0][1]
        assert first <= screen.viewport_size["height"], f"{selector} is below the first screen"


@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("slug, scene", SCREENS)
def test_the_table_screen_fits_a_tv_and_its_key_numbers_read_from_three_metres(
    live_server, new_phone, shots_dir, slug, scene, width, height
):
    """The key numbers are what each game's templates mark `key-number` (scores, the
    turn's total, the grill's tiles)."""
    table_id = at_scene(live_server, slug, scene)
    screen = new_phone(viewport={"width": width, "height": height}, is_mobile=False, has_touch=False, device_scale_factor=1)
    screen.goto(f"{live_server.url}/t/{table_id}/screen")
    expect(screen.locator("#screen")).to_be_visible()
    check_fits_and_reads_from_afar(screen, [".key-number"], width)
    screen.screenshot(path=str(shots_dir / f"tv-{slug}-{scene}-{width}.png"))


def test_share_sends_the_text_and_a_png_through_the_share_sheet(live_server, new_phone):
    table_id, _selectors = finished(live_server)
    phone = new_phone()
    phone.add_init_script(
        """window.shared = [];
           navigator.canShare = () => true;
           navigator.share = data => {
             const file = data.files && data.files[0];
             return (file ? file.arrayBuffer() : Promise.resolve(new ArrayBuffer(0))).then(bytes => {
               window.shared.push({text: data.text, name: file && file.name, type: file && file.type,
                                   head: Array.from(new Uint8Array(bytes).slice(0, 8))});
             });
           };"""
    )
    phone.goto(f"{live_server.url}/t/{table_id}/results")
    phone.get_by_role("button", name="Share the results").tap()
    deadline = time.monotonic() + 10  # wait_for_function evaluates a string: the page's CSP forbids it
    while phone.evaluate("window.shared.length") == 0 and time.monotonic() < deadline:
        phone.wait_for_timeout(100)
    shared = phone.evaluate("window.shared[0]")
    assert shared["text"].split("\n")[1:] == ["1. Ana: 15", "2. Caio: 13", "3. Bruno: 12"]
    assert (shared["name"], shared["type"]) == (f"pickomino-{table_id}.png", "image/png")
    assert shared["head"] == [137, 80, 78, 71, 13, 10, 26, 10]  # the PNG signature


def test_share_without_a_share_sheet_downloads_the_png(live_server, new_phone):
    table_id, _selectors = finished(live_server)
    phone = new_phone(is_mobile=False, has_touch=False, permissions=["clipboard-read", "clipboard-write"])
    phone.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    phone.goto(f"{live_server.url}/t/{table_id}/results")
    with phone.expect_download() as waiting:
        phone.get_by_role("button", name="Share the results").click()
    download = waiting.value
    assert download.suggested_filename == f"pickomino-{table_id}.png"
    with open(download.path(), "rb") as picture:
        assert picture.read(8) == b"\x89PNG\r\n\x1a\n"
    # nothing on the screen moved: the page says what was done (host QA)
    expect(phone.locator("[data-share-done]")).to_have_text(
        "The picture is saved in the phone's downloads and the text is copied: paste it into the group's chat."
    )
    expect(phone.locator("[data-share-saved]")).to_be_hidden()
    assert phone.evaluate("navigator.clipboard.readText()").split("\n")[1:] == ["1. Ana: 15", "2. Caio: 13", "3. Bruno: 12"]


def test_the_results_chart_and_the_links_read_and_tap_on_a_360_px_phone(live_server, new_phone, shots_dir):
    """The chart is drawn about 310 px wide there: its axis labels and legend are still at
    least 11 px tall, and the longest name allowed fits in it."""
    table_id, _selectors = finished(live_server, ["Maximiliana Wolkenstein!", "Bruno", "Caio"])  # 24 characters: the most
    phone = new_phone()
    phone.goto(f"{live_server.url}/t/{table_id}/results")
    chart = phone.locator("svg.score-chart")
    expect(chart).to_be_visible()
    texts = chart.locator("text").evaluate_all(
        "texts => texts.map(text => [text.textContent, text.getBoundingClientRect().height, text.getBoundingClientRect().right])"
    )
    right = chart.evaluate("svg => svg.getBoundingClientRect().right")
    assert len(texts) == 6, texts  # the two ends of the score axis, the time axis, a legend line each
    small = [(text, round(height, 1)) for text, height, _ in texts if height < 11]
    assert not small, f"chart text under 11 px on a phone: {small}"
    assert all(end <= right + 0.5 for _, _, end in texts), f"chart text past the chart's edge: {texts}"
    phone.screenshot(path=str(shots_dir / "results-chart-360.png"), full_page=True)
    # the links to the table and its screen, on the results and on the table page: a thumb's height
    for page in ("results", ""):
        phone.goto(f"{live_server.url}/t/{table_id}/{page}".rstrip("/"))
        heights = phone.locator(".table-links a").evaluate_all("links => links.map(link => link.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, (page, heights)

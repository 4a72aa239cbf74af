"""A whole evening in a real browser (issue 42): a Pickomino table played through the API
to its end, a score pad "Azul" by rounds entered on three phones 360 px wide, a 7
Wonders-style score pad by categories, and a Qwixx game and its rematch started from the
host's phone. It ends on the game night page, which lists every game and winner, and its
Share, whose text and picture (the PNG the phone draws from the server's SVG) name every
game, winner and the night's champions."""

from __future__ import annotations

import time
from xml.etree import ElementTree

import requests
from playwright.sync_api import Page, expect

from companion.games import GAMES

SVG = "{http://www.w3.org/2000/svg}"
W = "worm"


def act(server, table_id: str, token: str, action: dict) -> None:
    answer = requests.post(
        f"{server.url}/api/tables/{table_id}/actions", json=action, headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert answer.status_code == 200, answer.text


def pickomino(server) -> str:
    """Ana 15 worms, Caio 13, Bruno 12: each takes the grill's tiles in turn."""
    created = server.create(players=("Ana", "Bruno", "Caio"))
    for tile in range(21, 37):
        worms, rest = divmod(tile, 5)
        act(server, created["id"], created["host_token"], {"type": "set_aside", "face": W, "count": worms})
        if rest:
            act(server, created["id"], created["host_token"], {"type": "set_aside", "face": rest, "count": 1})
        if worms + bool(rest) < 8:
            act(server, created["id"], created["host_token"], {"type": "stop"})
    return created["id"]


def start_on_the_form(host: Page, server, game: str, players: list[str]) -> None:
    """The host fills the start form in (its options are the caller's)."""
    host.goto(server.url + "/")
    host.get_by_label("Game").select_option(value=game)
    for position, name in enumerate(players, start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)


def join_links(host: Page, count: int) -> list[str]:
    expect(host.locator(".join-link")).to_have_count(count)
    return host.locator(".join-link").all_text_contents()


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[1]


def fits(phone: Page) -> bool:
    return phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")


def azul_on_phones(host: Page, server, new_phone) -> None:
    """Two rounds, each player's points on their own phone: Bruno 30, Ana 26, Caio 18."""
    start_on_the_form(host, server, "score-pad", ["Ana", "Bruno", "Caio"])
    sheet = host.locator('fieldset.options[data-game="score-pad"]')
    sheet.get_by_label("Title").fill("Azul")
    sheet.get_by_label("Rounds").fill("2")
    host.get_by_role("button", name="Start the table").tap()
    phones = []
    for link, name in zip(join_links(host, 3), ["Ana", "Bruno", "Caio"]):
        phone = new_phone()
        phone.goto(link)
        expect(phone.locator(".who")).to_have_text(f"You are {name}")
        phones.append(phone)
    for number, round_points in enumerate(((12, 14, 9), (14, 16, 9)), start=1):
        for phone, points in zip(phones, round_points):
            phone.get_by_role("spinbutton", name="Points").fill(str(points))
            phone.get_by_role("button", name="Enter my points").tap()
            if phone is not phones[-1]:  # the last entry closes the round
                expect(phone.locator("form.sp-entry")).to_have_count(0)
        if number == 1:
            for phone in phones:
                expect(phone.locator(".sp-round-title")).to_have_text("Round 2 of 2")
        assert all(fits(phone) for phone in phones)
    for phone in phones:
        expect(phone.locator(".ranking .rank-name")).to_have_text(["Bruno", "Ana", "Caio"])


def wonders(server) -> None:
    """One count across named categories: Caio 21 wins over Ana 17 and Bruno 14."""
    created = server.create(
        players=("Caio", "Ana", "Bruno"), game="score-pad",
        options={"title": "7 Wonders", "categories": ["Military", "Coins", "Science"], "rounds": 1},
    )
    sheets = ({"Military": 9, "Coins": 4, "Science": 8}, {"Military": 5, "Coins": 6, "Science": 6}, {"Military": 3, "Coins": 3, "Science": 8})
    for seat, sheet in enumerate(sheets):
        act(server, created["id"], created["seats"][seat]["token"], {"type": "score", "points": sheet})


def qwixx_and_its_rematch(host: Page, server) -> None:
    """Ana and Bruno cross the same sums and tie on 56 (Qwixx's "finished" scene), twice:
    the second game a rematch the host starts on their phone, entered with its new seats."""
    scene = GAMES["qwixx"].scenes()["finished"]
    start_on_the_form(host, server, "qwixx", ["Ana", "Bruno"])
    host.get_by_role("button", name="Start the table").tap()
    for table in ("first", "rematch"):
        tokens = [token_of(link) for link in join_links(host, 2)]
        table_id = host.url.split("/t/")[1].split("/")[0]
        for seat, action in scene.actions:
            act(server, table_id, tokens[seat], action)
        host.goto(f"{server.url}/t/{table_id}")
        if table == "first":
            host.get_by_role("button", name="Rematch").tap()
            expect(host).not_to_have_url(f"{server.url}/t/{table_id}")
            host.goto(host.url.rstrip("/") + "/join")


def test_a_whole_evening_ends_on_the_game_night_page_and_its_shared_picture(live_server, new_phone, shots_dir):
    pickomino(live_server)
    host = new_phone()
    azul_on_phones(host, live_server, new_phone)
    wonders(live_server)
    qwixx_and_its_rematch(host, live_server)

    host.goto(live_server.url + "/")
    host.get_by_role("link", name="Tonight's game night").tap()
    expect(host.locator("h1")).to_have_text("Game night")
    games = host.locator(".night-tables li")
    expect(games).to_have_count(5)
    expected = [
        ("Pickomino", "winner: Ana"), ("Azul", "winner: Bruno"), ("7 Wonders", "winner: Caio"),
        ("Qwixx", "winners: Ana and Bruno"), ("Qwixx", "winners: Bruno and Ana"),
    ]
    for item, (title, winners) in zip(games.all(), expected):
        expect(item).to_contain_text(title)
        expect(item).to_contain_text(winners)
    # Ana: Pickomino and both Qwixx games, 170 points; Bruno: Azul and both Qwixx games, 168
    expect(host.locator(".night-champion")).to_have_text("Ana and Bruno share the night, 3 wins each.")
    expect(host.locator(".night-people tbody tr")).to_have_count(3)
    assert fits(host)
    host.screenshot(path=str(shots_dir / "game-night-360.png"), full_page=True)

    share = host.get_by_role("button", name="Share the night")
    text = share.get_attribute("data-share-text").split("\n")
    assert text[1:] == [
        "1. Pickomino: Ana", "2. Azul: Bruno", "3. 7 Wonders: Caio", "4. Qwixx: Ana and Bruno", "5. Qwixx: Bruno and Ana",
        "Ana and Bruno share the night, 3 wins each.",
    ]
    # as the phone's script fetches it: in its language (en-GB's dates)
    picture = requests.get(live_server.url + share.get_attribute("data-share-image"), headers={"Accept-Language": "en-GB"}, timeout=10)
    assert picture.headers["Content-Type"].startswith("image/svg+xml")
    written = [element.text for element in ElementTree.fromstring(picture.text).iter(f"{SVG}text")]
    assert written[: len(text)] == text  # the picture names every game and winner, then the champions

    # Share on a phone with a share sheet: the PNG drawn from that picture
    host.evaluate(
        """() => { window.shared = [];
           navigator.canShare = () => true;
           navigator.share = data => data.files[0].arrayBuffer().then(bytes => {
             window.shared.push({text: data.text, name: data.files[0].name, type: data.files[0].type,
                                 head: Array.from(new Uint8Array(bytes).slice(0, 24)), size: bytes.byteLength});
           }); }"""
    )
    share.tap()
    deadline = time.monotonic() + 10  # wait_for_function evaluates a string: the page's CSP forbids it
    while host.evaluate("window.shared.length") == 0 and time.monotonic() < deadline:
        host.wait_for_timeout(100)
    shared = host.evaluate("window.shared[0]")
    assert shared["text"].split("\n") == text
    assert shared["type"] == "image/png" and shared["name"].startswith("night-") and shared["name"].endswith(".png")
    head = shared["head"]
    assert head[:8] == [137, 80, 78, 71, 13, 10, 26, 10]  # the PNG signature
    width, height = int.from_bytes(bytes(head[16:20]), "big"), int.from_bytes(bytes(head[20:24]), "big")
    assert (width, height) == (2 * 640, 2 * int(ElementTree.fromstring(picture.text).get("height")))  # drawn twice as sharp
    assert shared["size"] > 10_000  # a picture, not an empty canvas
    assert not host.script_errors

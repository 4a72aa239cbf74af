"""A Pickomino table played on phones in a real browser (issue 2).

Each test starts the table from the home page form like a host would, opens the players'
join links in their own browser contexts (their own phones), and plays by tapping.
The other phones are never reloaded: they must show each change by themselves.
"""

from __future__ import annotations

import re

import requests
from playwright.sync_api import Page, expect

from .conftest import PHONE, SYNC_TIMEOUT_MS

WORM = "worm"


# --- what a person does on a phone ---------------------------------------------------------
class Table:
    """A table started from the home page: the host's phone and each player's join link."""

    def __init__(self, host: Page, join_links: dict[str, str]):
        self.host = host
        self.join_links = join_links


def start_table(new_phone, server_url: str, names: list[str]) -> Table:
    host = new_phone()
    host.goto(server_url + "/")
    host.get_by_label("Game").select_option(label="Pickomino")
    for position, name in enumerate(names, start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.get_by_role("heading", name="Everyone scans their own code")).to_be_visible()
    links = {}
    for name in names:
        code = host.locator(".join-code").filter(has=host.locator(".join-name", has_text=re.compile(rf"^{name}$")))
        links[name] = code.get_by_role("link").get_attribute("href")
    return Table(host, links)


def join(new_phone, table: Table, name: str) -> Page:
    phone = new_phone()
    phone.goto(table.join_links[name])
    expect(phone.locator(".who")).to_have_text(f"You are {name}")
    # A page that reloads loses this mark: the tests check that it survives every update.
    phone.evaluate("window.notReloaded = true")
    return phone


def assert_not_reloaded(phone: Page) -> None:
    assert phone.evaluate("window.notReloaded === true"), "the page was reloaded"


def choose_mode(phone: Page, mode: str) -> None:
    phone.locator(".modes").get_by_text(mode, exact=True).tap()


def compose_roll(phone: Page, faces: list) -> None:
    """Roll by roll: tap the face of every die rolled."""
    choose_mode(phone, "Roll by roll")
    panel = phone.locator(".panel-roll")
    for face in faces:
        panel.locator(".face-row").get_by_role("button", name=str(face), exact=True).tap()


def enter_roll(phone: Page, faces: list) -> None:
    """Roll by roll: tap the face of every die rolled, then send the roll."""
    compose_roll(phone, faces)
    phone.locator(".panel-roll").get_by_role("button", name="Enter the roll").tap()


def keep(phone: Page, face) -> None:
    version = table_version(phone)
    phone.locator("form.keep").get_by_role("button", name=re.compile(rf"^{face} ")).tap()
    wait_for_new_version(phone, version)


def set_aside(phone: Page, face, count: int) -> None:
    """Quick entry: tap the face set aside, then how many dice."""
    version = table_version(phone)
    choose_mode(phone, "Quick")
    panel = phone.locator(".panel-quick")
    panel.locator(f'label[for="quick-{face}"]').tap()
    panel.locator(f'.counts[data-face="{face}"]').get_by_role("button", name=str(count), exact=True).tap()
    wait_for_new_version(phone, version)


def tap(phone: Page, button_name: str) -> None:
    version = table_version(phone)
    phone.get_by_role("button", name=button_name).tap()
    wait_for_new_version(phone, version)


def tap_failing(phone: Page, summary: str) -> None:
    """A tap that fails the turn asks once more: the first tap changes nothing, the
    button it uncovers ends the turn."""
    version = table_version(phone)
    phone.locator("summary", has_text=summary).tap()
    confirm = phone.get_by_role("button", name="Yes, the turn fails")
    expect(confirm).to_be_visible()
    assert table_version(phone) == version
    confirm.tap()
    wait_for_new_version(phone, version)


def table_version(phone: Page) -> int:
    return int(phone.locator("#table").get_attribute("data-version"))


def wait_for_new_version(phone: Page, old: int) -> None:
    """The tapping phone's own answer has been swapped in."""
    expect(phone.locator("#table")).not_to_have_attribute("data-version", str(old))


def outcome(phone: Page):
    return phone.locator(".outcome")


def grill_tile(phone: Page, value: int):
    return phone.locator(".grill .tile", has=phone.locator(".tile-value", has_text=re.compile(rf"^{value}$")))


def player_row(phone: Page, name: str):
    return phone.locator(".players .player", has=phone.locator(".player-name", has_text=re.compile(rf"^{name}$")))


def log_lines(phone: Page):
    log = phone.locator("details.log")
    if log.get_attribute("open") is None:
        log.locator("summary").tap()
    return log.locator("li")


def fits_the_phone(phone: Page, shots_dir, name: str) -> None:
    """Nothing sticks out sideways at 360 px; the screenshot is kept to be looked at."""
    phone.screenshot(path=str(shots_dir / f"{name}.png"), full_page=True)
    overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name}: the page is {overflow}px wider than the {PHONE['viewport']['width']}px phone"


def tap_targets_are_large(phone: Page) -> None:
    """Every visible control on the controls panel is at least 44 px high (a thumb)."""
    sizes = phone.locator("#controls").evaluate(
        """controls => [...controls.querySelectorAll('button, label.tab, label.face-choice')]
             .filter(element => element.offsetParent !== null)
             .map(element => [element.textContent.trim(), element.getBoundingClientRect().height])"""
    )
    small = [(text, height) for text, height in sizes if height < 44]
    assert sizes and not small, f"tap targets under 44 px: {small}"


# --- the tests ---------------------------------------------------------------------------
def test_start_a_table_from_the_home_page_and_join_on_two_phones(live_server, new_phone, shots_dir):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    fits_the_phone(table.host, shots_dir, "01-join-codes")
    assert set(table.join_links) == {"Ana", "Bruno"}
    assert all(link.startswith(live_server.url + "/j/") for link in table.join_links.values())

    ana = join(new_phone, table, "Ana")
    bruno = join(new_phone, table, "Bruno")

    expect(ana.locator(".status")).to_have_text("Your turn")
    expect(bruno.locator(".status")).to_have_text("Ana's turn")
    expect(player_row(bruno, "Ana")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(ana.locator("#controls")).to_be_visible()
    expect(bruno.locator("#controls")).to_have_count(0)  # not his turn: nothing to tap
    expect(bruno.locator(".grill .tile")).to_have_count(16)
    expect(bruno.locator(".turn-dice-left")).to_have_text("8")
    expect(bruno.locator(".turn-worm")).to_have_text("no")
    fits_the_phone(ana, shots_dir, "02-table-your-turn")
    fits_the_phone(bruno, shots_dir, "03-table-watching")
    tap_targets_are_large(ana)


def test_a_second_phone_scanning_a_seat_s_code_is_asked_before_it_opens_the_seat(live_server, new_phone):
    """Game night: Ana scanned Bruno's code by mistake, then Bruno did: both phones were
    Bruno's, without a word. Once Bruno's seat is open on a phone, another phone that
    scans its code is asked; it may watch instead, or (Bruno on a new phone) open it too."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    first = new_phone()
    with first.expect_response(lambda answer: answer.url.endswith("/opened")) as said:
        first.goto(table.join_links["Bruno"])
    assert said.value.status == 200  # the page said the seat is open on this phone
    expect(first.locator(".who")).to_have_text("You are Bruno")

    second = new_phone()
    second.goto(table.join_links["Bruno"])
    expect(second.get_by_role("heading", name="Bruno's sheet is already open on another phone")).to_be_visible()
    assert second.evaluate("document.documentElement.clientWidth") == 360
    assert second.evaluate("document.scrollingElement.scrollWidth") <= 360
    second.get_by_role("link", name="I am not Bruno: watch the table").tap()
    expect(second.locator(".who")).to_have_text("You are watching")
    second.goto(table.join_links["Bruno"])
    with second.expect_response(lambda answer: answer.url.endswith("/opened")):
        second.get_by_role("link", name="I am Bruno: open it here too").tap()
    expect(second.locator(".who")).to_have_text("You are Bruno")
    assert not first.script_errors and not second.script_errors


def test_the_hosts_join_codes_say_each_seat_open_as_its_phone_opens_it(live_server, new_phone, shots_dir):
    """Host at a game night: nothing on the codes said who had still to scan. Each code says
    so, and changes by itself once the seat's page has loaded on a phone."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])

    def status(name: str):
        code = table.host.locator(".join-code").filter(has=table.host.locator(".join-name", has_text=re.compile(rf"^{name}$")))
        return code.locator(".join-status")

    expect(status("Ana")).to_have_text("Not scanned yet")
    join(new_phone, table, "Ana")
    expect(status("Ana")).to_have_text("Open on a phone", timeout=SYNC_TIMEOUT_MS)
    expect(status("Bruno")).to_have_text("Not scanned yet")
    join(new_phone, table, "Bruno")
    expect(status("Bruno")).to_have_text("Open on a phone", timeout=SYNC_TIMEOUT_MS)
    fits_the_phone(table.host, shots_dir, "01b-join-codes-opened")
    assert not table.host.script_errors


def test_the_start_form_shows_as_many_name_slots_as_the_chosen_game_seats(live_server, new_phone):
    """Game night: Lobo seats four, and the form still offered seven names to fill. And
    "Heckmeck Barbecue (2–5 players)" was cut in the select at 360 px: how many a game
    seats is said under it."""
    host = new_phone()
    host.goto(live_server.url + "/")
    expect(host.locator(".name-slot:visible")).to_have_count(5)  # Heckmeck Barbecue, the first game by title
    expect(host.locator("[data-game-players]")).to_have_text("2–5 players")
    host.locator("#game-choice").select_option("pickomino")
    expect(host.locator(".name-slot:visible")).to_have_count(7)
    host.locator("#game-choice").select_option("lobo")
    expect(host.locator(".name-slot:visible")).to_have_count(4)
    expect(host.locator("[data-game-players]")).to_have_text("2–4 players")
    host.locator("#game-choice").select_option("pickomino")
    host.get_by_label("Player 6", exact=True).fill("Fabi")
    host.locator("#game-choice").select_option("lobo")
    # a name already typed past the seats stays in sight: the table is refused, saying why
    expect(host.locator(".name-slot:visible")).to_have_count(5)
    expect(host.get_by_label("Player 6", exact=True)).to_be_visible()
    for seat, name in enumerate(["Ana", "Bruno", "Caio", "Dora"], start=1):
        host.get_by_label(f"Player {seat}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.locator(".error")).to_contain_text("Lobo is played by 2 to 4 players, not 5.")
    host.get_by_label("Player 6", exact=True).fill("")
    host.locator("#game-choice").select_option("qwixx")
    expect(host.locator(".name-slot:visible")).to_have_count(5)
    assert not host.script_errors


def test_rule_1_roll_by_roll_and_quick_entry_by_tapping_show_on_the_other_phone(live_server, new_phone, shots_dir):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    bruno = join(new_phone, table, "Bruno")

    # Roll by roll: the eight faces rolled, then the face kept.
    choose_mode(ana, "Roll by roll")
    panel = ana.locator(".panel-roll")
    for face in [WORM, WORM, 5, 3, 3, 1, WORM, 2]:
        panel.locator(".face-row").get_by_role("button", name=str(face), exact=True).tap()
    expect(panel.locator(".composed-count")).to_have_text("8 / 8")
    fits_the_phone(ana, shots_dir, "04-roll-composed")
    panel.get_by_role("button", name="Enter the roll").tap()
    expect(ana.locator("form.keep")).to_be_visible()
    expect(bruno.locator(".turn .roll")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
    fits_the_phone(ana, shots_dir, "05-which-face-to-keep")
    tap_targets_are_large(ana)

    keep(ana, WORM)
    expect(bruno.locator(".turn-total")).to_have_text("15", timeout=SYNC_TIMEOUT_MS)
    expect(bruno.locator(".turn-dice-left")).to_have_text("5")
    expect(bruno.locator(".turn-worm")).to_have_text("yes")
    expect(bruno.locator(".kept .group")).to_have_text(["worm×3"])

    # Quick: a face and a count for the next group, then stop.
    choose_mode(ana, "Quick")
    ana.locator('.panel-quick label[for="quick-5"]').tap()
    fits_the_phone(ana, shots_dir, "06-quick-counts")
    tap_targets_are_large(ana)
    ana.locator('.counts[data-face="5"]').get_by_role("button", name="3", exact=True).tap()
    expect(bruno.locator(".turn-total")).to_have_text("30", timeout=SYNC_TIMEOUT_MS)
    expect(ana.locator(".panel-quick .face-choice.taken")).to_have_count(2)  # worm and 5 are used up
    fits_the_phone(ana, shots_dir, "07-stop-offered")

    tap(ana, "Stop and take 30")
    expect(outcome(bruno)).to_have_text("Ana took 30 from the grill.", timeout=SYNC_TIMEOUT_MS)
    expect(player_row(bruno, "Ana").locator(".tile.small")).to_have_text("30")
    expect(player_row(bruno, "Ana").locator(".player-score")).to_contain_text("3 worms")
    expect(grill_tile(bruno, 30)).to_have_count(0)
    expect(bruno.locator(".status")).to_have_text("Your turn")
    expect(ana.locator(".status")).to_have_text("Bruno's turn", timeout=SYNC_TIMEOUT_MS)
    assert_not_reloaded(bruno)
    assert_not_reloaded(ana)
    fits_the_phone(bruno, shots_dir, "08-outcome-on-the-other-phone")


def test_rule_1_a_roll_with_nothing_new_fails_the_turn_by_itself(live_server, new_phone):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    bruno = join(new_phone, table, "Bruno")

    set_aside(ana, 4, 4)
    version = table_version(ana)
    compose_roll(ana, [4, 4, 4, 4])
    # a roll that fails the turn is entered only with a button of its own, in another place
    panel = ana.locator(".panel-roll")
    expect(panel.locator(".nothing-new .hint")).to_have_text("Nothing new in this roll: entering it fails your turn.")
    expect(panel.get_by_role("button", name="Enter the roll")).to_be_disabled()
    expect(panel.get_by_role("button", name="Yes, the turn fails")).to_be_visible()
    assert table_version(ana) == version
    # a change to the roll takes the question back
    panel.get_by_role("button", name="Clear").tap()
    expect(panel.locator(".nothing-new")).to_be_hidden()
    compose_roll(ana, [4, 4, 4, 4])
    panel.get_by_role("button", name="Yes, the turn fails").tap()
    wait_for_new_version(ana, version)
    expect(outcome(bruno)).to_have_text(
        "Ana failed (no new face in the roll): there was no tile to give back.", timeout=SYNC_TIMEOUT_MS
    )
    assert_not_reloaded(bruno)


def test_rule_2_failed_turn_returns_the_top_tile_and_turns_the_highest_over(live_server, new_phone, shots_dir):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    bruno = join(new_phone, table, "Bruno")

    set_aside(ana, WORM, 1)
    set_aside(ana, 4, 4)
    tap(ana, "Stop and take 21")
    expect(bruno.locator(".status")).to_have_text("Your turn", timeout=SYNC_TIMEOUT_MS)
    set_aside(bruno, WORM, 8)  # all dice set aside: the turn ends by itself, 40 takes 36
    expect(outcome(ana)).to_have_text("Bruno scored 40 and took 36 from the grill.", timeout=SYNC_TIMEOUT_MS)

    set_aside(ana, 2, 3)
    tap_failing(ana, "The roll gave nothing new: turn failed")
    expect(outcome(bruno)).to_have_text(
        "Ana failed (declared failed): 21 went back to the grill and 35 was turned over.",
        timeout=SYNC_TIMEOUT_MS,
    )
    expect(grill_tile(bruno, 35)).to_have_class(re.compile(r"\bface-down\b"))
    expect(grill_tile(bruno, 35)).to_contain_text("out")
    expect(grill_tile(bruno, 21)).not_to_have_class(re.compile(r"\bface-down\b"))
    expect(player_row(bruno, "Ana").locator(".player-score")).to_contain_text("0 worms")
    assert_not_reloaded(bruno)
    fits_the_phone(bruno, shots_dir, "09-face-down-tile")


def test_rule_2_choice_between_stealing_and_a_lower_grill_tile(live_server, new_phone, shots_dir):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    bruno = join(new_phone, table, "Bruno")

    set_aside(ana, WORM, 3)
    set_aside(ana, 5, 3)
    tap(ana, "Stop and take 30")
    expect(bruno.locator(".status")).to_have_text("Your turn", timeout=SYNC_TIMEOUT_MS)
    set_aside(bruno, WORM, 2)
    set_aside(bruno, 5, 4)  # 30: Ana's top tile, and 29 is on the grill

    expect(bruno.get_by_role("button", name="Stop and steal 30 from Ana")).to_be_visible()
    expect(bruno.get_by_role("button", name="Stop and take 29 from the grill instead")).to_be_visible()
    fits_the_phone(bruno, shots_dir, "10-steal-or-lower-tile")

    tap(bruno, "Stop and take 29 from the grill instead")
    expect(outcome(ana)).to_have_text(
        "Bruno scored 30 and took 29 from the grill instead of stealing.", timeout=SYNC_TIMEOUT_MS
    )
    expect(player_row(ana, "Ana").locator(".tile.small")).to_have_text("30")
    expect(player_row(ana, "Bruno").locator(".tile.small")).to_have_text("29")

    # Undone, the same result can steal instead.
    tap(bruno, "Undo the last action")
    tap(bruno, "Stop and steal 30 from Ana")
    expect(outcome(ana)).to_have_text("Bruno stole 30 from Ana.", timeout=SYNC_TIMEOUT_MS)
    expect(player_row(ana, "Ana").locator(".tile.small")).to_have_text("–")
    expect(player_row(ana, "Bruno").locator(".player-score")).to_contain_text("3 worms")
    assert_not_reloaded(ana)


def test_a_refused_entry_shows_its_sentence_next_to_the_controls(live_server, new_phone, shots_dir):
    # The host's phone and Ana's both show Ana's controls. The host enters first, before
    # Ana's phone has polled: Ana's tap comes from an old page and must be refused.
    live_server.app.config["POLL_SECONDS"] = 600
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    host = table.host
    host.get_by_role("link", name="Go to the table").tap()
    expect(host.locator(".acting-for")).to_have_text("Entering for Ana (you are the host)")

    set_aside(host, WORM, 2)
    choose_mode(ana, "Quick")
    ana.locator('.panel-quick label[for="quick-3"]').tap()
    ana.locator('.counts[data-face="3"]').get_by_role("button", name="2", exact=True).tap()

    error = ana.locator("#controls .error")
    expect(error).to_have_text(re.compile(r"^The table has moved on since your page was loaded: nothing was entered\."))
    expect(error).to_be_in_viewport()
    # The answer already shows the table as it is now: the host's worms, not Ana's 3s.
    expect(ana.locator(".kept .group")).to_have_text(["worm×2"])
    expect(ana.locator(".turn-total")).to_have_text("10")
    fits_the_phone(ana, shots_dir, "11-refused-entry")

    # The next tap, from the fresh page, goes through and clears the sentence.
    set_aside(ana, 3, 2)
    expect(ana.locator(".turn-total")).to_have_text("16")
    expect(error).to_have_count(0)


def test_undo_by_the_player_who_acted_marks_the_log(live_server, new_phone, shots_dir):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    bruno = join(new_phone, table, "Bruno")

    set_aside(ana, WORM, 2)
    expect(bruno.locator(".turn-total")).to_have_text("10", timeout=SYNC_TIMEOUT_MS)
    expect(bruno.get_by_role("button", name="Undo the last action")).to_have_count(0)  # not his action

    tap(ana, "Undo the last action")
    expect(ana.locator(".turn-total")).to_have_text("0")
    expect(log_lines(ana)).to_have_text(["Ana set aside 2 × worm (undone)"])
    expect(bruno.locator(".turn-total")).to_have_text("0", timeout=SYNC_TIMEOUT_MS)
    expect(log_lines(bruno).first).to_contain_text("(undone)")
    expect(ana.get_by_role("button", name="Undo the last action")).to_have_count(0)  # nothing left to undo
    assert_not_reloaded(bruno)
    fits_the_phone(ana, shots_dir, "12-log-with-undone")

    # The host may undo any player's action.
    set_aside(ana, 3, 1)
    host = table.host
    host.get_by_role("link", name="Go to the table").tap()
    tap(host, "Undo the last action")
    expect(log_lines(ana)).to_have_text(
        ["Ana set aside 1 × 3 (undone)", "Ana set aside 2 × worm (undone)"], timeout=SYNC_TIMEOUT_MS
    )
    expect(ana.locator(".kept")).to_contain_text("No dice set aside yet.")
    assert_not_reloaded(ana)


def test_rule_6_the_host_leaves_a_stray_tap_out_of_the_redo(live_server, new_phone, shots_dir):
    """Ana's turn got a stray 1 × 3 before her 2 worms. The host undoes both, leaves the
    stray tap out (two taps: it asks once more) and redoes the worms: every phone's log
    tells it."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    set_aside(ana, 3, 1)
    set_aside(ana, WORM, 2)
    host = table.host
    host.get_by_role("link", name="Go to the table").tap()
    tap(host, "Undo the last action")
    tap(host, "Undo the last action")
    expect(host.get_by_role("button", name="Redo: Ana set aside 1 × 3")).to_be_visible()

    version = table_version(host)
    host.locator("summary", has_text="Do not redo it").tap()
    leave_out = host.get_by_role("button", name="Leave out: Ana set aside 1 × 3")
    expect(leave_out).to_be_visible()
    assert table_version(host) == version  # the first tap changes nothing
    assert leave_out.bounding_box()["height"] >= 44
    fits_the_phone(host, shots_dir, "13-leave-out-of-the-redo")
    leave_out.tap()
    wait_for_new_version(host, version)
    expect(log_lines(ana)).to_have_text(
        ["Ana set aside 2 × worm (undone)", "Ana set aside 1 × 3 (undone, not to be redone)"], timeout=SYNC_TIMEOUT_MS
    )
    tap(host, "Redo: Ana set aside 2 × worm")
    expect(ana.locator(".turn-total")).to_have_text("10", timeout=SYNC_TIMEOUT_MS)
    expect(host.get_by_role("button", name=re.compile("^Redo"))).to_have_count(0)  # nothing left to redo


def test_a_short_game_ends_with_the_ranking_and_the_tiebreak_sentence(live_server, new_phone, shots_dir):
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    phones = {"Ana": join(new_phone, table, "Ana"), "Bruno": join(new_phone, table, "Bruno")}
    host = table.host
    host.get_by_role("link", name="Go to the table").tap()

    # The host enters every turn (as for players without a phone), so no turn waits for a
    # phone to poll. Worm x8 = 40 takes the highest grill tile each turn: Ana 36, 34, … 22
    # and Bruno 35, 33, … 21, 20 worms each, so the highest tile breaks the tie.
    for turn in range(16):
        name = "Ana" if turn % 2 == 0 else "Bruno"
        expect(host.locator(".acting-for")).to_have_text(f"Entering for {name} (you are the host)")
        set_aside(host, WORM, 8)
        expect(outcome(host)).to_contain_text(f"{name} scored 40 and took {36 - turn} from the grill.")

    for phone in [host, *phones.values()]:
        expect(phone.locator(".status")).to_have_text("The game is over.", timeout=SYNC_TIMEOUT_MS)
        ranking = phone.locator(".ranking")
        expect(ranking.locator(".place .rank-name")).to_have_text(["Ana", "Bruno"])
        expect(ranking.locator(".place .rank-score")).to_have_text(["20", "20"])
        expect(ranking.locator(".place-number")).to_have_text(["1", "2"])
        expect(ranking.locator(".tiebreak")).to_have_text(
            ["Ana and Bruno tied on 20 worms; the highest tile decided (Ana 36, Bruno 35)."]
        )
        expect(phone.locator("#controls")).to_have_count(0)
    for phone in phones.values():
        assert_not_reloaded(phone)
        expect(phone.locator("details.log summary")).to_contain_text("(16)")
        expect(log_lines(phone)).to_have_count(12)  # the newest lines; the whole log is a tap away
        expect(log_lines(phone).first).to_have_text(
            "Bruno set aside 8 × worm — scored 40 and took 21 from the grill (entered by the host)"
        )
    fits_the_phone(phones["Bruno"], shots_dir, "13-ranking")
    bruno = phones["Bruno"]
    bruno.get_by_role("link", name="Show the whole log").tap()
    expect(log_lines(bruno)).to_have_count(16)
    expect(log_lines(bruno).last).to_have_text(
        "Ana set aside 8 × worm — scored 40 and took 36 from the grill (entered by the host)"
    )


def test_seven_players_with_the_longest_names_fit_a_360px_phone(live_server, new_phone, shots_dir):
    # Set up through the JSON API: this test is about the page's layout, not the taps.
    names = [
        "Wolfeschlegelsteinhausen",  # 24 letters without a space: the worst case
        "Maria da Conceição Silva",
        "Bartholomew Fitzgerald",
        "Ana",
        "Bruno",
        "Caio",
        "Dora",
    ]
    created = live_server.create(players=names)
    host = {"Authorization": f"Bearer {created['host_token']}"}
    actions_url = f"{live_server.url}/api/tables/{created['id']}/actions"

    def act(action) -> dict:
        response = requests.post(actions_url, json=action, headers=host)
        assert response.status_code == 200, response.text
        return response.json()

    for _ in range(9):
        act({"type": "set_aside", "face": WORM, "count": 8})
    act({"type": "set_aside", "face": WORM, "count": 2})
    act({"type": "set_aside", "face": 4, "count": 3})

    longest = new_phone()
    longest.goto(created["seats"][0]["join_url"])
    expect(longest.locator(".who")).to_have_text("You are Wolfeschlegelsteinhausen")
    expect(longest.locator(".players .player")).to_have_count(7)
    fits_the_phone(longest, shots_dir, "14-seven-long-names")

    current = new_phone()
    current.goto(created["seats"][2]["join_url"])
    expect(current.locator(".status")).to_have_text("Your turn")
    fits_the_phone(current, shots_dir, "15-seven-long-names-your-turn")

    act({"type": "stop"})
    while act({"type": "set_aside", "face": WORM, "count": 8})["status"] != "finished":
        pass
    expect(longest.locator(".ranking .place")).to_have_count(7, timeout=SYNC_TIMEOUT_MS)
    fits_the_phone(longest, shots_dir, "16-seven-long-names-ranking")


def test_a_tap_whose_request_is_lost_can_be_tapped_again(live_server, new_phone):
    """The form is held while its request is in flight (no double entry); a request that
    never gets an answer (the network dropped it) must free the form again."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    dropped = []
    ana.route("**/act", lambda route: (dropped.append(1), route.abort()) if not dropped else route.continue_())
    choose_mode(ana, "Quick")
    panel = ana.locator(".panel-quick")
    panel.locator('label[for="quick-worm"]').tap()
    panel.locator('.counts[data-face="worm"]').get_by_role("button", name="3", exact=True).tap()
    expect(ana.locator("form.quick")).not_to_have_class(re.compile(r"\bsending\b"))
    assert dropped == [1]
    assert table_version(ana) == 0
    panel.locator('.counts[data-face="worm"]').get_by_role("button", name="3", exact=True).tap()
    wait_for_new_version(ana, 0)
    expect(ana.locator(".turn-total")).to_have_text("15")


def test_the_entry_mode_and_the_log_stay_as_the_player_left_them(live_server, new_phone):
    """Every change replaces the table; the mode chosen and the log closed must survive it,
    and each is remembered by one listener (a second would write every toggle twice)."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    ana.evaluate(
        """() => {
          window.logWrites = 0;
          const setItem = Storage.prototype.setItem;
          Storage.prototype.setItem = function (key, value) {
            if (key === "companion.log-open") window.logWrites += 1;
            return setItem.call(this, key, value);
          };
        }"""
    )
    ana.locator("details.log summary").tap()
    expect(ana.locator("details.log")).not_to_have_attribute("open", "")
    # the toggle event comes after the attribute changes; its listeners all run in it
    ana.wait_for_function("window.logWrites > 0")
    assert ana.evaluate("window.logWrites") == 1
    set_aside(ana, WORM, 3)  # quick entry: the table is replaced
    expect(ana.locator("#mode-quick")).to_be_checked()
    expect(ana.locator("details.log")).not_to_have_attribute("open", "")
    assert_not_reloaded(ana)


def test_the_keyboards_focus_stays_on_the_table_after_a_tap(live_server, new_phone):
    """helper QA: with "Enter" on a focused control, the table was replaced and the focus fell
    to the page's start, so the next Tab began again at the top. The same control takes it
    again; gone, the line that says whose turn it is does."""
    table = requests.post(live_server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
    ana_token = {"Authorization": f"Bearer {table['seats'][0]['token']}"}
    for action in ({"type": "set_aside", "face": "worm", "count": 2}, {"type": "set_aside", "face": 5, "count": 1}):
        answer = requests.post(f"{live_server.url}/api/tables/{table['id']}/actions", json=action, headers=ana_token, timeout=10)
        assert answer.status_code == 200, answer.text
    ana = new_phone()
    ana.goto(table["seats"][0]["join_url"])
    # a tile says its worms to a screen reader, once (helper QA: "25" alone)
    expect(ana.locator(".grill").get_by_role("img", name="4 worms", exact=True)).to_have_count(4)  # 33 to 36
    undo = ana.locator("form.undo button")
    undo.focus()
    ana.keyboard.press("Enter")  # undoes the 5: there is one more line to undo
    expect(ana.locator("#table")).to_have_attribute("data-version", "3")
    expect(ana.locator("form.undo button")).to_be_focused()
    ana.locator('.counts[data-face="3"] button.count').first.focus()
    ana.keyboard.press("Enter")  # a 3 set aside: that button is gone from the new table
    expect(ana.locator("#table")).to_have_attribute("data-version", "4")
    expect(ana.locator("#table .status")).to_be_focused()
    # and it stays there through the next change, whichever phone made it (review: the new
    # line could not take the focus, which fell to the page's start again)
    answer = requests.post(
        f"{live_server.url}/api/tables/{table['id']}/actions", json={"type": "set_aside", "face": 5, "count": 1}, headers=ana_token, timeout=10,
    )
    assert answer.status_code == 200, answer.text
    expect(ana.locator("#table")).to_have_attribute("data-version", "5", timeout=SYNC_TIMEOUT_MS)
    expect(ana.locator("#table .status")).to_be_focused()


def test_a_redo_that_would_now_fail_the_turn_asks_once_more_on_the_hosts_phone(live_server, new_phone, shots_dir):
    """Game night: the host went back over Ana's worms and left them out; one tap on
    "Redo: Ana stopped" then failed her turn. The first tap only opens the question, which
    says what the redo does now; the second redoes it, and Ana's phone shows the failed turn."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    token = table.join_links["Ana"].split("/j/")[1]
    table_id = re.search(r"/t/(\w+)", ana.url).group(1)
    for action in ({"type": "set_aside", "face": WORM, "count": 2}, {"type": "set_aside", "face": 5, "count": 3}, {"type": "stop"}):
        answer = requests.post(f"{live_server.url}/api/tables/{table_id}/actions", json=action,
                               headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert answer.status_code == 200
    host = table.host
    host.goto(f"{live_server.url}/t/{table_id}")
    first_line = host.locator('li[data-seq="1"]')
    first_line.get_by_text("Go back to here").tap()
    first_line.get_by_role("button", name="Undo this line and the 2 after it").tap()
    host.get_by_text("Do not redo it").tap()
    host.get_by_role("button", name="Leave out: Ana set aside 2 × worm").tap()
    host.get_by_role("button", name="Redo: Ana set aside 3 × 5").tap()  # one tap: nothing fails
    question = host.locator("details.redo-badly")
    question.get_by_text("Redo: Ana stopped").tap()
    expect(question.locator(".hint")).to_contain_text("If redone now: Ana stopped — turn failed (no worm set aside)")
    version = host.locator("#table").get_attribute("data-version")
    host.locator(".corrections").screenshot(path=str(shots_dir / "redo-that-fails-asks.png"))
    question.get_by_role("button", name="Yes, redo it").tap()
    expect(host.locator("#table")).not_to_have_attribute("data-version", version)
    expect(ana.locator(".outcome")).to_have_text("Ana failed (no worm set aside): there was no tile to give back.")


def test_going_back_from_the_whole_log_stays_on_the_whole_log(live_server, new_phone):
    """Game night: after "Go back to here" on an old line of the whole log, the host's page
    showed the newest 12 lines again, and its refresh too."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    table_id = re.search(r"/t/(\w+)", ana.url).group(1)
    tokens = [table.join_links[name].split("/j/")[1] for name in ("Ana", "Bruno")]
    for turn in range(7):  # 14 lines: 35 taken, then stolen back and forth
        for action in ({"type": "set_aside", "face": WORM, "count": 7}, {"type": "stop"}):
            answer = requests.post(f"{live_server.url}/api/tables/{table_id}/actions", json=action,
                                   headers={"Authorization": f"Bearer {tokens[turn % 2]}"}, timeout=10)
            assert answer.status_code == 200
    host = table.host
    host.goto(f"{live_server.url}/t/{table_id}")
    host.get_by_role("link", name="Show the whole log").tap()
    expect(host.locator(".log li")).to_have_count(14)
    second = host.locator('li[data-seq="2"]')
    second.get_by_text("Go back to here").tap()
    second.get_by_role("button", name="Undo this line and the 12 after it").tap()
    expect(host.locator("#table")).to_have_attribute("data-version", "15")
    expect(host.locator(".log li")).to_have_count(14)
    expect(host.locator(".poller")).to_have_attribute("hx-get", re.compile(r"log=all"))


def test_a_poll_answer_of_the_table_shown_keeps_the_roll_begun(live_server, new_phone):
    """A poll sent before the page's own tap was answered comes back with the table that
    tap made, which the page shows already: swapping it in would wipe the dice the player
    has begun to tap since. (The check looked at the swap event's element, which htmx
    sets to the target, never the poller, so it never held.)"""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    ana = join(new_phone, table, "Ana")
    compose_roll(ana, [3, 5, "worm"])
    panel = ana.locator(".panel-roll")
    expect(panel.locator(".composed-count")).to_have_text("3 / 8")
    table_id = ana.url.rstrip("/").rsplit("/", 1)[1]
    ana.evaluate(
        """address => htmx.ajax("GET", address, {source: document.querySelector("#table .poller"), target: "#table", swap: "outerHTML"})""",
        f"/t/{table_id}/poll?v=-1",  # as a poll sent with an older version: the table shown
    )
    ana.wait_for_timeout(500)
    expect(panel.locator(".composed-count")).to_have_text("3 / 8")
    assert_not_reloaded(ana)


def test_a_phone_that_has_not_heard_the_companion_for_a_while_says_so(live_server, new_phone):
    """Game night: with the companion stopped, every phone looked live, "Your turn" and all,
    showing a table already old; only a tap said something was wrong. A phone that has not
    heard the companion for a while says so, and stops saying it once it hears it again."""
    table = start_table(new_phone, live_server.url, ["Ana", "Bruno"])
    bruno = join(new_phone, table, "Bruno")
    lost = bruno.locator("[data-connection-lost]")
    expect(lost).to_be_hidden()
    bruno.wait_for_timeout(2500)  # polls answered: nothing to say
    expect(lost).to_be_hidden()
    bruno.route("**/poll*", lambda route: route.abort())  # the companion is gone
    expect(lost).to_be_visible(timeout=12000)
    expect(lost).to_have_text("Not connected to the companion: this table may be out of date. Trying again…")
    bruno.unroute("**/poll*")
    expect(lost).to_be_hidden(timeout=6000)
    assert_not_reloaded(bruno)

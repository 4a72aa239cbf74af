"""Rematch on real phones (issue 6): a Pickomino game ends with a tap, both phones show
the results, one player taps Rematch, and both phones land in their own seats of the new
table (the other one by itself, without scanning a code again), Bruno starting it; the
table screen follows to the new table as well."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from .conftest import SYNC_TIMEOUT_MS


def join(new_phone, join_url: str, name: str) -> Page:
    phone = new_phone()
    phone.goto(join_url)
    expect(phone.locator(".who")).to_have_text(f"You are {name}")
    return phone


def test_after_the_last_tap_a_rematch_leads_both_phones_to_their_new_seats(live_server, new_phone, shots_dir):
    created = live_server.create(players=("Ana", "Bruno"), game="pickomino")
    old_id = created["id"]
    ana = join(new_phone, created["seats"][0]["join_url"], "Ana")
    bruno = join(new_phone, created["seats"][1]["join_url"], "Bruno")
    screen = new_phone()
    screen.goto(f"{live_server.url}/t/{old_id}/screen")

    # Worm x8 = 40 takes the highest grill tile: fifteen turns through the API (the host
    # entering), then Bruno takes the last tile, 21, on his phone.
    for _turn in range(15):
        response = requests.post(
            f"{live_server.url}/api/tables/{old_id}/actions",
            json={"type": "set_aside", "face": "worm", "count": 8},
            headers={"Authorization": f"Bearer {created['host_token']}"},
        )
        assert response.status_code == 200, response.text
    expect(bruno.locator(".status")).to_have_text("Your turn", timeout=SYNC_TIMEOUT_MS)
    bruno.locator(".modes").get_by_text("Quick", exact=True).tap()
    panel = bruno.locator(".panel-quick")
    panel.locator('label[for="quick-worm"]').tap()
    panel.locator('.counts[data-face="worm"]').get_by_role("button", name="8", exact=True).tap()

    for phone in (ana, bruno, screen):
        expect(phone.locator(".status")).to_have_text("The game is over.", timeout=SYNC_TIMEOUT_MS)
        ranking = phone.locator(".ranking")
        expect(ranking.locator(".rank-name")).to_have_text(["Ana", "Bruno"])
        expect(ranking.locator(".rank-detail")).to_have_text(
            ["Tiles held: 22, 24, 26, 28, 30, 32, 34, 36", "Tiles held: 21, 23, 25, 27, 29, 31, 33, 35"]
        )
        expect(ranking.locator(".tiebreak")).to_have_text(["Ana and Bruno tied on 20 worms; the highest tile decided (Ana 36, Bruno 35)."])
    expect(screen.get_by_role("button")).to_have_count(0)
    ana.screenshot(path=str(shots_dir / "rematch-results.png"), full_page=True)

    ana.get_by_role("button", name="Rematch").tap()
    expect(ana).not_to_have_url(re.compile(rf"/t/{old_id}$"))
    new_url = ana.url
    new_id = new_url.rsplit("/", 1)[1]
    expect(ana.locator(".who")).to_have_text("You are Ana")
    expect(ana.locator(".status")).to_have_text("Bruno's turn")  # the player after Ana starts

    # Bruno's phone was not touched: its next poll leads it to its own new seat
    expect(bruno).to_have_url(new_url, timeout=SYNC_TIMEOUT_MS)
    expect(bruno.locator(".who")).to_have_text("You are Bruno")
    expect(bruno.locator(".status")).to_have_text("Your turn")
    expect(bruno.locator("#controls")).to_be_visible()
    bruno.screenshot(path=str(shots_dir / "rematch-bruno-new-seat.png"), full_page=True)

    expect(screen).to_have_url(f"{live_server.url}/t/{new_id}/screen", timeout=SYNC_TIMEOUT_MS)
    expect(screen.locator(".status")).to_have_text("Bruno's turn")


def test_a_phone_looking_at_the_results_page_is_led_to_its_seat_at_the_rematch(live_server, new_phone):
    """Bruno opened the results (the chart, the downloads) when Ana tapped Rematch: his
    phone is led to his own new seat, as from the table page."""
    created = live_server.create(players=("Ana", "Bruno"), game="pickomino")
    old_id = created["id"]
    ana = join(new_phone, created["seats"][0]["join_url"], "Ana")
    bruno = join(new_phone, created["seats"][1]["join_url"], "Bruno")
    for _turn in range(16):  # worm x8 takes the highest tile, sixteen times: the grill is empty
        response = requests.post(
            f"{live_server.url}/api/tables/{old_id}/actions",
            json={"type": "set_aside", "face": "worm", "count": 8},
            headers={"Authorization": f"Bearer {created['host_token']}"},
        )
        assert response.status_code == 200, response.text
    expect(bruno.locator(".status")).to_have_text("The game is over.", timeout=SYNC_TIMEOUT_MS)
    bruno.get_by_role("link", name="Results, log and downloads").tap()
    expect(bruno).to_have_url(f"{live_server.url}/t/{old_id}/results")

    expect(ana.locator(".status")).to_have_text("The game is over.", timeout=SYNC_TIMEOUT_MS)
    ana.get_by_role("button", name="Rematch").tap()
    expect(ana.locator(".who")).to_have_text("You are Ana")
    new_url = ana.url
    assert new_url != f"{live_server.url}/t/{old_id}"

    expect(bruno).to_have_url(new_url, timeout=SYNC_TIMEOUT_MS)
    expect(bruno.locator(".who")).to_have_text("You are Bruno")
    expect(bruno.locator(".status")).to_have_text("Your turn")


@pytest.mark.parametrize("served", ["live_server", "push_server"])
def test_a_phone_watching_without_a_seat_is_told_that_a_rematch_started(request, new_phone, served):
    """A phone that opened the table's link without joining stays on the finished table
    (it has no seat to be led to) and is told, by poll and by push: a rematch moves no
    version, so the page used to drop the table that said it (a reviewer found it)."""
    server = request.getfixturevalue(served)
    url = server if isinstance(server, str) else server.url
    created = requests.post(url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
    for _turn in range(16):  # worm x8 takes the highest tile, sixteen times: the grill is empty
        response = requests.post(
            f"{url}/api/tables/{created['id']}/actions", json={"type": "set_aside", "face": "worm", "count": 8},
            headers={"Authorization": f"Bearer {created['host_token']}"}, timeout=10,
        )
        assert response.status_code == 200, response.text
    onlooker = new_phone()
    onlooker.goto(f"{url}/t/{created['id']}")
    expect(onlooker.locator(".status")).to_have_text("The game is over.")
    onlooker.wait_for_timeout(500)  # its connection (or first poll) is made
    ana = join(new_phone, created["seats"][0]["join_url"], "Ana")
    ana.get_by_role("button", name="Rematch").tap()
    expect(ana.locator(".who")).to_have_text("You are Ana")
    expect(onlooker.locator(".rematch-started")).to_have_text("A rematch has started.", timeout=SYNC_TIMEOUT_MS)
    expect(onlooker).to_have_url(f"{url}/t/{created['id']}")  # it stays: it has no seat there

"""Issue 8, security: the Content-Security-Policy as a real browser enforces it. Debian's
Chromium runs the companion's pages (start form, join codes, a table played by tapping,
polls swapping the table, a finished table's results and screen) and reports no violation
of the policy and no script error. The policy's own reports are checked to be seen, with
an inline script the browser must refuse."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import Page, expect

POLL_CYCLE_MS = 2_500


def watched(page: Page, problems: list[str]) -> Page:
    """Everything the browser refuses or fails at on this page goes into `problems`."""
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    return page


def policy_violations(problems: list[str]) -> list[str]:
    return [problem for problem in problems if "Content Security Policy" in problem or "script error" in problem]


def enter_roll(phone: Page, faces: list) -> None:
    phone.locator(".modes").get_by_text("Roll by roll", exact=True).tap()
    panel = phone.locator(".panel-roll")
    for face in faces:
        panel.locator(".face-row").get_by_role("button", name=str(face), exact=True).tap()
    panel.get_by_role("button", name="Enter the roll").tap()


def test_the_browser_refuses_an_inline_script_and_says_so(live_server, new_phone):
    problems: list[str] = []
    page = watched(new_phone(), problems)
    page.goto(live_server.url + "/")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1'; document.body.append(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.ran === undefined")
    assert policy_violations(problems), "the policy's refusal is reported on the console"


def test_a_table_played_on_phones_breaks_no_policy(live_server, new_phone):
    problems: list[str] = []
    host = watched(new_phone(), problems)
    host.goto(live_server.url + "/")
    host.get_by_label("Game").select_option(value="pickomino")
    for position, name in enumerate(["Ana", "Bruno"], start=1):
        host.get_by_label(f"Player {position}", exact=True).fill(name)
    host.get_by_role("button", name="Start the table").tap()
    expect(host.locator(".join-code")).to_have_count(2)
    link = host.locator(".join-code").first.get_by_role("link").get_attribute("href")
    table_id = re.search(r"/t/([^/]+)/join", host.url).group(1)

    ana = watched(new_phone(), problems)
    ana.goto(link)
    expect(ana.locator(".who")).to_have_text("You are Ana")
    enter_roll(ana, [1, 2, 3, 4, 5, "worm", "worm", "worm"])
    expect(ana.locator("#table")).to_have_attribute("data-version", "1")
    ana.locator("form.keep").get_by_role("button", name=re.compile(r"^5 ")).tap()
    expect(ana.locator("#table")).to_have_attribute("data-version", "2")

    host.goto(f"{live_server.url}/t/{table_id}")
    expect(host.locator("#table")).to_have_attribute("data-version", "2")
    enter_roll(ana, [1, 2, 3, 4, "worm", "worm", "worm"])
    expect(host.locator("#table")).to_have_attribute("data-version", "3")  # swapped in by a poll
    host.wait_for_timeout(POLL_CYCLE_MS)
    assert not policy_violations(problems), problems


def test_a_finished_tables_results_and_screen_break_no_policy(live_server, new_phone):
    created = live_server.create(players=["Ana", "Bruno"], game="lobo", options={"deal_colors": False})
    actions = f"{live_server.url}/api/tables/{created['id']}/actions"
    host = {"Authorization": f"Bearer {created['host_token']}"}
    assert requests.post(actions, json={"type": "end"}, headers=host).status_code == 200
    for seat in range(2):
        color = {"type": "choose_color", "color": ("red", "blue")[seat], "seat": seat}
        assert requests.post(actions, json=color, headers=host).status_code == 200
        meadows = {"type": "meadows", "meadows": [{"sheep": 4 + seat, "fenced": True, "wolf": False}], "seat": seat}
        assert requests.post(actions, json=meadows, headers=host).status_code == 200
    problems: list[str] = []
    phone = watched(new_phone(), problems)
    phone.goto(created["seats"][0]["join_url"])
    expect(phone.locator(".who")).to_be_visible()
    for page in ("results", "screen"):
        phone.goto(f"{live_server.url}/t/{created['id']}/{page}")
        phone.wait_for_timeout(POLL_CYCLE_MS)
    assert not policy_violations(problems), problems


def test_an_inline_style_left_by_something_else_is_not_copied_by_a_swap(live_server, new_phone):
    """A style attribute that something other than the companion puts on a control (a
    password manager, a browser's own tools, Playwright hiding the caret for a screenshot)
    was copied by htmx onto the same control of the swapped-in table: each copy broke the
    policy (helper QA saw "Applying inline style violates…" during the host's corrections).
    The policy allows no inline style, so htmx settles no style attribute."""
    created = requests.post(
        live_server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10
    ).json()
    problems: list[str] = []
    ana = watched(new_phone(), problems)
    ana.goto(created["seats"][0]["join_url"])
    expect(ana.locator(".who")).to_have_text("You are Ana")
    ana.evaluate("() => document.querySelectorAll('#table [id]').forEach(control => control.style.caretColor = 'transparent')")
    assert ana.locator("#table [style]").count() > 0
    enter_roll(ana, [1, 2, 3, 4, 5, "worm", "worm", "worm"])
    expect(ana.locator("#table")).to_have_attribute("data-version", "1")
    ana.wait_for_timeout(300)  # htmx settles the swapped-in table after 20 ms
    assert not policy_violations(problems), problems

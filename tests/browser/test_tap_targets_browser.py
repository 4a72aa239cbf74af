"""Every control a thumb taps on a 360 px phone is at least 44 CSS px tall (and as wide, or
a word of text wide): home, the join codes, a seat's table page in play, and the results.
A box or a radio is tapped anywhere on its label. Links inside sentences are read, not
aimed at: the rules' prose is left out."""

from __future__ import annotations

import re

import pytest
import requests

from .late_tables import BUILDERS

SMALL_TARGETS = """() => {
  const targets = document.querySelectorAll("a[href], button, summary, label[for], select, input:not([type=hidden]):not(.visually-hidden)");
  const small = [];
  for (const target of targets) {
    if (!target.checkVisibility({visibilityProperty: true}) || target.closest(".visually-hidden")) continue;
    const box = (target.closest("label") || target).getBoundingClientRect();  // a box is tapped by its label
    if (box.width === 0 || box.height === 0) continue;
    if (box.height < 44 || box.width < 24) small.push([target.outerHTML.slice(0, 80), Math.round(box.width), Math.round(box.height)]);
  }
  return small;
}"""


@pytest.mark.parametrize("width", [360, 320])
def test_every_control_is_a_thumb_high_on_the_main_pages(live_server, new_phone, width):
    phone = new_phone(viewport={"width": width, "height": 740})
    small = {}
    phone.goto(live_server.url + "/")
    small["home"] = phone.evaluate(SMALL_TARGETS)
    phone.locator("input.name").nth(0).fill("Ana")
    phone.locator("input.name").nth(1).fill("Bartholomew Longname")
    phone.get_by_role("button", name="Start the table").tap()
    # the join codes' page loaded, its stylesheet too: its markup alone can be there earlier,
    # and measured unstyled (one run in CI-like conditions found every control 17 px tall)
    phone.wait_for_url(re.compile(r"/t/\w+/join$"), wait_until="load")
    phone.locator(".join-codes").wait_for()
    small["join codes"] = phone.evaluate(SMALL_TARGETS)
    table = BUILDERS["pickomino"](live_server.url, 3, "finished")
    phone.goto(table.join_urls[0])
    phone.locator("#table").wait_for()
    small["finished table"] = phone.evaluate(SMALL_TARGETS)
    phone.goto(f"{live_server.url}/t/{table.id}/results")
    small["results"] = phone.evaluate(SMALL_TARGETS)
    started = requests.post(live_server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno", "Caio"]}, timeout=10).json()
    host = new_phone(viewport={"width": width, "height": 740})
    host.goto(started["seats"][0]["join_url"])
    host.locator("#table").wait_for()
    small["table in play"] = host.evaluate(SMALL_TARGETS)
    failing = [f"{page}: {what} {w}x{h}" for page, found in small.items() for what, w, h in found]
    assert not failing, "under 44 px:\n" + "\n".join(failing)

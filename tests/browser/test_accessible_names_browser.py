"""What a screen reader is told: a name (aria-label) is given only to an element whose role
takes one. On a plain <div> or <span> (no role) browsers and screen readers drop it, and
axe reports it (issue 44: the roll of Twenty One and of Qwixx, Twenty One's crossed-out
mark). On a 360 px phone and on the table screen, late in play and finished."""

from __future__ import annotations

import pytest
from .late_tables import BUILDERS, PHASES

# Elements whose role (none, or generic) a name may not be given to (ARIA 1.2: "naming
# prohibited"), unless the page gives them a role.
NAMED_WITHOUT_ROLE = """() => [...document.querySelectorAll("[aria-label]")]
  .filter(element => !element.hasAttribute("role") && ["DIV", "SPAN", "P", "TD", "B", "I", "SMALL", "STRONG", "EM", "LABEL"].includes(element.tagName))
  .map(element => element.tagName.toLowerCase() + "." + [...element.classList].join(".") + ": " + element.getAttribute("aria-label"))"""


@pytest.mark.parametrize("slug", ["twenty-one", "qwixx"])
def test_the_roll_and_a_crossed_out_field_are_named_as_what_they_are(live_server, new_phone, slug):
    named_without_role = {}
    rolls = named_rolls = marks = named_marks = 0
    for phase in PHASES:
        table = BUILDERS[slug](live_server.url, 4, phase)
        phone = new_phone()
        phone.goto(table.join_urls[0])
        phone.locator("#table").wait_for()
        tv = new_phone(viewport={"width": 1280, "height": 720}, is_mobile=False, has_touch=False, device_scale_factor=1)
        tv.goto(f"{live_server.url}/t/{table.id}/screen")
        tv.locator("#screen").wait_for()
        for where, page in (("phone", phone), ("TV", tv)):
            named_without_role[f"{where} {phase}"] = page.evaluate(NAMED_WITHOUT_ROLE)
            rolls += page.locator(":is(.tw-dice, .qx-dice):visible").count()
            named_rolls += page.get_by_role("group", name="The roll").count()
            marks += page.locator(".tw-mark:visible").count()
            named_marks += page.get_by_role("img", name="crossed out").count()
    assert not any(named_without_role.values()), named_without_role
    assert rolls and named_rolls == rolls, f"{named_rolls} of {rolls} rolls shown named"
    if slug == "twenty-one":
        assert marks and named_marks == marks, f"{named_marks} of {marks} crossed-out fields named"

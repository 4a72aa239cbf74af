"""axe-core (Deque's accessibility engine, the npm package) run on a page in the test
browser. scripts/test installs it into tests/browser/axe/node_modules from the lock file
there; it reaches the page through Playwright only (never through the companion's pages,
whose policy allows no script but their own), so the companion ships none of it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# What a person cannot get past: axe's two highest impacts (its others are "moderate" and "minor").
BLOCKING = ("serious", "critical")

# What axe could not decide ("needs review") counts too: an aria-label on an element without
# a role, which screen readers may not say, is one. Colour contrast is left out of it: axe
# cannot compute text over a gradient or a picture (test_contrast_browser.py measures the rest).
UNDECIDED_LEFT_OUT = ("color-contrast",)

RUN = """async ([blocking, undecidedLeftOut]) => {
  document.querySelectorAll("details").forEach(details => { details.open = true; });  // what a tap uncovers too
  const found = await axe.run(document, {resultTypes: ["violations", "incomplete"]});
  const undecided = found.incomplete.filter(result => !undecidedLeftOut.includes(result.id));
  return [...found.violations, ...undecided].filter(result => blocking.includes(result.impact)).map(result => ({
    rule: result.id, impact: result.impact, help: result.help,
    where: result.nodes.map(node => node.target.join(" ")),
  }));
}"""


@cache
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"axe-core is missing at {AXE}: scripts/test installs it (npm ci in tests/browser/axe).")
    return AXE.read_text(encoding="utf-8")


def violations(page: Page) -> list[dict]:
    """The serious and critical violations axe finds on the page as it is now (its details
    opened), and those it could not decide: each rule with the elements, by CSS selector."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())  # evaluated by the browser's tools: the page's policy does not apply
    return page.evaluate(RUN, [list(BLOCKING), list(UNDECIDED_LEFT_OUT)])

"""Real-browser fixtures: Debian's Chromium driven by Playwright, phones of 360 x 740 px.

These tests must run wherever the suite runs (CI included): a missing Chromium or
Playwright is a failure, never a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "color_scheme": "dark",  # the companion's default look, used at a table at night
    "locale": "en-GB",
}
# How long another phone may take to show a change: it polls every 2 s (issue 2: "within
# about 2 seconds"), plus slack for a loaded CI machine.
SYNC_TIMEOUT_MS = 6_000


def pytest_collection_modifyitems(items):
    """Every test in this folder is a browser test (select or leave them with -m browser)."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: install Debian's chromium package (scripts/test does).")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: pip install -e '.[test]'.")
    expect.set_options(timeout=SYNC_TIMEOUT_MS)
    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture
def new_phone(browser, request):
    """Opens a new phone: its own browser context, so its own cookies (its own seat).
    Settings of PHONE can be changed per phone, e.g. new_phone(locale="pt-BR")."""
    contexts = []
    request.node.phones = []  # what each phone showed is reported should the test fail

    def open_phone(**settings):
        context = browser.new_context(**{**PHONE, **settings})
        context.set_default_timeout(SYNC_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.script_errors = []
        page.on("pageerror", lambda error: page.script_errors.append(str(error)))
        request.node.phones.append(page)
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def shots_dir(tmp_path_factory) -> Path:
    """Where screenshots go: $COMPANION_SHOTS to look at them, else a temporary folder."""
    configured = os.environ.get("COMPANION_SHOTS")
    if configured:
        path = Path(configured)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("shots")


# Enough of each phone's table to tell a phone that lagged from one that showed another
# seat's page or a refusal, in the CI log (where no screenshot survives the run).
PHONE_REPORT_CHARACTERS = 1500


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test says what every phone it opened showed at that moment: its
    address, the table's version, whether push was on, the script errors, and the table's
    text."""
    report = (yield).get_result()
    if report.when != "call" or not report.failed or not getattr(item, "phones", None):
        return
    lines = []
    for number, page in enumerate(item.phones, 1):
        try:
            shown = page.evaluate(
                r"""() => {
                    const table = document.getElementById("table");
                    return {version: table ? table.dataset.version : null, push: document.documentElement.dataset.push,
                            text: (table || document.body || document.documentElement).innerText.replace(/\s*\n\s*/g, " / ")};
                }"""
            )
        except Exception as error:  # a closed or crashed page says so, and the others are reported
            lines.append(f"phone {number}: {page.url}: unreadable ({str(error).splitlines()[0]})")
            continue
        lines.append(f"phone {number}: {page.url}, table version {shown['version']}, push {shown['push']}")
        lines += [f"  script error: {error}" for error in page.script_errors]
        lines.append("  " + shown["text"][:PHONE_REPORT_CHARACTERS])
    report.sections.append(("what the phones showed", "\n".join(lines)))

"""Found at a real install: after the database was out of reach for a while (PostgreSQL
restarted, a disk gone), every phone stayed on the error page until its player reloaded
it by hand. The error page now loads itself again, and the phone is back at its table,
by itself, once the database answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect


@pytest.fixture
def database(tmp_path: Path) -> str:
    """The SQLite file in a folder of its own, which the test takes away and gives back."""
    (tmp_path / "data").mkdir()
    return str(tmp_path / "data" / "companion.sqlite3")


def test_a_phone_on_the_error_page_is_back_at_its_table_once_the_database_answers(live_server, new_phone, tmp_path):
    table = live_server.create(players=("Ana", "Bruno"))
    ana = new_phone()
    ana.goto(table["seats"][0]["join_url"])
    expect(ana.locator(".who")).to_have_text("You are Ana")
    (tmp_path / "data").rename(tmp_path / "away")  # out of reach: the next poll cannot read it
    expect(ana.locator(".retrying")).to_have_text("This page tries again by itself every 10 seconds.", timeout=10_000)
    (tmp_path / "away").rename(tmp_path / "data")
    expect(ana.locator(".who")).to_have_text("You are Ana", timeout=15_000)
    expect(ana.locator(".status")).to_have_text("Your turn")

"""A player's phone joining its seat: the helper the games' browser tests share."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def join(new_phone, link: str, name: str) -> Page:
    """A new phone that opened `link` (a seat's QR code) and says it is `name`'s; it marks
    itself so a test can tell the page never reloaded."""
    phone = new_phone()
    phone.goto(link)
    expect(phone.locator(".who")).to_have_text(f"You are {name}")
    phone.evaluate("window.notReloaded = true")  # lost if the page reloads
    return phone

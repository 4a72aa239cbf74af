"""/tv on a TV, driven as with a remote: no pointer, the keys typed into the field that has
the focus, Enter. A wrong code comes back selected, so the right one is typed over it."""

from __future__ import annotations

from playwright.sync_api import expect

from .late_tables import ApiTable

HD = {"width": 1280, "height": 720}


def test_a_tv_types_the_tables_code_with_its_remote_and_shows_the_tables_screen(live_server, new_phone, shots_dir):
    table = ApiTable(live_server.url, "pickomino", 3)
    tv = new_phone(viewport=HD, is_mobile=False, has_touch=False, device_scale_factor=1)
    tv.goto(live_server.url + "/tv")
    assert tv.evaluate("document.activeElement.id") == "tv-code"  # typed into at once
    size = tv.evaluate("parseFloat(getComputedStyle(document.activeElement).fontSize)")
    assert size >= 48, f"the code is typed {size} px high: too small from the sofa"
    tv.screenshot(path=str(shots_dir / "tv-address-720.png"))

    tv.keyboard.type(table.id[:5].lower() + "0")  # a slip: no code has a 0
    tv.keyboard.press("Enter")
    expect(tv.get_by_role("alert")).to_contain_text("A table's code has six letters and digits")
    assert tv.evaluate("[document.activeElement.id, document.activeElement.selectionStart, document.activeElement.selectionEnd]") == [
        "tv-code", 0, 6
    ]
    tv.screenshot(path=str(shots_dir / "tv-address-refused-720.png"))

    tv.keyboard.type(table.id.lower())  # over the wrong code
    tv.keyboard.press("Enter")
    expect(tv.locator("#screen")).to_be_visible()
    assert tv.url == f"{live_server.url}/t/{table.id}/screen"
    assert tv.script_errors == []

"""The rules reference (/rules): the project's own docs/rules.md, which every game's guide
(tests/test_guides.py) links at its game's own section."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.web.rules import as_html, heading_id, unique

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
HEADING_IDS = re.compile(r'<h[1-6] id="([^"]+)"')


def test_the_rules_page_shows_every_section_of_docs_rules_md(client):
    page = client.get("/rules")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    headings = [line.lstrip("#").strip() for line in RULES_MD.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    assert len(headings) > 5
    assert HEADING_IDS.findall(text) == [heading_id(heading) for heading in headings]
    # a rule from the middle of the file, as written there
    assert "set aside <strong>all</strong> the dice showing <strong>one</strong> face" in text


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_its_own_section_of_the_rules(client, slug):
    assert slug in HEADING_IDS.findall(client.get("/rules").get_data(as_text=True))


def test_the_links_inside_the_rules_lead_to_its_headings(client):
    text = client.get("/rules").get_data(as_text=True)
    targets = re.findall(r'href="#([^"]+)"', text)
    assert targets, "the rules' own table of contents"
    assert set(targets) <= set(HEADING_IDS.findall(text))


def test_the_rules_page_says_in_the_readers_language_that_the_rules_are_in_english(client):
    text = client.get("/rules", headers={"Accept-Language": "pt-PT"}).get_data(as_text=True)
    assert "As regras estão escritas em inglês." in text
    assert '<article class="rules" lang="en">' in text
    assert "written in English" not in client.get("/rules", headers={"Accept-Language": "en"}).get_data(as_text=True)


def test_no_raw_html_of_the_rules_text_reaches_the_page():
    rendered = as_html("# A <b>heading</b>\n\nA <script>x()</script> tag")
    assert "<script>" not in rendered and "&lt;script&gt;" in rendered
    assert '<h1 id="a-bheadingb">A &lt;b&gt;heading&lt;/b&gt;</h1>' in rendered


def test_a_link_to_a_file_served_elsewhere_leads_to_its_address_with_its_heading():
    rendered = as_html("[the reference](../../rules.md#lobo), [a heading](#setup), [another](other.md)", links={"../../rules.md": "/rules"})
    assert '<a href="/rules#lobo">the reference</a>' in rendered
    assert '<a href="#setup">a heading</a>' in rendered and '<a href="other.md">another</a>' in rendered


def test_heading_ids_are_githubs():
    assert heading_id("The worm-dice turn (Pickomino and Heckmeck Barbecue)") == "the-worm-dice-turn-pickomino-and-heckmeck-barbecue"
    assert heading_id("Twenty One") == "twenty-one"
    assert heading_id("Rolls: `1`..`6`, é") == "rolls-16-é"
    # markup in a heading is not part of its id: what the reader sees is
    assert '<h2 id="the-table-option-spot_worms">' in as_html("## The _table_ option [`spot_worms`](#x)")
    used: dict[str, int] = {}
    assert [unique("choices", used) for _ in range(3)] == ["choices", "choices-1", "choices-2"]

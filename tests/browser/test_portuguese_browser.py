"""Issue 7 in a real browser: a phone set to Brazilian Portuguese starts a Pickomino table,
plays a turn and reads everything in the companion's Portuguese (European, which a
Brazilian phone reads as well), with the words of the Portuguese box (minhoca, grelha);
the switcher changes the language and the phone remembers it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games import GAMES


def test_issue_7_a_portuguese_phone_starts_a_table_and_plays_a_turn_in_portuguese(live_server, new_phone):
    host = new_phone(locale="pt-BR")
    host.goto(live_server.url + "/")
    expect(host.locator("html")).to_have_attribute("lang", "pt")
    expect(host.get_by_role("heading", name="Abrir uma mesa")).to_be_visible()

    host.get_by_label("Jogo").select_option(label="Pickomino")
    host.get_by_label("Jogador 1", exact=True).fill("Ana")
    host.get_by_label("Jogador 2", exact=True).fill("Bruno")
    host.get_by_role("button", name="Abrir a mesa").tap()
    expect(host.get_by_role("heading", name="Cada um lê o seu próprio código")).to_be_visible()
    host.get_by_role("link", name="Ir para a mesa").tap()

    expect(host.locator(".who")).to_have_text("É o anfitrião")
    expect(host.locator(".acting-for")).to_have_text("A jogar por Ana (é o anfitrião)")
    expect(host.locator(".grill")).to_have_attribute("aria-label", "A grelha")
    expect(host.locator(".player-score").first).to_contain_text("0 minhocas")

    # A turn by quick entry: eight worms make 40, so Ana takes the highest tile, 36.
    host.locator(".modes").get_by_text("Rápido", exact=True).tap()
    expect(host.locator(".panel-quick .hint")).to_have_text("Toque no símbolo que separou e depois em quantos dados.")
    host.locator('.panel-quick label[for="quick-worm"]').tap()
    host.locator('.counts[data-face="worm"]').get_by_role("button", name="8", exact=True).tap()

    expect(host.locator(".outcome")).to_have_text("Ana fez 40 e tirou a 36 da grelha.")
    expect(host.locator(".acting-for")).to_have_text("A jogar por Bruno (é o anfitrião)")
    expect(host.locator(".players .player").first).to_contain_text("4 minhocas")
    expect(host.locator("details.log li").first).to_contain_text("Ana separou 8 × minhoca")
    expect(host.get_by_role("button", name="Desfazer a última ação")).to_be_visible()

    # The switcher: English for this phone, and it stays English on the next pages.
    host.get_by_role("navigation", name="Idioma").get_by_role("link", name="English").tap()
    expect(host.locator("html")).to_have_attribute("lang", "en")
    expect(host.locator(".outcome")).to_have_text("Ana scored 40 and took 36 from the grill.")
    host.goto(live_server.url + "/")
    expect(host.get_by_role("heading", name="Start a table")).to_be_visible()
    host.get_by_role("navigation", name="Language").get_by_role("link", name="Português").tap()
    expect(host.get_by_role("heading", name="Abrir uma mesa")).to_be_visible()
    expect(host.locator("time").first).to_have_text(re.compile(r"^\d{2}/\d{2}/\d{4},? \d{2}:\d{2}$"))


@pytest.mark.parametrize("language", ["en", "pt", "fr", "ro"])
def test_issue_7_the_start_form_fits_a_phone_in_every_language_with_each_game_s_options(live_server, new_phone, language):
    """Host QA: in Romanian, Twenty One's sheet choices ("împărțită la întâmplare") stuck out
    past the card, and the home page scrolled sideways (385 px on a 360 px screen)."""
    host = new_phone(locale=language)
    host.goto(live_server.url + "/")
    expect(host.locator("html")).to_have_attribute("lang", language)
    game_select = host.locator('select[name="game"]')
    for slug in GAMES:
        game_select.select_option(value=slug)
        if GAMES[slug].options:
            expect(host.locator(f'fieldset.options[data-game="{slug}"]')).to_be_visible()
        for copy in host.locator(f'fieldset.options[data-game="{slug}"] details').all():
            copy.locator("summary").tap()  # the printed sheets' copies too
        wide = host.evaluate(
            """() => [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
                   .slice(0, 5).map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
        )
        assert wide == [] and host.evaluate("document.scrollingElement.scrollWidth <= document.documentElement.clientWidth"), (slug, wide)

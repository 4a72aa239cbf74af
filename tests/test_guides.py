"""The players' guides (guide/<language>.md in each game's package, served at /rules/<game>): each
game's rules as the box tells them, in every language the companion speaks, with the same
sections; the "Rules" link of every page about a table (its page, its table screen, its
results) and the start form's links open them in the page's language, and every link of a
guide leads somewhere (the reference, /rules, for the details)."""

from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from companion.web.i18n import LANGUAGES
from companion.web.rules import heading_id

from played import play_scene, start_options

HEADING_IDS = re.compile(r'<h[1-6] id="([^"]+)"')
HREFS = re.compile(r'<a\b[^>]*\bhref="([^"]*)"')

# The sections every guide has, in this order, as each language writes them: the setup, a
# turn (Twenty One's is a round), scoring, the end and the tie-break, how things are entered
# on the phone, and what the companion checks (and leaves to the table).
SECTIONS = {
    "en": ["Setup", ("A turn", "A round"), "Scoring", "The end and the tie-break", "On the phone", "What the companion checks"],
    "pt": ["Preparação", ("Um turno", "Uma ronda"), "Pontuação", "Fim do jogo e desempate", "No telemóvel", "O que o Companion verifica"],
    "fr": ["Mise en place", ("Un tour", "Une manche"), "Points", "Fin de partie et départage", "Sur le téléphone", "Ce que le Companion vérifie"],
    "ro": ["Pregătire", ("O rundă",), "Punctaj", "Finalul jocului și departajarea", "Pe telefon", "Ce verifică Companion"],
}
EVERY_GUIDE = [(slug, language) for slug in GAMES for language in LANGUAGES]


def guide_text(slug: str, language: str) -> str:
    return GAMES[slug].guide(language).read_text(encoding="utf-8")


def headings(markdown: str, level: int) -> list[str]:
    return [line[level + 1 :].strip() for line in markdown.splitlines() if line.startswith("#" * level + " ")]


def rules_links(page: str) -> list[str]:
    """Where the page's "Rules" links lead (in every language the link says its word)."""
    return re.findall(r'<a [^>]*href="(/rules[^"]*)"', page)


def test_every_language_has_its_guides_section_headings():
    assert sorted(SECTIONS) == sorted(LANGUAGES)


@pytest.mark.parametrize("slug, language", EVERY_GUIDE)
def test_every_game_has_a_guide_in_every_language(slug, language):
    assert GAMES[slug].guide(language).is_file(), f"{GAMES[slug].guide(language)}: a guide to write"


def test_the_guides_are_in_the_languages_spoken():
    written = {(slug, path.stem) for slug, game in GAMES.items() for path in game.guide("en").parent.glob("*.md")}
    assert written == set(EVERY_GUIDE)


@pytest.mark.parametrize("slug, language", EVERY_GUIDE)
def test_every_guide_has_the_players_sections_in_order(slug, language):
    text = guide_text(slug, language)
    assert headings(text, 1) == [GAMES[slug].title.msgid], "a guide's one title: its game's"
    found = headings(text, 2)
    assert len(found) == len(SECTIONS[language]), found
    for heading, expected in zip(found, SECTIONS[language]):
        assert heading in ((expected,) if isinstance(expected, str) else expected), (heading, expected)


@pytest.mark.parametrize("slug, language", EVERY_GUIDE)
def test_every_guide_links_its_games_section_of_the_reference(client, slug, language):
    assert f"](../../../../docs/rules.md#{slug})" in guide_text(slug, language)  # read on GitHub
    page = client.get(f"/rules/{slug}", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'href="/rules#{slug}"' in page  # read on a phone


@pytest.mark.parametrize("slug, language", EVERY_GUIDE)
def test_no_link_of_a_guide_page_is_broken(client, slug, language):
    page = client.get(f"/rules/{slug}", headers={"Accept-Language": language})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    main = re.search(r"<main>.*</main>", text, re.S).group(0)  # the guide and the other games'
    for href in set(HREFS.findall(main)):
        assert href.startswith(("/", "#")), f"{href}: the companion works without the internet"
        path, _, anchor = href.partition("#")
        target = client.get(path, headers={"Accept-Language": language}) if path else page
        assert target.status_code == 200, href
        if anchor:
            assert anchor in HEADING_IDS.findall(target.get_data(as_text=True)), href


@pytest.mark.parametrize("slug, language", EVERY_GUIDE)
def test_a_guide_page_is_in_the_pages_language_and_lists_the_other_games_guides(client, slug, language):
    page = client.get(f"/rules/{slug}", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'<html lang="{language}">' in page
    sections = [heading_id(heading) for heading in headings(guide_text(slug, language), 2)]
    assert HEADING_IDS.findall(page) == [slug, *sections, "other-guides"]
    listed = re.search(r'<nav class="rules other-guides".*?</nav>', page, re.S).group(0)
    assert sorted(HREFS.findall(listed)) == sorted(f"/rules/{other}" for other in GAMES if other != slug)


def test_the_language_switcher_changes_the_guide_too(client):
    client.get("/language/pt?next=/rules/lobo")
    page = client.get("/rules/lobo", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="pt">' in page and '<h2 id="preparação">Preparação</h2>' in page


def test_a_guide_of_a_game_there_is_not_says_so(client):
    page = client.get("/rules/chess", headers={"Accept-Language": "en"})
    assert page.status_code == 404
    assert "There is no game called chess here." in page.get_data(as_text=True)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_link_of_every_games_table_page_opens_its_guide_in_the_pages_language(client, slug, language):
    game = GAMES[slug]
    players = [f"P{n}" for n in range(game.min_players)]
    created = client.post("/api/tables", json={"game": slug, "players": players, "options": start_options(slug)}).get_json()
    headers = {"Accept-Language": language}
    for page in (f"/t/{created['id']}", f"/t/{created['id']}/screen"):
        assert rules_links(client.get(page, headers=headers).get_data(as_text=True)) == [f"/rules/{slug}"], page
    guide = client.get(f"/rules/{slug}", headers=headers).get_data(as_text=True)
    assert f'<html lang="{language}">' in guide
    assert f'<h1 id="{slug}">' in guide


@pytest.mark.parametrize("slug", GAMES)
def test_the_results_page_links_its_games_guide(client, slug):
    table = play_scene(client, slug, GAMES[slug].scenes()["finished"])
    page = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    assert rules_links(page) == [f"/rules/{slug}"]


def test_the_start_form_links_every_games_guide(client):
    home = client.get("/").get_data(as_text=True)
    links = re.search(r'<p class="rules-link">.*?</p>', home, re.S).group(0)
    assert HREFS.findall(links) == [f"/rules/{slug}" for slug in GAMES]

"""Issue 7: the language follows the phone's own setting (Accept-Language), the switcher on
every page changes it for that phone only and is remembered, and <html lang> says which."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.web.i18n import LANGUAGE_COOKIE, LANGUAGES


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True)).group(1)


def switcher_links(response) -> dict[str, str]:
    """The switcher's links, by language: each leads to /language/<code>?next=<this page>."""
    page = response.get_data(as_text=True)
    nav = re.search(r'<footer class="languages">(.*?)</footer>', page, re.S).group(1)
    return {code: href.replace("&amp;", "&") for code, href in re.findall(r'<a lang="(\w+)" hreflang="\w+" href="([^"]+)"', nav)}


@pytest.mark.parametrize(
    ("accept_language", "language"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt"),
        ("pt-PT", "pt"),
        ("fr-FR,en;q=0.5", "fr"),  # a regional variant counts as its language, before a lower English
        ("fr-CA,fr;q=0.9", "fr"),
        ("ro-RO,ro;q=0.9,en;q=0.5", "ro"),
        ("en-GB,pt;q=0.5", "en"),
        ("de-DE,de;q=0.9,fr;q=0.4", "fr"),  # the first language we speak, even if not the first asked
        ("de-DE,de;q=0.9", "en"),  # none we speak: English
        ("", "en"),
        ("*", "en"),
    ],
)
def test_issue_7_the_language_follows_accept_language(client, accept_language, language):
    response = client.get("/", headers={"Accept-Language": accept_language})
    assert html_lang(response) == language


def test_issue_7_every_page_has_the_switcher_naming_each_language_in_itself(client):
    response = client.get("/", headers={"Accept-Language": "fr"})
    page = response.get_data(as_text=True)
    assert '<strong lang="fr" aria-current="true">Français</strong>' in page
    links = switcher_links(response)
    assert sorted(links) == ["en", "pt", "ro"]
    for code, href in links.items():
        assert href == f"/language/{code}?next=/"
        assert f">{LANGUAGES[code]}</a>" in page
    error_page = client.get("/t/ZZZZZZ", headers={"Accept-Language": "ro"})
    assert error_page.status_code == 404
    assert sorted(switcher_links(error_page)) == ["en", "fr", "pt"]


def test_issue_7_the_switcher_is_remembered_by_this_phone_only(app):
    created = app.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    ana, bruno = app.test_client(), app.test_client()
    ana.get(f"/j/{created['seats'][0]['token']}")
    table = f"/t/{created['id']}"
    french_phone = {"Accept-Language": "fr-FR,fr;q=0.9"}

    page = ana.get(table, headers=french_phone)
    assert html_lang(page) == "fr"
    switched = ana.get(switcher_links(page)["ro"], headers=french_phone)
    assert switched.status_code == 303
    assert switched.headers["Location"] == table  # back to the page it was tapped on
    [cookie] = [cookie for cookie in switched.headers.getlist("Set-Cookie") if cookie.startswith(f"{LANGUAGE_COOKIE}=")]
    assert cookie.startswith(f"{LANGUAGE_COOKIE}=ro;") and "HttpOnly" in cookie and "SameSite=Lax" in cookie

    # Remembered over the phone's own setting, on every page, the API's sentences included.
    assert html_lang(ana.get(table, headers=french_phone)) == "ro"
    assert html_lang(ana.get("/", headers=french_phone)) == "ro"
    refused = ana.post(f"/api/tables/{created['id']}/undo", headers={"Authorization": "Bearer nope", **french_phone})
    assert refused.get_json()["error"] == f"Acest link sau token nu aparține mesei {created['id']}."
    # Another phone is not affected.
    assert html_lang(bruno.get(table, headers=french_phone)) == "fr"


def test_issue_7_the_switcher_returns_to_the_page_a_refused_form_was_sent_from(client):
    page = client.get("/")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    refused = client.post(
        "/tables", data={"csrf_token": token, "game": "pickomino", "player": ["Ana"]},
        headers={"Referer": "http://localhost/", "Accept-Language": "pt"},
    )
    assert refused.status_code == 422
    assert "Pickomino joga-se com 2 a 7 jogadores, não com 1." in refused.get_data(as_text=True)
    assert switcher_links(refused)["en"] == "/language/en?next=/"  # not /tables, which only takes forms


@pytest.mark.parametrize("unsafe", ["//evil.example/", "https://evil.example/", "/\\evil.example", "evil", ""])
def test_issue_7_the_switcher_only_returns_to_this_sites_own_pages(client, unsafe):
    response = client.get("/language/pt", query_string={"next": unsafe})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_issue_7_the_switcher_keeps_the_address_of_the_page_with_its_query(client):
    page = client.get("/t/ZZZZZZ?as=1")
    href = switcher_links(page)["pt"]
    assert parse_qs(urlsplit(href).query)["next"] == ["/t/ZZZZZZ?as=1"]


def test_issue_7_a_language_the_companion_does_not_speak_is_refused_and_nothing_is_remembered(client):
    response = client.get("/language/de?next=/")
    assert response.status_code == 404
    assert not [cookie for cookie in response.headers.getlist("Set-Cookie") if cookie.startswith(f"{LANGUAGE_COOKIE}=")]
    assert html_lang(client.get("/")) == "en"


def test_issue_7_a_forged_language_cookie_is_ignored(client):
    client.set_cookie(LANGUAGE_COOKIE, "xx")
    assert html_lang(client.get("/", headers={"Accept-Language": "ro"})) == "ro"


def test_issue_7_answers_say_their_language_and_that_it_varies_by_phone(client):
    page = client.get("/", headers={"Accept-Language": "ro"})
    api = client.get("/api/tables/ZZZZZZ", headers={"Accept-Language": "pt-BR"})
    for response, language in ((page, "ro"), (api, "pt")):
        assert response.headers["Content-Language"] == language
        assert {"Accept-Language", "Cookie"} <= set(response.vary)
    assert "Content-Language" not in client.get("/static/app.css").headers  # the same file for everyone


def test_issue_7_an_answer_without_content_names_no_language(client):
    """A poll that finds nothing new answers 204 every 2 s per phone: no words, no language."""
    table = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    unchanged = client.get(f"/t/{table['id']}/poll?v=0", headers={"HX-Request": "true", "Accept-Language": "ro"})
    assert unchanged.status_code == 204
    assert "Content-Language" not in unchanged.headers
    assert {"Accept-Language", "Cookie"} <= set(unchanged.vary)

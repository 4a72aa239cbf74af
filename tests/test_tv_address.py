"""/tv: the short address a TV opens to show a table's screen (a TV cannot scan the
screen's QR code, and /t/EMEWPR/screen is long to type with a remote). A big field takes
the table's code in any case and leads to that table's screen; a wrong code gets a
sentence and the field again, never a 5xx; the host's join page says how."""

from __future__ import annotations

import html
import re

import pytest

from companion.tables.service import TABLE_ID_ALPHABET

from played import create, host_phone, table_count


def alert(page: str) -> str | None:
    found = re.search(r'role="alert">([^<]+)<', page)
    return html.unescape(found.group(1).strip()) if found else None


def field(page: str) -> str:
    found = re.search(r"<input[^>]*\bname=\"code\"[^>]*>", page)
    assert found, "no field for the code"
    return found.group(0)


def test_tv_shows_a_field_for_the_tables_code_that_has_the_focus(client):
    response = client.get("/tv")
    assert response.status_code == 200
    typed = field(response.text)
    assert "autofocus" in typed  # a remote types into it at once: no pointer to click it with
    assert 'autocomplete="off"' in typed
    assert '<label for="tv-code">The table\'s code</label>' in html.unescape(response.text)
    assert re.search(r'<form method="get" action="/tv"', response.text)  # Enter submits it


@pytest.mark.parametrize("typed", ["{id}", "{lower}", " {lower} ", "{a} {b}", "{lower}\t"])
def test_a_code_typed_in_any_case_leads_to_that_tables_screen(client, typed):
    table_id = create(client).id
    code = typed.format(id=table_id, lower=table_id.lower(), a=table_id[:3].lower(), b=table_id[3:])
    response = client.get("/tv", query_string={"code": code})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/t/{table_id}/screen"
    assert client.get(response.headers["Location"]).status_code == 200


def test_a_code_of_no_table_gets_a_sentence_and_the_field_again(app, client):
    create(client)
    tables = table_count(app)
    unknown = "Z" * 6
    response = client.get("/tv", query_string={"code": unknown.lower()})
    assert response.status_code == 404
    assert alert(response.text) == "No table has the code ZZZZZZ: check it on the host's phone."
    assert 'value="zzzzzz"' in field(response.text)  # what was typed, to be put right
    assert 'aria-invalid="true"' in field(response.text)
    assert table_count(app) == tables


@pytest.mark.parametrize(
    "typed",
    ["", "ABC", "ABCDEFG", "EMEWP0", "EMEWPO", "EMEW1R", "EMEWPI", "EMEWPL", "EMEW-PR", "ÉMEWPR", "/t/EMEWPR/screen",
     "\x00EMEWPR", "EMEWPR\u202e", "x" * 5000],
)
def test_a_code_of_the_wrong_shape_gets_a_sentence_never_a_5xx(app, client, typed):
    tables = table_count(app)
    response = client.get("/tv", query_string={"code": typed})
    assert response.status_code == 422
    assert alert(response.text) == "A table's code has six letters and digits (never 0, 1, I, L or O): the host's phone shows it."
    shown = html.unescape(re.search(r'value="([^"]*)"', field(response.text)).group(1))
    assert shown == (typed if len(typed) <= 20 and typed.isprintable() else "")
    assert table_count(app) == tables


def test_the_sentence_names_the_characters_a_code_never_has():
    assert not set("01ILO") & set(TABLE_ID_ALPHABET)


def test_the_host_s_join_page_says_how_to_show_the_table_on_a_tv(app, client):
    app.config["PUBLIC_URL"] = "http://192.168.1.23:5000"
    table = create(client)
    page = host_phone(app, table).get(f"/t/{table.id}/join").text
    assert f"On a TV: open http://192.168.1.23:5000/tv and type {table.id}" in html.unescape(page)


def test_the_tv_page_and_the_join_page_line_are_in_the_phones_language(app, client):
    table = create(client)
    portuguese = {"Accept-Language": "pt-PT"}
    assert "Numa televisão: abra" in host_phone(app, table).get(f"/t/{table.id}/join", headers=portuguese).text
    page = client.get("/tv", headers=portuguese).text
    assert "O código da mesa" in page and "Mostrar a mesa" in page
    refused = client.get("/tv", query_string={"code": "ZZZZZZ"}, headers={"Accept-Language": "fr"})
    assert alert(refused.text) == "Aucune table n'a le code ZZZZZZ : vérifiez-le sur le téléphone de l'hôte."

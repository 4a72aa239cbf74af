"""Addresses that name no table or player the companion could have: a table id of another
shape than the companion gives (a NUL, lowercase, a letter no id has, any length but six)
and a player's name no player can have. Each is answered 404 with the usual sentence on
both databases, and never reaches the database: PostgreSQL refuses text holding a NUL,
which answered 500 on every route with a table id."""

from __future__ import annotations

import pytest

from databases import on_both_databases
from played import bearer, create, host_phone
from companion.tables import service
from companion.web import players

database = on_both_databases()

MALFORMED_IDS = ["%00", "AB%00CD", "ZZZZZ%00", "zzzzzz", "ZZZZZZZ", "ZZZZZ", "ZZZZZO", "%C3%89" * 6, "Z" * 5000, "%ED%A0%80"]

API_ROUTES = [
    ("GET", "/api/tables/{id}"),
    ("GET", "/api/tables/{id}/log"),
    ("POST", "/api/tables/{id}/actions"),
    ("POST", "/api/tables/{id}/undo"),
    ("POST", "/api/tables/{id}/redo"),
]
PAGE_ROUTES = [
    ("GET", "/t/{id}"),
    ("GET", "/t/{id}/poll?v=0"),
    ("GET", "/t/{id}/join"),
    ("GET", "/t/{id}/events"),
    ("GET", "/t/{id}/results"),
    ("GET", "/t/{id}/results.svg"),
    ("GET", "/t/{id}/rematch"),
    ("GET", "/t/{id}/screen"),
    ("GET", "/t/{id}/screen/poll?v=0"),
    ("GET", "/t/{id}/export.csv"),
    ("POST", "/t/{id}/act"),
    ("POST", "/t/{id}/undo"),
    ("POST", "/t/{id}/redo"),
    ("POST", "/t/{id}/close"),
    ("POST", "/t/{id}/rematch"),
]


@pytest.mark.parametrize("table_id", MALFORMED_IDS)
def test_a_malformed_table_id_is_an_unknown_table_on_every_api_route_without_repeating_it(client, table_id):
    table = create(client)
    for method, route in API_ROUTES:
        response = client.open(route.format(id=table_id), method=method, json={"type": "stop"}, headers=bearer(table.host))
        assert response.status_code == 404, (route, response.get_data(as_text=True))
        assert response.get_json() == {"code": "unknown_table", "error": "There is no table with that code."}, route


@pytest.mark.parametrize("table_id", MALFORMED_IDS)
def test_a_malformed_table_id_is_the_404_page_on_every_page_route(app, table_id):
    table = create(app.test_client())
    phone = host_phone(app, table)  # a phone that could act at a table, though not with this id
    for method, route in PAGE_ROUTES:
        response = phone.open(route.format(id=table_id), method=method, data={"action": '{"type": "stop"}'})
        if method == "GET" and service.is_table_id(table_id.upper()):  # a code typed in lower case
            assert response.status_code == 308 and f"/t/{table_id.upper()}" in response.headers["Location"], route
            continue
        assert response.status_code == 404, (route, response.get_data(as_text=True)[:300])
        assert "There is nothing here. Check the link." in response.get_data(as_text=True), route


def test_a_well_formed_unknown_table_id_still_says_which_table_is_unknown(client):
    response = client.get("/api/tables/ZZZZZZ")
    assert response.get_json() == {"code": "unknown_table", "error": "There is no table ZZZZZZ."}
    assert "There is no table ZZZZZZ." in client.get("/t/ZZZZZZ/results").get_data(as_text=True)


@pytest.mark.parametrize("path", ["Ana%00", "%00", "A" * 25, "A" * 5000])
def test_a_name_no_player_can_have_is_nobody_without_asking_the_database(client, monkeypatch, path):
    create(client, "lobo", ("Ana", "Bruno"))
    assert client.get("/players/Ana").status_code == 200
    monkeypatch.setattr(players.people, "person", lambda *_: pytest.fail("the database was asked"))
    response = client.get(f"/players/{path}")
    assert response.status_code == 404
    assert "Nobody called " in response.get_data(as_text=True)
    assert " has played at this companion." in response.get_data(as_text=True)


def test_a_player_whose_name_was_stored_before_its_characters_were_refused_keeps_their_page(app, client):
    """A name typed with a right-to-left mark before such marks were refused: still a
    player of this companion, whose page answers."""
    from companion.tables import store
    from companion.web.database import get_db

    table = create(client, "lobo", ("Dana", "Bruno"))
    stored = "\u05d3\u05e0\u05d4\u200f"  # Hebrew "Dana" and a right-to-left mark
    with app.app_context():
        db = get_db()
        with db.write(table.id):
            db.execute(
                "UPDATE seats SET name = ?, name_key = ? WHERE table_id = ? AND seat = 0",
                [stored, store.name_key(stored), table.id],
            )
    assert client.get("/players/%D7%93%D7%A0%D7%94%E2%80%8F").status_code == 200
    assert client.get("/players/%E2%80%8FAna").status_code == 404  # asked, and nobody


def test_a_table_code_typed_in_lower_case_leads_to_its_table(client):
    """Host QA: /t/wdcq5c, typed from the table screen, said "There is nothing here." A
    page's address leads to the table's own; the API still takes only the code as given."""
    table_id = client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).get_json()["id"]
    lower = table_id.lower()
    for path in (f"/t/{lower}", f"/t/{lower}/screen", f"/t/{lower}?log=all"):
        moved = client.get(path)
        assert moved.status_code == 308, path
        assert moved.headers["Location"] == path.replace(lower, table_id)
    assert client.get(f"/t/{lower}", follow_redirects=True).status_code == 200
    assert client.get(f"/api/tables/{lower}").status_code == 404
    assert client.post(f"/t/{lower}/act").status_code == 404  # a tap names the table as its page gave it
    assert client.get("/t/zzzzz1").status_code == 404  # no table code can hold a 1

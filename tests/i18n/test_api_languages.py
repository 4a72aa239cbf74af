"""Issue 7: the JSON API answers its `error` sentences in the request's Accept-Language, with
the same English `code`; the sentences inside a table's state and log are translated too."""

from __future__ import annotations

import pytest

LANGUAGE_OF = {"en": "en-GB", "pt": "pt-BR,pt;q=0.9", "fr": "fr-FR,fr;q=0.9", "ro": "ro-RO,ro;q=0.9"}


def create(client, game="pickomino", players=("Ana", "Bruno"), **headers):
    return client.post("/api/tables", json={"game": game, "players": list(players)}, headers=headers)


def act(client, table, seat, action, language="en"):
    return client.post(
        f"/api/tables/{table['id']}/actions",
        json=action,
        headers={"Authorization": f"Bearer {table['seats'][seat]['token']}", "Accept-Language": LANGUAGE_OF[language]},
    )


@pytest.fixture
def table(client):
    return create(client).get_json()


def refusals(client, table) -> dict[str, callable]:
    """Refused requests of every kind, each sent in a given language."""
    return {
        "player_count": lambda headers: create(client, players=("Ana",), **headers),
        "unknown_game": lambda headers: client.post("/api/tables", json={"game": "chess", "players": ["A", "B"]}, headers=headers),
        "unknown_table": lambda headers: client.get("/api/tables/ZZZZZZ", headers=headers),
        "not_your_turn": lambda headers: client.post(
            f"/api/tables/{table['id']}/actions", json={"type": "stop"},
            headers={"Authorization": f"Bearer {table['seats'][1]['token']}", **headers},
        ),
        "nothing_set_aside": lambda headers: client.post(
            f"/api/tables/{table['id']}/actions", json={"type": "stop"},
            headers={"Authorization": f"Bearer {table['seats'][0]['token']}", **headers},
        ),
        "malformed_json": lambda headers: client.post(
            "/api/tables", data="[", content_type="application/json", headers=headers
        ),
        "not_found": lambda headers: client.get("/api/nothing-here", headers=headers),
        "method_not_allowed": lambda headers: client.delete("/api/tables", headers=headers),
    }


EXPECTED = {
    ("player_count", "pt"): "Pickomino joga-se com 2 a 7 jogadores, não com 1.",
    ("player_count", "fr"): "Pickomino se joue de 2 à 7 joueurs, pas à 1.",
    ("player_count", "ro"): "Pickomino se joacă de 2 până la 7 jucători, nu de 1.",
    ("not_your_turn", "pt"): "É a vez de Ana, não a sua.",
    ("not_your_turn", "fr"): "C'est à Ana de jouer, pas à vous.",
    ("not_your_turn", "ro"): "Ana este la rând, nu tu.",
    ("nothing_set_aside", "pt"): "Separe dados antes de terminar: um turno começa com o lançamento de todos os 8 dados.",
    ("nothing_set_aside", "fr"): "Mettez des dés de côté avant de vous arrêter\u00a0: un tour commence par le lancer des 8 dés.",
    ("nothing_set_aside", "ro"): "Pune zaruri deoparte înainte să te oprești: o rundă începe cu aruncarea tuturor celor 8 zaruri.",
}


@pytest.mark.parametrize("language", ["pt", "fr", "ro"])
def test_issue_7_api_error_sentences_are_in_the_requests_language_and_codes_stay_english(client, table, language):
    for code, send in refusals(client, table).items():
        english = send({"Accept-Language": LANGUAGE_OF["en"]})
        translated = send({"Accept-Language": LANGUAGE_OF[language]})
        assert translated.status_code == english.status_code, code
        assert english.get_json()["code"] == translated.get_json()["code"] == code
        assert translated.get_json()["error"] != english.get_json()["error"], (code, language)
        if (code, language) in EXPECTED:
            assert translated.get_json()["error"] == EXPECTED[(code, language)]


def test_issue_7_api_state_and_log_sentences_are_translated(client, table):
    assert act(client, table, 0, {"type": "set_aside", "face": "worm", "count": 8}).status_code == 200
    texts = {}
    for language, header in LANGUAGE_OF.items():
        state = client.get(f"/api/tables/{table['id']}", headers={"Accept-Language": header}).get_json()
        log = client.get(f"/api/tables/{table['id']}/log", headers={"Accept-Language": header}).get_json()
        texts[language] = (state["state"]["last_turn"]["text"], log["events"][0]["text"])
    assert texts == {
        "en": ("Ana scored 40 and took 36 from the grill.", "set aside 8 × worm — scored 40 and took 36 from the grill"),
        "pt": ("Ana fez 40 e tirou a 36 da grelha.", "separou 8 × minhoca — fez 40 e tirou a 36 da grelha"),
        "fr": (
            "Ana a fait 40 et a pris le pickomino 36 au centre de la table.",
            "a mis de côté 8 × ver — a fait 40 et a pris le pickomino 36 au centre de la table",
        ),
        "ro": (
            "Ana a obținut 40 și a luat piesa 36 de pe grătar.",
            "a pus deoparte 8 × viermișor — a obținut 40 și a luat piesa 36 de pe grătar",
        ),
    }


def test_issue_7_api_ranking_tie_breaks_are_translated(client):
    table = create(client, game="twenty-one").get_json()
    ones = {color: 1 for color in ("white", "black", "red", "blue", "yellow", "green")}
    for round_ in range(5):
        assert act(client, table, round_ % 2, {"type": "roll", "dice": ones}).status_code == 200
        for seat in (0, 1):
            assert act(client, table, seat, {"type": "enter", "colors": list(ones)}).status_code == 200
    ranking = client.get(f"/api/tables/{table['id']}", headers={"Accept-Language": "ro"}).get_json()["ranking"]
    assert [entry["tiebreak"] for entry in ranking] == [
        "Ana și Bruno sunt la egalitate cu 35 de puncte: regulile nu prevăd departajare, împart locul."
    ] * 2

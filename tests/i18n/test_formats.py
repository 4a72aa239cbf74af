"""Issue 7: plural forms right in each language (Romanian's three), numbers and dates
written the language's way."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from babel.dates import format_datetime

from companion.games.text import NP_, N_, listing
from companion.web.i18n import render


def rendered(app, language: str, text) -> str:
    with app.test_request_context(headers={"Accept-Language": language}):
        return render(text)


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("en", {0: "0 worms", 1: "1 worm", 2: "2 worms", 20: "20 worms"}),
        ("pt", {0: "0 minhocas", 1: "1 minhoca", 2: "2 minhocas", 20: "20 minhocas"}),
        ("fr", {0: "0 ver", 1: "1 ver", 2: "2 vers", 20: "20 vers"}),  # French: 0 is singular
        # Romanian: one; few (0, 2–19, and 101–119 …); many, with "de" (20 de, 100 de).
        ("ro", {0: "0 viermișori", 1: "1 viermișor", 2: "2 viermișori", 19: "19 viermișori",
                20: "20 de viermișori", 100: "100 de viermișori", 101: "101 viermișori"}),
    ],
)
def test_issue_7_plural_forms_are_right_in_each_language(app, language, counts):
    for count, expected in counts.items():
        assert rendered(app, language, NP_("%(num)s worm", "%(num)s worms", count)) == expected


@pytest.mark.parametrize(
    ("language", "names", "colours"),
    [("en", "Ana, Bruno and Caio", "white and red"), ("fr", "Ana, Bruno et Caio", "blanc et rouge")],
)
def test_issue_7_lists_join_names_as_written_and_words_translated(app, language, names, colours):
    assert rendered(app, language, listing(["Ana"])) == "Ana"
    assert rendered(app, language, listing(["Ana", "Bruno", "Caio"])) == names
    assert rendered(app, language, listing([N_("white"), N_("red")])) == colours


def test_issue_7_plural_forms_in_a_template(app):
    """The templates' ngettext goes through the same catalog: a player row of Heckmeck Barbecue."""
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "heckmeck-barbecue", "players": ["Ana", "Bruno"]}).get_json()
    page = client.get(f"/t/{table['id']}", headers={"Accept-Language": "ro"}).get_data(as_text=True)
    assert "10 farfurii în mână" in page and "0 viermișori" in page and "12 melci în rezervă" in page


@pytest.mark.parametrize(
    ("language", "number"),
    [("en", "12,345"), ("pt", "12.345"), ("fr", "12\u202f345"), ("ro", "12.345")],
)
def test_issue_7_large_numbers_in_sentences_are_written_the_languages_way(client, language, number):
    table = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    refused = client.post(
        f"/api/tables/{table['id']}/actions",
        json={"type": "stop", "seat": 12345},
        headers={"Authorization": f"Bearer {table['host_token']}", "Accept-Language": language},
    )
    assert refused.get_json()["code"] == "unknown_seat"
    assert number in refused.get_json()["error"]


def test_issue_7_numbers_inside_nested_sentences_and_plurals_are_localized_too(app):
    nested = N_("Tied on %(score)s: %(reason)s", score=1000, reason=NP_("%(num)s worm", "%(num)s worms", 2000))
    assert rendered(app, "fr", nested) == "Tied on 1\u202f000: 2\u202f000 vers"
    assert rendered(app, "en", nested) == "Tied on 1,000: 2,000 worms"


def test_issue_7_dates_on_the_home_page_are_written_the_languages_way(client):
    client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]})
    shown = {}
    for language in ("en", "pt", "fr", "ro"):
        page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
        stamp, text = re.search(r'<time datetime="([^"]+)">([^<]+)</time>', page).groups()
        # In the server's own time zone: the phones are in the same room.
        assert text == format_datetime(datetime.fromisoformat(stamp).astimezone(), "short", locale=language)
        shown[language] = text
    assert re.fullmatch(r"\d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s[AP]M", shown["en"])
    assert re.fullmatch(r"\d{2}/\d{2}/\d{4} \d{2}:\d{2}", shown["pt"])
    assert re.fullmatch(r"\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}", shown["ro"])


@pytest.mark.parametrize(
    ("accept", "shape"),
    [
        ("en-GB,en;q=0.8", r"\d{2}/\d{2}/\d{4}, \d{2}:\d{2}"),  # a British phone: day first, 24 hours
        ("en-US,en;q=0.8", r"\d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s[AP]M"),
        ("de-DE,en-AU;q=0.8", r"\d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s[ap]m"),  # English, as an Australian writes it
        ("pt-PT", r"\d{2}/\d{2}/\d{2}, \d{2}:\d{2}"),
        ("en-ZZ,en-@@;q=0.9", r"\d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s[AP]M"),  # regions no one has: plain English
    ],
)
def test_issue_7_dates_are_written_as_the_phones_own_region_writes_them(client, accept, shape):
    client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]})
    page = client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    text = re.search(r'<time datetime="[^"]+">([^<]+)</time>', page).group(1)
    assert re.fullmatch(shape, text), text


@pytest.mark.parametrize("language", ["en", "pt", "fr", "ro"])
def test_issue_7_small_whole_numbers_are_written_as_babel_writes_them(app, language):
    """whole_number skips Babel for 0..999, where every language here writes plain digits;
    from 1000 on, and below 0, Babel writes them (1,000 / 1.000 / 1 000), a negative one
    with the minus sign the sentences write (U+2212: "penalties −5"), not a hyphen."""
    from flask_babel import format_decimal

    from companion.web.i18n import whole_number

    with app.test_request_context(headers={"Accept-Language": language}):
        for value in [*range(0, 1001), 1234, 1_000_000]:
            assert whole_number(value) == format_decimal(value)
        for value in [-1, -27, -1000]:
            assert whole_number(value) == "\u2212" + format_decimal(-value)


def test_issue_7_a_negative_score_is_written_with_the_minus_sign_its_details_use(client):
    """Qwixx: Ana passes four times (a penalty each) and Bruno crosses nothing: the results
    say -20 with the same minus sign as "penalties −20", not a hyphen."""
    table = client.post("/api/tables", json={"game": "qwixx", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    dice = {"white1": 1, "white2": 1, "red": 1, "yellow": 1, "green": 1, "blue": 1}
    for turn in range(7):
        seat = turn % 2
        for action in ({"type": "roll", "dice": dice}, {"type": "white", "row": None, "seat": 0},
                       {"type": "white", "row": None, "seat": 1}, {"type": "colour", "row": None, "seat": seat}):
            assert client.post(f"/api/tables/{table['id']}/actions", json=action, headers=host).status_code == 200
    assert client.get(f"/api/tables/{table['id']}").get_json()["status"] == "finished"
    for path in (f"/t/{table['id']}/results", f"/t/{table['id']}", f"/t/{table['id']}/screen", "/players/Ana"):
        page = client.get(path).get_data(as_text=True)
        assert "\u221220" in page, path
        assert not re.search(r"(?<![\w-])-20\b", page), path
    assert "\u221220 points" in client.get(f"/t/{table['id']}").get_data(as_text=True)  # a sentence of a template
    assert "penalties \u221220" in client.get(f"/t/{table['id']}/results").get_data(as_text=True)


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("en", {-1: "\u22121 point", -5: "\u22125 points"}),
        ("fr", {-1: "\u22121 point", -5: "\u22125 points", -20: "\u221220 points"}),  # not "−5 point"
        ("ro", {-1: "\u22121 punct", -5: "\u22125 puncte", -20: "\u221220 de puncte"}),  # not "−5 de puncte"
    ],
)
def test_issue_7_a_negative_number_takes_the_plural_of_its_size(app, language, counts):
    """Game night, Qwixx in French and Romanian: a first penalty read "−5 point", "−5 de
    puncte". The plural form goes by the number's size (CLDR's operand), the sign aside."""
    for count, expected in counts.items():
        assert rendered(app, language, NP_("%(num)s point", "%(num)s points", count)) == expected


@pytest.mark.parametrize(("language", "score"), [("fr", "\u22125 points"), ("ro", "\u22125 puncte")])
def test_issue_7_a_negative_score_on_a_page_takes_the_plural_of_its_size(client, language, score):
    table = client.post("/api/tables", json={"game": "qwixx", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    dice = {"white1": 1, "white2": 1, "red": 1, "yellow": 1, "green": 1, "blue": 1}
    for action in ({"type": "roll", "dice": dice}, {"type": "white", "row": None, "seat": 0},
                   {"type": "white", "row": None, "seat": 1}, {"type": "colour", "row": None, "seat": 0}):
        assert client.post(f"/api/tables/{table['id']}/actions", json=action, headers=host).status_code == 200
    page = client.get(f"/t/{table['id']}", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'<span class="qx-total key-number">{score}</span>' in page


def test_issue_7_a_qwixx_die_s_colour_agrees_with_the_die_not_the_row(app, client):
    """Game night, in French: "Cocher 9 dans la ligne verte (blanc 1 + verte)"; the die is
    "vert" (un dé), the row "verte" (une ligne)."""
    table = client.post("/api/tables", json={"game": "qwixx", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    dice = {"white1": 3, "white2": 1, "red": 1, "yellow": 1, "green": 6, "blue": 1}
    for action in ({"type": "roll", "dice": dice}, {"type": "white", "row": None, "seat": 0}, {"type": "white", "row": None, "seat": 1}):
        assert client.post(f"/api/tables/{table['id']}/actions", json=action, headers=host).status_code == 200
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["tables"] = {table["id"]: {"host": table["host_token"]}}
    page = phone.get(f"/t/{table['id']}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Cocher 9 dans la ligne verte (blanc 1 + vert)" in page
    colour = {"type": "colour", "row": "green", "white": 1, "seat": 0}
    assert client.post(f"/api/tables/{table['id']}/actions", json=colour, headers=host).status_code == 200
    log = client.get(f"/api/tables/{table['id']}/log", headers={"Accept-Language": "fr"}).get_json()["events"]
    assert log[-1]["text"] == "a coché 9 dans la ligne verte (blanc 1 + vert)"
    log = client.get(f"/api/tables/{table['id']}/log", headers={"Accept-Language": "pt"}).get_json()["events"]
    assert log[-1]["text"] == "riscou 9 na linha verde (branco 1 + verde)"


def barbecue_endings():
    """Heckmeck Barbecue's three ways to end, each played to its last line: a failure with
    the snail supply empty, a failure with no spot for a snail, a result above 36 with no
    snail left anywhere."""
    from companion.games import GAMES

    game = GAMES["heckmeck-barbecue"]
    fresh = game.setup(["Ana", "Bruno"], game.effective_options({}))
    supply_empty = {**fresh, "snail_supply": 0}
    no_room = {**fresh, "spots": [{**spot, "plates": [0, 0]} for spot in fresh["spots"]]}
    failing = [{"type": "set_aside", "face": 1, "count": 1}, {"type": "bust"}]
    above_36 = [{"type": "set_aside", "face": "worm", "count": 4}, {"type": "set_aside", "face": 6, "count": 3}, {"type": "set_aside", "face": 4, "count": 1}]
    for state, actions in [(supply_empty, failing), (no_room, failing), (supply_empty, above_36)]:
        for action in actions:
            state = game.apply(state, 0, action)
        assert game.is_finished(state)
        yield game.describe_last_turn(state)


@pytest.mark.parametrize("language", ["en", "pt", "fr", "ro"])
def test_issue_13_every_end_of_game_sentence_has_one_colon_at_most(app, language):
    """A failed turn's line is "<who> failed (<why>): <what followed>": what followed, and
    above all the game's end, brings no colon of its own."""
    endings = [rendered(app, language, line) for line in barbecue_endings()]
    assert len(endings) == 3
    for line in endings:
        assert line.count(":") == 1, line

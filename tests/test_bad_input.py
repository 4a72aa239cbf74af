"""Hostile input never gets a 5xx, and a refused request changes nothing.

Hypothesis sends, against the JSON API and the page forms of every game, the inputs that
once answered 500: integers far past any bound (~10^26 and beyond), numbers of thousands
of digits, Unicode digits that are not ASCII (², ①, ٣, ９), and any Unicode text: lone
surrogates, zero-width and bidi characters, control characters, right-to-left scripts.
Every answer must be below 500, and every refused one must leave the database as it was
(no table created, no version moved).
"""

from __future__ import annotations

import html
import json
import re
import sqlite3
from urllib.parse import quote
from xml.etree import ElementTree
from xml.sax.saxutils import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.app import create_app
from companion.games import GAMES
from companion.games.names import clean_name, name_problem
from companion.inputs import NUMBER_LIMIT
from played import act, create, csrf_of, host_phone

FUZZ = settings(settings.get_profile("app"))  # as many examples as the tier plays (conftest.py)

huge_integers = st.one_of(
    st.integers(min_value=NUMBER_LIMIT + 1, max_value=10**40),
    st.integers(max_value=-NUMBER_LIMIT - 1, min_value=-(10**40)),
    st.just(10**26),
    st.just(-(10**26)),
)
unicode_digits = st.lists(st.sampled_from("²³①⑳٣۷߃१੨๙９𝟗Ⅻ½⁴₅"), min_size=1, max_size=4).map("".join)
lone_surrogates = st.integers(0xD800, 0xDFFF).map(chr)
invisible = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u2066", "\u200f", " "])
controls = st.sampled_from(["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"])
any_text = st.one_of(
    st.text(max_size=30),
    st.lists(st.one_of(lone_surrogates, invisible, controls, st.characters()), max_size=12).map("".join),
    unicode_digits,
    st.sampled_from(["עמית", "مريم", "Ⅻ", "\u202eanA", "A\u0301na", "🐑", "9" * 5000]),
)
hostile = st.one_of(huge_integers, any_text, unicode_digits, st.text(alphabet="0123456789", min_size=30, max_size=5000))


def with_hostile(base: dict, data) -> dict:
    """`base` with one field (or a new one) replaced by a hostile value, sometimes nested."""
    field = data.draw(st.sampled_from([*base, "seat", "expected_version", "extra"]))
    value = data.draw(st.one_of(hostile, st.lists(hostile, max_size=3), st.dictionaries(any_text, hostile, max_size=2)))
    return {**base, field: value}


def json_bytes(value) -> bytes:
    """JSON as a phone could send it: lone surrogates escaped (\\ud800), as JSON allows."""
    return json.dumps(value).encode()


def form_bytes(fields: list[tuple[str, str]]) -> bytes:
    """An urlencoded form. A lone surrogate goes as its raw (invalid UTF-8) bytes: no
    browser sends those, a script can."""
    return "&".join(
        f"{quote(name.encode('utf-8', 'surrogatepass'))}={quote(value.encode('utf-8', 'surrogatepass'))}"
        for name, value in fields
    ).encode()


# The actions of every game's scenes (Game.scenes): each game's own kinds of action, to be
# made hostile.
BASE_ACTIONS = {slug: [action for scene in game.scenes().values() for _, action in scene.actions] for slug, game in GAMES.items()}


class World:
    """One app on a real SQLite file with a table of every game, each with a phone joined
    to seat 0 and the API tokens."""

    def __init__(self, tmp_path):
        self.database = str(tmp_path / "companion.sqlite3")
        self.app = create_app({"DATABASE": self.database, "SECRET_KEY": "test", "TESTING": True})
        self.api = self.app.test_client()
        self.tables = {}
        for slug, game in GAMES.items():  # each at the point of its last scene before the end
            scene = [scene for name, scene in game.scenes().items() if name != "finished"][-1]
            created = self.api.post("/api/tables", json={"game": slug, "players": list(scene.players), "options": scene.options})
            assert created.status_code == 201, created.get_json()
            body = created.get_json()
            for seat, action in scene.actions:
                moved = self.api.post(f"/api/tables/{body['id']}/actions", json=action, headers=self.bearer(body["seats"][seat]["token"]))
                assert moved.status_code == 200, moved.get_json()
            phone = self.app.test_client()
            assert phone.get(f"/j/{body['seats'][0]['token']}").status_code == 303
            csrf = re.search(r'name="csrf_token" value="([^"]+)"', phone.get("/").text).group(1)  # the start form
            self.tables[slug] = {**body, "phone": phone, "csrf": csrf}

    @staticmethod
    def bearer(token: str) -> dict:
        return {"Authorization": f"Bearer {token}"}

    def snapshot(self) -> tuple:
        """Every table's version and row counts: what a refusal must leave alone."""
        connection = sqlite3.connect(self.database)
        try:
            return (
                tuple(connection.execute("SELECT id, version, status FROM game_tables ORDER BY id")),
                connection.execute("SELECT count(*) FROM events").fetchone(),
                connection.execute("SELECT count(*) FROM seats").fetchone(),
            )
        finally:
            connection.close()


@pytest.fixture
def world(tmp_path):
    return World(tmp_path)


def assert_no_5xx_and_refusal_changes_nothing(world, before, response, accepted=(200, 201, 303)):
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code not in accepted:
        assert world.snapshot() == before, f"a refused request ({response.status_code}) changed the database"


# --- the JSON API ---------------------------------------------------------------------------
@FUZZ
@given(data=st.data())
def test_bad_input_api_actions_of_every_game(world, data):
    slug = data.draw(st.sampled_from(sorted(world.tables)))
    table = world.tables[slug]
    action = with_hostile(data.draw(st.sampled_from(BASE_ACTIONS[slug])), data)
    token = data.draw(st.sampled_from([table["host_token"], table["seats"][0]["token"]]))
    before = world.snapshot()
    response = world.api.post(
        f"/api/tables/{table['id']}/actions", data=json_bytes(action), content_type="application/json", headers=world.bearer(token)
    )
    assert_no_5xx_and_refusal_changes_nothing(world, before, response)
    if response.status_code == 200:
        undone = world.api.post(f"/api/tables/{table['id']}/undo", headers=world.bearer(table["host_token"]))
        assert undone.status_code == 200


@FUZZ
@given(data=st.data(), names=st.lists(any_text, min_size=1, max_size=5))
def test_bad_input_api_new_tables(world, data, names):
    slug = data.draw(st.sampled_from(sorted(GAMES)))
    body = {"game": slug, "players": names}
    if data.draw(st.booleans()):
        body["options"] = data.draw(st.dictionaries(st.sampled_from(["spot_worms", "sheets", "deal_colors", "sheet_layouts"]), hostile, max_size=2))
    before = world.snapshot()
    response = world.api.post("/api/tables", data=json_bytes(body), content_type="application/json")
    assert_no_5xx_and_refusal_changes_nothing(world, before, response)


def refused_action(world, body: bytes):
    """The host's action `body` (raw JSON) at the Pickomino table: its answer, once it is
    checked that nothing changed."""
    table = world.tables["pickomino"]
    before = world.snapshot()
    response = world.api.post(
        f"/api/tables/{table['id']}/actions", data=body, content_type="application/json", headers=world.bearer(table["host_token"])
    )
    assert world.snapshot() == before
    return response


@FUZZ
@given(number=huge_integers)
def test_bad_input_a_huge_integer_is_refused_with_a_sentence(world, number):
    response = refused_action(world, json_bytes({"type": "set_aside", "face": number, "count": 1}))
    assert response.status_code == 422  # shared/API.md: well-formed but out of range
    assert response.get_json() == {"code": "number_too_large", "error": "A number in this request is too large: numbers go up to 1,000,000,000."}


@pytest.mark.parametrize("number", [b"1e10", b"-2.5e12", b"1e999"])
def test_bad_input_a_huge_fraction_is_a_wrong_type_refused_before_its_size_is_written(world, number):
    """Every number of the API is a whole one: a fraction is a wrong type (400, as 1.5 is),
    refused here before a sentence would have to write its size."""
    response = refused_action(world, b'{"type": "set_aside", "face": "worm", "count": ' + number + b"}")
    assert response.status_code == 400
    assert response.get_json()["code"] == "number_too_large"


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_bad_input_nan_and_infinity_are_not_json_numbers_and_are_refused_as_such(world, constant):
    response = refused_action(world, b'{"type": "set_aside", "face": "worm", "count": ' + constant + b"}")
    assert response.status_code == 400
    assert response.get_json() == {"code": "malformed_json", "error": "NaN and Infinity are not numbers JSON allows: send whole numbers."}


def test_bad_input_a_lone_surrogate_is_refused_with_a_sentence(world):
    before = world.snapshot()
    response = world.api.post("/api/tables", data=b'{"game": "pickomino", "players": ["Ana", "B\\ud800"]}', content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["code"] == "invalid_text"
    assert world.snapshot() == before


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None])
def test_bad_input_json_endpoints_take_only_json(world, content_type):
    """A cross-site form can post text/plain that happens to be JSON: refused, 415."""
    table = world.tables["pickomino"]
    body = json.dumps({"game": "pickomino", "players": ["Ana", "Bruno"]})
    before = world.snapshot()
    for url, headers in [
        ("/api/tables", {}),
        (f"/api/tables/{table['id']}/actions", world.bearer(table["host_token"])),
        (f"/api/tables/{table['id']}/undo", world.bearer(table["host_token"])),
    ]:
        response = world.api.post(url, data=body, headers={**headers, **({"Content-Type": content_type} if content_type else {})})
        assert response.status_code == 415, (url, response.status_code)
        assert response.get_json()["code"] == "unsupported_media_type"
    assert world.snapshot() == before


# --- the page forms -------------------------------------------------------------------------
@FUZZ
@given(data=st.data())
def test_bad_input_page_taps_of_every_game(world, data):
    slug = data.draw(st.sampled_from(sorted(world.tables)))
    table = world.tables[slug]
    base = data.draw(st.sampled_from(BASE_ACTIONS[slug]))
    action_text = json.dumps(with_hostile(base, data)) if data.draw(st.booleans()) else data.draw(any_text)
    typed = st.one_of(hostile.filter(lambda value: isinstance(value, str)), huge_integers.map(str), unicode_digits)
    fields = [("csrf_token", table["csrf"]), ("action", action_text)]
    for name in data.draw(st.lists(st.sampled_from(
        ["action.meadows.0.sheep", "action.meadows.1.fenced", "action.dice.white", "action.dice.red", "seat", "expected_version", "as", "action.colors[]", "action.dice", "action.0"]
    ), max_size=4, unique=True)):
        fields.append((name, data.draw(typed)))
    before = world.snapshot()
    response = table["phone"].post(
        f"/t/{table['id']}/act", data=form_bytes(fields), content_type="application/x-www-form-urlencoded",
        headers={"HX-Request": "true"},
    )
    assert_no_5xx_and_refusal_changes_nothing(world, before, response)
    query = form_bytes([("v", data.draw(typed)), ("as", data.draw(typed))]).decode()
    poll = table["phone"].get(f"/t/{table['id']}/poll?{query}")
    assert poll.status_code < 500


@FUZZ
@given(data=st.data(), names=st.lists(any_text, min_size=1, max_size=4))
def test_bad_input_start_form(world, data, names):
    slug = data.draw(st.sampled_from(sorted(GAMES)))
    phone = world.tables["pickomino"]["phone"]
    fields = [("csrf_token", world.tables["pickomino"]["csrf"]), ("game", slug)] + [("player", name) for name in names]
    typed = st.one_of(hostile.filter(lambda value: isinstance(value, str)), huge_integers.map(str), unicode_digits)
    for option in data.draw(st.lists(st.sampled_from(
        ["heckmeck-barbecue.spot_worms.30", "heckmeck-barbecue.spot_worms.", "twenty-one.sheets.0", "twenty-one.sheets.99999999999999999999",
         "twenty-one.sheet_layouts.0.0.0", "lobo.deal_colors"]
    ), max_size=3, unique=True)):
        fields.append((option, data.draw(typed)))
    before = world.snapshot()
    response = phone.post("/tables", data=form_bytes(fields), content_type="application/x-www-form-urlencoded")
    assert_no_5xx_and_refusal_changes_nothing(world, before, response)


# --- names ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, sentence",
    [
        ("\u200b\u200b", "A name must show at least one letter, digit or symbol."),
        ("\u00ad\u2060 ", "A name must show at least one letter, digit or symbol."),
        ("Ana\nBruno", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        ("Ana\x00", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        ("\u202eanA", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        ("Ana\u200e", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        ("\u200fAna", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        ("A\u061cna", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        *[(filler, "A name must show at least one letter, digit or symbol.") for filler in ("\u115f", "\u1160", "\u3164", "\uffa0", "\u2800")],
        ("\u3164\u3164 \u2800", "A name must show at least one letter, digit or symbol."),
        *[
            (f"Ana{broken}", "A name must be made of real characters: this one holds broken text.")
            for broken in ("\ufffd", "\ufffe", "\uffff", "\ufdd0", "\ufdef", "\U0001fffe", "\U0010ffff")
        ],
    ],
)
def test_bad_input_invisible_or_control_names_are_refused_with_a_sentence(world, name, sentence):
    before = world.snapshot()
    response = world.api.post("/api/tables", json={"game": "pickomino", "players": ["Ana", name]})
    assert response.status_code == 422
    assert response.get_json() == {"code": "name_invalid", "error": sentence}
    assert world.snapshot() == before


@FUZZ
@given(name=st.lists(st.one_of(st.characters(), st.sampled_from("\ufffd\ufffe\uffff\ufdd0\U0010ffff\x00\x0b")), max_size=6).map("".join))
def test_bad_input_every_name_the_companion_takes_fits_in_the_results_picture(name):
    """results.svg is XML, which has no room for a NUL, a surrogate or U+FFFF."""
    if name_problem(clean_name(name)) is None:
        ElementTree.fromstring(f"<svg><text>{escape(clean_name(name))}</text></svg>")


def test_bad_input_a_hangul_filler_or_braille_blank_does_not_make_another_name(world):
    for names in (["Ana", "Ana\u3164"], ["Ana", "A\u2800na"], ["Ana", "\uffa0Ana\u115f"]):
        response = world.api.post("/api/tables", json={"game": "pickomino", "players": names})
        assert response.get_json()["code"] == "duplicate_name", names


def test_bad_input_names_in_any_script_are_welcome_and_stored_in_one_form(world):
    response = world.api.post("/api/tables", json={"game": "pickomino", "players": ["עמית", "مريم", "A\u0301na", "🐑"]})
    assert response.status_code == 201
    assert [seat["name"] for seat in response.get_json()["seats"]] == ["עמית", "مريم", "\u00c1na", "🐑"]
    taken = world.api.post("/api/tables", json={"game": "pickomino", "players": ["\u00c1na", "A\u0301NA"]})
    assert taken.get_json()["code"] == "duplicate_name"  # one name however its accent was typed


@pytest.mark.parametrize("typed", ["²", "①", "٣٣٣", "9" * 5000, str(10**26)])
def test_bad_input_typed_numbers_on_a_page_are_refused_with_a_sentence(world, typed):
    table = world.tables["lobo"]
    before = world.snapshot()
    fields = [("csrf_token", table["csrf"]), ("action", json.dumps({"type": "meadows"})), ("action.meadows.0.sheep", typed)]
    fields += [("action.meadows.0.fenced", "false"), ("action.meadows.0.wolf", "false")]  # as the page sends them
    response = table["phone"].post(f"/t/{table['id']}/act", data=form_bytes(fields), content_type="application/x-www-form-urlencoded", headers={"HX-Request": "true"})
    assert response.status_code in (400, 422)
    alert = re.search(r'role="alert">([^<]+)<', response.text).group(1).strip()
    assert alert in (
        "Meadow 1: the number of sheep must be a whole number from 0 to 100.",
        "Meadow 1: 333 sheep is more than a meadow can hold; enter at most 100.",
        "A number in this request is too large: numbers go up to 1,000,000,000.",
    )
    assert world.snapshot() == before


# --- what a refusal repeats -----------------------------------------------------------------
LONG = "x" * 60000
SHOWN = "x" * 32 + "…"
COLOURS = ["white", "black", "red", "blue", "yellow", "green"]  # Twenty One's dice


@pytest.mark.parametrize(
    "game, options, action, sentence",
    [
        (LONG, {}, None, f"There is no game called {SHOWN} here."),
        ("pickomino", {LONG: True}, None, f"Pickomino has no option called {SHOWN}."),
        ("twenty-one", {"sheets": [LONG]}, None, f"There is no sheet {SHOWN}: the sheets are A to F."),
        ("twenty-one", {"sheet_layouts": [[[LONG, "black", "red", "blue", "yellow", "green"]] + [COLOURS] * 4]}, None, f"{SHOWN} is not a die colour."),
        ("heckmeck-barbecue", {"spot_worms": {LONG: 1}}, None, f"There is no grill spot {SHOWN}: the spots are 23 to 36."),
        ("pickomino", {}, {"type": LONG}, f"There is no action called {SHOWN} in this game."),
        ("heckmeck-barbecue", {}, {"type": LONG}, f"There is no action called {SHOWN} in this game."),
        ("lobo", {}, {"type": LONG}, f"There is no action called {SHOWN} in this game."),
        ("twenty-one", {}, {"type": LONG}, f"There is no action called {SHOWN} in this game."),
        ("qwixx", {}, {"type": LONG}, f"Qwixx has no action {SHOWN}."),
        ("lobo", {"deal_colors": False}, {"type": "choose_color", "color": LONG}, f"There is no {SHOWN} flock: choose red, blue, yellow or black."),
        ("qwixx", {}, {"type": "white", "row": LONG}, f"Qwixx has no {SHOWN} row: the rows are red, yellow, green and blue."),
    ],
)
def test_bad_input_a_refusal_repeats_at_most_32_characters_of_what_was_sent(client, game, options, action, sentence):
    players = ["Ana", "Bruno"]
    created = client.post("/api/tables", json={"game": game, "players": players, "options": options})
    if action is None:
        assert created.get_json()["error"] == sentence
        return
    body = created.get_json()
    if game == "qwixx":  # the white sum is crossed once the dice are rolled
        roll = {"type": "roll", "dice": {"white1": 1, "white2": 2, "red": 3, "yellow": 4, "green": 5, "blue": 6}}
        assert client.post(f"/api/tables/{body['id']}/actions", json=roll, headers=World.bearer(body["host_token"])).status_code == 200
    refused = client.post(f"/api/tables/{body['id']}/actions", json=action, headers=World.bearer(body["seats"][0]["token"]))
    assert refused.get_json()["error"] == sentence


def test_bad_input_a_twenty_one_die_colour_is_repeated_at_most_32_characters(client):
    body = client.post("/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"]}).get_json()
    dice = {"type": "roll", "dice": dict.fromkeys(COLOURS, 3)}
    assert client.post(f"/api/tables/{body['id']}/actions", json=dice, headers=World.bearer(body["host_token"])).status_code == 200
    refused = client.post(
        f"/api/tables/{body['id']}/actions", json={"type": "enter", "colors": [LONG]}, headers=World.bearer(body["seats"][0]["token"])
    )
    assert refused.get_json()["error"] == f"There is no {SHOWN} die."


def test_bad_input_the_players_page_repeats_at_most_32_characters_of_the_name(client):
    response = client.get("/players/" + "x" * 5000)
    assert response.status_code == 404
    assert f"Nobody called {SHOWN} has played at this companion." in response.get_data(as_text=True)


# --- numbers a page's form sends back -------------------------------------------------------
UNREADABLE = "This request holds a number the companion cannot read. Reload the page and try again."


def host_tap(phone, table, path: str, **fields):
    data = {"csrf_token": csrf_of(phone), **fields}
    return phone.post(f"/t/{table.id}/{path}", data=data, headers={"HX-Request": "true"})


def alert_of(response) -> str:
    return html.unescape(re.search(r'role="alert">([^<]+)<', response.text).group(1).strip())


def state_and_log(client, table) -> tuple:
    return client.get(f"/api/tables/{table.id}").get_json(), client.get(f"/api/tables/{table.id}/log").get_json()


@pytest.mark.parametrize(
    "field, typed",
    [("expected_version", "abc"), ("expected_version", "⁰"), ("expected_version", "0.5"), ("seat", "Bruno"), ("seat", "½"), ("seat", "1e0")],
)
def test_bad_input_a_garbled_number_in_a_tap_is_refused_with_a_sentence(app, client, field, typed):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    host = host_phone(app, table)
    before = state_and_log(client, table)
    action = json.dumps({"type": "set_aside", "face": "worm", "count": 2})
    response = host_tap(host, table, "act", action=action, **{"expected_version": "0", field: typed})
    assert response.status_code == 400
    assert alert_of(response) == UNREADABLE
    assert state_and_log(client, table) == before


@pytest.mark.parametrize("fields", [{"from": "abc"}, {"from": "1.0"}, {"from": "¹"}, {"expected_version": "two"}])
def test_bad_input_a_garbled_number_in_an_undo_is_refused_with_a_sentence(app, client, fields):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    act(client, table, table.host, {"type": "set_aside", "face": "worm", "count": 2})
    act(client, table, table.host, {"type": "set_aside", "face": 5, "count": 2})
    host = host_phone(app, table)
    before = state_and_log(client, table)
    response = host_tap(host, table, "undo", **{"expected_version": "2", **fields})
    assert response.status_code == 400
    assert alert_of(response) == UNREADABLE
    assert state_and_log(client, table) == before


def test_bad_input_a_garbled_version_in_a_redo_is_refused_with_a_sentence(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    act(client, table, table.host, {"type": "set_aside", "face": "worm", "count": 2})
    host = host_phone(app, table)
    assert host_tap(host, table, "undo", expected_version="1").status_code == 200
    before = state_and_log(client, table)
    response = host_tap(host, table, "redo", expected_version="v2")
    assert response.status_code == 400
    assert alert_of(response) == UNREADABLE
    assert state_and_log(client, table) == before


def test_bad_input_a_blank_or_absent_number_in_a_form_is_left_out(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    host = host_phone(app, table)
    action = json.dumps({"type": "set_aside", "face": "worm", "count": 2})
    assert host_tap(host, table, "act", action=action, expected_version=" ", seat="").status_code == 200
    assert host_tap(host, table, "undo", **{"from": ""}).status_code == 200
    assert client.get(f"/api/tables/{table.id}").get_json()["version"] == 2

"""Twenty One through its pages and the JSON API (docs/rules.md (Twenty One)): tapping a
roll in, ticking dice, crossing, the host entering for a seat, the state the API shows.
The rules alone: tests/games."""

from __future__ import annotations

import json
import re

import pytest

from companion.games.twentyone import COLORS, ROWS


def dice(white=1, black=1, red=1, blue=1, yellow=1, green=1) -> dict[str, int]:
    return {"white": white, "black": black, "red": red, "blue": blue, "yellow": yellow, "green": green}


# A sheet whose every row reads white 6, black 5, red 4, blue 3, yellow 2, green 1.
PLAIN = [list(COLORS)] * ROWS
ONES = dice()  # every die fits every field
EXACT = dice(6, 5, 4, 3, 2, 1)  # on a PLAIN sheet: six hits
CROSS = {"type": "cross"}


def roll(values):
    return {"type": "roll", "dice": values}


def reroll(values):
    return {"type": "reroll", "dice": values}


def enter(*colors, **guards):
    return {"type": "enter", "colors": list(colors), **guards}


# --- players and sheets -------------------------------------------------------------------
@pytest.mark.parametrize("count, status", [(1, 422), (2, 201), (6, 201), (7, 422)])
def test_rule_5_two_to_six_players(client, count, status):
    names = [f"P{index}" for index in range(count)]
    response = client.post("/api/tables", json={"game": "twenty-one", "players": names, "options": {}})
    assert response.status_code == status, response.get_json()
    if status == 422:
        assert response.get_json()["code"] == "player_count"


@pytest.mark.parametrize(
    "sheets, code",
    [(["A", "A"], "duplicate_sheet"), (["A", "G"], "unknown_sheet"), (["a", "B"], "unknown_sheet"), (["A", "B", "C"], "option_per_seat")],
)
def test_rule_5_sheets_refused_when_not_different_letters_a_to_f(client, sheets, code):
    response = client.post("/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheets": sheets}})
    assert response.status_code == 422
    assert response.get_json()["code"] == code


# --- who may write on which sheet (the shell) -------------------------------------------------
def create(client, players=("Ana", "Bruno", "Caio"), options=None):
    response = client.post(
        "/api/tables", json={"game": "twenty-one", "players": list(players), "options": options or {"sheets": ["A", "B", "C"]}}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client, table, token, action):
    return client.post(f"/api/tables/{table['id']}/actions", json=action, headers={"Authorization": f"Bearer {token}"})


def test_rule_5_writing_on_someone_elses_sheet_is_refused_403_and_the_host_may_write_for_anyone(client):
    table = create(client)
    ana, bruno, host = table["seats"][0]["token"], table["seats"][1]["token"], table["host_token"]
    assert post(client, table, ana, roll(ONES)).status_code == 200
    before = client.get(f"/api/tables/{table['id']}").get_json()
    response = post(client, table, ana, {**enter("green"), "seat": 1})
    assert response.status_code == 403 and response.get_json()["code"] == "not_your_seat"
    response = post(client, table, bruno, roll(ONES))
    assert response.status_code == 403
    assert client.get(f"/api/tables/{table['id']}").get_json() == before
    # the host writes for Caio, who has no phone
    state = post(client, table, host, {**CROSS, "seat": 2}).get_json()
    assert state["state"]["waiting_for"] == [0, 1]
    assert state["state"]["sheets"][2]["rows"][0]["fields"][0]["crossed"] is True


def test_rule_5_the_host_without_a_seat_acts_for_the_roller_first_then_names_the_seat(client):
    table = create(client)
    host = table["host_token"]
    state = post(client, table, host, roll(ONES)).get_json()
    assert state["current_seat"] == 0 and state["state"]["roll"] == ONES
    state = post(client, table, host, reroll(ONES)).get_json()  # Ana's re-roll
    assert state["state"]["rerolled"] is True
    state = post(client, table, host, CROSS).get_json()  # Ana's cross
    assert state["state"]["waiting_for"] == [1, 2]
    refused = post(client, table, host, CROSS)  # Bruno's or Caio's? a guess could be the wrong sheet
    assert (refused.status_code, refused.get_json()["code"]) == (422, "seat_required")
    state = post(client, table, host, {**CROSS, "seat": 1}).get_json()
    assert state["state"]["waiting_for"] == [2]
    state = post(client, table, host, CROSS).get_json()  # the one seat left: Caio's
    assert state["state"]["sheets"][2]["rows"][0]["fields"][0]["crossed"]


def test_rule_5_api_state_shape(client):
    table = create(client)
    state = post(client, table, table["seats"][0]["token"], roll(dice(3, 1, 6, 2, 5, 4))).get_json()
    assert state["game"] == "twenty-one" and state["current_seat"] == 0 and state["status"] == "playing"
    body = state["state"]
    assert body["roll"] == dice(3, 1, 6, 2, 5, 4) and body["rerolled"] is False and body["waiting_for"] == [0, 1, 2]
    sheet = body["sheets"][1]
    assert {"seat", "letter", "row", "total", "rows"} <= set(sheet) and sheet["seat"] == 1 and sheet["letter"] == "B"
    assert {"score", "hits", "fields"} <= set(sheet["rows"][0])
    assert set(sheet["rows"][0]["fields"][0]) >= {"color", "value", "entry", "crossed", "hit"}
    assert state["players"] == [{"seat": seat, "name": name, "score": 0} for seat, name in enumerate(["Ana", "Bruno", "Caio"])]


# --- the phones' forms ------------------------------------------------------------------------
def phone(app, join_url):
    client = app.test_client()
    assert client.get("/j/" + join_url.rsplit("/j/", 1)[1]).status_code == 303
    return client


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def tap(client, table, fields):
    page = client.get(f"/t/{table['id']}").text
    return client.post(f"/t/{table['id']}/act", data={"csrf_token": csrf(page), **fields}, headers={"HX-Request": "true"})


def test_rule_5_phones_roll_by_tapping_a_face_per_die_and_write_by_ticking_dice(app, client):
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])
    page = ana.get(f"/t/{table['id']}").text
    assert "Enter the roll" in page and 'name="action.dice.white"' in page
    faces = {f"action.dice.{color}": str(value) for color, value in dice(3, 1, 6, 2, 5, 4).items()}
    response = tap(ana, table, {"action": '{"type": "roll"}', **faces})
    assert response.status_code == 200
    assert "Waiting for: <bdi>Ana</bdi>, <bdi>Bruno</bdi>, <bdi>Caio</bdi>" in response.text  # each name isolated
    # Bruno's sheet B, row 1: red 6, blue 5, white 4, yellow 3, green 2, black 1
    page = bruno.get(f"/t/{table['id']}").text
    assert 'value="red"' in page and "→ field 6" in page  # the red 6 fits the field 6: a hit
    assert 'id="tw-pick-yellow"' not in page  # the yellow 5 is higher than its 3
    response = tap(bruno, table, {"action": '{"type": "cross", "row": 0}', "action.colors[]": ["red"]})
    assert response.status_code == 422 and "not both" in response.text
    response = tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["red", "white"]})
    assert response.status_code == 200 and "Waiting for: <bdi>Ana</bdi>, <bdi>Caio</bdi>" in response.text
    assert "Your row" not in response.text  # Bruno has written: no more controls this round
    sheet = client.get(f"/api/tables/{table['id']}").get_json()["state"]["sheets"][1]
    assert [(f["color"], f["entry"], f["hit"]) for f in sheet["rows"][0]["fields"][:3]] == [
        ("red", 6, True), ("blue", None, False), ("white", 3, False),
    ]
    response = tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["blue"]})
    assert response.status_code == 422 and "already written" in response.text


def test_rule_5_while_everyone_writes_the_other_phones_say_who_rolled(app, client):
    """Every phone said "Your turn" while everyone wrote Ana's roll: who rolls this round
    stays said on the phones that write on it."""
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])

    def status(client) -> str:
        page = client.get(f"/t/{table['id']}").text
        return re.sub(r"<[^>]+>", "", re.search(r'<p class="status[^"]*"[^>]*>.*?</p>', page, re.S).group(0))

    assert (status(ana), status(bruno)) == ("Your turn", "Ana's turn")
    faces = {f"action.dice.{color}": str(value) for color, value in dice(3, 1, 6, 2, 5, 4).items()}
    assert tap(ana, table, {"action": '{"type": "roll"}', **faces}).status_code == 200
    assert (status(ana), status(bruno)) == ("Your turn", "Ana rolled: your move")
    assert tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["red"]}).status_code == 200
    assert (status(ana), status(bruno)) == ("Your turn", "Ana's turn")


def test_rule_6_an_entry_its_player_undid_comes_back_with_its_dice_ticked(app, client):
    """Game night: after a player undid their own entry (to look again), the dice they had
    ticked were cleared and had to be ticked again. The form ticks them again, for that
    roll and row only, and for that player only."""
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])
    faces = {f"action.dice.{color}": str(value) for color, value in dice(3, 1, 6, 2, 5, 4).items()}
    assert tap(ana, table, {"action": '{"type": "roll"}', **faces}).status_code == 200
    entered = tap(bruno, table, {"action": json.dumps({"type": "enter", "row": 0, "roll": dice(3, 1, 6, 2, 5, 4)}),
                                 "action.colors[]": ["red", "white"]})
    assert entered.status_code == 200
    page = bruno.get(f"/t/{table['id']}").text
    undone = bruno.post(f"/t/{table['id']}/undo", data={"csrf_token": csrf(page), "expected_version": "2"}, headers={"HX-Request": "true"})
    assert undone.status_code == 200

    def ticked(text: str) -> list[str]:
        return re.findall(r'name="action.colors\[\]" value="(\w+)" id="tw-pick-\w+" checked', text)

    assert sorted(ticked(undone.text)) == ["red", "white"]
    assert sorted(ticked(bruno.get(f"/t/{table['id']}").text)) == ["red", "white"]
    assert ticked(ana.get(f"/t/{table['id']}").text) == []  # Ana's own form: nothing of Bruno's
    faces = {f"action.dice.{color}": str(value) for color, value in dice(1, 1, 1, 1, 1, 1).items()}
    assert tap(ana, table, {"action": '{"type": "reroll"}', **faces}).status_code == 200  # the dice changed
    assert ticked(bruno.get(f"/t/{table['id']}").text) == []


def test_rule_5_phones_a_reroll_keeps_the_1s_fixed(app, client):
    table = create(client)
    ana = phone(app, table["seats"][0]["join_url"])
    faces = {f"action.dice.{color}": str(value) for color, value in dice(6, 4, 3, 3, 1, 1).items()}
    page = tap(ana, table, {"action": '{"type": "roll"}', **faces}).text
    assert "Re-roll (once; the 1s stay)" in page
    assert page.count("1 stays") == 2
    assert '<input type="hidden" name="action.dice.yellow" value="1">' in page
    response = tap(ana, table, {"action": '{"type": "reroll"}', "action.dice.yellow": "1", "action.dice.green": "1", **{f"action.dice.{c}": "2" for c in COLORS[:4]}})
    assert response.status_code == 200 and "re-rolled" in response.text and "Re-roll (once" not in response.text


def test_rule_5_phones_crossing_names_the_leftmost_field_and_the_reroll_goes_once_someone_wrote(app, client):
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])
    faces = {f"action.dice.{color}": str(value) for color, value in dice(6, 6, 6, 6, 6, 6).items()}
    assert "Re-roll (once" in tap(ana, table, {"action": '{"type": "roll"}', **faces}).text
    # Bruno's sheet B, row 1 starts with the red 6: nothing fits but a 6 there
    assert "Cross out the red 6 instead" in bruno.get(f"/t/{table['id']}").text
    assert tap(bruno, table, {"action": '{"type": "enter", "row": 0}', "action.colors[]": ["red"]}).status_code == 200
    page = ana.get(f"/t/{table['id']}").text
    assert "Your row 1" in page and "Re-roll (once" not in page  # Bruno has written this roll down


def form_fields(page: str, form_class: str) -> dict[str, str]:
    """The hidden fields of the page's form of that class, as the phone sends them."""
    form = re.search(rf'<form class="{form_class}".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def test_rule_5_a_host_playing_their_own_seat_writes_on_their_own_sheet_before_the_roller_has(app, client):
    """Found at a real table: the host who joined their own seat on the same phone sent no
    seat with their tap, so it went where the host enters by default, the roller's sheet,
    while the roller (Bruno, round 2) had not written yet, logged as "entered by the host"."""
    table = create(client)
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table["id"]: {"host": table["host_token"]}}
    assert host.get("/j/" + table["seats"][0]["join_url"].rsplit("/j/", 1)[1]).status_code == 303  # Ana's own seat
    assert post(client, table, table["seats"][0]["token"], roll(ONES)).status_code == 200
    for seat in range(3):
        assert post(client, table, table["seats"][seat]["token"], CROSS).status_code == 200
    assert post(client, table, table["seats"][1]["token"], roll(dice(6, 6, 6, 6, 6, 6))).status_code == 200
    page = host.get(f"/t/{table['id']}").text
    assert "Your row 1" in page
    cross = re.search(r"""value='([^']+)'>Cross out the \w+ \d instead""", page).group(1)
    fields = {**form_fields(page, "tw-write"), "action": cross}
    assert fields["seat"] == "0"
    assert host.post(f"/t/{table['id']}/act", data=fields, headers={"HX-Request": "true"}).status_code == 200
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]
    assert state["waiting_for"] == [1, 2]
    assert [field["crossed"] for field in state["sheets"][0]["rows"][0]["fields"]].count(True) == 2
    assert [field["crossed"] for field in state["sheets"][1]["rows"][0]["fields"]].count(True) == 1
    events = client.get(f"/api/tables/{table['id']}/log").get_json()["events"]
    assert (events[-1]["seat"], events[-1]["by_host"]) == (0, False)


def test_rule_5_entering_with_no_die_ticked_asks_to_choose_one(app, client):
    """Found at a game night: "Enter the chosen dice" with none ticked sent no colours at
    all, and the phone showed the API's sentence about a malformed "colors" list."""
    table = create(client)
    ana, bruno = phone(app, table["seats"][0]["join_url"]), phone(app, table["seats"][1]["join_url"])
    faces = {f"action.dice.{color}": str(value) for color, value in dice(3, 1, 6, 2, 5, 4).items()}
    assert tap(ana, table, {"action": '{"type": "roll"}', **faces}).status_code == 200
    page = bruno.get(f"/t/{table['id']}").text
    enter = re.search(r"""value='([^']+)'>Enter the chosen dice""", page).group(1)
    response = bruno.post(
        f"/t/{table['id']}/act", data={**form_fields(page, "tw-write"), "action": enter}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "Choose at least one die to enter, or cross out a field." in response.text
    assert "colours (" not in response.text


def test_rule_5_the_ranking_page_shows_each_players_row_scores_and_total_and_shared_places(client):
    table = create(client, players=("Ana", "Bruno"), options={"sheets": ["A", "B"], "sheet_layouts": [PLAIN, PLAIN]})
    host = table["host_token"]
    for round_ in range(5):
        post(client, table, host, {**roll(EXACT), "seat": round_ % 2})
        for seat in (0, 1):
            assert post(client, table, host, {**enter(*COLORS), "seat": seat}).status_code == 200
    state = client.get(f"/api/tables/{table['id']}").get_json()
    assert state["status"] == "finished" and state["current_seat"] is None
    assert [(entry["name"], entry["score"], entry["place"]) for entry in state["ranking"]] == [("Ana", 210, 1), ("Bruno", 210, 1)]
    assert state["ranking"][0]["rows"] == [42] * 5
    page = client.get(f"/t/{table['id']}").text
    assert page.count("42 + 42 + 42 + 42 + 42") == 2
    assert "Ana and Bruno tied on 210 points: the rules have no tie-break, they share the place." in page

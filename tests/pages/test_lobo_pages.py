"""Lobo through its pages and the JSON API (docs/rules.md (Lobo)): the colours on the
phones, leaving and the meadows typed on a phone, the host entering for a seat, stale taps.
The rules alone: tests/games."""

from __future__ import annotations

import html
import json
import re

import pytest

from companion.games import GAMES
from companion.games.lobo import COLORS

GAME = GAMES["lobo"]
CHOOSE = lambda color: {"type": "choose_color", "color": color}  # noqa: E731
REVEAL = {"type": "reveal"}
ABANDON = {"type": "abandon"}
END = {"type": "end"}


def meadow(sheep, fenced=True, wolf=False):
    return {"sheep": sheep, "fenced": fenced, "wolf": wolf}


def meadows(*entries):
    return {"type": "meadows", "meadows": list(entries)}


# --- players and colours ----------------------------------------------------------------
def test_rule_4_players_2_to_4(client):
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    for names, accepted in ((["Ana"], False), (["Ana", "Bruno"], True), (["A", "B", "C", "D"], True), (list("ABCDE"), False)):
        response = client.post("/api/tables", json={"game": "lobo", "players": names})
        assert response.status_code == (201 if accepted else 422), names
    assert response.get_json()["error"] == "Lobo is played by 2 to 4 players, not 5."


def test_rule_4_deal_colors_is_on_by_default_and_the_deal_stays_out_of_the_options(client):
    created = client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).get_json()
    assert created["table"]["options"] == {"deal_colors": True}
    own = [
        client.get(f"/api/tables/{created['id']}", headers={"Authorization": f"Bearer {seat['token']}"}).get_json()
        for seat in created["seats"]
    ]
    colors = [own[seat]["state"]["seats"][seat]["color"] for seat in range(2)]
    assert len(set(colors)) == 2 and set(colors) <= set(COLORS)


def test_rule_4_the_host_says_all_tiles_are_placed(client):
    created = client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    response = client.post(f"/api/tables/{created['id']}/actions", json=END, headers=host)
    assert response.status_code == 200
    assert response.get_json()["state"]["ended"] is True
    assert response.get_json()["current_seat"] is None


# --- refusals through the phones and the API -------------------------------------------
def lobo_table(client, players=("Ana", "Bruno", "Caio"), **options) -> dict:
    created = client.post("/api/tables", json={"game": "lobo", "players": list(players), "options": options}).get_json()
    created["bearer"] = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
    created["host"] = {"Authorization": f"Bearer {created['host_token']}"}
    return created


def post(client, table, headers, action):
    return client.post(f"/api/tables/{table['id']}/actions", json=action, headers=headers)


def version(client, table) -> int:
    return client.get(f"/api/tables/{table['id']}").get_json()["version"]


def phone_of(app, table, seat):
    phone = app.test_client()
    assert phone.get("/j/" + table["seats"][seat]["token"]).status_code == 303  # the join link sets the cookie
    return phone


def tap(phone, table, action, **fields):
    page = phone.get(f"/t/{table['id']}").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_version" value="(\d+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps(action), "expected_version": expected, **fields}
    return phone.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})


def alert(page: str) -> str | None:
    found = re.search(r'role="alert">([^<]+)<', page)
    return html.unescape(found.group(1).strip()) if found else None


@pytest.mark.parametrize(
    "typed, status, sentence",
    [
        ("-3", 422, "Meadow 1: a meadow cannot have fewer than 0 sheep."),
        ("150", 422, "Meadow 1: 150 sheep is more than a meadow can hold; enter at most 100."),
        ("lots", 400, "Meadow 1: the number of sheep must be a whole number from 0 to 100."),
    ],
)
def test_rule_4_bad_sheep_counts_typed_on_a_phone_are_refused_with_a_sentence(app, client, typed, status, sentence):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    ana = phone_of(app, table, 0)
    response = tap(ana, table, {"type": "meadows"}, **{"action.meadows.0.sheep": typed, "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true"})
    assert response.status_code == status
    assert alert(response.text) == sentence
    assert response.text.index('role="alert"') > response.text.index('id="controls"')
    assert version(client, table) == 1


@pytest.mark.parametrize(
    "fields, sentence",
    [
        ({"action.junk": "x" * 50000}, "Lobo actions have no field called junk."),
        ({"action.meadows.0.pad": "1"}, "Lobo actions have no field called meadows.0.pad."),
    ],
)
def test_a_field_lobo_actions_do_not_have_typed_on_a_phone_is_refused_and_not_logged(app, client, fields, sentence):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    ana = phone_of(app, table, 0)
    before = client.get(f"/api/tables/{table['id']}").get_json(), client.get(f"/api/tables/{table['id']}/log").get_json()
    meadow = {"action.meadows.0.sheep": "6", "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true"}
    response = tap(ana, table, {"type": "meadows"}, **meadow, **fields)
    assert response.status_code == 400
    assert alert(response.text) == sentence
    assert (client.get(f"/api/tables/{table['id']}").get_json(), client.get(f"/api/tables/{table['id']}/log").get_json()) == before


def test_rule_4_meadows_typed_on_a_phone_show_which_counts_and_why_the_others_do_not(app, client):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    ana = phone_of(app, table, 0)
    fields = {
        "action.meadows.0.sheep": "6", "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true",
        "action.meadows.1.sheep": "11", "action.meadows.1.wolf": "false", "action.meadows.1.fenced": "false",
        "action.meadows.2.sheep": "13", "action.meadows.2.fenced": "true", "action.meadows.2.wolf": "true",
        "action.meadows.3.sheep": "4", "action.meadows.3.wolf": "false", "action.meadows.3.fenced": "true",
        "action.meadows.4.sheep": "", "action.meadows.4.wolf": "false", "action.meadows.4.fenced": "false",  # an unused row
    }
    page = tap(ana, table, {"type": "meadows"}, **fields).text
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]
    assert [(m["sheep"], m["fenced"], m["wolf"]) for m in state["seats"][0]["meadows"]] == [
        (6, True, False), (11, False, False), (13, True, True), (4, True, False),
    ]
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert "6 sheep — counts: the largest valid meadow." in text
    assert "11 sheep — does not count: it is not completely fenced." in text
    assert "13 sheep — does not count: it borders a forest with an uncovered wolf." in text
    assert "4 sheep — valid, but does not count: only the largest valid meadow counts, never a sum." in text
    assert "Correct the meadows" in page and 'value="13"' in page  # the entry can be corrected


def test_rule_4_leaving_twice_on_a_phone_is_refused_with_a_sentence(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    assert tap(bruno, table, ABANDON).status_code == 200
    assert "I leave the game" not in bruno.get(f"/t/{table['id']}").text  # the button is gone
    response = post(client, table, table["bearer"][1], ABANDON)
    assert response.status_code == 422
    assert response.get_json() == {"code": "already_left", "error": "You already left the game (number 1 to leave, bonus 6)."}
    assert version(client, table) == 1


def test_rule_4_no_turns_a_tap_is_not_refused_because_someone_else_acted(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    page = bruno.get(f"/t/{table['id']}").text
    assert post(client, table, table["bearer"][0], REVEAL).status_code == 200  # Ana reveals meanwhile
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps(ABANDON), "expected_version": "0"}
    response = bruno.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})
    assert (response.status_code, alert(response.text)) == (200, None)
    assert client.get(f"/api/tables/{table['id']}").get_json()["state"]["seats"][1]["left"] == 1


def test_rule_4_leaving_asks_once_more_the_first_tap_only_opens_the_question(app, client):
    """Leaving cannot be taken back once anyone else acts: the button that says it sits
    inside a confirmation, as the end of the game's does, and says whose leave it is."""
    table = lobo_table(client)
    page = phone_of(app, table, 1).get(f"/t/{table['id']}").text
    leave = re.search(r'<details class="confirm lobo-leave">(.*?)</details>', page, re.S).group(1)
    assert re.search(r"<summary[^>]*>I leave the game \(bonus 6\)</summary>", leave)
    assert """<button class="btn danger big" name="action" value='{"type": "abandon"}'>Yes, I leave the game</button>""" in leave
    form_page = client.get("/").text  # the host's phone, entering for Bruno
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form_page).group(1)
    started = client.post("/tables", data={"csrf_token": csrf, "game": "lobo", "player": ["Ana", "Bruno"], "lobo.deal_colors": "on"})
    host_page = client.get(f"/t/{started.headers['Location'].split('/')[2]}?as=1").text
    assert "Bruno leaves the game (bonus 6)</summary>" in host_page
    assert "Yes, Bruno leaves the game</button>" in host_page


def test_rule_4_the_phone_offers_to_alert_its_player_for_the_count_lobo_having_no_turns(app, client):
    table = lobo_table(client)
    page = phone_of(app, table, 1).get(f"/t/{table['id']}").text
    offer = re.search(r'data-alerts-ask title="([^"]+)">([^<]+)</button>', page)
    assert offer.groups() == ("Tap here once so this phone can alert you when it is time to count your meadows", "Alert me when it is time to count")
    assert 'data-turn-title="Count your meadows · Lobo"' in page  # the title when they must act
    assert 'data-turn-said data-text="Count your meadows"' in page  # and what a screen reader is told
    assert 'data-setting="sound"> A sound when it is time to count</label>' in page


def test_rule_4_a_leaving_tap_is_refused_when_the_bonus_it_showed_has_changed(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    page = bruno.get(f"/t/{table['id']}").text
    assert "I leave the game (bonus 6)" in page
    assert post(client, table, table["bearer"][0], ABANDON).status_code == 200  # Ana leaves first
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps(ABANDON), "expected_version": "0"}
    response = bruno.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert alert(response.text).startswith("The table has moved on since your page was loaded")
    assert "I leave the game (bonus 3)" in response.text
    assert version(client, table) == 1


def test_rule_4_an_undo_since_the_page_was_shown_makes_every_tap_stale(app, client):
    table = lobo_table(client)
    bruno = phone_of(app, table, 1)
    page = bruno.get(f"/t/{table['id']}").text
    assert post(client, table, table["bearer"][0], ABANDON).status_code == 200
    assert client.post(f"/api/tables/{table['id']}/undo", headers=table["host"]).status_code == 200
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "action": json.dumps({"type": "end"}), "expected_version": "0"}
    response = bruno.post(f"/t/{table['id']}/act", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 409 and version(client, table) == 2


def test_rule_4_colours_are_distinct_a_clash_is_shown_only_on_the_phone_that_holds_it(app, client):
    table = lobo_table(client, deal_colors=False)
    ana, bruno, caio = (phone_of(app, table, seat) for seat in range(3))
    assert post(client, table, table["bearer"][0], CHOOSE("black")).status_code == 200
    assert post(client, table, table["bearer"][1], CHOOSE("black")).status_code == 200
    assert post(client, table, table["bearer"][0], REVEAL).status_code == 200
    page = bruno.get(f"/t/{table['id']}").text
    assert "Ana revealed the colour recorded here" in page
    assert "Reveal my colour" not in page and "Which shepherd tile did you draw?" in page
    for other in (ana, caio, client):
        assert "lobo-clash" not in other.get(f"/t/{table['id']}").text
    # left as it is until the end, Bruno's count (made in the open) is refused until mended
    assert post(client, table, table["host"], END).status_code == 200
    assert "Count with your shepherd tile face up" in bruno.get(f"/t/{table['id']}").text
    assert "Record the colour you drew first (above)" in caio.get(f"/t/{table['id']}").text
    refused = post(client, table, table["bearer"][1], meadows())
    assert refused.status_code == 422 and refused.get_json()["error"].startswith("Ana revealed black")
    page = tap(bruno, table, meadows(), **{"action.meadows.0.sheep": "4"})
    assert "Ana revealed black: each colour is in one hand only." in html.unescape(page.text)
    assert post(client, table, table["bearer"][1], CHOOSE("red")).status_code == 200
    refused = post(client, table, table["bearer"][2], meadows())  # Caio never recorded his
    assert refused.get_json()["error"] == "Record the colour you drew first: you count the meadows of your colour."
    assert post(client, table, table["bearer"][2], CHOOSE("yellow")).status_code == 200
    for seat in range(3):
        assert post(client, table, table["bearer"][seat], meadows()).status_code == 200
    results = caio.get(f"/t/{table['id']}/results").text
    assert [results.count(f"No valid meadow + leaving bonus 0 ({color} flock)") for color in ("black", "red", "yellow")] == [1, 1, 1]
    assert "recorded the same colour" not in html.unescape(caio.get(f"/t/{table['id']}").text)


def test_rule_4_entering_meadows_for_someone_else_is_403_the_host_may_naming_the_seat(client):
    table = lobo_table(client)
    post(client, table, table["host"], END)
    entry = {"type": "meadows", "meadows": [meadow(5)]}
    response = post(client, table, table["bearer"][0], {**entry, "seat": 1})
    assert response.status_code == 403 and response.get_json()["code"] == "not_your_seat"
    response = post(client, table, table["host"], entry)
    assert response.status_code == 422
    assert response.get_json() == {"code": "seat_required", "error": 'Say which seat you are entering for (the "seat" field).'}
    assert version(client, table) == 1
    response = post(client, table, table["host"], {**entry, "seat": 1})
    assert response.status_code == 200
    assert response.get_json()["state"]["seats"][1]["meadow"] == 5
    log = client.get(f"/api/tables/{table['id']}/log").get_json()["events"]
    assert (log[-1]["seat"], log[-1]["by_host"]) == (1, True)


def test_rule_4_meadows_before_the_end_through_the_api_change_nothing(client):
    table = lobo_table(client)
    response = post(client, table, table["bearer"][0], {"type": "meadows", "meadows": [meadow(5)]})
    assert response.status_code == 422 and response.get_json()["code"] == "not_ended"
    assert version(client, table) == 0


def test_rule_4_the_host_phone_enters_for_any_seat_and_stays_on_it(client):
    form_page = client.get("/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form_page).group(1)
    response = client.post("/tables", data={"csrf_token": csrf, "game": "lobo", "player": ["Ana", "Bruno"], "lobo.deal_colors": "on"})
    table = {"id": response.headers["Location"].split("/")[2]}
    page = client.get(f"/t/{table['id']}").text
    assert "Enter for:" in page and "Entering for Ana" in page
    response = tap(client, table, ABANDON, seat="1")
    assert response.status_code == 200
    assert "Entering for Bruno" in response.text  # still on Bruno after entering for him
    seats = client.get(f"/api/tables/{table['id']}").get_json()["state"]["seats"]
    assert [seat["left"] for seat in seats] == [None, 1]


def test_rule_4_a_host_who_plays_a_seat_enters_for_a_player_without_a_phone_to_the_end(app, client):
    """Game night: Ana started the table and joined her own seat; Bruno has no phone. Her
    page never offered "Enter for:" (every Lobo seat may act at any time, hers too), so
    after the end nobody could count Bruno's meadows and the game never finished. Her own
    controls stay in front; she chooses Bruno to enter for him."""
    table = lobo_table(client, ("Ana", "Bruno"), deal_colors=True)
    ana = phone_of(app, table, 0)
    with ana.session_transaction() as session:  # she started the table on this phone
        session["tables"] = {table["id"]: {**session["tables"][table["id"]], "host": table["host_token"]}}
    page = html.unescape(ana.get(f"/t/{table['id']}").text)
    assert "Enter for:" in page and "Entering for" not in page and "I leave the game" in page
    assert "Entering for Bruno (you are the host)" in html.unescape(ana.get(f"/t/{table['id']}?as=1").text)
    assert tap(ana, table, END).status_code == 200
    assert tap(ana, table, meadows(meadow(4))).status_code == 200
    answer = tap(ana, table, meadows(meadow(3)), seat="1")
    assert answer.status_code == 200
    state = client.get(f"/api/tables/{table['id']}").get_json()
    assert state["status"] == "finished" and [player["score"] for player in state["players"]] == [4, 3]


def test_rule_4_the_host_entering_for_a_seat_stays_on_it_after_an_undo(app, client):
    """review: the host playing Ana, entering for Bruno (?as=1), tapped "Undo" and was back
    on Ana's controls, its refresh too: the answer keeps the seat of the page tapped on."""
    table = lobo_table(client, ("Ana", "Bruno"), deal_colors=True)
    ana = phone_of(app, table, 0)
    with ana.session_transaction() as session:
        session["tables"] = {table["id"]: {**session["tables"][table["id"]], "host": table["host_token"]}}
    assert tap(ana, table, ABANDON, seat="1").status_code == 200
    page = ana.get(f"/t/{table['id']}?as=1").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    address = f"http://localhost/t/{table['id']}?as=1"
    answer = ana.post(f"/t/{table['id']}/undo", data={"csrf_token": csrf, "expected_version": "1"},
                      headers={"HX-Request": "true", "HX-Current-URL": address})
    shown = html.unescape(answer.text)
    assert "Entering for Bruno (you are the host)" in shown and "as=1" in re.search(r'hx-get="([^"]+)"', shown).group(1)


def test_rule_6_a_count_the_host_went_back_over_fills_the_form_again(app, client):
    """Game night: the host went back over Dora's count (to mend an earlier line) and her
    form came back empty: she had to count her meadows all over again. It now starts from
    what she entered, for her and for the host entering for her, and never for another."""
    table = lobo_table(client, ("Ana", "Bruno", "Dora"))
    assert post(client, table, table["host"], END).status_code == 200
    assert post(client, table, table["bearer"][2], meadows(meadow(7), meadow(9, wolf=True))).status_code == 200
    assert post(client, table, table["bearer"][1], meadows(meadow(3))).status_code == 200
    seq = client.get(f"/api/tables/{table['id']}/log").get_json()["events"][-2]["seq"]
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table["id"]: {"host": table["host_token"]}}
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', host.get(f"/t/{table['id']}").text).group(1)
    data = {"csrf_token": csrf, "expected_version": "3", "from": str(seq)}  # Dora's count and Bruno's
    assert host.post(f"/t/{table['id']}/undo", data=data, headers={"HX-Request": "true"}).status_code == 200

    def sheep_fields(page: str) -> list[str]:
        return re.findall(r'name="action.meadows.\d+.sheep"[^>]*value="([^"]*)"', page)

    dora = html.unescape(phone_of(app, table, 2).get(f"/t/{table['id']}").text)
    assert sheep_fields(dora)[:3] == ["7", "9", ""]
    assert "Filled in as entered before it was undone" in dora and "Enter the meadows" in dora
    for_dora = html.unescape(host.get(f"/t/{table['id']}?as=2").text)
    assert sheep_fields(for_dora)[:3] == ["7", "9", ""]
    bruno = html.unescape(phone_of(app, table, 1).get(f"/t/{table['id']}").text)
    assert sheep_fields(bruno)[:2] == ["3", ""]  # his own, not Dora's
    ana = html.unescape(phone_of(app, table, 0).get(f"/t/{table['id']}").text)
    assert sheep_fields(ana)[:1] == [""] and "Filled in" not in ana
    # entered again as filled in: one tap
    page = tap(phone_of(app, table, 2), table, {"type": "meadows"}, **{
        "action.meadows.0.sheep": "7", "action.meadows.0.fenced": "true", "action.meadows.0.wolf": "false",
        "action.meadows.1.sheep": "9", "action.meadows.1.fenced": "true", "action.meadows.1.wolf": "true",
    }).text
    assert "Correct the meadows" in page and "Filled in" not in page
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]
    assert [(m["sheep"], m["wolf"]) for m in state["seats"][2]["meadows"]] == [(7, False), (9, True)]


def test_rule_4_revealing_a_colour_asks_once_more_it_cannot_be_hidden_again(app, client):
    """Host QA: the host's phone opened on "Enter for: Rita" with "Reveal Rita's colour" as
    its first big button, and one stray tap showed Rita's secret colour to everyone (an undo
    does not unsee it). The reveal now asks once more, on every phone."""
    table = lobo_table(client, ("Rita", "Sam"))
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table["id"]: {"host": table["host_token"]}}
    for phone, reveal, confirm in (
        (host, "Reveal Rita's colour", "Yes, show Rita's colour to everyone"),
        (phone_of(app, table, 0), "Reveal my colour", "Yes, show my colour to everyone"),
    ):
        page = html.unescape(phone.get(f"/t/{table['id']}").text)
        question = re.search(r'<details class="confirm lobo-reveal">(.*?)</details>', page, re.S)
        assert question is not None
        summary, rest = question.group(1).split("</summary>", 1)
        assert reveal in summary and "<button" not in summary
        assert confirm in rest and json.dumps(REVEAL) in rest
        assert page.count(json.dumps(REVEAL)) == 1  # no other way to reveal


def test_rule_4_no_reveal_is_offered_once_all_tiles_are_placed(app, client):
    """Testers: "Reveal my colour" was still offered after all tiles were placed, where the
    count that comes next reveals the colour anyway."""
    table = lobo_table(client, ("Rita", "Sam"))
    rita = phone_of(app, table, 0)
    assert "Reveal my colour" in rita.get(f"/t/{table['id']}").text
    assert post(client, table, table["host"], END).status_code == 200
    page = html.unescape(rita.get(f"/t/{table['id']}").text)
    assert "Reveal my colour" not in page and json.dumps(REVEAL) not in page
    assert "entering the meadows shows your colour to everyone" in page  # what reveals it now


def test_rule_4_the_log_names_every_colour_once_the_final_count_is_done(app, client):
    """The README promises every secret colour in the log once the count is done; "Sam
    revealed their colour" stayed unnamed (dealt colours are recorded by no line)."""
    table = lobo_table(client, ("Rita", "Sam"))
    colors = [
        client.get(f"/api/tables/{table['id']}", headers=table["bearer"][seat]).get_json()["state"]["seats"][seat]["color"]
        for seat in range(2)
    ]
    names = [GAME.color_names[color].msgid for color in colors]
    assert post(client, table, table["bearer"][1], REVEAL).status_code == 200
    assert post(client, table, table["host"], END).status_code == 200
    assert post(client, table, table["bearer"][0], meadows(meadow(4), meadow(6))).status_code == 200

    def lines(reader):
        return [event["text"] for event in client.get(f"/api/tables/{table['id']}/log", headers=reader).get_json()["events"]]

    # during the count, the line says nothing a phone may not know
    for reader in ({}, table["bearer"][0], table["bearer"][1]):
        assert lines(reader)[0] == "revealed their colour."
    assert post(client, table, table["bearer"][1], meadows()).status_code == 200  # the last count: the game is over
    for reader in ({}, table["bearer"][0], table["host"]):
        assert lines(reader) == [
            f"revealed their colour: {names[1]}.",
            "said all tiles are placed: the game has ended.",
            f"entered 2 meadows of their colour ({names[0]}); the largest valid one counts: 6 sheep.",
            f"entered no meadow of their colour ({names[1]}): 0 sheep count.",
        ]
    log = html.unescape(phone_of(app, table, 0).get(f"/t/{table['id']}").text)
    assert f"revealed their colour: {names[1]}." in log  # the table page's log too

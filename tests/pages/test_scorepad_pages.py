"""The score pad through its pages and the JSON API (docs/rules.md, Score pad): the start
form and its saved sheets, each phone's own hidden entry, the host's end, corrections, and
the game's name wherever the table is named. The rules alone: tests/games/test_scorepad_rules.py."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlsplit

from companion.web.forms import form_key

from databases import on_both_databases
from played import act, assert_error, bearer, create, csrf_of, host_phone, joined

database = on_both_databases()  # the saved sheets and the titles' queries, on SQLite and PostgreSQL
THREE = ("Ana", "Bruno", "Caio")
AZUL = {"title": "Azul", "rounds": 2}


def text(page) -> str:
    """A page's words, without its markup."""
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(page.get_data(as_text=True))).split())


def start(client, fields: dict, players=THREE):
    """The start form, as a host's phone sends it."""
    data = {"csrf_token": csrf_of(client), "game": "score-pad", "player": list(players)}
    return client.post("/tables", data={**data, **{f"score-pad.{name}": value for name, value in fields.items()}})


def enter(phone, table_id: str, points: dict, expected_version: int | None = None, seat: int | None = None):
    """A tap of "Enter my points" on a phone's table page, its fields filled in as `points`
    (field name after "action." -> value)."""
    page = phone.get(f"/t/{table_id}").get_data(as_text=True)
    version = re.search(r'name="expected_version" value="(\d+)"', page).group(1)
    data = {
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
        "action": json.dumps({"type": "score"}),
        "expected_version": str(version if expected_version is None else expected_version),
        **{f"action.{name}": str(value) for name, value in points.items()},
    }
    if seat is not None:
        data["seat"] = str(seat)
    return phone.post(f"/t/{table_id}/act", data=data, headers={"HX-Request": "true"})


def round_of(client, table, *points):
    for seat, value in enumerate(points):
        act(client, table, table.seats[seat], {"type": "score", "points": value})


# --- the start form and its saved sheets --------------------------------------------------------
def test_the_start_form_starts_a_score_pad_named_as_typed_in_every_language(client):
    started = start(client, {"title.text": "Azul", "categories.lines": "", "rounds.count": "3", "target.points": "",
                             "tie_break.rule": "last_round", "tie_break.category": ""})
    assert started.status_code == 303, text(started)
    table_id = started.headers["Location"].split("/")[2]
    options = client.get(f"/api/tables/{table_id}").get_json()["options"]
    assert options == {"title": "Azul", "categories": None, "rounds": 3, "target": None, "lowest_wins": False, "tie_break": "last_round"}
    for language in ("en", "pt", "fr", "ro"):
        headers = {"Accept-Language": language}
        assert f"<h1 class=\"table-id\">Azul · {table_id}</h1>" in client.get(f"/t/{table_id}", headers=headers).get_data(as_text=True)
        assert f"Azul · {table_id}" in client.get(f"/t/{table_id}/screen", headers=headers).get_data(as_text=True)
        assert "<strong>Azul</strong>" in client.get("/", headers=headers).get_data(as_text=True)  # the tables in play
    assert "<strong>Azul</strong>" in client.get("/tables").get_data(as_text=True)


def test_the_start_form_keeps_a_name_of_digits_as_typed(client):
    started = start(client, {"title.text": "007", "tie_break.rule": "shared"})
    assert client.get(f"/api/tables/{started.headers['Location'].split('/')[2]}").get_json()["options"]["title"] == "007"


def test_the_start_form_refuses_a_score_pad_without_a_name(client, app):
    refused = start(client, {"title.text": "  ", "tie_break.rule": "shared"})
    assert refused.status_code == 422
    assert "Name the game: 1 to 60 characters." in text(refused)
    refused = start(client, {"title.text": "Azul", "categories.lines": "Coins", "tie_break.rule": "category", "tie_break.category": "Guilds"})
    assert refused.status_code == 422 and "it has none called Guilds" in text(refused)


def test_a_sheet_is_saved_under_its_name_and_one_tap_fills_it_in_again(client):
    started = start(client, {"title.text": "7 Wonders", "categories.lines": "Military\nCoins\nScience", "rounds.count": "1",
                             "lowest_wins": "on", "tie_break.rule": "category", "tie_break.category": "coins"})
    assert started.status_code == 303
    home = client.get("/").get_data(as_text=True)
    link = re.search(r'<a class="btn" href="(/\?preset=[^"]+)">7 Wonders</a>', home).group(1)
    assert parse_qs(urlsplit(html.unescape(link)).query) == {"preset": ["score-pad/7 Wonders"]}
    filled = client.get(html.unescape(link)).get_data(as_text=True)
    assert '<option value="score-pad" data-max-players="12"' in filled and 'value="score-pad" data-max-players="12" data-players="2–12 players" selected' in filled
    assert 'name="score-pad.title.text" maxlength="60" autocomplete="off" value="7 Wonders"' in filled
    assert ">Military\nCoins\nScience</textarea>" in filled
    assert re.search(r'name="score-pad.rounds.count" value="1"', filled)
    assert re.search(r'name="score-pad.tie_break.rule" value="category" checked', filled)
    assert re.search(r'name="score-pad.tie_break.category"[^>]*value="Coins"', filled)
    assert re.search(r'<input type="checkbox" name="score-pad.lowest_wins" checked>', filled)
    assert re.search(r'<input type="checkbox" name="lobo.deal_colors" checked>', filled)  # the other games' defaults


def test_starting_again_with_a_saved_name_edits_the_sheet_and_forget_removes_it(client):
    assert start(client, {"title.text": "Azul", "rounds.count": "5", "tie_break.rule": "shared"}).status_code == 303
    assert start(client, {"title.text": "azul", "rounds.count": "6", "tie_break.rule": "shared"}).status_code == 303
    home = client.get("/").get_data(as_text=True)
    assert home.count('href="/?preset=score-pad/') == 1 and ">azul</a>" in home  # one sheet, as last typed
    assert 'name="score-pad.rounds.count" value="6"' in client.get("/?preset=score-pad/Azul").get_data(as_text=True)
    forgotten = client.post("/tables", data={"csrf_token": csrf_of(client), "forget_preset": "score-pad/Azul"})
    assert forgotten.status_code == 303
    assert "preset=score-pad" not in client.get("/").get_data(as_text=True)
    gone = client.get("/?preset=score-pad/Azul")
    assert gone.status_code == 404 and "Nothing is saved under Azul any more." in text(gone)


def test_a_refused_start_saves_no_sheet_and_a_forget_needs_the_forms_token(client):
    start(client, {"title.text": "Azul", "rounds.count": "500", "tie_break.rule": "shared"})
    assert "preset=score-pad" not in client.get("/").get_data(as_text=True)
    start(client, {"title.text": "Azul", "tie_break.rule": "shared"})
    assert client.post("/tables", data={"forget_preset": "score-pad/Azul"}).status_code == 400
    assert "preset=score-pad/Azul" in client.get("/").get_data(as_text=True)


# --- a round on the phones ------------------------------------------------------------------------
def test_each_phone_enters_its_own_points_hidden_from_the_others_until_the_round_closes(app, client):
    table = create(client, "score-pad", THREE, AZUL)
    ana, bruno, caio = (joined(app, token) for token in table.seats)
    assert enter(ana, table.id, {"points": 4321, "round": 1}).status_code == 200
    assert "You entered 4,321: hidden from the others until everyone has entered." in text(ana.get(f"/t/{table.id}"))
    for reader in (bruno, caio, host_phone(app, table)):
        assert "4,321" not in reader.get(f"/t/{table.id}").get_data(as_text=True)
    assert "4,321" not in client.get(f"/t/{table.id}/screen").get_data(as_text=True)
    seen = client.get(f"/api/tables/{table.id}", headers=bearer(table.seats[1])).get_json()["state"]
    assert (seen["entered"], seen["waiting_for"], seen["entry"]) == ([0], [1, 2], None)
    assert client.get(f"/api/tables/{table.id}", headers=bearer(table.seats[0])).get_json()["state"]["entry"] == 4321
    (line,) = client.get(f"/api/tables/{table.id}/log", headers=bearer(table.seats[1])).get_json()["events"]
    assert line["action"] == {"type": "score", "points": None, "round": 1} and line["text"] == "entered their points for round 1."
    (line,) = client.get(f"/api/tables/{table.id}/log", headers=bearer(table.seats[0])).get_json()["events"]
    assert line["action"] == {"type": "score", "points": 4321, "round": 1} and line["text"] == "entered 4,321 points for round 1."
    assert enter(bruno, table.id, {"points": -5}).status_code == 200
    assert enter(caio, table.id, {"points": 0}).status_code == 200
    shown = text(bruno.get(f"/t/{table.id}"))
    assert "Bruno −5 " in shown and "Ana 4,321" in shown  # the round closed: everyone's points


def test_a_page_shown_before_another_players_entry_still_enters(app, client):
    table = create(client, "score-pad", THREE, AZUL)
    ana, bruno = joined(app, table.seats[0]), joined(app, table.seats[1])
    assert enter(bruno, table.id, {"points": 8}).status_code == 200  # version 1
    assert enter(ana, table.id, {"points": 3}, expected_version=0).status_code == 200
    assert client.get(f"/api/tables/{table.id}").get_json()["state"]["entered"] == [0, 1]
    # its own entry from another phone does make the page out of date
    host = host_phone(app, table)
    assert enter(host, table.id, {"points": 1}, seat=2).status_code == 200
    caio = joined(app, table.seats[2])
    refused = enter(caio, table.id, {"points": 2}, expected_version=2)
    assert refused.status_code == 409


def test_an_entry_with_categories_names_each_of_them_whatever_they_hold(app, client):
    categories = ["coins.bank", "7", "Militär ⚔"]
    table = create(client, "score-pad", ("Ana", "Bruno"), {"title": "Wonders", "categories": categories, "rounds": 1})
    ana = joined(app, table.seats[0])
    page = ana.get(f"/t/{table.id}").get_data(as_text=True)
    for category in categories:
        assert f'name="action.points.{html.escape(form_key(category))}"' in page
    entered = enter(ana, table.id, {f"points.{form_key(category)}": value for category, value in zip(categories, (3, -1, 9))})
    assert entered.status_code == 200, text(entered)
    assert client.get(f"/api/tables/{table.id}", headers=bearer(table.seats[0])).get_json()["state"]["entry"] == {
        "coins.bank": 3, "7": -1, "Militär ⚔": 9,
    }
    missing = enter(joined(app, table.seats[1]), table.id, {f"points.{form_key('7')}": 4})
    assert missing.status_code == 422 and "Enter a number for every category: coins.bank has none." in text(missing)


# --- the end and corrections ------------------------------------------------------------------
def test_only_the_host_ends_the_game_and_only_between_rounds(app, client):
    table = create(client, "score-pad", THREE, {"title": "Azul"})
    end = {"type": "end"}
    round_of(client, table, 5, 9, 7)
    assert_error(client.post(f"/api/tables/{table.id}/actions", json=end, headers=bearer(table.seats[0])), 403, "host_only")
    act(client, table, table.seats[1], {"type": "score", "points": 3})
    assert_error(client.post(f"/api/tables/{table.id}/actions", json=end, headers=bearer(table.host)), 422, "round_half_entered")
    client.post(f"/api/tables/{table.id}/undo", headers=bearer(table.seats[1]))
    ended = act(client, table, table.host, end)
    assert ended["status"] == "finished" and [entry["name"] for entry in ended["ranking"]] == ["Bruno", "Caio", "Ana"]
    # logged under the first seat: that player may neither take it back nor redo it
    assert_error(client.post(f"/api/tables/{table.id}/undo", headers=bearer(table.seats[0])), 403, "host_only")
    assert "Undo the last action" not in joined(app, table.seats[0]).get(f"/t/{table.id}").get_data(as_text=True)
    assert client.post(f"/api/tables/{table.id}/undo", headers=bearer(table.host)).status_code == 200
    assert_error(client.post(f"/api/tables/{table.id}/redo", headers=bearer(table.seats[0])), 403, "host_only")
    assert client.post(f"/api/tables/{table.id}/redo", headers=bearer(table.host)).get_json()["status"] == "finished"


def test_the_hosts_phone_ends_the_game_between_rounds(app, client):
    table = create(client, "score-pad", ("Ana", "Bruno"), {"title": "Azul"})
    host = host_phone(app, table)
    assert "End the game now" not in host.get(f"/t/{table.id}").get_data(as_text=True)  # no round played yet
    round_of(client, table, 5, 9)
    page = host.get(f"/t/{table.id}").get_data(as_text=True)
    assert "The game ends after round 1, with the totals as they are." in html.unescape(page)
    assert "End the game now" not in joined(app, table.seats[0]).get(f"/t/{table.id}").get_data(as_text=True)
    form = re.search(r'<details class="confirm sp-end">.*?</details>', page, re.S).group(0)
    data = {"csrf_token": csrf_of(host), "action": json.dumps({"type": "end"}), "expected_version": "2"}
    assert "name=\"seat\"" not in form
    assert host.post(f"/t/{table.id}/act", data=data, headers={"HX-Request": "true"}).status_code == 200
    assert client.get(f"/api/tables/{table.id}").get_json()["status"] == "finished"


def test_a_wrong_entry_is_corrected_going_back_and_the_host_redoes_the_hidden_entries(app, client):
    """Round 2: Ana typed 50 for 5; Bruno and Caio entered after her. The host goes back to
    Ana's line, Ana enters 5 again from her phone, and the host redoes the rest: Bruno's and
    Caio's points, hidden from the host, go back in unseen, the round closes as it did."""
    table = create(client, "score-pad", THREE, AZUL)
    round_of(client, table, 1, 2, 3)
    round_of(client, table, 50, 7)
    log = client.get(f"/api/tables/{table.id}/log", headers=bearer(table.host)).get_json()["events"]
    ana_line = log[3]["seq"]
    host = {"Authorization": f"Bearer {table.host}"}
    assert client.post(f"/api/tables/{table.id}/undo", json={"from": ana_line}, headers=host).status_code == 200
    act(client, table, table.seats[0], {"type": "score", "points": 5})
    redone = client.post(f"/api/tables/{table.id}/redo", json={"all": True}, headers=host).get_json()
    assert redone["redo"] == {"redone": 1, "stopped": None}
    act(client, table, table.seats[2], {"type": "score", "points": 4})
    finished = client.get(f"/api/tables/{table.id}").get_json()
    assert finished["status"] == "finished"
    assert [player["score"] for player in finished["players"]] == [6, 9, 7]


def test_redo_all_after_a_correction_goes_on_past_the_entry_that_closes_the_round(app, client):
    table = create(client, "score-pad", THREE, AZUL)
    round_of(client, table, 1, 2, 3)
    round_of(client, table, 50, 7, 4)
    host = {"Authorization": f"Bearer {table.host}"}
    assert client.post(f"/api/tables/{table.id}/undo", json={"from": 4}, headers=host).status_code == 200
    act(client, table, table.seats[0], {"type": "score", "points": 5})
    redone = client.post(f"/api/tables/{table.id}/redo", json={"all": True}, headers=host).get_json()
    assert redone["redo"] == {"redone": 2, "stopped": None} and redone["status"] == "finished"
    assert [player["score"] for player in redone["players"]] == [6, 9, 7]


# --- after the game ---------------------------------------------------------------------------
def play_hearts(client, players=THREE):
    table = create(client, "score-pad", players, {"title": "♥ Hearts", "target": 50, "lowest_wins": True})
    round_of(client, table, *[26, 0, 10][: len(players)])
    round_of(client, table, *[26, 10, 0][: len(players)])
    return table


def test_the_results_chart_runs_round_by_round_and_the_exports_name_the_game(app, client):
    table = play_hearts(client)
    results = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    assert "the game, round by round" in results and "♥ Hearts · " in results
    polyline = re.search(r'<polyline data-seat="0" points="([^"]+)"', results).group(1)
    assert len(polyline.split()) == 3  # the start and each closed round
    bgstats = re.search(r'class="btn big bgstats" href="([^"]+)"', results).group(1)
    play = json.loads(parse_qs(urlsplit(html.unescape(bgstats)).query)["data"][0])
    assert play["game"]["name"] == "♥ Hearts" and play["game"]["highestWins"] is False
    assert play["game"]["sourceGameId"] == "score-pad:♥ hearts"
    assert [player["name"] for player in play["players"]] == ["Bruno", "Caio", "Ana"]
    exported = client.get(f"/t/{table.id}/export.json").get_json()
    assert exported["table"]["options"]["title"] == "♥ Hearts"
    csv = client.get(f"/t/{table.id}/export.csv").get_data(as_text=True)
    assert "Ana,52,rounds: 26 + 26," in csv
    assert "♥ Hearts" in client.get(f"/t/{table.id}/results.svg").get_data(as_text=True)


def test_a_rematch_keeps_the_sheet_and_its_name(app, client):
    table = play_hearts(client)
    ana = joined(app, table.seats[0])
    started = ana.post(f"/t/{table.id}/rematch", data={"csrf_token": csrf_of(ana)})
    new_id = started.headers["Location"].split("/")[2]
    rematch = client.get(f"/api/tables/{new_id}").get_json()
    assert rematch["options"]["title"] == "♥ Hearts" and rematch["state"]["round"] == 1 and rematch["state"]["rounds"] == []


def test_the_players_page_counts_each_typed_game_as_a_game_of_its_own(app, client):
    play_hearts(client)
    play_hearts(client, ("Ana", "Dora"))
    wingspan = create(client, "score-pad", ("Ana", "Bruno"), {"title": "Wingspan", "rounds": 1})
    round_of(client, wingspan, 80, 75)
    page = client.get("/players/Ana").get_data(as_text=True)
    rows = re.findall(r'<tr data-game="score-pad">\s*<th scope="row">([^<]+)</th>\s*<td>(\d+)</td>\s*<td>(\d+)</td>', page)
    assert rows == [("♥ Hearts", "2", "0"), ("Wingspan", "1", "1")]
    best = re.search(r'<th scope="row">♥ Hearts</th>(?:\s*<td>[^<]*</td>){3}\s*<td>([^<]+)</td>', page).group(1)
    assert best == "52"  # the lowest total is the best where the lowest wins
    assert "<strong>Wingspan</strong>" in page  # its recent tables by their names


def test_the_start_form_offers_each_games_twelve_latest_sheets(client):
    for number in range(14):
        create(client, "score-pad", ("Ana", "Bruno"), {"title": f"Game {number:02}"})
    home = client.get("/").get_data(as_text=True)
    offered = re.findall(r'href="/\?preset=score-pad/Game\+(\d+)"', home)
    assert sorted(offered) == [f"{number:02}" for number in range(2, 14)]

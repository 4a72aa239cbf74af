"""Results of a finished table (issue 6): each game's breakdown of a score and its tie-break
in plain words, the results page, the rematch (one tap, the next player starts, phones
led to their new seats) and the table screen."""

from __future__ import annotations

import random
import re
import threading

import pytest
import requests

from companion.web import i18n
from companion.tables import rematch
from companion.tables.database import connect
from companion.games import GAMES
from companion.games.twentyone import COLORS
from played import (
    act,
    bearer,
    create,
    csrf_of,
    host_phone,
    joined,
    play_lobo,
    play_pickomino,
    play_scene,
    table_count,
    take_tile,
    who,
)
from databases import on_both_databases

# Results, rematches and the store under them, on SQLite and on PostgreSQL alike.
database = on_both_databases()

PICKOMINO, BARBECUE, LOBO, TWENTY_ONE = (GAMES[slug] for slug in ("pickomino", "heckmeck-barbecue", "lobo", "twenty-one"))


def texts(ranking, key):
    return [None if entry[key] is None else str(entry[key]) for entry in ranking]


# --- breakdown and tie-break, per game (pure engines) ----------------------------------------
def finished_pickomino(stacks):
    state = PICKOMINO.setup(["Ana", "Bruno", "Caio", "Davi"][: len(stacks)], PICKOMINO.effective_options({}))
    state["stacks"] = [list(stack) for stack in stacks]
    state["grill"], state["turn"] = [], None  # the grill is empty: the game is over
    return state


def test_pickomino_breakdown_is_the_tiles_held_and_the_highest_tile_breaks_a_tie():
    ranking = PICKOMINO.ranking(finished_pickomino([[25, 21], [29], [], []]))
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [
        ("Bruno", 3, 1), ("Ana", 3, 2), ("Caio", 0, 3), ("Davi", 0, 3),
    ]
    assert texts(ranking, "detail") == ["Tile held: 29", "Tiles held: 21, 25", "No tiles held.", "No tiles held."]
    assert [entry["tiles"] for entry in ranking] == [[29], [21, 25], [], []]
    assert texts(ranking, "tiebreak") == [
        "Bruno and Ana tied on 3 worms; the highest tile decided (Bruno 29, Ana 25).",
        "Bruno and Ana tied on 3 worms; the highest tile decided (Bruno 29, Ana 25).",
        "Caio and Davi tied with no tiles: they share the place.",
        "Caio and Davi tied with no tiles: they share the place.",
    ]


def finished_barbecue(worms, snails, plates):
    names = ["Ana", "Bruno", "Caio"][: len(worms)]
    state = BARBECUE.setup(names, BARBECUE.effective_options({}))
    state["worms"], state["snails"], state["turn"] = list(worms), list(snails), None
    for value, owners in plates.items():
        next(spot for spot in state["spots"] if spot["value"] == value)["plates"] = list(owners)
    return state


def test_barbecue_breakdown_is_worms_plus_snails_times_three_and_the_highest_plate_breaks_a_tie():
    ranking = BARBECUE.ranking(finished_barbecue([7, 10, 1], [1, 0, 0], {31: [1], 34: [0]}))
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [("Ana", 10, 1), ("Bruno", 10, 2), ("Caio", 1, 3)]
    assert texts(ranking, "detail") == ["7 worms + 1 snail × 3", "10 worms + 0 snails × 3", "1 worm + 0 snails × 3"]
    assert [(entry["worms"], entry["snails"]) for entry in ranking] == [(7, 1), (10, 0), (1, 0)]
    assert texts(ranking, "tiebreak") == ["Tied on 10 points: Ana's plate on 34 is higher than Bruno's on 31."] * 2 + [None]


def test_barbecue_players_tied_without_a_plate_share_the_place():
    ranking = BARBECUE.ranking(finished_barbecue([3, 3], [0, 0], {}))
    assert [entry["place"] for entry in ranking] == [1, 1]
    assert texts(ranking, "tiebreak") == ["Tied on 3 points: Ana and Bruno have no plate on the grill and share the place."] * 2


def lobo_ranking(meadows, leaving=()):
    names = ["Ana", "Bruno", "Caio"][: len(meadows)]
    state = LOBO.setup(names, LOBO.effective_options({}), LOBO.deal(names, LOBO.effective_options({}), random.Random(1)))
    for seat in leaving:
        state = LOBO.apply(state, seat, {"type": "abandon"})
    state = LOBO.apply(state, 0, {"type": "end"})
    for seat, sheep in enumerate(meadows):
        entered = [] if sheep is None else [{"sheep": sheep, "fenced": True, "wolf": False}]
        state = LOBO.apply(state, seat, {"type": "meadows", "meadows": entered})
    return LOBO.ranking(state)


def test_lobo_breakdown_is_the_counting_meadow_plus_the_leaving_bonus_and_the_larger_meadow_breaks_a_tie():
    ranking = lobo_ranking([9, 3, None], leaving=(1, 2))
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [("Ana", 9, 1), ("Bruno", 9, 2), ("Caio", 3, 3)]
    assert texts(ranking, "detail") == [
        "Counting meadow of 9 sheep + leaving bonus 0 (blue flock)",
        "Counting meadow of 3 sheep + leaving bonus 6 (yellow flock)",
        "No valid meadow + leaving bonus 3 (red flock)",
    ]
    assert [(entry["meadow"], entry["bonus"]) for entry in ranking] == [(9, 0), (3, 6), (0, 3)]
    assert texts(ranking, "tiebreak")[:2] == ["Ana and Bruno tied on 9 points; the larger meadow decided (Ana 9, Bruno 3)."] * 2


def test_lobo_a_tie_with_meadows_of_the_same_size_is_shared():
    ranking = lobo_ranking([5, 5])
    assert [entry["place"] for entry in ranking] == [1, 1]
    assert texts(ranking, "tiebreak") == [
        "Ana and Bruno tied on 5 points with meadows of the same size (5 sheep): they share the place."
    ] * 2


def twentyone_game(rounds_writing):
    """Ema and Tomás on sheets with every row in the colours' order; each round the roller
    rolls 6 5 4 3 2 1 (six hits there); `rounds_writing` says per round what Tomás does."""
    names = ["Ema", "Tomás"]
    plain = [list(COLORS)] * 5
    options = TWENTY_ONE.effective_options({"sheets": ["A", "B"], "sheet_layouts": [plain, plain]})
    state = TWENTY_ONE.setup(names, options, TWENTY_ONE.deal(names, options, random.Random(0)))
    exact = dict(zip(COLORS, (6, 5, 4, 3, 2, 1)))
    for round_, tomas in enumerate(rounds_writing):
        state = TWENTY_ONE.apply(state, round_ % 2, {"type": "roll", "dice": exact})
        state = TWENTY_ONE.apply(state, 0, {"type": "enter", "colors": list(COLORS)})
        state = TWENTY_ONE.apply(state, 1, tomas)
    assert TWENTY_ONE.is_finished(state)
    return state


def test_twentyone_breakdown_is_the_row_scores_and_a_tie_is_shared_as_the_rules_have_no_tie_break():
    ranking = TWENTY_ONE.ranking(twentyone_game([{"type": "enter", "colors": list(COLORS)}] * 5))
    assert [(entry["name"], entry["score"], entry["place"]) for entry in ranking] == [("Ema", 210, 1), ("Tomás", 210, 1)]
    assert texts(ranking, "detail") == ["42 + 42 + 42 + 42 + 42"] * 2
    assert texts(ranking, "tiebreak") == ["Ema and Tomás tied on 210 points: the rules have no tie-break, they share the place."] * 2


def test_twentyone_breakdown_of_an_unfinished_row_is_its_score_as_it_stood():
    ranking = TWENTY_ONE.ranking(twentyone_game([{"type": "enter", "colors": ["green"]}] + [{"type": "cross"}] * 4))
    assert texts(ranking, "detail") == ["42 + 42 + 42 + 42 + 42", "2"]
    assert texts(ranking, "tiebreak") == [None, None]


# --- the results page -------------------------------------------------------------------------
def test_results_page_shows_places_scores_breakdown_tiebreak_and_the_whole_log(app, client):
    """The whole log reads newest first, as the table page's does (testers met one order on
    the table and the other on the results); at the end of Lobo it names every colour."""
    table = create(client, "lobo", ("Ana", "Bruno"))
    state = play_lobo(client, table, [9, 3], leaving=(1,))
    ana, bruno = (seat["color"] for seat in state["state"]["seats"])
    page = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    ranking = re.search(r'<section class="ranking">.*?</section>', page, re.S).group(0)
    assert re.findall(r'class="rank-name"[^>]*>([^<]+)<', ranking) == ["Ana", "Bruno"]
    assert "Counting meadow of 3 sheep + leaving bonus 6" in ranking
    assert "Ana and Bruno tied on 9 points; the larger meadow decided (Ana 9, Bruno 3)." in ranking
    log = re.search(r'<details class="log full-log".*?</details>', page, re.S).group(0)
    assert log.startswith('<details class="log full-log">')  # closed: 112 lines were a 12,000 px page (host QA)
    assert [re.sub(r"\s+", " ", line).strip() for line in re.findall(r"<li[^>]*>(.*?)</li>", log, re.S)] == [
        f"<strong>Bruno</strong> entered 1 meadow of their colour ({bruno}); 3 sheep count.",
        f"<strong>Ana</strong> entered 1 meadow of their colour ({ana}); 9 sheep count.",
        "<strong>Ana</strong> said all tiles are placed: the game has ended.",
        "<strong>Bruno</strong> left the game.",
    ]
    assert '<ol reversed>' in log  # numbered from the last line down, as on the table page
    assert 'href="/players/Ana"' in ranking  # each name leads to that player's page


def test_the_results_and_the_lists_of_tables_say_when_the_game_finished(app, client):
    """Testers: the results header showed when the game started, where the home page and
    /tables show when it finished. All say when it finished (a finished table closed the
    next morning too); the results say when it started beside it."""
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    host = host_phone(app, table)
    assert host.post(f"/t/{table.id}/close", data={"csrf_token": csrf_of(host)}).status_code == 303
    started, finished, closed = "2026-11-27T19:05:00+00:00", "2026-11-27T20:47:00+00:00", "2026-11-28T09:00:00+00:00"
    with connect(app.config["DATABASE"]) as db:
        db.execute(
            "UPDATE game_tables SET created_at = ?, finished_at = ?, updated_at = ?, closed_at = ? WHERE id = ?",
            [started, finished, closed, closed, table.id],
        )
    with app.test_request_context():
        finished_words, started_words = i18n.moment(finished), i18n.started_words(started, finished)
    header = re.search(r'<p class="muted results-when">(.*?)</p>', client.get(f"/t/{table.id}/results").get_data(as_text=True), re.S)
    header = re.sub(r"[ \n]+", " ", header.group(1)).strip()  # a time's narrow no-break space stays
    assert header.startswith(f'finished <time datetime="{finished}">{finished_words}</time> · 102 minutes, started at {started_words}')
    for address in ("/tables", "/players/Ana"):
        page = client.get(address).get_data(as_text=True)
        assert f'<time datetime="{finished}">{finished_words}</time>' in page, address
        assert closed not in page, address


def test_results_of_an_unknown_table_is_a_404_page_with_a_sentence(client):
    response = client.get("/t/ZZZZZZ/results")
    assert response.status_code == 404
    assert "There is no table ZZZZZZ." in response.get_data(as_text=True)


def test_results_of_a_table_still_playing_say_so_and_lead_to_the_table(client):
    table = create(client)
    response = client.get(f"/t/{table.id}/results")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert f"The game at table {table.id} is not over yet" in page
    assert f'href="/t/{table.id}"' in page


def test_the_finished_table_page_offers_the_rematch_to_a_player_but_not_to_a_watcher(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    ana = joined(app, table.seats[0])
    assert "Rematch" in ana.get(f"/t/{table.id}").get_data(as_text=True)
    watcher_page = app.test_client().get(f"/t/{table.id}").get_data(as_text=True)
    assert "Rematch</button>" not in watcher_page
    assert f'href="/t/{table.id}/results"' in watcher_page


# --- rematch ---------------------------------------------------------------------------------
def tap_rematch(phone, table_id: str):
    return phone.post(f"/t/{table_id}/rematch", data={"csrf_token": csrf_of(phone)})


def rematch_of(response) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[2]


def test_rematch_same_game_players_and_options_with_the_next_player_starting(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"), {"alternative_return": True})
    play_pickomino(client, table)
    bruno = joined(app, table.seats[1])
    assert "players and options; Bruno starts." in bruno.get(f"/t/{table.id}").get_data(as_text=True)
    new_id = rematch_of(tap_rematch(bruno, table.id))
    state = client.get(f"/api/tables/{new_id}").get_json()
    assert state["game"] == "pickomino" and state["status"] == "playing" and state["version"] == 0
    assert [player["name"] for player in state["players"]] == ["Bruno", "Caio", "Ana"]  # Bruno came after Ana
    assert state["current_seat"] == 0
    assert state["options"] == {"alternative_return": True, "flip_when_empty": False}
    assert client.get(f"/api/tables/{table.id}").get_json()["rematch"] == new_id


def test_rematch_of_twenty_one_keeps_each_players_sheet(app, client):
    plain = [list(COLORS)] * 5
    table = create(client, "twenty-one", ("Ema", "Tomás", "Rui"), {"sheets": ["C", None, "A"], "sheet_layouts": [None, plain, None]})
    row = connect(app.config["DATABASE"]).table_row(table.id)
    state = twentyone_finished_through_the_api(client, table)
    letters = {sheet["seat"]: sheet["letter"] for sheet in state["state"]["sheets"]}
    new_id = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    new = client.get(f"/api/tables/{new_id}").get_json()
    assert [player["name"] for player in new["players"]] == ["Tomás", "Rui", "Ema"]
    assert [sheet["letter"] for sheet in new["state"]["sheets"]] == [letters[1], letters[2], letters[0]] == [row["deal"][1], "A", "C"]
    assert [sheet["copied"] for sheet in new["state"]["sheets"]] == [True, False, False]


def play_twentyone_to_the_end(client, table):
    """Five rounds of six 1s: the first player fills a row each round, the others cross out."""
    ones = dict(zip(COLORS, (1,) * 6))
    for _round in range(5):
        act(client, table, table.host, {"type": "roll", "dice": ones})
        act(client, table, table.seats[0], {"type": "enter", "colors": list(COLORS)})
        for seat in range(1, len(table.seats)):
            act(client, table, table.seats[seat], {"type": "cross"})


def twentyone_finished_through_the_api(client, table):
    play_twentyone_to_the_end(client, table)
    return client.get(f"/api/tables/{table.id}").get_json()


def test_rematch_of_lobo_deals_new_secret_colours(app, client):
    table = create(client, "lobo", ("Ana", "Bruno", "Caio"))
    play_lobo(client, table, [1, 2, 3])
    new_id = rematch_of(tap_rematch(joined(app, table.seats[2]), table.id))
    new = connect(app.config["DATABASE"]).table_row(new_id)
    assert new["options"] == {"deal_colors": True}
    assert sorted(new["deal"]) == sorted(set(new["deal"])) and len(new["deal"]) == 3


def test_rematch_of_lobo_says_nothing_of_who_starts(app, client):
    """Testers: the Lobo rematch said "Bruno starts", and Lobo has no turns."""
    table = create(client, "lobo", ("Ana", "Bruno", "Caio"))
    play_lobo(client, table, [1, 2, 3])
    ana = joined(app, table.seats[0])
    for page in (ana.get(f"/t/{table.id}").get_data(as_text=True), ana.get(f"/t/{table.id}/results").get_data(as_text=True)):
        offer = re.search(r'<form class="rematch".*?</form>', page, re.S).group(0)
        assert "The same game, players and options. Every phone here moves to its new seat." in offer
        assert "starts" not in offer


def test_rematch_by_a_phone_that_never_joined_is_refused_and_creates_nothing(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    stranger = app.test_client()
    response = tap_rematch(stranger, table.id)
    assert response.status_code == 403
    assert "Only the players who joined this table, or its host, can start a rematch." in response.get_data(as_text=True)
    other = create(client, "lobo", ("Dora", "Edu"))
    with stranger.session_transaction() as session:  # a seat of another table, presented for this one
        session["tables"] = {table.id: {"seat": other.seats[0], "host": other.host}}
    assert tap_rematch(stranger, table.id).status_code == 403
    assert table_count(app) == 2
    assert client.get(f"/api/tables/{table.id}").get_json()["rematch"] is None


def test_rematch_a_watching_phone_that_polls_is_told_that_a_rematch_started(app, client):
    """Found by a tester: a rematch moves no version, so a phone that joined no seat kept
    getting 204 (and, asking afresh, the table kept from before) and never learnt of it."""
    table = create(client)
    play_pickomino(client, table)
    onlooker = app.test_client()
    page = onlooker.get(f"/t/{table.id}").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+/poll[^"]*)"', page).group(1).replace("&amp;", "&")
    assert onlooker.get(poll, headers={"HX-Request": "true"}).status_code == 204
    fresh = onlooker.get(poll.replace("v=", "v=-1&was="), headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "A rematch has started" not in fresh  # kept for the version, shared by watchers
    rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    told = onlooker.get(poll, headers={"HX-Request": "true"})
    assert told.status_code == 200 and "A rematch has started" in told.get_data(as_text=True)
    again = re.search(r'hx-get="([^"]+/poll[^"]*)"', told.get_data(as_text=True)).group(1).replace("&amp;", "&")
    assert onlooker.get(again, headers={"HX-Request": "true"}).status_code == 204  # told once


def test_rematch_of_a_table_still_playing_is_refused_and_creates_nothing(app, client):
    table = create(client)
    response = tap_rematch(joined(app, table.seats[0]), table.id)
    assert response.status_code == 409
    assert "is not over yet" in response.get_data(as_text=True)
    assert table_count(app) == 1


def test_rematch_of_an_unknown_table_is_a_404_page(app):
    response = tap_rematch(app.test_client(), "ZZZZZZ")
    assert response.status_code == 404
    assert "There is no table ZZZZZZ." in response.get_data(as_text=True)


def test_rematch_without_the_csrf_token_is_refused(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    response = joined(app, table.seats[0]).post(f"/t/{table.id}/rematch")
    assert response.status_code == 400
    assert table_count(app) == 1


def test_rule_6_no_undo_once_a_rematch_has_started_from_the_table(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    host = host_phone(app, table)
    assert "Undo the last action" in host.get(f"/t/{table.id}").get_data(as_text=True)
    new_id = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    refused = client.post(f"/api/tables/{table.id}/undo", headers=bearer(table.host))
    assert refused.status_code == 409
    assert refused.get_json() == {
        "code": "rematch_started",
        "error": "A rematch has started from this game: its result is final and cannot change any more.",
    }
    state = client.get(f"/api/tables/{table.id}").get_json()
    assert (state["status"], state["rematch"]) == ("finished", new_id)
    assert "Undo the last action" not in host.get(f"/t/{table.id}").get_data(as_text=True)


def test_a_second_tap_finds_the_same_rematch(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    first = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    second = rematch_of(tap_rematch(host_phone(app, table), table.id))
    assert first == second and table_count(app) == 2


def test_two_phones_tapping_rematch_at_the_same_moment_make_one_table(app, live_server):
    table = create(app.test_client(), "lobo", ("Ana", "Bruno", "Caio"))
    play_lobo(app.test_client(), table, [4, 2, 1])
    phones = []
    for token in table.seats:
        phone = requests.Session()
        phone.get(f"{live_server.url}/j/{token}")
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(live_server.url + "/").text).group(1)
        phones.append((phone, csrf))
    start = threading.Barrier(len(phones))
    locations = []

    def tap(phone, csrf):
        start.wait()
        response = phone.post(f"{live_server.url}/t/{table.id}/rematch", data={"csrf_token": csrf}, allow_redirects=False)
        locations.append((response.status_code, response.headers.get("Location")))

    threads = [threading.Thread(target=tap, args=phone) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({location for _status, location in locations}) == 1
    assert all(status == 303 for status, _location in locations)
    assert table_count(app) == 2


def test_joined_phones_are_led_to_their_own_new_seat_and_the_host_keeps_the_host_role(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    phones = [joined(app, token) for token in table.seats]
    host = host_phone(app, table)
    watcher = app.test_client()
    version = client.get(f"/api/tables/{table.id}").get_json()["version"]
    new_id = rematch_of(tap_rematch(phones[0], table.id))
    assert who(phones[0].get(f"/t/{new_id}").get_data(as_text=True)) == "You are Ana"
    for name, phone in zip(("Bruno", "Caio"), phones[1:]):
        poll = phone.get(f"/t/{table.id}/poll?v={version}")
        assert poll.status_code == 204 and poll.headers["HX-Redirect"] == f"/t/{table.id}/rematch"
        followed = phone.get(poll.headers["HX-Redirect"])
        assert followed.status_code == 303 and followed.headers["Location"] == f"/t/{new_id}"
        assert who(phone.get(f"/t/{new_id}").get_data(as_text=True)) == f"You are {name}"
        # having followed, the old table's page may be read again without being led away
        assert "HX-Redirect" not in phone.get(f"/t/{table.id}/poll?v={version}").headers
    host.get(host.get(f"/t/{table.id}/poll?v={version}").headers["HX-Redirect"])
    assert host.get(f"/t/{new_id}/join").status_code == 200  # the new table's join codes
    assert "HX-Redirect" not in watcher.get(f"/t/{table.id}/poll?v={version}").headers
    new_seats = client.get(f"/api/tables/{new_id}").get_json()["players"]
    assert [player["name"] for player in new_seats] == ["Bruno", "Caio", "Ana"]


def test_a_stranger_following_the_rematch_link_only_watches(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    new_id = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    stranger = app.test_client()
    assert stranger.get(f"/t/{table.id}/rematch").headers["Location"] == f"/t/{new_id}"
    assert who(stranger.get(f"/t/{new_id}").get_data(as_text=True)) == "You are watching"


def test_the_database_alone_does_not_hold_the_rematch_tokens(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    new_id = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    db = connect(app.config["DATABASE"])
    sealed = db.table_row(table.id)["rematch_host_sealed"]
    assert not db.is_host_token(new_id, sealed)
    opened_with_another_secret = rematch.unseal("not the server's secret", table.id, new_id, sealed)
    assert opened_with_another_secret is None or not db.is_host_token(new_id, opened_with_another_secret)
    assert rematch.follow(db, table.id, None, "made-up-token", app.config["SECRET_KEY"]) == rematch.Moved(new_id)
    moved = rematch.follow(db, table.id, None, table.seats[1], app.config["SECRET_KEY"])
    assert db.seat_for_token(new_id, moved.seat_token) == 0  # Bruno starts the rematch


# --- the table screen --------------------------------------------------------------------------
def test_the_table_screen_is_live_read_only_with_its_own_link_and_qr_code(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    page = client.get(f"/t/{table.id}/screen").get_data(as_text=True)
    assert "<svg" in page and f"/t/{table.id}/screen</a>" in page
    assert "<form" not in page and "<button" not in page
    assert client.get(f"/t/{table.id}/screen/poll?v=0").status_code == 204
    take_tile(client, table, 21)
    changed = client.get(f"/t/{table.id}/screen/poll?v=0")
    assert changed.status_code == 200 and "Ana took 21 from the grill." in changed.get_data(as_text=True)


def test_the_table_screen_of_a_game_without_turns_to_tell_says_its_last_action_in_effect(app, client):
    """Lobo, Twenty One and Qwixx keep no turn's outcome: the screen says the last action
    still in effect, as the log does (an undone one no longer), with no secret in it."""
    table = create(client, "lobo", ("Ana", "Bruno", "Caio"), {"deal_colors": False})
    assert "last-line" not in client.get(f"/t/{table.id}/screen").text  # nothing done yet
    act(client, table, table.seats[1], {"type": "choose_color", "color": "blue"})
    act(client, table, table.seats[0], {"type": "abandon"})
    screen = client.get(f"/t/{table.id}/screen").text
    assert re.search(r'class="outcome last-line"[^>]*><strong>Ana</strong> left the game', screen), screen
    client.post(f"/api/tables/{table.id}/undo", headers=bearer(table.seats[0]))
    screen = client.get(f"/t/{table.id}/screen").text
    assert "<strong>Bruno</strong> recorded the colour they drew." in screen and "blue" not in screen
    for color in ["red", "yellow"] * 8:  # Caio corrects his colour sixteen times; the host goes back over all
        act(client, table, table.seats[2], {"type": "choose_color", "color": color})
    back = client.post(f"/api/tables/{table.id}/undo", json={"from": 4}, headers=bearer(table.host))  # the undo made version 3
    assert back.status_code == 200, back.get_json()
    assert "<strong>Bruno</strong> recorded the colour they drew." in client.get(f"/t/{table.id}/screen").text
    act(client, table, table.host, {"type": "end"})
    assert re.search(r"<strong>Ana</strong> [^<]+ <small>\(entered by the host\)</small>", client.get(f"/t/{table.id}/screen").text)


def test_the_table_screen_shows_no_secret_colour_and_no_token_even_on_a_players_device(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    ana = joined(app, table.seats[0])
    colour = client.get(f"/api/tables/{table.id}", headers=bearer(table.seats[0])).get_json()["state"]["seats"][0]["color"]
    assert colour in ana.get(f"/t/{table.id}").get_data(as_text=True)  # her phone shows it...
    screen = ana.get(f"/t/{table.id}/screen").get_data(as_text=True)
    assert f"flock-{colour}" not in screen  # ...her device showing the screen does not
    assert "/j/" not in screen and table.seats[0] not in screen and table.host not in screen


def test_the_table_screen_follows_the_rematch_and_refuses_unknown_tables(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 2])
    assert "Ranking" in client.get(f"/t/{table.id}/screen").get_data(as_text=True)
    new_id = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    assert client.get(f"/t/{table.id}/screen/poll?v=3").headers["HX-Redirect"] == f"/t/{new_id}/screen"
    assert client.get("/t/ZZZZZZ/screen").status_code == 404
    assert client.get("/t/ZZZZZZ/screen/poll?v=0").status_code == 404


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_results_exports_and_a_rematch_with_the_second_player_starting(app, client, game):
    """Every game of the registry, played to its finished scene (Game.scenes)."""
    scene = GAMES[game].scenes()["finished"]
    table = play_scene(client, game, scene)
    names = list(scene.players)
    results = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    assert all(name in results for name in names) and "<svg" in results  # the ranking and the chart
    exported = client.get(f"/t/{table.id}/export.json").get_json()
    assert sorted(entry["name"] for entry in exported["table"]["ranking"]) == sorted(names)
    assert client.get(f"/t/{table.id}/export.csv").status_code == 200
    assert client.get(f"/t/{table.id}/screen").status_code == 200
    new_id = rematch_of(tap_rematch(joined(app, table.seats[0]), table.id))
    new = client.get(f"/api/tables/{new_id}").get_json()
    assert new["game"] == game and [player["name"] for player in new["players"]] == names[1:] + names[:1]
    if game != "twenty-one":  # Twenty One's options name the sheets, which follow their players (above)
        assert new["options"] == client.get(f"/api/tables/{table.id}").get_json()["options"]


def test_a_phone_on_the_results_page_is_led_to_its_seat_when_a_rematch_starts(app, client):
    """Bruno looks at the chart on the results page while Ana taps Rematch: his page asks
    as the table page does, and is led to his seat at the new table."""
    table = create(client, "pickomino", ("Ana", "Bruno"))
    play_pickomino(client, table)
    ana, bruno, watcher = joined(app, table.seats[0]), joined(app, table.seats[1]), app.test_client()
    version = client.get(f"/api/tables/{table.id}").get_json()["version"]
    follow = f"/t/{table.id}/results/follow?v={version}"
    assert f'hx-get="{follow.replace("&", "&amp;")}"' in bruno.get(f"/t/{table.id}/results").get_data(as_text=True)
    assert "results/follow" not in watcher.get(f"/t/{table.id}/results").get_data(as_text=True)  # nothing to follow
    still = bruno.get(follow)
    assert still.status_code == 204 and "HX-Redirect" not in still.headers
    new_id = rematch_of(tap_rematch(ana, table.id))
    led = bruno.get(follow)
    assert led.status_code == 204 and led.headers["HX-Redirect"] == f"/t/{table.id}/rematch"
    assert who(bruno.get(bruno.get(led.headers["HX-Redirect"]).headers["Location"]).get_data(as_text=True)) == "You are Bruno"
    assert bruno.get(f"/t/{new_id}/poll").status_code == 200


def test_a_phone_on_the_results_page_goes_back_to_the_table_when_the_end_is_taken_back(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    play_pickomino(client, table)
    bruno = joined(app, table.seats[1])
    version = client.get(f"/api/tables/{table.id}").get_json()["version"]
    assert client.post(f"/api/tables/{table.id}/undo", json={}, headers=bearer(table.host)).status_code == 200
    moved = bruno.get(f"/t/{table.id}/results/follow?v={version}")
    assert moved.status_code == 204 and moved.headers["HX-Redirect"] == f"/t/{table.id}"
    assert bruno.get(f"/t/ZZZZZZ/results/follow?v={version}").status_code == 404


def test_a_phone_on_the_results_page_stays_on_the_results_when_the_host_closes_the_table(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno"))
    play_pickomino(client, table)
    bruno = joined(app, table.seats[1])
    version = client.get(f"/api/tables/{table.id}").get_json()["version"]
    host = host_phone(app, table)
    assert host.post(f"/t/{table.id}/close", data={"csrf_token": csrf_of(host)}).status_code == 303
    stays = bruno.get(f"/t/{table.id}/results/follow?v={version}")
    assert stays.status_code == 204 and stays.headers["HX-Redirect"] == f"/t/{table.id}/results"


def test_a_phone_on_the_results_page_shows_the_results_again_when_the_final_count_is_corrected(app, client):
    """Lobo: Bruno's meadow was entered as 3, the host goes back and enters 9: the game
    is over again with another winner, and Ana's results page shows it."""
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [4, 3])
    ana = joined(app, table.seats[0])
    version = client.get(f"/api/tables/{table.id}").get_json()["version"]
    assert client.post(f"/api/tables/{table.id}/undo", json={}, headers=bearer(table.host)).status_code == 200
    meadows = {"type": "meadows", "meadows": [{"sheep": 9, "fenced": True, "wolf": False}]}
    act(client, table, table.seats[1], meadows)
    again = ana.get(f"/t/{table.id}/results/follow?v={version}")
    assert again.status_code == 204 and again.headers["HX-Redirect"] == f"/t/{table.id}/results"

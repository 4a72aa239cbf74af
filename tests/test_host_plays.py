"""The host who plays (issue 39): the start form asks whether the host plays and as whom
("Me" beside a name), and the host's phone becomes that seat, keeping its host rights; its
codes' page shows that seat as open on this phone (nothing to scan); the turn reaches the
host's phone as any player's. A host who only keeps the score keeps today's view, told how
to take a seat of their own after all."""

from __future__ import annotations

import html
import re

from companion.games import GAMES
from companion.tables.database import connect
from companion.tables.service import seat_token

from test_pages import alert, csrf_of, join_links, join_statuses, opened, table_count, tap


def start(client, names=("Ana", "Bruno", "Caio"), me: str | None = None, game: str = "pickomino"):
    """The start form as a phone sends it; `me`: the name slot marked "Me" (None: not sent,
    as from a page of before; "": "I only keep the score")."""
    form = {"csrf_token": csrf_of(client), "game": game, "player": list(names)}
    if me is not None:
        form["host_plays"] = me
    return client.post("/tables", data=form)


def started(client, **form) -> str:
    response = start(client, **form)
    assert response.status_code == 303, response.text
    assert response.headers["Location"].endswith("/join")  # the codes, for the others to scan
    return response.headers["Location"].split("/")[2]


def your_turn(page: str) -> bool:
    """Whether the table says "Your turn" to this phone, and marks it for static/app.js to
    alert the player (title, vibration, sound, screen reader: data-must-act)."""
    return "data-must-act" in page and bool(re.search(r'<p class="status mine"[^>]*>Your turn</p>', page))


def who(page: str) -> str:
    return re.sub(r"\s+", " ", re.search(r'class="who"[^>]*>(.*?)</p>', page, re.S).group(1)).strip()


def test_the_start_form_asks_whether_the_host_plays_beside_each_name(client):
    page = html.unescape(client.get("/").text)
    assert "Playing too? Tap “Me” beside your name: this phone becomes your seat and stays the host." in page
    radios = re.findall(r'<input type="radio" name="host_plays" value="(\d*)"[^>]*>', page)
    slots = max(game.max_players for game in GAMES.values())  # the form's name slots
    assert radios == [str(slot) for slot in range(slots)] + [""]  # one beside each, then "I only keep the score"
    assert re.search(r'name="host_plays" value="" checked', page)  # a host who does not say so only keeps the score
    assert 'aria-label="I play as player 2"' in page


def test_a_host_who_plays_has_their_seat_on_the_phone_that_started_the_table(app, client):
    """Game night: the host who also played was never told to open their own seat; "Go to
    the table" made them "the host, entering for Ana", and Ana's phone (the host's) got no
    turn alert. Now "Me" beside Ana makes the host's phone Ana's, and it stays the host's."""
    table_id = started(client, me="0")
    codes = client.get(f"/t/{table_id}/join").text
    assert len(re.findall(r'class="join-link"', codes)) == 2  # Bruno's and Caio's: Ana's seat is here
    ana_card = re.search(r'<li class="join-code own-seat">(.*?)</li>', codes, re.S).group(1)
    assert 'data-seat="0">Ana<' in ana_card and "Your seat, on this phone" in ana_card and "<svg" not in ana_card
    assert "Tap the link under your own name" not in codes
    assert join_statuses(codes) == {"1": "Not scanned yet", "2": "Not scanned yet"}
    page = client.get(f"/t/{table_id}").text
    assert who(page) == "You are Ana · host"
    assert "Entering for" not in page and your_turn(page)  # her own turn, on her own phone
    assert 'data-viewer-seat="0"' in page  # what static/app.js alerts for: this seat's turns
    assert "data-seat-opened" not in page  # open on this phone already
    assert 'href="/t/{}/join"'.format(table_id) in page  # the host's rights stay: the codes
    assert tap(client, table_id, {"type": "set_aside", "face": "worm", "count": 5}, 0).status_code == 200
    assert tap(client, table_id, {"type": "stop"}, 1).status_code == 200  # Ana takes 25
    events = client.get(f"/api/tables/{table_id}/log").get_json()["events"]
    assert [(event["seat"], event["by_host"]) for event in events] == [(0, False), (0, False)]  # her own, not the host's
    page = client.get(f"/t/{table_id}").text
    assert "Bruno's turn" in page and "Enter for:" in page  # Bruno has no phone yet: the host may enter for him


def test_the_host_who_plays_gets_their_turn_when_it_comes(app, client):
    """The turn comes to the host's seat after another player's: the host's phone says
    "Your turn" and is marked to alert them (static/app.js; the browser test hears it)."""
    table_id = started(client, names=("Ana", "Bruno"), me="1")
    bruno_page = client.get(f"/t/{table_id}").text
    assert who(bruno_page) == "You are Bruno · host"
    assert not your_turn(bruno_page)  # Ana starts
    ana = app.test_client()
    assert ana.get(f"/j/{join_links(client, table_id)[0]}").status_code == 303
    assert tap(ana, table_id, {"type": "set_aside", "face": "worm", "count": 5}, 0).status_code == 200
    assert tap(ana, table_id, {"type": "stop"}, 1).status_code == 200
    page = client.get(f"/t/{table_id}").text
    assert your_turn(page)


def test_a_host_who_only_keeps_the_score_keeps_todays_view_and_is_told_how_to_play_too(app, client):
    for me in (None, ""):  # the form of before, and "I only keep the score"
        table_id = started(client, me=me)
        codes = html.unescape(client.get(f"/t/{table_id}/join").text)
        assert len(re.findall(r'class="join-link"', codes)) == 3 and "own-seat" not in codes
        assert "Playing too? Tap the link under your own name: this phone becomes your seat and stays the host." in codes
        page = client.get(f"/t/{table_id}").text
        assert who(page) == "You are the host" and "Entering for Ana" in page


def test_the_host_who_taps_their_own_code_afterwards_plays_that_seat(app, client):
    table_id = started(client)
    assert client.get(f"/j/{join_links(client, table_id)[2]}").status_code == 303  # Caio's link, on the host's phone
    opened(client, table_id)
    assert who(client.get(f"/t/{table_id}").text) == "You are Caio · host"
    codes = client.get(f"/t/{table_id}/join").text
    assert "Your seat, on this phone" in codes and "Tap the link under your own name" not in codes


def test_me_beside_a_slot_left_empty_takes_the_seat_its_name_moved_to(app, client):
    """A slot left empty takes no seat (the names after it move up): "Me" follows its name."""
    table_id = started(client, names=("Ana", "", "Caio"), me="2")
    assert who(client.get(f"/t/{table_id}").text) == "You are Caio · host"
    assert [player["name"] for player in client.get(f"/api/tables/{table_id}").get_json()["players"]] == ["Ana", "Caio"]


def test_me_beside_an_empty_name_is_refused_with_a_sentence_and_creates_nothing(app, client):
    for me in ("1", "9", "x"):
        response = start(client, names=("Ana", "", "Caio"), me=me)
        assert response.status_code == 422
        assert alert(response.text) == "“Me” is marked beside an empty name: type your name there, or choose “I only keep the score”."
        assert 'class="name" name="player"' in response.text and 'value="Caio"' in response.text  # the names typed stay
    assert table_count(app) == 0


def test_the_form_sent_back_keeps_me_where_it_was(client):
    response = start(client, names=("Ana", "Ana", "Caio"), me="2")  # refused: two Anas
    assert response.status_code == 422
    assert re.search(r'name="host_plays" value="2"[^>]*checked', response.text)
    assert not re.search(r'name="host_plays" value=""[^>]*checked', response.text)


def test_the_codes_page_stops_asking_once_every_other_seat_is_open(app, client):
    table_id = started(client, names=("Ana", "Bruno"), me="0")
    status = client.get(f"/t/{table_id}/join/status")
    assert status.status_code == 200 and join_statuses(status.text) == {"1": "Not scanned yet"}  # nothing of her own card
    bruno = app.test_client()
    (bruno_link,) = join_links(client, table_id)  # the only code shown: Bruno's
    assert bruno.get(f"/j/{bruno_link}").status_code == 303
    opened(bruno, table_id)
    status = client.get(f"/t/{table_id}/join/status")
    assert status.status_code == 286 and join_statuses(status.text) == {"1": "Open on a phone"}
    assert "/join/status" not in client.get(f"/t/{table_id}/join").text


def test_another_phone_scanning_the_host_s_seat_is_asked_first(app, client):
    """The host's seat is open on the host's phone from the start: someone who got hold of
    its link (the host showed it before) is asked before taking it, as for any open seat."""
    table_id = started(client, names=("Ana", "Bruno"), me="0")
    row = connect(app.config["DATABASE"]).execute("SELECT opened_by FROM seats WHERE table_id = ? AND seat = 0", [table_id]).fetchone()
    assert row[0] is not None
    with client.session_transaction() as session:
        host_token = session["tables"][table_id]["host"]
    asked = app.test_client().get(f"/j/{seat_token(host_token, 0)}")
    assert asked.status_code == 200 and "Ana's sheet is already open on another phone" in html.unescape(asked.text)

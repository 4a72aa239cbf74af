"""The htmx pages: starting a table, joining by QR link, CSRF, stale pages, the host."""

from __future__ import annotations

import html
import json
import re

import pytest

from companion.tables.database import connect


def csrf_of(client) -> str:
    page = client.get("/").text
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def start_table(client, names=("Ana", "Bruno", "Caio"), **options) -> str:
    form = {"csrf_token": csrf_of(client), "game": "pickomino", "player": list(names)}
    form.update({f"pickomino.{name}": "on" for name, on in options.items() if on})
    response = client.post("/tables", data=form)
    assert response.status_code == 303, response.text
    return response.headers["Location"].split("/")[2]


def join_links(client, table_id: str) -> list[str]:
    page = client.get(f"/t/{table_id}/join").text
    return [link.split("/j/")[1] for link in re.findall(r'class="join-link" href="([^"]+)"', page)]


def tap(client, table_id: str, action: dict, version: int, **extra):
    data = {"csrf_token": csrf_of(client), "action": json.dumps(action), "expected_version": str(version), **extra}
    return client.post(f"/t/{table_id}/act", data=data, headers={"HX-Request": "true"})


def alert(page: str) -> str | None:
    found = re.search(r'role="alert">([^<]+)<', page)
    return html.unescape(found.group(1).strip()) if found else None


def table_count(app) -> int:
    return connect(app.config["DATABASE"]).execute("SELECT count(*) FROM game_tables").fetchone()[0]


def test_home_lists_the_form_and_the_tables_in_progress(client):
    table_id = start_table(client)
    page = client.get("/").text
    assert "Start a table" in page
    assert table_id in page and "<bdi>Ana</bdi>, <bdi>Bruno</bdi>, <bdi>Caio</bdi>" in page and "in progress" in page


@pytest.mark.parametrize(
    "names, sentence",
    [
        (["Ana"], "Pickomino is played by 2 to 7 players, not 1."),
        ([f"P{i}" for i in range(8)], "Pickomino is played by 2 to 7 players, not 8."),
        (["Ana", "ana"], "Two players are called ana: give them different names."),
        (["Ana", "B" * 25], "A name can have at most 24 characters."),
    ],
)
def test_start_form_refuses_bad_players_with_a_sentence_and_creates_nothing(app, client, names, sentence):
    response = client.post("/tables", data={"csrf_token": csrf_of(client), "game": "pickomino", "player": names})
    assert response.status_code == 422
    assert alert(response.text) == sentence
    assert table_count(app) == 0


def test_start_form_keeps_the_options_chosen(client):
    table_id = start_table(client, alternative_return=True)
    state = client.get(f"/api/tables/{table_id}").get_json()
    assert state["options"] == {"alternative_return": True, "flip_when_empty": False}


def test_a_form_post_without_the_csrf_token_is_refused_and_changes_nothing(app, client):
    response = client.post("/tables", data={"game": "pickomino", "player": ["Ana", "Bruno"]})
    assert response.status_code == 400
    assert "out of date" in response.text
    assert table_count(app) == 0


@pytest.mark.parametrize("where", ["form field", "X-CSRF-Token header"])
def test_a_csrf_token_that_is_not_ascii_is_a_page_out_of_date(app, client, where):
    """Issue 40, item 13: it was a 500 (hmac.compare_digest takes ASCII text only)."""
    csrf_of(client)  # the phone has a session with a token of its own
    form = {"game": "pickomino", "player": ["Ana", "Bruno"]}
    if where == "form field":
        response = client.post("/tables", data={**form, "csrf_token": "jeton-périmé"})
    else:
        response = client.post("/tables", data=form, headers={"X-CSRF-Token": "jeton-p\u00e9rim\u00e9"})
    assert response.status_code == 400
    assert alert(response.text) == "This page is out of date. Reload it and try again."
    assert table_count(app) == 0


def test_the_join_link_sets_the_seat_cookie_and_redirects_to_the_table(app, client):
    table_id = start_table(client)
    token = join_links(client, table_id)[1]
    phone = app.test_client()
    response = phone.get(f"/j/{token}")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/t/{table_id}"
    assert "You are Bruno" in phone.get(f"/t/{table_id}").text


def test_a_phone_that_is_one_player_s_asks_before_it_becomes_another_s(app, client):
    """Host QA: Bruno's phone scanned Çécile's code and became Çécile's without a word,
    leaving Bruno without his sheet. It asks first; scanning its own code again does not."""
    table_id = start_table(client)
    tokens = join_links(client, table_id)
    phone = app.test_client()
    assert phone.get(f"/j/{tokens[1]}").status_code == 303  # Bruno's phone
    asked = phone.get(f"/j/{tokens[0]}")  # Ana's code, by mistake
    assert asked.status_code == 200 and asked.headers["Cache-Control"] == "no-store"
    page = html.unescape(asked.text)
    assert "This phone is Bruno's at this table" in page
    assert "You scanned Ana's code. If this phone becomes Ana's, Bruno needs their own code again to get back their sheet." in page
    assert f'href="/t/{table_id}">Stay Bruno</a>' in page
    assert "You are Bruno" in phone.get(f"/t/{table_id}").text  # nothing changed yet
    assert phone.get(f"/j/{tokens[1]}").status_code == 303  # its own code: no question
    switched = phone.get(f"/j/{tokens[0]}?switch=yes")
    assert (switched.status_code, switched.headers["Location"]) == (303, f"/t/{table_id}")
    assert "You are Ana" in phone.get(f"/t/{table_id}").text


def opened(phone, table_id: str) -> None:
    """What a seat's table page does once loaded (static/app.js): it says the seat is open here."""
    page = phone.get(f"/t/{table_id}").text
    assert f'data-seat-opened="/t/{table_id}/opened"' in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', phone.get("/").text).group(1)
    assert phone.post(f"/t/{table_id}/opened", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert "data-seat-opened" not in phone.get(f"/t/{table_id}").text  # said once


def test_a_seat_already_open_on_another_phone_asks_before_a_second_phone_opens_it(app, client):
    """Game night: Ana scanned Bruno's code (the cards lay side by side), then Bruno did:
    both phones were Bruno's without a word, Ana had no sheet, and nobody knew until a tap
    came from the wrong phone. The second phone is asked first; Bruno on a new phone (or
    another browser) can still open his sheet there."""
    table_id = start_table(client)
    tokens = join_links(client, table_id)
    ana_by_mistake, bruno = app.test_client(), app.test_client()
    assert ana_by_mistake.get(f"/j/{tokens[1]}").status_code == 303  # the first phone: no question
    opened(ana_by_mistake, table_id)
    assert ana_by_mistake.get(f"/j/{tokens[1]}").status_code == 303  # its own seat again: none either
    asked = bruno.get(f"/j/{tokens[1]}")
    assert asked.status_code == 200 and asked.headers["Cache-Control"] == "no-store"
    page = html.unescape(asked.text)
    assert "Bruno's sheet is already open on another phone" in page
    assert f'href="/t/{table_id}">I am not Bruno: watch the table</a>' in page
    assert "You are watching" in bruno.get(f"/t/{table_id}").text  # nothing taken yet
    again = bruno.get(f"/j/{tokens[1]}?again=yes")
    assert (again.status_code, again.headers["Location"]) == (303, f"/t/{table_id}")
    assert "You are Bruno" in bruno.get(f"/t/{table_id}").text
    opened(bruno, table_id)
    # a third phone is asked too: the seat was last opened on Bruno's
    assert "Bruno's sheet is already open on another phone" in html.unescape(app.test_client().get(f"/j/{tokens[1]}").text)
    # Ana's phone becomes Ana's with her own code: her seat was open nowhere
    assert "This phone is Bruno's at this table" in html.unescape(ana_by_mistake.get(f"/j/{tokens[0]}").text)
    assert ana_by_mistake.get(f"/j/{tokens[0]}?switch=yes").status_code == 303
    assert "You are Ana" in ana_by_mistake.get(f"/t/{table_id}").text


def test_a_phone_that_leaves_a_seat_for_its_own_leaves_it_unmarked(app, client):
    """Review: Ana's phone opened Bruno's seat by mistake, then became Ana's with her own
    code; Bruno, scanning his, was still told his sheet was open on another phone."""
    table_id = start_table(client)
    tokens = join_links(client, table_id)
    ana, bruno = app.test_client(), app.test_client()
    assert ana.get(f"/j/{tokens[1]}").status_code == 303
    opened(ana, table_id)  # Ana's phone, as Bruno's
    assert ana.get(f"/j/{tokens[0]}?switch=yes").status_code == 303
    opened(ana, table_id)  # now as Ana's: Bruno's seat is open nowhere
    assert bruno.get(f"/j/{tokens[1]}").status_code == 303


def join_statuses(page: str) -> dict[str, str]:
    return {seat: html.unescape(text) for seat, text in re.findall(r'id="join-status-(\d+)"[^>]*>([^<]+)<', page)}


def test_the_join_codes_say_which_seats_are_open_on_a_phone_until_all_are(app, client):
    """Host at a game night: nothing on the codes said who had still to scan. Each code says
    whether its seat is open on a phone yet; the page asks every few seconds, and stops
    asking (htmx: 286) once every seat is."""
    table_id = start_table(client, names=("Ana", "Bruno"))
    tokens = join_links(client, table_id)
    page = client.get(f"/t/{table_id}/join").text
    assert join_statuses(page) == {"0": "Not scanned yet", "1": "Not scanned yet"}
    assert f'hx-get="/t/{table_id}/join/status" hx-trigger="every 3s"' in page
    ana, bruno = app.test_client(), app.test_client()
    assert ana.get(f"/j/{tokens[0]}").status_code == 303
    assert join_statuses(client.get(f"/t/{table_id}/join/status").text)["0"] == "Not scanned yet"  # the link alone is no phone
    opened(ana, table_id)
    status = client.get(f"/t/{table_id}/join/status")
    assert status.status_code == 200 and status.text.count('hx-swap-oob="true"') == 2
    assert join_statuses(status.text) == {"0": "Open on a phone", "1": "Not scanned yet"}
    assert bruno.get(f"/j/{tokens[1]}").status_code == 303
    opened(bruno, table_id)
    status = client.get(f"/t/{table_id}/join/status")
    assert status.status_code == 286 and join_statuses(status.text) == {"0": "Open on a phone", "1": "Open on a phone"}
    page = client.get(f"/t/{table_id}/join").text
    assert "/join/status" not in page and join_statuses(page) == {"0": "Open on a phone", "1": "Open on a phone"}
    refused = app.test_client().get(f"/t/{table_id}/join/status")
    assert refused.status_code == 403 and "Only the phone that started this table" in html.unescape(refused.text)
    assert bruno.get(f"/t/{table_id}/join/status").status_code == 403


def test_a_join_link_alone_does_not_open_the_seat(app, client):
    """A link preview (a chat app fetching the link the host sent) follows the join link but
    runs no script: it must not count as a phone, or Bruno would be asked for nothing."""
    table_id = start_table(client)
    tokens = join_links(client, table_id)
    preview = app.test_client()
    assert preview.get(f"/j/{tokens[1]}", follow_redirects=True).status_code == 200
    assert app.test_client().get(f"/j/{tokens[1]}").status_code == 303


def test_only_a_seat_s_phone_can_say_it_opened_a_seat(app, client):
    table_id = start_table(client)
    stranger = app.test_client()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', stranger.get("/").text).group(1)
    refused = stranger.post(f"/t/{table_id}/opened", headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 403 and "scan your own code" in refused.text
    assert "data-seat-opened" not in stranger.get(f"/t/{table_id}").text  # a watcher has no seat to open


def test_a_phone_that_is_one_player_s_scanning_a_seat_open_elsewhere_can_stay_theirs(app, client):
    table_id = start_table(client)
    tokens = join_links(client, table_id)
    ana, bruno = app.test_client(), app.test_client()
    assert ana.get(f"/j/{tokens[0]}").status_code == 303
    opened(ana, table_id)
    assert bruno.get(f"/j/{tokens[1]}").status_code == 303
    switched = bruno.get(f"/j/{tokens[0]}")  # Bruno's phone, on Ana's open seat: one question, not two
    page = html.unescape(switched.text)
    assert switched.status_code == 200 and "Ana's sheet is already open on another phone" in page
    assert "This phone is Bruno's at this table" not in page
    assert f'href="/t/{table_id}">Stay Bruno</a>' in page
    assert f"/j/{tokens[0]}?again=yes&amp;switch=yes" in switched.text
    assert "You are Bruno" in bruno.get(f"/t/{table_id}").text
    assert bruno.get(f"/j/{tokens[0]}?again=yes&switch=yes").status_code == 303
    assert "You are Ana" in bruno.get(f"/t/{table_id}").text


def test_an_unknown_join_link_says_so(client):
    response = client.get("/j/not-a-token")
    assert response.status_code == 404
    assert "This join link is not valid" in response.text


def test_only_the_host_phone_sees_the_join_codes(app, client):
    table_id = start_table(client)
    response = client.get(f"/t/{table_id}/join")
    page = response.text
    assert page.count("<svg") >= 3 and "Bruno" in page
    assert response.headers["Cache-Control"] == "no-store"  # tokens must not be cached
    other = app.test_client()
    response = other.get(f"/t/{table_id}/join")
    assert response.status_code == 403
    assert "/j/" not in response.text


def test_the_join_codes_point_at_the_lan_address_not_localhost(client):
    table_id = start_table(client)
    page = client.get(f"/t/{table_id}/join").text
    links = re.findall(r'class="join-link" href="([^"]+)"', page)
    assert links and not any("localhost" in link for link in links)


def test_a_watcher_sees_the_table_but_no_controls(app, client):
    table_id = start_table(client)
    page = app.test_client().get(f"/t/{table_id}").text
    assert "You are watching" in page
    assert 'id="controls"' not in page


def test_the_player_whose_turn_it_is_enters_a_roll_and_keeps_a_face(app, client):
    table_id = start_table(client)
    ana = app.test_client()
    ana.get(f"/j/{join_links(client, table_id)[0]}")
    response = tap(ana, table_id, {"type": "roll", "dice": ["worm", "worm", 3, 3, 3, 1, 2, 4]}, 0)
    assert response.status_code == 200 and alert(response.text) is None
    response = tap(ana, table_id, {"type": "keep", "face": 3}, 1)
    assert response.status_code == 200
    turn = ana.get(f"/api/tables/{table_id}").get_json()["state"]["turn"]
    assert turn["kept"] == [{"face": 3, "count": 3}] and turn["dice_left"] == 5


def test_a_refused_tap_shows_the_rule_next_to_the_controls_and_changes_nothing(app, client):
    table_id = start_table(client)
    ana = app.test_client()
    ana.get(f"/j/{join_links(client, table_id)[0]}")
    tap(ana, table_id, {"type": "set_aside", "face": 4, "count": 2}, 0)
    response = tap(ana, table_id, {"type": "set_aside", "face": 4, "count": 1}, 1)
    assert response.status_code == 422
    assert alert(response.text) == "You already set aside 4s this turn."
    assert response.text.index('role="alert"') > response.text.index('id="controls"')
    assert ana.get(f"/api/tables/{table_id}").get_json()["version"] == 1


def test_a_stale_page_is_refused_with_a_sentence(app, client):
    table_id = start_table(client)
    ana = app.test_client()
    ana.get(f"/j/{join_links(client, table_id)[0]}")
    tap(ana, table_id, {"type": "set_aside", "face": 4, "count": 2}, 0)
    response = tap(ana, table_id, {"type": "set_aside", "face": 3, "count": 1}, 0)
    assert response.status_code == 409
    assert "has moved on" in alert(response.text)
    assert ana.get(f"/api/tables/{table_id}").get_json()["version"] == 1


def page_of(phone, table_id: str) -> str:
    """The id a table page was given (its taps send it back: X-Companion-Page)."""
    return re.search(r'"X-Companion-Page": "([\w-]+)"', phone.get(f"/t/{table_id}").text).group(1)


def test_a_second_tap_on_a_slow_answer_is_told_the_first_one_counted(app, client):
    """Testers: a second tap, made while the first one's answer was slow to come, was told
    "The table has moved on since your page was loaded" when what moved it was that first
    tap. It is told the first tap counted; a tap from another page keeps the old sentence."""
    table_id = start_table(client)
    ana = app.test_client()
    ana.get(f"/j/{join_links(client, table_id)[0]}")
    page = {"X-Companion-Page": page_of(ana, table_id)}
    csrf = csrf_of(ana)

    def tap_on_page(action: dict, version: int, headers: dict, address: str = "act"):
        data = {"csrf_token": csrf, "action": json.dumps(action), "expected_version": str(version)}
        return ana.post(f"/t/{table_id}/{address}", data=data, headers={"HX-Request": "true", **headers})

    assert tap_on_page({"type": "set_aside", "face": 4, "count": 2}, 0, page).status_code == 200
    second = tap_on_page({"type": "set_aside", "face": 3, "count": 1}, 0, page)  # made on the same page, at version 0
    assert second.status_code == 409
    assert alert(second.text) == "Your first tap was already counted: this second one changed nothing. This is the table as it is now."
    other_page = tap_on_page({"type": "set_aside", "face": 3, "count": 1}, 0, {"X-Companion-Page": "A" * 16})
    assert other_page.status_code == 409 and "has moved on since your page was loaded" in alert(other_page.text)
    # the same for "Undo the last action" tapped twice
    assert tap_on_page({}, 1, page, "undo").status_code == 200
    again = tap_on_page({}, 1, page, "undo")
    assert again.status_code == 409 and alert(again.text).startswith("Your first tap was already counted")
    log = ana.get(f"/api/tables/{table_id}/log").get_json()["events"]
    assert [(event["action"]["face"], event["undone"]) for event in log] == [(4, True)]  # one entered, once undone


def test_a_player_cannot_act_out_of_turn_from_their_page(app, client):
    table_id = start_table(client)
    bruno = app.test_client()
    bruno.get(f"/j/{join_links(client, table_id)[1]}")
    response = tap(bruno, table_id, {"type": "set_aside", "face": 4, "count": 2}, 0)
    assert response.status_code == 403
    assert alert(response.text) == "It is Ana's turn, not yours."


def test_the_host_enters_for_the_player_whose_turn_it_is(client):
    table_id = start_table(client)
    page = client.get(f"/t/{table_id}").text
    assert "Entering for Ana" in page
    response = tap(client, table_id, {"type": "set_aside", "face": "worm", "count": 2}, 0, seat="0")
    assert response.status_code == 200
    log = client.get(f"/api/tables/{table_id}/log").get_json()["events"]
    assert log[0]["seat"] == 0


def test_a_host_playing_their_own_seat_enters_for_another_only_once_they_choose_to(client):
    """Found at a real table: the host who joined their own seat saw, in every other
    player's turn, that player's controls in place of their own, under their thumb. Their
    own view stays in front; "Enter for:" offers the seats acting, for a player without a
    phone; after that turn the host is back on their own view."""
    table_id = start_table(client)
    client.get(f"/j/{join_links(client, table_id)[0]}")  # the host is Ana too
    page = client.get(f"/t/{table_id}").text
    assert "Your turn" in page and "Entering for" not in page
    assert tap(client, table_id, {"type": "set_aside", "face": "worm", "count": 5}, 0).status_code == 200
    answer = tap(client, table_id, {"type": "stop"}, 1)  # Ana's 25
    assert answer.status_code == 200
    for page in (answer.text, client.get(f"/t/{table_id}").text):
        assert "Bruno's turn" in page and "Enter for:" in page
        assert "Entering for" not in page and 'class="modes"' not in page  # no dice controls of Bruno's
    page = client.get(f"/t/{table_id}?as=1").text
    assert "Entering for Bruno (you are the host)" in page and 'class="modes"' in page
    assert "/poll?v=2&amp;as=1" in page  # the refresh keeps the choice
    answer = tap(client, table_id, {"type": "set_aside", "face": "worm", "count": 6}, 2, seat="1")
    assert "Entering for Bruno" in answer.text  # still his turn: still on him
    answer = tap(client, table_id, {"type": "stop"}, 3, seat="1")
    assert "Caio's turn" in answer.text and "Entering for" not in answer.text
    events = client.get(f"/api/tables/{table_id}/log").get_json()["events"]
    assert [(event["seat"], event["by_host"]) for event in events] == [(0, False), (0, False), (1, True), (1, True)]


def test_a_garbled_tap_is_refused(app, client):
    table_id = start_table(client)
    data = {"csrf_token": csrf_of(client), "action": "{not json", "expected_version": "0"}
    response = client.post(f"/t/{table_id}/act", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert "could not be understood" in alert(response.text)


def test_without_htmx_a_tap_redirects_back_to_the_table(client):
    table_id = start_table(client)
    data = {"csrf_token": csrf_of(client), "action": json.dumps({"type": "set_aside", "face": 2, "count": 1})}
    response = client.post(f"/t/{table_id}/act", data=data)
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{table_id}"


def test_undo_from_the_page_marks_the_log(client):
    table_id = start_table(client)
    tap(client, table_id, {"type": "set_aside", "face": 2, "count": 1}, 0)
    response = client.post(
        f"/t/{table_id}/undo",
        data={"csrf_token": csrf_of(client), "expected_version": "1"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "(undone)" in response.text
    assert client.get(f"/api/tables/{table_id}").get_json()["version"] == 2


def test_the_poll_answers_204_while_nothing_changed(client):
    table_id = start_table(client)
    assert client.get(f"/t/{table_id}/poll?v=0").status_code == 204
    tap(client, table_id, {"type": "set_aside", "face": 2, "count": 1}, 0)
    response = client.get(f"/t/{table_id}/poll?v=0", headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'id="table"' in response.text
    assert "<html" not in response.text


def test_unknown_tables_get_a_clear_page(client):
    for path in ("/t/ZZZZZZ", "/t/ZZZZZZ/join", "/t/ZZZZZZ/poll?v=0"):
        response = client.get(path)
        assert response.status_code == 404
        assert "Traceback" not in response.text


def test_rule_2_choice_offered_on_the_tap_that_ends_the_turn_by_itself(client):
    table_id = start_table(client, names=("Ana", "Bruno"))
    for version, action in enumerate(
        [
            {"type": "set_aside", "face": "worm", "count": 3},
            {"type": "set_aside", "face": 4, "count": 3},
            {"type": "stop"},  # Ana took 27
            {"type": "set_aside", "face": "worm", "count": 3},
            {"type": "set_aside", "face": 2, "count": 4},  # Bruno: 23, one die left
        ]
    ):
        assert tap(client, table_id, action, version).status_code == 200
    page = client.get(f"/t/{table_id}").text
    assert "and steal 27 from Ana" in page and "and take 26 from the grill" in page
    response = tap(client, table_id, {"type": "set_aside", "face": 4, "count": 1, "take": "grill"}, 5)
    assert response.status_code == 200
    state = client.get(f"/api/tables/{table_id}").get_json()["state"]
    assert state["stacks"] == [[27], [26]]


def test_a_barbecue_plate_names_its_owner_and_colour(client):
    created = client.post("/api/tables", json={"game": "heckmeck-barbecue", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    for action in ({"type": "set_aside", "face": "worm", "count": 2}, {"type": "set_aside", "face": 6, "count": 3}, {"type": "stop"}):
        assert client.post(f"/api/tables/{created['id']}/actions", json=action, headers=host).status_code == 200
    page = client.get(f"/t/{created['id']}").text
    assert 'class="plate plate-green" title="Ana (green)"' in page  # Ana's plate on the grill
    assert 'class="plate plate-yellow" title="Bruno (yellow)"' in page  # beside Bruno's name


def test_rule_1_no_failure_before_anything_is_set_aside_the_page_offers_no_such_button(app, client):
    table_id = start_table(client)
    ana = app.test_client()
    ana.get(f"/j/{join_links(client, table_id)[0]}")
    failed = '{"type": "bust"}'
    assert failed not in html.unescape(ana.get(f"/t/{table_id}").text)  # the turn's start: no "turn failed"
    response = tap(ana, table_id, {"type": "bust"}, 0)  # a stale page or a script sends it anyway
    assert response.status_code == 422
    assert alert(response.text) == (
        "A turn cannot fail before any dice are set aside: the first roll of all 8 dice always shows a face you can keep."
    )
    assert ana.get(f"/api/tables/{table_id}").get_json()["version"] == 0
    tap(ana, table_id, {"type": "set_aside", "face": 2, "count": 3}, 0)
    assert failed in html.unescape(ana.get(f"/t/{table_id}").text)  # once a group is set aside, it is offered


def test_rule_4_the_meadow_form_says_an_uncovered_wolf_is_a_wolf_tile_with_no_hunter_on_it(app, client):
    created = client.post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).get_json()
    client.post(f"/api/tables/{created['id']}/actions", json={"type": "end"}, headers={"Authorization": f"Bearer {created['host_token']}"})
    ana = app.test_client()
    ana.get(f"/j/{created['seats'][0]['token']}")
    page = html.unescape(ana.get(f"/t/{created['id']}").text)
    assert "it borders a forest where a wolf tile has no hunter tile on it." in page
    assert "A hunter that only guards a forest covers no wolf." in page
    assert "more wolves than hunters" not in page


def test_the_join_codes_page_has_each_id_once_and_hides_the_codes_from_screen_readers(client):
    """helper QA: every QR code held a path with id="qr-path", three times with three players;
    and a screen reader met three nameless pictures it cannot scan (each code's address is
    the link beside it)."""
    table_id = start_table(client)
    page = client.get(f"/t/{table_id}/join").text
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), ids
    codes = re.findall(r"<svg[^>]*>", page.split('class="join-codes"')[1])
    assert len(codes) == 3 and all('aria-hidden="true"' in code for code in codes), codes
    assert len(re.findall(r'class="join-link"', page)) == 3


def test_a_grill_tile_tells_a_screen_reader_its_worms(client):
    """helper QA: a tile was read as just "25": its worms were nameless drawings."""
    table_id = start_table(client)
    page = client.get(f"/t/{table_id}").text
    tiles = re.findall(r'<span class="tile-value key-number">(\d+)</span><span class="worms worms-\d" role="img" title="([^"]+)"', page)
    said = dict(tiles)
    assert len(said) == 16 and said["21"] == "1 worm" and said["25"] == "2 worms" and said["36"] == "4 worms", said


def test_a_qwixx_lock_tells_a_screen_reader_whether_it_is_crossed(app, client):
    """helper QA: the lock of a row read "lock" whether or not the sheet had locked it."""
    from companion.games import GAMES
    from played import joined, play_scene

    table = play_scene(client, "qwixx", GAMES["qwixx"].scenes()["finished"])  # both lock red and yellow
    page = joined(app, table.seats[0]).get(f"/t/{table.id}").text
    locks = re.findall(r'class="qx-row qx-(\w+)[^"]*" data-row="\w+">.*?qx-lock[^>]*>.*?<span class="visually-hidden">([^<]+)</span>', page, re.S)
    said = dict(locks[:4])  # her own sheet comes first
    assert said == {"red": "lock, crossed", "yellow": "lock, crossed", "green": "lock", "blue": "lock"}, locks


def test_the_start_forms_name_fields_keep_their_seat_number_in_sight(client):
    """helper QA: each name field was labelled by its placeholder alone ("Player 2"), gone
    from sight once a name is typed: the seating order (the first one starts) with it."""
    page = client.get("/").text
    slots = re.findall(r'<div class="name-slot"><span class="seat-number" aria-hidden="true">(\d+)</span>\s*<input class="name" name="player"[^>]*aria-label="Player (\d+)"', page)
    assert slots and all(shown == said for shown, said in slots), slots
    assert [int(shown) for shown, _ in slots] == list(range(1, len(slots) + 1))

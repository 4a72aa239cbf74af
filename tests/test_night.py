"""The night in one picture (issue 42): the game night page holds every table finished in
an evening (06:00 to 06:00 by the server's clock), rematches or not, any game, the score pad
included; who won what, each person's totals and wins, a chart across the night, and its
Share (text and picture). The colours are tests/test_person_colours.py."""

from __future__ import annotations

import html
import re
from datetime import date
from xml.etree import ElementTree

from companion.tables.night import evening_of, tonight
from databases import on_both_databases
from evenings import SVG, chart_styles, finished_at, local, scorepad
from played import act, create, csrf_of, play_pickomino

# The evening's tables are found by one query, on SQLite and on PostgreSQL alike.
database = on_both_databases()

EVENING = date(2026, 11, 27)


def test_the_evening_runs_from_six_in_the_morning_to_six_the_next():
    assert evening_of(local(27, 6)) == EVENING
    assert evening_of(local(28, 1, 30)) == EVENING  # the game after midnight still belongs to the night
    assert evening_of(local(28, 5, 59)) == EVENING
    assert evening_of(local(28, 6)) == date(2026, 11, 28)


def test_the_nights_chart_draws_each_person_in_their_colour_and_dash_of_the_night(app, client):
    first = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, first)
    second = scorepad(client, "Azul", ("Dora", "Caio", "Ana"), [[10, 20, 30]])
    finished_at(app, first, local(27, 20))
    finished_at(app, second, local(27, 21))
    night = chart_styles(client.get("/night?evening=2026-11-27").get_data(as_text=True))
    for table in (first, second):
        for name, style in chart_styles(client.get(f"/t/{table.id}/results").get_data(as_text=True)).items():
            assert night[name] == style, name


def night_tables(page: str) -> list[str]:
    listed = page[page.index('<ol class="tables night-tables">'):]
    listed = listed[: listed.index("</ol>")]
    items = [re.sub(r"<small.*?</small>", "", item, flags=re.S) for item in re.findall(r"<li.*?</li>", listed, re.S)]  # not the id and time
    return [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", item))).strip() for item in items]


def night_people(page: str) -> list[tuple[str, ...]]:
    listed = html.unescape(page[page.index('class="player-stats night-people"'):])
    return re.findall(r'<a href="/players/[^"]+">([^<]+)</a></th><td>(\S+)</td><td>(\S+)</td><td>(\S+)</td>', listed)


def test_the_game_night_page_holds_every_table_of_the_evening_any_game(app, client):
    """Pickomino (Ana 15, Bruno 12, Caio 13), then an Azul where Bruno wins, then a 7
    Wonders-style pad where Ana and Bruno share the win; not the lunch game of the next day,
    nor a table still in play. Ana and Bruno share the night, two wins each."""
    pickomino = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, pickomino)
    azul = scorepad(client, "Azul", ("Bruno", "Caio", "Ana"), [[30, 20, 10], [30, 5, 5]])
    wonders = create(client, "score-pad", ("Ana", "Bruno"), {"title": "7 Wonders", "categories": ["Military", "Coins"], "rounds": 1})
    act(client, wonders, wonders.seats[0], {"type": "score", "points": {"Military": 9, "Coins": 3}})
    act(client, wonders, wonders.seats[1], {"type": "score", "points": {"Military": 5, "Coins": 7}})
    lunch = scorepad(client, "Hearts", ("Ana", "Caio"), [[1, 2]])
    create(client, "qwixx", ("Ana", "Bruno"))  # in play
    for table, stamp in ((pickomino, local(27, 20)), (azul, local(27, 22)), (wonders, local(28, 1, 30)), (lunch, local(28, 13))):
        finished_at(app, table, stamp)
    page = client.get("/night?evening=2026-11-27").get_data(as_text=True)
    rows = night_tables(page)
    assert [row.split(" · ")[:2] for row in rows] == [
        ["Pickomino", "winner: Ana"], ["Azul", "winner: Bruno"], ["7 Wonders", "winners: Ana and Bruno"],
    ]
    # most wins first, then the most points (Azul: Bruno 60, Caio 25, Ana 15; 7 Wonders 12 each)
    assert night_people(page) == [("Bruno", "2", "84", "3"), ("Ana", "2", "42", "3"), ("Caio", "0", "38", "2")]
    assert "Bruno and Ana share the night, 2 wins each." in html.unescape(page)
    assert "Hearts" not in page
    next_day = client.get("/night?evening=2026-11-28").get_data(as_text=True)
    assert [row.split(" · ")[:2] for row in night_tables(next_day)] == [["Hearts", "winner: Caio"]]
    assert "Champion of the night: Caio, 1 win." in html.unescape(next_day)


def test_share_the_night_says_the_games_in_order_their_winners_and_the_champion(app, client):
    first = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, first)
    azul = scorepad(client, "Azul", ("Bruno", "Ana"), [[30, 20]])
    finished_at(app, first, local(27, 20))
    finished_at(app, azul, local(27, 21))
    page = html.unescape(client.get("/night?evening=2026-11-27").get_data(as_text=True))
    text = re.search(r'data-share-text="([^"]*)"', page).group(1).split("\n")
    assert text[1:] == ["1. Pickomino: Ana", "2. Azul: Bruno", "Bruno and Ana share the night, 1 win each."]
    assert text[0].startswith("Game night · ") and "2026" in text[0]
    assert 'data-share-image="/night/picture.svg?evening=2026-11-27"' in page and 'data-share-name="night-2026-11-27.png"' in page
    picture = client.get("/night/picture.svg?evening=2026-11-27")
    assert picture.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(picture.get_data(as_text=True))
    written = [text.text for text in root.iter(f"{SVG}text")]
    assert written[:4] == text  # the picture says what the text does, then draws the chart
    assert "Ana: 1" in written and "Bruno: 1" in written


def test_the_night_is_linked_from_the_home_page_and_each_results_page(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    assert 'href="/night"' in client.get("/").get_data(as_text=True)
    page = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    assert f'href="/night?evening={tonight().isoformat()}"' in page
    assert night_tables(client.get("/night").get_data(as_text=True))[0].startswith("Pickomino · winner: Ana")


def test_a_night_with_no_game_finished_says_so(client):
    page = client.get("/night?evening=2001-01-01")
    assert page.status_code == 200 and "No game has finished this night yet." in page.get_data(as_text=True)
    assert client.get("/night/picture.svg?evening=2001-01-01").status_code == 200


def test_an_evening_that_is_no_date_is_refused_in_a_sentence(client):
    for asked in ("2026-13-01", "yesterday", "0001-01-01", "9999-12-31", "2026-11-27T20:00", "\x00"):
        for address in ("/night", "/night/picture.svg"):
            answer = client.get(address, query_string={"evening": asked})
            assert answer.status_code == 404, (address, asked)
            assert "an evening is a date written as 2026-11-28." in html.unescape(answer.get_data(as_text=True))


def test_a_person_merged_from_two_typed_names_is_one_person_of_the_night(app, client):
    """"Ana" on the Pickomino table and "Anna" on the Azul pad, merged by the host
    (tables/people.py): the night counts her once, both games and both wins, in one style,
    and both tables list her seat."""
    pickomino = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, pickomino)  # Ana wins, 15
    azul = scorepad(client, "Azul", ("Anna", "Bruno"), [[30, 20]])
    for table, stamp in ((pickomino, local(27, 20)), (azul, local(27, 22))):
        finished_at(app, table, stamp)
    host = app.test_client()
    with host.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host} for table in (pickomino, azul)}
    assert host.post("/people/merge", data={"csrf_token": csrf_of(host), "name": "Anna", "into": "Ana"}).status_code == 303
    page = client.get("/night?evening=2026-11-27").get_data(as_text=True)
    assert [row.split(" · ")[:2] for row in night_tables(page)] == [["Pickomino", "winner: Ana"], ["Azul", "winner: Ana"]]
    assert night_people(page)[0] == ("Ana", "2", "45", "2")
    assert [person[0] for person in night_people(page)] == ["Ana", "Bruno", "Caio"]

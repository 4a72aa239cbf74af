"""People across the night (issue 42): a player's name is a person on this companion.
/players lists each person once with games, wins and when they last played; the host of a
table the person sat at renames them, or merges two names typed on different tables into
one person (after a confirmation), and separates a name again; every page, total and export
follows; a person's page adds the head-to-head against each regular opponent and the
current streak."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from urllib.parse import unquote

from played import Table, create, csrf_of, host_phone, joined, play_lobo, play_pickomino, play_scene, rows
from databases import on_both_databases
from companion.games import GAMES
from companion.tables.database import connect
from test_game_night import night_rows, rematch

# The people's pages and the store's queries under them, on SQLite and on PostgreSQL alike.
database = on_both_databases()


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def index_entries(client) -> dict[str, str]:
    """/players: each person's name and the line under it."""
    page = client.get("/players").get_data(as_text=True)
    return {
        html.unescape(name): text_of(line).strip()
        for name, line in re.findall(r'<a href="/players/[^"]+"><strong>([^<]+)</strong>\s*<small class="muted">(.*?)</small>', page, re.S)
    }


def host_of_both(app, *tables: Table):
    """One phone that started every one of `tables` (the evening's host)."""
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host} for table in tables}
    return phone


def rename(phone, name: str, new_name: str):
    return phone.post("/people/rename", data={"csrf_token": csrf_of(phone), "name": name, "new_name": new_name})


def merge(phone, name: str, into: str):
    return phone.post("/people/merge", data={"csrf_token": csrf_of(phone), "name": name, "into": into})


def separate(phone, name: str, typed: str):
    return phone.post("/people/separate", data={"csrf_token": csrf_of(phone), "name": name, "typed": typed})


def people_rows(database: str) -> list[tuple]:
    return rows(database, "SELECT name_key, person_key, name FROM people ORDER BY name_key")


def alert(response) -> str:
    return text_of(re.search(r'role="alert">(.*?)</p>', response.get_data(as_text=True), re.S).group(1)).strip()


def game_rows(page: str) -> dict[str, list[str]]:
    return {
        cells[0]: cells[1:]
        for cells in (
            [text_of(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr data-game[^>]*>(.*?)</tr>", page, re.S)
        )
    }


# --- /players: each person once --------------------------------------------------------------
def test_players_lists_each_person_once_with_games_wins_and_when_they_last_played(client):
    play_lobo(client, create(client, "lobo", ("Ana", "Bruno")), [7, 2])
    play_lobo(client, create(client, "lobo", ("ana ", "Bruno")), [1, 9])
    create(client, "lobo", ("ANA", "Caio"))  # still in play: a table, not a game played
    entries = index_entries(client)
    assert sorted(name.casefold() for name in entries) == ["ana", "bruno", "caio"]  # "Ana", "ana " and "ANA": one person
    ana = next(line for name, line in entries.items() if name.casefold() == "ana")
    assert re.fullmatch(r"2 games · 1 win · last played \S.*", ana), ana
    assert entries["Bruno"].startswith("2 games · 1 win · last played")
    assert entries["Caio"].startswith("0 games · 0 wins · last played")


# --- renaming ----------------------------------------------------------------------------------
def test_the_host_renames_a_person_and_the_pages_and_exports_follow(app, client, database):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    host = host_phone(app, table)
    response = rename(host, "ana", "Ana Maria")
    assert response.status_code == 303 and unquote(response.headers["Location"]) == "/players/Ana Maria"
    assert sorted(index_entries(client)) == ["Ana Maria", "Bruno", "Caio"]
    page = client.get("/players/Ana Maria").get_data(as_text=True)
    assert "<h1>Ana Maria</h1>" in page and game_rows(page) == {"Pickomino": ["1", "1", "15", "15"]}
    old = client.get("/players/Ana")  # an old link leads to the person
    assert old.status_code == 303 and unquote(old.headers["Location"]) == "/players/Ana Maria"
    phone = joined(app, table.seats[1])
    table_csv = list(csv.reader(io.StringIO(phone.get(f"/t/{table.id}/export.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert [row[1] for row in table_csv[1:]] == ["Ana Maria", "Caio", "Bruno"]
    exported = json.loads(phone.get(f"/t/{table.id}/export.json").get_data(as_text=True))
    assert exported["people"][0] == {"seat": 0, "name": "Ana Maria"}
    assert exported["table"]["players"][0]["name"] == "Ana"  # the table's own record keeps the name as typed
    results = phone.get(f"/t/{table.id}/results").get_data(as_text=True)
    play = json.loads(unquote(re.search(r'href="https://app\.bgstatsapp\.com/createPlay\.html\?data=([^"]+)"', results).group(1)))
    assert [(player["name"], player["sourcePlayerId"]) for player in play["players"]][0] == ("Ana Maria", "ana maria")
    assert rows(database, "SELECT name FROM seats WHERE seat = 0") == [("Ana",)]
    later = create(client, "lobo", ("ana maria", "Dora"))  # typed so again: the same person
    assert later.id in client.get("/players/Ana Maria").get_data(as_text=True)


def test_a_rename_to_someone_elses_name_is_refused_and_says_to_merge(app, client, database):
    table = create(client, "lobo", ("Ana", "Bruno"))
    response = rename(host_phone(app, table), "Ana", "BRUNO")
    assert response.status_code == 409
    assert alert(response) == "Bruno is someone else on this companion: if they are one person, merge them instead."
    assert people_rows(database) == []


def test_a_rename_to_a_name_no_one_can_have_is_refused_with_a_sentence(app, client, database):
    table = create(client, "lobo", ("Ana", "Bruno"))
    host = host_phone(app, table)
    for new_name, sentence in [
        ("   ", "Every player needs a name."),
        ("Ana\nMaria", "A name cannot hold control characters (line breaks, tabs, direction marks)."),
        ("A" * 25, "A name can have at most 24 characters."),
    ]:
        response = rename(host, "Ana", new_name)
        assert response.status_code == 422 and alert(response) == sentence
    assert host.post("/people/rename", data={"csrf_token": csrf_of(host), "name": "Ana"}).status_code == 422  # no new name
    assert people_rows(database) == []


def test_only_a_host_of_a_table_the_person_sat_at_may_rename_them(app, client, database):
    table = create(client, "lobo", ("Ana", "Bruno"))
    other = create(client, "lobo", ("Caio", "Dora"))
    for phone in (joined(app, table.seats[0]), host_phone(app, other), app.test_client()):
        response = rename(phone, "Ana", "Anita")
        assert response.status_code == 403
        assert alert(response) == "Only the host of a table Ana played at can rename them, merge them or separate their names."
    assert people_rows(database) == []
    page = joined(app, table.seats[0]).get("/players/Ana").get_data(as_text=True)
    assert "/people/rename" not in page and "The host of a table Ana played at can rename them" in page
    assert "/people/rename" in host_phone(app, table).get("/players/Ana").get_data(as_text=True)


# --- merging and separating --------------------------------------------------------------------
def test_two_names_typed_on_two_tables_merge_into_one_person_after_a_confirmation(app, client, database):
    first = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, first, [7, 2])
    second = create(client, "lobo", ("Anna", "Caio"))
    play_lobo(client, second, [4, 6])
    host = host_of_both(app, first, second)
    confirm = host.get("/people/merge", query_string={"name": "Anna", "into": "ana"})
    page = text_of(confirm.get_data(as_text=True))
    assert confirm.status_code == 200 and "Merge Anna into Ana?" in page and "can be separated again" in page
    assert people_rows(database) == []  # asking changes nothing
    response = merge(host, "Anna", "ana")
    assert response.status_code == 303 and unquote(response.headers["Location"]) == "/players/Ana"
    entries = index_entries(client)
    assert sorted(entries) == ["Ana", "Bruno", "Caio"] and entries["Ana"].startswith("2 games · 1 win")
    page = client.get("/players/Ana").get_data(as_text=True)
    assert game_rows(page) == {"Lobo": ["2", "1", "5.5", "7"]}
    assert "2 tables on this companion" in page
    assert client.get("/players/Anna").headers["Location"].endswith("/players/Ana")
    caio = json.loads(joined(app, second.seats[1]).get(f"/t/{second.id}/export.json").get_data(as_text=True))
    assert caio["people"] == [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Caio"}]


def test_a_merge_needs_the_host_of_a_table_of_each_of_the_two(app, client, database):
    first = create(client, "lobo", ("Ana", "Bruno"))
    second = create(client, "lobo", ("Anna", "Caio"))
    response = merge(host_phone(app, second), "Anna", "Ana")  # Ana never sat at a table this phone hosts
    assert response.status_code == 403 and "Ana played at" in alert(response)
    response = merge(host_phone(app, first), "Anna", "Ana")
    assert response.status_code == 403 and "Anna played at" in alert(response)
    assert people_rows(database) == []


def test_a_merge_into_nobody_or_into_oneself_is_refused_with_a_sentence(app, client, database):
    table = create(client, "lobo", ("Ana", "Bruno"))
    host = host_phone(app, table)
    response = merge(host, "Ana", "Zoe")
    assert response.status_code == 422 and alert(response) == "Nobody called Zoe has played at this companion."
    response = merge(host, "Ana", "ANA")
    assert response.status_code == 422 and alert(response) == "Ana and ANA are one person already."
    response = merge(host, "Ana", "")
    assert response.status_code == 422 and alert(response) == "Say whom Ana is the same person as."
    response = merge(host, "Ana", "Zoe\x00")  # PostgreSQL refuses text with a NUL: never asked
    assert response.status_code == 422 and alert(response).startswith("Nobody called Zoe")
    response = separate(host, "Ana", "Ana\x00")
    assert response.status_code == 422 and alert(response).endswith("is not a name Ana was typed as.")
    assert host.get("/people/merge", query_string={"name": "Ana", "into": "Zoe"}).status_code == 404
    assert host.get("/people/merge", query_string={"name": "Ana", "into": "\x00"}).status_code == 404
    assert people_rows(database) == []


def test_a_merged_name_is_separated_again_from_the_persons_page(app, client, database):
    first = create(client, "lobo", ("Ana", "Bruno"))
    second = create(client, "lobo", ("Anna", "Caio"))
    host = host_of_both(app, first, second)
    assert merge(host, "Anna", "Ana").status_code == 303
    page = host.get("/players/Ana").get_data(as_text=True)
    assert "Separate: not Ana" in page  # beside "Anna", not beside Ana's own name
    assert page.count('action="/people/separate"') == 1
    response = separate(host, "Ana", "Anna")
    assert response.status_code == 303
    assert sorted(index_entries(client)) == ["Ana", "Anna", "Bruno", "Caio"]
    assert people_rows(database) == [("ana", "ana", "Ana")]
    response = separate(host, "Ana", "Ana")
    assert response.status_code == 422 and alert(response) == "Ana is their own name: rename them instead."
    response = separate(host, "Ana", "Caio")
    assert response.status_code == 422 and alert(response) == "Caio is not a name Ana was typed as."


def test_a_rename_is_undone_by_separating_the_name_as_typed(app, client, database):
    table = create(client, "lobo", ("Ana", "Bruno"))
    host = host_phone(app, table)
    assert rename(host, "Ana", "Anita").status_code == 303
    assert separate(host, "Anita", "Ana").status_code == 303
    assert sorted(index_entries(client)) == ["Ana", "Bruno"]


def test_the_game_night_totals_follow_a_rename(app, client):
    first = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, first)
    host = host_phone(app, first)
    second = rematch(host, first)
    play_pickomino(client, second)
    assert rename(host, "Bruno", "Bruno B").status_code == 303
    page = client.get(f"/t/{second.id}/results").get_data(as_text=True)
    assert night_rows(page) == [("Ana", "1", "28", "2"), ("Bruno B", "1", "27", "2"), ("Caio", "0", "25", "2")]


# --- a person's page ---------------------------------------------------------------------------
def test_a_persons_page_shows_head_to_head_against_each_regular_opponent(client):
    play_lobo(client, create(client, "lobo", ("Ana", "Bruno")), [7, 2])
    play_lobo(client, create(client, "lobo", ("Ana", "Bruno")), [3, 3])  # both win: shared
    play_lobo(client, create(client, "lobo", ("Bruno", "ana", "Caio")), [9, 1, 2])
    play_lobo(client, create(client, "lobo", ("Ana", "Caio")), [5, 1])
    play_lobo(client, create(client, "lobo", ("Ana", "Dora")), [5, 1])  # once: no regular opponent
    page = client.get("/players/Ana").get_data(as_text=True)
    section = page[page.index("<h2>Head to head</h2>"):]
    section = section[: section.index("</section>")]
    found = [
        [text_of(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", section, re.S)
    ]
    assert found[1:] == [["Bruno", "3", "2", "2"], ["Caio", "2", "1", "0"]]  # opponent, games, wins, their wins
    assert "Head to head" not in client.get("/players/Dora").get_data(as_text=True)


def finished_in_order(app, *tables: Table) -> None:
    """The tables finished a minute apart, in this order (played within one second, their
    times would tie)."""
    with connect(app.config["DATABASE"]) as db, db.write():
        for minute, table in enumerate(tables):
            db.execute("UPDATE game_tables SET finished_at = ? WHERE id = ?", [f"2026-11-28T20:{minute:02d}:00+00:00", table.id])


def lobo_played(client, names: tuple[str, ...], meadows: list[int]) -> Table:
    table = create(client, "lobo", names)
    play_lobo(client, table, meadows)
    return table


def test_a_persons_page_shows_the_current_streak_of_wins_or_of_games_without_one(app, client):
    games = [
        lobo_played(client, ("Ana", "Bruno"), [1, 2]),
        lobo_played(client, ("Ana", "Bruno"), [3, 2]),
        lobo_played(client, ("Ana", "Bruno"), [4, 4]),  # a shared first place is a win
    ]
    finished_in_order(app, *games)
    create(client, "lobo", ("Ana", "Bruno"))  # in play: no part of a streak
    assert "Current streak: 2 wins in a row" in client.get("/players/Ana").get_data(as_text=True)
    assert "Current streak: 1 win in a row" in client.get("/players/Bruno").get_data(as_text=True)
    games += [lobo_played(client, ("Ana", "Bruno"), [1, 2]), lobo_played(client, ("Ana", "Bruno"), [1, 2])]
    finished_in_order(app, *games)
    assert "Current streak: 2 games without a win" in client.get("/players/Ana").get_data(as_text=True)
    create(client, "lobo", ("Caio", "Dora"))
    assert "Current streak" not in client.get("/players/Caio").get_data(as_text=True)  # no finished game yet


def test_a_persons_page_counts_every_game_of_the_shelf_the_score_pad_included(client):
    """Six games now: a score pad game is a game of its own by its title, in the by-game
    table, the head-to-head and the streak, as the five refereed games are."""
    from companion.games import GAMES

    for slug in GAMES:  # each game's finished scene, Ana, Bruno (and Caio) at the table
        play_scene(client, slug, GAMES[slug].scenes()["finished"])
    page = client.get("/players/Ana").get_data(as_text=True)
    titles = set(game_rows(page))
    assert titles == {str(GAMES[slug].table_title(GAMES[slug].scenes()["finished"].options)) for slug in GAMES}
    assert len(titles) == 6
    section = page[page.index("<h2>Head to head</h2>"):]
    assert re.search(r">Bruno</a></th>\s*<td>6</td>", section)  # six games at one table with Bruno
    assert "Current streak:" in page


def test_two_names_that_played_at_one_table_are_two_people_and_are_not_merged(app, client, database):
    """Review of issue 42: Ana 7, Anna 3 at one Lobo table, merged, counted that table twice
    for Ana and lost her win on the night. Two names of one table are two people."""
    table = create(client, "lobo", ("Ana", "Anna", "Bruno"))
    play_lobo(client, table, [7, 3, 2])
    host = host_phone(app, table)
    sentence = "Anna and Ana played at one table: they are two people."
    confirm = host.get("/people/merge", query_string={"name": "Anna", "into": "Ana"})
    assert confirm.status_code == 422 and alert(confirm) == sentence
    response = merge(host, "Anna", "Ana")
    assert response.status_code == 422 and alert(response) == sentence
    assert people_rows(database) == []
    assert index_entries(client)["Ana"].startswith("1 game · 1 win")


def test_separating_the_only_name_of_a_renamed_person_leads_to_that_names_page(app, client, database):
    """Review of issue 42: Bruno renamed Zed, then "Bruno" separated again: the answer led to
    /players/Zed, where nobody is any more (404)."""
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [7, 2])
    host = host_phone(app, table)
    assert rename(host, "Bruno", "Zed").status_code == 303
    response = separate(host, "Zed", "Bruno")
    assert response.status_code == 303 and unquote(response.headers["Location"]) == "/players/Bruno"
    assert client.get("/players/Bruno").status_code == 200

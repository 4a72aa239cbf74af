"""History and players (issue 6): the home page lists the tables in progress and the
finished ones with their winners; a finished table opens on its results; a page per
player name counts their games, wins, average and best score."""

from __future__ import annotations

import html
import re
import sqlite3

from companion.web.app import create_app
from companion.tables import history
from companion.tables.database import connect
from companion.tables.schema import MIGRATIONS
from played import PICKOMINO_SCORES, create, play_lobo, play_pickomino
from databases import on_both_databases

# The history and players' pages and the store's queries under them, on SQLite and on PostgreSQL alike.
database = on_both_databases()

NAME_KEY_MIGRATION = 4  # MIGRATIONS[4] gives the seats their name_key


def home_entries(client) -> list[str]:
    page = client.get("/").get_data(as_text=True)
    items = re.findall(r'<ul class="tables">(.*?)</ul>', page, re.S)[0]
    items = re.sub(r"</?bdi>", "", items)  # a name set apart (right to left) is inline text
    return [html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item))).strip() for item in re.findall(r"<li>(.*?)</li>", items, re.S)]


def test_home_lists_tables_in_progress_first_then_finished_ones_with_their_winner(client):
    finished = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, finished)
    playing = create(client, "lobo", ("Dora", "Edu"))
    entries = home_entries(client)
    assert entries[0].startswith("Lobo · Dora, Edu") and "in progress" in entries[0] and "Winner" not in entries[0]
    assert entries[1].startswith("Pickomino · Ana, Bruno, Caio Winner: Ana") and "finished" in entries[1]
    page = client.get("/").get_data(as_text=True)
    assert f'href="/t/{finished.id}/results"' in page  # a finished table opens on its results
    assert f'href="/t/{playing.id}"' in page
    assert re.search(r'<time datetime="[^"]+">[^<]+</time>', page)


def test_home_names_every_winner_of_a_shared_first_place(client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [5, 5])
    assert "Winners: Ana, Bruno" in home_entries(client)[0]


def test_a_finished_table_undone_back_into_play_loses_its_winner_until_it_ends_again(app, client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    play_lobo(client, table, [5, 3])
    assert "Winner: Ana" in home_entries(client)[0]
    assert client.post(f"/api/tables/{table.id}/undo", headers={"Authorization": f"Bearer {table.host}"}).status_code == 200
    assert "in progress" in home_entries(client)[0] and "Winner" not in home_entries(client)[0]
    client.post(
        f"/api/tables/{table.id}/actions",
        json={"type": "meadows", "meadows": [{"sheep": 9, "fenced": True, "wolf": False}]},
        headers={"Authorization": f"Bearer {table.seats[1]}"},
    )
    assert "Winner: Bruno" in home_entries(client)[0]
    results = connect(app.config["DATABASE"]).execute("SELECT seat, score, place FROM results ORDER BY seat").fetchall()
    assert results == [(0, 5, 2), (1, 9, 1)]  # saved once, for the table as it ended


def test_player_page_counts_games_wins_average_and_best_per_game(client):
    for _ in range(2):
        play_pickomino(client, create(client, "pickomino", ("Ana", "Bruno", "Caio")))
    play_lobo(client, create(client, "lobo", ("ana", "Dora")), [2, 7])
    playing = create(client, "lobo", ("ANA", "Edu"))
    page = client.get("/players/Ana").get_data(as_text=True)
    rows = {
        cells[0]: cells[1:]
        for cells in (
            [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr data-game[^>]*>(.*?)</tr>", page, re.S)
        )
    }
    assert rows == {"Pickomino": ["2", "2", "15", "15"], "Lobo": ["1", "0", "2", "2"]}  # played, wins, average, best
    assert "4 tables on this companion" in page
    assert f'href="/t/{playing.id}"' in page and "in progress" in page
    assert "place 2 of 2, score 2" in page


def test_player_page_average_keeps_one_decimal(client):
    play_lobo(client, create(client, "lobo", ("Ana", "Bruno")), [2, 1])
    play_lobo(client, create(client, "lobo", ("Ana", "Bruno")), [3, 1])
    page = client.get("/players/ana").get_data(as_text=True)
    assert re.search(r"<td>2\.5</td>", page)


def test_player_page_of_a_name_nobody_played_with_is_a_404_with_a_sentence(client):
    response = client.get("/players/Nobody")
    assert response.status_code == 404
    assert "Nobody called Nobody has played at this companion." in response.get_data(as_text=True)


def test_players_index_lists_every_name_once_whatever_its_case(client):
    create(client, "lobo", ("Ana", "Bruno"))
    create(client, "lobo", ("ana", "Caio"))
    page = client.get("/players").get_data(as_text=True)
    names = re.findall(r'<a href="/players/[^"]+"><strong>([^<]+)</strong>', page)
    assert sorted(name.casefold() for name in names) == ["ana", "bruno", "caio"]
    assert "0 games · 0 wins" in page  # neither table finished


def test_players_index_is_in_alphabetical_order_accents_aside(client):
    """Host QA: "Çécile" came after "Zoë" (the order of the characters' code points)."""
    create(client, "lobo", ("Zoë", "Çécile", "bruno", "Élodie"))
    page = client.get("/players").get_data(as_text=True)
    names = re.findall(r'<a href="/players/[^"]+"><strong>([^<]+)</strong>', page)
    assert names == ["bruno", "Çécile", "Élodie", "Zoë"]


def test_pickomino_scores_of_the_played_game(client):
    """The game the history tests play ends as the helper says (a guard on the helper)."""
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    state = play_pickomino(client, table)
    assert {player["name"]: player["score"] for player in state["players"]} == PICKOMINO_SCORES


def test_a_database_from_before_the_seats_name_key_gets_it_and_its_players_pages_work(tmp_path):
    """Upgrading keeps every player's page: the seats already there get their key."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("PRAGMA journal_mode = WAL")
    for number, step in enumerate(MIGRATIONS[:NAME_KEY_MIGRATION], start=1):
        for statement in step.statements("sqlite"):
            old.execute(statement)
        old.execute(f"PRAGMA user_version = {number}")
    old.execute(
        "INSERT INTO game_tables (id, game, options, host_token_hash, version, status, current_seat, created_at, updated_at)"
        " VALUES ('OLD1', 'lobo', '{}', 'x', 0, 'playing', 0, '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z')"
    )
    old.executemany(
        "INSERT INTO seats (table_id, seat, name, token_hash) VALUES ('OLD1', ?, ?, ?)", [(0, "Ágata", "a"), (1, "Bruno", "b")]
    )
    old.close()
    client = create_app({"DATABASE": str(path), "SECRET_KEY": "test", "TESTING": True}).test_client()
    keys = connect(path).execute("SELECT name, name_key FROM seats ORDER BY seat").fetchall()
    assert keys == [("Ágata", "ágata"), ("Bruno", "bruno")]
    page = client.get("/players/ÁGATA").get_data(as_text=True)
    assert "1 table on this companion" in page and 'href="/t/OLD1"' in page


def test_all_tables_reach_every_table_a_page_at_a_time(client):
    """/tables lists the latest tables and leads to the older ones, page after page, so no
    table of an old evening is out of reach; a page number of any kind is a page."""
    created = [create(client, "pickomino", ("Ana", "Bruno")).id for _ in range(history.RECENT_TABLES + 3)]
    first = client.get("/tables").get_data(as_text=True)
    assert "Older tables" in first and "Newer tables" not in first
    second = client.get("/tables?page=2").get_data(as_text=True)
    assert "Newer tables" in second and "Older tables" not in second
    listed = set(re.findall(r'href="/t/(\w+)"', first)) | set(re.findall(r'href="/t/(\w+)"', second))
    assert set(created) <= listed
    assert not set(re.findall(r'href="/t/(\w+)"', first)) & set(re.findall(r'href="/t/(\w+)"', second))
    for page in ("0", "-3", "x", "٣", "9" * 40, "1e9"):
        assert client.get(f"/tables?page={page}").status_code == 200, page

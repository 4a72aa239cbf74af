"""A full disk or a read-only database: players get a sentence, on the pages and from the
API, never a stack trace, and a refused write leaves nothing half-applied.

Both failures are real SQLite failures on the test's database file, reached through the
companion's own SQLITE_PRAGMAS setting (the tests run as root, where chmod stops nothing):
- read-only: `query_only`, so SQLite refuses every write with SQLITE_READONLY, the answer a
  database on a read-only file or file system gives;
- full disk: `max_page_count` at the file's present size, so SQLite answers SQLITE_FULL
  ("database or disk is full") as soon as a write needs one more page, as on a full disk.
"""

from __future__ import annotations

import html
import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.web.app import create_app
from companion.tables.service import DATABASE_BUSY, STORAGE_UNAVAILABLE
from companion.web import STORAGE_UNREACHABLE
from played import assert_error, play_pickomino
from played import create as create_table

SAVING_SENTENCE = str(STORAGE_UNAVAILABLE)
REACHING_SENTENCE = str(STORAGE_UNREACHABLE)
SET_ASIDE_WORMS = {"type": "set_aside", "face": "worm", "count": 1}


def alert(page: str) -> str | None:
    found = re.search(r'role="alert">([^<]+)<', page)
    return html.unescape(found.group(1).strip()) if found else None


def csrf_of(client) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text).group(1)


def reopened(database: str, **pragmas) -> object:
    """The companion started again on the same database file, with these PRAGMAs."""
    return create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "SQLITE_PRAGMAS": pragmas})


def snapshot(database: str) -> dict[str, list[tuple]]:
    """Everything the companion keeps, read past it."""
    with closing(sqlite3.connect(database)) as conn:
        return {
            name: conn.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
            for name in ("game_tables", "seats", "events", "player_memories")
        }


def create(client, players=("Ana", "Bruno")) -> dict:
    response = client.post("/api/tables", json={"game": "pickomino", "players": list(players)})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def host(created: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['host_token']}"}


def join(client, created: dict, seat: int) -> None:
    token = created["seats"][seat]["token"]
    assert client.get(f"/j/{token}").status_code == 303


def tap(client, table_id: str, action: dict, *, htmx: bool = True):
    data = {"csrf_token": csrf_of(client), "action": json.dumps(action)}
    return client.post(f"/t/{table_id}/act", data=data, headers={"HX-Request": "true"} if htmx else {})


@pytest.fixture
def table(app) -> dict:
    created = create(app.test_client())
    assert app.test_client().post(
        f"/api/tables/{created['id']}/actions", json=SET_ASIDE_WORMS, headers=host(created)
    ).status_code == 200
    return created


# --- a database another writer holds ------------------------------------------------------
def test_a_database_held_by_another_writer_past_the_wait_refuses_the_write_with_a_sentence(app, table):
    """Another change holding SQLite's write lock longer than a writer waits (another
    process' long redo): the tap is refused as the storage's (503, a sentence), not a
    server error, and changes nothing."""
    database = app.config["DATABASE"]
    before = snapshot(database)
    client = reopened(database, busy_timeout=200).test_client()
    with closing(sqlite3.connect(database, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        refused = client.post(f"/api/tables/{table['id']}/actions", json=SET_ASIDE_WORMS, headers=host(table))
        holder.execute("ROLLBACK")
    assert_error(refused, 503, "storage_unavailable")
    assert refused.get_json()["error"] == str(DATABASE_BUSY)
    assert snapshot(database) == before
    again = client.post(f"/api/tables/{table['id']}/actions", json=SET_ASIDE_WORMS, headers=host(table))
    assert_error(again, 422, "face_already_kept")  # once free, the rules answer again (worms are kept already)


def test_pages_that_save_results_show_everything_else_while_another_writer_holds_the_database(app):
    """The home page saves the results of a finished game the first time it lists it; with
    the database held by another writer past the wait it lists the tables without them
    (a later page saves them), rather than failing."""
    database = app.config["DATABASE"]
    client = reopened(database, busy_timeout=200).test_client()
    table = create_table(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    with closing(sqlite3.connect(database, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        home = client.get("/")
        holder.execute("ROLLBACK")
    assert home.status_code == 200 and table.id in home.text
    assert "Winner: <bdi>Ana</bdi>" in client.get("/").text  # saved once the database is free


# --- a read-only database -----------------------------------------------------------------
def test_read_only_database_api_writes_are_refused_with_a_sentence_and_change_nothing(app, table):
    database = app.config["DATABASE"]
    before = snapshot(database)
    client = reopened(database, query_only="ON").test_client()
    base = f"/api/tables/{table['id']}"

    for response in (
        client.post(base + "/actions", json=SET_ASIDE_WORMS, headers=host(table)),
        client.post(base + "/undo", headers=host(table)),
        client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}),
    ):
        assert_error(response, 503, "storage_unavailable")
        assert response.get_json()["error"] == SAVING_SENTENCE
    assert snapshot(database) == before
    # Reading does not need to write: the table is still there for every phone.
    state = client.get(base).get_json()
    assert state["version"] == 1 and state["state"]["turn"]["kept"] == [{"face": "worm", "count": 1}]


def test_read_only_database_page_tap_shows_the_sentence_in_the_table_and_changes_nothing(app, table):
    database = app.config["DATABASE"]
    before = snapshot(database)
    phone = reopened(database, query_only="ON").test_client()
    join(phone, table, 0)

    swapped = tap(phone, table["id"], SET_ASIDE_WORMS)  # htmx swaps 503 answers into the table
    assert swapped.status_code == 503
    assert alert(swapped.text) == SAVING_SENTENCE
    assert 'id="table"' in swapped.text and "Traceback" not in swapped.text

    without_script = tap(phone, table["id"], SET_ASIDE_WORMS, htmx=False)
    assert without_script.status_code == 503 and alert(without_script.text) == SAVING_SENTENCE

    started = phone.post("/tables", data={"csrf_token": csrf_of(phone), "game": "pickomino", "player": ["Cy", "Di"]})
    assert started.status_code == 503 and alert(started.text) == SAVING_SENTENCE
    assert 'value="Cy"' in started.text  # the start form keeps what was typed
    assert snapshot(database) == before


# --- a full disk ----------------------------------------------------------------------------
def play_until_full(client, created: dict) -> tuple[object, dict, int]:
    """Undo and set aside again until a write does not fit: that refused response,
    everything kept just before it, and the table's version the last 200 acknowledged."""
    base = f"/api/tables/{created['id']}"
    database = client.application.config["DATABASE"]
    acknowledged = client.get(base).get_json()["version"]
    for step in range(5_000):
        before = snapshot(database)
        if step % 2 == 0:
            response = client.post(base + "/undo", headers=host(created))
        else:
            response = client.post(base + "/actions", json=SET_ASIDE_WORMS, headers=host(created))
        if response.status_code != 200:
            return response, before, acknowledged
        acknowledged = response.get_json()["version"]
    pytest.fail("the database never filled up")


def test_full_disk_refuses_the_write_that_does_not_fit_and_keeps_every_earlier_one(app, table):
    database = app.config["DATABASE"]
    full = reopened(database, max_page_count=1).test_client()  # 1: no more pages than now
    refused, before, acknowledged = play_until_full(full, table)

    assert_error(refused, 503, "storage_unavailable")
    assert refused.get_json()["error"] == SAVING_SENTENCE
    assert snapshot(database) == before  # the refused write left no trace
    with closing(sqlite3.connect(database)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert full.get(f"/api/tables/{table['id']}").get_json()["version"] == acknowledged

    # Room again (the operator freed some space): the same write goes through.
    roomy = reopened(database).test_client()
    retried = roomy.post(f"/api/tables/{table['id']}/undo", headers=host(table))
    if retried.status_code == 409:  # the refused write was an action, not an undo
        retried = roomy.post(f"/api/tables/{table['id']}/actions", json=SET_ASIDE_WORMS, headers=host(table))
    assert retried.status_code == 200 and retried.get_json()["version"] == acknowledged + 1


def test_full_disk_page_tap_shows_the_sentence_and_changes_nothing(app, table):
    database = app.config["DATABASE"]
    full = reopened(database, max_page_count=1).test_client()
    play_until_full(full, table)
    before = snapshot(database)
    join(full, table, 0)
    state = full.get(f"/api/tables/{table['id']}").get_json()
    action = SET_ASIDE_WORMS if state["state"]["turn"]["kept"] == [] else {"type": "set_aside", "face": 5, "count": 1}

    swapped = tap(full, table["id"], action)
    assert swapped.status_code == 503 and alert(swapped.text) == SAVING_SENTENCE
    assert snapshot(database) == before


# --- a database out of reach (its folder gone: a pulled USB stick) --------------------------
def test_database_out_of_reach_gives_a_sentence_on_every_page_and_in_the_api(tmp_path: Path):
    folder = tmp_path / "data"
    app = create_app({"DATABASE": str(folder / "companion.sqlite3"), "SECRET_KEY": "test", "TESTING": True})
    client = app.test_client()
    created = create(client)
    folder.rename(tmp_path / "elsewhere")

    page = client.get(f"/t/{created['id']}")
    assert page.status_code == 503 and alert(page.text) == REACHING_SENTENCE
    poll = client.get(f"/t/{created['id']}/poll?v=0", headers={"HX-Request": "true"})
    assert poll.status_code == 503 and poll.headers["HX-Refresh"] == "true"  # the phone reloads to show it
    # the page says so and loads itself again, back at the table once the database answers
    assert '<meta http-equiv="refresh" content="10">' in page.text
    assert "This page tries again by itself every 10 seconds." in page.text
    home = client.get("/")
    assert home.status_code == 503 and alert(home.text) == REACHING_SENTENCE
    api = client.get(f"/api/tables/{created['id']}")
    assert_error(api, 503, "storage_unavailable")
    assert api.get_json()["error"] == REACHING_SENTENCE

    (tmp_path / "elsewhere").rename(folder)
    assert client.get(f"/t/{created['id']}").status_code == 200
    assert re.search(r"Ana", client.get("/").text)


def test_a_database_out_of_reach_is_logged_once_a_minute_not_once_a_request(tmp_path: Path, caplog):
    """Review: every refused request logged the same long line, 150 a minute from one table
    of five polling phones, thousands at once from a café's held connections."""
    folder = tmp_path / "data"
    app = create_app({"DATABASE": str(folder / "companion.sqlite3"), "SECRET_KEY": "test", "TESTING": True})
    client = app.test_client()
    created = create(client)
    folder.rename(tmp_path / "elsewhere")
    for _poll in range(20):
        assert client.get(f"/t/{created['id']}/poll?v=0", headers={"HX-Request": "true"}).status_code == 503
    assert caplog.text.count("Could not use the database") == 1


def test_a_line_repeated_within_a_minute_is_counted_and_the_count_written_with_the_next_one():
    import logging

    from companion.web.app import RepeatsQuieted

    now = [0.0]
    quiet = RepeatsQuieted(clock=lambda: now[0])

    def logged(message: str, at: float, level: int = logging.ERROR) -> str | None:
        now[0] = at
        record = logging.LogRecord("companion.storage", level, __file__, 1, message, (), None)
        return record.getMessage() if quiet.filter(record) else None

    assert logged("disk gone", 0) == "disk gone"
    assert [logged("disk gone", at) for at in (1, 30, 59.9)] == [None, None, None]
    assert logged("another line", 2) == "another line"  # other lines are their own
    assert logged("disk gone", 2, logging.WARNING) == "disk gone"  # so is another level
    assert logged("disk gone", 60) == "disk gone (and 3 more like it since it was last written)"
    assert logged("disk gone", 61) is None
    assert logged("disk gone", 200) == "disk gone (and 1 more like it since it was last written)"
    assert logged("disk gone", 300) == "disk gone"


def raised(error: BaseException):
    try:
        raise error
    except BaseException:
        import sys

        return sys.exc_info()


def test_two_different_errors_behind_one_line_are_both_written():
    """Review of issue 43: the one format's handler quiets repeats of every logger, and
    Flask logs every error of a page as "Exception on /night [GET]": a KeyError and then a
    ZeroDivisionError within a minute wrote only the first. An error's line is its words
    and where it was raised; another logger's line is its own."""
    import logging

    from companion.web.app import RepeatsQuieted

    quiet = RepeatsQuieted(clock=lambda: 0.0)

    def written(name: str, exc_info) -> bool:
        return quiet.filter(logging.LogRecord(name, logging.ERROR, __file__, 1, "Exception on /night [GET]", (), exc_info))

    assert written("companion", raised(KeyError("evening")))
    assert written("companion", raised(ZeroDivisionError()))
    assert not written("companion", raised(ZeroDivisionError()))  # the same error again: counted
    assert written("werkzeug", raised(ZeroDivisionError()))


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_database_file_removed_while_serving_refuses_every_change_until_it_is_back(tmp_path: Path, how):
    """helper QA: after `rm companion.sqlite3*` under a running companion, every action and
    new table was answered 200/201 and lost (one process wrote into the removed file), and
    the other process made an empty database and answered 500. Every request is now the
    503 sentence, nothing is acknowledged, and putting the file back brings it all back."""
    from .conftest import CompanionProcess

    server = CompanionProcess(tmp_path).start()
    try:
        import requests

        created = requests.post(server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
        headers = {"Authorization": f"Bearer {created['host_token']}"}
        database = Path(server.database)
        aside = tmp_path / "aside"
        aside.mkdir()
        for part in tmp_path.glob("companion.sqlite3*"):
            part.rename(aside / part.name)
        if how == "replaced":  # an empty file of the same name, as another program might leave
            database.touch()
        for _attempt in range(6):  # both processes (the kernel spreads the connections)
            act = requests.post(
                f"{server.url}/api/tables/{created['id']}/actions",
                json={"type": "set_aside", "face": "worm", "count": 3}, headers=headers, timeout=10,
            )
            new = requests.post(server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10)
            for refused in (act, new):
                assert refused.status_code == 503, refused.text
                assert refused.json() == {"code": "storage_unavailable", "error": REACHING_SENTENCE}
            page = requests.get(f"{server.url}/t/{created['id']}", timeout=10)
            assert page.status_code == 503 and alert(page.text) == REACHING_SENTENCE
            assert requests.get(server.url + "/healthz/database", timeout=10).status_code == 503
        assert database.exists() == (how == "replaced")  # no empty database was made in its place
        database.unlink(missing_ok=True)
        for part in aside.iterdir():
            part.rename(tmp_path / part.name)
        for _attempt in range(4):
            assert requests.get(f"{server.url}/api/tables/{created['id']}", timeout=10).status_code == 200
        act = requests.post(
            f"{server.url}/api/tables/{created['id']}/actions",
            json={"type": "set_aside", "face": "worm", "count": 3}, headers=headers, timeout=10,
        )
        assert act.status_code == 200 and act.json()["version"] == 1
    finally:
        server.stop()
    assert "was removed or replaced while the companion ran" in (tmp_path / "server.log").read_text()


@pytest.mark.slow  # a real server process
def test_a_held_connection_whose_database_file_went_away_ends_with_one_warning(tmp_path: Path):
    """A phone holding its table's connection when the database file is removed: at the next
    look (the heartbeat: 15 s, 1 s here) the connection ends with a warning, no traceback, and
    the page's reconnection is answered with the sentence."""
    import requests

    from .conftest import CompanionProcess

    server = CompanionProcess(tmp_path, heartbeat_seconds=1).start()
    try:
        created = requests.post(server.url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10).json()
        act = requests.post(
            f"{server.url}/api/tables/{created['id']}/actions", json=SET_ASIDE_WORMS,
            headers={"Authorization": f"Bearer {created['host_token']}"}, timeout=10,
        )
        assert act.status_code == 200
        held = requests.get(f"{server.url}/t/{created['id']}/events?v=0", stream=True, timeout=(5, 30))
        assert held.status_code == 200
        lines = held.iter_lines(decode_unicode=True)
        assert next(line for line in lines if line.startswith("event: table")) == "event: table"
        aside = tmp_path / "aside"
        aside.mkdir()
        for part in tmp_path.glob("companion.sqlite3*"):
            part.rename(aside / part.name)
        rest = list(lines)  # until the server ends it (a read timeout would raise)
        assert not any(line.startswith("event: table") for line in rest), rest
        again = requests.get(f"{server.url}/t/{created['id']}/events?v=1", timeout=10)
        assert again.status_code == 503 and alert(again.text) == REACHING_SENTENCE
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert log.count("A held connection ended: the database cannot be used") == 1, log
    assert "Traceback" not in log, log


@pytest.mark.parametrize("existing", [False, True])
def test_a_full_disk_at_the_first_start_or_an_upgrade_says_the_disk_is_full(tmp_path: Path, existing):
    """helper QA: a full disk when the database is made (or upgraded) said it was
    read-only and made by an older companion."""
    from companion.tables.database import DatabaseUnusable
    from companion.tables.schema import MIGRATIONS

    database = tmp_path / "companion.sqlite3"
    if existing:  # made by the first companion: its upgrade is what does not fit
        with closing(sqlite3.connect(database)) as old:
            for statement in MIGRATIONS[0].statements("sqlite"):
                old.execute(statement)
            old.execute("PRAGMA user_version = 1")
            old.commit()
    with pytest.raises(DatabaseUnusable) as refused:
        create_app({"DATABASE": str(database), "SQLITE_PRAGMAS": {"max_page_count": 2}, "SECRET_KEY": "test"})
    assert str(refused.value).startswith(f"The database {database} cannot be made or upgraded: the disk it is on is full")
    assert "read-only" not in str(refused.value)


def test_stopping_after_the_database_file_was_replaced_leaves_the_replacement_alone(tmp_path: Path):
    """Review: a copy moved over the database while serving (its -wal left beside it, still
    held by another process) is refused while serving; stopping must not then move that
    WAL's writes into the copy, which a checkpoint by the file's name did."""
    import os
    import shutil

    from companion.web import database as app_database

    database = tmp_path / "companion.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test", "TESTING": True})
    client = app.test_client()
    with closing(sqlite3.connect(database)) as other_process:  # keeps the old file's WAL in place
        other_process.execute("SELECT count(*) FROM game_tables").fetchone()
        shutil.copy(database, tmp_path / "copy")  # the file alone: the table below is in the WAL
        create(client)
        os.replace(tmp_path / "copy", database)
        copied = database.read_bytes()
        app_database.of(app).checkpoint_and_close()
        assert database.read_bytes() == copied

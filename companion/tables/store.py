"""Tables, seats and the append-only event log, in SQLite or PostgreSQL. No game logic here.

Longer than 400 lines on purpose: every SQL statement of the companion is here, so the
schema (db.py, postgres.py) and the queries that use it can be read side by side. The SQL
is what both databases understand alike (? placeholders: postgres.py turns them into
psycopg's); `db` is a sqlite_utils Database or a postgres.Database.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterator

import sqlite_utils

from ..server import doorbell


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def on_postgresql(db) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


@contextmanager
def write(db: sqlite_utils.Database, *table_ids: str, wait: bool = True) -> Iterator[None]:
    """One write transaction that takes the write lock up front, so a read-then-write
    cannot be overtaken by another phone's write in between: SQLite's one lock for the
    whole database (BEGIN IMMEDIATE), PostgreSQL's lock of each of `table_ids`. Not
    `wait`: SQLite's busy error at once if another connection holds its lock."""
    db.moved_here = set()  # the tables this write moves (announce)
    if on_postgresql(db):
        with db.transaction(table_ids):
            yield
        _committed_moves(db)
        return
    pause = getattr(db, "pause", None)
    if wait and pause is None:
        db.conn.execute("BEGIN IMMEDIATE")  # SQLite's busy timeout waits for another writer
    else:
        _begin_pausing(db.conn, pause if wait else None)
    try:
        yield
        db.conn.execute("COMMIT")
    except BaseException:
        # SQLite may have rolled back already (a full disk, a read-only file): a second
        # ROLLBACK would raise and hide the real error.
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    _committed_moves(db)


def _committed_moves(db) -> None:
    """A write committed: the servers are told of the tables it moved, now (SQLite's
    doorbell; PostgreSQL's NOTIFY went with the commit), or later (hold_announcements)."""
    held = getattr(db, "held_announcements", None)
    if held is not None:
        held.update(db.moved_here)
    elif db.moved_here and not on_postgresql(db) and getattr(db, "doorbell", None):
        doorbell.ring(db.doorbell)


def hold_announcements(db) -> set[str]:
    """The tables that this connection's writes move from now on are announced to the
    servers only when the caller says (stop_holding, then announce_now): a tap's process
    first shares what it rendered of the new version for the watching phones (publish_parts),
    so that the other processes, woken, find it. A process that looks by itself in between
    (another table's doorbell, its half-second look) renders the version as before."""
    db.held_announcements = set()
    return db.held_announcements


def stop_holding(db) -> set[str]:
    """The tables moved since hold_announcements, whose announcing is now the caller's."""
    held, db.held_announcements = db.held_announcements, None
    return held


def announce_now(db, table_ids: set[str]) -> None:
    """Tell the servers that `table_ids` moved, outside any write (see hold_announcements)."""
    if on_postgresql(db):
        with write(db):  # NOTIFY is sent when its transaction commits
            for table_id in sorted(table_ids):
                db.announce(table_id)
    elif getattr(db, "doorbell", None):
        doorbell.ring(db.doorbell)


# How long a writer under the push server first waits for another process' write lock
# inside SQLite (its busy handler, which stops the whole process) before letting the
# process' other connections run: a write holds the lock under a millisecond (91 % of them
# at 1,000 tables x 5, 99.8 % under 5 ms).
BLOCKING_WAIT_MS = 2


def _begin_pausing(conn: sqlite3.Connection, pause: Callable[[float], None] | None) -> None:
    """BEGIN IMMEDIATE that waits for another process' writer by `pause` (gevent's sleep),
    or with no `pause` not at all (SQLite's busy error at once). SQLite's own busy handler
    sleeps inside C, which under gevent stops every connection of the process
    (bench/load.py at 100 x 5: poll p99 749 ms with it), not just this request; so it is
    given BLOCKING_WAIT_MS on the first try only, which most locks are released within:
    a busy process comes back to a paused request only after everything else it has to do
    (~100 ms at 1,000 tables x 5), and at each return the lock may be taken again (waits
    of up to 1.5 s, paused from the first try). Only once a writer, so that writers
    waiting together for a long-held lock do not stop the process at every turn."""
    timeout_ms = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    deadline = time.monotonic() + timeout_ms / 1000
    conn.execute(f"PRAGMA busy_timeout = {BLOCKING_WAIT_MS if pause is not None else 0}")
    try:
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                busy = getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY
                if not busy or pause is None or time.monotonic() > deadline:
                    raise
                conn.execute("PRAGMA busy_timeout = 0")
                pause(0.001)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {timeout_ms}")


def _insert(db, table: str, record: dict[str, Any], unless_taken: str | None = None) -> int:
    """INSERT one row; with `unless_taken` (a key column), nothing when that key is taken
    already. How many rows went in (0 or 1)."""
    columns = ", ".join(record)
    marks = ", ".join("?" for _ in record)
    ignore = "" if unless_taken is None else f" ON CONFLICT ({unless_taken}) DO NOTHING"
    return db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks}){ignore}", list(record.values())).rowcount


def insert_table(
    db, table_id: str, game: str, options: dict, deal: Any, host_token: str, names: list[str], seat_tokens: list[str]
) -> bool:
    """A new table and its seats; False (and nothing written) if `table_id` is taken."""
    stamp = now()
    inserted = _insert(
        db,
        "game_tables",
        {
            "id": table_id,
            "game": game,
            "options": json.dumps(options),
            "deal": json.dumps(deal),
            "host_token_hash": token_hash(host_token),
            "version": 0,
            "status": "playing",
            "current_seat": 0,
            "created_at": stamp,
            "updated_at": stamp,
        },
        unless_taken="id",
    )
    if not inserted:
        return False
    for seat, (name, token) in enumerate(zip(names, seat_tokens)):
        _insert(
            db,
            "seats",
            {"table_id": table_id, "seat": seat, "name": name, "name_key": name_key(name), "token_hash": token_hash(token)},
        )
    return True


def name_key(name: str) -> str:
    """A player is their name, whatever its case: "ana" and "Ana" are one player (their
    memories, results and history, and two seats at one table cannot share it)."""
    return name.strip().casefold()


def player_memories(db, game: str, names: list[str]) -> list[dict[str, Any]]:
    """Per name, what that player kept from earlier tables of `game`: {key: value}."""
    return [
        {
            key: json.loads(value)
            for key, value in db.execute(
                "SELECT key, value FROM player_memories WHERE name_key = ? AND game = ?", [name_key(name), game]
            )
        }
        for name in names
    ]


def remember(db, game: str, name: str, entries: dict[str, Any]) -> None:
    for key, value in entries.items():
        db.execute(
            "INSERT INTO player_memories (name_key, game, key, value, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (name_key, game, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            [name_key(name), game, key, json.dumps(value), now()],
        )


def table_row(db, table_id: str) -> dict[str, Any] | None:
    cursor = db.execute("SELECT * FROM game_tables WHERE id = ?", [table_id])
    row = cursor.fetchone()
    if row is None:
        return None
    record = dict(zip([column[0] for column in cursor.description], row))
    record["options"] = json.loads(record["options"])
    record["deal"] = json.loads(record["deal"]) if record["deal"] is not None else None
    return record


def seat_names(db, table_id: str) -> list[str]:
    return [row[0] for row in db.execute("SELECT name FROM seats WHERE table_id = ? ORDER BY seat", [table_id])]


def seat_for_token(db, table_id: str, token: str) -> int | None:
    row = db.execute(
        "SELECT seat FROM seats WHERE table_id = ? AND token_hash = ?", [table_id, token_hash(token)]
    ).fetchone()
    return None if row is None else row[0]


def is_host_token(db, table_id: str, token: str) -> bool:
    row = db.execute(
        "SELECT 1 FROM game_tables WHERE id = ? AND host_token_hash = ?", [table_id, token_hash(token)]
    ).fetchone()
    return row is not None


def seat_opened_by(db, table_id: str, seat: int) -> str | None:
    """The phone whose page of the seat loaded last, if any did (db.py, migration 11)."""
    row = db.execute("SELECT opened_by FROM seats WHERE table_id = ? AND seat = ?", [table_id, seat]).fetchone()
    return None if row is None else row[0]


def opened_seats(db, table_id: str) -> set[int]:
    """The seats of the table that a phone opened (seat_opened_by)."""
    return {row[0] for row in db.execute("SELECT seat FROM seats WHERE table_id = ? AND opened_by IS NOT NULL", [table_id])}


def open_seat(db, table_id: str, seat: int, phone: str) -> None:
    """The seat is open on `phone`, and no other seat of the table is any more: a phone that
    changed seats (Ana's, after scanning Bruno's code by mistake) leaves Bruno's unmarked."""
    db.execute("UPDATE seats SET opened_by = NULL WHERE table_id = ? AND opened_by = ? AND seat <> ?", [table_id, phone, seat])
    db.execute("UPDATE seats SET opened_by = ? WHERE table_id = ? AND seat = ?", [phone, table_id, seat])


def find_seat_token(db, token: str) -> tuple[str, int] | None:
    """Which table and seat a join token belongs to."""
    row = db.execute("SELECT table_id, seat FROM seats WHERE token_hash = ?", [token_hash(token)]).fetchone()
    return None if row is None else (row[0], row[1])


# The log as it was at a table version: an event's seq is the version it made, and an undo
# marks the events it undid with the version it made (undone_version; none on events undone
# before that column existed, which count as undone). A reader that read the table's version
# and then its log reads them apart, and another process may write in between: reading the
# log as of that version keeps what it computes true of the version it is kept under.
IN_EFFECT_AS_OF = "seq <= ? AND (undone = 0 OR undone_version > ?)"


def moves(db, table_id: str, as_of: int | None = None) -> list[tuple[int, int, dict[str, Any]]]:
    """The actions still in effect, in order, as (seq, seat, action): what replay feeds
    the engine. With `as_of`, those in effect at that table version."""
    if as_of is None:
        rows = db.execute(
            "SELECT seq, seat, action FROM events WHERE table_id = ? AND undone = 0 ORDER BY seq", [table_id]
        )
    else:
        rows = db.execute(
            f"SELECT seq, seat, action FROM events WHERE table_id = ? AND {IN_EFFECT_AS_OF} ORDER BY seq",
            [table_id, as_of, as_of],
        )
    return [(seq, seat, json.loads(action)) for seq, seat, action in rows]


def event_at(db, table_id: str, seq: int) -> tuple[int, dict[str, Any]] | None:
    """Seat and action of the event `seq` (the one that made table version `seq`), if any."""
    row = db.execute("SELECT seat, action FROM events WHERE table_id = ? AND seq = ?", [table_id, seq]).fetchone()
    return None if row is None else (row[0], json.loads(row[1]))


EVENT_COLUMNS = "seq, seat, by_host, action, undone, at, undone_at, undone_version, redo_of, skipped_version, undone_by_seat"


# The newest lines of a log reach back over its undone lines to `latest` lines in effect,
# and stop at this many times `latest` lines in all (the page renders them every version).
NEWEST_LINES_AT_MOST = 4


def events(db, table_id: str, latest: int | None = None) -> list[dict[str, Any]]:
    """The whole log in order, or only its newest events: back to the `latest`-th still in
    effect, the undone ones among them too. After the host went back a few times the newest
    lines are mostly undone ones, and the lines still in effect (the ones to go back to)
    must stay in sight all the same."""
    if latest is None:
        rows = db.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE table_id = ? ORDER BY seq", [table_id])
    else:
        oldest_shown = "SELECT seq FROM events WHERE table_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1 OFFSET ?"
        rows = db.execute(
            f"SELECT * FROM (SELECT {EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq >= COALESCE(({oldest_shown}), 0)"
            " ORDER BY seq DESC LIMIT ?) AS latest ORDER BY seq",
            [table_id, table_id, latest - 1, latest * NEWEST_LINES_AT_MOST],
        )
    return _event_dicts(rows)


def event(db, table_id: str, seq: int) -> dict[str, Any]:
    """Line `seq` of the log."""
    return _event_dicts(db.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq = ?", [table_id, seq]))[0]


def events_as_of(db, table_id: str, version: int) -> list[dict[str, Any]]:
    """The whole log as it was at table `version`: the later events left out, and the
    undos made after it not made yet."""
    not_yet = "undone_version > ?"
    rows = db.execute(
        f"SELECT seq, seat, by_host, action, CASE WHEN {not_yet} THEN 0 ELSE undone END, at,"
        f" CASE WHEN {not_yet} THEN NULL ELSE undone_at END, CASE WHEN {not_yet} THEN NULL ELSE undone_version END,"
        " redo_of, CASE WHEN skipped_version > ? THEN NULL ELSE skipped_version END,"
        f" CASE WHEN {not_yet} THEN NULL ELSE undone_by_seat END"
        " FROM events WHERE table_id = ? AND seq <= ? ORDER BY seq",
        [version, version, version, version, version, table_id, version],
    )
    return _event_dicts(rows)


def _event_dicts(rows) -> list[dict[str, Any]]:
    return [
        {
            "seq": seq,
            "seat": seat,
            "by_host": bool(by_host),
            "action": json.loads(action),
            "undone": bool(undone),
            "at": at,
            "undone_at": undone_at,
            "undone_version": undone_version,
            "redo_of": redo_of,
            "skipped_version": skipped_version,
            "undone_by_seat": undone_by_seat,
        }
        for seq, seat, by_host, action, undone, at, undone_at, undone_version, redo_of, skipped_version, undone_by_seat in rows
    ]


def anything_undone(db, table_id: str, as_of: int | None = None) -> bool:
    """Whether an undo had taken back any of the table's actions by table version `as_of`
    (now if None). Without one, redoable finds nothing to redo: only an undo puts anything
    on offer. Undos made before they were numbered do not count there either."""
    by_then = "" if as_of is None else " AND undone_version <= ?"
    row = db.execute(
        f"SELECT 1 FROM events WHERE table_id = ? AND undone = 1 AND undone_version IS NOT NULL{by_then} LIMIT 1",
        [table_id] + ([] if as_of is None else [as_of]),
    ).fetchone()
    return row is not None


def actions_after(db, table_id: str, version: int) -> list[tuple[int, dict[str, Any]]]:
    """Seat and action of every event accepted after the table's `version` (an event's seq
    is the version it made), undone ones included."""
    rows = db.execute("SELECT seat, action FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", [table_id, version])
    return [(seat, json.loads(action)) for seat, action in rows]


def event_count(db, table_id: str) -> int:
    return db.execute("SELECT count(*) FROM events WHERE table_id = ?", [table_id]).fetchone()[0]


def last_event_in_effect(db, table_id: str) -> dict[str, Any] | None:
    row = db.execute(
        "SELECT seq, seat, by_host FROM events WHERE table_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1",
        [table_id],
    ).fetchone()
    return None if row is None else {"seq": row[0], "seat": row[1], "by_host": bool(row[2])}


def append_event(
    db, table_id: str, seq: int, seat: int, by_host: bool, action: dict[str, Any], redo_of: int | None = None
) -> None:
    _insert(
        db,
        "events",
        {
            "table_id": table_id,
            "seq": seq,
            "seat": seat,
            "by_host": int(by_host),
            "action": json.dumps(action),
            "undone": 0,
            "at": now(),
            "redo_of": redo_of,
        },
    )


def mark_undone_from(db, table_id: str, seq: int, version: int, by_seat: int | None = None) -> int:
    """Undo the event `seq` and every later one still in effect, at table `version`; how many.
    `by_seat`: the seat taking back its own last action (None: the host going back)."""
    cursor = db.execute(
        "UPDATE events SET undone = 1, undone_at = ?, undone_version = ?, undone_by_seat = ?"
        " WHERE table_id = ? AND seq >= ? AND undone = 0",
        [now(), version, by_seat, table_id, seq],
    )
    return cursor.rowcount


def mark_skipped(db, table_id: str, seq: int, version: int) -> None:
    """The undone event `seq` is not to be redone, as of table `version` (redoable); so
    are the undone lines that entered it again (the log marks each copy of it)."""
    db.execute(
        "UPDATE events SET skipped_version = ? WHERE table_id = ? AND (seq = ? OR redo_of = ?) AND undone = 1"
        " AND skipped_version IS NULL",
        [version, table_id, seq, seq],
    )


def skips_after(db, table_id: str, version: int) -> int:
    """How many table versions after `version` were skips (each made a version, no event)."""
    return db.execute(
        "SELECT count(DISTINCT skipped_version) FROM events WHERE table_id = ? AND skipped_version > ?", [table_id, version]
    ).fetchone()[0]


def event_in_effect(db, table_id: str, seq: int) -> dict[str, Any] | None:
    row = db.execute(
        "SELECT seq, seat, by_host FROM events WHERE table_id = ? AND seq = ? AND undone = 0", [table_id, seq]
    ).fetchone()
    return None if row is None else {"seq": row[0], "seat": row[1], "by_host": bool(row[2])}


def announce(db, table_id: str) -> None:
    """Every server must see that `table_id` moved: PostgreSQL is told (NOTIFY, sent at
    commit); SQLite's servers see it by themselves (companion/server/notify.py), told to
    look at once by the doorbell the write rings once it has committed (store.write); or
    later (hold_announcements)."""
    db.moved_here.add(table_id)
    if on_postgresql(db) and getattr(db, "held_announcements", None) is None:
        db.announce(table_id)


# Published parts are read within moments, when the phones of every server process are
# woken by the version they show; a table's next version replaces them. Those of a table
# that stopped moving go after this, so that its HTML does not stay in the database for
# ever (a few KB a part; a café's year of tables).
PARTS_KEPT_SECONDS = 60


def publish_parts(db, table_id: str, version: int, parts: dict[str, str]) -> None:
    """Parts of the table's page rendered for `version` (web/fragments.py: the name of a part
    says what it shows and in what language), for every server process to read instead of
    rendering them; the table's older ones go, and any table's kept too long."""
    stamp = datetime.now(timezone.utc)
    too_old = (stamp - timedelta(seconds=PARTS_KEPT_SECONDS)).isoformat(timespec="seconds")
    db.execute("DELETE FROM rendered_parts WHERE table_id = ? AND version < ?", [table_id, version])
    db.execute("DELETE FROM rendered_parts WHERE published_at < ?", [too_old])
    for part, html in parts.items():
        db.execute(
            "INSERT INTO rendered_parts (table_id, version, part, html, published_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, version, part) DO NOTHING",
            [table_id, version, part, html, stamp.isoformat(timespec="seconds")],
        )


def published_part(db, table_id: str, version: int, part: str) -> str | None:
    row = db.execute(
        "SELECT html FROM rendered_parts WHERE table_id = ? AND version = ? AND part = ?", [table_id, version, part]
    ).fetchone()
    return None if row is None else row[0]


def update_table(db, table_id: str, version: int, status: str, current_seat: int | None, page: str | None = None) -> None:
    """`page`: the table page whose tap made this version (it has it from the tap's answer),
    or None (the API, another kind of change); kept as page_mark(page, version)."""
    stamp = now()
    finished_at = "COALESCE(finished_at, ?)" if status == "finished" else "NULL"
    db.execute(
        "UPDATE game_tables SET version = ?, status = ?, current_seat = ?, updated_at = ?, moved_by_page = ?,"
        f" finished_at = {finished_at} WHERE id = ?",
        [version, status, current_seat, stamp, page_mark(page, version)] + ([stamp] if status == "finished" else []) + [table_id],
    )
    announce(db, table_id)


def close_table(db, table_id: str) -> None:
    """The host closed the table: it keeps its log and results; unfinished, it is abandoned.
    The version moves on, so every phone's next look shows it closed."""
    stamp = now()
    db.execute(
        "UPDATE game_tables SET closed_at = ?, updated_at = ?, version = version + 1, moved_by_page = NULL,"
        " status = CASE WHEN status = 'finished' THEN status ELSE 'abandoned' END WHERE id = ?",
        [stamp, stamp, table_id],
    )
    announce(db, table_id)


def list_tables(db, limit: int = 50, finished_since: str | None = None, skipped: int = 0) -> list[dict[str, Any]]:
    """Tables in progress, then finished ones, latest first, from the `skipped`-th on; a
    finished table's winners come from its results (see save_results), empty until those
    are saved. With `finished_since` (the home page): only the tables in play and those
    finished since then, none closed."""
    where = (
        "" if finished_since is None
        else " WHERE t.closed_at IS NULL AND (t.status = 'playing' OR (t.status = 'finished' AND t.finished_at >= ?))"
    )
    tables = [
        {
            "id": id_,
            "game": game,
            "options": json.loads(options),
            "status": status,
            "current_seat": current_seat,
            "created_at": created_at,
            "updated_at": updated_at,
            "finished_at": finished_at,
            "players": [],
            "winners": [],
        }
        for id_, game, options, status, current_seat, created_at, updated_at, finished_at in db.execute(
            "SELECT t.id, t.game, t.options, t.status, t.current_seat, t.created_at, t.updated_at, t.finished_at"
            " FROM game_tables t" + where + " ORDER BY t.status != 'playing', t.updated_at DESC, t.id LIMIT ? OFFSET ?",
            ([] if finished_since is None else [finished_since]) + [limit, skipped],
        )
    ]
    if not tables:
        return tables
    by_id = {table["id"]: table for table in tables}
    marks = ", ".join("?" for _ in by_id)
    for table_id, name in db.execute(
        f"SELECT table_id, name FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat", list(by_id)
    ):
        by_id[table_id]["players"].append(name)
    for table_id, name in db.execute(
        "SELECT r.table_id, s.name FROM results r JOIN game_tables t ON t.id = r.table_id AND t.version = r.version"
        " JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat"
        f" WHERE r.table_id IN ({marks}) AND r.place = 1 ORDER BY r.table_id, r.seat",
        list(by_id),
    ):
        by_id[table_id]["winners"].append(name)
    return tables


def ping(db) -> None:
    db.execute("SELECT count(*) FROM game_tables WHERE id = ''").fetchone()


def poll_row(db, table_id: str) -> tuple[int, str | None] | None:
    """The polling fast path, and the cheap "does this table exist": the version and the
    rematch, one indexed lookup, no replay."""
    row = db.execute("SELECT version, rematch_id FROM game_tables WHERE id = ?", [table_id]).fetchone()
    return None if row is None else (row[0], row[1])


def page_mark(page: str | None, version: int) -> str | None:
    """What game_tables.moved_by_page holds: the page and the version its tap made. With the
    version in it, a mark left behind by a write that did not clear it (a server of an
    older version on the same PostgreSQL) never stands for a later version."""
    return None if page is None else f"{page}@{version}"


def held_row(db, table_id: str) -> tuple[int, str | None, str | None] | None:
    """What a held connection looks at when woken: poll_row and the page whose tap made
    the version (update_table)."""
    row = db.execute("SELECT version, rematch_id, moved_by_page FROM game_tables WHERE id = ?", [table_id]).fetchone()
    return None if row is None else (row[0], row[1], row[2])


# --- rematches ------------------------------------------------------------------------------
def set_rematch(db, table_id: str, rematch_id: str, host_sealed: str) -> None:
    db.execute(
        "UPDATE game_tables SET rematch_id = ?, rematch_host_sealed = ? WHERE id = ?", [rematch_id, host_sealed, table_id]
    )
    db.execute("UPDATE game_tables SET rematch_of = ? WHERE id = ?", [table_id, rematch_id])
    announce(db, table_id)  # the old table's phones follow their players to the rematch


def rematch_chain(db, table_id: str) -> list[str]:
    """The tables linked by rematches that `table_id` belongs to, first to last: an
    evening's game night."""
    first, seen = table_id, {table_id}
    while True:
        row = db.execute("SELECT rematch_of FROM game_tables WHERE id = ?", [first]).fetchone()
        if row is None or row[0] is None or row[0] in seen:
            break
        first = row[0]
        seen.add(first)
    chain = [first]
    while True:
        row = db.execute("SELECT rematch_id FROM game_tables WHERE id = ?", [chain[-1]]).fetchone()
        if row is None or row[0] is None or row[0] in chain:
            return chain
        chain.append(row[0])


def chain_results(db, table_ids: list[str]) -> list[dict[str, Any]]:
    """The saved results of these tables (finished, at their current version): per seat
    the table, the player's name and key, score and place."""
    marks = ", ".join("?" for _ in table_ids)
    rows = db.execute(
        "SELECT r.table_id, s.name, r.name_key, r.score, r.place FROM results r"
        " JOIN game_tables t ON t.id = r.table_id AND t.version = r.version AND t.status = 'finished'"
        " JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat"
        f" WHERE r.table_id IN ({marks})",
        table_ids,
    )
    return [
        {"table_id": table_id, "name": name, "name_key": key, "score": score, "place": place}
        for table_id, name, key, score, place in rows
    ]


# --- results: the history's and the players' pages' record -------------------------------------
def tables_without_results(db) -> list[str]:
    """Finished tables whose saved results are missing or older than the table."""
    rows = db.execute(
        "SELECT t.id FROM game_tables t WHERE t.status = 'finished' AND NOT EXISTS"
        " (SELECT 1 FROM results r WHERE r.table_id = t.id AND r.version = t.version)"
    )
    return [row[0] for row in rows]


def save_results(db, table_id: str, version: int, entries: list[dict[str, Any]]) -> None:
    """A finished table's ranking as of `version`: seat, name (kept case-folded), score, place."""
    db.execute("DELETE FROM results WHERE table_id = ?", [table_id])
    for entry in entries:
        _insert(
            db,
            "results",
            {
                "table_id": table_id,
                "version": version,
                "seat": entry["seat"],
                "name_key": name_key(entry["name"]),
                "score": entry["score"],
                "place": entry["place"],
            },
        )


def player_results(db, key: str) -> list[dict[str, Any]]:
    """Every finished table the player `key` (name_key) sat at, latest first."""
    rows = db.execute(
        "SELECT t.id, t.game, t.options, t.created_at, t.finished_at, s.name, r.score, r.place,"
        " (SELECT count(*) FROM seats WHERE table_id = t.id)"
        " FROM results r JOIN game_tables t ON t.id = r.table_id AND t.version = r.version AND t.status = 'finished'"
        " JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat"
        " WHERE r.name_key = ? ORDER BY t.finished_at DESC, t.id",
        [key],
    )
    return [
        {
            "id": id_,
            "game": game,
            "options": json.loads(options),
            "created_at": created_at,
            "finished_at": finished_at,
            "name": name,
            "score": score,
            "place": place,
            "players": players,
        }
        for id_, game, options, created_at, finished_at, name, score, place, players in rows
    ]


def seated_names(db, key: str | None = None) -> list[dict[str, Any]]:
    """Every seat of every table, or only the seats of the player `key` (name_key): who sat
    where, with the table's game, status and date, latest first."""
    rows = db.execute(
        "SELECT s.name, s.name_key, s.seat, t.id, t.game, t.options, t.status, t.updated_at"
        " FROM seats s JOIN game_tables t ON t.id = s.table_id"
        + ("" if key is None else " WHERE s.name_key = ?")
        + " ORDER BY t.updated_at DESC, t.id",
        [] if key is None else [key],
    )
    return [
        {
            "name": name, "name_key": key_, "seat": seat, "id": id_, "game": game, "options": json.loads(options),
            "status": status, "updated_at": updated_at,
        }
        for name, key_, seat, id_, game, options, status, updated_at in rows
    ]

"""The store: one connection to the companion's database, for one request or one tool,
and every SQL statement of the companion (Store), so the schema (schema.py) and the queries
that use it read side by side. No game logic here.

The SQL is what both databases understand alike (? placeholders: postgres.py turns them
into psycopg's). A dialect (SqliteStore in sqlite.py, PostgresStore in postgres.py) says
how its database runs a statement, takes the write lock, and tells the servers what moved;
everything above the store is shared. A storage failure (a full disk, a read-only file,
PostgreSQL out of reach, a lock held too long) is raised as StorageFailure, so no layer
above reads a driver's errors.

Longer than 400 lines on purpose: every statement of the companion is here.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

from . import snapshots


class StorageFailure(Exception):
    """The storage failing, nothing a player did: `busy` (another writer held the lock
    longer than a writer waits), `full` (no room on the disk), `unreachable` (a database
    server out of reach), or else the database cannot be written or read (read-only, gone).
    Raised from the driver's error, which the log names."""

    def __init__(self, error: BaseException, busy: bool = False, full: bool = False, unreachable: bool = False):
        super().__init__(str(error))
        self.busy, self.full, self.unreachable = busy, full, unreachable


# The log as it was at a table version: an event's seq is the version it made, and an undo
# marks the events it undid with the version it made (undone_version; none on events undone
# before that column existed, which count as undone). A reader that read the table's version
# and then its log reads them apart, and another process may write in between: reading the
# log as of that version keeps what it computes true of the version it is kept under.
IN_EFFECT_AS_OF = "seq <= ? AND (undone = 0 OR undone_version > ?)"


EVENT_COLUMNS = "seq, seat, by_host, action, undone, at, undone_at, undone_version, redo_of, skipped_version, undone_by_seat"


# The newest lines of a log reach back over its undone lines to `latest` lines in effect,
# and stop at this many times `latest` lines in all (the page renders them every version).
NEWEST_LINES_AT_MOST = 4


# Published parts are read within moments, when the phones of every server process are
# woken by the version they show; a table's next version replaces them. Those of a table
# that stopped moving go after this, so that its HTML does not stay in the database for
# ever (a few KB a part; a café's year of tables).
PARTS_KEPT_SECONDS = 60


# Every rematch chain (a game night) that a set of tables belongs to, in one query on both
# databases: `up` climbs from the tables given to the first table of each chain (UNION: each
# table once, however many of the given ones share it), `chain` walks down from those first
# tables by rematch_id. Was one query per table per step, per game of a player's page: 500
# chained rematches took /players/<name> 3.6-6.5 s. A chain never loops (a rematch is a new
# table); LONGEST_CHAIN stops a damaged database's loop all the same.
REMATCH_CHAINS = """WITH RECURSIVE
  up(id) AS (
    {start}
    UNION
    SELECT t.rematch_of FROM up JOIN game_tables t ON t.id = up.id WHERE t.rematch_of IS NOT NULL
  ),
  chain(id, first_id, position) AS (
    SELECT t.id, t.id, 0 FROM up JOIN game_tables t ON t.id = up.id WHERE t.rematch_of IS NULL
    UNION ALL
    SELECT t.rematch_id, chain.first_id, chain.position + 1 FROM chain JOIN game_tables t ON t.id = chain.id
    WHERE t.rematch_id IS NOT NULL AND chain.position < ?
  )
SELECT first_id, id FROM chain ORDER BY first_id, position"""


LONGEST_CHAIN = 100_000


# A name as typed is the person a host renamed or merged it into (the people table), else
# itself: joined by `name_key` of seats or results (as `x`), these give the person's key and
# the name shown for them (people.py).
PERSON_KEY = "COALESCE(p.person_key, {x}.name_key)"
PERSON_NAME = "COALESCE(p.name, s.name)"
JOIN_PERSON = " LEFT JOIN people p ON p.name_key = {x}.name_key"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """A player is their name, whatever its case: "ana" and "Ana" are one player (their
    memories, results and history, and two seats at one table cannot share it)."""
    return name.strip().casefold()


def _marks(values: list) -> str:
    """One placeholder per value, for `IN (...)`."""
    return ", ".join("?" for _ in values)


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


def page_mark(page: str | None, version: int) -> str | None:
    """What game_tables.moved_by_page holds: the page and the version its tap made. With the
    version in it, a mark left behind by a write that did not clear it (a server of an
    older version on the same PostgreSQL) never stands for a later version."""
    return None if page is None else f"{page}@{version}"


class Store:
    """One connection to the database and the caches kept per database (a table's states by
    version, the outcomes of its log lines, what can be redone at a version: snapshots.py).
    Subclasses give execute, transaction, close, and how the servers are told."""

    def __init__(self, database: str):
        self.database = database
        self.snapshots = snapshots.for_database(database)
        self.outcomes = snapshots.for_database(database, "outcomes")
        self.redoable = snapshots.for_database(database, "redoable")
        self.moved_here: set[str] = set()  # the tables the write under way moves (announce)
        self.held_announcements: set[str] | None = None  # see hold_announcements
        self.room_made = False  # a write refused for space was tried again (service.tried_once_more)

    # --- what each database does its own way ---------------------------------------------
    def execute(self, sql: str, params: Any = ()) -> Any:
        """Run one statement (? placeholders); a cursor. A storage failure: StorageFailure."""
        raise NotImplementedError

    @contextmanager
    def transaction(self, table_ids: tuple[str, ...], wait: bool) -> Iterator[None]:
        """A write transaction holding the write lock of `table_ids` from its start."""
        raise NotImplementedError
        yield

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def notify(self, table_id: str) -> None:
        """Inside a write: tell the servers `table_id` moved, at commit (PostgreSQL's NOTIFY)."""

    def ring(self) -> None:
        """After a commit: tell the servers that tables moved (SQLite's doorbell)."""

    def make_room(self) -> bool:
        """Give the database room to write after the disk was found full; whether it could."""
        return False

    # --- writing -----------------------------------------------------------------------------
    @contextmanager
    def write(self, *table_ids: str, wait: bool = True) -> Iterator[None]:
        """One write transaction that takes the write lock up front, so a read-then-write
        cannot be overtaken by another phone's write in between: SQLite's one lock for the
        whole database (BEGIN IMMEDIATE), PostgreSQL's lock of each of `table_ids`. Not
        `wait`: SQLite's busy error at once if another connection holds its lock."""
        self.moved_here = set()
        with self.transaction(table_ids, wait):
            yield
        if self.held_announcements is not None:
            self.held_announcements.update(self.moved_here)
        elif self.moved_here:
            self.ring()

    def announce(self, table_id: str) -> None:
        """Every server must see that `table_id` moved: PostgreSQL is told (NOTIFY, sent at
        commit); SQLite's servers see it by themselves (companion/server/notify.py), told to
        look at once by the doorbell the write rings once it has committed; or later
        (hold_announcements)."""
        self.moved_here.add(table_id)
        if self.held_announcements is None:
            self.notify(table_id)

    def hold_announcements(self) -> set[str]:
        """The tables that this connection's writes move from now on are announced to the
        servers only when the caller says (stop_holding, then announce_now): a tap's process
        first shares what it rendered of the new version for the watching phones
        (publish_parts), so that the other processes, woken, find it. A process that looks by
        itself in between (another table's doorbell, its half-second look) renders the
        version as before."""
        self.held_announcements = set()
        return self.held_announcements

    def stop_holding(self) -> set[str]:
        """The tables moved since hold_announcements, whose announcing is now the caller's."""
        held, self.held_announcements = self.held_announcements or set(), None
        return held

    def announce_now(self, table_ids: set[str]) -> None:
        """Tell the servers that `table_ids` moved, outside any write (see hold_announcements)."""
        with self.write():
            for table_id in sorted(table_ids):
                self.announce(table_id)

    # --- the companion's statements ----------------------------------------------------------
    def _insert(self, table: str, record: dict[str, Any], unless_taken: str | None = None) -> int:
        """INSERT one row; with `unless_taken` (a key column), nothing when that key is taken
        already. How many rows went in (0 or 1)."""
        columns = ", ".join(record)
        marks = ", ".join("?" for _ in record)
        ignore = "" if unless_taken is None else f" ON CONFLICT ({unless_taken}) DO NOTHING"
        return self.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks}){ignore}", list(record.values())).rowcount

    def insert_table(
        self, table_id: str, game: str, options: dict, deal: Any, host_token: str, names: list[str], seat_tokens: list[str]
    ) -> bool:
        """A new table and its seats; False (and nothing written) if `table_id` is taken."""
        stamp = now()
        inserted = self._insert("game_tables",
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
            self._insert("seats",
                {"table_id": table_id, "seat": seat, "name": name, "name_key": name_key(name), "token_hash": token_hash(token)},
            )
        return True

    def player_memories(self, game: str, names: list[str]) -> list[dict[str, Any]]:
        """Per name, what that player kept from earlier tables of `game`: {key: value}."""
        return [
            {
                key: json.loads(value)
                for key, value in self.execute(
                    "SELECT key, value FROM player_memories WHERE name_key = ? AND game = ?", [name_key(name), game]
                )
            }
            for name in names
        ]

    def remember(self, game: str, name: str, entries: dict[str, Any]) -> None:
        for key, value in entries.items():
            self.execute(
                "INSERT INTO player_memories (name_key, game, key, value, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (name_key, game, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                [name_key(name), game, key, json.dumps(value), now()],
            )

    def table_row(self, table_id: str) -> dict[str, Any] | None:
        cursor = self.execute("SELECT * FROM game_tables WHERE id = ?", [table_id])
        row = cursor.fetchone()
        if row is None:
            return None
        record = dict(zip([column[0] for column in cursor.description], row))
        record["options"] = json.loads(record["options"])
        record["deal"] = json.loads(record["deal"]) if record["deal"] is not None else None
        return record

    def seat_names(self, table_id: str) -> list[str]:
        return [row[0] for row in self.execute("SELECT name FROM seats WHERE table_id = ? ORDER BY seat", [table_id])]

    def seat_for_token(self, table_id: str, token: str) -> int | None:
        row = self.execute(
            "SELECT seat FROM seats WHERE table_id = ? AND token_hash = ?", [table_id, token_hash(token)]
        ).fetchone()
        return None if row is None else row[0]

    def is_host_token(self, table_id: str, token: str) -> bool:
        row = self.execute(
            "SELECT 1 FROM game_tables WHERE id = ? AND host_token_hash = ?", [table_id, token_hash(token)]
        ).fetchone()
        return row is not None

    def seat_opened_by(self, table_id: str, seat: int) -> str | None:
        """The phone whose page of the seat loaded last, if any did (migration 11, schema.py)."""
        row = self.execute("SELECT opened_by FROM seats WHERE table_id = ? AND seat = ?", [table_id, seat]).fetchone()
        return None if row is None else row[0]

    def opened_seats(self, table_id: str) -> set[int]:
        """The seats of the table that a phone opened (seat_opened_by)."""
        return {row[0] for row in self.execute("SELECT seat FROM seats WHERE table_id = ? AND opened_by IS NOT NULL", [table_id])}

    def open_seat(self, table_id: str, seat: int, phone: str) -> None:
        """The seat is open on `phone`, and no other seat of the table is any more: a phone that
        changed seats (Ana's, after scanning Bruno's code by mistake) leaves Bruno's unmarked."""
        self.execute("UPDATE seats SET opened_by = NULL WHERE table_id = ? AND opened_by = ? AND seat <> ?", [table_id, phone, seat])
        self.execute("UPDATE seats SET opened_by = ? WHERE table_id = ? AND seat = ?", [phone, table_id, seat])

    def find_seat_token(self, token: str) -> tuple[str, int] | None:
        """Which table and seat a join token belongs to."""
        row = self.execute("SELECT table_id, seat FROM seats WHERE token_hash = ?", [token_hash(token)]).fetchone()
        return None if row is None else (row[0], row[1])

    def moves(self, table_id: str, as_of: int | None = None) -> list[tuple[int, int, dict[str, Any]]]:
        """The actions still in effect, in order, as (seq, seat, action): what replay feeds
        the engine. With `as_of`, those in effect at that table version."""
        if as_of is None:
            rows = self.execute(
                "SELECT seq, seat, action FROM events WHERE table_id = ? AND undone = 0 ORDER BY seq", [table_id]
            )
        else:
            rows = self.execute(
                f"SELECT seq, seat, action FROM events WHERE table_id = ? AND {IN_EFFECT_AS_OF} ORDER BY seq",
                [table_id, as_of, as_of],
            )
        return [(seq, seat, json.loads(action)) for seq, seat, action in rows]

    def event_at(self, table_id: str, seq: int) -> tuple[int, dict[str, Any]] | None:
        """Seat and action of the event `seq` (the one that made table version `seq`), if any."""
        row = self.execute("SELECT seat, action FROM events WHERE table_id = ? AND seq = ?", [table_id, seq]).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def events(self, table_id: str, latest: int | None = None) -> list[dict[str, Any]]:
        """The whole log in order, or only its newest events: back to the `latest`-th still in
        effect, the undone ones among them too. After the host went back a few times the newest
        lines are mostly undone ones, and the lines still in effect (the ones to go back to)
        must stay in sight all the same."""
        if latest is None:
            rows = self.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE table_id = ? ORDER BY seq", [table_id])
        else:
            oldest_shown = "SELECT seq FROM events WHERE table_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1 OFFSET ?"
            rows = self.execute(
                f"SELECT * FROM (SELECT {EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq >= COALESCE(({oldest_shown}), 0)"
                " ORDER BY seq DESC LIMIT ?) AS latest ORDER BY seq",
                [table_id, table_id, latest - 1, latest * NEWEST_LINES_AT_MOST],
            )
        return _event_dicts(rows)

    def event(self, table_id: str, seq: int) -> dict[str, Any]:
        """Line `seq` of the log."""
        return _event_dicts(self.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq = ?", [table_id, seq]))[0]

    def events_as_of(self, table_id: str, version: int) -> list[dict[str, Any]]:
        """The whole log as it was at table `version`: the later events left out, and the
        undos made after it not made yet."""
        not_yet = "undone_version > ?"
        rows = self.execute(
            f"SELECT seq, seat, by_host, action, CASE WHEN {not_yet} THEN 0 ELSE undone END, at,"
            f" CASE WHEN {not_yet} THEN NULL ELSE undone_at END, CASE WHEN {not_yet} THEN NULL ELSE undone_version END,"
            " redo_of, CASE WHEN skipped_version > ? THEN NULL ELSE skipped_version END,"
            f" CASE WHEN {not_yet} THEN NULL ELSE undone_by_seat END"
            " FROM events WHERE table_id = ? AND seq <= ? ORDER BY seq",
            [version, version, version, version, version, table_id, version],
        )
        return _event_dicts(rows)

    def anything_undone(self, table_id: str, as_of: int | None = None) -> bool:
        """Whether an undo had taken back any of the table's actions by table version `as_of`
        (now if None). Without one, redoable finds nothing to redo: only an undo puts anything
        on offer. Undos made before they were numbered do not count there either."""
        by_then = "" if as_of is None else " AND undone_version <= ?"
        row = self.execute(
            f"SELECT 1 FROM events WHERE table_id = ? AND undone = 1 AND undone_version IS NOT NULL{by_then} LIMIT 1",
            [table_id] + ([] if as_of is None else [as_of]),
        ).fetchone()
        return row is not None

    def actions_after(self, table_id: str, version: int) -> list[tuple[int, dict[str, Any]]]:
        """Seat and action of every event accepted after the table's `version` (an event's seq
        is the version it made), undone ones included."""
        rows = self.execute("SELECT seat, action FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", [table_id, version])
        return [(seat, json.loads(action)) for seat, action in rows]

    def event_count(self, table_id: str) -> int:
        return self.execute("SELECT count(*) FROM events WHERE table_id = ?", [table_id]).fetchone()[0]

    def last_event_in_effect(self, table_id: str) -> dict[str, Any] | None:
        row = self.execute(
            "SELECT seq, seat, by_host FROM events WHERE table_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1",
            [table_id],
        ).fetchone()
        return None if row is None else {"seq": row[0], "seat": row[1], "by_host": bool(row[2])}

    def append_event(
        self, table_id: str, seq: int, seat: int, by_host: bool, action: dict[str, Any], redo_of: int | None = None
    ) -> None:
        self._insert("events",
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

    def mark_undone_from(self, table_id: str, seq: int, version: int, by_seat: int | None = None) -> int:
        """Undo the event `seq` and every later one still in effect, at table `version`; how many.
        `by_seat`: the seat taking back its own last action (None: the host going back)."""
        cursor = self.execute(
            "UPDATE events SET undone = 1, undone_at = ?, undone_version = ?, undone_by_seat = ?"
            " WHERE table_id = ? AND seq >= ? AND undone = 0",
            [now(), version, by_seat, table_id, seq],
        )
        return cursor.rowcount

    def mark_skipped(self, table_id: str, seq: int, version: int) -> None:
        """The undone event `seq` is not to be redone, as of table `version` (redoable); so
        are the undone lines that entered it again (the log marks each copy of it)."""
        self.execute(
            "UPDATE events SET skipped_version = ? WHERE table_id = ? AND (seq = ? OR redo_of = ?) AND undone = 1"
            " AND skipped_version IS NULL",
            [version, table_id, seq, seq],
        )

    def skips_after(self, table_id: str, version: int) -> int:
        """How many table versions after `version` were skips (each made a version, no event)."""
        return self.execute(
            "SELECT count(DISTINCT skipped_version) FROM events WHERE table_id = ? AND skipped_version > ?", [table_id, version]
        ).fetchone()[0]

    def event_in_effect(self, table_id: str, seq: int) -> dict[str, Any] | None:
        row = self.execute(
            "SELECT seq, seat, by_host FROM events WHERE table_id = ? AND seq = ? AND undone = 0", [table_id, seq]
        ).fetchone()
        return None if row is None else {"seq": row[0], "seat": row[1], "by_host": bool(row[2])}

    def publish_parts(self, table_id: str, version: int, parts: dict[str, str]) -> None:
        """Parts of the table's page rendered for `version` (web/fragments.py: the name of a part
        says what it shows and in what language), for every server process to read instead of
        rendering them; the table's older ones go, and any table's kept too long."""
        stamp = datetime.now(timezone.utc)
        too_old = (stamp - timedelta(seconds=PARTS_KEPT_SECONDS)).isoformat(timespec="seconds")
        self.execute("DELETE FROM rendered_parts WHERE table_id = ? AND version < ?", [table_id, version])
        self.execute("DELETE FROM rendered_parts WHERE published_at < ?", [too_old])
        for part, html in parts.items():
            self.execute(
                "INSERT INTO rendered_parts (table_id, version, part, html, published_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, version, part) DO NOTHING",
                [table_id, version, part, html, stamp.isoformat(timespec="seconds")],
            )

    def published_part(self, table_id: str, version: int, part: str) -> str | None:
        row = self.execute(
            "SELECT html FROM rendered_parts WHERE table_id = ? AND version = ? AND part = ?", [table_id, version, part]
        ).fetchone()
        return None if row is None else row[0]

    def update_table(self, table_id: str, version: int, status: str, current_seat: int | None, page: str | None = None) -> None:
        """`page`: the table page whose tap made this version (it has it from the tap's answer),
        or None (the API, another kind of change); kept as page_mark(page, version)."""
        stamp = now()
        finished_at = "COALESCE(finished_at, ?)" if status == "finished" else "NULL"
        self.execute(
            "UPDATE game_tables SET version = ?, status = ?, current_seat = ?, updated_at = ?, moved_by_page = ?,"
            f" finished_at = {finished_at} WHERE id = ?",
            [version, status, current_seat, stamp, page_mark(page, version)] + ([stamp] if status == "finished" else []) + [table_id],
        )
        self.announce(table_id)

    def close_table(self, table_id: str) -> None:
        """The host closed the table: it keeps its log and results; unfinished, it is abandoned.
        The version moves on, so every phone's next look shows it closed."""
        stamp = now()
        self.execute(
            "UPDATE game_tables SET closed_at = ?, updated_at = ?, version = version + 1, moved_by_page = NULL,"
            " status = CASE WHEN status = 'finished' THEN status ELSE 'abandoned' END WHERE id = ?",
            [stamp, stamp, table_id],
        )
        self.announce(table_id)

    def list_tables(self, limit: int = 50, finished_since: str | None = None, skipped: int = 0) -> list[dict[str, Any]]:
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
            for id_, game, options, status, current_seat, created_at, updated_at, finished_at in self.execute(
                "SELECT t.id, t.game, t.options, t.status, t.current_seat, t.created_at, t.updated_at, t.finished_at"
                " FROM game_tables t" + where + " ORDER BY t.status != 'playing', t.updated_at DESC, t.id LIMIT ? OFFSET ?",
                ([] if finished_since is None else [finished_since]) + [limit, skipped],
            )
        ]
        if not tables:
            return tables
        by_id = {table["id"]: table for table in tables}
        marks = ", ".join("?" for _ in by_id)
        for table_id, name in self.execute(
            f"SELECT table_id, name FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat", list(by_id)
        ):
            by_id[table_id]["players"].append(name)
        for table_id, name in self.execute(
            "SELECT r.table_id, s.name FROM results r JOIN game_tables t ON t.id = r.table_id AND t.version = r.version"
            " JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat"
            f" WHERE r.table_id IN ({marks}) AND r.place = 1 ORDER BY r.table_id, r.seat",
            list(by_id),
        ):
            by_id[table_id]["winners"].append(name)
        return tables

    def ping(self) -> None:
        self.execute("SELECT count(*) FROM game_tables WHERE id = ''").fetchone()

    def poll_row(self, table_id: str) -> tuple[int, str | None] | None:
        """The polling fast path, and the cheap "does this table exist": the version and the
        rematch, one indexed lookup, no replay."""
        row = self.execute("SELECT version, rematch_id FROM game_tables WHERE id = ?", [table_id]).fetchone()
        return None if row is None else (row[0], row[1])

    def held_row(self, table_id: str) -> tuple[int, str | None, str | None] | None:
        """What a held connection looks at when woken: poll_row and the page whose tap made
        the version (update_table)."""
        row = self.execute("SELECT version, rematch_id, moved_by_page FROM game_tables WHERE id = ?", [table_id]).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    # --- rematches ------------------------------------------------------------------------------
    def set_rematch(self, table_id: str, rematch_id: str, host_sealed: str) -> None:
        self.execute(
            "UPDATE game_tables SET rematch_id = ?, rematch_host_sealed = ? WHERE id = ?", [rematch_id, host_sealed, table_id]
        )
        self.execute("UPDATE game_tables SET rematch_of = ? WHERE id = ?", [table_id, rematch_id])
        self.announce(table_id)  # the old table's phones follow their players to the rematch

    def unlink_rematch(self, table_id: str, rematch_id: str) -> None:
        """`table_id`'s rematch `rematch_id` was given up (closed before its end): the table
        no longer leads to it, its phones no longer follow it, the game night leaves it out,
        and a new rematch can start. A new version, so every phone's page of the table (and
        every part rendered for the old one) shows the Rematch button again."""
        self.execute(
            "UPDATE game_tables SET rematch_id = NULL, rematch_host_sealed = NULL, version = version + 1, moved_by_page = NULL"
            " WHERE id = ? AND rematch_id = ?",
            [table_id, rematch_id],
        )
        self.announce(table_id)

    def rematch_chains(self, start: str, parameters: list) -> list[list[str]]:
        """The chains of tables linked by rematches (each first to last) that the tables
        selected by the SQL `start` (one column of ids) belong to."""
        chains: dict[str, list[str]] = {}
        for first_id, table_id in self.execute(REMATCH_CHAINS.format(start=start), [*parameters, LONGEST_CHAIN]):
            chains.setdefault(first_id, []).append(table_id)
        return list(chains.values())

    def rematch_chain(self, table_id: str) -> list[str]:
        """The tables linked by rematches that `table_id` belongs to, first to last: an
        evening's game night."""
        chains = self.rematch_chains("SELECT ?", [table_id])
        return chains[0] if chains else [table_id]

    def player_rematch_chains(self, key: str) -> list[list[str]]:
        """The chains that the finished tables of the person `key` belong to."""
        keys = self.person_name_keys(key)
        return self.rematch_chains("SELECT r.table_id FROM results r JOIN game_tables t ON t.id = r.table_id AND t.version = r.version"
            f" AND t.status = 'finished' WHERE r.name_key IN ({_marks(keys)})",
            keys,
        )

    def chain_results(self, table_ids: list[str]) -> list[dict[str, Any]]:
        """The saved results of these tables (finished, at their current version): per seat
        the table, the person's name and key (renamed and merged names followed), score and place."""
        marks = ", ".join("?" for _ in table_ids)
        rows = self.execute(
            f"SELECT r.table_id, {PERSON_NAME}, {PERSON_KEY.format(x='r')}, r.score, r.place FROM results r"
            " JOIN game_tables t ON t.id = r.table_id AND t.version = r.version AND t.status = 'finished'"
            " JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat"
            + JOIN_PERSON.format(x="r")
            + f" WHERE r.table_id IN ({marks})",
            table_ids,
        )
        return [
            {"table_id": table_id, "name": name, "name_key": key, "score": score, "place": place}
            for table_id, name, key, score, place in rows
        ]

    def finished_between(self, since: str, until: str) -> list[dict[str, Any]]:
        """The tables finished from `since` up to (not including) `until` (store.now()'s
        stamps), in the order they finished: a game night's (companion.tables.night)."""
        rows = self.execute(
            "SELECT id, game, options, finished_at, rematch_of FROM game_tables"
            " WHERE status = 'finished' AND finished_at >= ? AND finished_at < ? ORDER BY finished_at, created_at, id",
            [since, until],
        )
        return [
            {"id": id_, "game": game, "options": json.loads(options), "finished_at": finished_at, "rematch_of": rematch_of}
            for id_, game, options, finished_at, rematch_of in rows
        ]

    def opponents(self, key: str, at_least: int) -> list[dict[str, Any]]:
        """Everyone who finished `at_least` games at a table with the person `key`: their key,
        their name (as at the latest of those tables), the games, how many of them `key` won
        and how many they won (first places, shared ones included). Counted by the database:
        a person's thousands of tables are not read row by row."""
        keys = self.person_name_keys(key)
        rows = self.execute(
            f"""WITH mine AS (
              SELECT r.table_id, r.version, min(r.place) AS place FROM results r
              JOIN game_tables t ON t.id = r.table_id AND t.version = r.version AND t.status = 'finished'
              WHERE r.name_key IN ({_marks(keys)}) GROUP BY r.table_id, r.version
            ), theirs AS (
              SELECT r.table_id, {PERSON_KEY.format(x='r')} AS person, {PERSON_NAME} AS name, r.place,
                row_number() OVER (PARTITION BY {PERSON_KEY.format(x='r')} ORDER BY t.updated_at DESC, t.id) AS latest
              FROM mine JOIN results r ON r.table_id = mine.table_id AND r.version = mine.version
              JOIN game_tables t ON t.id = r.table_id
              JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat
              {JOIN_PERSON.format(x="r")}
            )
            SELECT theirs.person, max(CASE WHEN theirs.latest = 1 THEN theirs.name END), count(DISTINCT theirs.table_id),
              count(DISTINCT CASE WHEN mine.place = 1 THEN theirs.table_id END),
              count(DISTINCT CASE WHEN theirs.place = 1 THEN theirs.table_id END)
            FROM theirs JOIN mine ON mine.table_id = theirs.table_id
            WHERE theirs.person <> ?
            GROUP BY theirs.person HAVING count(DISTINCT theirs.table_id) >= ?""",
            [*keys, key, at_least],
        )
        return [
            {"key": person, "name": name, "games": games, "wins": wins, "their_wins": their_wins}
            for person, name, games, wins, their_wins in rows
        ]

    # --- results: the history's and the players' pages' record -------------------------------------
    def tables_without_results(self) -> list[str]:
        """Finished tables whose saved results are missing or older than the table."""
        rows = self.execute(
            "SELECT t.id FROM game_tables t WHERE t.status = 'finished' AND NOT EXISTS"
            " (SELECT 1 FROM results r WHERE r.table_id = t.id AND r.version = t.version)"
        )
        return [row[0] for row in rows]

    def save_results(self, table_id: str, version: int, entries: list[dict[str, Any]]) -> None:
        """A finished table's ranking as of `version`: seat, name (kept case-folded), score, place."""
        self.execute("DELETE FROM results WHERE table_id = ?", [table_id])
        for entry in entries:
            self._insert("results",
                {
                    "table_id": table_id,
                    "version": version,
                    "seat": entry["seat"],
                    "name_key": name_key(entry["name"]),
                    "score": entry["score"],
                    "place": entry["place"],
                },
            )

    def player_results(self, key: str) -> list[dict[str, Any]]:
        """Every finished table the person `key` sat at (under any name merged into them), latest first."""
        keys = self.person_name_keys(key)
        rows = self.execute(
            "SELECT t.id, t.game, t.options, t.created_at, t.finished_at, s.name, r.score, r.place,"
            " (SELECT count(*) FROM seats WHERE table_id = t.id)"
            " FROM results r JOIN game_tables t ON t.id = r.table_id AND t.version = r.version AND t.status = 'finished'"
            " JOIN seats s ON s.table_id = r.table_id AND s.seat = r.seat"
            f" WHERE r.name_key IN ({_marks(keys)}) ORDER BY t.finished_at DESC, t.id",
            keys,
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

    def seated_names(self, key: str | None = None) -> list[dict[str, Any]]:
        """Every seat of every table, or only the seats of the person `key`: who sat where (the
        person's name and key, and the name as typed), with the table's game, status and date,
        latest first."""
        keys = None if key is None else self.person_name_keys(key)
        rows = self.execute(
            f"SELECT {PERSON_NAME}, {PERSON_KEY.format(x='s')}, s.name, s.seat, t.id, t.game, t.options, t.status, t.updated_at"
            " FROM seats s JOIN game_tables t ON t.id = s.table_id"
            + JOIN_PERSON.format(x="s")
            + ("" if keys is None else f" WHERE s.name_key IN ({_marks(keys)})")
            + " ORDER BY t.updated_at DESC, t.id",
            [] if keys is None else keys,
        )
        return [
            {
                "name": name, "name_key": key_, "typed": typed, "seat": seat, "id": id_, "game": game,
                "options": json.loads(options), "status": status, "updated_at": updated_at,
            }
            for name, key_, typed, seat, id_, game, options, status, updated_at in rows
        ]

    # --- people: names as typed that a host renamed or merged (tables/people.py) --------------
    def person_of(self, key: str) -> str:
        """The person the name `key` (name_key) is: the one it was renamed or merged into, or itself."""
        row = self.execute("SELECT person_key FROM people WHERE name_key = ?", [key]).fetchone()
        return key if row is None else row[0]

    def person_name_keys(self, key: str) -> list[str]:
        """Every name (name_key) that is the person `key`: the names merged into them, and
        their own unless it was merged into someone else."""
        keys = [row[0] for row in self.execute("SELECT name_key FROM people WHERE person_key = ? ORDER BY name_key", [key])]
        return keys if key in keys or self.person_of(key) != key else [key, *keys]

    def name_people(self, keys: list[str], person_key: str, name: str) -> None:
        """The names `keys` are the person `person_key`, shown as `name`, from now on."""
        for key in keys:
            self.execute(
                "INSERT INTO people (name_key, person_key, name) VALUES (?, ?, ?)"
                " ON CONFLICT (name_key) DO UPDATE SET person_key = excluded.person_key, name = excluded.name",
                [key, person_key, name],
            )

    def separate_name(self, key: str) -> bool:
        """The name `key` is its own person again, as typed; whether it was someone else's."""
        return self.execute("DELETE FROM people WHERE name_key = ?", [key]).rowcount > 0

    def people_record(self) -> dict[str, dict[str, int]]:
        """Per person key: finished games and wins (first places, shared ones included)."""
        rows = self.execute(
            f"SELECT {PERSON_KEY.format(x='r')}, count(*), sum(CASE WHEN r.place = 1 THEN 1 ELSE 0 END) FROM results r"
            " JOIN game_tables t ON t.id = r.table_id AND t.version = r.version AND t.status = 'finished'"
            + JOIN_PERSON.format(x="r")
            + f" GROUP BY {PERSON_KEY.format(x='r')}"
        )
        return {key: {"games": games, "wins": wins} for key, games, wins in rows}

    def person_names_at(self, table_id: str) -> dict[int, str]:
        """Per seat of the table, the name of the person who sat there (renames followed)."""
        rows = self.execute(
            f"SELECT s.seat, {PERSON_NAME} FROM seats s" + JOIN_PERSON.format(x="s") + " WHERE s.table_id = ?", [table_id]
        )
        return dict(rows.fetchall())

    def person_sat_at(self, key: str, table_ids: list[str]) -> bool:
        """Whether the person `key` sat at any of these tables."""
        if not table_ids:
            return False
        keys = self.person_name_keys(key)
        row = self.execute(
            f"SELECT 1 FROM seats WHERE table_id IN ({_marks(table_ids)}) AND name_key IN ({_marks(keys)}) LIMIT 1",
            [*table_ids, *keys],
        ).fetchone()
        return row is not None

    def sat_together(self, key: str, other: str) -> bool:
        """Whether the people `key` and `other` ever sat at one table (two people, then)."""
        keys, others = self.person_name_keys(key), self.person_name_keys(other)
        row = self.execute(
            "SELECT 1 FROM seats a JOIN seats b ON b.table_id = a.table_id AND b.seat <> a.seat"
            f" WHERE a.name_key IN ({_marks(keys)}) AND b.name_key IN ({_marks(others)}) LIMIT 1",
            [*keys, *others],
        ).fetchone()
        return row is not None

    # --- saved option sets: the start form offers them by game (Game.preset_name) ------------
    def save_preset(self, game: str, name: str, options: dict[str, Any]) -> None:
        """Keep `options` for `game` under `name` (one set per name, whatever its case), or
        replace the set kept under it: the latest is offered first. Inside the caller's write."""
        self.execute(
            "INSERT INTO option_presets (game, name_key, name, options, used_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game, name_key) DO UPDATE SET name = excluded.name, options = excluded.options, used_at = excluded.used_at",
            # to the microsecond: sets saved within one second (a script's tables) keep their order
            [game, name_key(name), name, json.dumps(options), datetime.now(timezone.utc).isoformat()],
        )

    def offered_presets(self, most: int) -> dict[str, list[dict[str, Any]]]:
        """By game, its saved sets, latest first (at most `most` each): name and options. Only
        those are read, however many a year of tables saved (every home page asks)."""
        found: dict[str, list[dict[str, Any]]] = {}
        rows = self.execute(
            "SELECT game, name, options FROM (SELECT game, name, options, used_at, name_key,"
            " row_number() OVER (PARTITION BY game ORDER BY used_at DESC, name_key) AS latest FROM option_presets) AS ranked"
            " WHERE latest <= ? ORDER BY game, used_at DESC, name_key",
            [most],
        )
        for game, name, options in rows:
            found.setdefault(game, []).append({"name": name, "options": json.loads(options)})
        return found

    def find_preset(self, game: str, name: str) -> dict[str, Any] | None:
        """The options kept for `game` under `name`, if any."""
        row = self.execute(
            "SELECT options FROM option_presets WHERE game = ? AND name_key = ?", [game, name_key(name)]
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def forget_preset(self, game: str, name: str) -> bool:
        """Stop offering the set kept for `game` under `name`; whether there was one."""
        return self.execute("DELETE FROM option_presets WHERE game = ? AND name_key = ?", [game, name_key(name)]).rowcount > 0

"""The companion's schema, for both databases from one source: MIGRATIONS, each moving the
schema one step up. Never edit a step that has shipped: add the next one.

SQLite counts the steps a database has taken (PRAGMA user_version). PostgreSQL came at step
7, when its schema version 1 was steps 1 to 7 at once: its companion_schema table counts from
there (version = steps - 6), and a new PostgreSQL database takes every step, each the
PostgreSQL way where a step says one (Step.postgresql).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

# Each upgrade of a database, step by step, at INFO: what an operator reads after an update.
log = logging.getLogger("companion.schema")


@dataclass(frozen=True)
class Step:
    sql: str  # both databases'
    postgresql: str | None = None  # PostgreSQL's own, where it differs ("": nothing to do there)

    def statements(self, dialect: str) -> list[str]:
        """This step's statements one by one, for "sqlite" or "postgresql"."""
        if dialect == "postgresql":
            script = self.sql if self.postgresql is None else self.postgresql
            return [statement for statement in re.split(r";\s*(?:\n|$)", script) if statement.strip()]
        return sqlite_statements(self.sql)


def sqlite_statements(script: str) -> list[str]:
    """A step's statements, one by one: split at each `;` that ends a statement (a trigger's
    body holds several)."""
    found, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending)
            pending = ""
    return found


MIGRATIONS: list[Step] = [

    Step("""
    CREATE TABLE game_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        host_token_hash TEXT NOT NULL UNIQUE,
        version INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'playing',
        current_seat INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE INDEX game_tables_by_status ON game_tables (status, updated_at);
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        seq INTEGER NOT NULL,
        seat INTEGER,
        by_host INTEGER NOT NULL DEFAULT 0,
        action TEXT NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        at TEXT NOT NULL,
        undone_at TEXT,
        PRIMARY KEY (table_id, seq)
    );
    """),
    # Whatever chance decided at the start (Lobo's dealt colours): kept out of `options`,
    # which every phone may read.
    Step("""
    ALTER TABLE game_tables ADD COLUMN deal TEXT;
    """),
    # What a player set up once and their next tables start from (a copied score sheet),
    # by player name (case-folded) and game.
    Step("""
    CREATE TABLE player_memories (
        name_key TEXT NOT NULL,
        game TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (name_key, game, key)
    );
    """),
    # Rematches: the table a rematch came from, and on the old table the rematch's id and
    # its host token sealed with the server's secret (phones joined to the old table are
    # handed their new seat from it). Results: each finished table's places and scores as
    # of its version, read by the history and the players' pages without replaying.
    Step("""
    ALTER TABLE game_tables ADD COLUMN rematch_of TEXT;
    ALTER TABLE game_tables ADD COLUMN rematch_id TEXT;
    ALTER TABLE game_tables ADD COLUMN rematch_host_sealed TEXT;
    CREATE TABLE results (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        name_key TEXT NOT NULL,
        score INTEGER NOT NULL,
        place INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX results_by_player ON results (name_key);
    """),
    # Each seat's player key (store.name_key), so a player's page finds their tables through
    # an index instead of reading every seat; the seats already there get theirs.
    # (PostgreSQL: no seat to give a key to: no PostgreSQL database predates this step.)
    Step(
        """
    ALTER TABLE seats ADD COLUMN name_key TEXT;
    UPDATE seats SET name_key = companion_name_key(name);
    CREATE INDEX seats_by_player ON seats (name_key);
    """,
        postgresql="""
    ALTER TABLE seats ADD COLUMN name_key TEXT;
    CREATE INDEX seats_by_player ON seats (name_key);
    """,
    ),
    # Going back to any line and redoing: the table version an event was undone at (which
    # undone actions can still be redone), and on a redone action the event it repeats.
    # Closing: when the host closed a table (an unfinished one becomes 'abandoned').
    Step("""
    ALTER TABLE events ADD COLUMN undone_version INTEGER;
    ALTER TABLE events ADD COLUMN redo_of INTEGER;
    ALTER TABLE game_tables ADD COLUMN closed_at TEXT;
    """),
    # The order tables moved in: whatever moves a table's version or rematch (an action, an
    # undo, a rematch, closing, or a hand at the sqlite3 prompt) takes the next number of a
    # counter, so each server process' notifier reads just the tables moved since it last
    # looked (companion/server/notify.py), not every table its phones follow. A counter of
    # its own, not max(moved) + 1: that would go back when a table is deleted, and the moves
    # numbered again below what a notifier has seen would never be read.
    # (PostgreSQL: nothing. Its servers are told by NOTIFY, store.announce.)
    Step(
        """
    CREATE TABLE table_moves (last INTEGER NOT NULL);
    INSERT INTO table_moves (last) VALUES (0);
    ALTER TABLE game_tables ADD COLUMN moved INTEGER;
    CREATE INDEX game_tables_by_move ON game_tables (moved);
    CREATE TRIGGER game_tables_move AFTER UPDATE OF version, rematch_id ON game_tables
    BEGIN
        UPDATE table_moves SET last = last + 1;
        UPDATE game_tables SET moved = (SELECT last FROM table_moves) WHERE id = NEW.id;
    END;
    """,
        postgresql="",
    ),
    # The table page whose tap made the table's version, if a page's tap made it (as
    # "<page id>@<version>", store.page_mark): that page has the version from its tap's
    # answer, so its held connection does not render and send it again.
    Step("""
    ALTER TABLE game_tables ADD COLUMN moved_by_page TEXT;
    """),
    # An undone action the host (or its player) chose not to redo: the table version that
    # took it out of the redo offer (corrections.redoable). It stays in the log, undone.
    Step("""
    ALTER TABLE events ADD COLUMN skipped_version INTEGER;
    """),
    # The seat that took back its own last action (an undo by its player, not the host's
    # going back; NULL for those and for undos made before): it stays in the redo offer
    # only until the table moves on without it (corrections.redoable).
    Step("""
    ALTER TABLE events ADD COLUMN undone_by_seat INTEGER;
    """),
    # The phone (a random id in its cookie, no secret) whose table page of the seat loaded
    # last: another phone scanning the seat's code is asked first (web/pages.py, join).
    Step("""
    ALTER TABLE seats ADD COLUMN opened_by TEXT;
    """),
    # What a tap's process rendered of the table's newest version for the phones watching
    # it (web/fragments.py), read by the other server processes instead of rendering it again;
    # removed by a later publishing once a minute old (store.publish_parts).
    Step("""
    CREATE TABLE rendered_parts (
        table_id TEXT NOT NULL REFERENCES game_tables (id),
        version INTEGER NOT NULL,
        part TEXT NOT NULL,
        html TEXT NOT NULL,
        published_at TEXT NOT NULL,
        PRIMARY KEY (table_id, version, part)
    );
    CREATE INDEX rendered_parts_by_age ON rendered_parts (published_at);
    """),
    # A rematch given up before its end (closed, so abandoned) is no table of the game night:
    # the table it was started from leads to it no more (store.unlink_rematch, which closing
    # such a rematch now does), in a new version, so its phones show the Rematch button again.
    Step("""
    UPDATE game_tables SET rematch_id = NULL, rematch_host_sealed = NULL, version = version + 1, moved_by_page = NULL
        WHERE rematch_id IN (SELECT id FROM game_tables WHERE status = 'abandoned');
    """),
    # Option sets a host saved by name (the score pad's sheets), offered on the start form by
    # game, the latest first (Store.save_preset).
    Step("""
    CREATE TABLE option_presets (
        game TEXT NOT NULL,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        options TEXT NOT NULL,
        used_at TEXT NOT NULL,
        PRIMARY KEY (game, name_key)
    );
    """),
    # People: a name as typed (store.name_key) that a host renamed or merged into another
    # person, and the person it is now (their key and the name shown for them). Seats and
    # results keep the name as typed; the history reads it through this (tables/people.py).
    Step("""
    CREATE TABLE people (
        name_key TEXT NOT NULL PRIMARY KEY,
        person_key TEXT NOT NULL,
        name TEXT NOT NULL
    );
    CREATE INDEX people_by_person ON people (person_key);
    """),
]

# A PostgreSQL database's schema version 1 was steps 1 to 7 at once.
POSTGRESQL_STEPS_BEFORE_ITS_FIRST_VERSION = 6


def postgresql_version(steps: int) -> int:
    """The number a PostgreSQL database keeps for having taken `steps` steps."""
    return max(0, steps - POSTGRESQL_STEPS_BEFORE_ITS_FIRST_VERSION)


def postgresql_steps(version: int) -> int:
    """The steps a PostgreSQL database of schema `version` has taken."""
    return version + POSTGRESQL_STEPS_BEFORE_ITS_FIRST_VERSION if version else 0


class NewerThanCode(Exception):
    """The database has taken `steps` steps, more than MIGRATIONS holds: a newer companion
    upgraded it, and this one would misread it (its writes lost to the newer code)."""

    def __init__(self, steps: int):
        super().__init__(steps)
        self.steps = steps


class BackUpFirst(Exception):
    """A PostgreSQL database with tables has taken `steps` steps, fewer than MIGRATIONS
    holds: `companion db upgrade` takes the rest once its operator has backed it up
    (postgres.migrate)."""

    def __init__(self, steps: int):
        super().__init__(steps)
        self.steps = steps


def log_upgrade(database: str, steps: int, backup: Path | None) -> None:
    """Said before the first step of an existing database's upgrade (log_step says each
    step); a new one is made without a word (serve prints the database it opened)."""
    if not steps:
        return
    kept = f"; its copy before the upgrade is {backup}" if backup else ""
    log.info("Upgrading the database %s from schema step %d to %d%s.", database, steps, len(MIGRATIONS), kept)


def log_step(database: str, number: int, upgrading: bool) -> None:
    if upgrading:
        log.info("Database %s: schema step %d of %d taken.", database, number, len(MIGRATIONS))

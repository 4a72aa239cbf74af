"""`companion db status` and `companion db upgrade`: the database's schema, told and brought up
to date by an operator (the companion serves only a database at its own schema step); and
what `companion serve` says when it made a new database."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys

from .. import __version__
from ..paths import another_data_folder, default_database
from ..tables import database, postgres, schema


def configured_database() -> str:
    """The database `companion serve` would open."""
    return os.environ.get("COMPANION_DATABASE") or str(default_database())


def status(args: argparse.Namespace) -> int:
    """The database, its schema step and this companion's, and the steps a start (or
    `companion db upgrade`) would take. 1 when it cannot be read or is newer than the code."""
    name = configured_database()
    shown = postgres.shown(name)
    code = len(schema.MIGRATIONS)
    try:
        found = database.schema_steps(name)
    except (sqlite3.Error, *postgres.storage_errors()) as error:
        print(f"The database {shown} cannot be read: {str(error).strip()}", file=sys.stderr)
        return 1
    print(f"Database: {shown}")
    print(f"Schema of the database: {'none yet' if found is None else f'step {found}'}")
    print(f"Schema of this companion ({__version__}): step {code}")
    if found is None:
        print("Pending: none; the companion makes the database when it first starts.")
    elif found > code:
        print(database.newer_than_code(shown, found), file=sys.stderr)
        return 1
    elif found == code:
        print("Pending: none; the database is up to date.")
    else:
        print(f"Pending: steps {found + 1} to {code} ({code - found}), {how_it_is_upgraded(name)}.")
    return 0


def how_it_is_upgraded(name: str) -> str:
    if postgres.is_url(name):
        return "taken by companion db upgrade once the database is backed up (companion backup FILE)"
    return "taken at the next start (or by companion db upgrade) after a copy is made beside the database"


def upgrade(args: argparse.Namespace) -> int:
    """Take the pending steps now: SQLite after its copy beside the database, PostgreSQL (whose
    servers refuse to start on an older schema) once its operator has backed it up."""
    name = configured_database()
    shown = postgres.shown(name)
    try:
        before = database.schema_steps(name)
        if before is None and not postgres.is_url(name):
            print(f"No database at {shown}: the companion makes it when it first starts.", file=sys.stderr)
            return 1
        copy = database.upgrade(name)
    except schema.NewerThanCode as newer:
        print(database.newer_than_code(shown, newer.steps), file=sys.stderr)
        return 1
    except (sqlite3.Error, *postgres.storage_errors()) as error:
        print(f"The database {shown} could not be upgraded ({str(error).strip()}); nothing was changed.", file=sys.stderr)
        return 1
    code = len(schema.MIGRATIONS)
    if before == code:
        print(f"The database {shown} is up to date (schema step {code}).")
    else:
        kept = f"; its copy from before is {copy}" if copy else ""
        print(f"Upgraded the database {shown} from schema step {before or 0} to {code}{kept}.")
    return 0


def add_to(commands) -> None:
    """The `db` command and its two subcommands, on `companion`'s parser."""
    db = commands.add_parser("db", help="the database's schema: its status, its upgrade")
    actions = db.add_subparsers(dest="action", required=True)
    actions.add_parser(
        "status", help="the database, its schema step and this companion's, and the steps to take"
    ).set_defaults(handler=status)
    actions.add_parser(
        "upgrade", help="take the pending steps now (PostgreSQL: once the database is backed up)"
    ).set_defaults(handler=upgrade)


def opened_new(database_existed: bool, instance: str) -> str | None:
    """What `companion serve` says once it has made a new SQLite database: that the data
    folder was empty, and how to use an existing one (moving from a checkout's scripts/serve
    to an installed companion showed an empty companion: its data had stayed behind)."""
    if database_existed or postgres.is_url(configured_database()):
        return None
    other = another_data_folder()
    if other is not None:
        return (
            f"{instance} held no database, so a new one was made. This companion's earlier data is in {other}"
            f" (the checkout it was installed from): to use it, stop this one and start it with"
            f" COMPANION_INSTANCE={other} companion serve."
        )
    return (
        f"{instance} held no database, so a new one was made. To use an existing data folder instead, stop this"
        " one and start it with COMPANION_INSTANCE=<that folder> companion serve."
    )

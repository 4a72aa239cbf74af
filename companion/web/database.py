"""The store of the request under way (flaskr's get_db): taken from the app's database
(tables/database.py) on first use, given back when the request ends. Under the push server a
writer waits for a lock and for PostgreSQL by gevent's ways, the notifier's."""

from __future__ import annotations

from flask import Flask, current_app, g

from ..tables.database import Database
from ..tables.store import Store
from . import push_mode

DATABASE = "companion.database"


def install(app: Flask, database: Database) -> None:
    app.extensions[DATABASE] = database
    app.teardown_appcontext(close_db)


def of(app: Flask) -> Database:
    """The app's database (create_app opened it)."""
    return app.extensions[DATABASE]


def database() -> Database:
    return of(current_app)


def get_db() -> Store:
    if "db" not in g:
        notifier = push_mode.current()
        g.db = database().store(pause=None if notifier is None else notifier.pause, green=notifier is not None)
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    store = g.pop("db", None)
    if store is not None:
        database().release(store)

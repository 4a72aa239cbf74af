"""The companion on PostgreSQL: COMPANION_DATABASE=postgresql://user@host/name.

For a café chain or a convention hall: several companion servers share one PostgreSQL
database, and a change saved through one reaches the phones held by every other
(LISTEN/NOTIFY, companion/server/notify.py). SQLite stays the embedded default; this
module gives store.py a database with the same small surface as the SQLite one
(`execute` with ? placeholders, `transaction`, the in-memory caches), so every query and
every rule above the store are shared. psycopg 3 and its pool come with the project's
`postgres` extra (from a clone: pip install '.[postgres]').

A write takes its tables' locks (transaction-level advisory locks, one per table id)
where SQLite takes the database's (BEGIN IMMEDIATE): writes to different tables run side
by side, writes to one table queue, and each reads the table only once it holds the lock
(READ COMMITTED: every statement sees what was committed before it), so two servers
acting on one table never lose an update.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator
from urllib.parse import unquote, urlsplit, urlunsplit

from . import schema
from .store import StorageFailure, Store

SCHEMES = ("postgresql://", "postgres://")
# The NOTIFY channel on which a write names the table it moved.
CHANNEL = "companion_tables"
# The first key of every advisory lock the companion takes (two int4 keys: this, then the
# hashed table id), so the companion's locks never meet another program's on a shared server.
LOCK_NAMESPACE = 0x636F6D70  # "comp"
# Connections per server process. A request holds one only while it reads or writes (no
# held phone connection keeps one while it waits), so a few serve thousands of phones.
# The settings read from the environment: (default, least, most, what the number is).
POOL_SETTING = "COMPANION_DATABASE_POOL", (8, 1, 100, "how many connections each server process keeps to PostgreSQL")
# A machine that starts PostgreSQL and the companion at once (both services at boot) may
# start the companion first: it waits this long for PostgreSQL to answer at all.
WAIT_SETTING = "COMPANION_DATABASE_WAIT", (30, 0, 3600, "how many seconds to wait for PostgreSQL at start")


def setting(name: str, bounds: tuple[int, int, int, str]) -> int:
    """A whole-number setting from the environment, its default when unset; a ValueError
    with a sentence when it is anything but a number within its bounds."""
    default, least, most, meaning = bounds
    typed = os.environ.get(name, "").strip()
    if not typed:
        return default
    if not (typed.isascii() and typed.isdigit()) or not least <= int(typed) <= most:
        raise ValueError(f"{name} is {meaning}, from {least} to {most}: {typed[:32]!r} is not one.")
    return int(typed)


def _pool_size() -> int:
    """Checked with a sentence when the companion starts (db.open_database); here, where a
    pool is made later, anything wrong cannot reach: the default then."""
    try:
        return setting(*POOL_SETTING)
    except ValueError:
        return POOL_SETTING[1][0]


POOL_SIZE = _pool_size()  # made smaller at start when PostgreSQL has too few connections (size_pools)
# How long a request waits for a pooled connection when none can be made (PostgreSQL
# unreachable) before it is answered 503 with a sentence.
POOL_WAIT_SECONDS = 3.0
# psycopg's pool tries a lost connection again after 1, 2, 4, 8… s (no upper bound) for 5
# minutes: after an outage of a minute the companion stayed unreachable for another half
# minute. Given up this soon, the attempt ends, and the next request starts a new one at
# once, so the companion is back within seconds of PostgreSQL.
RECONNECT_GIVE_UP_SECONDS = 5.0



class TooFewConnections(ValueError):
    """PostgreSQL's max_connections cannot hold every server process' pool: the sentence
    gives the budget."""


def size_pools(url: str, processes: int) -> str:
    """Fit `processes` pools (and a notifier's connection each) into what PostgreSQL has
    left: its max_connections, less those reserved for its superuser and those in use now
    (other companion servers, tools). COMPANION_DATABASE_POOL given: that size, or
    TooFewConnections; not given: the default, made smaller to fit, or TooFewConnections
    when not even one connection each fits. A sentence saying the budget (for the console)."""
    global POOL_SIZE
    explicit = bool(os.environ.get(POOL_SETTING[0], "").strip())
    wanted = setting(*POOL_SETTING)
    with connect(url, "companion-start") as conn:
        most = int(conn.execute("SHOW max_connections").fetchone()[0])
        reserved = sum(
            int(value) for (value,) in conn.execute(
                "SELECT setting FROM pg_settings WHERE name IN ('superuser_reserved_connections', 'reserved_connections')"
            )
        )
        in_use = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    left = most - reserved - in_use
    fits = left // processes - 1  # each process: its pool, and its notifier's connection
    budget = (
        f"{processes} processes × {{each}} connections = {{total}} of PostgreSQL's {most}, with {reserved} reserved"
        f" and {in_use} in use already"
    )
    if fits >= wanted:
        POOL_SIZE = wanted
    elif not explicit and fits >= 1:
        POOL_SIZE = fits
    else:
        each = wanted + 1 if explicit or fits < 1 else fits + 1
        raise TooFewConnections(
            budget.format(each=each, total=processes * each) + f": too many. Start fewer processes (--processes),"
            f" set {POOL_SETTING[0]} lower, or raise max_connections in PostgreSQL's settings."
        )
    return "PostgreSQL connections: " + budget.format(each=POOL_SIZE + 1, total=processes * (POOL_SIZE + 1)) + "."


def is_url(database: str) -> bool:
    return database.startswith(SCHEMES)


def _query_without_password(query: str) -> tuple[str, str | None]:
    """A libpq URL's query without its `password=` parameter (libpq reads one there too),
    and that password (percent-decoded)."""
    kept, password = [], None
    for pair in query.split("&") if query else []:
        name, _, value = pair.partition("=")
        if name == "password":
            password = unquote(value)
        else:
            kept.append(pair)
    return "&".join(kept), password


def shown(url: str) -> str:
    """The URL without its password (in its user part or its query): for the console and the logs."""
    parts = urlsplit(url)
    query, in_query = _query_without_password(parts.query)
    if parts.password is None and in_query is None:
        return url
    netloc = parts.netloc
    if parts.password is not None:
        host = parts.hostname or ""
        netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    if in_query is not None:
        query = "&".join(filter(None, [query, "password=***"]))
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def without_password(url: str) -> tuple[str, str | None]:
    """`url` without its password, and the password (percent-decoded): a program given the
    URL on its command line shows it to anyone who lists the processes, so the password
    goes to it through its environment (PGPASSWORD) instead. libpq takes it from the user
    part or from the query's `password=`: both are taken out."""
    parts = urlsplit(url)
    query, in_query = _query_without_password(parts.query)
    if parts.password is None and in_query is None:
        return url, None
    netloc = parts.netloc
    if parts.password is not None:
        netloc = (parts.username or "") + "@" + parts.netloc.rsplit("@", 1)[1]
    password = unquote(parts.password) if parts.password is not None else in_query
    return urlunsplit(parts._replace(netloc=netloc, query=query)), password


def _psycopg():
    try:
        import psycopg
    except ImportError:
        raise SystemExit(
            # The extra comes from the clone, or is injected into pipx's environment, which
            # pipx names after the distribution (the postgres extra of pyproject.toml).
            "COMPANION_DATABASE names a PostgreSQL database, but psycopg is not installed: from a clone,"
            " pip install '.[postgres]' (scripts/serve does it by itself); installed with pipx,"
            " pipx inject tabletop-companion 'psycopg[binary]>=3.2,<4' 'psycopg-pool>=3.2,<4'."
        ) from None
    return psycopg


@functools.cache
def storage_errors() -> tuple[type[BaseException], ...]:
    """What PostgreSQL answers when it cannot be reached or used (the server down, the
    connection lost): the storage failing, not a bug in a query. Empty without psycopg."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        return ()
    return (psycopg.OperationalError, psycopg_pool.PoolTimeout)


def _statement(sql: str) -> str:
    """store.py's SQL, written with SQLite's ? placeholders, in psycopg's %s style."""
    return sql.replace("%", "%%").replace("?", "%s")


# Statements that only read: outside a transaction, one that meets a broken connection
# is run again once on a fresh one (a write is not: it may have been done).
READS = ("SELECT", "WITH")


class PostgresStore(Store):
    """One pooled connection in autocommit mode, for one request: the store on PostgreSQL.
    `exchange(broken connection)`: a fresh connection in its place."""

    def __init__(self, url: str, connection, give_back: Callable[[Any], None], exchange: Callable[[Any], Any]):
        super().__init__(url)
        self.conn = connection
        self.give_back = give_back
        self.exchange = exchange
        self.writing = False

    def execute(self, sql: str, params: Iterable[Any] = ()):
        params = list(params)
        try:
            return self.conn.execute(_statement(sql), params)
        except storage_errors() as error:
            if self.writing or not self.conn.broken or not sql.lstrip().upper().startswith(READS):
                raise failure(error) from error
            # A restart of PostgreSQL broke this connection after the pool checked it: the
            # read is run again, once, on a fresh one, instead of failing its request.
            try:
                # given back once: should no fresh one come, the store holds none (close)
                broken, self.conn = self.conn, None
                self.conn = self.exchange(broken)
                return self.conn.execute(_statement(sql), params)
            except storage_errors() as again:
                raise failure(again) from again

    @contextmanager
    def transaction(self, table_ids: tuple[str, ...], wait: bool) -> Iterator[None]:
        """A write: BEGIN, each table's lock (in one order, so two writers never wait for
        each other), the caller's statements, COMMIT (or ROLLBACK on any error)."""
        self.writing = True
        try:
            with self.conn.transaction():
                for table_id in sorted(set(table_ids)):
                    self.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", [LOCK_NAMESPACE, table_id])
                yield
        except storage_errors() as error:
            raise failure(error) from error
        finally:
            self.writing = False

    def notify(self, table_id: str) -> None:
        """Tell every companion server that `table_id` moved: NOTIFY, delivered when the
        write commits (and never if it rolls back)."""
        self.execute("SELECT pg_notify(?, ?)", [CHANNEL, table_id])

    def close(self) -> None:
        self.give_back(self.conn)


POSTGRESQL_DISK_FULL = "53100"  # SQLSTATE of a PostgreSQL that answers but cannot write


def failure(error: BaseException) -> StorageFailure:
    """PostgreSQL's `error` (storage_errors) as the storage failing: out of reach (down, the
    network), unless it answers that its disk is full."""
    full = getattr(error, "sqlstate", None) == POSTGRESQL_DISK_FULL
    return StorageFailure(error, full=full, unreachable=not full)


class Pool:
    """psycopg's connection pool for one process. Under the push server (gevent) every
    psycopg wait is made gevent's (green_wait), and a gevent semaphore lets no more
    requests in than there are connections, so none ever waits inside the pool (whose
    waits are threads', which would stop every other connection of the process)."""

    def __init__(self, url: str, green: bool):
        from psycopg_pool import ConnectionPool

        self.url = url
        self.green = green
        self.refused = 0  # requests that could have no connection since one last could
        if green:
            import gevent.lock

            use_green_waits()
            self.gate = gevent.lock.BoundedSemaphore(POOL_SIZE)
            size = dict(min_size=POOL_SIZE, max_size=POOL_SIZE)  # all opened up front: none made while a phone waits
        else:
            self.gate = None
            size = dict(min_size=1, max_size=POOL_SIZE)
        # check: each connection is tried (an empty statement, one round trip) before a
        # request gets it, so one that a restart of PostgreSQL broke is replaced unseen.
        self.pool = ConnectionPool(
            url, kwargs={"autocommit": True, "application_name": "companion"}, open=True, name="companion",
            timeout=POOL_WAIT_SECONDS, reconnect_timeout=RECONNECT_GIVE_UP_SECONDS,
            check=ConnectionPool.check_connection, **size
        )

    def take(self) -> PostgresStore:
        """A store on a connection of the pool; no connection to be had in time (PostgreSQL
        unreachable): StorageFailure."""
        if self.gate is None:
            try:
                store = PostgresStore(self.url, self.pool.getconn(), self.give_back, self.exchange)
            except storage_errors() as error:
                self.refused += 1
                raise failure(error) from error
        else:
            self.gate.acquire()
            try:
                store = PostgresStore(self.url, self._green_getconn(), self.give_back, self.exchange)
            except BaseException as error:
                self.gate.release()
                if isinstance(error, storage_errors()):
                    self.refused += 1
                    raise failure(error) from error
                raise
        if self.refused:
            # the end of an outage, said once (its failures were logged as repeats of one line)
            logging.getLogger("companion").info(
                "PostgreSQL answers again (%s request%s could not have a connection meanwhile).",
                self.refused, "" if self.refused == 1 else "s",
            )
            self.refused = 0
        return store

    def exchange(self, broken):
        """A checked connection in place of `broken` (dropped by the pool), for the same
        request: its place under the gate is kept."""
        self.pool.putconn(broken)
        return self.pool.getconn() if self.gate is None else self._green_getconn()

    def _green_getconn(self):
        """A connection, waiting gevent's way: when none can be had at once (PostgreSQL
        unreachable, the pool making new ones), the pool is asked again every 50 ms and the
        process' other connections go on meanwhile, instead of one wait of up to
        POOL_WAIT_SECONDS in the pool's thread lock that would hold them all."""
        import gevent
        from psycopg_pool import PoolTimeout

        deadline = time.monotonic() + POOL_WAIT_SECONDS
        while True:
            try:
                return self.pool.getconn(timeout=0.001)
            except PoolTimeout:
                if time.monotonic() >= deadline:
                    raise
                gevent.sleep(0.05)

    def give_back(self, connection) -> None:
        """The request's connection back to the pool (None: its retry found no fresh one),
        and its place under the gate."""
        broken = connection is not None and connection.broken  # read first: the pool may close what it drops
        try:
            if connection is not None:
                self.pool.putconn(connection)  # a broken one is dropped, and another made
            if broken:
                # PostgreSQL went away (a restart): the pool's other connections are likely
                # broken too. Each would fail the request it is handed once; checked now,
                # the broken ones are replaced before any request gets them.
                self.pool.check()
        finally:
            if self.gate is not None:
                self.gate.release()

    def close(self) -> None:
        self.pool.close()


_pools: dict[tuple[int, str], Pool] = {}
_pools_lock = threading.Lock()


def pool_for(url: str, green: bool) -> Pool:
    """This process' pool for `url` (a forked server process makes its own)."""
    key = (os.getpid(), url)
    pool = _pools.get(key)
    if pool is None:
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = Pool(url, green)
    return pool


def close_pools(url: str) -> None:
    """Close this process' pool for `url`, if it has one (an app done with its database)."""
    pool = _pools.pop((os.getpid(), url), None)
    if pool is not None:
        pool.close()


def use_green_waits() -> None:
    """Make psycopg wait the way gevent does: its own wait (in C) would block the whole
    process while one request waits for PostgreSQL."""
    from psycopg import waiting

    waiting.wait = green_wait


def green_wait(gen, fileno: int, interval: float = 0.0, timeout: float | None = None):
    """psycopg's wait protocol (see psycopg.waiting.wait_select) on gevent's select, which
    has no limit on descriptor numbers (a push server holds thousands)."""
    from gevent import select as green_select
    from psycopg import errors
    from psycopg.waiting import READY_R, READY_W, WAIT_R, WAIT_W

    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        wanted = next(gen)
        while True:
            wait_for = interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic()))
            readable, writable, _ = green_select.select(
                [fileno] if wanted & WAIT_R else [], [fileno] if wanted & WAIT_W else [], [], wait_for
            )
            wanted = gen.send((READY_R if readable else 0) | (READY_W if writable else 0))
            if deadline is not None and time.monotonic() >= deadline:
                raise errors._WaitTimeout("wait timeout expired")
    except StopIteration as finished:
        return finished.value


def connect(url: str, application_name: str = "companion"):
    """A connection of its own (migrations, the notifier), autocommit."""
    return _psycopg().connect(url, autocommit=True, application_name=application_name)


def open_database(url: str) -> PostgresStore:
    """A store on a connection of its own, outside any pool (tools, the tests)."""

    def exchange(broken):
        broken.close()
        return connect(url)

    return PostgresStore(url, connect(url), lambda conn: conn.close(), exchange)


class NotPermitted(ValueError):
    """The companion's role may not create its tables: the sentence names the fix."""


def not_permitted(url: str, error: BaseException) -> NotPermitted:
    """PostgreSQL 15 lets only the database's owner create tables in its `public` schema
    (earlier versions let every role): a role that owns neither is refused at migration."""
    parts = urlsplit(url)
    role, name = parts.username or "<the companion's role>", parts.path.lstrip("/") or "<the database>"
    return NotPermitted(
        f"The role {role} may not create the companion's tables in the database {name} ({str(error).strip().splitlines()[0]}):"
        f" make the role own the database and its public schema. As PostgreSQL's superuser: ALTER DATABASE {name}"
        f" OWNER TO {role}; then, connected to {name}, ALTER SCHEMA public OWNER TO {role}; (a new database:"
        f" createdb --owner {role} {name}). Then start the companion again."
    )


def migrate_once_it_answers(url: str) -> None:
    """migrate(); while no PostgreSQL server answers at all (not started yet), try again every
    second for COMPANION_DATABASE_WAIT seconds. A server that answers and refuses (a wrong
    password, no such database) raises at once; a role that may not create the tables raises
    NotPermitted."""
    wait = setting(*WAIT_SETTING)
    deadline = time.monotonic() + wait
    said = False
    while True:
        try:
            return migrate(url)
        except _psycopg().errors.InsufficientPrivilege as error:
            raise not_permitted(url, error) from None
        except storage_errors() as error:
            if "FATAL:" in str(error) or time.monotonic() >= deadline:  # libpq's words for a server that refused
                raise
            if not said:
                logging.getLogger("companion").warning(
                    "Waiting for PostgreSQL at %s to answer (up to %s s; %s)...", shown(url), wait, WAIT_SETTING[0]
                )
                said = True
            time.sleep(1)


def migrate(url: str, backed_up: bool = False) -> None:
    """Take the steps of schema.MIGRATIONS the database has not taken, the PostgreSQL way,
    each logged. Two servers starting at once: one migrates, the other waits for its lock
    and finds nothing left to do. schema.NewerThanCode when a newer companion upgraded it;
    schema.BackUpFirst when it has tables to upgrade and the operator has not said they are
    backed up (`backed_up`: companion db upgrade). Nothing is changed then.

    The companion does not run pg_dump itself before an upgrade: on a server machine it may
    be missing or of another major version than the database, a dump of a large database
    would hold every server's start, and the operator's backups (where, how long kept) are
    theirs to run. So an upgrade is one deliberate command after `companion backup`."""
    with connect(url) as conn:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", [LOCK_NAMESPACE])
            conn.execute("CREATE TABLE IF NOT EXISTS companion_schema (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM companion_schema").fetchone()
            if row is None:
                conn.execute("INSERT INTO companion_schema (version) VALUES (0)")
            taken = schema.postgresql_steps(0 if row is None else row[0])
            if taken > len(schema.MIGRATIONS):
                raise schema.NewerThanCode(taken)
            if 0 < taken < len(schema.MIGRATIONS) and not backed_up:
                raise schema.BackUpFirst(taken)
            if taken < len(schema.MIGRATIONS):
                schema.log_upgrade(shown(url), taken, None)
            for number, step in enumerate(schema.MIGRATIONS[taken:], start=taken + 1):
                for statement in step.statements("postgresql"):
                    conn.execute(statement)
                if number >= schema.POSTGRESQL_STEPS_BEFORE_ITS_FIRST_VERSION + 1:
                    conn.execute("UPDATE companion_schema SET version = %s", [schema.postgresql_version(number)])
                schema.log_step(shown(url), number, upgrading=taken > 0)


def schema_steps(url: str) -> int | None:
    """The schema steps the database has taken (0: none yet), read without changing it; None
    when it holds no companion."""
    with connect(url) as conn:
        found = conn.execute("SELECT to_regclass('companion_schema') IS NOT NULL").fetchone()[0]
        if not found:
            return None
        row = conn.execute("SELECT version FROM companion_schema").fetchone()
        return schema.postgresql_steps(0 if row is None else row[0])

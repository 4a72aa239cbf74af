"""The two databases the companion runs on, for the tests. A real PostgreSQL server: Debian's PostgreSQL (scripts/test installs it),
started in a folder of its own on a free loopback port, a fresh database per test.

PostgreSQL refuses to run as root (CI runs the tests as root): then the server runs as
the `postgres` user that Debian's package creates.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest

from companion.tables import postgres


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian keeps it off the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(Path(path).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """`durable`: PostgreSQL's own defaults (fsync, synchronous commit), for benchmarks;
    else test settings that skip the disk. `max_connections`: room for every companion
    process' pool, unless a test wants fewer."""

    def __init__(self, durable: bool = False, max_connections: int = 400):
        self.durable = durable
        self.max_connections = max_connections
        self.bin = binaries()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed: scripts/test installs it (Debian's postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="companion-postgresql-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0
        self.names = itertools.count(1)
        self.databases: list[str] = []
        self.template: str | None = None  # the migrated database new ones copy

    def run(self, *command: str, check: bool = True) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_postgres else []
        subprocess.run(prefix + list(command), check=check, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/")

    def start(self) -> "PostgresServer":
        if self.as_postgres:
            shutil.chown(self.folder, "postgres")
        self.run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                 "--no-locale", "--no-sync")
        self.start_again()
        return self

    def start_again(self) -> None:
        # Test settings: no fsync (the tests kill companion processes, never this server),
        # room for every companion process' pool.
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections={self.max_connections}"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"),
                 "-w", "start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, migrated: bool = True) -> str:
        """A new database: its URL. `migrated`: a copy of one the companion migrated once per
        server (CREATE DATABASE ... TEMPLATE: a file copy, where migrating every test's own
        database cost most of a PostgreSQL test); else empty, as a new install finds it."""
        template = self._migrated_template() if migrated else "template1"
        name = f"companion_{os.getpid()}_{next(self.names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        self.databases.append(self.url(name))
        return self.url(name)

    def _migrated_template(self) -> str:
        if self.template is None:
            name = f"companion_template_{os.getpid()}"
            with psycopg.connect(self.url(), autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {name}")
            postgres.migrate(self.url(name))
            self.template = name
        return self.template

    def stop(self) -> None:
        for url in self.databases:  # else their pools' workers try to reconnect, and say so, until the run ends
            postgres.close_pools(url)
        try:
            # (a test may have stopped it already)
            self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop", check=False)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


DATABASES = ("sqlite", "postgresql")


def make_database(kind: str, request, tmp_path: Path) -> str:
    if kind == "sqlite":
        return str(tmp_path / "companion.sqlite3")
    url = request.getfixturevalue("postgres_server").new_database()
    request.addfinalizer(lambda: postgres.close_pools(url))  # the test's app is gone: its connections too
    return url


def on_both_databases():
    """The `database` fixture of a suite that runs against SQLite and against PostgreSQL:
    `database = on_both_databases()` in its module or conftest.py."""

    @pytest.fixture(params=DATABASES, name="database")
    def each_database(request, tmp_path: Path) -> str:
        return make_database(request.param, request, tmp_path)

    return each_database

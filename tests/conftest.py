"""Shared fixtures: an app on a temporary SQLite file (or, where a suite runs on both
databases, on a fresh PostgreSQL database), and a real server over HTTP."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import pytest
import requests
from hypothesis import HealthCheck, settings
from waitress.server import create_server

from companion.web.app import create_app
from databases import PostgresServer, make_database
from played import start_options
from servers import running_companion


# The two tiers. The default run (`scripts/test`) leaves out the tests marked below and
# plays few random examples: a few minutes on two cores, for every change. `--all` (CI,
# `scripts/test --all`) runs every test and plays many examples.
LONGER_TIER = ("browser", "postgresql", "slow")
# Hypothesis: how many random examples a property plays in each tier, by what one example
# costs. "engine": the pure rules (the default profile); "app": through Flask and a
# database (test client); "served": through a real server process.
EXAMPLES = {
    "default": {"engine": 10, "app": 6, "served": 3},
    "all": {"engine": 100, "app": 100, "served": 12},
}


def pytest_addoption(parser):
    parser.addoption(
        "--all",
        action="store_true",
        dest="all_tiers",
        help="every test (browser, PostgreSQL and slow ones too) with many Hypothesis examples: what CI runs",
    )


def pytest_configure(config):
    """A run started in the background by a script ignores SIGINT (the shell's rule for
    background jobs), and so would every server a test starts, inheriting it: a test's
    Ctrl+C would then stop nothing. The tests' servers get SIGINT as from a terminal.

    Hypothesis' profiles are registered here, before any test module is imported (their
    decorators read them): `settings.get_profile("app")` in a module."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for kind, examples in EXAMPLES["all" if config.getoption("all_tiers") else "default"].items():
        settings.register_profile(
            kind,
            max_examples=examples,
            deadline=None,  # shared, noisy machines: speed is for bench/, never a test's verdict
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        )
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("engine")


def pytest_itemcollected(item):
    """A test on the PostgreSQL side of a suite on both databases is marked postgresql (as the
    browser tests are marked browser), and one that starts `companion serve` (push_server)
    slow, so `-m` can choose or leave out either."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("database") == "postgresql":
        item.add_marker(pytest.mark.postgresql)
    if "push_server" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)  # once every folder's conftest.py marked its tests
def pytest_collection_modifyitems(config, items):
    """The default run leaves out the longer tier (LONGER_TIER), unless the run says what it
    wants: `--all`, test files or folders (`scripts/test tests/browser`), or markers (`-m`)."""
    if config.getoption("all_tiers") or config.getoption("markexpr") or config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    longer = [item for item in items if any(item.get_closest_marker(name) for name in LONGER_TIER)]
    if longer:
        left_out = set(map(id, longer))
        items[:] = [item for item in items if id(item) not in left_out]
        config.hook.pytest_deselected(items=longer)


def pytest_report_header(config):
    if config.getoption("all_tiers"):
        return "tiers: all (browser, PostgreSQL and slow tests included)"
    return "tiers: the default one (browser, PostgreSQL and slow tests left out: add --all for everything)"


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server for the whole run (each test gets a database of its own)."""
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def database(tmp_path: Path) -> str:
    """The companion's DATABASE: a SQLite file, unless the suite runs on both databases."""
    return make_database("sqlite", None, tmp_path)


@pytest.fixture
def app(database: str):
    return create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


class LiveServer:
    """The companion on waitress in a thread, on a free loopback port."""

    def __init__(self, app):
        self.app = app
        self.server = create_server(app, host="127.0.0.1", port=0, threads=8)
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        app.config["PUBLIC_URL"] = self.url
        self.stopping = False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        try:
            self.server.run()
        except OSError:
            # stop() closed the sockets under the loop's select(): the end, not a failure
            if not self.stopping:
                raise

    def start(self) -> "LiveServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping = True
        self.server.close()

    def create(self, players=("Ana", "Bruno", "Caio"), game="pickomino", options=None) -> dict:
        response = requests.post(
            self.url + "/api/tables",
            json={"game": game, "players": list(players), "options": start_options(game) if options is None else options},
        )
        response.raise_for_status()
        return response.json()


@pytest.fixture
def live_server(app):
    server = LiveServer(app).start()
    yield server
    server.stop()


@pytest.fixture
def push_server(tmp_path):
    """`companion serve` as users run it (the push server, two processes) on a fresh
    database in a free loopback port: its address."""
    with running_companion(tmp_path) as url:
        yield url

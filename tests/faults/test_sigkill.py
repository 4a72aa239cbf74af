"""The server process killed (SIGKILL) while many phones write to many tables: started again
on the same database, it still has every action a phone got a 200 for, and every table a
201 created, and SQLite's integrity check passes. On SQLite and on PostgreSQL.

What is promised: an acknowledged write is committed before its answer is sent, and with
WAL and synchronous=FULL (companion/db.py) a commit is on the disk at that moment, so it
survives the process being killed (tested here) and the machine losing power (which a
test cannot do; FULL's fsync per commit is what covers it).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
import requests
from databases import on_both_databases
from .workload import Writers

pytestmark = pytest.mark.slow  # kills real server processes under writes

database = on_both_databases()

TABLES = 12
ACKNOWLEDGED_BEFORE_KILL = 400  # enough writes that the kill falls in the middle of many


def test_sigkill_while_phones_write_loses_no_acknowledged_action(companion_process):
    server = companion_process()
    writers = Writers(server.url, TABLES).start()
    try:
        writers.wait_for(ACKNOWLEDGED_BEFORE_KILL)
        server.kill()  # the phones are still writing
    finally:
        writers.stop()
    acknowledged = writers.acknowledged
    assert not acknowledged.unexpected
    assert acknowledged.count() >= ACKNOWLEDGED_BEFORE_KILL

    if not server.database.startswith("postgresql://"):  # PostgreSQL itself was not killed
        with closing(sqlite3.connect(server.database)) as conn:  # as the kill left it, before any restart
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    restarted = companion_process()
    for table_id, actions in acknowledged.actions.items():
        headers = {"Authorization": f"Bearer {writers.host_tokens[table_id]}"}
        events = requests.get(f"{restarted.url}/api/tables/{table_id}/log", headers=headers).json()["events"]
        logged = {event["seq"]: event["action"] for event in events if not event["undone"]}
        for version, action in actions.items():
            assert logged.get(version) == action, (table_id, version)
        if table_id in acknowledged.last_answer:
            token, last = acknowledged.last_answer[table_id]
            state = requests.get(f"{restarted.url}/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}).json()
            # A write may have been committed with its answer lost in the kill: the table is
            # then further on. Otherwise it is exactly as its last answer showed it.
            assert state["version"] >= last["version"]
            if state["version"] == last["version"]:
                assert state == last
    for table_id, names in acknowledged.created.items():
        table = requests.get(f"{restarted.url}/api/tables/{table_id}").json()
        assert [player["name"] for player in table["players"]] == names

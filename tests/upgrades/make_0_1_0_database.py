"""Makes tests/upgrades/companion-0.1.0.sqlite3: a database written by release 0.1.0 (commit
7e96c8d, schema step 5), for test_upgrades.py. Run with 0.1.0's code first on the path:

    git archive 7e96c8d | tar -x -C /tmp/companion-0.1.0
    PYTHONPATH=/tmp/companion-0.1.0 .venv/bin/python tests/upgrades/make_0_1_0_database.py tests/upgrades/companion-0.1.0.sqlite3

It plays through 0.1.0's JSON API and pages (its tests/played.py): a finished Pickomino and
its rematch under way, a Lobo game of three with its dealt colours, and a Pickomino table
with an undone action. Not imported by any test: it is how the fixture was made.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

target = Path(sys.argv[1]).resolve()
os.environ["COMPANION_INSTANCE"] = tempfile.mkdtemp()
os.environ.pop("COMPANION_DATABASE", None)

import companion  # noqa: E402  (0.1.0's, from PYTHONPATH)
from tests.played import act, create, joined, play_lobo, play_pickomino  # noqa: E402  (0.1.0's)

assert not hasattr(companion, "__version__"), "run with 0.1.0's code first on PYTHONPATH"
app = companion.create_app({"TESTING": True})
client = app.test_client()

finished = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
play_pickomino(client, finished)
bruno = joined(app, finished.seats[1])
page = bruno.get("/").get_data(as_text=True)
token = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
assert bruno.post(f"/t/{finished.id}/rematch", data={"csrf_token": token}).status_code == 303

lobo = create(client, "lobo", ("Dora", "Emil", "Fay"))
play_lobo(client, lobo, [1, 2, 3])

undone = create(client, "pickomino", ("Gil", "Hana"))
act(client, undone, undone.host, {"type": "set_aside", "face": "worm", "count": 2})
assert client.post(f"/api/tables/{undone.id}/undo", json={}, headers={"Authorization": f"Bearer {undone.host}"}).status_code == 200

database = Path(app.config["DATABASE"])
import sqlite3  # noqa: E402

with sqlite3.connect(database) as conn:
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 5
conn.close()
target.write_bytes(database.read_bytes())
print(f"{target}: tables {[finished.id, lobo.id, undone.id]}")

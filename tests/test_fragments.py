"""Parts of the table page shared between the phones (companion/web/fragments.py): the
grill, the turn and the log are rendered once per table version and language, and every
phone still sees the table as it is now, in its own language, with as much log as it asked
for."""

from __future__ import annotations

import re

from companion.tables import log_lines
from played import act, create, joined, play_pickomino, take_tile

POLL = {"HX-Request": "true"}


def grill(page: str) -> str:
    return re.search(r'<section class="grill".*?</section>', page, re.S).group(0)


def lines_of_the_log(page: str) -> list[str]:
    log = re.search(r'<details class="log".*?</details>', page, re.S).group(0)
    return [re.sub(r"<[^>]+>|\s+", " ", line).strip() for line in re.findall(r"<li.*?</li>", log, re.S)]


def tiles_on_grill(page: str) -> list[int]:
    return [int(value) for value in re.findall(r'<span class="tile-value[^"]*">(\d+)</span>', grill(page))]


def test_every_phone_sees_the_grill_and_log_of_the_latest_version_whoever_refreshes_first(app, client):
    table = create(client)
    ana, bruno = joined(app, table.seats[0]), joined(app, table.seats[1])
    for turn, (first, second) in enumerate([(ana, bruno), (bruno, ana), (ana, bruno)]):
        take_tile(client, table, 21 + turn)
        pages = [first.get(f"/t/{table.id}/poll?v=-1", headers=POLL).text, second.get(f"/t/{table.id}/poll?v=-1", headers=POLL).text]
        for page in pages:
            assert tiles_on_grill(page)[0] == 22 + turn  # the tiles taken so far are gone
            assert len(lines_of_the_log(page)) == 3 * (turn + 1)  # each tile: worms, one more face, stop
        assert grill(pages[0]) == grill(pages[1])
    undone = client.post(f"/api/tables/{table.id}/undo", json={}, headers={"Authorization": f"Bearer {table.host}"})
    assert undone.status_code == 200
    for phone in (bruno, ana):
        page = phone.get(f"/t/{table.id}/poll?v=-1", headers=POLL).text
        assert "(undone)" in lines_of_the_log(page)[0]


def test_each_phone_reads_the_shared_parts_in_its_own_language(app, client):
    table = create(client)
    take_tile(client, table, 21)
    english, portuguese = joined(app, table.seats[0]), joined(app, table.seats[1])
    english_page = english.get(f"/t/{table.id}", headers={"Accept-Language": "en"}).text
    portuguese_page = portuguese.get(f"/t/{table.id}", headers={"Accept-Language": "pt"}).text
    assert "Game log" in english_page and "Registo do jogo" not in english_page
    assert "Game log" not in portuguese_page
    assert lines_of_the_log(english_page) != lines_of_the_log(portuguese_page)
    assert grill(english_page) != grill(portuguese_page)  # the worms' titles, in words


def test_the_whole_log_and_the_newest_lines_are_kept_apart(app, client):
    table = create(client)
    for tile in range(21, 27):
        take_tile(client, table, tile)
    ana, bruno = joined(app, table.seats[0]), joined(app, table.seats[1])
    newest = lines_of_the_log(ana.get(f"/t/{table.id}").text)
    whole = lines_of_the_log(bruno.get(f"/t/{table.id}?log=all").text)
    assert len(newest) == 12
    assert len(whole) > 12
    assert whole[:12] == newest


def test_the_phones_of_a_table_share_one_reading_of_the_log_per_version(app, client, monkeypatch):
    table = create(client)
    take_tile(client, table, 21)
    phones = [joined(app, token) for token in table.seats]
    readings = []
    original_log = log_lines.log
    monkeypatch.setattr(log_lines, "log", lambda *args, **kwargs: readings.append(1) or original_log(*args, **kwargs))
    for phone in phones:
        assert phone.get(f"/t/{table.id}/poll?v=-1", headers=POLL).status_code == 200
    assert len(readings) == 1
    act(client, table, table.host, {"type": "set_aside", "face": "worm", "count": 1})
    for phone in phones:
        phone.get(f"/t/{table.id}/poll?v=-1", headers=POLL)
    assert len(readings) == 2


def test_a_seated_phone_never_gets_the_shared_table_of_a_phone_that_only_looks(app, client):
    """After the game a seated phone is offered the rematch (a form with its own token);
    a phone that only looks is not. Whichever refreshes first, each gets its own."""
    table = create(client)
    play_pickomino(client, table)
    watcher = app.test_client()
    assert "Rematch</button>" not in watcher.get(f"/t/{table.id}/poll?v=-1", headers=POLL).text
    players = [joined(app, token) for token in table.seats]
    pages = [phone.get(f"/t/{table.id}/poll?v=-1", headers=POLL).text for phone in players]
    assert all("Rematch</button>" in page for page in pages)
    tokens = {re.search(r'name="csrf_token" value="([^"]+)"', page).group(1) for page in pages}
    assert len(tokens) == len(players)  # each phone its own

"""Qwixx through its pages (docs/rules.md, Qwixx): what the board tells every phone. The
rules alone: tests/games/test_qwixx_rules.py."""

from __future__ import annotations

import html
import re


def test_qwixx_a_lock_crossed_in_step_1_is_said_before_it_closes_its_row_with_the_end_it_brings(client):
    """Game night: Caio crossed 12 in yellow and locked it, the second lock, while two
    players still chose the white sum: every phone and the TV still said "Locked: red" only,
    and the game then simply ended. The board says the lock to come, and the end."""
    table = client.post("/api/tables", json={"game": "qwixx", "players": ["Ana", "Bruno"]}).get_json()
    host = {"Authorization": f"Bearer {table['host_token']}"}

    def act(action):
        answer = client.post(f"/api/tables/{table['id']}/actions", json=action, headers=host)
        assert answer.status_code == 200, answer.get_json()

    def board() -> str:
        page = html.unescape(client.get(f"/t/{table['id']}").get_data(as_text=True))
        return " ".join(re.sub(r"<[^>]+>", " ", page).split())

    dice = {"red": 1, "yellow": 1, "green": 1, "blue": 1}
    for turn, total in enumerate([2, 3, 4, 5, 6]):  # Ana crosses red, Bruno yellow: five each
        act({"type": "roll", "dice": {"white1": 1, "white2": total - 1, **dice}})
        act({"type": "white", "row": "red", "seat": 0})
        act({"type": "white", "row": "yellow", "seat": 1})
        act({"type": "colour", "row": None, "seat": turn % 2})
    act({"type": "roll", "dice": {"white1": 6, "white2": 6, **dice}})  # Bruno rolls 12
    act({"type": "white", "row": "red", "seat": 0})  # Ana locks red; Bruno still chooses
    assert "Locked once everyone has chosen: red" in board()
    assert "The game ends after this step" not in board()  # the first lock
    act({"type": "white", "row": None, "seat": 1})
    act({"type": "colour", "row": None, "seat": 1})
    assert "Locked: red" in board() and "Locked once everyone has chosen" not in board()
    act({"type": "roll", "dice": {"white1": 6, "white2": 6, "yellow": 1, "green": 1, "blue": 1}})  # no red die now
    act({"type": "white", "row": "yellow", "seat": 1})  # Bruno locks yellow, Ana still chooses
    shown = board()
    assert "Locked once everyone has chosen: yellow The game ends after this step: a second row is locked." in shown
    act({"type": "white", "row": None, "seat": 0})
    assert client.get(f"/api/tables/{table['id']}").get_json()["status"] == "finished"
    assert "Locked once everyone has chosen" not in board()


def test_qwixx_step_1_tells_the_other_players_who_rolled_not_that_it_is_their_turn(app):
    """Game night: in step 1 every phone said "Your turn", while the TV said Ana rolls: the
    players who choose the white sum on Ana's roll could not tell whose turn it was."""
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "qwixx", "players": ["Ana", "Bruno", "Caio"]}).get_json()
    phones = []
    for seat in table["seats"]:
        phone = app.test_client()
        assert phone.get("/j/" + seat["join_url"].rsplit("/j/", 1)[1]).status_code == 303
        phones.append(phone)

    def status(phone) -> str:
        page = html.unescape(phone.get(f"/t/{table['id']}").get_data(as_text=True))
        return re.sub(r"<[^>]+>", "", re.search(r'<p class="status[^"]*"[^>]*>.*?</p>', page, re.S).group(0))

    assert [status(phone) for phone in phones] == ["Your turn", "Ana's turn", "Ana's turn"]
    roll = {"type": "roll", "dice": {"white1": 3, "white2": 4, "red": 1, "yellow": 2, "green": 3, "blue": 4}}
    host = {"Authorization": f"Bearer {table['host_token']}"}
    assert client.post(f"/api/tables/{table['id']}/actions", json=roll, headers=host).status_code == 200
    assert [status(phone) for phone in phones] == ["Your turn", "Ana rolled: your move", "Ana rolled: your move"]
    white = {"type": "white", "row": "red", "seat": 1}
    assert client.post(f"/api/tables/{table['id']}/actions", json=white, headers=host).status_code == 200
    assert [status(phone) for phone in phones] == ["Your turn", "Ana's turn", "Ana rolled: your move"]

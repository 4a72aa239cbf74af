"""Twenty One's sheets through the start form and the API (docs/rules.md (Twenty One)):
choosing letters, copying a printed sheet, remembering it for the next tables. The
layouts alone: tests/games."""

from __future__ import annotations

import re

import pytest

from companion.games.twentyone import COLORS, ROWS, SHEET_LAYOUTS

# A printed sheet as a player might copy it: each row shifted by one colour.
PRINTED = [list(COLORS[row:] + COLORS[:row]) for row in range(ROWS)]


@pytest.mark.parametrize(
    "layouts, status, code",
    [
        ([PRINTED[:4]], 422, "invalid_layout"),
        ([[*PRINTED[:4], ["white"] * 6]], 422, "invalid_layout"),
        ([[*PRINTED[:4], [*COLORS[:5], "purple"]]], 422, "invalid_layout"),
        ([[*PRINTED[:4], list(COLORS[:5])]], 422, "invalid_layout"),
        ([None, None, PRINTED], 422, "option_per_seat"),
        ("PRINTED", 400, "malformed_option"),
        ([[*PRINTED[:4], [1, 2, 3, 4, 5, 6]]], 400, "malformed_option"),
        ([["white"] * 5], 400, "malformed_option"),
    ],
)
def test_option_sheet_layouts_refused_unless_five_rows_of_the_six_colours(client, layouts, status, code):
    response = client.post(
        "/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheet_layouts": layouts}}
    )
    assert response.status_code == status, response.get_json()
    assert response.get_json()["code"] == code


def test_option_sheets_and_layouts_shorter_than_the_players_leave_the_rest_dealt(client):
    response = client.post(
        "/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno", "Caio"], "options": {"sheets": ["E"], "sheet_layouts": [PRINTED]}}
    )
    table = response.get_json()["table"]
    letters = [sheet["letter"] for sheet in table["state"]["sheets"]]
    assert letters[0] == "E" and len(set(letters)) == 3
    assert [sheet["copied"] for sheet in table["state"]["sheets"]] == [True, False, False]


# --- remembered per player name -------------------------------------------------------------
def create(client, players, options):
    response = client.post("/api/tables", json={"game": "twenty-one", "players": players, "options": options})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["table"]


def played(client, players, options):
    """A table created and played to its end (five rounds of ones, every die entered)."""
    response = client.post("/api/tables", json={"game": "twenty-one", "players": players, "options": options})
    assert response.status_code == 201, response.get_json()
    host = {"Authorization": f"Bearer {response.get_json()['host_token']}"}
    table = response.get_json()["table"]
    ones = {color: 1 for color in COLORS}
    while table["status"] != "finished":
        url = f"/api/tables/{table['id']}/actions"
        table = client.post(url, json={"type": "roll", "dice": ones, "seat": table["current_seat"]}, headers=host).get_json()
        for seat in range(len(players)):
            table = client.post(url, json={"type": "enter", "colors": list(COLORS), "seat": seat}, headers=host).get_json()
    return table


def colors_of(sheet):
    return [[f["color"] for f in row["fields"]] for row in sheet["rows"]]


def test_a_copied_sheet_is_remembered_for_the_players_next_tables_with_that_letter(client):
    played(client, ["Ana", "Bruno"], {"sheets": ["C", "A"], "sheet_layouts": [PRINTED, None]})
    # Ana (whatever the case of her name) plays sheet C again: her copy is used
    table = create(client, ["Dora", "ana"], {"sheets": ["A", "C"]})
    assert colors_of(table["state"]["sheets"][1]) == PRINTED and table["state"]["sheets"][1]["copied"] is True
    assert table["options"]["sheet_layouts"] == [None, PRINTED]
    assert table["state"]["sheets"][0]["copied"] is False  # Dora copied nothing
    # on another sheet she gets that sheet's own colours; Bruno copied nothing
    table = create(client, ["Ana", "Bruno"], {"sheets": ["D", "C"]})
    assert colors_of(table["state"]["sheets"][0]) == [list(row) for row in SHEET_LAYOUTS["D"]]
    assert colors_of(table["state"]["sheets"][1]) == [list(row) for row in SHEET_LAYOUTS["C"]]
    assert table["options"]["sheet_layouts"] is None


def test_a_newer_copy_replaces_the_remembered_one_and_a_given_layout_wins(client):
    played(client, ["Ana", "Bruno"], {"sheets": ["C", "A"], "sheet_layouts": [PRINTED, None]})
    again = [list(reversed(row)) for row in PRINTED]
    table = played(client, ["Ana", "Bruno"], {"sheets": ["C", "A"], "sheet_layouts": [again, None]})
    assert colors_of(table["state"]["sheets"][0]) == again
    table = create(client, ["Ana", "Bruno"], {"sheets": ["C", "A"]})
    assert colors_of(table["state"]["sheets"][0]) == again


def test_remembered_sheets_survive_the_replay_of_the_table(client):
    played(client, ["Ana", "Bruno"], {"sheets": ["C", "A"], "sheet_layouts": [PRINTED, None]})
    table = create(client, ["Ana", "Bruno"], {"sheets": ["C", "A"]})
    assert colors_of(client.get(f"/api/tables/{table['id']}").get_json()["state"]["sheets"][0]) == PRINTED


def test_a_copied_sheet_of_a_table_not_played_to_its_end_is_not_remembered(client):
    """Anyone may start a table: one started with a slip in a copied sheet (or by someone
    else, under Ana's name) and dropped changes none of Ana's next tables."""
    wrong = [list(reversed(row)) for row in PRINTED]
    played(client, ["Ana", "Bruno"], {"sheets": ["C", "A"], "sheet_layouts": [PRINTED, None]})
    dropped = create(client, ["ana", "Zed"], {"sheets": ["C", "A"], "sheet_layouts": [wrong, None]})
    assert colors_of(dropped["state"]["sheets"][0]) == wrong  # that table is as it was set up
    table = create(client, ["Ana", "Bruno"], {"sheets": ["C", "A"]})
    assert colors_of(table["state"]["sheets"][0]) == PRINTED


# --- the start form ---------------------------------------------------------------------------
def start_form(client, fields):
    page = client.get("/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/tables", data={"csrf_token": csrf, "game": "twenty-one", **fields})


def test_start_form_chooses_sheets_and_copies_a_printed_sheet_by_tapping_colours(client):
    page = client.get("/").text
    assert page.count('name="twenty-one.sheet_layouts.0.0.0"') == len(COLORS)
    taps = {
        f"twenty-one.sheet_layouts.1.{row}.{position}": color
        for row, colors in enumerate(PRINTED)
        for position, color in enumerate(colors)
    }
    response = start_form(
        client, {"player": ["Ana", "Bruno", "", ""], "twenty-one.sheets.0": "", "twenty-one.sheets.1": "F", "twenty-one.sheets.2": "", **taps}
    )
    assert response.status_code == 303, response.text
    table_id = response.headers["Location"].split("/")[2]
    table = client.get(f"/api/tables/{table_id}").get_json()
    assert table["state"]["sheets"][1]["letter"] == "F"
    assert table["options"]["sheets"] == [None, "F"]
    assert colors_of(table["state"]["sheets"][1]) == PRINTED
    assert table["options"]["sheet_layouts"] == [None, PRINTED]


def test_start_form_an_unfinished_copied_row_is_refused_with_a_sentence(client):
    taps = {f"twenty-one.sheet_layouts.0.0.{position}": color for position, color in enumerate(COLORS[:5])}
    response = start_form(client, {"player": ["Ana", "Bruno"], **taps})
    assert response.status_code == 422
    assert "Row 1 of the copied sheet of player 1 needs each of the six colours once." in response.text
    # the taps are still there to finish the row
    assert re.search(r'name="twenty-one.sheet_layouts.0.0.0" value="white"[^>]* checked>', response.text)


def test_start_form_the_same_sheet_twice_is_refused(client):
    response = start_form(client, {"player": ["Ana", "Bruno"], "twenty-one.sheets.0": "B", "twenty-one.sheets.1": "B"})
    assert response.status_code == 422
    assert "Sheet B is given twice" in response.text


def test_option_entries_for_more_seats_than_a_table_can_have_are_refused(client):
    response = client.post(
        "/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheets": {"999999999": "A"}}}
    )
    assert response.status_code == 422 and response.get_json()["code"] == "option_per_seat"


@pytest.mark.parametrize("slot, status", [("\u0663", 400), ("01", 422), ("9", 422), ("first", 400)])
def test_start_form_a_garbled_sheet_field_is_refused_with_a_sentence_not_dropped(client, slot, status):
    """Only the form's own empty name slots drop their entries; a field for any other slot
    (an Arabic-Indic 3, a leading zero, beyond the form's slots) is a sentence."""
    response = start_form(client, {"player": ["Ana", "Bruno", "", ""], f"twenty-one.sheets.{slot}": "B"})
    assert response.status_code == status
    assert "The option sheets" in response.text
    assert "/t/" not in client.get("/tables").text  # no table was made


def test_an_option_entry_for_a_seat_in_other_digits_is_malformed(client):
    response = client.post(
        "/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheets": {"\u0661": "B"}}}
    )
    assert response.status_code == 400 and response.get_json()["code"] == "malformed_option"


def test_start_form_a_name_slot_left_empty_moves_the_later_players_sheets_with_them(client):
    taps = {
        f"twenty-one.sheet_layouts.2.{row}.{position}": color
        for row, colors in enumerate(PRINTED)
        for position, color in enumerate(colors)
    }
    response = start_form(
        client,
        {"player": ["Ana", "", "Caio"], "twenty-one.sheets.0": "B", "twenty-one.sheets.1": "E", "twenty-one.sheets.2": "D", **taps},
    )
    assert response.status_code == 303, response.text
    table = client.get(f"/api/tables/{response.headers['Location'].split('/')[2]}").get_json()
    assert [player["name"] for player in table["players"]] == ["Ana", "Caio"]
    assert table["options"]["sheets"] == ["B", "D"]  # slot 1's E belonged to nobody
    assert table["options"]["sheet_layouts"] == [None, PRINTED]
    assert colors_of(table["state"]["sheets"][1]) == PRINTED

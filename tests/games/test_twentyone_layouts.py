"""Twenty One's sheets (docs/rules.md (Twenty One), "Sheets"): the companion's own six layouts A–F and their
properties, the options `sheets` and `sheet_layouts` (API and start form), and copied
sheets remembered per player name for their next tables on this server."""

from __future__ import annotations

from collections import Counter


from companion.games import GAMES
from companion.games.twentyone import COLORS, FIELD_NUMBERS, ROWS, SHEET_LAYOUTS

GAME = GAMES["twenty-one"]
# A printed sheet as a player might copy it: each row shifted by one colour.
PRINTED = [list(COLORS[row:] + COLORS[:row]) for row in range(ROWS)]


# --- the six layouts ------------------------------------------------------------------------
def test_layouts_six_sheets_a_to_f_of_five_rows():
    assert sorted(SHEET_LAYOUTS) == list("ABCDEF")
    assert all(len(layout) == ROWS == 5 for layout in SHEET_LAYOUTS.values())


def test_layouts_every_row_is_a_permutation_of_the_six_colours():
    for layout in SHEET_LAYOUTS.values():
        for row in layout:
            assert len(row) == len(FIELD_NUMBERS) == 6
            assert sorted(row) == sorted(COLORS)


def test_layouts_each_colour_sits_on_high_and_low_numbers_alike():
    """Per sheet, the five numbers a colour sits on sum to 16..19 (the mean is 17.5)."""
    for letter, layout in SHEET_LAYOUTS.items():
        for color in COLORS:
            numbers = [FIELD_NUMBERS[row.index(color)] for row in layout]
            assert 16 <= sum(numbers) <= 19, (letter, color, numbers)


def test_layouts_across_the_six_sheets_each_field_of_each_row_holds_a_different_colour():
    """So one roll favours different players."""
    for row in range(ROWS):
        for position in range(len(FIELD_NUMBERS)):
            colors = [SHEET_LAYOUTS[letter][row][position] for letter in SHEET_LAYOUTS]
            assert sorted(colors) == sorted(COLORS), (row, position, colors)


def test_layouts_no_two_rows_of_a_sheet_alike():
    for layout in SHEET_LAYOUTS.values():
        assert len(set(layout)) == ROWS


def test_layouts_no_colour_on_the_same_number_more_than_twice_on_a_sheet():
    for layout in SHEET_LAYOUTS.values():
        for color in COLORS:
            positions = Counter(row.index(color) for row in layout)
            assert max(positions.values()) <= 2


# --- the option sheet_layouts ---------------------------------------------------------------
def test_option_sheet_layouts_replaces_the_colours_of_that_seat_only():
    options = GAME.effective_options({"sheets": ["C", "D"], "sheet_layouts": [None, PRINTED]})
    state = GAME.setup(["Ana", "Bruno"], options, ["C", "D"])
    ana, bruno = state["sheets"]
    assert [[f["color"] for f in row["fields"]] for row in ana["rows"]] == [list(row) for row in SHEET_LAYOUTS["C"]]
    assert [[f["color"] for f in row["fields"]] for row in bruno["rows"]] == PRINTED
    assert (ana["copied"], bruno["copied"]) == (False, True)
    assert bruno["letter"] == "D"
    assert [f["value"] for f in bruno["rows"][3]["fields"]] == list(FIELD_NUMBERS)

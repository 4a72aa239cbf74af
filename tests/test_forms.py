"""A page's form becomes an action the same way for every game (companion/web/forms.py):
fields named after the action's keys complete the tapped button's JSON."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from companion.inputs import InputError
from companion.web.forms import action_from_form


def form(*fields: tuple[str, str]) -> MultiDict:
    return MultiDict(list(fields))


def test_forms_nested_keys_fill_the_action_with_typed_values():
    filled = action_from_form({"type": "roll"}, form(("action.dice.red", "4"), ("action.dice.white1", " 6 "), ("csrf_token", "x")))
    assert filled == {"type": "roll", "dice": {"red": 4, "white1": 6}}


def test_forms_a_blank_field_is_left_out_and_text_stays_text_for_the_rules_to_refuse():
    assert action_from_form({"type": "roll"}, form(("action.dice.red", ""), ("action.dice.blue", "²"))) == {
        "type": "roll",
        "dice": {"blue": "²"},
    }


def test_forms_ticked_boxes_collect_into_a_list():
    filled = action_from_form({"type": "enter"}, form(("action.colors[]", "red"), ("action.colors[]", "blue")))
    assert filled == {"type": "enter", "colors": ["red", "blue"]}
    assert action_from_form({"type": "enter"}, form()) == {"type": "enter"}


def test_forms_the_last_value_counts_so_a_hidden_false_before_a_checkbox_says_no():
    ticked = form(("action.meadows.0.sheep", "5"), ("action.meadows.0.fenced", "false"), ("action.meadows.0.fenced", "true"))
    unticked = form(("action.meadows.0.sheep", "5"), ("action.meadows.0.fenced", "false"))
    assert action_from_form({"type": "meadows"}, ticked)["meadows"] == [{"sheep": 5, "fenced": True}]
    assert action_from_form({"type": "meadows"}, unticked)["meadows"] == [{"sheep": 5, "fenced": False}]


def test_forms_numbered_rows_become_a_list_in_order_without_the_unused_ones():
    fields = form(
        ("action.meadows.10.sheep", "3"),
        ("action.meadows.2.sheep", "7"),
        ("action.meadows.2.wolf", "false"),
        ("action.meadows.5.sheep", ""),
        ("action.meadows.5.wolf", "false"),
    )
    assert action_from_form({"type": "meadows"}, fields)["meadows"] == [{"sheep": 7, "wolf": False}, {"sheep": 3}]


def test_forms_never_overwrite_what_the_button_says():
    filled = action_from_form({"type": "colour", "row": "red"}, form(("action.row", "blue"), ("action.type", "roll")))
    assert filled == {"type": "colour", "row": "red"}


def test_forms_odd_names_are_ignored_and_huge_numbers_refused_by_the_one_parser():
    assert action_from_form({"type": "x"}, form(("action.", "1"), ("action..a", "1"), ("action.a.b.c.d.e", "1"))) == {"type": "x"}
    with pytest.raises(InputError):
        action_from_form({"type": "x"}, form(("action.n", "9" * 30)))

"""Each person keeps their colour and dash on every chart of the night (issue 42): stable
when they move seats or play another game, never shared by two people of one table, the
colour never alone (each line has its dash too)."""

from __future__ import annotations

import re

from hypothesis import given, strategies as st

from companion.tables.night import COLOURS, person_styles
from databases import on_both_databases
from evenings import chart_styles, finished_at, local, scorepad
from played import create, play_pickomino

# The evening's tables are found by one query, on SQLite and on PostgreSQL alike.
database = on_both_databases()


def test_a_person_keeps_their_colour_and_dash_on_every_table_of_the_night(app, client):
    first = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, first)
    second = scorepad(client, "Azul", ("Dora", "Caio", "ana"), [[10, 20, 30]])  # Ana typed again, another seat
    finished_at(app, first, local(27, 20))
    finished_at(app, second, local(27, 21))
    before = chart_styles(client.get(f"/t/{first.id}/results").get_data(as_text=True))
    after = chart_styles(client.get(f"/t/{second.id}/results").get_data(as_text=True))
    assert after["ana"] == before["Ana"] and after["Caio"] == before["Caio"]
    assert len(set(after.values())) == 3 and after["Dora"][0] not in {after["ana"][0], after["Caio"][0]}


# Evenings of up to 6 tables of 2 to 12 people, from a crowd of 16.
evenings = st.lists(st.lists(st.integers(0, 15), min_size=2, max_size=12, unique=True), min_size=1, max_size=6)


@given(evenings)
def test_two_people_of_one_table_never_share_a_colour_and_dash(tables):
    styles = person_styles([[str(person) for person in table] for table in tables])
    for table in tables:
        worn = [styles[str(person)] for person in table]
        assert len(set(worn)) == len(worn)
    assert len(set(styles.values())) == len(styles)  # nobody's style is anyone else's all night
    styled: set[int] = set()
    for table in tables:  # a newcomer's colour is no one else's at their first table, while colours last
        for person in table:
            if person in styled:
                continue
            worn_before = {styles[str(other)][0] for other in table if other in styled}
            if len(worn_before) < COLOURS:
                assert styles[str(person)][0] not in worn_before
            styled.add(person)


def test_a_person_keeps_their_style_when_a_later_table_is_added():
    night = [["ana", "bruno", "caio"], ["dora", "caio", "ana"]]
    later = night + [["edu", "bruno", "dora", "fabi"]]
    assert {key: style for key, style in person_styles(later).items() if key in person_styles(night)} == person_styles(night)


def test_a_lone_table_keeps_the_seat_styles_a_chart_had():
    assert person_styles([["a", "b", "c", "d"]]) == {"a": (0, 0), "b": (1, 1), "c": (2, 2), "d": (3, 3)}


def ranking_styles(page: str) -> dict[str, tuple[str, str]]:
    """Each ranked name with the colour and dashes of the piece of line beside it."""
    found = re.findall(
        r'class="rank-name"[^>]*>([^<]+)<svg class="person-style"[^>]*><line [^>]*stroke="([^"]+)" stroke-width="\d+"(?: stroke-dasharray="([^"]+)")?/></svg>',
        page,
    )
    return {name: (colour, dashes) for name, colour, dashes in found}


def test_the_table_screen_and_the_results_ranking_show_each_persons_colour_and_dash_of_the_night(app, client):
    first = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, first)
    second = scorepad(client, "Azul", ("Dora", "Caio", "Ana"), [[10, 20, 30]])
    finished_at(app, first, local(27, 20))
    finished_at(app, second, local(27, 21))
    lines = chart_styles(client.get(f"/t/{first.id}/results").get_data(as_text=True))
    screen = ranking_styles(client.get(f"/t/{second.id}/screen").get_data(as_text=True))
    assert set(screen) == {"Dora", "Caio", "Ana"}
    assert screen["Ana"] == lines["Ana"] and screen["Caio"] == lines["Caio"]
    assert ranking_styles(client.get(f"/t/{second.id}/results").get_data(as_text=True)) == screen
    # while a game is played its phones and screen show no piece of line: no night's style yet
    playing = create(client, "qwixx", ("Ana", "Bruno"))
    assert 'class="person-style"' not in client.get(f"/t/{playing.id}/screen").get_data(as_text=True)

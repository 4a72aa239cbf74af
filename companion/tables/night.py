"""The game night: every table finished in one evening, rematches or not, any game, and each
person's look on its charts.

An evening is the night a table finished in, by the server's clock: from 06:00 one day
until 06:00 the next, so a game finished at 01:30 still belongs to the evening before, and
a lunch game to that day's evening (a group rarely plays at six in the morning).

Each person (a name, whatever its case, or the person a host renamed or merged it into:
tables/people.py) keeps one style, a colour and a
dash, on every chart of the evening: given when they first finish a game that evening and
never changed by a later table, different from everyone else's of the evening (so two
people of one table never share one), and its colour different from their first table's
others' as long as the palette has one left.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from . import history, store

NIGHT_STARTS = time(6)
# The charts' palette sizes (web/chart.py: SERIES_COLOURS, SERIES_DASHES): a style is a
# pair of indices into them.
COLOURS = DASHES = 7


def evening_of(stamp: str) -> date:
    """The evening a table finished at `stamp` (store.now()'s UTC stamp) belongs to, named
    by the day it started on, in the server's local time."""
    local = datetime.fromisoformat(stamp).astimezone()
    return (local - timedelta(hours=NIGHT_STARTS.hour)).date()


def tonight() -> date:
    return evening_of(store.now())


def window(evening: date) -> tuple[str, str]:
    """The evening's bounds as stamps comparable with the stored ones (UTC, seconds)."""

    def stamp(day: date) -> str:
        local = datetime.combine(day, NIGHT_STARTS).astimezone()  # the local clock, summer time or not
        return local.astimezone(timezone.utc).isoformat(timespec="seconds")

    return stamp(evening), stamp(evening + timedelta(days=1))


def person_styles(tables: list[list[str]]) -> dict[str, tuple[int, int]]:
    """Per person key, their (colour, dash) for an evening whose finished tables seated
    these name keys (each table in seat order, tables in the order they finished).

    Each newcomer takes, among the colours nobody already styled at their table wears, the
    one worn least so far this evening (the lowest first), with the next dash that colour
    has not had: a lone table's players get the seat styles a chart had before (colour and
    dash n for seat n), and a person keeps theirs whichever seat they take later."""
    styles: dict[str, tuple[int, int]] = {}
    worn = [0] * COLOURS  # how many people of the evening wear each colour
    for seated in tables:
        for key in seated:
            if key in styles:
                continue
            taken = {styles[other][0] for other in seated if other in styles}
            free = [colour for colour in range(COLOURS) if colour not in taken] or list(range(COLOURS))
            colour = min(free, key=lambda colour: (worn[colour], colour))
            styles[key] = (colour, (colour + worn[colour]) % DASHES)
            worn[colour] += 1
    return styles


def table_styles(db, finished_at: str | None, names: list[str]) -> list[tuple[int, int]]:
    """The styles of a table's seats (their players' `names`): their evening's, when it
    finished; a table not finished yet, by seat."""
    keys = [db.person_of(store.name_key(name)) for name in names]
    if finished_at is None:
        return [(seat % COLOURS, seat % DASHES) for seat in range(len(keys))]
    styles = person_styles([seated for _table, seated in _seatings(db, *window(evening_of(finished_at)))])
    return [styles.get(key, (seat % COLOURS, seat % DASHES)) for seat, key in enumerate(keys)]


def _seatings(db, since: str, until: str) -> list[tuple[dict[str, Any], list[str]]]:
    """The tables finished in the window, each with its seats' people in seat order (the
    person a name was renamed or merged into: tables/people.py, as the saved results read)."""
    return [
        (table, [db.person_of(store.name_key(name)) for name in db.seat_names(table["id"])])
        for table in db.finished_between(since, until)
    ]


def game_night(db, evening: date) -> dict[str, Any]:
    """Everything finished in `evening`: its tables in order (title, players, each seat's
    score and place, the winners), per person the games, wins (first places, shared ones
    included) and points, most wins first, each with their style; the champions (the
    most wins, when anyone won); and per person their wins after each table, for the chart."""
    history.save_missing_results(db)
    seatings = _seatings(db, *window(evening))
    styles = person_styles([seated for _table, seated in seatings])
    results: dict[str, dict[str, dict[str, Any]]] = {}
    if seatings:
        for result in db.chain_results([table["id"] for table, _seated in seatings]):
            results.setdefault(result["table_id"], {})[result["name_key"]] = result
    tables, people = [], {}
    for table, seated in seatings:
        found = results.get(table["id"], {})
        seats = [found[key] for key in seated if key in found]
        tables.append({
            **table,
            "title": history.table_title(table["game"], table["options"]),
            "seats": seats,
            "winners": [seat["name"] for seat in seats if seat["place"] == 1],
        })
        for seat in seats:
            person = people.setdefault(
                seat["name_key"],
                {"key": seat["name_key"], "name": seat["name"], "style": styles[seat["name_key"]], "games": 0, "wins": 0, "points": 0,
                 "wins_after": [0] * (len(tables) - 1)},
            )
            person["name"] = seat["name"]  # the latest spelling
            person["games"] += 1
            person["wins"] += seat["place"] == 1
            person["points"] += seat["score"]
        for person in people.values():
            person["wins_after"].append(person["wins"])
    ranked = sorted(people.values(), key=lambda person: (-person["wins"], -person["points"], history.alphabetical(person["name"])))
    most = ranked[0]["wins"] if ranked else 0
    champions = [person for person in ranked if person["wins"] == most > 0]
    return {"evening": evening, "tables": tables, "people": ranked, "champions": champions}

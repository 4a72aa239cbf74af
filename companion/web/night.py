"""The game night page: every table finished in an evening (companion.tables.night), who
won what, each person's totals and wins, a chart of the wins across the night, and Share
(its text, and its picture drawn as the results' is: an SVG here, a PNG on the phone)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from babel.dates import format_date
from flask import Blueprint, Response, render_template, request
from markupsafe import Markup

from ..games.text import N_, NP_, isolated, listing
from ..tables import night
from . import chart, i18n
from .database import get_db
from .i18n import render
from .results import refuse

bp = Blueprint("night", __name__)


def evening_asked() -> date | None:
    """The evening of `?evening=YYYY-MM-DD`, tonight without one; None for anything else."""
    asked = request.args.get("evening")
    if asked is None:
        return night.tonight()
    try:
        evening = date.fromisoformat(asked) if len(asked) == 10 else None
    except ValueError:
        return None
    # the first and last days have no night around them on every clock
    return evening if evening is not None and date.min < evening < date.max else None


def unknown_evening():
    return refuse(
        N_("There is no evening %(evening)s: an evening is a date written as 2026-11-28.", evening=request.args.get("evening", "")),
        404,
    )


def evening_words(evening: date) -> str:
    return format_date(evening, "full", locale=i18n.dates_locale())


def night_chart(found: dict[str, Any], ink: str = "currentColor"):
    """Each person's wins after each table of the night, in their style of the evening."""
    people = found["people"]
    series = [[0, *person["wins_after"]] for person in people]
    label = render(
        N_(
            "Each player's wins across the night. At the end: %(wins)s.",
            wins=listing([f"{person['name']} {i18n.whole_number(person['wins'])}" for person in people]),
        )
    )
    names = [person["name"] for person in people]
    return chart.score_chart(series, names, label, render(N_("games of the night")), ink, [person["style"] for person in people])


def champion_words(found: dict[str, Any]) -> str:
    """The night's champion in a sentence: the one with the most wins, or those sharing them."""
    champions = found["champions"]
    if not champions:
        return render(N_("Nobody has won a game this night yet."))
    wins = champions[0]["wins"]
    if len(champions) == 1:
        return render(NP_("Champion of the night: %(name)s, %(num)s win.", "Champion of the night: %(name)s, %(num)s wins.",
                          wins, name=isolated(champions[0]["name"])))
    names = listing([isolated(person["name"]) for person in champions])
    return render(NP_("%(names)s share the night, %(num)s win each.", "%(names)s share the night, %(num)s wins each.",
                      wins, names=names))


def winners_words(table: dict[str, Any]) -> str:
    """"Ana", "Ana and Bruno": a table's winners in the reader's words ("" for none)."""
    return render(listing([isolated(name) for name in table["winners"]])) if table["winners"] else ""


def share_text(found: dict[str, Any]) -> str:
    """The night for the group's chat: its date, the games in order with their winners,
    and its champion."""
    lines = [render(N_("Game night · %(evening)s", evening=evening_words(found["evening"])))]
    for number, table in enumerate(found["tables"], 1):
        lines.append(f"{number}. {render(table['title'])}: {winners_words(table) or '—'}")
    lines.append(champion_words(found))
    return "\n".join(lines)


@bp.get("/night")
def night_page():
    evening = evening_asked()
    if evening is None:
        return unknown_evening()
    found = night.game_night(get_db(), evening)
    return render_template(
        "night.html",
        night=found,
        evening=evening,
        evening_words=evening_words(evening),
        champion=champion_words(found),
        chart=night_chart(found) if found["people"] else None,
        share=share_text(found),
        winners={table["id"]: winners_words(table) for table in found["tables"]},
        swatches=[chart.person_swatch(person["style"]) for person in found["people"]],
        night_before=(evening - timedelta(days=1)).isoformat(),
    )


@bp.get("/night/picture.svg")
def night_picture():
    """The night as one picture (heading, the games and their winners, the champion, the
    chart): what its Share sends."""
    evening = evening_asked()
    if evening is None:
        return unknown_evening()
    found = night.game_night(get_db(), evening)
    lines = share_text(found).split("\n")
    drawn = night_chart(found, ink="#111111") if found["people"] else Markup("")
    return Response(chart.results_card(lines[0], lines[1:], drawn, len(found["people"])), mimetype="image/svg+xml")

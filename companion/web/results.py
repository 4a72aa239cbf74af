"""The pages around a game's end: its results (with the chart and Share), the downloads,
and the rematch. Thin like the other pages: the rules' words come from the games, the
record from companion.tables.history, the downloads from companion.web.export. The table screen
is web/screen.py, the players' pages web/players.py."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import format_decimal, gettext
from markupsafe import Markup

from ..tables import history, night, rematch, service
from .. import inputs
from . import i18n
from .database import get_db
from ..games.text import N_, Text, isolated, listing
from .i18n import render
from . import chart, export, views
from . import session as phone

bp = Blueprint("results", __name__)


@bp.app_template_filter("average")
def average(value: float) -> str:
    """An average score, to one decimal place, written the reader's way (12.5, 12,5)."""
    return i18n.with_minus(format_decimal(value, format="#,##0.#"))


@bp.app_template_global("rematch_starter")
def rematch_starter(players: int) -> int:
    """The old seat that starts a rematch of a table of `players`."""
    return rematch.rotation(players)[0]


def refuse(text: Text, status: int):
    return render_template("error.html", message=render(text), status=status), status


def unknown_table(table_id: str):
    return refuse(N_("There is no table %(id)s.", id=table_id), 404)


def not_over(table: service.Table):
    """A finished table's page, asked of a table still being played: say so, and lead there."""
    title = render(table.game.table_title(table.row["options"]))
    return render_template("not_over.html", table_id=table.id, game=table.game, title=title, abandoned=service.is_closed(table)), 409


def loaded(table_id: str) -> service.Table | None:
    try:
        return service.load(get_db(), table_id)
    except service.ServiceError:
        return None


def finished_table(table_id: str) -> service.Table:
    """The table when its game is over; otherwise stop with the page that says why."""
    table = loaded(table_id)
    if table is None:
        abort(make_response(unknown_table(table_id)))
    if not table.game.is_finished(table.state):
        abort(make_response(not_over(table)))
    return table


def secret() -> str:
    return current_app.config["SECRET_KEY"]


# --- results -------------------------------------------------------------------------------
def results_chart(db, table: service.Table, ink: str = "currentColor"):
    series = service.score_series(db, table)
    final = listing([f"{name} {i18n.whole_number(points[-1])}" for name, points in zip(table.names, series)])
    label = render(N_("Each player's score over the game. At the end: %(scores)s.", scores=final))
    # each person in their colour and dash of the evening, on every table of it
    styles = night.table_styles(db, table.row["finished_at"], table.names)
    return chart.score_chart(series, table.names, label, render(table.game.chart_axis), ink, styles)


def seat_swatches(db, table: service.Table) -> dict[int, Markup] | None:
    """Per seat of a finished table, its person's piece of line of the evening (for the
    ranking); None while the game is played."""
    if not table.game.is_finished(table.state):
        return None
    styles = night.table_styles(db, table.row["finished_at"], table.names)
    return {seat: chart.person_swatch(style) for seat, style in enumerate(styles)}


def share_text(view: dict[str, Any], game_title: str, finished: str) -> str:
    """The results as a message for the group's chat, in the reader's language, dated when
    the game finished (as the results page and the lists of tables are)."""
    lines = [f"{game_title} · {i18n.moment(finished)}"]
    lines += [f"{entry['place']}. {isolated(entry['name'])}: {i18n.whole_number(entry['score'])}" for entry in view["ranking"]]
    lines += list(dict.fromkeys(entry["tiebreak"] for entry in view["ranking"] if entry["tiebreak"]))
    return "\n".join(lines)


@bp.get("/t/<table_id>/results.svg")
def results_image(table_id: str):
    """The results as one picture (heading, places, the chart): what Share sends."""
    table = finished_table(table_id)
    db = get_db()
    view = views.table_view(table, phone.page_viewer(db, table_id))
    lines = share_text(view, render(table.game.table_title(table.row["options"])), table.row["finished_at"]).split("\n")
    image = chart.results_card(lines[0], lines[1:], results_chart(db, table, ink="#111111"), len(table.names))
    return Response(image, mimetype="image/svg+xml")


@bp.get("/t/<table_id>/results")
def results_page(table_id: str):
    table = finished_table(table_id)
    db = get_db()
    viewer = phone.page_viewer(db, table_id)
    view = views.table_view(table, viewer)
    row = table.row
    play = export.bgstats_play(table.game, export.with_people(db, view), row["created_at"], row["finished_at"])
    return render_template(
        "results.html",
        table=view,
        game=table.game,
        viewer=viewer,
        # newest first, as on the table page (pages.situation): one order on both
        log=list(reversed(views.log_view(db, table, viewer))),
        # when it finished, as the lists of tables say; when it started beside it
        finished=row["finished_at"],
        started=i18n.started_words(row["created_at"], row["finished_at"]),
        minutes=play["durationMin"],
        rematch_of=row["rematch_of"],
        night=history.game_night(db, table_id),
        evening=night.evening_of(row["finished_at"]).isoformat(),
        chart=results_chart(db, table),
        swatches=seat_swatches(db, table),
        share=share_text(view, render(table.game.table_title(row["options"])), row["finished_at"]),
        bgstats_url=export.bgstats_url(play),
    )


@bp.get("/t/<table_id>/results/follow")
def follow_from_results(table_id: str):
    """A joined phone on the results page asks every few seconds, as the table page does:
    once a rematch starts it is led to its seat there; if the table moved, to the table
    when the game is no longer over (the host took the end back), else to the results as
    they are now (a correction of the final count, or the host closing it)."""
    db = get_db()
    found = service.version_and_rematch(db, table_id)
    if found is None:
        abort(404)
    version, rematch_id = found
    rematch_address = phone.rematch_address(table_id, rematch_id)
    if rematch_address is not None:
        return "", 204, {"HX-Redirect": rematch_address}
    if inputs.number_or_none(request.args.get("v")) != version:
        # over again (corrected, or closed): its results as they are now; else the table
        over = service.status_of(db, table_id) == "finished"
        return "", 204, {"HX-Redirect": url_for("results.results_page" if over else "pages.table_page", table_id=table_id)}
    return "", 204


# --- rematch -------------------------------------------------------------------------------
@bp.post("/t/<table_id>/rematch")
def start_rematch(table_id: str):
    db = get_db()
    try:
        rematch_id = rematch.start(db, table_id, phone.page_viewer(db, table_id), secret())
    except service.ServiceError as error:
        if error.code == "not_finished":
            return not_over(service.load(db, table_id))
        return refuse(error.text, error.status)
    move_to_rematch(db, table_id)
    return redirect(url_for("pages.table_page", table_id=rematch_id), 303)


@bp.get("/t/<table_id>/rematch")
def follow_rematch(table_id: str):
    """Where a table's polls lead its phones once a rematch has started: each phone takes
    its own seat at the new table (and the host the host's role), then goes there."""
    db = get_db()
    if service.version_and_rematch(db, table_id) is None:
        return unknown_table(table_id)
    moved = move_to_rematch(db, table_id)
    target = table_id if moved is None else moved.table_id
    return redirect(url_for("pages.table_page", table_id=target), 303)


def move_to_rematch(db, table_id: str) -> rematch.Moved | None:
    held = phone.held(table_id)
    moved = rematch.follow(db, table_id, held.get("host"), held.get("seat"), secret())
    if moved is None:
        return None
    if moved.host_token is not None:
        phone.remember(moved.table_id, "host", moved.host_token)
    if moved.seat_token is not None:
        phone.remember(moved.table_id, "seat", moved.seat_token)
    phone.remember(table_id, "rematch", moved.table_id)  # the old table's polls stop leading here
    return moved


# --- exports -------------------------------------------------------------------------------
def download(body: str, mimetype: str, table: service.Table, extension: str) -> Response:
    filename = f"{table.game.slug}-{table.id}.{extension}"
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.get("/t/<table_id>/export.json")
def export_json(table_id: str):
    table = finished_table(table_id)
    db = get_db()
    exported = export.as_json(db, table, phone.page_viewer(db, table_id))
    return download(json.dumps(exported, ensure_ascii=False, indent=2), "application/json", table, "json")


@bp.get("/t/<table_id>/export.csv")
def export_csv(table_id: str):
    table = finished_table(table_id)
    db = get_db()
    view = export.with_people(db, views.table_view(table, phone.page_viewer(db, table_id)))
    header = [gettext("place"), gettext("name"), gettext("score"), gettext("breakdown"), gettext("tie-break")]
    # With a byte order mark: spreadsheets then read the names' accents right.
    return download("\ufeff" + export.as_csv(view["ranking"], header), "text/csv", table, "csv")

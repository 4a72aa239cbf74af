"""The table screen: read-only, for a tablet or a TV in the middle of the table. It is
rendered for nobody in particular (no seat, no host), so no secret and no control reaches
it, whoever's device shows it; it follows the table like the phones, and its rematch."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from .. import inputs
from ..games.text import N_
from .i18n import render
from ..tables import service
from .database import get_db
from . import push, push_mode, views
from .links import base_url, qr_svg
from .results import loaded, seat_swatches, unknown_table

bp = Blueprint("screen", __name__)


def screen_context(table: service.Table) -> dict[str, Any]:
    # Always as nobody: a screen everyone sees shows no secret, whoever's device it is.
    view = views.table_view(table, service.ANONYMOUS)
    return {
        "table": view,
        # a game with no turn to tell (Lobo, Twenty One, Qwixx): its last action in effect, in words
        "last_line": None if "last_turn" in view["state"] else views.last_line_view(get_db(), table),
        "game": table.game,
        "viewer": service.ANONYMOUS,
        "acting_for": None,
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "push": push_mode.is_on(),
        # at the end, each person's colour and dash of the night beside their place
        "swatches": seat_swatches(get_db(), table),
    }


@bp.get("/t/<table_id>/screen")
def screen(table_id: str):
    table = loaded(table_id)
    if table is None:
        return unknown_table(table_id)
    url = base_url() + url_for("screen.screen", table_id=table_id)
    return render_template("screen.html", screen_url=url, screen_svg=qr_svg(url), **screen_context(table))


@bp.get("/t/<table_id>/screen/poll")
def screen_poll(table_id: str):
    """As the phones' poll: 204 while nothing changed; after a rematch, the rematch's screen."""
    db = get_db()
    found = service.version_and_rematch(db, table_id)
    if found is None:
        return unknown_table(table_id)
    version, rematch_id = found
    if rematch_id is not None:
        return "", 204, {"HX-Redirect": url_for("screen.screen", table_id=rematch_id)}
    if inputs.number_or_none(request.args.get("v")) == version:
        return "", 204
    return render_template("screen_body.html", **screen_context(service.load(db, table_id)))


@bp.get("/t/<table_id>/screen/events")
def screen_events(table_id: str):
    """The screen's held connection (web/push.py), as the phones': after a rematch, the
    rematch's screen."""

    def body(db) -> str:
        return render_template("screen_body.html", **screen_context(service.load(db, table_id)))

    return push.held_connection(table_id, body, lambda rematch_id: url_for("screen.screen", table_id=rematch_id))


# --- /tv: a short address for a TV, which cannot scan the screen's QR code -----------------
# What a remote's keyboard may send back into the field: the code and a little slack.
TYPED_CODE_MAX_LENGTH = 20


@bp.app_template_global()
def tv_address() -> str:
    """The short address a TV opens to show a table's screen (the host's join page says it)."""
    return base_url() + url_for("screen.tv")


@bp.get("/tv")
def tv():
    """A big field for the table's code, typed with a remote (in any case: a TV's keyboard
    often starts in lower case, and spaces it adds are left out), leading to that table's
    screen. A code of the wrong shape, or of no table, gets a sentence and the field again."""
    typed = request.args.get("code")
    if typed is None:
        return render_template("tv.html", typed="", error=None)
    code = "".join(typed.split()).upper()
    shown = typed if len(typed) <= TYPED_CODE_MAX_LENGTH and typed.isprintable() else ""
    if not service.is_table_id(code):
        error = N_("A table's code has six letters and digits (never 0, 1, I, L or O): the host's phone shows it.")
        return render_template("tv.html", typed=shown, error=render(error)), 422
    if service.version_and_rematch(get_db(), code) is None:
        error = N_("No table has the code %(code)s: check it on the host's phone.", code=code)
        return render_template("tv.html", typed=shown, error=render(error)), 404
    return redirect(url_for("screen.screen", table_id=code), 303)

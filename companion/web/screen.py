"""The table screen: read-only, for a tablet or a TV in the middle of the table. It is
rendered for nobody in particular (no seat, no host), so no secret and no control reaches
it, whoever's device shows it; it follows the table like the phones, and its rematch."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for

from .. import inputs
from ..tables import service
from ..tables.db import get_db
from . import push, views
from .links import base_url, qr_svg
from .results import loaded, unknown_table

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
        "push": "companion.notifier" in current_app.extensions,
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

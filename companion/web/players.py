"""The players' pages: everyone who played at this companion, and one player's tables,
wins and game nights (companion.tables.history keeps the record)."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..games.names import clean_name, is_valid_unicode
from ..tables import history
from ..tables.service import NAME_MAX_LENGTH
from .database import get_db
from ..games.text import N_, shown
from .results import refuse

bp = Blueprint("players", __name__)


@bp.get("/players")
def players_index():
    return render_template("players.html", players=history.players(get_db()), player=None)


@bp.get("/players/<path:name>")
def player_page(name: str):
    # A name no player can ever have had (a NUL, broken text, too long) is nobody's: the
    # database is not asked (PostgreSQL refuses text holding a NUL). Characters refused only
    # since (direction marks, noncharacters) may be in names stored before: those are asked.
    impossible = "\x00" in name or not is_valid_unicode(name) or len(clean_name(name)) > NAME_MAX_LENGTH
    found = None if impossible else history.player(get_db(), name)
    if found is None:
        return refuse(N_("Nobody called %(name)s has played at this companion.", name=shown(name)), 404)
    return render_template("players.html", player=found, players=None)

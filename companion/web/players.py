"""The players' pages: everyone who played at this companion, each person once, and one
person's tables, wins, game nights, head-to-head and streak (companion.tables.history and
companion.tables.people keep the record); and the host's forms that rename a person, merge
two names into one person, and separate a name again (people.py says who may)."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session, url_for

from ..games.names import clean_name, is_valid_unicode
from ..tables import history, people, service, store
from ..tables.service import NAME_MAX_LENGTH
from .database import get_db
from ..games.text import N_, shown
from .results import refuse

bp = Blueprint("players", __name__)


@bp.get("/players")
def players_index():
    return render_template("players.html", players=people.everyone(get_db()), player=None)


def impossible_name(name: str) -> bool:
    """A name no player can ever have had (a NUL, broken text, too long) is nobody's: the
    database is not asked (PostgreSQL refuses text holding a NUL). Characters refused only
    since (direction marks, noncharacters) may be in names stored before: those are asked."""
    return "\x00" in name or not is_valid_unicode(name) or len(clean_name(name)) > NAME_MAX_LENGTH


def nobody(name: str):
    return refuse(N_("Nobody called %(name)s has played at this companion.", name=shown(name)), 404)


def hosted_tables(db) -> list[str]:
    """The tables this phone is the host of (its cookie's host tokens that still open them)."""
    return [
        table_id
        for table_id, held in session.get("tables", {}).items()
        if "host" in held and service.is_host(db, table_id, held["host"])
    ]


@bp.get("/players/<path:name>")
def player_page(name: str):
    db = get_db()
    found = None if impossible_name(name) else people.person(db, name)
    if found is None:
        return nobody(name)
    if found["key"] != store.name_key(name):  # a name renamed or merged: its person's page
        return redirect(url_for("players.player_page", name=found["name"]), 303)
    may_change = people.may_change(db, found["key"], hosted_tables(db))
    return render_template("players.html", player=found, players=None, may_change=may_change, name_max_length=NAME_MAX_LENGTH)


def person_named(db, field: str) -> tuple[str, dict | None]:
    """The person a form's `field` names, and their page's record (None: nobody)."""
    name = request.values.get(field, "")
    return name, (None if impossible_name(name) else people.person(db, name))


@bp.post("/people/rename")
def rename_person():
    db = get_db()
    name, found = person_named(db, "name")
    if found is None:
        return nobody(name)
    try:
        people.rename(db, found["key"], request.form.get("new_name"), hosted_tables(db))
    except service.ServiceError as error:
        return refuse(error.text, error.status)
    return redirect(url_for("players.player_page", name=clean_name(request.form["new_name"])), 303)


@bp.get("/people/merge")
def confirm_merge():
    """Before two names become one person: both, side by side, and what merging does."""
    db = get_db()
    name, found = person_named(db, "name")
    into, target = person_named(db, "into")
    if found is None:
        return nobody(name)
    if not into.strip():
        return refuse(N_("Say whom %(name)s is the same person as.", name=found["name"]), 422)
    if target is None:
        return refuse(N_("Nobody called %(name)s has played at this companion.", name=shown(into)), 404)
    if target["key"] == found["key"]:
        return refuse(N_("%(name)s and %(other)s are one person already.", name=found["name"], other=target["name"]), 422)
    refusal = people.played_together(db, found["key"], found["name"], target["key"], target["name"])
    if refusal is not None:
        return refuse(refusal.text, refusal.status)
    return render_template("merge.html", source=found, target=target)


@bp.post("/people/merge")
def merge_people():
    db = get_db()
    name, found = person_named(db, "name")
    if found is None:
        return nobody(name)
    try:
        target = people.merge(db, found["key"], request.form.get("into"), hosted_tables(db))
    except service.ServiceError as error:
        return refuse(error.text, error.status)
    return redirect(url_for("players.player_page", name=people.person(db, target)["name"]), 303)


@bp.post("/people/separate")
def separate_name():
    db = get_db()
    name, found = person_named(db, "name")
    if found is None:
        return nobody(name)
    typed = request.form.get("typed")
    try:
        people.separate(db, found["key"], typed, hosted_tables(db))
    except service.ServiceError as error:
        return refuse(error.text, error.status)
    # The person's page; or, when the name separated was the only one they had left (a
    # rename undone), that name's own page again.
    staying = history.player(db, found["name"]) is not None
    return redirect(url_for("players.player_page", name=found["name"] if staying else typed.strip()), 303)

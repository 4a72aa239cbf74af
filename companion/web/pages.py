"""The htmx pages a table uses. Thin: parse the tap, call the service, render."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for

from ..tables import history, service, undo_redo
from .. import inputs
from . import i18n
from .database import get_db
from ..games import GAMES, Game
from ..games.errors import RuleError
from ..games.text import N_, shown
from .i18n import render
from . import forms, push, views
from .sharing import sharing_the_write
from .table_parts import situation, table_body
from . import session as phone
from .links import join_url, qr_svg

bp = Blueprint("pages", __name__)
MAX_PLAYERS_ON_FORM = max(game.max_players for game in GAMES.values())


@bp.get("/healthz")
def health():
    """A bare endpoint for monitoring (and the load benchmark's baseline): no database."""
    return "", 204


@bp.get("/healthz/database")
def database_health():
    """For a load balancer's health check: 204 while this server can read its database,
    else the storage error's 503 (a server cut off from PostgreSQL is taken out)."""
    service.check_database(get_db())
    return "", 204


@bp.get("/language/<language>")
def choose_language(language: str):
    """The switcher: remember this phone's language (a cookie) and go back to the page it
    was tapped on. A plain link, so it works without any script."""
    if language not in i18n.LANGUAGES:
        abort(404)
    back = request.args.get("next", "")
    # Only this site's own pages. A control character is refused too: browsers drop tabs
    # and newlines from a URL, so "/<tab>/elsewhere" would lead to //elsewhere.
    if not back.startswith("/") or back.startswith("//") or "\\" in back or not back.isprintable():
        back = url_for("pages.home")
    response = make_response(redirect(back, 303))
    response.set_cookie(
        i18n.LANGUAGE_COOKIE, language, max_age=i18n.LANGUAGE_COOKIE_SECONDS, httponly=True, samesite="Lax"
    )
    return response


# --- home: start a table, resume one ---------------------------------------------------
@bp.get("/")
def home():
    """The home page; with `preset` ("<slug>/<name>"), a saved option set tapped on the start
    form: its game chosen, its options filled in, to start as they are or changed (starting
    saves them again)."""
    if "preset" not in request.args:
        return render_home()
    slug, _, name = request.args["preset"].partition("/")
    options = service.preset(get_db(), slug, name) if slug in GAMES else None
    if options is None:
        return render_home(render(N_("Nothing is saved under %(name)s any more.", name=shown(name))), status=404)
    return render_home(form={"game": slug}, filled={slug: options})


def render_home(error: str | None = None, form: dict | None = None, status: int = 200, filled: dict | None = None):
    """The home page: the start form (`form`: what was typed, a refused start's or the
    form a saved option set was tapped on; `filled`: by game, options to show instead of
    its fields, a saved set's) and the tables in play."""
    db = get_db()
    return (
        render_template(
            "home.html",
            tables=history.recent_tables(db, today_only=True),
            presets=service.offered_presets(db),
            filled=filled or {},
            error=error,
            form=form or {},
            name_slots=MAX_PLAYERS_ON_FORM,
        ),
        status,
    )


@bp.get("/tables")
def all_tables():
    """Every table on this companion, closed and older ones included, a page of them at a
    time (`page`, from 1: the latest)."""
    page = max(1, min(inputs.number_or_none(request.args.get("page")) or 1, MAX_TABLE_PAGE))
    found = history.recent_tables(get_db(), history.RECENT_TABLES + 1, skipped=(page - 1) * history.RECENT_TABLES)
    older = len(found) > history.RECENT_TABLES  # one more than a page: there is an older page
    return render_template("tables.html", tables=found[: history.RECENT_TABLES], page=page, older=older)


MAX_TABLE_PAGE = 100_000  # far beyond any companion's tables; keeps the database's OFFSET small


@bp.post("/tables")
def create_table():
    if "forget_preset" in request.form:
        return forget_preset()
    slug = request.form.get("game", "")
    slots = request.form.getlist("player")
    filled = [slot for slot, name in enumerate(slots) if name.strip()]
    names = [slots[slot] for slot in filled]

    try:
        host_seat = read_host_seat(filled)
        created = service.create_table(get_db(), slug, names, read_options(GAMES.get(slug), filled, len(slots)))
    except (service.ServiceError, RuleError) as error:
        return render_home(render(error.text), request.form, error.status)
    table_id = created.table.id
    phone.remember(table_id, "host", created.host_token)
    if host_seat is not None:
        # the host plays: this phone is their seat too, already open here (no code to scan)
        phone.remember(table_id, "seat", created.seat_tokens[host_seat])
        service.open_seat(get_db(), table_id, host_seat, phone.phone_id())
    return redirect(url_for("pages.join_screen", table_id=table_id), 303)


def read_host_seat(filled: list[int]) -> int | None:
    """The seat of the host who plays too, from the name slot they marked "Me" (the field
    host_plays; a slot left empty takes no seat: see slots_to_seats); None for a host who
    only keeps the score (host_plays empty, or a form of before that has none)."""
    chosen = request.form.get("host_plays", "")
    if not chosen.strip():
        return None
    slot = inputs.number_or_none(chosen)
    if slot not in filled:
        raise service.ServiceError(
            422, "host_seat_empty", N_("“Me” is marked beside an empty name: type your name there, or choose “I only keep the score”.")
        )
    return filled.index(slot)


def forget_preset():
    """A saved option set the host no longer wants offered (its own small form on the start
    form, "<slug>/<name>"): gone, and the start form again."""
    slug, _, name = request.form["forget_preset"].partition("/")
    if slug in GAMES:
        service.forget_preset(get_db(), slug, name)
    return redirect(url_for("pages.home"), 303)


def read_options(game: Game | None, filled: list[int], slot_count: int) -> dict[str, Any]:
    """The start form's options for `game`: checkboxes, and maps typed or chosen field by
    field (see form_option_map)."""
    options: dict[str, Any] = {}
    for option in game.options if game is not None else ():
        if option.is_flag:
            options[option.name] = request.form.get(f"{game.slug}.{option.name}") == "on"
        else:
            entries = form_option_map(f"{game.slug}.{option.name}.", as_typed=option.typed)
            if option.per_seat:
                entries = slots_to_seats(entries, filled, slot_count)
            if entries:
                options[option.name] = entries
    return options


def slots_to_seats(entries: dict[str, Any], filled: list[int], slot_count: int) -> dict[str, Any]:
    """A per-seat option's form entries, keyed "<slot>" or "<slot>.<more>", re-keyed by seat:
    a name slot left empty takes no seat, so the players after it move up, and so do their
    entries. Entries of the form's empty slots are dropped; any other key is garbled, and
    left for the game to refuse with its sentence."""
    seat_of_slot = {str(slot): str(seat) for seat, slot in enumerate(filled)}
    empty_slots = {str(slot) for slot in range(slot_count)} - set(seat_of_slot)
    seated = {}
    for key, value in entries.items():
        slot, dot, rest = key.partition(".")
        if slot in seat_of_slot:
            seated[seat_of_slot[slot] + dot + rest] = value
        elif slot not in empty_slots:
            seated[key] = value
    return seated


def form_option_map(prefix: str, as_typed: bool = False) -> dict[str, Any]:
    """A non-checkbox option from the start form: fields named <slug>.<option>.<key> make
    the map {key: value}; whole numbers arrive as ints, so the game's own validation sees
    the same types as from the JSON API, unless the option's fields are text `as_typed`."""
    entries: dict[str, Any] = {}
    for field, value in request.form.items():
        if field.startswith(prefix):
            entries[field[len(prefix):]] = value if as_typed else inputs.typed_value(value)
    return entries


# --- joining -----------------------------------------------------------------------------
def existing_table(table_id: str) -> service.Table:
    try:
        return service.load(get_db(), table_id)
    except service.ServiceError:
        abort(404)


def join_codes_host(table_id: str) -> str | None:
    """The host token of the phone asking for the table's join codes, if it is the host's."""
    host_token = phone.host_token(table_id)
    return host_token if host_token is not None and service.is_host(get_db(), table_id, host_token) else None


def not_the_host_for_join_codes():
    return render_template("error.html", message=render(N_("Only the phone that started this table can show its join codes.")), status=403), 403


# While the host shows the codes, each says whether its seat is open on a phone yet: the
# page asks this often until every seat is (then htmx stops asking: status 286).
JOIN_STATUS_SECONDS = 3
ALL_SEATS_OPEN = 286


@bp.get("/t/<table_id>/join")
def join_screen(table_id: str):
    table = existing_table(table_id)
    host_token = join_codes_host(table_id)
    if host_token is None:
        return not_the_host_for_join_codes()
    opened = service.opened_seats(get_db(), table_id)
    own = own_seat(table_id)
    seats = []
    for seat, name in enumerate(table.names):
        if seat == own:  # the host's own seat, on this phone: no code to scan
            seats.append({"seat": seat, "name": name, "own": True})
            continue
        url = join_url(service.seat_token(host_token, seat))
        seats.append({"seat": seat, "name": name, "url": url, "svg": qr_svg(url), "opened": seat in opened})
    page = render_template(
        "join.html", table=views.table_view(table), seats=seats, own_seat=own,
        all_open=len(opened | held_here(own)) == len(seats), status_seconds=JOIN_STATUS_SECONDS,
    )
    return page, 200, {"Cache-Control": "no-store"}  # it carries every seat's join token


def own_seat(table_id: str) -> int | None:
    """The seat this phone holds at the table, if any (the host's, when the host plays)."""
    token = phone.held(table_id).get("seat")
    return None if token is None else service.seat_of(get_db(), table_id, token)


def held_here(own: int | None) -> set[int]:
    """The host's own seat counts as open: this phone holds it."""
    return set() if own is None else {own}


@bp.get("/t/<table_id>/join/status")
def join_status(table_id: str):
    """Whether each seat is open on a phone yet, for the join codes' page (out-of-band swaps)."""
    names = service.seat_names(get_db(), table_id)
    if not names:
        abort(404)
    if join_codes_host(table_id) is None:
        return not_the_host_for_join_codes()
    opened = service.opened_seats(get_db(), table_id)
    own = own_seat(table_id)  # its card says "Your seat, on this phone" for good: nothing to swap
    seats = [{"seat": seat, "opened": seat in opened} for seat in range(len(names)) if seat != own]
    return render_template("join_status.html", seats=seats, swap=True), ALL_SEATS_OPEN if len(opened | held_here(own)) == len(names) else 200


@bp.get("/j/<token>")
def join(token: str):
    found = service.find_seat(get_db(), token)
    if found is None:
        return render_template("error.html", message=render(N_("This join link is not valid. Ask the host to show the codes again.")), status=404), 404
    table_id, seat = found
    held_seat = phone.held(table_id).get("seat")
    current = None if held_seat is None else service.seat_of(get_db(), table_id, held_seat)
    if current == seat:
        return redirect(url_for("pages.table_page", table_id=table_id), 303)  # its own code again
    opened_by = service.seat_opened_by(get_db(), table_id, seat)
    if request.args.get("again") != "yes" and opened_by not in (None, phone.phone_id()):
        # A player who scanned a neighbour's code would share their sheet, and the neighbour
        # would find out only when a tap of theirs came from the wrong phone: it asks first
        # (a phone that is another player's may stay theirs: one question, not two).
        names = service.seat_names(get_db(), table_id)
        page = render_template(
            "seat_open_elsewhere.html", table_id=table_id, name=names[seat], current=None if current is None else names[current],
            again_url=url_for("pages.join", token=token, again="yes", **({"switch": "yes"} if current is not None else {})),
        )
        return page, 200, {"Cache-Control": "no-store"}  # its link carries the join token
    if current is not None and request.args.get("switch") != "yes":
        # Another player's code scanned by mistake would take this phone from its player
        # without a word (and leave them without a sheet): it asks first.
        names = service.seat_names(get_db(), table_id)
        page = render_template(
            "switch_seat.html", table_id=table_id, current=names[current], wanted=names[seat],
            switch_url=url_for("pages.join", token=token, switch="yes"),
        )
        return page, 200, {"Cache-Control": "no-store"}  # its link carries the join token
    phone.remember(table_id, "seat", token)
    return redirect(url_for("pages.table_page", table_id=table_id), 303)


@bp.post("/t/<table_id>/opened")
def seat_opened(table_id: str):
    """The table page of a seat says it is open on this phone (static/app.js, once the page
    has loaded: a link preview that fetched the join link runs no script, so it never
    counts as a phone). Another phone scanning the seat's code is then asked first. A
    host's phone without a seat of its own has none to open."""
    db = get_db()
    existing_table(table_id)
    viewer = phone.page_viewer(db, table_id)
    if viewer.seat is None:
        message = render(N_("Only a player's phone can open their seat: scan your own code."))
        return render_template("error.html", message=message), 403
    service.open_seat(db, table_id, viewer.seat, phone.phone_id())
    return "", 200


def table_context(table: service.Table, viewer: service.Viewer, error: str | None = None) -> dict[str, Any]:
    """Everything a table page is rendered from: the table in the reader's words, and what
    this phone may do with it."""
    return {**situation(table, viewer, error), "table": views.table_view(table, viewer)}


# Set by the table page's script once the phone answered its offer to alert (static/app.js).
ALERTS_ANSWERED_COOKIE = "companion_alerts"


def render_table(table: service.Table, viewer: service.Viewer, error: str | None = None, status: int = 200):
    if request.headers.get("HX-Request"):
        return table_body(table, viewer, error), status
    # the page's own id: its taps and its held connection carry it (web/push.py)
    page_id = secrets.token_urlsafe(12)
    # a seat's page says that the seat is open on this phone, unless it is already (seat_opened)
    opened_here = viewer.seat is None or service.seat_opened_by(get_db(), table.id, viewer.seat) == phone.phone_id()
    alerts_answered = request.cookies.get(ALERTS_ANSWERED_COOKIE) == "answered"
    page = render_template(
        "table.html", **table_context(table, viewer, error), page_id=page_id, opened_here=opened_here, alerts_answered=alerts_answered
    )
    return page, status


@bp.get("/t/<table_id>/events")
def events(table_id: str):
    """The table page's held connection (web/push.py): this phone's fresh table, rendered
    as the poll renders it (a watching phone's shared with the others); after a rematch
    the phone is led to its new seat."""

    def body(db) -> str:
        return table_body(service.load(db, table_id), phone.page_viewer(db, table_id))

    return push.held_connection(table_id, body, lambda rematch_id: phone.rematch_address(table_id, rematch_id))


@bp.get("/t/<table_id>")
def table_page(table_id: str):
    table = existing_table(table_id)
    return render_table(table, phone.page_viewer(get_db(), table_id))


@bp.get("/t/<table_id>/poll")
def poll(table_id: str):
    """Every phone asks every couple of seconds: 204 while nothing changed (one indexed
    lookup, no replay), the fresh table when something did."""
    db = get_db()
    found = service.version_and_rematch(db, table_id)
    if found is None:
        abort(404)
    version, rematch_id = found
    rematch_address = phone.rematch_address(table_id, rematch_id)
    if rematch_address is not None:
        return "", 204, {"HX-Redirect": rematch_address}
    shows_rematch = rematch_id is None or request.args.get("rematch") == "1"
    if inputs.number_or_none(request.args.get("v")) == version and shows_rematch:
        return "", 204
    return render_table(service.load(db, table_id), phone.page_viewer(db, table_id))


def form_action(game) -> dict[str, Any]:
    try:
        action = inputs.load_json(request.form.get("action", ""))
    except RuleError:
        action = None
    if not isinstance(action, dict):
        raise service.ServiceError(400, "malformed_request", N_("That tap could not be understood. Reload the page."))
    action = forms.action_from_form(action, request.form)
    seat = inputs.sent_number(request.form.get("seat"))
    if seat is not None:
        action["seat"] = seat
    return action


def expected_version() -> int | None:
    return inputs.sent_number(request.form.get("expected_version"))


def after_write(table_id: str, write) -> Any:
    db = get_db()
    viewer = phone.page_viewer(db, table_id)
    with sharing_the_write(db, viewer) as share:
        try:
            result = write(db, viewer)
        except (service.ServiceError, RuleError) as error:  # RuleError: a form's numbers refused (inputs)
            return render_table(existing_table(table_id), viewer, render(error.text), error.status)
        table, notice = result if isinstance(result, tuple) else (result, None)  # notice: what stopped a redo
        share(table)
    if not request.headers.get("HX-Request"):
        return redirect(url_for("pages.table_page", table_id=table_id), 303)
    return render_table(table, viewer, notice)


@bp.post("/t/<table_id>/act")
def act(table_id: str):
    game = service.game_of(get_db(), table_id)
    if game is None:
        abort(404)
    return after_write(
        table_id, lambda db, viewer: service.act(db, table_id, viewer, form_action(game), expected_version())
    )


@bp.post("/t/<table_id>/undo")
def undo(table_id: str):
    """The last action, or with `from` (the host) every action from that line of the log on."""
    return after_write(
        table_id,
        lambda db, viewer: undo_redo.undo(db, table_id, viewer, expected_version(), inputs.sent_number(request.form.get("from"))),
    )


@bp.post("/t/<table_id>/close")
def close_table(table_id: str):
    """The host closes the table (it keeps its log and results) and goes back home."""
    db = get_db()
    viewer = phone.page_viewer(db, table_id)
    try:
        service.close(db, table_id, viewer)
    except service.ServiceError as error:
        return render_table(existing_table(table_id), viewer, render(error.text), error.status)
    return redirect(url_for("pages.home"), 303)


@bp.post("/t/<table_id>/redo")
def redo(table_id: str):
    """Redo the next undone action, all that still apply (`all`), or none: `skip` takes the
    next one out of the offer (a wrong tap that was gone back over)."""

    def write(db, viewer):
        if request.form.get("skip") == "yes":
            return undo_redo.skip(db, table_id, viewer, expected_version())[0]
        redone = undo_redo.redo(db, table_id, viewer, expected_version(), everything=request.form.get("all") == "yes")
        return redone.table, None if redone.stopped is None else render(redone.stopped.text)

    return after_write(table_id, write)

"""The htmx pages a table uses. Thin: parse the tap, call the service, render."""

from __future__ import annotations

import logging
import secrets
from contextlib import contextmanager
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs, urlsplit

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for

from ..tables import history, presets, service, undo_redo
from .. import i18n, inputs
from ..tables.db import STORAGE_LOG, get_db, is_busy, is_storage_failure, storage_errors
from ..games import GAMES, Game
from ..games.errors import RuleError
from ..games.text import N_, shown
from ..i18n import render
from . import forms, fragments, push, views
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
    options = presets.find(get_db(), slug, name) if slug in GAMES else None
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
            presets=presets.offered(db),
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
        created = service.create_table(get_db(), slug, names, read_options(GAMES.get(slug), filled, len(slots)))
    except (service.ServiceError, RuleError) as error:
        return render_home(render(error.text), request.form, error.status)
    phone.remember(created.table.id, "host", created.host_token)
    return redirect(url_for("pages.join_screen", table_id=created.table.id), 303)


def forget_preset():
    """A saved option set the host no longer wants offered (its own small form on the start
    form, "<slug>/<name>"): gone, and the start form again."""
    slug, _, name = request.form["forget_preset"].partition("/")
    if slug in GAMES:
        db = get_db()
        with service.writing(db):
            presets.forget(db, slug, name)
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
    seats = []
    for seat, name in enumerate(table.names):
        url = join_url(service.seat_token(host_token, seat))
        seats.append({"seat": seat, "name": name, "url": url, "svg": qr_svg(url), "opened": seat in opened})
    page = render_template(
        "join.html", table=views.table_view(table), seats=seats, all_open=len(opened) == len(seats), status_seconds=JOIN_STATUS_SECONDS
    )
    return page, 200, {"Cache-Control": "no-store"}  # it carries every seat's join token


@bp.get("/t/<table_id>/join/status")
def join_status(table_id: str):
    """Whether each seat is open on a phone yet, for the join codes' page (out-of-band swaps)."""
    names = service.seat_names(get_db(), table_id)
    if not names:
        abort(404)
    if join_codes_host(table_id) is None:
        return not_the_host_for_join_codes()
    opened = service.opened_seats(get_db(), table_id)
    seats = [{"seat": seat, "opened": seat in opened} for seat in range(len(names))]
    return render_template("join_status.html", seats=seats, swap=True), ALL_SEATS_OPEN if len(opened) == len(seats) else 200


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


# --- the table ---------------------------------------------------------------------------
# The table page shows the newest log lines; the whole log is one tap away. Rendering every
# line into every phone's refresh made long games the costliest thing the server did.
LOG_LINES_SHOWN = 12


def table_context(table: service.Table, viewer: service.Viewer, error: str | None = None) -> dict[str, Any]:
    """Everything a table page is rendered from: the table in the reader's words, and what
    this phone may do with it."""
    return {**situation(table, viewer, error), "table": views.table_view(table, viewer)}


def situation(
    table: service.Table, viewer: service.Viewer, error: str | None = None, whole_log: bool | None = None
) -> dict[str, Any]:
    """What this phone may do with the table, and how its page refreshes: all of the
    page's context but the table in words (table_view), which a watching phone whose
    refresh is already rendered never needs. `whole_log`: unless the request says."""
    db = get_db()
    page = tapped_on()
    if whole_log is None:
        whole_log = request.args.get("log") == "all" or page.get("log") == ["all"]
    actors = [] if service.is_closed(table) else table.game.actors(table.state)
    # the seat the host asked for in the address, the one the host just entered for, or the
    # one the page tapped on was entering for
    chosen = None
    if viewer.host:
        chosen = inputs.number_or_none(request.values.get("as", request.form.get("seat", (page.get("as") or [None])[0])))
    acting_for = None
    if chosen in actors:
        acting_for = chosen
    elif viewer.seat in actors:
        acting_for = viewer.seat
    elif viewer.host and viewer.seat is None and actors:
        acting_for = actors[0]  # a host who keeps the score for everyone: whoever acts
    # A host who plays a seat of their own keeps their own sheet in front: another seat's
    # controls only once they choose to enter for it, never under their thumb. They may
    # choose whenever another seat can act: in its turn, or where seats act at once (Lobo
    # at any time: a player without a phone must still be able to leave and count).
    others_act = any(seat != viewer.seat for seat in actors)
    host_choices = actors if viewer.host and others_act and (len(actors) > 1 or viewer.seat is not None) else []
    return {
        "game": table.game,
        "viewer": viewer,
        "acting_for": acting_for,
        "host_choices": host_choices,
        "can_undo": undo_redo.can_undo(db, table, viewer),
        # what "Undo the last action" undoes (the host's undoes whoever acted last), read only then
        "undo_line": lambda: views.last_line_view(db, table, viewer),
        "redo_offer": views.redo_offer_view(db, table, viewer),
        # read only by a form that starts from what was entered before going back
        "undone_actions": lambda: [] if acting_for is None else undo_redo.undone_actions(db, table, acting_for, viewer),
        # the host may go back to any line of the log (not once a rematch has started)
        "line_undo": viewer.host and table.row.get("rematch_id") is None and not service.is_closed(table),
        # read only when the log is not kept already (web/fragments.py): newest first
        "read_log": lambda: list(reversed(views.log_view(db, table, viewer, None if whole_log else LOG_LINES_SHOWN))),
        "read_log_total": lambda: service.log_length(db, table.id),
        # a game that hides parts of actions from some seats (Lobo) shows each seat its own log
        "log_reader": viewer.seat if type(table.game).redact_action is not Game.redact_action else None,
        "whole_log": whole_log,
        # the refresh keeps what this page shows: the seat the host enters for, the whole log
        "poll_params": {
            **({"as": acting_for} if host_choices and acting_for is not None else {}),
            **({"log": "all"} if whole_log else {}),
            # a rematch starts without a new version: the page says it shows one
            **({"rematch": 1} if table.row.get("rematch_id") is not None else {}),
        },
        "error": error,
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "push": "companion.notifier" in current_app.extensions,
        # whether this phone's player must act now (their dice turn, their writing, their count)
        "must_act": viewer.seat is not None and not service.is_closed(table) and table.game.must_act(table.state, viewer.seat),
    }


def tapped_on() -> dict[str, list[str]]:
    """The query of the page a tap was made on, which htmx names (HX-Current-URL): a tap's
    answer keeps what that page shows, the whole log (`log=all`) and the seat the host
    enters for (`as`), as the page's refresh does (a host going back to an old line of the
    whole log stays on it; one entering for Bruno who taps "Undo" stays on Bruno)."""
    if request.method != "POST":
        return {}
    try:
        return parse_qs(urlsplit(request.headers.get("HX-Current-URL", "")).query)
    except ValueError:  # not an address: a page of ours always sends one
        return {}


def render_table(table: service.Table, viewer: service.Viewer, error: str | None = None, status: int = 200):
    if request.headers.get("HX-Request"):
        return table_body(table, viewer, error), status
    # the page's own id: its taps and its held connection carry it (web/push.py)
    page_id = secrets.token_urlsafe(12)
    # a seat's page says that the seat is open on this phone, unless it is already (seat_opened)
    opened_here = viewer.seat is None or service.seat_opened_by(get_db(), table.id, viewer.seat) == phone.phone_id()
    return render_template("table.html", **table_context(table, viewer, error), page_id=page_id, opened_here=opened_here), status


def table_body(table: service.Table, viewer: service.Viewer, error: str | None = None) -> str:
    """The table part of a page, as a refresh (a poll, a push) sends it."""
    context = situation(table, viewer, error)
    if not is_watching(context):
        return render_template("table_body.html", **context, table=views.table_view(table, viewer))
    return watchers_table(table, context)


def is_watching(context: dict[str, Any]) -> bool:
    """Whether a phone only watches (not its turn, nothing to undo or redo, no error) and
    sees what every other watching phone of the table sees, in a game that shows them all
    the same (`context`: situation's)."""
    return (
        context["game"].watchers_see_the_same_table
        and context["acting_for"] is None
        and not context["viewer"].host
        and not context["can_undo"]
        and not context["redo_offer"]
        and context["error"] is None
    )


def watchers_table(table: service.Table, context: dict[str, Any]) -> str:
    """A watching phone's table part: rendered once per version and language and shared
    (after an action, all but one or two phones of a table are watching), and found before
    the table is put in words again."""
    # a seated phone and a phone that only looks differ after the game (the rematch form)
    key = ("table", table.id, table.version, context["viewer"].seat is not None, *sorted(context["poll_params"].items()))
    shared = fragments.kept(*key)
    if shared is None:
        shared = render_template("table_body.html", **context, table=views.table_view(table, context["viewer"]))
        if phone.CSRF_FIELD in shared:
            return shared  # it holds a form for this phone (a rematch): never another's
        fragments.keep(shared, *key)
    return shared


@contextmanager
def sharing_the_write(db, writer: service.Viewer) -> Iterator[Callable[[service.Table], None]]:
    """Around a write (a page's tap, an API call): under the push server, the table it
    made, handed to the function this gives once the write committed, goes to the table's
    watching phones with the news (share_with_watchers), which is held until then
    (service.announcing_at_end). Under the thread server (no phone waits for news),
    nothing is shared."""
    if "companion.notifier" not in current_app.extensions:
        yield lambda table: None
        return
    with service.announcing_at_end(db) as moved:
        # `moved`: the tables the write moved, known once it is done (nothing: a refusal)
        yield lambda table: share_with_watchers(db, table, writer) if moved else None


def share_with_watchers(db, table: service.Table, writer: service.Viewer) -> None:
    """Under the push server, the process whose write made the table's version renders the
    table as its watching phones see it, in the writer's language (the tapping phone's, or
    the one an API call asks for: its language cookie, else Accept-Language), before the
    version is announced, and puts it in the database with the parts rendered for it (the
    grill, the log): every other process, woken with its phones, reads them there instead
    of rendering them again (a cold rendering, the costliest part of a push). Only if
    another seat is open on a phone: a host entering for players without one has nobody
    to share it with. Only a saving of work, made once the write is saved: the database
    failing now is logged, and the write answered all the same."""
    if not table.game.watchers_see_the_same_table:
        return  # each phone's table is its own (Lobo's secret colour, a Qwixx sheet first)
    if table.row["status"] == "finished":
        # a seated phone's finished table holds its own rematch form (its CSRF token): never
        # shared, and rendering it would put a token in the writer's session (an API call's)
        return
    try:
        with fragments.published(table.id, table.version) as parts:
            for seat in sorted(service.opened_seats(db, table.id) - {writer.seat}):
                context = situation(table, service.Viewer(seat=seat), whole_log=False)
                if is_watching(context):
                    watchers_table(table, context)
                    break
        if parts:
            service.publish_parts(db, table.id, table.version, parts)
    except storage_errors() as error:
        if not (is_busy(error) or is_storage_failure(error)):
            raise
        logging.getLogger(STORAGE_LOG).warning("The watching phones' table was not shared: %s", error)


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

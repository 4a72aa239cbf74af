"""The two faces of the companion: htmx pages for people (pages, results), a JSON API
for programs (api), and what every page and answer shares, set up here by `install`:
the form check (CSRF), the template helpers, the parts of pages kept for all phones
(fragments), the error pages, and each game's styles."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

from flask import abort, make_response, redirect, render_template, request, url_for
from flask.globals import request_ctx
from flask_babel import get_locale
from werkzeug.exceptions import HTTPException, SecurityError

from .. import inputs
from . import i18n
from ..tables import service
from ..tables.database import STORAGE_LOG
from ..tables.store import StorageFailure
from ..games import GAMES
from ..games.text import N_, Text
from .i18n import render
from . import api, forms, fragments, game_files, night, pages, players, results, rules, screen
from . import session as phone
from .links import UNTRUSTED_HOST


def install(app) -> None:
    app.url_value_preprocessor(check_table_id)
    app.before_request(check_forms)
    # a global, not a context variable: macros.html (the forms' macro) is imported
    # without the page's context, so Jinja builds it once instead of on every render
    app.jinja_env.globals["csrf_token"] = phone.csrf_token
    app.jinja_env.filters["form_key"] = forms.form_key
    app.context_processor(template_helpers)
    fragments.install(app)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(StorageFailure, storage_error)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(screen.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(night.bp)
    game_files.install(app)


def check_table_id(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A table id of another shape than the companion gives (a NUL, a letter no id has, any
    length but six) names no table: answered here for every route, before a database is
    asked (PostgreSQL refuses text holding a NUL). The answer does not repeat the id."""
    table_id = (values or {}).get("table_id")
    if table_id is None or service.is_table_id(table_id):
        return
    if request.method in ("GET", "HEAD") and not request.path.startswith("/api/") and service.is_table_id(table_id.upper()):
        # typed in lower case from the table screen or read aloud: the table's own address
        query = request.query_string.decode("latin-1")
        abort(redirect(request.path.replace(f"/{table_id}", f"/{table_id.upper()}", 1) + (f"?{query}" if query else ""), 308))
    if request.path.startswith("/api/"):
        raise service.ServiceError(404, "unknown_table", N_("There is no table with that code."))
    abort(404)


def check_forms() -> None:
    """Every page's form holds valid Unicode and carries the session's CSRF token; the API
    is reached with tokens in a header, which no other site can make a browser send. An
    address nothing answers at gets its 404 or 405, not a refused form."""
    if request.blueprint not in (None, api.bp.name):
        if request.method == "POST" and request.mimetype == "application/x-www-form-urlencoded":
            check_form_text()
        phone.check_csrf()


def check_form_text() -> None:
    """A form's text must decode as UTF-8 once its %-escapes are undone: werkzeug keeps
    undecodable bytes as their escapes, so "%ED%A0%80" (a surrogate) would arrive as that
    literal text and be stored as a name. The form is parsed later from the same bytes."""
    try:
        unquote_to_bytes(request.get_data(cache=True).replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        abort(400, description=inputs.NOT_UNICODE)


def template_helpers() -> dict[str, Any]:
    return {
        "render": render,
        "games": GAMES,
        "locale": str(get_locale()),
        "languages": i18n.LANGUAGES,
        "page_path": page_path,
    }


def page_path() -> str:
    """Where the language switcher returns to: this page, or for a page answering a form
    (a refused start, a refused tap without htmx) the page the form was on."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path:
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return url_for("pages.home")


# Said to any request that cannot be understood, by the app and by the push server itself
# (companion/server/cli.py, in English: a request it cannot read says no language either).
GARBLED_REQUEST = N_("That request could not be understood. Reload the page and try again.")


def http_error(exc: HTTPException):
    if request.path.startswith("/api/"):
        return api.http_error(exc)  # in JSON; routing errors never reach the API blueprint's own handler
    messages = {
        400: GARBLED_REQUEST,
        403: N_("This phone is not allowed to do that."),
        404: N_("There is nothing here. Check the link."),
        405: N_("That is not something this page can do."),
        413: N_("That request is too large."),
    }
    if isinstance(exc, SecurityError):  # a Host outside TRUSTED_HOSTS
        message = UNTRUSTED_HOST
    elif exc.description == "csrf":
        message = N_("This page is out of date. Reload it and try again.")
    elif isinstance(exc.description, Text):  # a refusal that says why (check_forms)
        message = exc.description
    else:
        message = messages.get(exc.code, N_("Something went wrong."))
    if request_ctx.url_adapter is None:
        # No address can be made for this request (werkzeug refused its Host header, BadHost):
        # the error page, whose links are addresses, cannot be rendered. The sentence alone.
        return render(message), exc.code, {"Content-Type": "text/plain; charset=utf-8"}
    return render_template("error.html", message=render(message), status=exc.code), exc.code


# A page that could not reach the database loads itself again this often, so the phones are
# back at their tables by themselves once it answers (a restarted PostgreSQL, a disk back).
STORAGE_RETRY_SECONDS = 10
STORAGE_UNREACHABLE = N_(
    "The companion cannot reach its saved games right now: the machine it runs on cannot read or write"
    " its database. Tell the person running the companion, then reload the page."
)
DATABASE_UNREACHABLE = N_(
    "The companion cannot reach its database right now. Try again in a moment; if it goes on, tell the person"
    " running the companion."
)


def storage_error(failure: StorageFailure):
    """The storage failing outside a write (writes refuse it themselves, see service.writing):
    a sentence for the players, the error in the log for whoever runs the companion."""
    logging.getLogger(STORAGE_LOG).error("Could not use the database: %s", failure)
    sentence = DATABASE_UNREACHABLE if failure.unreachable else STORAGE_UNREACHABLE  # PostgreSQL away
    if request.path.startswith("/api/"):
        return api.error(503, "storage_unavailable", sentence)
    page = render_template("error.html", message=render(sentence), status=503, retry_seconds=STORAGE_RETRY_SECONDS)
    response = make_response(page, 503)
    if request.headers.get("HX-Request"):
        response.headers["HX-Refresh"] = "true"  # the whole page says it, not a fragment inside the table
    return response

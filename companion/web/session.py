"""What a phone's signed session cookie holds: its tokens per table, and a CSRF token.

A join link puts the seat token here and redirects, so tokens do not linger in URLs,
browser history or Referer headers. Tokens are checked against their hashes on every
request, so a cookie for a seat that no longer exists grants nothing.
"""

from __future__ import annotations

import hmac
import secrets

from flask import abort, request, session, url_for
from flask.sessions import SecureCookieSessionInterface

from .. import inputs
from ..tables import service
from ..tables.service import Viewer

MAX_TABLES_REMEMBERED = 20
CSRF_FIELD = "csrf_token"
PHONE_FIELD = "phone"  # which phone this is, to a seat it opened (no secret: it opens nothing)
CSRF_HEADER = "X-CSRF-Token"
PAGE_HEADER = "X-Companion-Page"  # which table page a tap comes from (web/pages.py)


class PhoneSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, with two differences. The cookie is `Secure` whenever
    the request came over HTTPS (behind a proxy: see BEHIND_PROXY), so one server can serve
    the LAN over HTTP and a proxy's HTTPS. And a validly signed cookie of another shape (an
    older version's) is read as far as it makes sense: whatever is malformed is forgotten,
    never trusted and never a crash."""

    def open_session(self, app, request):
        opened = super().open_session(app, request)
        if opened is not None:
            _forget_malformed(opened)
        return opened

    def get_cookie_secure(self, app) -> bool:
        return super().get_cookie_secure(app) or request.is_secure


def _forget_malformed(opened) -> None:
    tables = opened.get("tables")
    if tables is not None:
        kept = {
            table_id: {key: value for key, value in entry.items() if isinstance(value, str)}
            for table_id, entry in (tables.items() if isinstance(tables, dict) else ())
            if isinstance(entry, dict)
        }
        if kept != tables:
            opened["tables"] = kept
    for field in (CSRF_FIELD, PHONE_FIELD):
        if field in opened and not isinstance(opened[field], str):
            del opened[field]


def remember(table_id: str, role: str, token: str) -> None:
    tables = dict(session.get("tables", {}))
    entry = dict(tables.pop(table_id, {}))
    entry[role] = token
    tables[table_id] = entry
    while len(tables) > MAX_TABLES_REMEMBERED:
        tables.pop(next(iter(tables)))
    session["tables"] = tables
    session.permanent = True


def host_token(table_id: str) -> str | None:
    return session.get("tables", {}).get(table_id, {}).get("host")


def held(table_id: str) -> dict[str, str]:
    """What this phone keeps for a table: its "seat" and "host" tokens (either, both or
    neither) and, once it has followed the table's rematch, the rematch's id ("rematch")."""
    return dict(session.get("tables", {}).get(table_id, {}))


def rematch_address(table_id: str, rematch_id: str | None) -> str | None:
    """Where this phone is led once a rematch started from the table, if it joined the
    table (a seat, or as host) and has yet to follow it; else None. Asked by the table
    page's poll and held connection and by the results page."""
    kept = held(table_id)
    if rematch_id is None or not ("seat" in kept or "host" in kept) or kept.get("rematch") == rematch_id:
        return None
    return url_for("results.follow_rematch", table_id=table_id)


def page_viewer(db, table_id: str) -> Viewer:
    entry = session.get("tables", {}).get(table_id, {})
    host = "host" in entry and service.is_host(db, table_id, entry["host"])
    seat = service.seat_of(db, table_id, entry["seat"]) if "seat" in entry else None
    return Viewer(seat=seat, host=host, page=inputs.page_id(request.headers.get(PAGE_HEADER)))


def phone_id() -> str:
    """This phone's random id, made the first time it opens a seat."""
    if not isinstance(session.get(PHONE_FIELD), str):
        session[PHONE_FIELD] = secrets.token_urlsafe(9)
    return session[PHONE_FIELD]


def csrf_token() -> str:
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(24)
    return session[CSRF_FIELD]


def check_csrf() -> None:
    """Every state-changing form request carries the session's CSRF token."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    expected = session.get(CSRF_FIELD)
    # compared as bytes: compare_digest refuses text that is not ASCII (a TypeError, a 500),
    # and a token no page gave is just a page out of date
    if not expected or not hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")):
        abort(400, description="csrf")

"""The JSON API (docs/api.md). No game logic: everything goes through the service."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request
from werkzeug.exceptions import HTTPException, SecurityError

from .. import inputs
from ..tables import service, undo_redo
from .database import get_db
from ..games.errors import RuleError
from ..games.text import N_, shown
from .i18n import render
from . import views
from .links import UNTRUSTED_HOST, join_url
from .openapi import document as openapi_document
from .sharing import sharing_the_write

bp = Blueprint("api", __name__, url_prefix="/api")


def error(status: int, code: str, text) -> tuple[Any, int]:
    return jsonify({"error": render(text), "code": code}), status


@bp.errorhandler(service.ServiceError)
@bp.errorhandler(RuleError)  # a request refused before it reaches the service (inputs)
def service_error(exc: service.ServiceError | RuleError):
    return error(exc.status, exc.code, exc.text)


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException):
    codes = {
        404: ("not_found", N_("There is nothing at this address.")),
        405: ("method_not_allowed", N_("This address does not take that kind of request.")),
        413: ("too_large", N_("The request is too large.")),
        415: ("unsupported_media_type", N_("Send the request body as JSON, with Content-Type: application/json.")),
        500: ("internal_error", N_("Something went wrong on the server.")),
    }
    code, text = codes.get(exc.code, ("bad_request", N_("The request could not be understood.")))
    if isinstance(exc, SecurityError):  # a Host outside TRUSTED_HOSTS
        code, text = "untrusted_host", UNTRUSTED_HOST
    response, status = error(exc.code or 400, code, text)
    if getattr(exc, "valid_methods", None):  # a 405 says which methods the address takes
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    return response, status


def body(fields: tuple[str, ...] | None = None, optional: bool = False) -> dict[str, Any]:
    """The request's JSON object, with no field but `fields` if given (a misspelt one would be
    ignored: "option" for "options" started another game than asked); an empty body
    stands for {} where it is `optional`. Only a body marked as JSON is read: a cross-site
    form can send text/plain, never application/json, so this keeps other sites' pages
    from acting here."""
    raw = request.get_data()
    if optional and not raw:
        return {}
    if not request.is_json:
        abort(415)
    data = inputs.load_json(raw)
    if not isinstance(data, dict):
        raise service.ServiceError(400, "malformed_json", inputs.NOT_JSON)
    unknown = [] if fields is None else sorted(set(data) - set(fields))  # actions: their game checks them
    if unknown:
        raise service.ServiceError(
            400, "malformed_request", N_("This request has no field called %(field)s.", field=shown(unknown[0]))
        )
    return data


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise service.ServiceError(401, "unknown_token", N_("Send your token as: Authorization: Bearer <token>."))
    return token.strip()


def viewer(table_id: str) -> service.Viewer:
    return service.identify(get_db(), table_id, bearer_token())


def require_table(table_id: str) -> None:
    """404 for an unknown table, before the token is looked at (a cheap lookup, no replay)."""
    if service.version_and_rematch(get_db(), table_id) is None:
        raise service.ServiceError(404, "unknown_table", N_("There is no table %(id)s.", id=table_id))


@bp.get("/openapi.json")
def openapi():
    """This API as an OpenAPI 3.1 document."""
    return jsonify(openapi_document())


@bp.post("/tables")
def create_table():
    data = body(("game", "players", "options"))
    created = service.create_table(get_db(), data.get("game"), data.get("players"), data.get("options", {}))
    table = created.table
    payload = {
        "id": table.id,
        "host_token": created.host_token,
        "seats": [
            {"seat": seat, "name": name, "token": token, "join_url": join_url(token)}
            for seat, (name, token) in enumerate(zip(table.names, created.seat_tokens))
        ],
        "table": views.table_view(table),
    }
    return jsonify(payload), 201, {"Cache-Control": "no-store"}  # it carries every token


@bp.get("/tables/<table_id>")
def get_table(table_id: str):
    db = get_db()
    table = service.load(db, table_id)
    return jsonify(views.table_view(table, viewer(table_id)))


@bp.get("/tables/<table_id>/log")
def get_log(table_id: str):
    db = get_db()
    table = service.load(db, table_id)
    return jsonify({"events": views.log_view(db, table, viewer(table_id))})


@bp.post("/tables/<table_id>/actions")
def post_action(table_id: str):
    db = get_db()
    require_table(table_id)
    who = viewer(table_id)
    data = body()
    with sharing_the_write(db, who) as share:
        table = service.act(db, table_id, who, data, data.get("expected_version"))
        share(table)
    return jsonify(views.table_view(table, who))


@bp.post("/tables/<table_id>/undo")
def post_undo(table_id: str):
    db = get_db()
    require_table(table_id)
    who = viewer(table_id)
    data = body(("expected_version", "from"), optional=True)
    with sharing_the_write(db, who) as share:
        table = undo_redo.undo(db, table_id, who, data.get("expected_version"), data.get("from"))
        share(table)
    return jsonify(views.table_view(table, who))


@bp.post("/tables/<table_id>/redo")
def post_redo(table_id: str):
    db = get_db()
    require_table(table_id)
    who = viewer(table_id)
    data = body(("expected_version", "all", "skip"), optional=True)
    everything, skipping = data.get("all", False), data.get("skip", False)
    if not isinstance(everything, bool) or not isinstance(skipping, bool):
        raise service.ServiceError(400, "malformed_request", N_('"all" and "skip" must be true or false.'))
    if everything and skipping:
        raise service.ServiceError(400, "malformed_request", N_('Send "all" or "skip", not both.'))
    if skipping:
        with sharing_the_write(db, who) as share:
            table, skipped = undo_redo.skip(db, table_id, who, data.get("expected_version"))
            share(table)
        return jsonify({**views.table_view(table, who), "redo": {"redone": 0, "stopped": None, "skipped": skipped["seq"]}})
    with sharing_the_write(db, who) as share:
        redone = undo_redo.redo(db, table_id, who, data.get("expected_version"), everything)
        share(redone.table)
    stopped = redone.stopped
    return jsonify(
        {
            **views.table_view(redone.table, who),
            "redo": {
                "redone": redone.count,
                "stopped": None if stopped is None else {"code": stopped.code, "error": render(stopped.text)},
            },
        }
    )

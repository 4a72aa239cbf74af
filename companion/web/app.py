"""The Flask app (create_app): its settings, the data folder and the key that signs cookies,
the headers every answer carries, what every request is checked for first (its Host, its
body's size), the logs' filters, and the two faces of web/ installed on it."""

from __future__ import annotations

import errno
import io
import logging
import os
import re
import secrets
import threading
import time
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from flask import Flask, abort, current_app, request
from flask_babel import Babel
from htmx_flask import Htmx
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from ..paths import FROM_CHECKOUT, default_database, instance_folder, resource_folder
from ..tables import postgres
from ..tables.database import STORAGE_LOG, Database
from . import database, i18n
from .compression import compress

MAX_REQUEST_BYTES = 64 * 1024
# waitress reads a whole body before the app sees it. Over this size it refuses the request
# (413, plain text) from the headers alone, without reading or buffering the body; bodies
# between the two limits get the app's own 413 (a sentence, JSON under /api).
MAX_SERVER_BODY_BYTES = 1024 * 1024


INSTANCE_ELSEWHERE = "set COMPANION_INSTANCE to a folder it may write"


class DataFolderUnusable(Exception):
    """The data folder (or the database's folder) cannot be made or written: the sentence
    names it and says what to do."""


class PublicUrlUnusable(Exception):
    """--public-url or COMPANION_PUBLIC_URL cannot be the base of the join links: the
    sentence says why and what to give instead."""


@contextmanager
def _writing(folder: Path, what: str, elsewhere: str) -> Iterator[None]:
    """Any OSError within is a DataFolderUnusable naming `folder` and how to move it
    (`elsewhere`): the host reads one sentence, not a traceback."""
    try:
        yield
    except OSError as error:
        a_file = next((path for path in (folder, *folder.parents) if path.exists() and not path.is_dir()), None)
        if a_file is not None:  # "File exists" or "Not a directory" would not say which
            raise DataFolderUnusable(
                f"The companion cannot use {what} {folder}: {a_file} is a file, not a folder. Give a folder:"
                f" {elsewhere}."
            ) from error
        raise DataFolderUnusable(
            f"The companion cannot write to {what} {folder} ({error.strerror or error}): make it writable, or"
            f" {elsewhere}."
        ) from error


def _secret_key(instance: Path) -> str:
    """A key kept in the instance folder, so signed cookies survive restarts. It is written
    whole or not at all, readable by this user only from the first byte: a start on a full
    disk left an empty file (mode 0644), and every later start signed cookies with "", every
    page a 500. An empty key is a missing key."""
    path = instance / "secret_key"
    key = path.read_text().strip() if path.is_file() else ""
    if key:
        return key
    partial = instance / f"secret_key.{os.getpid()}.partial"
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_hex(32))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(partial, path)  # only if there is none: two servers starting at once keep one key
        except FileExistsError:
            if not path.read_text().strip():
                os.replace(partial, path)  # the empty one a full disk left
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.EOPNOTSUPP):
                raise
            os.replace(partial, path)  # a file system without hard links (FAT)
    finally:
        partial.unlink(missing_ok=True)
    return path.read_text().strip()


# No inline scripts or styles anywhere (htmx runs with allowEval off), nothing from other
# origins, and no framing by other sites.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)


def _security_headers(response):
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if request.is_secure:  # every cookie set here (the session's: see PhoneSessionInterface)
        cookies = response.headers.getlist("Set-Cookie")
        response.headers.setlist(
            "Set-Cookie", [cookie if "; secure" in cookie.lower() else cookie + "; Secure" for cookie in cookies]
        )
    return response


def _refuse_untrusted_hosts() -> None:
    """A request addressed to a name the companion does not answer at (TRUSTED_HOSTS): its
    400 comes before anything else looks at it (Flask would raise it only at routing)."""
    if isinstance(request.routing_exception, SecurityError):
        raise request.routing_exception


# Set on a request refused for its size: the server must close the connection rather than
# read (and wait for) the rest of a body that may never come (companion.server.cli's push server).
BODY_LEFT_UNREAD = "companion.body_left_unread"


def _refuse_oversized_bodies() -> None:
    """A body over MAX_CONTENT_LENGTH is refused (413) before anything looks at it: no
    parsing, no database. (Flask alone would refuse it only once a view reads the body.)
    A chunked body says no length: it is read here up to one byte past the limit (the push
    server streams it; werkzeug would cut it at the limit and the view see half of it); a
    chunked body that cannot be read is a bad request."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    environ = request.environ
    if request.content_length is not None:
        if request.content_length > limit:
            environ[BODY_LEFT_UNREAD] = True
            abort(413)
        return
    if environ.get("wsgi.input_terminated"):
        try:
            body = environ["wsgi.input"].read(limit + 1)
        except OSError:
            # a garbled chunk (gevent's _InvalidClientInput) or a phone gone mid-body: the
            # rest of the stream cannot be trusted, so the connection closes after the 400
            environ[BODY_LEFT_UNREAD] = True
            abort(400)
        if len(body) > limit:
            environ[BODY_LEFT_UNREAD] = True
            abort(413)
        # From here on the body is an ordinary one of known length: werkzeug reads no body
        # at all from a request that still says chunked without wsgi.input_terminated, so
        # a chunked undo was acted on as {} (no version to check: the last action undone).
        environ.update({"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})
        del environ["wsgi.input_terminated"]
        environ.pop("HTTP_TRANSFER_ENCODING", None)


# Loggers that may write a request's path: Flask's ("Exception on <path>"), waitress's
# ("Exception while serving <path>") and the development server's request lines.
PATH_LOGGERS = ("waitress", "werkzeug", "gevent")


class TokenRedactor(logging.Filter):
    """Takes the token out of every logged path that carries one (the join link /j/<token>):
    whoever reads a log must not be able to take a seat with it."""

    def __init__(self, app: Flask):
        super().__init__()
        heads = [
            re.sub(r"<[^<>]+>", r"[^/\\s]+", re.escape(re.split(r"<(?:[^:<>]+:)?token>", rule.rule)[0]))
            for rule in app.url_map.iter_rules()
            if "token" in rule.arguments
        ]
        self.pattern = re.compile("(" + "|".join(heads) + r")[^\s/?#\"']+") if heads else None

    def redact(self, text: str) -> str:
        return self.pattern.sub(r"\g<1>[token]", text) if self.pattern else text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and record.exc_text is None:  # the traceback's text too
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
        return True


def _redact_tokens_in_logs(app: Flask) -> None:
    redactor = TokenRedactor(app)
    for logger in (app.logger, *map(logging.getLogger, (STORAGE_LOG, *PATH_LOGGERS))):
        for old in [f for f in logger.filters if isinstance(f, TokenRedactor)]:
            logger.removeFilter(old)  # the app created last decides (tests create many)
        logger.addFilter(redactor)


class RepeatsQuieted(logging.Filter):
    """A line logged again within a minute of the same line is counted, not written: while
    the database is out of reach every phone's poll fails the same way, and the log of a
    table of five would get the same long sentence 150 times a minute (of a café's held
    connections, thousands at once). The count is written with the next such line once the
    minute is over."""

    MINUTE = 60.0

    def __init__(self, clock=time.monotonic):
        super().__init__()
        self.clock = clock
        self.repeats: dict[tuple[str, int, str, str], tuple[float, int]] = {}  # line -> (when written, repeats since)
        self.lock = threading.Lock()  # the thread server's requests log at once

    def filter(self, record: logging.LogRecord) -> bool:
        with self.lock:
            return self._written(record)

    # An object's address in a line (psycopg's "<psycopg.Connection [BAD] at 0x7f...>")
    # makes no line different from the next.
    ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

    def _written(self, record: logging.LogRecord) -> bool:
        # A line is its logger, level, words and, for an error, where it was raised: two
        # different errors behind one "Exception on /night [GET]" are two lines.
        raised = ""
        if record.exc_info and record.exc_info[1] is not None:
            error, frame = record.exc_info[1], traceback.extract_tb(record.exc_info[2])[-1:] if record.exc_info[2] else []
            raised = f"{type(error).__name__} at {frame[0].filename}:{frame[0].lineno}" if frame else type(error).__name__
        line = (record.name, record.levelno, self.ADDRESS.sub("", record.getMessage()), raised)
        now = self.clock()
        written, repeats = self.repeats.get(line, (None, 0))
        if written is not None and now - written < self.MINUTE:
            self.repeats[line] = (written, repeats + 1)
            return False
        if len(self.repeats) > 100:  # lines no longer repeated are forgotten
            self.repeats = {kept: seen for kept, seen in self.repeats.items() if now - seen[0] < self.MINUTE}
        self.repeats[line] = (now, 0)
        if repeats:
            record.msg, record.args = f"{line[2]} (and {repeats} more like it since it was last written)", None
        return True


def _quiet_repeats_in_logs() -> None:
    """On the storage's logger (STORAGE_LOG), whose lines every request may repeat."""
    logger = logging.getLogger(STORAGE_LOG)
    for old in [f for f in logger.filters if isinstance(f, RepeatsQuieted)]:
        logger.removeFilter(old)  # the app created last decides (tests create many)
    logger.addFilter(RepeatsQuieted())


def create_app(config: dict | None = None) -> Flask:
    instance = instance_folder()
    app = Flask(
        __name__,
        instance_path=str(instance),
        template_folder=str(resource_folder("templates")),
        static_folder=str(resource_folder("static")),
    )
    app.config.update(
        DATABASE=os.environ.get("COMPANION_DATABASE", str(default_database())),
        PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL"),
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        # The cookie is sent again only when it changes (a join, a language), not on every
        # poll: re-signing it every 2 s per phone was a quarter of the poll's time. So it
        # lasts 30 days from the last join rather than from the last visit.
        SESSION_REFRESH_EACH_REQUEST=False,
        # Behind a reverse proxy (HTTPS, a host name): trust its X-Forwarded-For/-Proto/
        # -Host/-Port, so cookies are Secure and links use its address. Off by default: on
        # a LAN any phone could send those headers.
        BEHIND_PROXY=os.environ.get("COMPANION_BEHIND_PROXY", "") == "1",
        BABEL_DEFAULT_LOCALE=i18n.DEFAULT_LANGUAGE,
        POLL_SECONDS=2,
        # How often a held push connection says something when nothing happens (web/push.py):
        # behind a proxy that closes connections silent for less, say less.
        PUSH_HEARTBEAT_SECONDS=int(os.environ.get("COMPANION_PUSH_HEARTBEAT_SECONDS", "15")),
        # Extra PRAGMAs for every database connection, e.g. {"synchronous": "FULL"}.
        SQLITE_PRAGMAS={},
    )
    if config:
        app.config.update(config)
    # Checked here, so any WSGI server that serves create_app() refuses it at the start, not
    # only `companion serve`: join links made of it would lead the phones nowhere.
    from .links import public_url_problem, trusted_hosts

    problem = app.config["PUBLIC_URL"] and public_url_problem(app.config["PUBLIC_URL"])
    if problem:
        raise PublicUrlUnusable(problem)  # before anything is made on disk
    if app.config["TRUSTED_HOSTS"] is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(
            app.config.get("LISTEN_HOST"), app.config["PUBLIC_URL"], os.environ.get("COMPANION_TRUSTED_HOSTS", "")
        )
    with _writing(instance, "its data folder", INSTANCE_ELSEWHERE):
        instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        # Several servers behind one load balancer must sign cookies (and seal rematch
        # tokens) with one key: the same COMPANION_SECRET_KEY for all, else each its file.
        with _writing(instance, "its data folder", INSTANCE_ELSEWHERE):
            app.config["SECRET_KEY"] = os.environ.get("COMPANION_SECRET_KEY") or _secret_key(instance)

    if not postgres.is_url(app.config["DATABASE"]):
        folder = Path(app.config["DATABASE"]).parent
        with _writing(folder, "the database's folder", "set COMPANION_DATABASE to a file in a folder it may write"):
            folder.mkdir(parents=True, exist_ok=True)
    opened = Database(app.config["DATABASE"], app.config["SQLITE_PRAGMAS"])
    app.config["DATABASE_FROZEN"] = opened.frozen
    database.install(app, opened)

    # The catalogs live in the package (companion/translations); their .mo files are
    # compiled here, on start, whenever missing or older than the .po files.
    with _writing(instance, "its data folder", INSTANCE_ELSEWHERE):
        app.config.setdefault(
            "BABEL_TRANSLATION_DIRECTORIES",
            str(i18n.compiled_translations(instance / "translations", installed=not FROM_CHECKOUT)),
        )
    Babel(app, locale_selector=i18n.select_locale)
    i18n.install_template_gettext(app)
    app.jinja_env.filters.update(number=i18n.number, moment=i18n.moment, names=i18n.names)
    app.after_request(i18n.say_which_language)
    Htmx(app)
    app.after_request(_security_headers)
    app.after_request(compress)
    app.before_request(_refuse_untrusted_hosts)  # first: nothing else reads a request sent to another name
    app.before_request(_refuse_oversized_bodies)
    if app.config["BEHIND_PROXY"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_port=1)

    from . import install
    from .session import PhoneSessionInterface

    app.session_interface = PhoneSessionInterface()
    install(app)
    _redact_tokens_in_logs(app)
    _quiet_repeats_in_logs()
    return app

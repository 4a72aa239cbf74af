"""The server's log: one format for every logger (the companion's, psycopg's, gevent's,
waitress's and werkzeug's), each line with its time and level, as text or as JSON lines
(`companion serve --log-format json`, for a log collector), at the level asked
(`--log-level`). A line that repeats within a minute (every phone's poll failing the same
way while PostgreSQL is away) is counted, not written: RepeatsQuieted on the handler, so it
holds for every logger.

The JSON lines are made with the standard library's json (five fields): a formatter
package (python-json-logger) would add a dependency to every install for that.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, timezone

from ..web.app import RepeatsQuieted

LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")


def moment(record: logging.LogRecord) -> str:
    """ISO 8601 in UTC to the millisecond: one servers' logs sort together."""
    return datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class TextLines(logging.Formatter):
    """`2026-11-28T17:13:19.123Z WARNING companion: Worker 2 stopped; starting it again.`"""

    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return moment(record)


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": moment(record), "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["traceback"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


def configure(level: str = "info", form: str = "text") -> None:
    """Every logger's lines to stderr through one handler, in `form`, from `level` up."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if form == "json" else TextLines())
    handler.addFilter(RepeatsQuieted())
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def gevent_errors_logged() -> None:
    """gevent's hub prints a greenlet's uncaught error to stderr in its own form: logged
    instead, on the `gevent` logger, in the format of every other line."""
    import gevent

    log = logging.getLogger("gevent")

    def print_exception(context, kind, value, tb) -> None:
        log.error("Error in %s", context, exc_info=(kind, value, tb))

    gevent.get_hub().print_exception = print_exception

"""The reader's language: choosing it, compiling the catalogs, rendering the engines'
sentences (Text) and formatting numbers and dates with Flask-Babel."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime, format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import g, has_request_context, request
from flask_babel import format_decimal, get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup

from ..games.text import Text, isolated, plural_count

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
DEFAULT_LANGUAGE = "en"
# Each language named in itself: the switcher must be readable whatever the page's language.
LANGUAGES = {"en": "English", "pt": "Português", "fr": "Français", "ro": "Română"}
LANGUAGE_COOKIE = "language"
LANGUAGE_COOKIE_SECONDS = 60 * 60 * 24 * 365


# --- choosing the language -----------------------------------------------------------------
def language_of(tag: str) -> str | None:
    """The language we serve for a tag such as "pt-BR", "fr_CA" or "ro"; None if none."""
    primary = tag.replace("_", "-").split("-")[0].strip().lower()
    return primary if primary in LANGUAGES else None


def select_locale() -> str:
    """The language the phone chose with the switcher, else the first of its own
    preferences (Accept-Language, best first) we speak, else English. Regional variants
    count as their language: a French phone sending "fr-FR, en;q=0.5" gets French.
    Outside a request (the service used from a script or a test) English."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    for tag, _quality in request.accept_languages:
        language = language_of(tag)
        if language is not None:
            return language
    return DEFAULT_LANGUAGE


def say_which_language(response):
    """Pages and API answers say their language, and that it depends on the phone's
    Accept-Language and cookies, so that no cache hands one phone's language to another."""
    if request.endpoint == "static":
        return response
    response.vary.update(("Accept-Language", "Cookie"))
    if response.status_code != 204:  # no content, no language: and most polls answer 204
        response.headers.setdefault("Content-Language", str(get_locale()))
    return response


# --- compiling the catalogs ---------------------------------------------------------------
def compile_catalogs(source: Path, target: Path) -> None:
    """Compile every <lang>/LC_MESSAGES/messages.po under `source` into a .mo under `target`
    when the .mo is missing or older than its .po. The .mo files are build products, not
    committed: a fresh clone compiles them on the first start."""
    for po_path in sorted(source.glob("*/LC_MESSAGES/messages.po")):
        mo_path = target / po_path.relative_to(source).with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: a server starting at the same moment never reads half a file.
        handle, temporary = tempfile.mkstemp(dir=mo_path.parent, suffix=".mo-tmp")
        try:
            with os.fdopen(handle, "wb") as mo_file:
                write_mo(mo_file, catalog)
            os.replace(temporary, mo_path)
        except BaseException:
            os.unlink(temporary)
            raise


def compiled_translations(fallback: Path, installed: bool = False) -> Path:
    """The folder Flask-Babel reads the .mo files from: in a checkout, the package's own
    translations folder (beside the .po files) unless it is read-only; installed, always
    `fallback` (in the data folder): nothing is ever written inside site-packages. Where
    `fallback` cannot be written either (a read-only data folder, served for reading), a
    temporary folder of this process', removed when it ends."""
    if not installed:
        try:
            compile_catalogs(TRANSLATIONS, TRANSLATIONS)
            return TRANSLATIONS
        except OSError:
            pass
    try:
        compile_catalogs(TRANSLATIONS, fallback)
        return fallback
    except OSError:
        temporary = Path(tempfile.mkdtemp(prefix="companion-translations-"))
        atexit.register(_remove_if_made_by, os.getpid(), temporary)
        compile_catalogs(TRANSLATIONS, temporary)
        return temporary


def _remove_if_made_by(maker: int, folder: Path) -> None:
    """At the end of the process that made `folder`, not of a child forked from it (the
    server's workers read it while the first process lives)."""
    if os.getpid() == maker:
        shutil.rmtree(folder, ignore_errors=True)


# --- rendering ------------------------------------------------------------------------------
def localized_numbers(text: Text) -> Text:
    """`text` with its whole-number parameters (and its plural count) written the
    language's way, as 1,234 / 1.234 / 1 234; nested sentences alike."""
    params = {key: _localized(value) for key, value in text.params.items()}
    if text.plural is not None:
        params.setdefault("num", whole_number(text.n))
    return replace(text, params=params)


def _localized(value: Any) -> Any:
    if isinstance(value, Text):
        return localized_numbers(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return whole_number(value)
    if isinstance(value, str):
        return isolated(value)
    return value


MINUS = "\u2212"  # the minus sign the sentences write ("penalties −5"), not a hyphen


def whole_number(value: int) -> str:
    """`value` written the reader's way, a negative one with the minus sign MINUS. From 0
    to 999 it is the same in every language here (no group separator, no minus sign), and
    a table page holds dozens of such numbers: those skip Babel's formatting, a tenth of a
    page's render."""
    if 0 <= value < 1000:
        return str(value)
    return with_minus(format_decimal(value))


def with_minus(written: str) -> str:
    """A number Babel wrote, its sign the minus sign MINUS."""
    return written.replace("-", MINUS, 1)


def request_translations():
    """The reader's catalog, looked up once per request: Flask-Babel looks it up again on
    every message, which was a fifth of the time a table page took to render."""
    if not has_request_context():
        return get_translations()
    translations = g.get("translations")
    if translations is None:
        translations = g.translations = get_translations()
    return translations


def install_template_gettext(app) -> None:
    """Templates' _, ngettext, pgettext and npgettext: Jinja's newstyle ones (the sentence
    is always %-formatted, escaped where the template autoescapes) on the once-per-request
    catalog, with their whole numbers (a plural's count too) written the reader's way, as
    render writes them: Jinja's own would write them with %s ("-5", "1234")."""

    @pass_context
    def gettext(context, message, **variables):
        return _formatted(context, request_translations().ugettext(message), variables)

    @pass_context
    def ngettext(context, singular, plural, num, **variables):
        variables.setdefault("num", num)
        return _formatted(context, request_translations().ungettext(singular, plural, plural_count(num)), variables)

    @pass_context
    def pgettext(context, message_context, message, **variables):
        variables.setdefault("context", message_context)
        return _formatted(context, request_translations().upgettext(message_context, message), variables)

    @pass_context
    def npgettext(context, message_context, singular, plural, num, **variables):
        variables.setdefault("context", message_context)
        variables.setdefault("num", num)
        return _formatted(context, request_translations().unpgettext(message_context, singular, plural, plural_count(num)), variables)

    # Flask-Babel added Jinja's i18n extension ({% trans %}, and _ resolving to gettext)
    app.jinja_env.globals.update(gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext)
    app.jinja_env.newstyle_gettext = True  # {% trans %} blocks pass their variables by name


def _formatted(context, sentence: str, variables: dict[str, Any]) -> str:
    for name, value in variables.items():
        if type(value) is int:
            variables[name] = whole_number(value)
    if context.eval_ctx.autoescape:
        sentence = Markup(sentence)
    return sentence % variables


def render(text: Text | str | None) -> str | None:
    if text is None or isinstance(text, str):
        return text
    # The catalogue's own lookups: Flask-Babel's ngettext would already %-format the
    # template with `num` alone and fail on the sentence's other parameters.
    translations = request_translations()
    return localized_numbers(text).render(translations.gettext, translations.ngettext, translations.pgettext)


def render_all(value: Any) -> Any:
    """Every Text inside a JSON-like value, rendered."""
    if isinstance(value, Text):
        return render(value)
    if isinstance(value, dict):
        return {key: render_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [render_all(item) for item in value]
    return value


def names(players: list[str]) -> Markup:
    """Players' names in a line of text (a template filter), each isolated (<bdi>): an
    Arabic or Hebrew name between the commas would otherwise reorder them."""
    return Markup(", ").join(Markup("<bdi>{}</bdi>").format(name) for name in players)


def number(value: Any) -> Any:
    """A whole number written the language's way (a template filter); anything else as is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return whole_number(value)
    return value


def moment(stamp: str | None) -> str:
    """A stored UTC timestamp (ISO 8601) as a short date and time in the server's own time
    zone, which is the table's: the phones are in the same room."""
    if not stamp:
        return ""
    return format_datetime(datetime.fromisoformat(stamp).astimezone(), "short", locale=dates_locale())


def started_words(started: str, finished: str) -> str:
    """When a game started, said beside when it finished: its time alone on the same day
    (20:58), its date too when the game ran past midnight."""
    start, end = datetime.fromisoformat(started).astimezone(), datetime.fromisoformat(finished).astimezone()
    if start.date() == end.date():
        return format_time(start, "short", locale=dates_locale())
    return moment(started)


def dates_locale() -> Locale:
    """The page's language in the phone's own region where it names one: an en-GB phone
    reads 26/11/2026 and 17:59 in English, not the American 11/26/26, 5:59 PM. Found once
    per request (a list of tables writes a date per line)."""
    if not has_request_context():
        return Locale.parse(DEFAULT_LANGUAGE)
    found = g.get("dates_locale")
    if found is None:
        found = g.dates_locale = _regional(str(get_locale()))
    return found


def _regional(language: str) -> Locale:
    for tag, _quality in request.accept_languages:
        if language_of(tag) == language and "-" in tag.replace("_", "-"):
            try:
                return Locale.parse(tag.replace("_", "-"), sep="-")
            except (ValueError, UnknownLocaleError):
                continue  # a region Babel does not know: the next preference
    return Locale.parse(language)

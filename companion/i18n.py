"""Rendering the engines' sentences (Text) in the reader's language with Flask-Babel."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, ngettext

from .games.text import Text


def render(text: Text | str | None) -> str | None:
    if text is None or isinstance(text, str):
        return text
    return text.render(gettext, lambda singular, plural, n: ngettext(singular, plural, n))


def render_all(value: Any) -> Any:
    """Every Text inside a JSON-like value, rendered."""
    if isinstance(value, Text):
        return render(value)
    if isinstance(value, dict):
        return {key: render_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [render_all(item) for item in value]
    return value

"""Rendering the engines' sentences (Text) in the reader's language with Flask-Babel."""

from __future__ import annotations

from typing import Any

from flask_babel import get_translations

from .games.text import Text


def render(text: Text | str | None) -> str | None:
    if text is None or isinstance(text, str):
        return text
    # The catalogue's own lookups: Flask-Babel's ngettext would already %-format the
    # template with `num` alone and fail on the sentence's other parameters.
    translations = get_translations()
    return text.render(translations.gettext, translations.ngettext)


def render_all(value: Any) -> Any:
    """Every Text inside a JSON-like value, rendered."""
    if isinstance(value, Text):
        return render(value)
    if isinstance(value, dict):
        return {key: render_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [render_all(item) for item in value]
    return value

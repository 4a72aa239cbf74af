"""A small English-word detector for rendered pages.

A word of a translated page is "English left over" when the English rendering of the same
page has it too and the language's catalog never uses it in a translation. The catalog's
own words are what the language is allowed to share with English ("points", "page",
"total" in French): tests/i18n/test_catalogs.py makes sure no translation is a copy of its
English message, so an untranslated sentence cannot smuggle its words in. Words a
translation only quotes from the JSON API (field names and values such as "worm", "red",
"seat") never count as the language's own. Names, table ids, links, the brand, the game
titles and the language switcher's names are not words to translate.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po

from companion.games import GAMES
from companion.web.i18n import LANGUAGES, TRANSLATIONS

# What a person reads besides the text itself: hover titles, screen-reader labels, placeholders.
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
WORD = re.compile(r"[^\W\d_]{2,}")
LINK = re.compile(r"https?://\S+")

# Field names and values of the JSON API that sentences about the API quote untranslated.
API_WORDS = {
    "red", "blue", "yellow", "black", "white", "green", "worm", "grill", "take", "type", "color", "colors",
    "meadows", "sheep", "fenced", "wolf", "seat", "sheets", "true", "false", "null", "authorization", "bearer",
}
QUOTED = re.compile(r'"[^"]*"')
IDENTIFIER = re.compile(r"\w*_\w*")  # expected_version, spot_worms
# The brand, and the game titles the boxes print the same in every language (French
# players know Lobo as "La Guerre des Moutons", and the catalog says so).
NEVER_TRANSLATED = ("Companion", *(game.title.msgid for game in GAMES.values()))


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skipping += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping and data.strip():
            self.parts.append(data.strip())


def read_texts(html: str) -> list[str]:
    """Every piece of text on the page a person reads, in order."""
    reader = _Reader()
    reader.feed(html)
    return reader.parts


def words(text: str, ignore: tuple[str, ...] = ()) -> set[str]:
    text = LINK.sub(" ", text)
    for fragment in ignore:
        text = text.replace(fragment, " ")
    return {word.casefold() for word in WORD.findall(text)}


@cache
def catalog_words(language: str) -> frozenset[str]:
    """The words the language's catalog uses in its translations, API quotes left out."""
    path = Path(TRANSLATIONS) / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=language)
    found: set[str] = set()
    for message in catalog:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            found |= words(IDENTIFIER.sub(" ", QUOTED.sub(" ", form)))
    return frozenset(found - API_WORDS)


def allowed_words(language: str) -> set[str]:
    autonyms = set().union(*(words(name) for name in LANGUAGES.values()))
    return set(catalog_words(language)) | autonyms


def english_left(translated_html: str, english_html: str, language: str, ignore: tuple[str, ...]) -> dict[str, list[str]]:
    """The English words left on the translated page, each with the texts it appears in."""
    ignore = ignore + NEVER_TRANSLATED
    english = words(" ".join(read_texts(english_html)), ignore)
    allowed = allowed_words(language)
    left: dict[str, list[str]] = {}
    for text in read_texts(translated_html):
        for word in words(text, ignore) & english:
            if word not in allowed:
                left.setdefault(word, []).append(text)
    return left

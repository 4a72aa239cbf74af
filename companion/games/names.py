"""Text a player types for everyone to read: a player's name, the score pad's game and
categories. What keeps it from being shown as typed (text_problem), what a name looks like
for telling two players apart (look_of_name), and how it is stored (clean_name). Pure: the
games check their own typed options with it, the service the players' names.
"""

from __future__ import annotations

import unicodedata

from .text import N_, Text

# Invisible characters that set the direction of the text around them (bidi embeddings,
# overrides and isolates, and the marks): in a name they would turn the sentences it
# stands in around.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
# Characters that show nothing though Unicode classes them as letters or symbols: the
# Hangul fillers and the blank Braille pattern.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def is_valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


BROKEN, CONTROL, INVISIBLE = "broken", "control", "invisible"  # what text_problem finds


def text_problem(text: str) -> str | None:
    """What keeps `text` from being shown as typed (None if nothing): BROKEN (invalid
    Unicode, a sign of broken text), CONTROL (a control character: a line break, a tab, a
    direction mark) or INVISIBLE (no letter, digit, mark of punctuation or symbol: spaces,
    zero-width characters or fillers alone). For names, and any other text a player types
    for everyone to read (the score pad's game and categories)."""
    if not is_valid_unicode(text) or any(_is_broken(char) for char in text):
        return BROKEN
    if any(unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS for char in text):
        return CONTROL
    if not any(unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS for char in text):
        return INVISIBLE
    return None


def name_problem(name: str) -> Text | None:
    """Why `name` cannot be a player's name (None if it can): text_problem, in words."""
    return {
        BROKEN: N_("A name must be made of real characters: this one holds broken text."),
        CONTROL: N_("A name cannot hold control characters (line breaks, tabs, direction marks)."),
        INVISIBLE: N_("A name must show at least one letter, digit or symbol."),
        None: None,
    }[text_problem(name)]


def _is_broken(char: str) -> bool:
    """U+FFFD, what undecodable bytes become, or a noncharacter (U+FDD0..U+FDEF and the last
    two code points of every plane), which no text is meant to carry (U+FFFF is not even
    allowed in XML, and the results picture is XML)."""
    code = ord(char)
    return code == 0xFFFD or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def look_of_name(name: str) -> str:
    """What a name looks like, for telling the players of one table apart: its case, its
    compatibility forms ("ﬀ", "ff") and its invisible characters (a zero-width space, a
    soft hyphen, a joiner, a Hangul filler, a variation selector) aside, so "Ana" and "Ana"
    with a zero-width space are one name. The emoji tags that tell one flag from another stay."""
    # Unicode's compatibility caseless match (its definition D146, step by step)
    folded = unicodedata.normalize("NFD", name.strip()).casefold()
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", folded).casefold())
    kept = []
    in_flag = False  # within a tag sequence that follows a black flag
    for char in folded:
        in_flag = char == _FLAG or (in_flag and char in _EMOJI_TAGS)
        if in_flag or (unicodedata.category(char) != "Cf" and char not in _BLANKS and char not in _SELECTORS):
            kept.append(char)
    return "".join(kept)


# Invisible, but after a black flag they make the flags of England, Scotland and Wales
# different flags; after anything else they are invisible like any format character.
_FLAG = "\U0001F3F4"
_EMOJI_TAGS = frozenset(map(chr, range(0xE0000, 0xE0080)))
# Marks that draw nothing of their own (Unicode's default-ignorable nonspacing marks): the
# variation selectors (one picks an emoji's or a letter's look, "❤" or "❤️"), the
# combining grapheme joiner and Mongolian's free variation selectors.
_SELECTORS = frozenset(
    [*map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0)), "\u034f", "\u180b", "\u180c", "\u180d", "\u180f"]
)


def clean_name(name: str) -> str:
    """A name as it is stored: trimmed, in one Unicode form (NFC), so "é" typed two ways is
    one name."""
    return unicodedata.normalize("NFC", name.strip()) if is_valid_unicode(name) else name.strip()

"""Sentences the engines produce, translated later by the shell.

The game modules are pure (no Flask), so they cannot call Flask-Babel themselves. They
build `Text` values instead: a gettext message id with its parameters. The shell renders
them in the reader's language. `N_`, `NC_` and `NP_` are the extraction keywords (see babel.cfg).
"""

from __future__ import annotations

import functools
import numbers
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class Text:
    msgid: str
    plural: str | None = None
    n: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    context: str | None = None  # gettext's msgctxt: one English word, different words per game

    def render(
        self,
        gettext: Callable[[str], str] = lambda s: s,
        ngettext: Callable[[str, str, int], str] = lambda s, p, n: s if n == 1 else p,
        pgettext: Callable[[str, str], str] = lambda c, s: s,
    ) -> str:
        params = {
            key: value.render(gettext, ngettext, pgettext) if isinstance(value, Text) else value
            for key, value in self.params.items()
        }
        if self.context is not None:
            template = pgettext(self.context, self.msgid)
        elif self.plural is None:
            template = gettext(self.msgid)
        else:
            template = ngettext(self.msgid, self.plural, plural_count(self.n))
            params.setdefault("num", self.n)
        return template % params if params else template

    def __str__(self) -> str:
        return self.render()


def plural_count(num: Any) -> Any:
    """The number a plural form is chosen by: its size (CLDR's operand n), so −5 takes
    "points" as 5 does; gettext's rules (French n > 1, Romanian's n % 100) misread a
    negative."""
    return abs(num) if isinstance(num, numbers.Real) else num


def N_(msgid: str, **params: Any) -> Text:
    """A sentence to translate later."""
    return Text(msgid, params=params)


def NC_(context: str, msgid: str, **params: Any) -> Text:
    """A sentence to translate later within `context`: the same English word may be a
    different word in another language depending on the game (Lobo's "red" flock is
    "encarnado" on the Portuguese box, Twenty One's red die "vermelho")."""
    return Text(msgid, params=params, context=context)


def NP_(singular: str, plural: str, n: int, **params: Any) -> Text:
    """A sentence with a plural form chosen by `n` (available as %(num)s)."""
    return Text(singular, plural, n, params)


def listing(items: list[Text | str]) -> Text | str:
    """"Ana", "Ana and Bruno", "Ana, Bruno and Caio": names as written, sentences (the
    dice's colours) and the words between them in the reader's language."""
    if len(items) == 1:
        return items[0]
    head = items[0]
    for item in items[1:-1]:
        head = N_("%(head)s, %(next)s", head=head, next=item)
    return N_("%(head)s and %(last)s", head=head, last=items[-1])


# What a refusal repeats of text a request sent (a game, an option, an action's type or
# field): enough to recognise it, never the whole of a request.
SHOWN_LENGTH = 32


def shown(text: str) -> str:
    """Text a request sent, as a sentence shows it: at most SHOWN_LENGTH characters, then
    "…". Not for the companion's own text (the names of seated players)."""
    return text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH] + "…"


FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


@functools.lru_cache(maxsize=4096)
def isolated(text: str) -> str:
    """`text` (a player's name) set apart from the words around it when it is written right
    to left (Arabic, Hebrew): otherwise the score after "שלמה" is read before it, and a
    list's commas move. Other text, and text whose names are set apart already, as it is."""
    if FIRST_STRONG_ISOLATE not in text and any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        return FIRST_STRONG_ISOLATE + text + POP_DIRECTIONAL_ISOLATE
    return text

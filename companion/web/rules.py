"""The rules the companion enforces, as a page for the players: docs/rules.md, the project's
own rules reference (shipped inside the package as companion/docs), put in HTML once per
process. Every heading gets the id GitHub gives it, so the links inside the text keep
working and a table page links its game's section (/rules#pickomino: a game's slug is its
heading's id, checked by the tests)."""

from __future__ import annotations

import re
from functools import cache

from flask import Blueprint, render_template
from markdown_it import MarkdownIt
from markupsafe import Markup

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def rules_page():
    return render_template("rules.html", rules=rules_html())


@cache
def rules_html() -> Markup:
    from .. import resource_folder  # here: the package imports this module before defining it

    return as_html((resource_folder("docs") / "rules.md").read_text(encoding="utf-8"))


def as_html(text: str) -> Markup:
    # Our own text, but no raw HTML in it passes all the same: the page's safety stays the
    # template's, not the document's.
    markdown = MarkdownIt("commonmark", {"html": False})
    tokens = markdown.parse(text)
    used: dict[str, int] = {}
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type == "heading_open":
            # the heading as read (GitHub slugs what it shows, not the markup)
            shown = "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
            opening.attrSet("id", unique(heading_id(shown), used))
    return Markup(markdown.renderer.render(tokens, markdown.options, {}))


def heading_id(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, only letters, digits, `_`, `-` and spaces
    kept, spaces made hyphens ("The worm-dice turn (Pickomino)" → "the-worm-dice-turn-pickomino")."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def unique(anchor: str, used: dict[str, int]) -> str:
    """A heading written twice gets -1, -2... after the first, as on GitHub."""
    count = used.get(anchor, 0)
    used[anchor] = count + 1
    return anchor if count == 0 else f"{anchor}-{count}"

"""What the players read about the rules, put in HTML once per process:

- /rules: docs/rules.md, the project's rules reference (in English), shipped inside the
  package as companion/docs. Every heading gets the id GitHub gives it, so the links inside
  the text keep working and a game's section is /rules#<slug> (a game's slug is its
  heading's id, checked by the tests).
- /rules/<game>: that game's player's guide in the page's language, guide/<language>.md in
  the game's package (Game.guide), which every page of a table links as "Rules". A guide
  links the reference as the Markdown file it is in the repository
  (../../../../docs/rules.md, from companion/games/<game>/guide/), so the link works on
  GitHub too; served, it leads to /rules."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from flask import Blueprint, abort, render_template, url_for
from flask_babel import get_locale
from markdown_it import MarkdownIt
from markupsafe import Markup

from ..games import GAMES
from ..games.text import N_, shown

bp = Blueprint("rules", __name__)

# The reference as a guide's Markdown links it, from companion/games/<game>/guide/.
REFERENCE_IN_A_GUIDE = "../../../../docs/rules.md"


@bp.get("/rules")
def rules_page():
    return render_template("rules.html", rules=rules_html())


@bp.get("/rules/<game>")
def guide_page(game: str):
    if game not in GAMES:
        abort(404, description=N_("There is no game called %(game)s here.", game=shown(game)))
    guide = guide_html(game, str(get_locale()), url_for("rules.rules_page"))
    return render_template("guide.html", game=GAMES[game], guide=guide)


def docs() -> Path:
    from ..paths import resource_folder

    return resource_folder("docs")


@cache
def rules_html() -> Markup:
    return as_html((docs() / "rules.md").read_text(encoding="utf-8"))


@cache
def guide_html(slug: str, language: str, reference_url: str) -> Markup:
    """Every game has a guide in every language (tests/test_guides.py)."""
    text = GAMES[slug].guide(language).read_text(encoding="utf-8")
    return as_html(text, links={REFERENCE_IN_A_GUIDE: reference_url})


def as_html(text: str, links: dict[str, str] | None = None) -> Markup:
    """`text` (CommonMark) in HTML, its headings with GitHub's ids, and each link to a file
    named in `links` led to the address it is served at instead (its #part kept)."""
    # Our own text, but no raw HTML in it passes all the same: the page's safety stays the
    # template's, not the document's.
    markdown = MarkdownIt("commonmark", {"html": False})
    links = links or {}
    tokens = markdown.parse(text)
    used: dict[str, int] = {}
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type == "heading_open":
            # the heading as read (GitHub slugs what it shows, not the markup)
            heading = "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
            opening.attrSet("id", unique(heading_id(heading), used))
    for link in (child for token in tokens for child in token.children or [] if child.type == "link_open"):
        target, hash_mark, anchor = str(link.attrGet("href")).partition("#")
        if target in links:
            link.attrSet("href", links[target] + hash_mark + anchor)
    return Markup(markdown.renderer.render(tokens, markdown.options, {}))


def heading_id(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, only letters, digits, `_`, `-` and spaces
    kept, spaces made hyphens ("The worm-dice turn (Mine)" → "the-worm-dice-turn-mine")."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def unique(anchor: str, used: dict[str, int]) -> str:
    """A heading written twice gets -1, -2... after the first, as on GitHub."""
    count = used.get(anchor, 0)
    used[anchor] = count + 1
    return anchor if count == 0 else f"{anchor}-{count}"

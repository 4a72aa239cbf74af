"""Evenings for the tests of the game night: tables finished at a chosen time on the
server's clock, score pads played through the API, and the look of a page's chart."""

from __future__ import annotations

import html
from datetime import datetime, timezone
from xml.etree import ElementTree

from companion.tables.database import connect
from played import Table, act, create

SVG = "{http://www.w3.org/2000/svg}"
def local(day: int, hour: int, minute: int = 0) -> str:
    """A stored stamp (UTC) for a time on the server's own clock, in November 2026."""
    return datetime(2026, 11, day, hour, minute).astimezone().astimezone(timezone.utc).isoformat(timespec="seconds")


def finished_at(app, table: Table, stamp: str) -> None:
    with connect(app.config["DATABASE"]) as db:
        db.execute("UPDATE game_tables SET finished_at = ? WHERE id = ?", [stamp, table.id])


def scorepad(client, title: str, players: tuple[str, ...], rounds: list[list[int]]) -> Table:
    """A score pad by rounds, each round's points entered on each player's own phone."""
    table = create(client, "score-pad", players, {"title": title, "rounds": len(rounds)})
    for points in rounds:
        for seat, entered in enumerate(points):
            act(client, table, table.seats[seat], {"type": "score", "points": entered})
    return table


def chart_styles(page: str) -> dict[str, tuple[str, str]]:
    """Each legend name of the page's chart with its line's colour and dashes."""
    svg = page[page.index('<svg class="score-chart"'):]
    root = ElementTree.fromstring(html.unescape(svg[: svg.index("</svg>") + 6]).replace("&", "&amp;"))
    lines = root.findall(f"{SVG}polyline")
    names = [text.text.rsplit(":", 1)[0] for text in root.findall(f"{SVG}text")[3:]]
    return {name: (line.get("stroke"), line.get("stroke-dasharray", "")) for name, line in zip(names, lines)}

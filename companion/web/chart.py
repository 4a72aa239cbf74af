"""The game as a picture: each player's score over the game (service.score_series),
drawn on the server as SVG (no script library, no request elsewhere), for the results
page and for the image its Share button sends."""

from __future__ import annotations

import textwrap

from markupsafe import Markup, escape

from ..games.text import isolated
from .i18n import whole_number

# Distinguishable on the dark and the light theme and in print (ColorBrewer's Dark2 and Set1).
SERIES_COLOURS = ("#e6a23c", "#3c8de0", "#d9534f", "#2fa36b", "#9b6bd3", "#8c6d46", "#e377c2")
WIDTH, HEIGHT = 640, 320
# Drawn about 310 px wide on a 360 px phone (about half its own units): text this large in
# its units is 11 to 14 px there.
AXIS_FONT, LEGEND_FONT, LEGEND_LINE = 23, 28, 38
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 18, 46
LINE_WIDTH = 3
# Players level with each other at a point of the game (a tie, or no points yet) have their
# lines drawn this far apart there, side by side with a line's width between them, never one
# under the other; every other point is where its score is. Touching, two lines read as one
# at phone size.
LEVEL_SPACING = 2 * LINE_WIDTH
# Each player's line has its own dashes as well as its colour (the legend shows them): lines
# side by side stay two, and colour is not the only way to tell them apart.
SERIES_DASHES = ("", "14 7", "4 6", "14 6 4 6", "24 8", "8 8", "18 4 3 4 3 4")
LEGEND_SAMPLE = 44  # the legend's piece of each line


def _number(value: int | float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def score_chart(
    series: list[list[int]], names: list[str], label: str, axis: str, ink: str = "currentColor",
    styles: list[tuple[int, int]] | None = None,
) -> Markup:
    """An SVG line chart: x the actions of the game, y the score, a line and a legend
    entry per player. `label` says what it shows in words (for screen readers); `axis`
    names the x axis; `ink` colours the legend (the page's text colour by default);
    `styles` gives each line its (colour, dash) indices, the person's of the evening
    (companion.tables.night), by seat without them."""
    steps = max(len(points) for points in series) - 1
    low = min(0, *(min(points) for points in series))
    high = max(0, *(max(points) for points in series))  # all scores below 0 (Qwixx): 0 on top
    if high == low:
        high = low + 1
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(step: int) -> float:
        return LEFT + (plot_width * step / steps if steps else 0)

    def y(score: int) -> float:
        return TOP + plot_height * (high - score) / (high - low)

    parts = [
        f'<svg class="score-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {chart_height(len(names))}"'
        f' role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
        f'<line x1="{LEFT}" y1="{_number(y(low))}" x2="{WIDTH - RIGHT}" y2="{_number(y(low))}" stroke="#888" stroke-width="1"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{_number(y(low))}" stroke="#888" stroke-width="1"/>',
        f'<text x="{LEFT - 8}" y="{_number(y(high) + 8)}" text-anchor="end" font-size="{AXIS_FONT}" fill="currentColor" fill-opacity=".75">{whole_number(high)}</text>',
        f'<text x="{LEFT - 8}" y="{_number(y(low) + 8)}" text-anchor="end" font-size="{AXIS_FONT}" fill="currentColor" fill-opacity=".75">{whole_number(low)}</text>',
        f'<text x="{LEFT + plot_width / 2:.0f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="{AXIS_FONT}" fill="currentColor" fill-opacity=".75">{escape(axis)}</text>',
    ]
    for seat, points in enumerate(series):
        colour, dashes = series_style(styles[seat] if styles else (seat, seat))
        # flat dash ends: round ones would eat into the gaps, and tell two patterns apart less
        dashed = f' stroke-dasharray="{dashes}" stroke-linecap="butt"' if dashes else ' stroke-linecap="round"'
        line = " ".join(
            f"{_number(x(step))},{_number(_drawn_at(series, seat, step, y(score), TOP, y(low)))}" for step, score in enumerate(points)
        )
        parts.append(
            f'<polyline data-seat="{seat}" points="{line}" fill="none" stroke="{colour}" stroke-width="{LINE_WIDTH}"'
            f'{dashed} stroke-linejoin="round"/>'
        )
        legend_y = HEIGHT + LEGEND_LINE * seat + LEGEND_FONT
        parts.append(
            f'<line x1="{LEFT}" y1="{legend_y - 10}" x2="{LEFT + LEGEND_SAMPLE}" y2="{legend_y - 10}" stroke="{colour}"'
            f' stroke-width="{2 * LINE_WIDTH}"{dashed}/>'
        )
        parts.append(
            f'<text x="{LEFT + LEGEND_SAMPLE + 10}" y="{legend_y}" font-size="{LEGEND_FONT}" fill="{ink}">'
            f"{escape(isolated(names[seat]))}: {whole_number(points[-1])}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def series_style(style: tuple[int, int]) -> tuple[str, str]:
    """A line's colour and dashes from its (colour, dash) indices."""
    colour, dash = style
    return SERIES_COLOURS[colour % len(SERIES_COLOURS)], SERIES_DASHES[dash % len(SERIES_DASHES)]


def person_swatch(style: tuple[int, int]) -> Markup:
    """A piece of a person's line (its colour and dashes), beside their name wherever their
    chart is not (the ranking on the results page and the table screen, the night's totals):
    sized by the text around it (app.css, .person-style), hidden from screen readers."""
    colour, dashes = series_style(style)
    dashed = f' stroke-dasharray="{dashes}"' if dashes else ""
    return Markup(
        f'<svg class="person-style" aria-hidden="true" viewBox="0 0 {LEGEND_SAMPLE} 10" preserveAspectRatio="none">'
        f'<line x1="0" y1="5" x2="{LEGEND_SAMPLE}" y2="5" stroke="{colour}" stroke-width="6"{dashed}/></svg>'
    )


def _drawn_at(series: list[list[int]], seat: int, step: int, at: float, top: float, bottom: float) -> float:
    """Where `seat`'s line is drawn at `step`, its score being at `at`: there alone, else
    spread with the others level with it, in seat order, around their score, the group kept
    inside the plot (everyone on 0 at the start drawn above the axis, not below it)."""
    score = series[seat][step]
    level = [other for other, points in enumerate(series) if step < len(points) and points[step] == score]
    half = (len(level) - 1) / 2 * LEVEL_SPACING
    middle = min(max(at, top + half), bottom - half)
    return middle + (level.index(seat) * LEVEL_SPACING - half)


def chart_height(players: int) -> int:
    """The chart's height in its own units: the plot and a legend line per player."""
    return HEIGHT + LEGEND_LINE * players + 10


# An SVG text does not wrap: a line of the card longer than this (a tie-break sentence) is
# broken between words, to stay inside the picture at 17 units a character's height.
CARD_LINE_CHARACTERS = 62
CARD_CHART_SCALE = 0.9


def results_card(heading: str, lines: list[str], chart: Markup, players: int) -> str:
    """The results as one standalone SVG image (what Share sends as a picture): a heading,
    a line per player, the chart; dark ink on white, whatever the phone's theme."""
    shown = [part for line in lines for part in textwrap.wrap(line, CARD_LINE_CHARACTERS, break_long_words=True) or [""]]
    top = 40 + 26 * len(shown)
    chart_width, chart_tall = WIDTH * CARD_CHART_SCALE, chart_height(players) * CARD_CHART_SCALE
    height = top + chart_tall + 16
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" viewBox="0 0 {WIDTH} {height:.0f}"'
        ' font-family="system-ui, sans-serif">',
        f'<rect width="{WIDTH}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text x="16" y="28" font-size="20" font-weight="700" fill="#111111">{escape(heading)}</text>',
    ]
    for index, line in enumerate(shown):
        parts.append(f'<text x="16" y="{58 + 26 * index}" font-size="17" fill="#111111">{escape(line)}</text>')
    # placed and sized itself: a nested picture without a size fills the whole card and is
    # centred in it, which cut its legend off at the foot
    placed = str(chart).replace(
        '<svg class="score-chart"', f'<svg class="score-chart" x="0" y="{top}" width="{chart_width:.0f}" height="{chart_tall:.0f}"', 1
    )
    parts.append(f'<g color="#111111">{placed}</g>')
    parts.append("</svg>")
    return "".join(parts)

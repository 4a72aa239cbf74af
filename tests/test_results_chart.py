"""The results as a picture (issue 17): each player's score over the game as an SVG chart
drawn on the server, and the text and image the Share button sends."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ElementTree

from played import PICKOMINO_SCORES, create, play_lobo, play_pickomino

from companion.tables import service
from companion.web.database import get_db
from companion.web.chart import score_chart

SVG = "{http://www.w3.org/2000/svg}"


def test_chart_series_follow_the_game_and_end_on_the_final_scores(app, client):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    with app.app_context():
        db = get_db()
        loaded = service.load(db, table.id)
        series = service.score_series(db, loaded)
    assert [points[0] for points in series] == [0, 0, 0]
    assert [points[-1] for points in series] == [PICKOMINO_SCORES[name] for name in ("Ana", "Bruno", "Caio")]
    assert len({len(points) for points in series}) == 1 and len(series[0]) == loaded.version + 1
    assert all(later >= earlier for points in series for earlier, later in zip(points, points[1:]))  # nobody lost a tile


def test_the_results_page_draws_the_chart_as_svg_with_one_line_per_player(client):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    page = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    svg = re.search(r'<svg class="score-chart".*?</svg>', page, re.S).group(0)
    root = ElementTree.fromstring(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == "Each player's score over the game. At the end: Ana 15, Bruno 12 and Caio 13."
    assert len(root.findall(f"{SVG}polyline")) == 3
    assert [text.text for text in root.findall(f"{SVG}text")][-3:] == ["Ana: 15", "Bruno: 12", "Caio: 13"]
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # nothing loaded from elsewhere


def test_share_gives_the_results_as_text_and_as_a_picture(client):
    table = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, table)
    page = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    text = html.unescape(re.search(r'data-share-text="([^"]*)"', page).group(1))
    lines = text.split("\n")
    assert lines[0].startswith("Pickomino · ")
    assert lines[1:] == ["1. Ana: 15", "2. Caio: 13", "3. Bruno: 12"]
    image = client.get(f"/t/{table.id}/results.svg")
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(image.get_data(as_text=True))
    texts = [element.text for element in root.iter(f"{SVG}text")]
    assert texts[:4] == lines[:4] and root.find(f"{SVG}rect").get("fill") == "#ffffff"
    french = client.get(f"/t/{table.id}/results", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Partager les résultats" in french


def test_the_chart_of_lobo_is_meadow_plus_bonus_and_there_is_no_picture_before_the_end(client):
    table = create(client, "lobo", ("Ana", "Bruno"))
    assert client.get(f"/t/{table.id}/results.svg").status_code != 200  # not over: no results yet
    play_lobo(client, table, [4, 2], leaving=(1,))
    page = client.get(f"/t/{table.id}/results").get_data(as_text=True)
    assert "Ana: 4" in page and "Bruno: 8" in page  # Bruno left first: 2 sheep + 6


def test_players_level_with_each_other_have_their_lines_side_by_side_not_one_hidden():
    """A tie (or nobody scoring yet) drew the lines on the same pixels: only the last
    player's showed. Then, touching side by side, they read as one line at phone size: a
    line's width lies between two, and each player's line has dashes of its own, which the
    legend shows."""
    root = ElementTree.fromstring(str(score_chart([[0, 2, 5], [0, 2, 5], [0, 2, 5]], ["Ana", "Bruno", "Caio"], "scores", "actions")))
    heights = [
        [float(point.split(",")[1]) for point in line.get("points").split()] for line in root.findall(f"{SVG}polyline")
    ]
    width = float(root.find(f"{SVG}polyline").get("stroke-width"))
    for upper, lower in zip(heights, heights[1:]):
        assert all(below - above >= 2 * width for above, below in zip(upper, lower))
    assert [text.text for text in root.findall(f"{SVG}text")][-3:] == ["Ana: 5", "Bruno: 5", "Caio: 5"]
    dashes = [line.get("stroke-dasharray") for line in root.findall(f"{SVG}polyline")]
    assert len(set(dashes)) == 3
    legend = [line.get("stroke-dasharray") for line in root.findall(f"{SVG}line") if line.get("stroke") != "#888"]
    assert legend == dashes


def test_players_level_with_each_other_stay_inside_the_plot():
    """Review: seven players on 0 at the start had three lines drawn under the axis, as if
    they had scored below 0, and a tie on the top score had a line cut at the chart's top."""
    from companion.web.chart import TOP
    names = [f"P{seat}" for seat in range(7)]
    root = ElementTree.fromstring(str(score_chart([[0, 3, 9]] * 7, names, "scores", "actions")))
    axis = float(root.find(f"{SVG}line").get("y1"))  # the x axis, at the lowest score (0)
    drawn = [[float(point.split(",")[1]) for point in line.get("points").split()] for line in root.findall(f"{SVG}polyline")]
    assert all(TOP <= y <= axis for line in drawn for y in line)
    assert len({line[0] for line in drawn}) == 7 and len({line[-1] for line in drawn}) == 7  # still side by side


def test_a_player_level_with_nobody_is_drawn_at_their_score():
    alone = ElementTree.fromstring(str(score_chart([[0, 3, 8], [0, 5, 6]], ["Ana", "Bruno"], "scores", "actions")))
    apart = ElementTree.fromstring(str(score_chart([[0, 3, 8]], ["Ana"], "scores", "actions")))
    ana, bruno = ([point.split(",") for point in line.get("points").split()] for line in alone.findall(f"{SVG}polyline"))
    assert ana[0][1] != bruno[0][1]  # level at the start: side by side
    assert ana[1:] == [point.split(",") for point in apart.find(f"{SVG}polyline").get("points").split()][1:]


def test_the_shared_picture_keeps_every_line_and_the_whole_legend_inside_it():
    """Host QA: in the picture Share sends, the tie-break sentence ran off its right edge,
    and the legend was cut off at its foot (the fourth player missing): the chart, a nested
    picture without a size, filled the whole card and was centred in it. With every score
    below 0 (Qwixx) the chart's top read 1."""
    from companion.web.chart import CARD_LINE_CHARACTERS, results_card

    names = ["Ana", "Bruno", "Caio", "Dora"]
    series = [[0, -5, -10, -20], [0, -5, -10, -15], [0, 0, -10, -15], [0, 0, -5, -15]]
    tie = "Bruno, Caio and Dora tied on −15 points: the rules have no tie-break, they share the place."
    card = results_card("Qwixx · 27/11/2026", ["1. Bruno: −15", "1. Caio: −15", "1. Dora: −15", "4. Ana: −20", tie],
                        score_chart(series, names, "label", "axis", ink="#111111"), len(names))
    root = ElementTree.fromstring(card)
    card_height = float(root.get("height"))
    texts = [element.text for element in root.findall(f"{SVG}text")]
    assert all(len(text) <= CARD_LINE_CHARACTERS for text in texts)
    assert " ".join(texts[5:]) == tie  # broken between words, nothing lost
    chart = root.find(f".//{SVG}svg")
    assert float(chart.get("y")) + float(chart.get("height")) <= card_height
    legend = [text.text for text in chart.findall(f"{SVG}text")]
    assert legend[:2] == ["0", "\u221220"] and legend[-4:] == ["Ana: \u221220", "Bruno: \u221215", "Caio: \u221215", "Dora: \u221215"]

"""Names written right to left (Arabic, Hebrew) among words written left to right: each is
set apart (Unicode isolates in sentences, the chart and the shared text; <bdi> in a list
of names; unicode-bidi: isolate on the names' own elements), so a score after "שלמה" is
still read after it and a list's commas stay where they are."""

from __future__ import annotations

from companion.games import GAMES
from companion.games.text import isolated
from companion.web.i18n import render
from companion.web.chart import score_chart
from companion.web.results import share_text
from played import bearer, create

FSI, PDI = "\u2068", "\u2069"
HEBREW, ARABIC = "שלמה", "محمد"
PICKOMINO = GAMES["pickomino"]


def test_a_right_to_left_name_is_isolated_in_sentences_and_other_names_are_left_as_they_are(app):
    state = PICKOMINO.setup(["Ana", HEBREW, ARABIC], PICKOMINO.effective_options({}))
    state["stacks"], state["grill"], state["turn"] = [[25, 21], [29], []], [], None
    with app.test_request_context():
        tiebreaks = [render(entry["tiebreak"]) for entry in PICKOMINO.ranking(state) if entry["tiebreak"]]
    hebrew = FSI + HEBREW + PDI
    assert tiebreaks[0] == f"{hebrew} and Ana tied on 3 worms; the highest tile decided ({hebrew} 29, Ana 25)."
    assert isolated("Ana") == "Ana" and isolated("Zoë 🎲") == "Zoë 🎲"
    assert isolated(f"Ana {ARABIC}") == f"{FSI}Ana {ARABIC}{PDI}"


def test_the_chart_the_shared_text_and_the_lists_of_names_isolate_them(app, client):
    table = create(client, "twenty-one", ("Ana", HEBREW, ARABIC))
    dice = {"white": 3, "black": 3, "red": 3, "blue": 3, "yellow": 3, "green": 3}
    rolled = client.post(f"/api/tables/{table.id}/actions", json={"type": "roll", "dice": dice}, headers=bearer(table.host))
    assert rolled.status_code == 200
    page = client.get(f"/t/{table.id}/screen").text
    assert f"Waiting for: <bdi>Ana</bdi>, <bdi>{HEBREW}</bdi>, <bdi>{ARABIC}</bdi>" in page
    with app.test_request_context():
        legend = str(score_chart([[0, 3], [0, 5]], ["Ana", HEBREW], "scores", "actions"))
    assert ">Ana: 3</text>" in legend and f">{FSI}{HEBREW}{PDI}: 5</text>" in legend


def test_the_results_shared_as_text_isolate_the_names(app):
    view = {"ranking": [{"place": 1, "name": HEBREW, "score": 3, "tiebreak": None}, {"place": 2, "name": "Ana", "score": 0, "tiebreak": None}]}
    with app.test_request_context():
        text = share_text(view, "Pickomino", "2026-11-26T20:00:00+00:00")
    assert text.split("\n")[1:] == [f"1. {FSI}{HEBREW}{PDI}: 3", "2. Ana: 0"]

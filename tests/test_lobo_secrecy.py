"""Lobo's secret colours (docs/rules.md (Lobo)) through every page and API response of played games.

Five viewers follow each game: the three seats (each with its own phone cookie and its
own API token), the host (cookie and host token) and an anonymous watcher. After every
step, every response each viewer can get (table state, log, table page, poll fragment,
join screen, and the answers to their own actions) may name only the colours that
viewer may know: their own, and the revealed ones. Dealt colours of nobody and colours
recorded then corrected count as secrets too.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

import pytest

COLORS = ("red", "blue", "yellow", "black")
COLOR_WORD = re.compile(r"\b(red|blue|yellow|black)\b")
# The recorded-colour form offers all four colours to every seat: it is checked apart.
CHOOSE_FORM = re.compile(r'<form class="lobo-choose".*?</form>', re.S)
CHOSEN_BUTTON = re.compile(r"flock-choice flock-(\w+) chosen")
# The start form's options of the other games (Twenty One's die colours) are no Lobo secret.
OTHER_GAMES_OPTIONS = re.compile(r'<fieldset class="options" data-game="(?!lobo")[^"]*">.*?</fieldset>', re.S)


@dataclass
class Viewer:
    label: str
    client: object
    token: str | None
    seat: int | None

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


def csrf_of(client) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text).group(1)


class LoboTable:
    """A Lobo table started from the start form, with every viewer's phone joined."""

    def __init__(self, app, deal_colors: bool):
        host = app.test_client()
        form = {"csrf_token": csrf_of(host), "game": "lobo", "player": ["Ana", "Bruno", "Caio"]}
        if deal_colors:
            form["lobo.deal_colors"] = "on"
        response = host.post("/tables", data=form)
        assert response.status_code == 303, response.text
        self.id = response.headers["Location"].split("/")[2]
        with host.session_transaction() as session:
            host_token = session["tables"][self.id]["host"]
        join_page = host.get(f"/t/{self.id}/join").text
        tokens = [link.split("/j/")[1] for link in re.findall(r'class="join-link" href="([^"]+)"', join_page)]
        self.seats = []
        for seat, (name, token) in enumerate(zip(["Ana", "Bruno", "Caio"], tokens)):
            phone = app.test_client()
            assert phone.get(f"/j/{token}").status_code == 303
            self.seats.append(Viewer(name, phone, token, seat))
        self.host = Viewer("host", host, host_token, None)
        self.anonymous = Viewer("anonymous", app.test_client(), None, None)
        self.viewers = [*self.seats, self.host, self.anonymous]
        self.recorded: dict[int, set[str]] = {seat.seat: set() for seat in self.seats}  # corrections included
        assert self.api(self.anonymous)["options"] == {"deal_colors": deal_colors}

    # --- reading --------------------------------------------------------------------
    def api(self, viewer: Viewer) -> dict:
        return viewer.client.get(f"/api/tables/{self.id}", headers=viewer.headers).get_json()

    def true_colors(self) -> list[str | None]:
        return [self.api(seat)["state"]["seats"][seat.seat]["color"] for seat in self.seats]

    def revealed_colors(self) -> set[str]:
        return {seat["color"] for seat in self.api(self.anonymous)["state"]["seats"] if seat["revealed"]}

    def allowed(self, viewer: Viewer) -> set[str]:
        """What `viewer` may know: their own colour (and the ones they recorded before
        correcting it), and the revealed colours; after the final count, every colour."""
        if self.api(self.anonymous)["status"] == "finished":
            return set(COLORS)
        if viewer.seat is None:
            return self.revealed_colors()
        own = {self.true_colors()[viewer.seat]} - {None}
        return own | self.recorded[viewer.seat] | self.revealed_colors()

    def responses(self, viewer: Viewer) -> list[tuple[str, str]]:
        client, headers = viewer.client, viewer.headers
        return [
            ("API table", client.get(f"/api/tables/{self.id}", headers=headers).text),
            ("API log", client.get(f"/api/tables/{self.id}/log", headers=headers).text),
            ("page", client.get(f"/t/{self.id}").text),
            ("poll", client.get(f"/t/{self.id}/poll?v=-1", headers={"HX-Request": "true"}).text),
            ("join screen", client.get(f"/t/{self.id}/join").text),
            ("home", OTHER_GAMES_OPTIONS.sub("", client.get("/").text)),
        ]

    def assert_secret(self, viewer: Viewer, label: str, text: str) -> None:
        allowed = self.allowed(viewer)
        for chosen in CHOSEN_BUTTON.findall(text):
            assert chosen in allowed, f"{viewer.label}'s {label} marks {chosen} as chosen"
        named = set(COLOR_WORD.findall(CHOOSE_FORM.sub("", text)))
        assert named <= allowed, f"{viewer.label}'s {label} names {sorted(named - allowed)}"

    def check_everyone_sees_every_colour(self, colors: list[str | None]) -> None:
        """After the final count: every phone, the table screen, the results, the exports
        and the log show who had which colour."""
        for viewer in self.viewers:
            client, headers = viewer.client, viewer.headers
            assert [seat["color"] for seat in self.api(viewer)["state"]["seats"]] == colors
            exported = client.get(f"/t/{self.id}/export.json").get_json()
            assert [seat["color"] for seat in exported["table"]["state"]["seats"]] == colors
            csv = client.get(f"/t/{self.id}/export.csv").text
            for label, text in [
                ("page", client.get(f"/t/{self.id}").text),
                ("screen", client.get(f"/t/{self.id}/screen").text),
                ("results", client.get(f"/t/{self.id}/results").text),
                ("CSV export", csv),
            ]:
                for name, color in zip(["Ana", "Bruno", "Caio"], colors):
                    if color is not None:
                        assert color in text, f"{viewer.label}'s {label} does not show {name}'s {color}"
            log = client.get(f"/api/tables/{self.id}/log", headers=headers).get_json()["events"]
            recorded = [event["action"]["color"] for event in log if event["action"]["type"] == "choose_color"]
            assert None not in recorded

    def check_everyone(self) -> None:
        for viewer in self.viewers:
            for label, text in self.responses(viewer):
                self.assert_secret(viewer, label, text)

    # --- acting ---------------------------------------------------------------------
    def tap(self, viewer: Viewer, action: dict, seat: int | None = None, **fields):
        data = {
            "csrf_token": csrf_of(viewer.client),
            "action": json.dumps(action),
            "expected_version": str(self.api(self.anonymous)["version"]),
            **fields,
        }
        if seat is not None:
            data["seat"] = str(seat)
        response = viewer.client.post(f"/t/{self.id}/act", data=data, headers={"HX-Request": "true"})
        self.remember_choice(viewer if seat is None else self.seats[seat], action, response.status_code)
        self.assert_secret(viewer, f"answer to {action['type']}", response.text)
        return response

    def post(self, viewer: Viewer, action: dict):
        response = viewer.client.post(f"/api/tables/{self.id}/actions", json=action, headers=viewer.headers)
        self.remember_choice(viewer, action, response.status_code)
        if response.status_code == 422 and action["type"] == "choose_color":
            return response  # names the colour its sender asked for: checked by the test
        self.assert_secret(viewer, f"API answer to {action['type']}", response.text)
        return response

    def remember_choice(self, holder: Viewer, action: dict, status: int) -> None:
        if action["type"] == "choose_color" and status == 200:
            self.recorded[holder.seat].add(action["color"])

    def undo(self, viewer: Viewer):
        response = viewer.client.post(f"/api/tables/{self.id}/undo", headers=viewer.headers)
        self.assert_secret(viewer, "API answer to undo", response.text)
        return response


@pytest.fixture
def dealt(app) -> LoboTable:
    return LoboTable(app, deal_colors=True)


@pytest.fixture
def drawn(app) -> LoboTable:
    return LoboTable(app, deal_colors=False)


def test_secrecy_each_phone_sees_its_own_dealt_colour_behind_a_cover_and_no_other(dealt):
    colors = dealt.true_colors()
    assert len(set(colors)) == 3 and set(colors) <= set(COLORS)
    for seat in dealt.seats:
        page = seat.client.get(f"/t/{dealt.id}").text
        cover = re.search(r'<details class="flock-cover">.*?</details>', page, re.S).group(0)
        assert "Tap to see your colour" in cover and colors[seat.seat] in cover
        # the check below is not vacuous: the seat's own colour is in its page
        assert set(COLOR_WORD.findall(page)) == {colors[seat.seat]}
    for viewer in (dealt.host, dealt.anonymous):
        assert 'class="flock-cover"' not in viewer.client.get(f"/t/{dealt.id}").text
    dealt.check_everyone()


def test_secrecy_dealt_colours_through_a_whole_game(dealt):
    ana, bruno, caio = dealt.seats
    colors = dealt.true_colors()
    dealt.check_everyone()

    assert dealt.tap(bruno, {"type": "reveal"}).status_code == 200
    for viewer in dealt.viewers:
        assert dealt.api(viewer)["state"]["seats"][1]["color"] == colors[1]
        assert colors[1] in viewer.client.get(f"/t/{dealt.id}").text
    dealt.check_everyone()

    assert dealt.post(caio, {"type": "abandon"}).status_code == 200
    refused = dealt.post(ana, {"type": "choose_color", "color": colors[2]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "colors_dealt"
    dealt.check_everyone()

    assert dealt.post(dealt.host, {"type": "end"}).status_code == 200
    dealt.check_everyone()

    page = dealt.tap(ana, {"type": "meadows"}, **{"action.meadows.0.sheep": "7", "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true", "action.meadows.1.sheep": "12", "action.meadows.1.wolf": "false", "action.meadows.1.fenced": "false"})
    assert page.status_code == 200
    assert dealt.api(ana)["state"]["seats"][0]["meadow"] == 7
    assert dealt.tap(dealt.host, {"type": "meadows"}, seat=2, **{"action.meadows.0.sheep": "4", "action.meadows.0.wolf": "false", "action.meadows.0.fenced": "true"}).status_code == 200
    for_someone_else = dealt.post(bruno, {"type": "meadows", "seat": 2, "meadows": []})
    assert for_someone_else.status_code == 403
    dealt.check_everyone()

    assert dealt.post(bruno, {"type": "meadows", "meadows": [{"sheep": 2, "fenced": True, "wolf": False}]}).status_code == 200
    assert dealt.api(dealt.anonymous)["status"] == "finished"
    dealt.check_everyone_sees_every_colour(colors)

    assert dealt.undo(dealt.host).status_code == 200  # the count is open again: so are the secrets
    dealt.check_everyone()


def test_secrecy_recorded_colours_and_their_corrections_stay_with_their_holder(drawn):
    ana, bruno, caio = drawn.seats
    assert drawn.tap(ana, {"type": "choose_color", "color": "black"}).status_code == 200
    assert drawn.tap(ana, {"type": "choose_color", "color": "blue"}).status_code == 200  # a correction
    assert drawn.post(bruno, {"type": "choose_color", "color": "yellow"}).status_code == 200
    assert drawn.undo(bruno).status_code == 200  # undone: yellow stays Bruno's secret
    assert drawn.post(bruno, {"type": "choose_color", "color": "red"}).status_code == 200
    # the host records the tile of a player without a phone, and then sees it no more
    assert drawn.tap(drawn.host, {"type": "choose_color", "color": "yellow"}, seat=2).status_code == 200
    assert drawn.true_colors() == ["blue", "red", "yellow"]
    drawn.check_everyone()

    # own log entries keep their colours; everyone else's are redacted
    ana_log = ana.client.get(f"/api/tables/{drawn.id}/log", headers=ana.headers).get_json()["events"]
    assert [event["action"]["color"] for event in ana_log if event["seat"] == 0] == ["black", "blue"]
    bruno_log = bruno.client.get(f"/api/tables/{drawn.id}/log", headers=bruno.headers).get_json()["events"]
    assert [event["action"]["color"] for event in bruno_log if event["seat"] == 0] == [None, None]

    # recording a colour another player holds in secret is answered as any other: a
    # refusal would tell Caio whose it is (the clash shows once one of them is revealed)
    assert drawn.post(caio, {"type": "choose_color", "color": "blue"}).status_code == 200
    assert drawn.post(caio, {"type": "choose_color", "color": "yellow"}).status_code == 200

    assert drawn.tap(ana, {"type": "reveal"}).status_code == 200
    drawn.check_everyone()
    bruno_log = bruno.client.get(f"/api/tables/{drawn.id}/log", headers=bruno.headers).get_json()["events"]
    assert [event["action"].get("color") for event in bruno_log if event["seat"] == 0] == [None, "blue", None]

    assert drawn.post(drawn.host, {"type": "end"}).status_code == 200
    for seat in drawn.seats[:2]:
        assert drawn.post(seat, {"type": "meadows", "meadows": []}).status_code == 200
    drawn.check_everyone()
    assert drawn.post(caio, {"type": "meadows", "meadows": []}).status_code == 200
    drawn.check_everyone_sees_every_colour(["blue", "red", "yellow"])
    results = ana.client.get(f"/t/{drawn.id}/results").text
    assert "recorded the colour they drew: black." in results  # the log, corrections included


def test_secrecy_an_undone_recorded_colour_is_redone_by_its_holder_not_the_host(drawn):
    """The host redoing Bruno's undone colour would be told whether it clashes with one
    revealed since (the rules' refusal names it) or see it taken: only Bruno redoes it,
    and the host's refusal is the same whatever the colour. A colour the host entered
    for a seat, the host knows: the host may redo that one."""
    ana, bruno, caio = drawn.seats
    assert drawn.post(bruno, {"type": "choose_color", "color": "blue"}).status_code == 200
    assert drawn.undo(drawn.host).status_code == 200
    assert drawn.post(caio, {"type": "choose_color", "color": "blue"}).status_code == 200
    assert drawn.post(caio, {"type": "reveal"}).status_code == 200
    host = drawn.host
    for body in [{}, {"all": True}]:
        refused = host.client.post(f"/api/tables/{drawn.id}/redo", json=body, headers=host.headers)
        assert (refused.status_code, refused.get_json()["code"]) == (403, "secret_action")
        assert refused.get_json()["error"] == "Only Bruno can redo “Bruno recorded the colour they drew.”: it holds their secret."
    answer = host.client.post(
        f"/t/{drawn.id}/redo",
        data={"csrf_token": csrf_of(host.client), "expected_version": str(drawn.api(drawn.anonymous)["version"]), "all": "no"},
        headers={"HX-Request": "true"},
    )
    drawn.assert_secret(host, "answer to redo", answer.text)  # the page says the same
    assert "it holds their secret" in answer.text.replace("&#39;", "'")
    # and offers the host no redo that would be refused: only leaving it out
    page = html.unescape(host.client.get(f"/t/{drawn.id}").text)
    assert "Only Bruno can redo “Bruno recorded the colour they drew.”: it holds their secret." in page
    assert "Redo: Bruno" not in page and "Redo all" not in page and "Leave out: Bruno recorded the colour they drew." in page
    # Bruno himself is told why his own is refused: Caio's colour is public
    own = bruno.client.post(f"/api/tables/{drawn.id}/redo", json={}, headers=bruno.headers)
    assert (own.status_code, own.get_json()["code"]) == (422, "color_taken")
    drawn.check_everyone()

    # a colour the host recorded for a seat without a phone: the host redoes it
    assert drawn.tap(host, {"type": "choose_color", "color": "yellow"}, seat=0).status_code == 200
    assert drawn.undo(host).status_code == 200
    assert host.client.post(f"/api/tables/{drawn.id}/redo", json={}, headers=host.headers).status_code == 200
    assert drawn.true_colors()[0] == "yellow"


def test_secrecy_the_hosts_reveal_for_a_seat_is_answered_alike_whatever_its_hidden_colour(app):
    """Found by a tester: the host's "Reveal Bruno's colour" was refused, naming Caio's
    revealed blue, exactly when Bruno had recorded blue: a probe of his secret nobody else
    saw. Now the host's reveal is taken whatever the colour, shows it to everyone, and a
    clash to everyone too; Bruno records his tile again in the open."""
    answers = {}
    for hidden in ("blue", "red"):
        table = LoboTable(app, deal_colors=False)
        ana, bruno, caio = table.seats
        assert table.post(bruno, {"type": "choose_color", "color": hidden}).status_code == 200
        assert table.post(caio, {"type": "choose_color", "color": "blue"}).status_code == 200
        assert table.post(caio, {"type": "reveal"}).status_code == 200
        page = table.host.client.get(f"/t/{table.id}?as=1").text
        assert "Reveal Bruno&#39;s colour" in page or "Reveal Bruno's colour" in page  # the host is offered it
        tapped = table.tap(table.host, {"type": "reveal"}, seat=1)
        answers[hidden] = tapped.status_code
        clashes = [seat["color_clashes"] for seat in table.api(table.anonymous)["state"]["seats"]]
        assert clashes == ([[], [2], [1]] if hidden == "blue" else [[], [], []])
        table.check_everyone()
        if hidden == "blue":
            # everyone reads the clash; Bruno (or the host for him) records his tile again
            assert "Caio revealed the colour recorded here" in html.unescape(ana.client.get(f"/t/{table.id}").text)
            assert "lobo-choose" in bruno.client.get(f"/t/{table.id}").text
            assert table.post(bruno, {"type": "choose_color", "color": "red"}).status_code == 200
            assert [seat["color"] for seat in table.api(table.anonymous)["state"]["seats"]] == [None, "red", "blue"]
            table.check_everyone()
    assert answers == {"blue": 200, "red": 200}


@pytest.mark.parametrize("deal_colors", [True, False], ids=["dealt", "drawn"])
def test_secrecy_a_host_who_plays_a_seat_enters_for_another_and_learns_only_their_own_colour(app, deal_colors):
    """Game night: the host who joined Ana's seat could never enter for Bruno (no "Enter
    for:" in a game where every seat may always act). Now they can, for any seat, and every
    page they see that way names only Ana's colour and the revealed ones."""
    table = LoboTable(app, deal_colors=deal_colors)
    ana, bruno, caio = table.seats
    if not deal_colors:
        for seat, color in ((ana, "red"), (bruno, "blue"), (caio, "yellow")):
            assert table.post(seat, {"type": "choose_color", "color": color}).status_code == 200
    host = table.host
    assert host.client.get(f"/j/{ana.token}").status_code == 303
    playing_ana = Viewer("host playing Ana", host.client, host.token, 0)
    for chosen in (None, 1, 2):
        page = host.client.get(f"/t/{table.id}" + ("" if chosen is None else f"?as={chosen}")).text
        assert "Enter for:" in page
        assert ("Entering for" in page) == (chosen is not None)
        table.assert_secret(playing_ana, f"page for seat {chosen}", page)
        poll = host.client.get(f"/t/{table.id}/poll?v=-1" + ("" if chosen is None else f"&as={chosen}"), headers={"HX-Request": "true"})
        table.assert_secret(playing_ana, f"poll for seat {chosen}", poll.text)


def test_secrecy_a_holder_tells_their_own_undone_colours_apart_and_nobody_else_can(drawn):
    """Game night: Dora recorded black, yellow by a slip, then black again; the host went
    back over all three. Her phone offered "Redo: … recorded the colour they drew", thrice
    alike, so she could not tell the slip to leave out. Her own phone names each colour;
    every other viewer's pages still name none."""
    ana = drawn.seats[0]
    for color in ("black", "yellow", "black"):
        assert drawn.post(ana, {"type": "choose_color", "color": color}).status_code == 200
    assert drawn.host.client.post(f"/api/tables/{drawn.id}/undo", json={"from": 1}, headers=drawn.host.headers).status_code == 200
    own = html.unescape(ana.client.get(f"/t/{drawn.id}").text)
    assert "Redo: Ana recorded the colour they drew: black." in own
    assert "recorded the colour they drew: yellow." in own  # the slip, in her log
    drawn.check_everyone()

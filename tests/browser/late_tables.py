"""Tables brought through the JSON API to late points of each game, with long names, for
the table screen's tests (test_table_screen_fit_browser.py): a game late in play (many
tiles held, many crosses, a turn under way) and a finished game whose ranking explains a
tie. Each builder works for every player count its game allows."""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable

import requests

from companion.games import GAMES
from companion.games.qwixx import ROW_NUMBERS, colour_choices, white_choices

# Realistic long names (the start form allows 24 characters): names of two words, and one
# single word of 24 letters that cannot wrap; as many as the game seating the most takes.
NAMES = (
    "Maria-Madalena Fonseca",
    "Wolfeschlegelsteinhausen",
    "Bartholomew",
    "Guilhermina",
    "Constantin von Habsburg",
    "Evangelina",
    "Friedrich",
    "Anastasia Papadopoulou",
    "Jean-Baptiste Lefebvre",
    "Maximiliane",
    "Oluwaseun Adeyemi",
    "Kristóf Szabó-Nagy",
)
WORM = "worm"
PHASES = ("late", "finished")


class ApiTable:
    """A table on a live server, each action entered by the host for a seat."""

    def __init__(self, url: str, slug: str, players: int, options: dict | None = None):
        self.url = url
        created = requests.post(
            url + "/api/tables", json={"game": slug, "players": list(NAMES[:players]), "options": options or {}}, timeout=10
        )
        assert created.status_code == 201, created.text
        self.id = created.json()["id"]
        self.host = created.json()["host_token"]
        self.join_urls = [seat["join_url"] for seat in created.json()["seats"]]
        self.view = requests.get(f"{url}/api/tables/{self.id}", timeout=10).json()

    @property
    def state(self) -> dict[str, Any]:
        return self.view["state"]

    def act(self, seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
        body = action if seat is None else {**action, "seat": seat}
        answer = requests.post(
            f"{self.url}/api/tables/{self.id}/actions", json=body,
            headers={"Authorization": f"Bearer {self.host}"}, timeout=10,
        )
        assert answer.status_code == 200, (body, answer.text)
        self.view = answer.json()
        return self.view


# --- worm dice (Pickomino, Heckmeck Barbecue) ------------------------------------------------


def groups_making(total: int, faces: tuple) -> list[tuple[Any, int]]:
    """Groups (face, count) of different faces, a worm (5) among them, 8 dice at most, adding
    up to `total`."""
    others = [face for face in faces if face != WORM]
    for worms in range(1, 9):
        rest = total - 5 * worms
        if rest == 0:
            return [(WORM, worms)]
        for size in range(1, 4):
            for chosen in itertools.combinations(others, size):
                for counts in itertools.product(range(1, 9), repeat=size):
                    if worms + sum(counts) <= 8 and sum(f * c for f, c in zip(chosen, counts)) == rest:
                        return [(WORM, worms), *zip(chosen, counts)]
    raise ValueError(total)


def scored(table: ApiTable, total: int, faces: tuple) -> None:
    """The player to move sets aside dice making `total` and stops (unless the dice ended the
    turn by themselves)."""
    seat = table.view["current_seat"]
    for face, count in groups_making(total, faces):
        table.act(seat, {"type": "set_aside", "face": face, "count": count})
    turn = table.state.get("turn")
    if turn is not None and turn["kept"]:
        table.act(seat, {"type": "stop"})


def failed(table: ApiTable, face: int = 1) -> None:
    """The player to move sets all eight dice aside as `face`, no worm: the turn fails."""
    table.act(table.view["current_seat"], {"type": "set_aside", "face": face, "count": 8})


def turn_under_way(table: ApiTable, faces: tuple, roll: list) -> None:
    seat = table.view["current_seat"]
    table.act(seat, {"type": "set_aside", "face": WORM, "count": 2})
    table.act(seat, {"type": "set_aside", "face": faces[-1] if faces[-1] != WORM else 4, "count": 2})
    table.act(seat, {"type": "roll", "dice": roll})


PICKOMINO_FACES = (1, 2, 3, 4, 5, WORM)
BARBECUE_FACES = (1, 2, 3, 4, WORM, 6)


def pickomino(url: str, players: int, phase: str) -> ApiTable:
    """Eight worms (40) take the highest tile on the grill, turn after turn: late, 13 tiles
    taken, a failure (a tile back on the grill) and a turn under way with a roll; finished,
    all 16 taken, which ties players on worms (with 7: two ties) broken by the highest tile."""
    table = ApiTable(url, "pickomino", players)
    if phase == "finished":
        for _ in range(16):
            scored(table, 40, PICKOMINO_FACES)
        return table
    for _ in range(13):
        scored(table, 40, PICKOMINO_FACES)
    failed(table, 3)
    turn_under_way(table, PICKOMINO_FACES, [1, 1, 2, 3])
    return table


def barbecue(url: str, players: int, phase: str) -> ApiTable:
    """Late: plates on the grill, a steal, a second plate closing a spot, snails taken and
    placed by failures, a turn under way. Finished: plates on 24, 23, 28, 27, 36, then
    failures until the snails run out; they send back the plates of 36, 28 and 27 (their
    owners keep the worms): ties with plates (the higher plate wins) and without (shared)."""
    table = ApiTable(url, "heckmeck-barbecue", players)
    first = [24, 23, 28, 27, 36][:players]
    for total in first:
        scored(table, total, BARBECUE_FACES)
    if phase == "finished":
        while table.view["status"] != "finished":
            failed(table)
        return table
    for total in [40, 28, None, 27, 33, 31, 35, 30, 29, None, 25, 26][: 3 * players]:
        if total is None:
            failed(table)
        else:
            scored(table, total, BARBECUE_FACES)
    turn_under_way(table, BARBECUE_FACES, [1, 3, 3, 4])
    return table


# --- Qwixx -------------------------------------------------------------------------------------


def skipped(sheet: dict, row: str, number: int) -> int:
    crossed = sheet["rows"][row]
    numbers = ROW_NUMBERS[row]
    last = numbers.index(crossed[-1]) if crossed else -1
    return numbers.index(number) - last - 1


def qwixx(url: str, players: int, phase: str) -> ApiTable:
    """Late: a seeded game of careful players (crossing what skips at most one number, a
    roller with a penalty bolder), four to six turns each: many crosses, penalties, the
    white sum chosen by half the players. Finished: seats 0 and 1 cross a green 12, then
    everyone crosses red and yellow 2..6 and 12 with the white sum, locking both rows:
    ties on 57 (seats 0 and 1) and on 56 (the others) that the rules leave shared."""
    table = ApiTable(url, "qwixx", players)
    if phase == "finished":
        ones = {die: 1 for die in ("red", "yellow", "green", "blue")}
        table.act(0, {"type": "roll", "dice": {"white1": 6, "white2": 6, **ones}})
        for seat in range(players):
            table.act(seat, {"type": "white", "row": "green" if seat < 2 else None})
        table.act(0, {"type": "colour", "row": None})
        for row, total in ((row, total) for row in ("red", "yellow") for total in (2, 3, 4, 5, 6, 12)):
            active = table.view["current_seat"]
            dice = {die: 1 for die in ("red", "yellow", "green", "blue") if die not in table.state["locked"]}
            white1 = 1 if total < 12 else 6
            table.act(active, {"type": "roll", "dice": {"white1": white1, "white2": total - white1, **dice}})
            for seat in range(players):
                table.act(seat, {"type": "white", "row": row})
            if table.view["status"] != "finished":
                table.act(active, {"type": "colour", "row": None})
        return table
    rng = random.Random(21)
    turns = 0
    while True:
        active = table.view["current_seat"]
        dice = {die: rng.randint(1, 6) for die in ("white1", "white2", "red", "yellow", "green", "blue")}
        table.act(active, {"type": "roll", "dice": {die: face for die, face in dice.items() if die not in table.state["locked"]}})
        turns += 1
        locking = bool(table.state["locked"])  # one row locked at most: a second ends the game
        for seat in range(players):
            if turns > 4 * players + 2 and seat >= (players + 1) // 2:
                return table  # the white sum: still waiting for some players
            sheet = table.state["sheets"][seat]
            reach = 3 if seat == active and sheet["penalties"] else 1  # a penalty makes the roller bolder
            choices = [c for c in white_choices(table.state, seat) if skipped(sheet, c["row"], c["number"]) <= reach]
            choices = [c for c in choices if not (c["locks"] and locking)]
            if choices and choices[0]["locks"]:
                locking = True
            table.act(seat, {"type": "white", "row": choices[0]["row"] if choices else None})
        sheet = table.state["sheets"][active]
        careful = not sheet["penalties"] or table.state["active_crossed"]
        choices = [c for c in colour_choices(table.state, active) if not (c["locks"] and table.state["locked"])]
        if careful:
            choices = [c for c in choices if skipped(sheet, c["row"], c["number"]) <= 1]
        else:
            choices.sort(key=lambda c: skipped(sheet, c["row"], c["number"]))
        if choices:
            table.act(active, {"type": "colour", "row": choices[0]["row"], "white": choices[0]["white"]})
        else:
            table.act(active, {"type": "colour", "row": None})
        assert table.view["status"] != "finished", "the seeded Qwixx game ended before its late point"


# --- Twenty One --------------------------------------------------------------------------------

COLOURS = ("white", "black", "red", "blue", "yellow", "green")


def writes(sheet: dict, roll: dict) -> list[str]:
    """The dice that fit the sheet's current row (at most their field's number, unused)."""
    row = sheet["rows"][sheet["row"]]
    return [
        field["color"] for field in row["fields"]
        if field["entry"] is None and not field["crossed"] and roll[field["color"]] <= field["value"]
    ]


def twentyone(url: str, players: int, phase: str) -> ApiTable:
    """Late: a seeded game where everyone writes every die that fits, until a sheet is on
    its last row, then a roll half written. Finished: five rounds of all ones; seats 2 and 3
    cross a field in round 2 (their last row stays short): ties the rules leave shared."""
    table = ApiTable(url, "twenty-one", players)
    if phase == "finished":
        ones = {colour: 1 for colour in COLOURS}
        round_ = 0
        while table.view["status"] != "finished":
            round_ += 1
            table.act(table.view["current_seat"], {"type": "roll", "dice": ones})
            for seat in range(players):
                sheet = table.state["sheets"][seat]
                fits = writes(sheet, ones)
                if (round_ == 2 and seat in (2, 3)) or not fits:
                    table.act(seat, {"type": "cross"})
                else:
                    table.act(seat, {"type": "enter", "colors": fits})
        return table
    rng = random.Random(21)
    while True:
        roll = {colour: rng.randint(1, 6) for colour in COLOURS}
        last_row = any(sheet["row"] == 4 for sheet in table.state["sheets"])
        table.act(table.view["current_seat"], {"type": "roll", "dice": roll})
        for seat in range(players):
            if last_row and seat >= players // 2:
                return table
            fits = writes(table.state["sheets"][seat], roll)
            table.act(seat, {"type": "enter", "colors": fits} if fits else {"type": "cross"})


# --- Lobo --------------------------------------------------------------------------------------


def meadows(*sheep: int) -> list[dict]:
    """Meadows as players enter them: the first fenced and valid, the others each void for a
    reason (not fenced, a wolf) or smaller."""
    kinds = [(True, False), (False, False), (True, True), (True, False), (False, False)]
    return [{"sheep": count, "fenced": fenced, "wolf": wolf} for count, (fenced, wolf) in zip(sheep, kinds)]


def lobo(url: str, players: int, phase: str) -> ApiTable:
    """Colours recorded, some revealed; seat 0 leaves first (bonus 6), seat 2 second (3);
    the tiles are placed and each enters several meadows. Late: the last player's meadows
    are missing. Finished: 4 + 6 ties 10 (the larger meadow decides), 5 + 3 ties 8."""
    table = ApiTable(url, "lobo", players, {"deal_colors": False})
    for seat, colour in zip(range(players), ("red", "blue", "yellow", "black")):
        table.act(seat, {"type": "choose_color", "color": colour})
    table.act(1, {"type": "reveal"})
    table.act(0, {"type": "abandon"})
    if players > 2:
        table.act(2, {"type": "abandon"})
    table.act(1, {"type": "end"})
    entered = [meadows(4, 9, 12, 2), meadows(10, 14, 6, 3, 11), meadows(5, 8, 7), meadows(8, 4, 9, 2, 12)]
    last = players if phase == "finished" else players - 1
    for seat in range(last):
        table.act(seat, {"type": "meadows", "meadows": entered[seat]})
    return table


def from_its_scenes(slug: str) -> Callable[[str, int, str], ApiTable]:
    """A game's tables as its package gives them (Game.screen_scenes), played through the API."""

    def build(url: str, players: int, phase: str) -> ApiTable:
        scene = GAMES[slug].screen_scenes(NAMES[:players])[phase]
        table = ApiTable(url, slug, players, scene.options)
        for seat, action in scene.actions:
            table.act(seat, action)
        return table

    return build


BUILDERS: dict[str, Callable[[str, int, str], ApiTable]] = {
    "pickomino": pickomino,
    "heckmeck-barbecue": barbecue,
    "qwixx": qwixx,
    "twenty-one": twentyone,
    "lobo": lobo,
}
# every other game brings its own (a builder for each of the five moves into its package too)
BUILDERS.update({slug: from_its_scenes(slug) for slug in GAMES if slug not in BUILDERS})
assert all(len(NAMES) >= game.max_players for game in GAMES.values()), "more players than NAMES"

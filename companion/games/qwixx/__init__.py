"""Qwixx: docs/rules.md (Qwixx). A roll-and-write game: one player rolls, everyone crosses.

Every seat has the same sheet: four rows (red and yellow 2..12, green and blue 12..2),
each crossed from left to right and closed by its lock, and four penalty boxes. A turn:
the active seat rolls the dice still in play (`step` "roll"); every seat crosses the
white sum in one row or passes (`step` "white", `waiting_for` the seats yet to choose);
then the active seat crosses a white die + a coloured die in that colour's row or passes
(`step` "colour"), taking a penalty if it crossed nothing this turn. Rows locked in step 1
close when step 1 ends (they stay open to the same white sum for the seats still
choosing); the game ends at the fourth penalty of a seat, or when a second row is locked,
once the step in progress is over.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import THREE, TWO, Game, Scene, ScenePlay, explain_ties, rank, require_seat_turn
from ..errors import MalformedAction, RuleError
from ..schema import SEAT, ApiSchemas, action, array, nullable, obj, ref
from ..text import N_, NC_, NP_, Text, listing, shown

ROWS = ("red", "yellow", "green", "blue")
ROW_NUMBERS = {
    "red": tuple(range(2, 13)),
    "yellow": tuple(range(2, 13)),
    "green": tuple(range(12, 1, -1)),
    "blue": tuple(range(12, 1, -1)),
}
WHITE_DICE = ("white1", "white2")
DICE = (*WHITE_DICE, *ROWS)  # a coloured die is named after its row
ROW_NAMES = {  # the rows as adjectives of "row" (context "qwixx": other games' colours differ)
    "red": NC_("qwixx", "red"),
    "yellow": NC_("qwixx", "yellow"),
    "green": NC_("qwixx", "green"),
    "blue": NC_("qwixx", "blue"),
}
DIE_NAMES = {  # a die is not a row: its own words where the languages give nouns a gender
    "white1": N_("white die 1"),
    "white2": N_("white die 2"),
    "red": NC_("qwixx die", "red"),
    "yellow": NC_("qwixx die", "yellow"),
    "green": NC_("qwixx die", "green"),
    "blue": NC_("qwixx die", "blue"),
}
CROSSES_TO_LOCK = 5
MAX_PENALTIES = 4
PENALTY_POINTS = 5
LOCKS_TO_END = 2
END_FOURTH_PENALTY = "fourth_penalty"
END_SECOND_LOCK = "second_lock"


def row_score(crosses: int) -> int:
    """1, 3, 6, 10, … 78 points for 1 to 12 crosses (a lock counts as one)."""
    return crosses * (crosses + 1) // 2


def crosses(sheet: dict[str, Any], row: str) -> int:
    return len(sheet["rows"][row]) + (row in sheet["locks"])


def sheet_score(sheet: dict[str, Any]) -> int:
    return sum(row_score(crosses(sheet, row)) for row in ROWS) - PENALTY_POINTS * sheet["penalties"]


def crossing_refusal(sheet: dict[str, Any], row: str, number: int, name: str) -> RuleError | None:
    """Why `number` cannot be crossed in `row` of this sheet now, or None when it can."""
    numbers = ROW_NUMBERS[row]
    crossed = sheet["rows"][row]
    if number not in numbers:
        return RuleError("not_on_row", N_("The %(row)s row has no %(number)s.", number=number, row=ROW_NAMES[row]))
    if crossed and numbers.index(number) <= numbers.index(crossed[-1]):
        return RuleError(
            "left_of_a_cross",
            N_("In the %(row)s row, %(number)s cannot be crossed any more: numbers are crossed from left to right, and %(last)s is crossed already.",
               number=number, row=ROW_NAMES[row], last=crossed[-1]),
        )
    if number == numbers[-1] and len(crossed) < CROSSES_TO_LOCK:
        return RuleError(
            "lock_needs_five",
            NP_("Crossing %(number)s closes the %(row)s row: it needs 5 crosses in that row first, and %(name)s has %(num)s.",
                "Crossing %(number)s closes the %(row)s row: it needs 5 crosses in that row first, and %(name)s has %(num)s.",
                len(crossed), number=number, row=ROW_NAMES[row], name=name),
        )
    return None


def cross(sheet: dict[str, Any], row: str, number: int) -> bool:
    """Cross `number` (already checked); whether it locked the row."""
    sheet["rows"][row].append(number)
    if number == ROW_NUMBERS[row][-1]:
        sheet["locks"].append(row)
        return True
    return False


def dice_in_play(state: dict[str, Any]) -> list[str]:
    return [die for die in DICE if die not in state["locked"]]


def white_sum(state: dict[str, Any]) -> int | None:
    return None if state["roll"] is None else state["roll"]["white1"] + state["roll"]["white2"]


def white_choices(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The rows where `seat` may cross the white sum now, with the number and whether it
    locks the row."""
    if state["end_reason"] is not None or state["step"] != "white" or seat not in state["waiting_for"]:
        return []
    number, sheet = white_sum(state), state["sheets"][seat]
    return [
        {"row": row, "number": number, "locks": number == ROW_NUMBERS[row][-1]}
        for row in ROWS
        if row not in state["locked"] and crossing_refusal(sheet, row, number, "") is None
    ]


def colour_choices(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every crossing step 2 allows `seat` now: row, white die (1 or 2), number, lock (one
    choice per row and number)."""
    if state["end_reason"] is not None or state["step"] != "colour" or seat != state["active"]:
        return []
    sheet, choices = state["sheets"][seat], []
    for row in ROWS:
        if row in state["locked"]:
            continue
        for white in (1, 2):
            number = state["roll"][f"white{white}"] + state["roll"][row]
            fits = crossing_refusal(sheet, row, number, "") is None
            if fits and not any(choice["row"] == row and choice["number"] == number for choice in choices):
                choices.append({"row": row, "white": white, "number": number, "locks": number == ROW_NUMBERS[row][-1]})
    return choices


def passing_costs_a_penalty(state: dict[str, Any], seat: int) -> bool:
    return state["end_reason"] is None and state["step"] == "colour" and seat == state["active"] and not state["active_crossed"]


class Qwixx(Game):
    slug = "qwixx"
    title = N_("Qwixx")
    bgg_id = 131260
    min_players = 2
    max_players = 5
    watchers_see_the_same_table = False  # each phone shows its own sheet first
    rows = ROWS
    row_numbers = ROW_NUMBERS
    row_names = ROW_NAMES
    dice = DICE
    die_names = DIE_NAMES
    max_penalties = MAX_PENALTIES
    penalty_points = PENALTY_POINTS
    row_score = staticmethod(row_score)

    # --- setting up -----------------------------------------------------------------
    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """Late: a seeded game of careful players (crossing what skips at most one number, a
        roller with a penalty bolder), four to six turns each: many crosses, penalties, the
        white sum chosen by half the players. Finished: seats 0 and 1 cross a green 12, then
        everyone crosses red and yellow 2..6 and 12 with the white sum, locking both rows:
        ties on 57 (seats 0 and 1) and on 56 (the others) that the rules leave shared."""
        return {"late": _late_game(self, names), "finished": _finished_game(self, names)}


    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        return {
            "players": list(players),
            "active": 0,
            "step": "roll",
            "roll": None,
            "waiting_for": [],
            "locked": [],  # rows closed for everyone, in order
            "locking": [],  # rows locked in this step 1: closed when it ends
            "active_crossed": False,  # whether the active seat crossed anything this turn
            "end_reason": None,
            "sheets": [
                {"seat": seat, "rows": {row: [] for row in ROWS}, "locks": [], "penalties": 0} for seat in range(len(players))
            ],
        }

    def is_finished(self, state: dict[str, Any]) -> bool:
        return state["end_reason"] is not None

    def current_seat(self, state: dict[str, Any]) -> int | None:
        return None if self.is_finished(state) else state["active"]

    def actors(self, state: dict[str, Any]) -> list[int]:
        if self.is_finished(state):
            return []
        return list(state["waiting_for"]) if state["step"] == "white" else [state["active"]]

    def seat_for_host(self, state: dict[str, Any], action: Any) -> int | None:
        """Whose move it is, as the API contract says: the active seat, also in step 1 while
        it has still to choose; once it has, the host names one of the others still
        choosing, unless only one is left (a guess would cross on someone else's sheet)."""
        if state["step"] == "white" and not self.is_finished(state) and state["active"] not in state["waiting_for"]:
            return state["waiting_for"][0] if len(state["waiting_for"]) == 1 else None
        return self.current_seat(state)

    def tap_depends_on(self, state, seat, action, earlier_seat, earlier_action) -> bool:
        """Step 1 is everyone's at the same time: another seat's choice changes nothing of
        what this seat may cross."""
        both_white = action.get("type") == "white" and earlier_action.get("type") == "white"
        return not (both_white and earlier_seat != seat)

    def scores(self, state: dict[str, Any]) -> list[int]:
        return [sheet_score(sheet) for sheet in state["sheets"]]

    # --- what the pages offer (the module's functions, on the public state too) ------
    def dice_in_play(self, state: dict[str, Any]) -> list[str]:
        return dice_in_play(state)

    def die_row(self, die: str) -> str | None:
        return die if die in ROWS else None

    def white_sum(self, state: dict[str, Any]) -> int | None:
        return white_sum(state)

    def white_choices(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return white_choices(state, seat)

    def colour_choices(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return colour_choices(state, seat)

    def passing_costs_a_penalty(self, state: dict[str, Any], seat: int) -> bool:
        return passing_costs_a_penalty(state, seat)

    # --- actions --------------------------------------------------------------------
    def starts_round(self, action: dict[str, Any]) -> bool:
        return action.get("type") == "roll"  # the next player's turn

    def step(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if self.is_finished(state):
            raise RuleError("game_over", N_("The game is over."))
        kind = action.get("type")
        if kind == "roll":
            self._roll(state, seat, action)
        elif kind == "white":
            self._white(state, seat, action)
        elif kind == "colour":
            self._colour(state, seat, action)
        else:
            raise RuleError("unknown_action", N_("Qwixx has no action %(type)s.", type=shown(str(kind))))

    def _roll(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        require_seat_turn(state["active"], seat, state["players"])
        if state["step"] != "roll":
            raise RuleError("already_rolled", N_("The dice are rolled already this turn."))
        dice = action["dice"]
        in_play = dice_in_play(state)
        if set(dice) != set(in_play):
            raise RuleError(
                "wrong_dice",
                N_("Enter exactly the dice still in play: %(dice)s.", dice=listing([DIE_NAMES[die] for die in in_play])),
            )
        for die in in_play:
            face = dice[die]
            if not 1 <= face <= 6:
                raise RuleError("invalid_face", N_("A die shows 1 to 6, not %(face)s.", face=face))
        state["roll"] = {die: dice[die] for die in in_play}
        state["step"] = "white"
        state["waiting_for"] = list(range(len(state["players"])))
        state["active_crossed"] = False

    def check_shape(self, action: dict[str, Any]) -> None:
        kind = action["type"]
        if kind == "roll":
            dice = action.get("dice")
            if not isinstance(dice, dict):
                raise MalformedAction(N_('"dice" must be an object: each die still in play and the face it shows.'))
            if any(isinstance(face, bool) or not isinstance(face, int) for face in dice.values()):
                raise MalformedAction(N_("A die shows a whole number from 1 to 6."))
        if kind in ("white", "colour"):
            if "row" not in action or (action["row"] is not None and not isinstance(action["row"], str)):
                raise MalformedAction(N_('Say the row: "row" is red, yellow, green, blue, or null to pass.'))
        if kind == "colour" and action["row"] is not None:
            white = action.get("white")
            if isinstance(white, bool) or not isinstance(white, int):
                raise MalformedAction(N_('"white" is the white die that goes with the coloured one: 1 or 2.'))

    def _row(self, state: dict[str, Any], action: dict[str, Any]) -> str | None:
        row = action["row"]
        if row is not None and row not in ROWS:
            raise RuleError("unknown_row", N_("Qwixx has no %(row)s row: the rows are red, yellow, green and blue.", row=shown(row)))
        if row in state["locked"]:
            raise RuleError("row_locked", N_("The %(row)s row is locked: nobody crosses in it any more.", row=ROW_NAMES[row]))
        return row

    def _white(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if state["step"] == "roll":
            raise RuleError("roll_first", N_("Roll the dice first: it is %(name)s's turn to roll.", name=state["players"][state["active"]]))
        if state["step"] == "colour" or seat not in state["waiting_for"]:
            raise RuleError("white_done", N_("%(name)s has already used or passed this white sum.", name=state["players"][seat]))
        row = self._row(state, action)
        if row is not None:
            sheet, number = state["sheets"][seat], white_sum(state)
            refusal = crossing_refusal(sheet, row, number, state["players"][seat])
            if refusal is not None:
                raise refusal
            if cross(sheet, row, number) and row not in state["locking"]:
                state["locking"].append(row)
            state["active_crossed"] |= seat == state["active"]
        state["waiting_for"].remove(seat)
        if not state["waiting_for"]:  # step 1 is over: its locks close their rows
            state["locked"] += state["locking"]
            state["locking"] = []
            if len(state["locked"]) >= LOCKS_TO_END:
                state["end_reason"] = END_SECOND_LOCK
            else:
                state["step"] = "colour"

    def _colour(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        white = action.get("white")
        require_seat_turn(state["active"], seat, state["players"])
        if state["step"] == "roll":
            raise RuleError("roll_first", N_("Roll the dice first: it is %(name)s's turn to roll.", name=state["players"][seat]))
        if state["step"] == "white":
            waiting = listing([state["players"][other] for other in state["waiting_for"]])
            raise RuleError("white_first", N_("First everyone crosses the white sum or passes: waiting for %(names)s.", names=waiting))
        sheet = state["sheets"][seat]
        row = self._row(state, action)
        if row is None:
            if not state["active_crossed"]:
                sheet["penalties"] += 1
                if sheet["penalties"] >= MAX_PENALTIES:
                    state["end_reason"] = END_FOURTH_PENALTY
                    return
        else:
            if white not in (1, 2):
                raise RuleError("white_die", N_('Say which white die goes with the %(row)s die: "white": 1 or 2.', row=ROW_NAMES[row]))
            number = state["roll"][f"white{white}"] + state["roll"][row]
            refusal = crossing_refusal(sheet, row, number, state["players"][seat])
            if refusal is not None:
                raise refusal
            if cross(sheet, row, number):
                state["locked"].append(row)
                if len(state["locked"]) >= LOCKS_TO_END:
                    state["end_reason"] = END_SECOND_LOCK
                    return
        state["active"] = (state["active"] + 1) % len(state["players"])
        state["step"], state["roll"], state["waiting_for"] = "roll", None, []
        state["active_crossed"] = False  # of the turn that begins (the state says so to the API)

    # --- words ----------------------------------------------------------------------
    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        return {
            "roll": state["roll"],
            "step": state["step"],
            "waiting_for": list(state["waiting_for"]),
            "locked": list(state["locked"]),
            "locking": list(state["locking"]),
            "active": state["active"],
            "active_crossed": state["active_crossed"],
            "white_sum": white_sum(state),
            "end_reason": state["end_reason"],
            "sheets": [
                {**sheet, "rows": {row: list(numbers) for row, numbers in sheet["rows"].items()}, "locks": list(sheet["locks"]), "score": sheet_score(sheet)}
                for sheet in state["sheets"]
            ],
        }

    def ranking(self, state: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self.is_finished(state):
            return None
        entries = []
        for sheet in state["sheets"]:
            parts = [N_("%(row)s %(points)s", row=ROW_NAMES[row], points=row_score(crosses(sheet, row))) for row in ROWS]
            if sheet["penalties"]:
                parts.append(N_("penalties −%(points)s", points=PENALTY_POINTS * sheet["penalties"]))
            entries.append({"seat": sheet["seat"], "name": state["players"][sheet["seat"]], "score": sheet_score(sheet), "detail": listing(parts)})
        return explain_ties(
            rank(entries, key=lambda entry: entry["score"]),
            lambda tied, entry: NP_(
                "%(names)s tied on %(num)s point: the rules have no tie-break, they share the place.",
                "%(names)s tied on %(num)s points: the rules have no tie-break, they share the place.",
                entry["score"], names=listing([other["name"] for other in tied]),
            ),
        )

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
        kind, row = action.get("type"), action.get("row")
        if kind == "roll":
            dice = action.get("dice") or {}
            faces = [N_("%(die)s = %(face)s", die=DIE_NAMES[die], face=dice[die]) for die in DICE if die in dice]
            return N_("rolled %(dice)s", dice=listing(faces) if faces else "")
        if kind == "white":
            return N_("passed the white sum") if row is None else N_("crossed the white sum in %(row)s", row=ROW_NAMES.get(row, row))
        if row is None:
            return N_("passed the colour sum")
        return N_("crossed white %(white)s + %(die)s", white=action.get("white"), die=DIE_NAMES.get(row, row))

    redo_ends_badly = N_(
        "Redoing “%(name)s %(line)s” would now cost %(name)s a penalty, which it did not when it was first entered: "
        "redo it on its own if that is right, or leave it out."
    )

    def ends_badly(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
        return after["sheets"][seat]["penalties"] > before["sheets"][seat]["penalties"]

    def describe_outcome(self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]) -> Text | None:
        kind, row = action.get("type"), action.get("row")
        line: Text | None = None
        if kind == "white" and row is not None:
            number = white_sum(before)
            line = N_("crossed %(number)s in %(row)s (white sum)", number=number, row=ROW_NAMES[row])
        elif kind == "colour" and row is not None:
            number = before["roll"][f"white{action['white']}"] + before["roll"][row]
            line = N_(
                "crossed %(number)s in %(row)s (white %(white)s + %(die)s)",
                number=number, row=ROW_NAMES[row], white=action["white"], die=DIE_NAMES[row],
            )
        if line is not None and row in after["sheets"][seat]["locks"] and row not in before["sheets"][seat]["locks"]:
            line = N_("%(crossed)s and locked the row", crossed=line)
        penalties = after["sheets"][seat]["penalties"]
        if penalties > before["sheets"][seat]["penalties"]:
            line = N_("passed — took penalty %(count)s of %(most)s", count=penalties, most=MAX_PENALTIES)
        if after["end_reason"] is not None:
            reason = N_("a fourth penalty") if after["end_reason"] == END_FOURTH_PENALTY else N_("a second row is locked")
            line = N_("%(line)s — the game is over: %(reason)s", line=line or self.describe_action(before, seat, action), reason=reason)
        return line

    # --- the API and the scenes -----------------------------------------------------
    def api_schemas(self) -> ApiSchemas:
        row_or_null = nullable({"enum": list(ROWS)})
        sheet = obj(
            {
                "seat": SEAT,
                "rows": obj({row: array({"type": "integer", "minimum": 2, "maximum": 12}, maxItems=11) for row in ROWS}),
                "locks": array({"enum": list(ROWS)}, description="The rows this seat locked."),
                "penalties": {"type": "integer", "minimum": 0, "maximum": MAX_PENALTIES},
                "score": {"type": "integer"},
            }
        )
        return ApiSchemas(
            options_request=obj({}, required=[], additionalProperties=False),
            options=obj({}),
            state=obj(
                {
                    "roll": nullable(ref("QwixxDice")),
                    "step": {"enum": ["roll", "white", "colour"]},
                    "waiting_for": array(SEAT, description="Seats yet to cross the white sum or pass."),
                    "locked": array({"enum": list(ROWS)}, description="Rows locked for everyone, in order."),
                    "locking": array(
                        {"enum": list(ROWS)}, description="Rows locked in this step 1: closed for everyone once every seat has chosen."
                    ),
                    "active": SEAT,
                    "active_crossed": {"type": "boolean", "description": "Whether the active seat crossed anything this turn."},
                    "white_sum": nullable({"type": "integer", "minimum": 2, "maximum": 12}),
                    "end_reason": nullable({"enum": [END_FOURTH_PENALTY, END_SECOND_LOCK]}),
                    "sheets": array(sheet),
                },
                required=["roll", "step", "waiting_for", "locked", "sheets"],
            ),
            actions={
                "QwixxRoll": action(
                    "roll", "qwixx: the active seat (or the host), once per turn: exactly the dice still in play.",
                    {"dice": ref("QwixxDice")}, ["dice"],
                ),
                "QwixxWhite": action(
                    "white", "qwixx, step 1: every seat once per turn crosses the white sum in a row, or passes (null).",
                    {"row": row_or_null}, ["row"],
                ),
                "QwixxColour": action(
                    "colour", "qwixx, step 2: the active seat crosses white die 1 or 2 + a coloured die in its row, or passes (null).",
                    {"row": row_or_null, "white": {"enum": [1, 2]}}, ["row"],
                ),
            },
            named={
                "QwixxDice": obj(
                    {die: {"type": "integer", "minimum": 1, "maximum": 6} for die in DICE},
                    required=list(WHITE_DICE),
                    description="The dice still in play by name, each 1..6 (a locked row's die is left out).",
                    additionalProperties=False,
                ),
            },
        )

    def scenes(self) -> dict[str, Scene]:
        def roll(white1: int, white2: int, locked: tuple[str, ...] = ()) -> dict[str, Any]:
            return {"type": "roll", "dice": {"white1": white1, "white2": white2, **{row: 1 for row in ROWS if row not in locked}}}

        # Ana and Bruno cross the same white sums: 2..6 then 12 in red (both lock it), the
        # same in yellow: the second lock ends the game, tied on 56.
        together = []
        for turn, (row, total) in enumerate([(row, total) for row in ("red", "yellow") for total in (2, 3, 4, 5, 6, 12)]):
            active = turn % 2
            together += [(active, roll(1 if total < 12 else 6, total - 1 if total < 12 else 6, ("red",) if row == "yellow" else ()))]
            together += [(0, {"type": "white", "row": row}), (1, {"type": "white", "row": row})]
            if (row, total) != ("yellow", 12):
                together.append((active, {"type": "colour", "row": None}))
        white_sum = ((0, roll(3, 4)),)
        return {
            "start": Scene(THREE),
            "white-sum": Scene(THREE, white_sum, seen_by=1),
            "colour-sum": Scene(
                THREE,
                white_sum + ((1, {"type": "white", "row": "green"}), (2, {"type": "white", "row": None}), (0, {"type": "white", "row": "yellow"})),
            ),
            "finished": Scene(TWO, tuple(together)),
        }


GAME = Qwixx()


# --- scenes: what screen_scenes plays -----------------------------------------------------------
def _skipped(sheet: dict[str, Any], row: str, number: int) -> int:
    crossed = sheet["rows"][row]
    last = ROW_NUMBERS[row].index(crossed[-1]) if crossed else -1
    return ROW_NUMBERS[row].index(number) - last - 1


def _finished_game(game: Qwixx, names: tuple[str, ...]) -> Scene:
    play, players = ScenePlay(game, names), len(names)
    ones = {die: 1 for die in ROWS}
    play.act(0, {"type": "roll", "dice": {"white1": 6, "white2": 6, **ones}})
    for seat in range(players):
        play.act(seat, {"type": "white", "row": "green" if seat < 2 else None})
    play.act(0, {"type": "colour", "row": None})
    for row, total in ((row, total) for row in ("red", "yellow") for total in (2, 3, 4, 5, 6, 12)):
        active = play.current_seat
        dice = {die: 1 for die in ROWS if die not in play.state["locked"]}
        white1 = 1 if total < 12 else 6
        play.act(active, {"type": "roll", "dice": {"white1": white1, "white2": total - white1, **dice}})
        for seat in range(players):
            play.act(seat, {"type": "white", "row": row})
        if not play.finished:
            play.act(active, {"type": "colour", "row": None})
    return play.scene()


def _late_game(game: Qwixx, names: tuple[str, ...]) -> Scene:
    play, players = ScenePlay(game, names), len(names)
    rng = random.Random(21)
    turns = 0
    while True:
        active = play.current_seat
        dice = {die: rng.randint(1, 6) for die in ("white1", "white2", *ROWS)}
        play.act(active, {"type": "roll", "dice": {die: face for die, face in dice.items() if die not in play.state["locked"]}})
        turns += 1
        locking = bool(play.state["locked"])  # one row locked at most: a second ends the game
        for seat in range(players):
            if turns > 4 * players + 2 and seat >= (players + 1) // 2:
                return play.scene()  # the white sum: still waiting for some players
            sheet = play.state["sheets"][seat]
            reach = 3 if seat == active and sheet["penalties"] else 1  # a penalty makes the roller bolder
            choices = [c for c in white_choices(play.state, seat) if _skipped(sheet, c["row"], c["number"]) <= reach]
            choices = [c for c in choices if not (c["locks"] and locking)]
            if choices and choices[0]["locks"]:
                locking = True
            play.act(seat, {"type": "white", "row": choices[0]["row"] if choices else None})
        sheet = play.state["sheets"][active]
        careful = not sheet["penalties"] or play.state["active_crossed"]
        choices = [c for c in colour_choices(play.state, active) if not (c["locks"] and play.state["locked"])]
        if careful:
            choices = [c for c in choices if _skipped(sheet, c["row"], c["number"]) <= 1]
        else:
            choices.sort(key=lambda c: _skipped(sheet, c["row"], c["number"]))
        if choices:
            play.act(active, {"type": "colour", "row": choices[0]["row"], "white": choices[0]["white"]})
        else:
            play.act(active, {"type": "colour", "row": None})
        assert not play.finished, "the seeded Qwixx game ended before its late point"

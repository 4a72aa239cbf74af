"""Twenty One: docs/rules.md (Twenty One). A roll-and-write game: one player rolls, every player writes.

Each seat has a sheet of five rows; a row has six fields, one per die colour, showing the
numbers 6..1 from left to right. A round: the active seat rolls (and may re-roll once,
the 1s staying), then every seat either enters dice into its current row or crosses out
that row's leftmost empty field. `waiting_for` lists the seats that have not done so yet;
when it is empty the next seat clockwise rolls.

Longer than 400 lines on purpose: a game is one module (docs: "How it is built"), so its
engine, its sentences, its part of the API's description and its scenes stay together.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import THREE, TWO, Game, Option, Scene, ScenePlay, explain_ties, rank
from ..errors import MALFORMED_OPTION, MalformedAction, RuleError
from ..schema import COUNT, SEAT, ApiSchemas, action, array, nullable, obj, ref
from ..text import N_, NP_, Text, listing, shown

COLORS = ("white", "black", "red", "blue", "yellow", "green")
COLOR_NAMES = {
    "white": N_("white"),
    "black": N_("black"),
    "red": N_("red"),
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "green": N_("green"),
}
FIELD_NUMBERS = (6, 5, 4, 3, 2, 1)  # the number printed on each field of a row, left to right
ROWS = 5
HIT_BONUS = (0, 1, 3, 6, 10, 15, 21)  # by the number of hits in a full row
DIE_FACES = range(1, 7)
STAYING_FACE = 1  # a re-roll leaves every die that shows 1
PAGE_GUARDS = ("row", "roll")  # what a writer's page showed: a tap from an older page is refused

# The companion's own sheets (the printed colour orders are not public). Found by a small
# search and kept as data: every row is a permutation of the colours; on each sheet the
# five numbers a colour sits on sum to 16..19; and for every row and field the six sheets
# hold six different colours, so one roll favours different players.
SHEET_LAYOUTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "A": (
        ("yellow", "green", "red", "white", "black", "blue"),
        ("blue", "white", "black", "green", "yellow", "red"),
        ("yellow", "blue", "black", "white", "red", "green"),
        ("red", "black", "green", "yellow", "white", "blue"),
        ("green", "blue", "white", "red", "black", "yellow"),
    ),
    "B": (
        ("red", "blue", "white", "yellow", "green", "black"),
        ("white", "black", "blue", "red", "green", "yellow"),
        ("green", "yellow", "red", "black", "white", "blue"),
        ("black", "yellow", "white", "green", "blue", "red"),
        ("blue", "green", "red", "white", "yellow", "black"),
    ),
    "C": (
        ("green", "yellow", "blue", "black", "white", "red"),
        ("black", "blue", "white", "yellow", "red", "green"),
        ("red", "black", "yellow", "blue", "green", "white"),
        ("green", "white", "red", "blue", "black", "yellow"),
        ("red", "white", "yellow", "black", "blue", "green"),
    ),
    "D": (
        ("white", "black", "yellow", "red", "blue", "green"),
        ("red", "yellow", "green", "white", "blue", "black"),
        ("blue", "green", "white", "red", "black", "yellow"),
        ("blue", "red", "yellow", "black", "green", "white"),
        ("black", "yellow", "green", "blue", "white", "red"),
    ),
    "E": (
        ("black", "white", "green", "blue", "red", "yellow"),
        ("green", "red", "yellow", "blue", "black", "white"),
        ("white", "red", "green", "yellow", "blue", "black"),
        ("white", "blue", "black", "red", "yellow", "green"),
        ("yellow", "black", "blue", "green", "red", "white"),
    ),
    "F": (
        ("blue", "red", "black", "green", "yellow", "white"),
        ("yellow", "green", "red", "black", "white", "blue"),
        ("black", "white", "blue", "green", "yellow", "red"),
        ("yellow", "green", "blue", "white", "red", "black"),
        ("white", "red", "black", "yellow", "green", "blue"),
    ),
}
LETTERS = tuple(SHEET_LAYOUTS)


def color_name(color: str) -> Text:
    return COLOR_NAMES[color]


# --- options ------------------------------------------------------------------------------
# Both options are per seat, in seat order; seats without an entry (null, or beyond the
# list) get a dealt sheet and its own colours. The start form sends maps instead of
# lists: {"<seat>": letter} and {"<seat>.<row>.<field>": colour}.
def seat_map_to_list(value: dict[str, Any], option: str) -> list[Any]:
    entries: dict[int, Any] = {}
    for key, entry in value.items():
        seat = key.split(".", 1)[0]
        if not (seat.isascii() and seat.isdecimal()):
            raise MalformedAction(N_("The option %(option)s is a list with one entry per player.", option=option), code=MALFORMED_OPTION)
        if len(seat) > 1 or int(seat) >= len(LETTERS):  # never more seats than sheets
            raise RuleError(
                "option_per_seat",
                N_("The option %(option)s has entries for more players than a table can have.", option=option),
            )
        entries[int(seat)] = entry
    return [entries.get(seat) for seat in range(max(entries, default=-1) + 1)]


def check_sheets(value: Any) -> list[str | None] | None:
    """`sheets`: a different letter A..F per seat."""
    if isinstance(value, dict):
        value = [letter or None for letter in seat_map_to_list(value, "sheets")]  # "" on the form: dealt
        while value and value[-1] is None:
            value.pop()
    if value is None:
        return None
    if not isinstance(value, list) or not all(letter is None or isinstance(letter, str) for letter in value):
        raise MalformedAction(N_("The option sheets is a list with one sheet letter (A to F) per player."), code=MALFORMED_OPTION)
    if not any(value):
        return None
    for letter in value:
        if letter is not None and letter not in SHEET_LAYOUTS:
            raise RuleError("unknown_sheet", N_("There is no sheet %(letter)s: the sheets are A to F.", letter=shown(letter)))
    chosen = [letter for letter in value if letter is not None]
    for letter in chosen:
        if chosen.count(letter) > 1:
            raise RuleError(
                "duplicate_sheet",
                N_("Sheet %(letter)s is given twice: every player needs a different sheet.", letter=letter),
            )
    return list(value)


def check_layout(layout: Any, player: int) -> list[list[str]]:
    """One copied sheet: five rows, each the six colours once, left to right."""
    shape = N_("A copied sheet is five rows of the six colour names, left to right.")
    if not isinstance(layout, list) or not all(isinstance(row, list) for row in layout):
        raise MalformedAction(shape, code=MALFORMED_OPTION)
    if len(layout) != ROWS:
        raise RuleError("invalid_layout", N_("The copied sheet of player %(player)s needs five rows.", player=player))
    for index, row in enumerate(layout, start=1):
        if not all(isinstance(color, str) for color in row):
            raise MalformedAction(shape, code=MALFORMED_OPTION)
        unknown = [color for color in row if color not in COLORS]
        if unknown:
            raise RuleError("invalid_layout", N_("%(color)s is not a die colour.", color=shown(unknown[0])))
        if sorted(row) != sorted(COLORS):
            raise RuleError(
                "invalid_layout",
                N_(
                    "Row %(row)s of the copied sheet of player %(player)s needs each of the six colours once.",
                    row=index, player=player,
                ),
            )
    return [list(row) for row in layout]


def layout_from_form(fields: dict[str, Any]) -> list[list[Any]]:
    """The colours tapped for one seat, {"<row>.<field>": colour}; untapped fields are left
    out, so an unfinished row is refused with the sentence for it."""
    return [
        [fields[key] for position in range(len(FIELD_NUMBERS)) if (key := f"{row}.{position}") in fields]
        for row in range(ROWS)
    ]


LAYOUTS_SHAPE = N_("The option sheet_layouts is a list with, per player, null or a copied sheet.")


def check_layouts(value: Any) -> list[list[list[str]] | None] | None:
    """`sheet_layouts`: per seat null (the sheet's own colours) or a copied sheet."""
    if isinstance(value, dict):
        by_seat: dict[str, dict[str, Any]] = {}
        for key, color in value.items():
            seat, _, field = key.partition(".")
            if not field:  # the start form's fields are "<seat>.<row>.<field>"
                raise MalformedAction(LAYOUTS_SHAPE, code=MALFORMED_OPTION)
            by_seat.setdefault(seat, {})[field] = color
        value = seat_map_to_list({seat: layout_from_form(fields) for seat, fields in by_seat.items()}, "sheet_layouts")
    if value is None:
        return None
    if not isinstance(value, list):
        raise MalformedAction(LAYOUTS_SHAPE, code=MALFORMED_OPTION)
    if all(layout is None for layout in value):
        return None
    return [None if layout is None else check_layout(layout, seat + 1) for seat, layout in enumerate(value)]


def per_seat(value: list | None, players: int, option: str) -> list:
    """An option's entries, one per seat: missing ones are None (the start form sends an
    empty choice for every slot, the unused ones included)."""
    value = value or []
    if any(entry is not None for entry in value[players:]):
        raise RuleError(
            "option_per_seat",
            N_("The option %(option)s has more entries than there are players (%(count)s).", option=option, count=players),
        )
    return list(value[:players]) + [None] * (players - len(value))


# --- the sheet ------------------------------------------------------------------------------
def new_sheet(seat: int, letter: str, layout, copied: bool) -> dict[str, Any]:
    return {
        "seat": seat,
        "letter": letter,
        "copied": copied,
        "row": 0,
        "total": 0,
        "rows": [
            {
                "score": None,
                "hits": 0,
                "fields": [
                    {"color": color, "value": number, "entry": None, "crossed": False, "hit": False}
                    for color, number in zip(colors, FIELD_NUMBERS)
                ],
            }
            for colors in layout
        ],
    }


def is_used(field: dict[str, Any]) -> bool:
    return field["entry"] is not None or field["crossed"]


def row_points(row: dict[str, Any]) -> int:
    """Entries plus the hit bonus: how a full row scores, and an unfinished one at the end."""
    return sum(field["entry"] or 0 for field in row["fields"]) + HIT_BONUS[row["hits"]]


def score_row(sheet: dict[str, Any], index: int) -> None:
    row = sheet["rows"][index]
    row["score"] = row_points(row)
    sheet["total"] = sum(row["score"] or 0 for row in sheet["rows"])


def fits(field: dict[str, Any], value: int) -> bool:
    return not is_used(field) and value <= field["value"]


class TwentyOne(Game):
    slug = "twenty-one"
    title = N_("Twenty One")
    min_players = 2
    max_players = 6
    watchers_see_the_same_table = False  # each phone shows its own sheet first
    host_out_of_turn = N_("%(turn)s rolls the dice this round, not %(name)s.")  # the others may be writing
    colors = COLORS
    color_names = COLOR_NAMES
    letters = LETTERS
    rows = ROWS
    field_numbers = FIELD_NUMBERS
    die_faces = DIE_FACES
    # the start form's colour picker shows colours alone: their order says which is which
    copy_order = N_("Under each number the colours are, top to bottom: %(colors)s.", colors=listing([COLOR_NAMES[color] for color in COLORS]))
    staying_face = STAYING_FACE
    options = (
        Option(
            "sheets",
            None,
            N_("Sheets"),
            N_("Which sheet (A to F) each player writes on; the ones not chosen are dealt."),
            check_sheets,
            per_seat=True,
        ),
        Option(
            "sheet_layouts",
            None,
            N_("Printed sheets"),
            N_("Playing with the printed block? Copy the colours of your sheet once, row by row, and choose its letter above: once a game with it is played to the end, the companion fills it in for you whenever you have that sheet again."),
            check_layouts,
            per_seat=True,
        ),
    )

    # --- setting up ---------------------------------------------------------------------
    def api_schemas(self) -> ApiSchemas:
        # what the writer's page showed: refused if the table has moved past it
        seen = {
            "row": {"type": "integer", "minimum": 0, "description": "The row the page showed (422 not_current_row otherwise)."},
            "roll": {**ref("TwentyOneDice"), "description": "The roll the page showed (409 roll_changed after a re-roll)."},
        }
        field = obj(
            {
                "color": {"enum": list(COLORS)},
                "value": {"enum": list(FIELD_NUMBERS)},
                "entry": nullable({"type": "integer", "minimum": 1, "maximum": 6}),
                "crossed": {"type": "boolean"},
                "hit": {"type": "boolean"},
            }
        )
        row = obj(
            {
                "score": nullable(COUNT),
                "hits": {"type": "integer", "minimum": 0, "maximum": len(FIELD_NUMBERS)},
                "fields": array(field, minItems=len(FIELD_NUMBERS), maxItems=len(FIELD_NUMBERS)),
            }
        )
        sheet = obj(
            {
                "seat": SEAT,
                "letter": {"enum": list(LETTERS)},
                "copied": {"type": "boolean"},
                "row": {"type": "integer", "minimum": 0, "maximum": ROWS},
                "total": COUNT,
                "rows": array(row, minItems=ROWS, maxItems=ROWS),
            }
        )
        return ApiSchemas(
            options_request=obj(
                {
                    "sheets": nullable(
                        array(nullable({"enum": list(LETTERS)}), description="Per seat a different sheet letter, or null: dealt.")
                    ),
                    "sheet_layouts": nullable(
                        array(nullable(ref("SheetLayout")), description="Per seat null (the sheet's own colours) or a copied sheet.")
                    ),
                },
                required=[],
                additionalProperties=False,
            ),
            options=obj(
                {
                    "sheets": nullable(array(nullable({"enum": list(LETTERS)}))),
                    "sheet_layouts": nullable(array(nullable(ref("SheetLayout")))),
                }
            ),
            state=obj(
                {
                    "round": {"type": "integer", "minimum": 1},
                    "roll": nullable(ref("TwentyOneDice")),
                    "first_roll": nullable(ref("TwentyOneDice")),
                    "rerolled": {"type": "boolean"},
                    "waiting_for": array(SEAT, description="Seats yet to write this roll down."),
                    "sheets": array(sheet),
                },
                required=["roll", "rerolled", "waiting_for", "sheets"],
            ),
            actions={
                "TwentyOneRoll": action(
                    "roll", "twenty-one: the active seat (or the host), once per round.", {"dice": ref("TwentyOneDice")}, ["dice"]
                ),
                "TwentyOneReroll": action(
                    "reroll",
                    "twenty-one: once per round, before anyone has written; every die that showed 1 still shows 1.",
                    {"dice": ref("TwentyOneDice")},
                    ["dice"],
                ),
                "TwentyOneEnter": action(
                    "enter",
                    "twenty-one: write these dice into the seat's current row.",
                    {"colors": array({"enum": list(COLORS)}, minItems=1, maxItems=len(COLORS), uniqueItems=True), **seen},
                    ["colors"],
                ),
                "TwentyOneCross": action(
                    "cross",
                    "twenty-one: cross out the leftmost empty field of the current row.",
                    {
                        # the page's writing form sends the dice ticked with its cross button too
                        "colors": array({"type": "string"}, maxItems=0, description="Dice chosen to enter: 422 enter_or_cross."),
                        **seen,
                    },
                ),
            },
            named={
                "TwentyOneDice": obj(
                    {color: {"type": "integer", "minimum": 1, "maximum": 6} for color in COLORS},
                    description="The six dice by colour, each 1..6.",
                    additionalProperties=False,
                ),
                "SheetLayout": array(
                    array({"enum": list(COLORS)}, minItems=len(COLORS), maxItems=len(COLORS), uniqueItems=True),
                    minItems=ROWS,
                    maxItems=ROWS,
                    description="A copied sheet: five rows, each the six colours once, left to right.",
                ),
            },
        )

    def scenes(self) -> dict[str, Scene]:
        ones = {color: 1 for color in COLORS}
        return {
            "start": Scene(THREE),
            "write": Scene(
                THREE,
                ((0, {"type": "roll", "dice": dict(zip(COLORS, (6, 5, 4, 3, 2, 1)))}), (2, {"type": "cross"})),
                seen_by=1,
            ),
            # All ones, entered whole: every row scores 6 + 1 hit bonus; tied on 35.
            "finished": Scene(
                TWO,
                tuple(
                    (seat, action)
                    for round_ in range(5)
                    for seat, action in (
                        (round_ % 2, {"type": "roll", "dice": ones}),
                        (0, {"type": "enter", "colors": list(COLORS)}),
                        (1, {"type": "enter", "colors": list(COLORS)}),
                    )
                ),
            ),
        }

    def deal(self, players: list[str], options: dict[str, Any], rng: random.Random | None) -> list[str]:
        """A different sheet for every seat: the chosen ones, the others drawn (without
        `rng`, in letter order)."""
        chosen = per_seat(options["sheets"], len(players), "sheets")
        free = [letter for letter in LETTERS if letter not in chosen]
        if rng is not None:
            rng.shuffle(free)
        left = iter(free)
        return [letter if letter is not None else next(left) for letter in chosen]

    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """Late: a seeded game where everyone writes every die that fits, until a sheet is on
        its last row, then a roll half written. Finished: five rounds of all ones; seats 2 and 3
        cross a field in round 2 (their last row stays short): ties the rules leave shared.
        The sheets are chosen (A, B, C… by seat): a table dealt at random would not fit the rolls."""
        players, ones = len(names), {colour: 1 for colour in COLORS}
        pinned = {"sheets": list(LETTERS[:players])}
        finished = ScenePlay(self, names, pinned)
        round_ = 0
        while not finished.finished:
            round_ += 1
            finished.act(finished.current_seat, {"type": "roll", "dice": ones})
            for seat in range(players):
                fits = _fitting(finished.state["sheets"][seat], ones)
                if (round_ == 2 and seat in (2, 3)) or not fits:
                    finished.act(seat, {"type": "cross"})
                else:
                    finished.act(seat, {"type": "enter", "colors": fits})
        late, rng = ScenePlay(self, names, pinned), random.Random(21)
        while True:
            roll = {colour: rng.randint(1, 6) for colour in COLORS}
            last_row = any(sheet["row"] == 4 for sheet in late.state["sheets"])
            late.act(late.current_seat, {"type": "roll", "dice": roll})
            for seat in range(players):
                if last_row and seat >= players // 2:
                    return {"late": late.scene(), "finished": finished.scene()}
                fits = _fitting(late.state["sheets"][seat], roll)
                late.act(seat, {"type": "enter", "colors": fits} if fits else {"type": "cross"})


    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        if deal is None:  # no shell drew the sheets
            deal = self.deal(players, options, None)
        copied = per_seat(options["sheet_layouts"], len(players), "sheet_layouts")
        return {
            "players": list(players),
            "round": 1,
            "active": 0,
            "roll": None,
            "first_roll": None,
            "rerolled": False,
            "waiting_for": list(range(len(players))),
            "finished": False,
            "sheets": [
                new_sheet(seat, letter, copied[seat] or SHEET_LAYOUTS[letter], copied[seat] is not None)
                for seat, letter in enumerate(deal)
            ],
        }

    def memories(self, options: dict[str, Any], deal: Any) -> dict[int, dict[str, Any]]:
        """A copied sheet is remembered for its player, under its letter."""
        copied = options["sheet_layouts"] or []
        return {seat: {deal[seat]: layout} for seat, layout in enumerate(copied) if layout is not None}

    def recall(self, options: dict[str, Any], deal: Any, memories: list[dict[str, Any]]) -> dict[str, Any]:
        """Seats without a copied sheet get the one their player copied earlier for that letter."""
        copied = per_seat(options["sheet_layouts"], len(deal), "sheet_layouts")
        for seat, letter in enumerate(deal):
            if copied[seat] is None and letter in memories[seat]:
                copied[seat] = memories[seat][letter]
        return {**options, "sheet_layouts": copied if any(copied) else options["sheet_layouts"]}

    def rematch_options(self, options: dict[str, Any], deal: Any, order: list[int]) -> dict[str, Any]:
        """Every player keeps their sheet in a rematch: its letter, and the colours they
        copied from a printed one."""
        copied = per_seat(options["sheet_layouts"], len(deal), "sheet_layouts")
        return {
            **options,
            "sheets": [deal[seat] for seat in order],
            "sheet_layouts": [copied[seat] for seat in order] if any(copied) else None,
        }

    # --- reading the state --------------------------------------------------------------
    def is_finished(self, state: dict[str, Any]) -> bool:
        return state["finished"]

    def current_seat(self, state: dict[str, Any]) -> int | None:
        """The active seat: the one who rolls this round."""
        return None if state["finished"] else state["active"]

    def actors(self, state: dict[str, Any]) -> list[int]:
        if state["finished"]:
            return []
        if state["roll"] is None:
            return [state["active"]]
        return list(state["waiting_for"])

    def redone(self, action: dict[str, Any]) -> dict[str, Any]:
        """An entry or crossing redone after a corrected roll goes on the roll and row now:
        the roll its page showed was the wrong one."""
        return {key: value for key, value in action.items() if key not in PAGE_GUARDS}

    def seat_for_host(self, state: dict[str, Any], action: Any) -> int | None:
        """The host acts for the roller while they may still act (whose move it is), else for
        the one seat still writing; while several are, the host names one (a guess would
        write on someone else's sheet)."""
        actors = self.actors(state)
        if state["active"] in actors:
            return state["active"]
        return actors[0] if len(actors) == 1 else None

    def scores(self, state: dict[str, Any]) -> list[int]:
        return [sheet["total"] for sheet in state["sheets"]]

    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """Everything is public: the rules let anyone look at the other sheets."""
        return {
            "round": state["round"],
            "roll": state["roll"],
            "first_roll": state["first_roll"],
            "rerolled": state["rerolled"],
            "waiting_for": state["waiting_for"],
            "sheets": state["sheets"],
        }

    def targets(self, state: dict[str, Any], seat: int) -> dict[str, dict[str, Any]]:
        """For each die of the roll that fits the seat's current row: the field it would go to."""
        sheet = state["sheets"][seat]
        if state["roll"] is None or sheet["row"] >= ROWS:
            return {}
        fields = {field["color"]: field for field in sheet["rows"][sheet["row"]]["fields"]}
        return {color: fields[color] for color, value in state["roll"].items() if fits(fields[color], value)}

    def field_to_cross(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        """The field crossing out takes: the leftmost empty one of the seat's current row."""
        sheet = state["sheets"][seat]
        return next(field for field in sheet["rows"][sheet["row"]]["fields"] if not is_used(field))

    # --- actions ------------------------------------------------------------------------
    def correction_kind(self, action: dict[str, Any]) -> Any:
        # entering dice and crossing out are both the player's writing of the round
        return "write" if action.get("type") in ("enter", "cross") else action.get("type")

    def starts_round(self, action: dict[str, Any]) -> bool:
        return action.get("type") == "roll"

    def check_shape(self, action: dict[str, Any]) -> None:
        kind = action["type"]
        if kind in ("roll", "reroll"):
            check_dice_shape(action.get("dice"))
        if kind not in ("enter", "cross"):
            return
        row, roll, colors = action.get("row"), action.get("roll"), action.get("colors")
        if row is not None and (isinstance(row, bool) or not isinstance(row, int)):
            raise MalformedAction(N_("The row must be a whole number."))
        if roll is not None:
            check_dice_shape(roll)
        if (kind == "enter" or colors is not None) and (
            not isinstance(colors, list) or not all(isinstance(color, str) for color in colors)
        ):
            raise MalformedAction(N_('The dice to enter are a list of their colours ("colors").'))

    def step(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if state["finished"]:
            raise RuleError("game_over", N_("The game is over."))
        kind = action["type"]
        if kind == "roll":
            self._roll(state, seat, action)
        elif kind == "reroll":
            self._reroll(state, seat, action)
        elif kind == "enter":
            self._enter(state, seat, action)
        elif kind == "cross":
            self._cross(state, seat, action)
        else:
            raise RuleError("unknown_action", N_("There is no action called %(type)s in this game.", type=shown(kind)))

    def _require_roller(self, state: dict[str, Any], seat: int) -> None:
        if seat != state["active"]:
            raise RuleError(
                "not_your_turn",
                N_("%(name)s rolls the dice this round, not you.", name=state["players"][state["active"]]),
                status=403,
            )

    def _roll(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        self._require_roller(state, seat)
        if state["roll"] is not None:
            raise RuleError("already_rolled", N_("The dice are already rolled this round: now everyone writes."))
        state["roll"] = parse_dice(action.get("dice"))

    def reroll_refusal(self, state: dict[str, Any]) -> RuleError | None:
        """Why the roll cannot be re-rolled now, or None: once a round, before anyone has
        written it down. Read by the controls too (the public state is enough)."""
        if state["roll"] is None:
            return RuleError("no_roll", N_("Roll the dice before re-rolling them."))
        if state["rerolled"]:
            return RuleError("already_rerolled", N_("The dice can be re-rolled only once a round."))
        if len(state["waiting_for"]) < len(state["sheets"]):
            return RuleError("reroll_after_entry", N_("Someone has already written this roll down: it can no longer be re-rolled."))
        return None

    def _reroll(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        self._require_roller(state, seat)
        refusal = self.reroll_refusal(state)
        if refusal is not None:
            raise refusal
        dice = parse_dice(action.get("dice"))
        for color in COLORS:
            if state["roll"][color] == STAYING_FACE and dice[color] != STAYING_FACE:
                raise RuleError(
                    "ones_stay",
                    N_("The %(color)s die showed 1: a 1 stays and is not re-rolled.", color=color_name(color)),
                )
        state["first_roll"] = state["roll"]
        state["roll"] = dice
        state["rerolled"] = True

    def _require_writer(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """The checks entering and crossing share; returns the seat's current row."""
        seen_row = action.get("row")
        if state["roll"] is None:
            raise RuleError(
                "no_roll",
                N_("Wait for %(name)s to roll the dice.", name=state["players"][state["active"]]),
            )
        if seat not in state["waiting_for"]:
            raise RuleError("already_written", N_("You have already written on your sheet this round: wait for the next roll."))
        sheet = state["sheets"][seat]
        if seen_row is not None:
            if seen_row != sheet["row"]:
                raise RuleError(
                    "not_current_row",
                    N_("Only your current row, row %(row)s, can be written in this round.", row=sheet["row"] + 1),
                )
        seen_roll = action.get("roll")
        if seen_roll is not None and parse_dice(seen_roll) != state["roll"]:
            raise RuleError(
                "roll_changed",
                N_("The dice changed after your page showed them: nothing was written. Look at the roll as it is now."),
                status=409,
            )
        return sheet["rows"][sheet["row"]]

    def _enter(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        colors = action["colors"]
        row = self._require_writer(state, seat, action)
        if not colors:
            raise RuleError("nothing_to_enter", N_("Choose at least one die to enter, or cross out a field."))
        fields = {field["color"]: field for field in row["fields"]}
        for color in colors:
            if color not in fields:
                raise RuleError("unknown_color", N_("There is no %(color)s die.", color=shown(color)))
            if colors.count(color) > 1:
                raise RuleError("duplicate_color", N_("The %(color)s die can be entered only once.", color=color_name(color)))
            field, value = fields[color], state["roll"][color]
            if is_used(field):
                raise RuleError(
                    "field_used",
                    N_("Your %(color)s field in this row is already used.", color=color_name(color)),
                )
            if value > field["value"]:
                raise RuleError(
                    "die_too_high",
                    N_(
                        "The %(color)s %(value)s is higher than its field's %(number)s: it does not fit.",
                        color=color_name(color), value=value, number=field["value"],
                    ),
                )
        for color in colors:
            field, value = fields[color], state["roll"][color]
            field["entry"] = value
            field["hit"] = value == field["value"]
            row["hits"] += field["hit"]
        self._written(state, seat)

    def _cross(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        self._require_writer(state, seat, action)
        if action.get("colors"):
            raise RuleError("enter_or_cross", N_("Enter the dice you chose or cross out a field, not both."))
        self.field_to_cross(state, seat)["crossed"] = True
        self._written(state, seat)

    def _written(self, state: dict[str, Any], seat: int) -> None:
        sheet = state["sheets"][seat]
        if all(is_used(field) for field in sheet["rows"][sheet["row"]]["fields"]):
            score_row(sheet, sheet["row"])
            sheet["row"] += 1  # the next row is used from the next round on
        state["waiting_for"].remove(seat)
        if not state["waiting_for"]:
            self._end_round(state)

    def _end_round(self, state: dict[str, Any]) -> None:
        if any(sheet["row"] == ROWS for sheet in state["sheets"]):
            for sheet in state["sheets"]:
                if sheet["row"] < ROWS:
                    score_row(sheet, sheet["row"])  # the current row counts as it stands
            state["finished"] = True
            return
        players = len(state["players"])
        state.update(
            round=state["round"] + 1,
            active=(state["active"] + 1) % players,
            roll=None,
            first_roll=None,
            rerolled=False,
            waiting_for=list(range(players)),
        )

    # --- words --------------------------------------------------------------------------
    def ranking(self, state: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self.is_finished(state):
            return None
        names = state["players"]
        entries = [
            {
                "seat": sheet["seat"],
                "name": names[sheet["seat"]],
                "score": sheet["total"],
                "rows": [row["score"] for row in sheet["rows"]],
                "detail": " + ".join(str(row["score"]) for row in sheet["rows"] if row["score"] is not None),
            }
            for sheet in state["sheets"]
        ]
        return explain_ties(
            rank(entries, key=lambda entry: entry["score"]),
            lambda tied, entry: NP_(
                "%(names)s tied on %(num)s point: the rules have no tie-break, they share the place.",
                "%(names)s tied on %(num)s points: the rules have no tie-break, they share the place.",
                entry["score"], names=listing([other["name"] for other in tied]),
            ),
        )

    def describe_outcome(
        self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]
    ) -> Text | None:
        kind = action.get("type")
        if kind not in ("enter", "cross"):
            return None
        line = self._row_outcome(before, after, seat, action)
        if after["finished"] and not before["finished"]:
            # the last write of the final round: the line says why the game ended
            done = [after["players"][other] for other, sheet in enumerate(after["sheets"]) if sheet["row"] == ROWS]
            return NP_(  # the plural for the languages whose verb agrees with several names
                "%(line)s The game is over: %(names)s filled all five rows.",
                "%(line)s The game is over: %(names)s filled all five rows.",
                len(done), line=line or self.describe_action(before, seat, action), names=listing(done),
            )
        return line

    def _row_outcome(self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]) -> Text | None:
        """What an entry or a cross did to the writer's row, when it did more than fill a
        field: a full row and its score, its score as it stands at the end, its hits."""
        row = before["sheets"][seat]["row"]
        was, now = before["sheets"][seat]["rows"][row], after["sheets"][seat]["rows"][row]
        scored = now["score"] is not None and was["score"] is None
        # a row is scored when it is full, or as it stands when the game ends with this round
        filled = scored and all(is_used(field) for field in now["fields"])
        if action["type"] == "cross":
            if filled:
                return N_("crossed out a field: row %(row)s is full and scores %(score)s.", row=row + 1, score=now["score"])
            if scored:
                return N_("crossed out a field: row %(row)s scores %(score)s as it stands.", row=row + 1, score=now["score"])
            return None
        colors = listing([color_name(color) for color in action["colors"]])
        if filled:
            return N_("entered %(colors)s: row %(row)s is full and scores %(score)s.", colors=colors, row=row + 1, score=now["score"])
        if scored:
            return N_("entered %(colors)s: row %(row)s scores %(score)s as it stands.", colors=colors, row=row + 1, score=now["score"])
        hits = now["hits"] - was["hits"]
        if hits:
            return NP_("entered %(colors)s: %(num)s hit.", "entered %(colors)s: %(num)s hits.", hits, colors=colors)
        return None

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
        kind = action.get("type")
        if kind in ("roll", "reroll"):
            dice = listing([N_("%(color)s %(value)s", color=color_name(color), value=action["dice"][color]) for color in COLORS])
            if kind == "roll":
                return N_("rolled %(dice)s.", dice=dice)
            return N_("re-rolled: %(dice)s.", dice=dice)
        if kind == "enter":
            return N_("entered %(colors)s.", colors=listing([color_name(color) for color in action["colors"]]))
        return N_("crossed out a field.")


def check_dice_shape(dice: Any) -> None:
    """A roll as sent: a whole number for each of the six dice (which numbers is a rule)."""
    if not isinstance(dice, dict) or set(dice) != set(COLORS):
        raise MalformedAction(N_("A roll gives a number for each of the six dice: white, black, red, blue, yellow and green."))
    for value in dice.values():
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedAction(N_("A die shows a whole number from 1 to 6."))


def parse_dice(dice: Any) -> dict[str, int]:
    """The six dice of a roll (an action's, or the one a writer's page showed), by colour,
    each showing 1..6."""
    check_dice_shape(dice)
    for color in COLORS:
        value = dice[color]
        if value not in DIE_FACES:
            raise RuleError(
                "invalid_die",
                N_("A die shows 1 to 6: the %(color)s die cannot show %(value)s.", color=color_name(color), value=value),
            )
    return {color: dice[color] for color in COLORS}


GAME = TwentyOne()


def _fitting(sheet: dict[str, Any], roll: dict[str, int]) -> list[str]:
    """The dice that fit the sheet's current row (at most their field's number, unused): what
    screen_scenes' players write."""
    row = sheet["rows"][sheet["row"]]
    return [field["color"] for field in row["fields"] if field["entry"] is None and not field["crossed"] and roll[field["color"]] <= field["value"]]

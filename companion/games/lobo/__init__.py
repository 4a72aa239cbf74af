"""Lobo (La Guerre des Moutons / Wooly Bully): docs/rules.md (Lobo).

The tile board stays on the table. The companion keeps what players track on paper:
the secret flock colours, who left in which order (and the bonus it earned), and the
final count of the meadows. There is no turn order here: any seat may act at any moment
for itself (reveal, leave, say all tiles are placed, enter its meadows).

Longer than 400 lines on purpose: a game is one module (docs: "How it is built"), so its
engine, its sentences, its part of the API's description and its scenes stay together.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import THREE, TWO, Game, Option, Scene, ScenePlay, explain_ties, rank
from ..errors import MalformedAction, RuleError
from ..schema import COUNT, SEAT, ApiSchemas, action, array, nullable, obj, ref
from ..text import N_, NC_, NP_, Text, isolated, listing, shown

COLORS = ("red", "blue", "yellow", "black")
# A context of their own: the Portuguese box calls the red flock "encarnado".
COLOR_NAMES = {
    "red": NC_("flock colour", "red"),
    "blue": NC_("flock colour", "blue"),
    "yellow": NC_("flock colour", "yellow"),
    "black": NC_("flock colour", "black"),
}
LEAVING_BONUSES = (6, 3, 1)  # the first to leave scores 6, the second 3, the third 1, later ones 0
MAX_SHEEP = 100  # far more than a whole box of tiles shows: anything above is a typing slip
MAX_MEADOWS = 20

END_TILES_PLACED = "tiles_placed"
END_ALL_LEFT = "all_left"

# Why an entered meadow does not count (the page turns these into sentences).
NOT_FENCED = "not_fenced"
UNCOVERED_WOLF = "wolf"
SMALLER = "smaller"


def leaving_bonus(order: int | None) -> int:
    """The bonus of the `order`-th player to leave (1 = first); 0 for those who stayed."""
    if order is None or order > len(LEAVING_BONUSES):
        return 0
    return LEAVING_BONUSES[order - 1]


def judge_meadows(meadows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each entered meadow with whether it is valid, whether it is the one that counts
    (the largest valid one, the first entered among equals) and, if not, why not."""
    counting = max(
        (index for index, meadow in enumerate(meadows) if meadow["fenced"] and not meadow["wolf"]),
        key=lambda index: (meadows[index]["sheep"], -index),
        default=None,
    )
    judged = []
    for index, meadow in enumerate(meadows):
        if not meadow["fenced"]:
            reason = NOT_FENCED
        elif meadow["wolf"]:
            reason = UNCOVERED_WOLF
        elif index != counting:
            reason = SMALLER
        else:
            reason = None
        judged.append({**meadow, "valid": reason in (None, SMALLER), "counts": index == counting, "reason": reason})
    return judged


def counting_meadow(meadows: list[dict[str, Any]] | None) -> int | None:
    """Sheep in the largest valid meadow (0 when none is valid); None before an entry."""
    if meadows is None:
        return None
    return max((meadow["sheep"] for meadow in meadows if meadow["fenced"] and not meadow["wolf"]), default=0)


def _color(raw: str) -> str:
    if raw not in COLORS:
        raise RuleError("unknown_color", N_("There is no %(color)s flock: choose red, blue, yellow or black.", color=shown(raw)))
    return raw


def _meadows_shape(raw: Any) -> list[tuple[int, bool, bool]]:
    """Each meadow's sheep, fenced and wolf, if they are of the right types: a malformed
    entry is one whenever it is sent (400), so this comes before any rule."""
    if not isinstance(raw, list):
        raise MalformedAction(N_('"meadows" must be a list of meadows (it may be empty).'))
    shapes = []
    for number, meadow in enumerate(raw, start=1):
        if not isinstance(meadow, dict):
            raise MalformedAction(N_('Meadow %(n)s must be an object with "sheep", "fenced" and "wolf".', n=number))
        sheep, fenced, wolf = meadow.get("sheep"), meadow.get("fenced"), meadow.get("wolf")
        if isinstance(sheep, bool) or not isinstance(sheep, int):
            raise MalformedAction(
                N_("Meadow %(n)s: the number of sheep must be a whole number from 0 to %(max)s.", n=number, max=MAX_SHEEP)
            )
        if not isinstance(fenced, bool) or not isinstance(wolf, bool):
            raise MalformedAction(N_("Meadow %(n)s: say yes or no to fenced and to an uncovered wolf.", n=number))
        shapes.append((sheep, fenced, wolf))
    return shapes


def _meadows(raw: Any) -> list[dict[str, Any]]:
    shapes = _meadows_shape(raw)
    if len(shapes) > MAX_MEADOWS:
        raise RuleError(
            "too_many_meadows",
            N_("Enter at most %(max)s meadows: only the largest valid one counts.", max=MAX_MEADOWS),
        )
    for number, (sheep, _fenced, _wolf) in enumerate(shapes, start=1):
        if sheep < 0:
            raise RuleError("negative_sheep", N_("Meadow %(n)s: a meadow cannot have fewer than 0 sheep.", n=number))
        if sheep > MAX_SHEEP:
            raise RuleError(
                "too_many_sheep",
                N_("Meadow %(n)s: %(sheep)s sheep is more than a meadow can hold; enter at most %(max)s.",
                   n=number, sheep=sheep, max=MAX_SHEEP),
            )
    return [{"sheep": sheep, "fenced": fenced, "wolf": wolf} for sheep, fenced, wolf in shapes]


class Lobo(Game):
    slug = "lobo"
    title = N_("Lobo")
    alerts_offer = N_("Alert me when it is time to count")
    alerts_offer_why = N_("Tap here once so this phone can alert you when it is time to count your meadows")
    must_act_words = N_("Count your meadows")
    sound_switch = N_("A sound when it is time to count")
    min_players = 2
    max_players = 4
    watchers_see_the_same_table = False  # each phone shows its own secret colour
    has_turns = False  # every seat acts whenever it wants
    colors = COLORS
    color_names = COLOR_NAMES
    max_sheep = MAX_SHEEP
    options = (
        Option(
            "deal_colors",
            True,
            N_("Deal the colours"),
            N_("Each phone shows its player's secret flock colour, dealt at random. "
               "Untick to draw the shepherd tiles from the box and record them instead."),
        ),
    )

    # --- setting up -----------------------------------------------------------------
    def api_schemas(self) -> ApiSchemas:
        meadows = array(
            obj(
                {
                    "sheep": COUNT,
                    "fenced": {"type": "boolean"},
                    "wolf": {"type": "boolean"},
                    "valid": {"type": "boolean"},
                    "counts": {"type": "boolean"},
                    "reason": nullable({"enum": [NOT_FENCED, UNCOVERED_WOLF, SMALLER]}),
                }
            )
        )
        seat = obj(
            {
                "seat": SEAT,
                "color": nullable(ref("FlockColor")) | {"description": "null while hidden from the reader."},
                "color_recorded": {"type": "boolean"},
                "revealed": {"type": "boolean"},
                "left": nullable({"type": "integer", "minimum": 1}) | {"description": "Order of leaving."},
                "bonus": COUNT,
                "meadow": nullable(COUNT),
                "meadows": nullable(meadows),
            },
            required=["seat", "color", "revealed", "left", "bonus", "meadow"],
        )
        typed_meadow = obj(
            {"sheep": {"type": "integer", "minimum": 0, "maximum": MAX_SHEEP}, "fenced": {"type": "boolean"}, "wolf": {"type": "boolean"}},
            additionalProperties=False,
        )
        return ApiSchemas(
            options_request=obj({"deal_colors": {"type": "boolean"}}, required=[], additionalProperties=False),
            options=obj({"deal_colors": {"type": "boolean"}}),
            state=obj(
                {
                    "seats": array(seat),
                    "ended": {"type": "boolean"},
                    "end_reason": nullable({"enum": [END_TILES_PLACED, END_ALL_LEFT]}),
                    "next_bonus": COUNT,
                    "waiting_for": array(SEAT, description="Seats yet to enter their meadows after the end."),
                },
                required=["seats", "ended"],
            ),
            actions={
                "LoboChooseColor": action(
                    "choose_color", "lobo without dealt colours: record the colour drawn.", {"color": ref("FlockColor")}, ["color"]
                ),
                "LoboReveal": action("reveal", "lobo: make one's colour public."),
                "LoboAbandon": action("abandon", "lobo: leave the game."),
                "LoboEnd": action("end", "lobo: all tiles are placed."),
                "LoboMeadows": action(
                    "meadows",
                    "lobo, after the end, once per seat (may be corrected until every seat has entered).",
                    {"meadows": array(typed_meadow, maxItems=MAX_MEADOWS)},
                    ["meadows"],
                ),
            },
            named={"FlockColor": {"enum": list(COLORS)}},
        )

    def scenes(self) -> dict[str, Scene]:
        dealt = {"deal_colors": True}
        return {
            "start": Scene(THREE, options=dealt),
            "drawn-colours": Scene(
                THREE,
                (
                    (1, {"type": "choose_color", "color": "blue"}),
                    (1, {"type": "reveal"}),
                    (2, {"type": "choose_color", "color": "red"}),
                    (0, {"type": "abandon"}),
                ),
                {"deal_colors": False},
                seen_by=2,
            ),
            "meadows": Scene(
                THREE,
                (
                    (2, {"type": "end"}),
                    (0, {"type": "meadows", "meadows": [
                        {"sheep": 5, "fenced": True, "wolf": False},
                        {"sheep": 7, "fenced": False, "wolf": False},
                        {"sheep": 9, "fenced": True, "wolf": True},
                        {"sheep": 3, "fenced": True, "wolf": False},
                    ]}),
                ),
                dealt,
                seen_by=1,
            ),
            # Ana leaves first (bonus 6) with a meadow of 4; Bruno's meadow is 10: tied on 10.
            "finished": Scene(
                TWO,
                (
                    (0, {"type": "abandon"}),
                    (1, {"type": "end"}),
                    (1, {"type": "meadows", "meadows": [{"sheep": 10, "fenced": True, "wolf": False}]}),
                    (0, {"type": "meadows", "meadows": [{"sheep": 4, "fenced": True, "wolf": False}]}),
                ),
                dealt,
            ),
        }

    def deal(self, players: list[str], options: dict[str, Any], rng: random.Random) -> list[str] | None:
        if not options["deal_colors"]:
            return None
        return rng.sample(COLORS, len(players))

    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """Colours recorded, some revealed; seat 0 leaves first (bonus 6), seat 2 second (3);
        the tiles are placed and each enters several meadows. Late: the last player's meadows
        are missing. Finished: 4 + 6 ties 10 (the larger meadow decides), 5 + 3 ties 8."""
        kinds = [(True, False), (False, False), (True, True), (True, False), (False, False)]
        entered = [(4, 9, 12, 2), (10, 14, 6, 3, 11), (5, 8, 7), (8, 4, 9, 2, 12)]
        players, plays = len(names), {}
        for phase, last in (("late", len(names) - 1), ("finished", len(names))):
            play = plays[phase] = ScenePlay(self, names, {"deal_colors": False})
            for seat, colour in zip(range(players), ("red", "blue", "yellow", "black")):
                play.act(seat, {"type": "choose_color", "color": colour})
            play.act(1, {"type": "reveal"})
            play.act(0, {"type": "abandon"})
            if players > 2:
                play.act(2, {"type": "abandon"})
            play.act(1, {"type": "end"})
            for seat in range(last):
                sheep = entered[seat]
                play.act(seat, {"type": "meadows", "meadows": [{"sheep": count, "fenced": fenced, "wolf": wolf} for count, (fenced, wolf) in zip(sheep, kinds)]})
        return {phase: play.scene() for phase, play in plays.items()}


    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        if options["deal_colors"]:
            dealt_properly = (
                isinstance(deal, list) and len(deal) == len(players) == len(set(deal)) and set(deal) <= set(COLORS)
            )
            if not dealt_properly:
                raise ValueError("dealt colours are needed: one distinct colour per player")
            colors = list(deal)
        else:
            colors = [None] * len(players)
        return {
            "players": list(players),
            "options": dict(options),
            "seats": [{"color": color, "revealed": False, "left": None, "meadows": None} for color in colors],
            "ended": None,  # why the game ended: END_TILES_PLACED or END_ALL_LEFT
        }

    # --- reading the state ----------------------------------------------------------
    def is_finished(self, state: dict[str, Any]) -> bool:
        return state["ended"] is not None and all(seat["meadows"] is not None for seat in state["seats"])

    def current_seat(self, state: dict[str, Any]) -> int | None:
        return None  # no turn order: every seat acts for itself whenever it wants

    def actors(self, state: dict[str, Any]) -> list[int]:
        return [] if self.is_finished(state) else list(range(len(state["seats"])))

    def must_act(self, state: dict[str, Any], seat: int) -> bool:
        # No turns: a player is awaited only for their final count, once the game has ended.
        return state["ended"] is not None and state["seats"][seat]["meadows"] is None

    def seat_for_host(self, state: dict[str, Any], action: Any) -> int | None:
        # "All tiles are placed" is nobody's in particular: it is logged under the first
        # seat, marked as entered by the host. Every other action is a seat's own, so the
        # host has to name the seat.
        if isinstance(action, dict) and action.get("type") == "end" and not self.is_finished(state):
            return 0
        return None

    def scores(self, state: dict[str, Any]) -> list[int]:
        return [
            (counting_meadow(seat["meadows"]) or 0) + leaving_bonus(seat["left"])
            for seat in state["seats"]
        ]

    def visible_color(self, state: dict[str, Any], seat: int, viewer: int | None) -> str | None:
        """A seat's colour as `viewer` may see it: its own always, others' once revealed,
        and every colour once the final count is done."""
        holder = state["seats"][seat]
        return holder["color"] if holder["revealed"] or seat == viewer or self.is_finished(state) else None

    def color_clashes(self, state: dict[str, Any], seat: int, viewer: int | None) -> list[int]:
        """The other seats known to `viewer` to hold the colour `seat` holds (two recorded
        tiles of one colour: a typing slip). During the game that is only a seat's own
        colour against revealed ones, so nothing depends on another player's secret; at
        the end, when every colour is shown, every clash."""
        color = self.visible_color(state, seat, viewer)
        if color is None:
            return []
        shown = self.is_finished(state)
        return [
            other
            for other, holder in enumerate(state["seats"])
            if other != seat and holder["color"] == color and (shown or holder["revealed"])
        ]

    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        seats = []
        for index, seat in enumerate(state["seats"]):
            seats.append(
                {
                    "seat": index,
                    "color": self.visible_color(state, index, viewer),
                    "color_recorded": seat["color"] is not None,
                    "revealed": seat["revealed"],
                    "color_clashes": self.color_clashes(state, index, viewer),
                    "left": seat["left"],
                    "bonus": leaving_bonus(seat["left"]),
                    "meadow": counting_meadow(seat["meadows"]),
                    "meadows": None if seat["meadows"] is None else judge_meadows(seat["meadows"]),
                }
            )
        ended = state["ended"] is not None
        return {
            "seats": seats,
            "ended": ended,
            "end_reason": state["ended"],
            "next_bonus": leaving_bonus(1 + sum(1 for seat in state["seats"] if seat["left"] is not None)),
            "waiting_for": [index for index, seat in enumerate(state["seats"]) if ended and seat["meadows"] is None],
        }

    def redact_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        # A recorded colour stays in the log: only its holder sees it, and everyone once
        # that very colour is revealed.
        if action.get("type") != "choose_color" or seat == viewer or self.is_finished(state):
            return action
        holder = state["seats"][seat]
        if holder["revealed"] and holder["color"] == action.get("color"):
            return action
        return {**action, "color": None}

    def tap_depends_on(
        self, state: dict[str, Any], seat: int, action: dict[str, Any], earlier_seat: int, earlier_action: dict[str, Any]
    ) -> bool:
        # No turns: another seat's reveal or recorded colour changes nothing a tap here
        # meant (and must not: a recorded colour is secret). What does: the seat's own
        # changes (entered from another phone), and for leaving, the bonus its button shows.
        if earlier_seat == seat:
            return True
        return action.get("type") == "abandon" and earlier_action.get("type") in ("abandon", "end")

    # --- actions --------------------------------------------------------------------
    def step(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if self.is_finished(state):
            raise RuleError("game_over", N_("The game is over: every player has entered their meadows."))
        handlers = {
            "choose_color": self._choose_color,
            "reveal": self._reveal,
            "abandon": self._abandon,
            "end": self._end,
            "meadows": self._enter_meadows,
        }
        kind = action["type"]
        if kind not in handlers:
            raise RuleError("unknown_action", N_("There is no action called %(type)s in this game.", type=shown(kind)))
        handlers[kind](state, seat, action)

    def check_shape(self, action: dict[str, Any]) -> None:
        if action["type"] == "choose_color" and not isinstance(action.get("color"), str):
            raise MalformedAction(N_('"color" must be one of red, blue, yellow or black.'))
        if action["type"] == "meadows":
            _meadows_shape(action.get("meadows"))

    def apply(
        self, state: dict[str, Any], seat: int, action: dict[str, Any], entered_by_seat: bool = True
    ) -> dict[str, Any]:
        """A new action, as every game's; and a final count only with a colour of one's own.
        A player counts the meadows of their colour in the open, their shepherd tile shown:
        the count reveals the colour, checked against the revealed ones, so colours are
        distinct by the end (RULES) and a slip in a recorded one is caught while it can be
        mended.

        During play a hidden colour is checked against the revealed ones only when its own
        seat reveals it: the host revealing for a seat would learn from a refusal the colour
        it hides. The host's reveal shows the colour to everyone instead, and a clash with
        it (color_clashes) to everyone too, mended by recording the colour again. A count
        is checked whoever enters it: it comes after the end, when no tile is placed any
        more and each player counts with their tile face up, and it must not end the game
        on a clash. Actions stored before a check replay as they were (reapply)."""
        new_state = super().apply(state, seat, action, entered_by_seat)
        holder = state["seats"][seat]
        if action["type"] == "meadows" and holder["color"] is None:
            raise RuleError("no_color", N_("Record the colour you drew first: you count the meadows of your colour."))
        if action["type"] == "meadows" or (action["type"] == "reveal" and entered_by_seat):
            _refuse_revealed_elsewhere(state, seat, holder["color"])
        return new_state

    def _choose_color(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if state["options"]["deal_colors"]:
            raise RuleError("colors_dealt", N_("The companion dealt the colours: yours is shown on your own phone."))
        color = _color(action["color"])
        holder = state["seats"][seat]
        if holder["revealed"] and not _revealed_elsewhere(state, seat, holder["color"]):
            # (two revealed tiles of one colour: one was recorded wrong, and is mended here)
            raise RuleError("already_revealed", N_("Your colour is revealed: it cannot change any more."))
        # Checked against revealed colours only: a refusal because of another player's
        # secret colour would tell that colour. Two hidden tiles of one colour show up
        # when one is revealed (see _reveal) or at the end (color_clashes). The colour held
        # already is taken again, not refused: the host records for any seat, and "you
        # already hold blue" would tell the host that seat's secret.
        _refuse_revealed_elsewhere(state, seat, color)
        holder["color"] = color

    def _reveal(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        holder = state["seats"][seat]
        if holder["color"] is None:
            raise RuleError("no_color", N_("Record the colour you drew before revealing it."))
        if holder["revealed"]:
            raise RuleError("already_revealed", N_("Your colour is already revealed."))
        holder["revealed"] = True  # against the revealed colours: see apply

    def _abandon(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        holder = state["seats"][seat]
        if holder["left"] is not None:
            raise RuleError(
                "already_left",
                N_("You already left the game (number %(order)s to leave, bonus %(bonus)s).",
                   order=holder["left"], bonus=leaving_bonus(holder["left"])),
            )
        if state["ended"] is not None:
            raise RuleError("game_ended", N_("The game has ended: there is nothing left to leave."))
        holder["left"] = 1 + sum(1 for other in state["seats"] if other["left"] is not None)
        if all(other["left"] is not None for other in state["seats"]):
            state["ended"] = END_ALL_LEFT

    def _end(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if state["ended"] is not None:
            raise RuleError("already_ended", N_("The game has already ended: enter your meadows."))
        state["ended"] = END_TILES_PLACED

    def _enter_meadows(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if state["ended"] is None:
            raise RuleError(
                "not_ended",
                N_("Meadows are counted at the end: first say that all tiles are placed (or everyone leaves)."),
            )
        holder = state["seats"][seat]
        holder["meadows"] = _meadows(action.get("meadows"))
        # counted in the open, the shepherd tile shown (apply checks it is the player's own)
        holder["revealed"] = holder["revealed"] or holder["color"] is not None

    # --- words ----------------------------------------------------------------------
    def ranking(self, state: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self.is_finished(state):
            return None
        names = state["players"]
        entries = []
        for index, (seat, score) in enumerate(zip(state["seats"], self.scores(state))):
            meadow, bonus = counting_meadow(seat["meadows"]), leaving_bonus(seat["left"])
            entries.append(
                {
                    "seat": index,
                    "name": names[index],
                    "score": score,
                    "meadow": meadow,
                    "bonus": bonus,
                    "detail": _score_words(seat["color"], meadow, bonus),
                }
            )
        ordered = rank(entries, key=lambda entry: (entry["score"], entry["meadow"]))
        return explain_ties(ordered, lambda tied, _entry: _tiebreak_sentence(tied))

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
        kind = action.get("type")
        if kind == "choose_color" and action.get("color") in COLOR_NAMES:
            # to whoever may read it: its holder (a slip told from the right one), everyone once
            # it is revealed or the game is over; the log hides it from the others (redact_action)
            return N_("recorded the colour they drew: %(color)s.", color=COLOR_NAMES[action["color"]])
        if kind == "choose_color":
            return N_("recorded the colour they drew.")
        # Once the final count is done every colour is shown to everyone, the log too: the
        # colour held then (a revealed tile recorded wrong was mended before the end).
        shown_color = COLOR_NAMES.get(state["seats"][seat]["color"]) if self.is_finished(state) else None
        if kind == "reveal":
            if shown_color is not None:
                return N_("revealed their colour: %(color)s.", color=shown_color)
            return N_("revealed their colour.")
        if kind == "abandon":
            return N_("left the game.")
        if kind == "end":
            return N_("said all tiles are placed: the game has ended.")
        meadows = action["meadows"]
        if shown_color is not None:
            if not meadows:
                return N_("entered no meadow of their colour (%(color)s): 0 sheep count.", color=shown_color)
            return NP_(
                "entered %(num)s meadow of their colour (%(color)s); %(sheep)s sheep count.",
                "entered %(num)s meadows of their colour (%(color)s); the largest valid one counts: %(sheep)s sheep.",
                len(meadows), sheep=counting_meadow(meadows), color=shown_color,
            )
        if not meadows:
            return N_("entered no meadow of their colour: 0 sheep count.")
        return NP_(
            "entered %(num)s meadow; %(sheep)s sheep count.",
            "entered %(num)s meadows; the largest valid one counts: %(sheep)s sheep.",
            len(meadows), sheep=counting_meadow(meadows),
        )


def _revealed_elsewhere(state: dict[str, Any], seat: int, color: str | None) -> int | None:
    """Another seat that revealed `color`, if one did."""
    for other, holder in enumerate(state["seats"]):
        if other != seat and holder["revealed"] and holder["color"] == color:
            return other
    return None


def _refuse_revealed_elsewhere(state: dict[str, Any], seat: int, color: str) -> None:
    other = _revealed_elsewhere(state, seat, color)
    if other is not None:
        raise RuleError(
            "color_taken",
            N_("%(name)s revealed %(color)s: each colour is in one hand only. Check the shepherd tile you drew and record it again.",
               name=state["players"][other], color=COLOR_NAMES[color]),
        )


def _score_words(color: str | None, meadow: int, bonus: int) -> Text:
    """How a final score is made up, with the flock it was counted for (shown at the end)."""
    made_of = N_("%(meadow)s + leaving bonus %(bonus)s", meadow=_counting_meadow_words(meadow), bonus=bonus)
    if color is None:
        return made_of
    return N_("%(score)s (%(color)s flock)", color=COLOR_NAMES[color], score=made_of)


def _counting_meadow_words(sheep: int) -> Text:
    if not sheep:
        return N_("No valid meadow")
    return NP_("Counting meadow of %(num)s sheep", "Counting meadow of %(num)s sheep", sheep)


def _tiebreak_sentence(tied: list[dict[str, Any]]) -> Text:
    names = listing([entry["name"] for entry in tied])
    meadows = [entry["meadow"] for entry in tied]
    if len(set(meadows)) == 1:
        return NP_(
            "%(names)s tied on %(num)s point with meadows of the same size (%(meadow)s): they share the place.",
            "%(names)s tied on %(num)s points with meadows of the same size (%(meadow)s): they share the place.",
            tied[0]["score"], names=names, meadow=NP_("%(num)s sheep", "%(num)s sheep", meadows[0]),
        )
    sizes = ", ".join(f"{isolated(entry['name'])} {entry['meadow']}" for entry in tied)
    if len(set(meadows)) < len(meadows):
        return NP_(
            "%(names)s tied on %(num)s point; the larger meadow decided (%(sizes)s), and those with equal meadows share the place.",
            "%(names)s tied on %(num)s points; the larger meadow decided (%(sizes)s), and those with equal meadows share the place.",
            tied[0]["score"], names=names, sizes=sizes,
        )
    return NP_(
        "%(names)s tied on %(num)s point; the larger meadow decided (%(sizes)s).",
        "%(names)s tied on %(num)s points; the larger meadow decided (%(sizes)s).",
        tied[0]["score"], names=names, sizes=sizes,
    )


GAME = Lobo()

"""The worm-dice phase shared by Pickomino and Heckmeck Barbecue (docs/rules.md (the worm-dice turn)).

A turn is a small dict (the API's `turn`): the groups set aside, their total, the dice
left, the roll waiting for a face to be kept, and whether a worm was set aside. `play`
checks one dice action against the rules, changes the turn, and says whether the turn
goes on or how it ended; the game module then claims or fails.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from ..base import Game, ScenePlay, require_seat_turn
from ..errors import MalformedAction, RuleError
from ..schema import COUNT, SEAT, TEXT, action, array, nullable, obj, ref
from ..text import N_, NP_, Text, shown

WORM = "worm"
DICE_COUNT = 8
WORM_VALUE = 5


@dataclass(frozen=True)
class Dice:
    """The six faces of one game's dice, in the order they are shown."""

    faces: tuple[Any, ...]

    def value(self, face: Any) -> int:
        return WORM_VALUE if face == WORM else face

    def parse(self, raw: Any) -> Any:
        """A face from the API (an integer 1..6 or "worm"), checked against these dice."""
        if _face_shape(raw) == WORM:
            return WORM
        if raw not in self.faces:
            raise RuleError("invalid_face", N_("These dice have no %(face)s.", face=raw))
        return raw

    def ends_turn(self, turn: dict[str, Any], count: int) -> bool:
        """Whether setting `count` dice of a new face aside ends the turn by itself: they
        are the last dice, or it is the last face not set aside yet."""
        return count == turn["dice_left"] or len(turn["kept"]) == len(self.faces) - 1


PICKOMINO_DICE = Dice((1, 2, 3, 4, 5, WORM))
BARBECUE_DICE = Dice((1, 2, 3, 4, WORM, 6))

# How a turn ended, as `play` reports it.
CONTINUES = None
STOPPED = "stopped"  # the player stopped, or all dice / all faces were set aside
NOTHING_NEW = "nothing_new"  # a roll with no face that was not set aside already
DECLARED_FAILED = "declared"  # the player declared the turn failed (quick entry)
NO_WORM = "no_worm"  # the turn ended without a worm set aside: it scores nothing

# Why a turn failed in the dice phase, in both games' log; each game adds its own reasons.
DICE_FAILURE_REASONS = {
    NOTHING_NEW: N_("no new face in the roll"),
    DECLARED_FAILED: N_("declared failed"),
    NO_WORM: N_("no worm set aside"),
}


def new_turn(seat: int) -> dict[str, Any]:
    return {"seat": seat, "kept": [], "total": 0, "dice_left": DICE_COUNT, "roll": None, "has_worm": False}


def face_name(face: Any) -> Text:
    """How a face is named in a sentence: "worms", "4s"."""
    return N_("worms") if face == WORM else N_("%(face)ss", face=face)


def face_word(face: Any) -> Text | str:
    """One face as a log line shows it: its number, or "worm" in the reader's language."""
    return N_("worm") if face == WORM else str(face)


def faces_listed(faces: list[Any]) -> Text | str:
    """"3, worm, 5": the faces of a roll, the worms named in the reader's language."""
    listed: Text | str = ""
    for index, face in enumerate(faces):
        listed = face_word(face) if index == 0 else N_("%(head)s, %(next)s", head=listed, next=face_word(face))
    return listed


def kept_faces(turn: dict[str, Any]) -> list[Any]:
    return [group["face"] for group in turn["kept"]]


def new_faces(turn: dict[str, Any], roll: list[Any]) -> list[Any]:
    taken = kept_faces(turn)
    return [face for face in dict.fromkeys(roll) if face not in taken]


def _face_shape(raw: Any) -> Any:
    """A face as sent: a whole number or "worm" (which numbers these dice have is a rule)."""
    if raw != WORM and (isinstance(raw, bool) or not isinstance(raw, int)):
        raise MalformedAction(N_('A die face is a number from 1 to 6 or "worm".'))
    return raw


def check_action_shape(action: dict[str, Any]) -> None:
    """The types of a dice action's fields, before any rule of the moment (Game.check_shape)."""
    kind = action["type"]
    if kind == "roll":
        if not isinstance(action.get("dice"), list):
            raise MalformedAction(N_("A roll is a list of dice faces."))
        for face in action["dice"]:
            _face_shape(face)
    if kind in ("keep", "set_aside"):
        _face_shape(action.get("face"))
    if kind == "set_aside":
        count = action.get("count")
        if isinstance(count, bool) or not isinstance(count, int):
            raise MalformedAction(N_("The count of dice must be a whole number."))


def play(turn: dict[str, Any], action: dict[str, Any], dice: Dice) -> str | None:
    """Check and apply one dice action to `turn` (in place, only once it is valid). Its
    fields' types were checked when it was new (check_action_shape), so the rules here
    read them as they are."""
    kind = action["type"]
    if kind == "roll":
        return _roll(turn, action, dice)
    if kind == "keep":
        roll = _pending_roll(turn)
        face = dice.parse(action.get("face"))
        if face not in roll:
            raise RuleError("face_not_in_roll", N_("Your roll has no %(faces)s.", faces=face_name(face)))
        _check_new(turn, face)
        return _set_aside(turn, face, roll.count(face), dice)
    if kind == "set_aside":
        _no_pending_roll(turn)
        face = dice.parse(action.get("face"))
        count = action["count"]
        _check_new(turn, face)
        if count < 1:
            raise RuleError("invalid_count", N_("Set aside at least one die."))
        if count > turn["dice_left"]:
            raise RuleError(
                "too_many_dice",
                NP_("Only %(num)s die is left.", "Only %(num)s dice are left.", turn["dice_left"]),
            )
        return _set_aside(turn, face, count, dice)
    if kind == "stop":
        _no_pending_roll(turn)
        if not turn["kept"]:
            # Step 3 offers the stop only after dice were set aside; a stop at the start
            # would be a misplaced tap that costs the player a tile.
            raise RuleError(
                "nothing_set_aside",
                N_("Set aside dice before you stop: a turn starts by rolling all %(count)s dice.", count=DICE_COUNT),
            )
        return STOPPED
    if kind == "bust":
        if not turn["kept"]:
            # The first roll of all 8 dice always shows a face not taken yet: a failure
            # declared before anything is set aside is a mistaken tap, refused at no cost.
            raise RuleError(
                "nothing_set_aside",
                N_("A turn cannot fail before any dice are set aside: the first roll of all %(count)s dice"
                   " always shows a face you can keep.", count=DICE_COUNT),
            )
        if turn["roll"] is not None and new_faces(turn, turn["roll"]):
            raise RuleError(
                "roll_has_new_face",
                N_("Your roll has a face you have not set aside yet: keep one of them."),
            )
        return DECLARED_FAILED
    raise RuleError("unknown_action", N_("There is no action called %(type)s in this game.", type=shown(kind)))


def _roll(turn: dict[str, Any], action: dict[str, Any], dice: Dice) -> str | None:
    _no_pending_roll(turn)
    roll = [dice.parse(face) for face in action["dice"]]
    if len(roll) != turn["dice_left"]:
        raise RuleError(
            "wrong_dice_count",
            NP_(
                "You have %(num)s die left to roll, not %(given)s.",
                "You have %(num)s dice left to roll, not %(given)s.",
                turn["dice_left"],
                given=len(roll),
            ),
        )
    turn["roll"] = roll
    if not new_faces(turn, roll):
        return NOTHING_NEW
    return CONTINUES


def _pending_roll(turn: dict[str, Any]) -> list[Any]:
    if turn["roll"] is None:
        raise RuleError("no_roll", N_("Enter your roll before choosing the dice to keep."))
    return turn["roll"]


def _no_pending_roll(turn: dict[str, Any]) -> None:
    if turn["roll"] is not None:
        raise RuleError("keep_first", N_("First choose which face to keep from the roll you entered."))


def _check_new(turn: dict[str, Any], face: Any) -> None:
    if face in kept_faces(turn):
        raise RuleError(
            "face_already_kept", N_("You already set aside %(faces)s this turn.", faces=face_name(face))
        )


def _set_aside(turn: dict[str, Any], face: Any, count: int, dice: Dice) -> str | None:
    ends = dice.ends_turn(turn, count)
    turn["kept"].append({"face": face, "count": count})
    turn["total"] += dice.value(face) * count
    turn["dice_left"] -= count
    turn["has_worm"] = turn["has_worm"] or face == WORM
    turn["roll"] = None
    return STOPPED if ends else CONTINUES


def set_aside_action(face: Any, count: int) -> dict[str, Any]:
    return {"type": "set_aside", "face": face, "count": count}


def describe(action: dict[str, Any]) -> Text:
    """The dice part of a log line: "rolled 3, worm, 5", "kept 2 × 5"."""
    kind = action.get("type")
    if kind == "roll":
        return N_("rolled %(dice)s", dice=faces_listed(action.get("dice", [])))
    if kind == "keep":
        return N_("kept the %(faces)s", faces=face_name(action.get("face")))
    if kind == "set_aside":
        return N_("set aside %(count)s × %(face)s", count=action.get("count"), face=face_word(action.get("face")))
    if kind == "stop":
        return N_("stopped")
    return N_("declared the turn failed")


class WormDiceGame(Game):
    """A game whose turns are this worm-dice phase: `state["turn"]` is the turn in play,
    None once the game is over, and each logged action is a dice action."""

    one_seat_at_a_time = True

    dice: Dice

    def step(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        require_seat_turn(self.current_seat(state), seat, state["players"])
        self.check_extras(action)
        ended = play(state["turn"], action, self.dice)
        if ended is not CONTINUES:
            self.end_turn(state, seat, ended, action)

    def check_shape(self, action: dict[str, Any]) -> None:
        check_action_shape(action)

    def check_extras(self, action: dict[str, Any]) -> None:
        """What the game adds to the dice actions, checked before the dice are."""

    def end_turn(self, state: dict[str, Any], seat: int, ended: str, action: dict[str, Any]) -> None:
        """The turn of `seat` ended (`ended`: STOPPED or how it failed) with `action`: claim
        or fail, and pass the turn on."""
        raise NotImplementedError

    def ending_choice(self, state: dict[str, Any], seat: int, face: Any, count: int) -> dict[str, Any] | None:
        """A choice the player makes with the tap that sets `count` dice of `face` aside and
        so ends the turn (Pickomino: steal or take a lower tile); None when there is none."""
        return None

    def is_finished(self, state: dict[str, Any]) -> bool:
        return state["turn"] is None

    def current_seat(self, state: dict[str, Any]) -> int | None:
        return None if state["turn"] is None else state["turn"]["seat"]

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
        return describe(action)

    def describe_outcome(
        self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]
    ) -> Text | None:
        ended = _turn_ended(before, after)
        if ended is None:
            return None  # the turn goes on
        if ended["outcome"] == "failed" and ended["reason"] == DECLARED_FAILED:
            # "declared the turn failed" says it failed: the line goes on with what that did
            return N_("%(action)s — %(outcome)s", action=describe(action), outcome=self.failure_consequence(after))
        return N_("%(action)s — %(outcome)s", action=describe(action), outcome=self.turn_outcome(after))

    redo_ends_badly = N_(
        "Redoing “%(name)s %(line)s” would now fail %(name)s's turn, which it did not when it was first entered: "
        "redo it on its own if that is right, or leave it out."
    )

    def ends_badly(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
        ended = _turn_ended(before, after)
        return ended is not None and ended["outcome"] == "failed"

    # The field of `last_turn` naming what a turn took (a tile, a spot).
    claimed: str

    redo_touches_others = N_(
        "Redoing “%(name)s %(line)s” would now be “%(name)s %(now)s”: what another player holds changes, and that"
        " was %(name)s's choice to make. Redo it on its own if that is right, or leave it out."
    )

    def others_touched(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> Any:
        """The other player a turn's end took from (`from_seat`: a steal, a plate sent back),
        how, and what: the grill alone is the acting player's own business."""
        ended = _turn_ended(before, after)
        if ended is None or ended.get("from_seat") in (None, seat):
            return None
        return ended["outcome"], ended["from_seat"], ended[self.claimed]

    def turn_outcome(self, state: dict[str, Any]) -> Text:
        """How the turn in `state["last_turn"]` ended, without the player's name: "took 27
        from the grill", "turn failed (no worm set aside): 24 went back to the grill"."""
        raise NotImplementedError

    def failure_consequence(self, state: dict[str, Any]) -> Text:
        """What the failed turn in `state["last_turn"]` did to the grill: "24 went back to the
        grill and 36 was turned over"."""
        raise NotImplementedError


# --- the API's description (games/schema.py) ------------------------------------------------
# Named schemas and actions both worm-dice games add to the API: the same on both sides.
API_NAMED = {
    "Face": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 6}, {"const": WORM}], "description": "A die face."},
    "WormDiceTurn": nullable(
        obj(
            {
                "seat": SEAT,
                "kept": array(obj({"face": ref("Face"), "count": {"type": "integer", "minimum": 1}})),
                "total": COUNT,
                "dice_left": {"type": "integer", "minimum": 0, "maximum": DICE_COUNT},
                "roll": nullable(array(ref("Face"))),
                "has_worm": {"type": "boolean"},
            }
        )
    ),
}
# Pickomino: a stop, or an entry that ends the turn by itself (the last dice), may decline a steal.
TAKE = {"const": "grill", "description": "Pickomino only: decline a possible steal and take the next lower grill tile."}
API_ACTIONS = {
    "WormDiceRoll": action(
        "roll",
        "The worm-dice games: the faces rolled, as many dice as are left.",
        {"dice": array(ref("Face"), minItems=1, maxItems=DICE_COUNT)},
        ["dice"],
    ),
    "WormDiceKeep": action(
        "keep", "Set aside all dice of that face from the last roll.", {"face": ref("Face"), "take": TAKE}, ["face"]
    ),
    "WormDiceSetAside": action(
        "set_aside",
        "Quick entry: set aside `count` dice of `face`, no roll recorded.",
        {"face": ref("Face"), "count": {"type": "integer", "minimum": 1, "maximum": DICE_COUNT}, "take": TAKE},
        ["face", "count"],
    ),
    "WormDiceStop": action(
        "stop",
        'End the turn and claim. Pickomino only: "take": "grill" declines a possible steal.',
        {"take": TAKE},
    ),
    "WormDiceBust": action("bust", "Declare the turn failed (not before a group is set aside)."),
}


def _turn_ended(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The record of the turn an action ended (`last_turn`), or None while the turn goes on."""
    ended = after["last_turn"]
    return None if ended is None or ended == before["last_turn"] else ended


def api_last_turn(outcomes: list[str], fields: dict[str, Any]) -> dict[str, Any]:
    """The schema of a worm-dice game's `last_turn`: how the last turn ended."""
    return nullable(
        obj(
            {
                "seat": SEAT,
                "total": COUNT,
                "kept": array(obj({"face": ref("Face"), "count": {"type": "integer", "minimum": 1}})),
                "outcome": {"enum": outcomes},
                **fields,
                "reason": {"type": "string", "description": "Why a failed turn failed."},
                "text": {**TEXT, "description": "The outcome as a sentence."},
            },
            required=["seat", "total", "outcome", *fields, "text"],
        )
    )


# --- scenes: what the worm-dice games' screen_scenes play ---------------------------------------
def groups_making(total: int, faces: tuple) -> list[tuple[Any, int]]:
    """Groups (face, count) of different faces, a worm among them, eight dice at most,
    adding up to `total`."""
    others = [face for face in faces if face != WORM]
    for worms in range(1, DICE_COUNT + 1):
        rest = total - WORM_VALUE * worms
        if rest == 0:
            return [(WORM, worms)]
        for size in range(1, 4):
            for chosen in itertools.combinations(others, size):
                for counts in itertools.product(range(1, DICE_COUNT + 1), repeat=size):
                    if worms + sum(counts) <= DICE_COUNT and sum(f * c for f, c in zip(chosen, counts)) == rest:
                        return [(WORM, worms), *zip(chosen, counts)]
    raise ValueError(total)


def scored(play: ScenePlay, total: int, faces: tuple) -> None:
    """The player to move sets aside dice making `total` and stops (unless the dice ended the
    turn by themselves)."""
    seat = play.current_seat
    for face, count in groups_making(total, faces):
        play.act(seat, set_aside_action(face, count))
    turn = play.state.get("turn")
    if turn is not None and turn["kept"]:
        play.act(seat, {"type": "stop"})


def failed(play: ScenePlay, face: int = 1) -> None:
    """The player to move sets all eight dice aside as `face`, no worm: the turn fails."""
    play.act(play.current_seat, set_aside_action(face, DICE_COUNT))


def turn_under_way(play: ScenePlay, faces: tuple, roll: list) -> None:
    seat = play.current_seat
    play.act(seat, set_aside_action(WORM, 2))
    play.act(seat, set_aside_action(faces[-1] if faces[-1] != WORM else 4, 2))
    play.act(seat, {"type": "roll", "dice": roll})

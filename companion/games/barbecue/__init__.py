"""Heckmeck Barbecue: docs/rules.md (Heckmeck Barbecue).

The dice turn is the shared worm-dice phase (wormdice.play) with this game's faces; this
module only decides what a finished turn does on the grill.

`last_turn` (the API's) names what happened: `outcome` is placed, protected, stole,
snail or failed; `spot` is the spot acted on (for a snail, the spot it came off, or None
from the supply); `from_seat` is the player who lost a plate (the victim of a steal, or
the owner of the plate a failure's snail sent back); `snail_to` is where a failure's
snail went (None when none could be placed, which ends the game).

Longer than 400 lines on purpose: a game is one module (docs: "How it is built"), so its
engine, its sentences, its part of the API's description and its scenes stay together.
"""

from __future__ import annotations

from typing import Any

from .. import wormdice
from ..base import THREE, TWO, Option, Scene, ScenePlay, explain_ties, rank
from ..errors import MALFORMED_OPTION, MalformedAction, RuleError
from ..schema import COUNT, SEAT, SEAT_OR_NULL, ApiSchemas, array, nullable, obj, ref
from ..text import N_, NP_, Text, listing, shown

SPOT_VALUES = range(23, 37)
# Decision (docs/rules.md (Heckmeck Barbecue)): the seed prints no worms per spot; the companion assumes Pickomino's
# bands and lets the host correct them with the option spot_worms.
DEFAULT_SPOT_WORMS = {str(value): 1 + (value - 21) // 4 for value in SPOT_VALUES}  # 23–24: 1 … 33–36: 4
SPOT_WORMS_RANGE = range(1, 10)
PLATES_PER_PLAYER = 10
SNAILS = 12
SNAIL_POINTS = 3
PLATE_COLOURS = ("green", "yellow", "blue", "black", "orange")  # by seat
PLATE_COLOUR_NAMES = {
    "green": N_("green"),
    "yellow": N_("yellow"),
    "blue": N_("blue"),
    "black": N_("black"),
    "orange": N_("orange"),
}
DICE = wormdice.BARBECUE_DICE

PLACED, PROTECTED, STOLE, SNAIL, FAILED = "placed", "protected", "stole", "snail", "failed"


def check_spot_worms(raw: Any) -> dict[str, int]:
    """The option spot_worms: corrections {spot: worms} over the default table, complete."""
    if not isinstance(raw, dict):
        raise MalformedAction(N_("spot_worms must be a map from grill spot to worms."), code=MALFORMED_OPTION)
    table = dict(DEFAULT_SPOT_WORMS)
    for key, worms in raw.items():
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            raise MalformedAction(N_("spot_worms must be a map from grill spot to worms."), code=MALFORMED_OPTION)
        spot = str(key)  # as the spot is written: " 23" would be a second entry for 23
        if spot not in table:
            raise RuleError(
                "invalid_spot",
                N_("There is no grill spot %(spot)s: the spots are %(first)s to %(last)s.",
                   spot=shown(str(key)), first=SPOT_VALUES[0], last=SPOT_VALUES[-1]),
            )
        if isinstance(worms, bool) or not isinstance(worms, int):
            raise MalformedAction(
                N_("The worms of spot %(spot)s must be a whole number.", spot=spot), code=MALFORMED_OPTION
            )
        if worms not in SPOT_WORMS_RANGE:
            raise RuleError(
                "invalid_spot_worms",
                N_("Spot %(spot)s cannot show %(worms)s worms: a spot shows %(min)s to %(max)s worms.",
                   spot=spot, worms=worms, min=SPOT_WORMS_RANGE[0], max=SPOT_WORMS_RANGE[-1]),
            )
        table[spot] = worms
    return table


class Barbecue(wormdice.WormDiceGame):
    slug = "heckmeck-barbecue"
    claimed = "spot"  # last_turn names the spot a turn acted on
    title = N_("Heckmeck Barbecue")
    bgg_id = 66798
    min_players = 2
    max_players = len(PLATE_COLOURS)
    dice = DICE
    fields_not_read = ("take",)  # the worm-dice schemas are Pickomino's too: declining a steal
    spot_worms_range = SPOT_WORMS_RANGE  # the choices the start form offers per spot
    colour_names = PLATE_COLOUR_NAMES
    options = (
        Option(
            "spot_worms",
            DEFAULT_SPOT_WORMS,
            N_("Worms on the grill spots"),
            N_("The rulebook does not print these numbers: the defaults are the companion's assumption. "
               "Change them to match your board."),
            validate=check_spot_worms,
        ),
    )

    def api_schemas(self) -> ApiSchemas:
        spot_or_null = nullable({"type": "integer", "minimum": SPOT_VALUES[0], "maximum": SPOT_VALUES[-1]})
        outcomes = ["placed", "protected", "stole", "snail", "failed"]
        return ApiSchemas(
            options_request=obj({"spot_worms": ref("SpotWormsRequest")}, required=[], additionalProperties=False),
            options=obj(
                {
                    "spot_worms": {
                        "type": "object",
                        "propertyNames": {"enum": [str(value) for value in SPOT_VALUES]},
                        "additionalProperties": {"type": "integer"},
                        "required": [str(value) for value in SPOT_VALUES],
                    }
                }
            ),
            state=obj(
                {
                    "spots": array(
                        obj(
                            {
                                "value": {"type": "integer", "minimum": SPOT_VALUES[0], "maximum": SPOT_VALUES[-1]},
                                "worms": {"type": "integer", "minimum": SPOT_WORMS_RANGE[0], "maximum": SPOT_WORMS_RANGE[-1]},
                                "plates": array(SEAT, maxItems=2, description="The owners' seats."),
                                "snail": {"type": "boolean"},
                            }
                        ),
                        minItems=len(SPOT_VALUES),
                        maxItems=len(SPOT_VALUES),
                    ),
                    "worms": array({"type": "integer"}),
                    "snails": array(COUNT),
                    "plates_left": array(COUNT),
                    "snail_supply": COUNT,
                    "colours": array({"enum": list(PLATE_COLOURS)}, description="The plate colour of each seat."),
                    "turn": ref("WormDiceTurn"),
                    "last_turn": wormdice.api_last_turn(
                        outcomes, {"spot": spot_or_null, "from_seat": SEAT_OR_NULL, "snail_to": spot_or_null}
                    ),
                    "claim": obj(
                        {
                            "outcome": {"enum": outcomes},
                            "spot": spot_or_null,
                            "from_seat": SEAT_OR_NULL,
                            "reason": {"type": "string"},
                        },
                        required=["outcome", "spot", "from_seat"],
                        description="What stopping now would do (only once dice are set aside).",
                    ),
                },
                required=["spots", "worms", "snails", "plates_left", "snail_supply", "turn", "last_turn"],
            ),
            actions=wormdice.API_ACTIONS,
            named={
                **wormdice.API_NAMED,
                "SpotWormsRequest": {
                    "type": "object",
                    "description": "Corrections of the worms per grill spot, by spot number; the others keep their default.",
                    "propertyNames": {"enum": [str(value) for value in SPOT_VALUES]},
                    "additionalProperties": {
                        "type": "integer",
                        "minimum": SPOT_WORMS_RANGE[0],
                        "maximum": SPOT_WORMS_RANGE[-1],
                    },
                },
            },
        )

    def scenes(self) -> dict[str, Scene]:
        worm, stop = wormdice.WORM, {"type": "stop"}
        set_aside = wormdice.set_aside_action
        # Ana's plate on 28; Bruno could steal it
        steal = ((0, set_aside(worm, 2)), (0, set_aside(6, 3)), (0, stop), (1, set_aside(worm, 2)), (1, set_aside(6, 3)))
        return {
            "start": Scene(THREE),
            "steal": Scene(THREE, steal, seen_by=1),
            "after-a-steal-and-a-snail": Scene(THREE, steal + ((1, stop), (2, set_aside(1, 8)))),  # Caio: a snail on 36
            # Ana's plate on 24, Bruno's on 23 (1 point each), then failures until no snail is left.
            "finished": Scene(
                TWO,
                ((0, set_aside(worm, 2)), (0, set_aside(6, 2)), (0, set_aside(2, 1)), (0, stop))
                + ((1, set_aside(worm, 2)), (1, set_aside(6, 2)), (1, set_aside(1, 1)), (1, stop))
                + tuple((turn % 2, set_aside(1, 8)) for turn in range(13)),
            ),
        }

    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """Late: plates on the grill, a steal, a second plate closing a spot, snails taken and
        placed by failures, a turn under way. Finished: plates on 24, 23, 28, 27, 36, then
        failures until the snails run out; they send back the plates of 36, 28 and 27 (their
        owners keep the worms): ties with plates (the higher plate wins) and without (shared)."""
        faces, players = self.dice.faces, len(names)
        plays = {"late": ScenePlay(self, names), "finished": ScenePlay(self, names)}
        for play in plays.values():
            for total in [24, 23, 28, 27, 36][:players]:
                wormdice.scored(play, total, faces)
        while not plays["finished"].finished:
            wormdice.failed(plays["finished"])
        late = plays["late"]
        for total in [40, 28, None, 27, 33, 31, 35, 30, 29, None, 25, 26][: 3 * players]:
            if total is None:
                wormdice.failed(late)
            else:
                wormdice.scored(late, total, faces)
        wormdice.turn_under_way(late, faces, [1, 3, 3, 4])
        return {name: play.scene() for name, play in plays.items()}


    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        spot_worms = options["spot_worms"]
        return {
            "players": list(players),
            "options": dict(options),
            "spots": [
                {"value": value, "worms": spot_worms[str(value)], "plates": [], "snail": False}
                for value in SPOT_VALUES
            ],
            "worms": [0 for _ in players],
            "snails": [0 for _ in players],
            "plates_left": [PLATES_PER_PLAYER for _ in players],
            "snail_supply": SNAILS,
            "turn": wormdice.new_turn(0),
            "last_turn": None,
        }

    # --- reading the state ----------------------------------------------------------
    def scores(self, state: dict[str, Any]) -> list[int]:
        return [worms + SNAIL_POINTS * snails for worms, snails in zip(state["worms"], state["snails"])]

    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        turn = state["turn"]
        public = {
            "spots": state["spots"],
            "worms": state["worms"],
            "snails": state["snails"],
            "plates_left": state["plates_left"],
            "snail_supply": state["snail_supply"],
            "colours": list(PLATE_COLOURS[: len(state["players"])]),
            "turn": turn,
            "last_turn": state["last_turn"],
        }
        if turn is not None and turn["kept"]:
            public["claim"] = self.stop_outcome(state, turn["seat"])
        return public

    def stop_outcome(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        """What stopping now would do (changes nothing): outcome, spot, from_seat, and for
        a failure its reason."""
        turn = state["turn"]
        total = turn["total"]
        if not turn["has_worm"]:
            return _failure(wormdice.NO_WORM)
        if total < SPOT_VALUES[0]:
            return _failure("too_low")
        if total > SPOT_VALUES[-1]:
            if state["snail_supply"]:
                return {"outcome": SNAIL, "spot": None, "from_seat": None}
            on_grill = [spot["value"] for spot in state["spots"] if spot["snail"]]
            if on_grill:
                return {"outcome": SNAIL, "spot": max(on_grill), "from_seat": None}
            return _failure("no_snail")
        spot = _spot(state, total)
        if spot["snail"]:
            return {"outcome": SNAIL, "spot": total, "from_seat": None}
        if len(spot["plates"]) == 2:
            return _failure("closed", spot=total)
        if state["plates_left"][seat] == 0:
            return _failure("no_plate", spot=total)
        if not spot["plates"]:
            return {"outcome": PLACED, "spot": total, "from_seat": None}
        owner = spot["plates"][0]
        if owner == seat:
            return {"outcome": PROTECTED, "spot": total, "from_seat": None}
        return {"outcome": STOLE, "spot": total, "from_seat": owner}

    # --- actions --------------------------------------------------------------------
    def end_turn(self, state: dict[str, Any], seat: int, ended: str, action: dict[str, Any]) -> None:
        turn = state["turn"]
        record = {"seat": seat, "total": turn["total"], "kept": turn["kept"], "snail_to": None}
        if ended == wormdice.STOPPED:
            record.update(self.stop_outcome(state, seat))
        else:
            record.update(_failure(ended))
        game_over = self._resolve(state, seat, record)
        state["last_turn"] = record
        state["turn"] = None if game_over else wormdice.new_turn((seat + 1) % len(state["players"]))

    def _resolve(self, state: dict[str, Any], seat: int, record: dict[str, Any]) -> bool:
        """Carry out the outcome on the grill; True when it ends the game."""
        outcome = record["outcome"]
        if outcome == FAILED:
            return self._place_failure_snail(state, record)
        if outcome == SNAIL:
            if record["spot"] is None:
                state["snail_supply"] -= 1
            else:
                _spot(state, record["spot"])["snail"] = False
            state["snails"][seat] += 1
            return False
        spot = _spot(state, record["spot"])
        if outcome == STOLE:
            victim = record["from_seat"]
            state["worms"][victim] -= spot["worms"]
            state["plates_left"][victim] += 1
            spot["plates"] = []
        spot["plates"].append(seat)
        state["plates_left"][seat] -= 1
        state["worms"][seat] += spot["worms"]
        return False

    def _place_failure_snail(self, state: dict[str, Any], record: dict[str, Any]) -> bool:
        """A failed turn puts a snail from the supply on the highest empty spot, or else on
        the highest spot with a single plate (whose owner gets it back and keeps the worms).
        True when no snail can be placed: the game ends."""
        if record["reason"] == "no_snail" or not state["snail_supply"]:
            return True
        spots = state["spots"][::-1]  # highest first
        target = next((spot for spot in spots if not spot["plates"] and not spot["snail"]), None)
        if target is None:
            target = next((spot for spot in spots if len(spot["plates"]) == 1), None)
        if target is None:
            return True
        if target["plates"]:
            owner = target["plates"].pop()
            state["plates_left"][owner] += 1
            record["from_seat"] = owner
        target["snail"] = True
        state["snail_supply"] -= 1
        record["snail_to"] = target["value"]
        return False

    # --- words ----------------------------------------------------------------------
    def ranking(self, state: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self.is_finished(state):
            return None
        names = state["players"]
        entries = [
            {
                "seat": seat,
                "name": names[seat],
                "score": score,
                "plate_spots": _plate_spots(state, seat),
                "worms": state["worms"][seat],
                "snails": state["snails"][seat],
                "detail": _points_made_of(state["worms"][seat], state["snails"][seat]),
            }
            for seat, score in enumerate(self.scores(state))
        ]
        # Seed: among tied players the plate on the highest spot wins. Spots have one owner,
        # so only players without any plate can still be level after that.
        ordered = rank(entries, key=lambda entry: (entry["score"], max(entry["plate_spots"], default=0)))
        return explain_ties(
            ordered, lambda tied, entry: _tiebreak_sentence(tied, tied.index(entry)), helper_keys=("plate_spots",)
        )

    def failure_consequence(self, state: dict[str, Any]) -> Text:
        return _failure_consequence(state, state["last_turn"])

    def turn_outcome(self, state: dict[str, Any]) -> Text:
        record, names = state["last_turn"], state["players"]
        outcome, spot_value = record["outcome"], record["spot"]
        if outcome == FAILED:
            return N_(
                "turn failed (%(reason)s): %(consequence)s",
                reason=_failure_reason(record), consequence=_failure_consequence(state, record),
            )
        if outcome == SNAIL:
            if spot_value is None:
                return N_("took a snail from the supply")
            if record["total"] > SPOT_VALUES[-1]:
                return N_("scored %(total)s and took the snail from spot %(spot)s, the supply being empty", total=record["total"], spot=spot_value)
            return N_("took the snail from spot %(spot)s", spot=spot_value)
        worms = _spot(state, spot_value)["worms"]
        if outcome == PLACED:
            return NP_("put a plate on %(spot)s and took %(num)s worm", "put a plate on %(spot)s and took %(num)s worms", worms, spot=spot_value)
        if outcome == PROTECTED:
            return NP_(
                "put a second plate on %(spot)s, closing it, and took %(num)s worm again",
                "put a second plate on %(spot)s, closing it, and took %(num)s worms again",
                worms, spot=spot_value,
            )
        return NP_(
            "stole %(num)s worm from %(victim)s on %(spot)s",
            "stole %(num)s worms from %(victim)s on %(spot)s",
            worms, victim=names[record["from_seat"]], spot=spot_value,
        )

    def describe_last_turn(self, state: dict[str, Any]) -> Text | None:
        record = state["last_turn"]
        if record is None:
            return None
        names = state["players"]
        name = names[record["seat"]]
        outcome, spot_value = record["outcome"], record["spot"]
        if outcome == FAILED:
            return N_(
                "%(name)s failed (%(reason)s): %(consequence)s",
                name=name, reason=_failure_reason(record), consequence=_failure_consequence(state, record),
            )
        if outcome == SNAIL:
            if spot_value is None:
                return N_("%(name)s scored %(total)s and took a snail from the supply.", name=name, total=record["total"])
            if record["total"] > SPOT_VALUES[-1]:
                return N_(
                    "%(name)s scored %(total)s; the supply is empty, so they took the snail from spot %(spot)s.",
                    name=name, total=record["total"], spot=spot_value,
                )
            return N_("%(name)s took the snail from spot %(spot)s.", name=name, spot=spot_value)
        worms = _spot(state, spot_value)["worms"]
        if outcome == PLACED:
            return NP_(
                "%(name)s put a plate on %(spot)s and took %(num)s worm.",
                "%(name)s put a plate on %(spot)s and took %(num)s worms.",
                worms, name=name, spot=spot_value,
            )
        if outcome == PROTECTED:
            return NP_(
                "%(name)s put a second plate on %(spot)s and took %(num)s worm again: the spot is closed.",
                "%(name)s put a second plate on %(spot)s and took %(num)s worms again: the spot is closed.",
                worms, name=name, spot=spot_value,
            )
        return NP_(
            "%(name)s stole %(num)s worm from %(victim)s on %(spot)s; %(victim)s's plate went back.",
            "%(name)s stole %(num)s worms from %(victim)s on %(spot)s; %(victim)s's plate went back.",
            worms, name=name, victim=names[record["from_seat"]], spot=spot_value,
        )


def _spot(state: dict[str, Any], value: int) -> dict[str, Any]:
    return state["spots"][value - SPOT_VALUES[0]]


def _failure(reason: str, spot: int | None = None) -> dict[str, Any]:
    return {"outcome": FAILED, "reason": reason, "spot": spot, "from_seat": None}


def _plate_spots(state: dict[str, Any], seat: int) -> list[int]:
    return sorted((spot["value"] for spot in state["spots"] if seat in spot["plates"]), reverse=True)


def _failure_reason(record: dict[str, Any]) -> Text:
    reason = record["reason"]
    if reason in wormdice.DICE_FAILURE_REASONS:
        return wormdice.DICE_FAILURE_REASONS[reason]
    if reason == "too_low":
        return N_("%(total)s is below %(lowest)s", total=record["total"], lowest=SPOT_VALUES[0])
    if reason == "closed":
        return N_("spot %(spot)s already has two plates", spot=record["spot"])
    if reason == "no_plate":
        return N_("no plate left to put on %(spot)s", spot=record["spot"])
    return N_("%(total)s is above %(highest)s and no snail is left", total=record["total"], highest=SPOT_VALUES[-1])


def _failure_consequence(state: dict[str, Any], record: dict[str, Any]) -> Text:
    if record["snail_to"] is not None:
        if record["from_seat"] is not None:
            return N_(
                "a snail went on %(spot)s and %(owner)s's plate went back.",
                spot=record["snail_to"], owner=state["players"][record["from_seat"]],
            )
        return N_("a snail went on %(spot)s.", spot=record["snail_to"])
    if record["reason"] == "no_snail":
        return N_("the game is over.")
    if not state["snail_supply"]:
        return N_("the snail supply is empty, so the game is over.")
    return N_("every spot has two plates or a snail, so no snail can be placed and the game is over.")


def _points_made_of(worms: int, snails: int) -> Text:
    """How a score is made up (docs/rules.md (Heckmeck Barbecue)): a point per worm, SNAIL_POINTS per snail."""
    return N_(
        "%(worms)s + %(snails)s × %(points)s",
        worms=NP_("%(num)s worm", "%(num)s worms", worms),
        snails=NP_("%(num)s snail", "%(num)s snails", snails),
        points=SNAIL_POINTS,
    )


def _tiebreak_sentence(tied: list[dict[str, Any]], index: int) -> Text:
    """Why the tied player at `index` (of the tied group, best first) is placed where they are."""
    entry = tied[index]
    without_plate = [other for other in tied if not other["plate_spots"]]
    if not entry["plate_spots"] and len(without_plate) > 1:
        reason = N_(
            "%(names)s have no plate on the grill and share the place.",
            names=listing([other["name"] for other in without_plate]),
        )
    else:
        # Compare with the next one down, or for the last of the group with the one above.
        if index + 1 < len(tied):
            winner, loser = entry, tied[index + 1]
        else:
            winner, loser = tied[index - 1], entry
        if loser["plate_spots"]:
            reason = N_(
                "%(winner)s's plate on %(high)s is higher than %(loser)s's on %(low)s.",
                winner=winner["name"], high=winner["plate_spots"][0], loser=loser["name"], low=loser["plate_spots"][0],
            )
        else:
            reason = N_(
                "%(winner)s has a plate on %(high)s and %(loser)s has none on the grill.",
                winner=winner["name"], high=winner["plate_spots"][0], loser=loser["name"],
            )
    return NP_("Tied on %(num)s point: %(reason)s", "Tied on %(num)s points: %(reason)s", entry["score"], reason=reason)


GAME = Barbecue()

"""Pickomino (Heckmeck am Bratwurmeck): docs/rules.md (Pickomino)."""

from __future__ import annotations

from typing import Any

from .. import wormdice
from ..base import THREE, TWO, Option, Scene, ScenePlay, explain_ties, rank
from ..errors import MalformedAction, RuleError
from ..schema import SEAT_OR_NULL, ApiSchemas, array, nullable, obj, ref
from ..text import N_, NP_, Text, isolated, listing

TILE_VALUES = range(21, 37)
TILE_WORMS = {value: 1 + (value - 21) // 4 for value in TILE_VALUES}  # 21–24: 1 … 33–36: 4
DICE = wormdice.PICKOMINO_DICE

FAILURE_REASONS = {**wormdice.DICE_FAILURE_REASONS, "no_tile": N_("no tile within reach")}


class Pickomino(wormdice.WormDiceGame):
    slug = "pickomino"
    claimed = "tile"  # last_turn names the tile a turn took
    title = N_("Pickomino")
    bgg_id = 15818
    min_players = 2
    max_players = 7
    dice = DICE
    options = (
        Option(
            "alternative_return",
            False,
            N_("Alternative return"),
            N_("A tile given back is turned face down even when it is the highest on the grill."),
        ),
        Option(
            "flip_when_empty",
            False,
            N_("Turn a tile on every failure"),
            N_("A failed turn turns the highest grill tile face down even when the player had no tile to give back."),
        ),
    )

    def api_schemas(self) -> ApiSchemas:
        tile_or_null = nullable({"type": "integer", "minimum": TILE_VALUES[0], "maximum": TILE_VALUES[-1]})
        return ApiSchemas(
            options_request=obj(
                {"alternative_return": {"type": "boolean"}, "flip_when_empty": {"type": "boolean"}},
                required=[],
                additionalProperties=False,
            ),
            options=obj({"alternative_return": {"type": "boolean"}, "flip_when_empty": {"type": "boolean"}}),
            state=obj(
                {
                    "grill": array(
                        obj(
                            {
                                "value": {"type": "integer", "minimum": TILE_VALUES[0], "maximum": TILE_VALUES[-1]},
                                "worms": {"type": "integer", "minimum": 1, "maximum": 4},
                                "face_up": {"type": "boolean"},
                            }
                        ),
                        description="The tiles on the grill, ascending, face-down ones included.",
                    ),
                    "stacks": array(array({"type": "integer"}), description="Per seat, bottom to top."),
                    "turn": ref("WormDiceTurn"),
                    "last_turn": wormdice.api_last_turn(
                        ["took", "stole", "failed"],
                        {"tile": tile_or_null, "from_seat": SEAT_OR_NULL, "returned": tile_or_null, "turned": tile_or_null},
                    ),
                    "claim": obj(
                        {"on_grill": {"type": "boolean"}, "steal_from": SEAT_OR_NULL, "lower": tile_or_null},
                        description="What stopping now would claim (only while a claim is possible).",
                    ),
                },
                required=["grill", "stacks", "turn", "last_turn"],
            ),
            actions=wormdice.API_ACTIONS,
            named=wormdice.API_NAMED,
        )

    def scenes(self) -> dict[str, Scene]:
        worm, stop = wormdice.WORM, {"type": "stop"}
        set_aside = wormdice.set_aside_action
        # Ana takes 25; Bruno could steal it or take 24
        steal_or_lower = ((0, set_aside(worm, 2)), (0, set_aside(5, 3)), (0, stop), (1, set_aside(worm, 2)), (1, set_aside(5, 3)))
        return {
            "start": Scene(THREE),
            "choose-a-face": Scene(THREE, ((0, {"type": "roll", "dice": [worm, worm, 3, 3, 4, 5, 1, 2]}),)),
            "steal-or-lower": Scene(THREE, steal_or_lower, seen_by=1),
            "after-a-steal-and-failures": Scene(
                THREE,
                steal_or_lower
                + (
                    (1, stop),  # Bruno stole 25 from Ana
                    (2, {"type": "roll", "dice": [1] * 8}),
                    (2, {"type": "keep", "face": 1}),  # Caio: no worm
                    (0, set_aside(worm, 8)),  # Ana: 40, takes 36
                    (1, set_aside(3, 8)),  # Bruno fails: 25 back, 35 turned over
                ),
            ),
            # Ana and Bruno take the highest tile in turn: 20 worms each, the highest tile decides.
            "finished": Scene(TWO, tuple((turn % 2, set_aside(worm, 8)) for turn in range(16))),
        }

    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """Eight worms (40) take the highest tile on the grill, turn after turn: late, 13 tiles
        taken, a failure (a tile back on the grill) and a turn under way with a roll; finished,
        all 16 taken, which ties players on worms (with 7: two ties) broken by the highest tile."""
        faces = self.dice.faces
        finished = ScenePlay(self, names)
        for _ in range(16):
            wormdice.scored(finished, 40, faces)
        late = ScenePlay(self, names)
        for _ in range(13):
            wormdice.scored(late, 40, faces)
        wormdice.failed(late, 3)
        wormdice.turn_under_way(late, faces, [1, 1, 2, 3])
        return {"late": late.scene(), "finished": finished.scene()}


    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        return {
            "players": list(players),
            "options": dict(options),
            "grill": [{"value": value, "worms": TILE_WORMS[value], "face_up": True} for value in TILE_VALUES],
            "stacks": [[] for _ in players],
            "turn": wormdice.new_turn(0),
            "last_turn": None,
        }

    # --- reading the state ----------------------------------------------------------
    def scores(self, state: dict[str, Any]) -> list[int]:
        return [sum(TILE_WORMS[tile] for tile in stack) for stack in state["stacks"]]

    def claim_options(self, state: dict[str, Any], seat: int, total: int) -> dict[str, Any]:
        """What a successful result `total` could claim: the tile itself, a steal, a lower tile."""
        face_up = [tile["value"] for tile in state["grill"] if tile["face_up"]]
        steal_from = next(
            (other for other, stack in enumerate(state["stacks"]) if other != seat and stack and stack[-1] == total),
            None,
        )
        lower = max((value for value in face_up if value < total), default=None)
        return {"on_grill": total in face_up, "steal_from": steal_from, "lower": lower}

    def ending_choice(self, state: dict[str, Any], seat: int, face: Any, count: int) -> dict[str, Any] | None:
        """For setting `count` dice of `face` aside when that ends the turn by itself (the
        last die, the sixth face) with a worm: the steal and the lower grill tile when both
        are open, so the page can let the player choose with that tap (`"take": "grill"`
        declines the steal). `total` is what the turn then scores."""
        turn = state["turn"]
        if not self.dice.ends_turn(turn, count) or not (turn["has_worm"] or face == wormdice.WORM):
            return None
        total = turn["total"] + self.dice.value(face) * count
        options = self.claim_options(state, seat, total)
        if options["on_grill"] or options["steal_from"] is None or options["lower"] is None:
            return None
        return {**options, "total": total}

    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        turn = state["turn"]
        public = {
            "grill": state["grill"],
            "stacks": state["stacks"],
            "turn": turn,
            "last_turn": state["last_turn"],
        }
        if turn is not None and turn["total"] and turn["has_worm"]:
            public["claim"] = self.claim_options(state, turn["seat"], turn["total"])
        return public

    # --- actions --------------------------------------------------------------------
    def check_shape(self, action: dict[str, Any]) -> None:
        super().check_shape(action)
        take = action.get("take")
        if take is not None and not isinstance(take, str):
            raise MalformedAction(N_('"take" must be the text "grill".'))

    def check_extras(self, action: dict[str, Any]) -> None:
        take = action.get("take")
        if take is not None and take != "grill":
            raise RuleError("invalid_take", N_('"take" can only be "grill": decline a steal, take from the grill.'))

    def end_turn(self, state: dict[str, Any], seat: int, ended: str, action: dict[str, Any]) -> None:
        if ended == wormdice.STOPPED:
            self._claim(state, seat, decline_steal=action.get("take") == "grill")
        else:
            self._fail(state, seat, ended)
        self._next_turn(state, seat)

    def _claim(self, state: dict[str, Any], seat: int, decline_steal: bool) -> None:
        turn = state["turn"]
        total = turn["total"]
        if not turn["has_worm"]:
            return self._fail(state, seat, wormdice.NO_WORM)
        options = self.claim_options(state, seat, total)
        record = {"seat": seat, "total": total, "kept": turn["kept"], "returned": None, "turned": None}
        if options["on_grill"]:
            record.update(outcome="took", tile=total, from_seat=None)
        elif options["steal_from"] is not None and not (decline_steal and options["lower"] is not None):
            if decline_steal:
                raise RuleError(
                    "no_lower_tile",
                    N_("There is no lower tile on the grill: you can only steal %(tile)s.", tile=total),
                )
            victim = options["steal_from"]
            state["stacks"][victim].pop()
            record.update(outcome="stole", tile=total, from_seat=victim)
        elif options["lower"] is not None:
            record.update(outcome="took", tile=options["lower"], from_seat=None)
            record["declined_steal"] = options["steal_from"] is not None
        else:
            return self._fail(state, seat, "no_tile")
        if record["from_seat"] is None:
            state["grill"] = [tile for tile in state["grill"] if tile["value"] != record["tile"]]
        state["stacks"][seat].append(record["tile"])
        state["last_turn"] = record

    def _fail(self, state: dict[str, Any], seat: int, reason: str) -> None:
        turn = state["turn"]
        stack = state["stacks"][seat]
        returned = stack.pop() if stack else None
        if returned is not None:
            state["grill"].append({"value": returned, "worms": TILE_WORMS[returned], "face_up": True})
            state["grill"].sort(key=lambda tile: tile["value"])
        turned = None
        if returned is not None or state["options"]["flip_when_empty"]:
            highest = max((tile for tile in state["grill"] if tile["face_up"]), key=lambda t: t["value"], default=None)
            if highest is not None and (highest["value"] != returned or state["options"]["alternative_return"]):
                highest["face_up"] = False
                turned = highest["value"]
        state["last_turn"] = {
            "seat": seat,
            "total": turn["total"],
            "kept": turn["kept"],
            "outcome": "failed",
            "reason": reason,
            "tile": None,
            "from_seat": None,
            "returned": returned,
            "turned": turned,
        }

    def _next_turn(self, state: dict[str, Any], seat: int) -> None:
        if any(tile["face_up"] for tile in state["grill"]):
            state["turn"] = wormdice.new_turn((seat + 1) % len(state["players"]))
        else:
            state["turn"] = None

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
                "best": max(state["stacks"][seat], default=0),
                "tiles": sorted(state["stacks"][seat]),
                "detail": _tiles_held(state["stacks"][seat]),
            }
            for seat, score in enumerate(self.scores(state))
        ]
        ordered = rank(entries, key=lambda entry: (entry["score"], entry["best"]))
        return explain_ties(ordered, lambda tied, _entry: _tiebreak_sentence(tied), helper_keys=("best",))

    def turn_outcome(self, state: dict[str, Any]) -> Text:
        record, names = state["last_turn"], state["players"]
        if record["outcome"] == "stole":
            return N_("stole %(tile)s from %(victim)s", tile=record["tile"], victim=names[record["from_seat"]])
        if record["outcome"] == "took":
            if record.get("declined_steal"):
                return N_("scored %(total)s and took %(tile)s from the grill instead of stealing", total=record["total"], tile=record["tile"])
            if record["tile"] != record["total"]:
                return N_("scored %(total)s and took %(tile)s from the grill", total=record["total"], tile=record["tile"])
            return N_("took %(tile)s from the grill", tile=record["tile"])
        return N_("turn failed (%(reason)s): %(consequence)s", reason=FAILURE_REASONS[record["reason"]], consequence=_failure_consequence(record))

    def failure_consequence(self, state: dict[str, Any]) -> Text:
        return _failure_consequence(state["last_turn"])

    def describe_last_turn(self, state: dict[str, Any]) -> Text | None:
        record = state["last_turn"]
        if record is None:
            return None
        names = state["players"]
        name = names[record["seat"]]
        if record["outcome"] == "stole":
            return N_("%(name)s stole %(tile)s from %(victim)s.", name=name, tile=record["tile"], victim=names[record["from_seat"]])
        if record["outcome"] == "took":
            if record.get("declined_steal"):
                return N_(
                    "%(name)s scored %(total)s and took %(tile)s from the grill instead of stealing.",
                    name=name, total=record["total"], tile=record["tile"],
                )
            if record["tile"] != record["total"]:
                return N_("%(name)s scored %(total)s and took %(tile)s from the grill.", name=name, total=record["total"], tile=record["tile"])
            return N_("%(name)s took %(tile)s from the grill.", name=name, tile=record["tile"])
        reason = FAILURE_REASONS[record["reason"]]
        return N_("%(name)s failed (%(reason)s): %(consequence)s", name=name, reason=reason, consequence=_failure_consequence(record))


def _failure_consequence(record: dict[str, Any]) -> Text:
    """What a failed turn did to the grill: the tile given back, the tile turned over."""
    returned, turned = record["returned"], record["turned"]
    if returned is not None and turned is not None:
        return N_("%(returned)s went back to the grill and %(turned)s was turned over.", returned=returned, turned=turned)
    if returned is not None:
        return N_("%(returned)s went back to the grill and stays face up.", returned=returned)
    if turned is not None:
        return N_("%(turned)s was turned over.", turned=turned)
    return N_("there was no tile to give back.")


def _tiles_held(stack: list[int]) -> Text:
    """How a score is made up: the tiles in the stack, lowest first."""
    if not stack:
        return N_("No tiles held.")
    tiles = ", ".join(str(tile) for tile in sorted(stack))
    return NP_("Tile held: %(tiles)s", "Tiles held: %(tiles)s", len(stack), tiles=tiles)


def _tiebreak_sentence(tied: list[dict[str, Any]]) -> Text:
    names = listing([entry["name"] for entry in tied])
    if all(entry["best"] == 0 for entry in tied):
        return N_("%(names)s tied with no tiles: they share the place.", names=names)
    tiles = ", ".join(f"{isolated(entry['name'])} {entry['best']}" for entry in tied)
    return NP_(
        "%(names)s tied on %(num)s worm; the highest tile decided (%(tiles)s).",
        "%(names)s tied on %(num)s worms; the highest tile decided (%(tiles)s).",
        tied[0]["score"], names=names, tiles=tiles,
    )


GAME = Pickomino()

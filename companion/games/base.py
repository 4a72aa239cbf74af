"""What every game provides (Game, in four parts), and the helpers the games share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .correcting import Corrections
from .errors import MALFORMED_OPTION, MalformedAction, RuleError
from .presentation import Presentation
from .rules import Rules
from .schema import ApiDescription
from .text import N_, Text


THREE, TWO = ("Ana", "Bruno", "Caio"), ("Ana", "Bruno")  # the players of the scenes


@dataclass(frozen=True)
class Scene:
    """A point of a game, for the suites that run every game in the registry (the pages in
    every language, the security walks, the table screen, the API's document): a table of
    `players` with `options`, after `actions` (seat, action) in order, as seat `seen_by`
    sees it. Each game has at least a "start" and a "finished" scene (ideally with a tie)."""

    players: tuple[str, ...]
    actions: tuple[tuple[int, dict[str, Any]], ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    seen_by: int = 0


@dataclass(frozen=True)
class Option:
    """A table option: its name in the API, its default and one-line help.

    Boolean options are checked here; any other kind brings its own `validate`, which
    returns the effective value or raises RuleError (MalformedAction for a wrong type).
    """

    name: str
    default: Any
    label: Text
    help: Text
    validate: Callable[[Any], Any] | None = None
    # Entries per seat (Twenty One's sheets): the start form keys them by name slot, and
    # the shell turns slots into seats, skipping the slots left empty.
    per_seat: bool = False
    # Text typed on the start form (the score pad's game and categories), read as typed:
    # otherwise a field holding a whole number arrives as one, and "007" as 7.
    typed: bool = False

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    def check(self, value: Any) -> Any:
        if self.validate is not None:
            return self.validate(value)
        if self.is_flag:
            if not isinstance(value, bool):
                raise MalformedAction(N_("The option %(option)s must be true or false.", option=self.name), code=MALFORMED_OPTION)
            return value
        raise TypeError(f"option {self.name} needs a validate function")


class Game(Rules, Corrections, Presentation, ApiDescription):
    """A game: its rules (rules.py), what corrections need of it (correcting.py), how it shows
    itself (presentation.py) and its part of the JSON API and its scenes (schema.py). Pure:
    no Flask, no database. A simple game implements its rules, its log's sentence
    (describe_action), its public state, its API schemas and its scenes; the rest has
    defaults."""


def require_seat_turn(state_seat: int | None, seat: int, names: list[str]) -> None:
    if state_seat is None:
        raise RuleError("game_over", N_("The game is over."))
    if seat != state_seat:
        raise RuleError(
            "not_your_turn",
            N_("It is %(name)s's turn, not yours.", name=names[state_seat]),
            status=403,
        )


def rank(entries: list[dict[str, Any]], key) -> list[dict[str, Any]]:
    """Sort best first by `key` (higher is better) and give equal keys the same place."""
    ordered = sorted(entries, key=key, reverse=True)
    previous = None
    for index, entry in enumerate(ordered):
        k = key(entry)
        if previous is None or k != previous[0]:
            previous = (k, index + 1)
        entry["place"] = previous[1]
    return ordered


def explain_ties(ordered: list[dict[str, Any]], sentence, helper_keys: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Give every player who shares their score with others the sentence `sentence(tied,
    entry)` on how that tie was broken (or shared), then drop the keys only ranking used."""
    for entry in ordered:
        tied = [other for other in ordered if other["score"] == entry["score"]]
        entry["tiebreak"] = sentence(tied, entry) if len(tied) > 1 else None
    for entry in ordered:
        for key in helper_keys:
            del entry[key]
    return ordered

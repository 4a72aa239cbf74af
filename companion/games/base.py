"""What every game provides (Game, in four parts), and the helpers the games share."""

from __future__ import annotations

from typing import Any

from .correcting import Corrections
from .errors import RuleError
from .presentation import Presentation
from .rules import Option, Rules
from .scenes import Scene, ScenePlay
from .schema import ApiDescription
from .text import N_

__all__ = ["THREE", "TWO", "Game", "Option", "Scene", "ScenePlay", "explain_ties", "rank", "require_seat_turn"]


THREE, TWO = ("Ana", "Bruno", "Caio"), ("Ana", "Bruno")  # the players of the scenes


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

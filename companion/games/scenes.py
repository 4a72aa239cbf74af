"""Scenes: named points of a game, written as the actions that bring a table there, for
the suites that run every game of the registry and for the TV tests (Game.scenes,
Game.screen_scenes). ScenePlay plays a game on its engine to write one."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


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


class ScenePlay:
    """A game played on its engine to write a Scene: every action checked by the rules and
    kept in order; `state` (the table's public state, as every phone and the API see it) and
    `current_seat` / `finished` tell a scene's script what to do next."""

    def __init__(self, game: Any, names: tuple[str, ...], options: dict[str, Any] | None = None):
        self.game, self.names, self.options = game, tuple(names), options or {}
        effective = game.effective_options(self.options)
        self._state = game.setup(list(names), effective, game.deal(list(names), effective, random.Random(0)))
        self.actions: list[tuple[int, dict[str, Any]]] = []

    def act(self, seat: int, action: dict[str, Any]) -> None:
        self._state = self.game.apply(self._state, seat, action)
        self.actions.append((seat, action))

    @property
    def state(self) -> dict[str, Any]:
        return self.game.public_state(self._state, None)

    @property
    def current_seat(self) -> int | None:
        return self.game.current_seat(self._state)

    @property
    def finished(self) -> bool:
        return self.game.is_finished(self._state)

    def scene(self) -> Scene:
        return Scene(self.names, tuple(self.actions), self.options)

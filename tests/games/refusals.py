"""The one way the engine tests check a refusal: the game refuses the action with this
code and status, says why in a sentence, and leaves the state it was given as it was."""

from __future__ import annotations

import copy
from functools import partial

import pytest

from companion.games.base import Game
from companion.games.errors import RuleError


def refused(game: Game, state: dict, seat: int, action: dict, code: str, status: int = 422) -> str:
    """The sentence of the refusal."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        game.apply(state, seat, action)
    assert (caught.value.code, caught.value.status) == (code, status), str(caught.value)
    assert state == before
    return str(caught.value)


def refusals_of(game: Game):
    """`refused` for one game: refused(state, seat, action, code, status=422)."""
    return partial(refused, game)

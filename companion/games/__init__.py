"""The games, each a pure module. Adding a game is one line in GAMES."""

from __future__ import annotations

from .base import Game
from .barbecue import Barbecue
from .lobo import Lobo
from .pickomino import Pickomino
from .qwixx import Qwixx
from .twentyone import TwentyOne

GAMES: dict[str, Game] = {game.slug: game for game in (Pickomino(), Barbecue(), Lobo(), TwentyOne(), Qwixx())}

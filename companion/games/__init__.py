"""The games the companion referees (and the score pad): one package each under
companion/games/ holding its engine, its templates, styles and script, its player's guides
and its scenes, found here by itself (a package with a GAME), and any game another installed
package offers under the entry point group "companion.games" (as Datasette finds its
plugins): `[project.entry-points."companion.games"] mygame = "mypackage:MyGame"`.

A family of games shares a package without a GAME (wormdice: the dice turn of Pickomino and
Heckmeck Barbecue, its templates, styles and script). Importing this module loads no Flask,
no gevent and no database: the games are pure.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib import metadata

from .base import Game

ENTRY_POINT_GROUP = "companion.games"


def _found() -> list[Game]:
    games = []
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            game = getattr(importlib.import_module(f"{__name__}.{module.name}"), "GAME", None)
            if game is not None:
                games.append(game)
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        offered = entry.load()
        games.append(offered() if isinstance(offered, type) else offered)
    return games


# By title, as a shelf is read: the start form lists them in this order.
GAMES: dict[str, Game] = {game.slug: game for game in sorted(_found(), key=lambda game: game.title.msgid.casefold())}

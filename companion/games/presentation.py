"""How a game shows itself (Game's third part): its state as each viewer may see it, the
log's sentences, what its phones say, and where its look lives: the templates, styles,
script and player's guides in its own package (and in the package of the family it builds
on, as the worm-dice games build on companion/games/wormdice/).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .text import N_, Text


class Presentation:
    # Whether every phone that only watches (not its turn, nothing to undo) sees the same
    # table: then it is rendered once per version and language for all of them. Not so
    # when a phone shows its own sheet or its own secrets.
    watchers_see_the_same_table: bool = True
    # The table page's offer to let the phone alert its player when they must act (must_act),
    # said as the game says it: the button's words, and why it asks for a tap (its title).
    alerts_offer: Text = N_("Alert me on my turn")
    alerts_offer_why: Text = N_("Tap here once so this phone can alert you when it is your turn")
    # What the page's title and a screen reader say when the player must act.
    must_act_words: Text = N_("Your turn")
    sound_switch: Text = N_("A sound when it is my turn")

    # The x-axis of the results' chart: what a point of it is (see charted).
    chart_axis: Text = N_("the game, action by action")

    def table_title(self, options: dict[str, Any]) -> Text | str:
        """What a table of this game with these `options` is called wherever the companion
        names it (its pages' headings, the lists of tables, results, exports, BG Stats,
        the players' pages, the TV): the game's title, translated; the score pad's is the
        name the host typed, shown as typed in every language."""
        return self.title

    def highest_wins(self, options: dict[str, Any]) -> bool:
        """Whether the highest score wins at a table with these `options` (BG Stats is told
        so): the score pad's host may choose the lowest (Hearts, golf)."""
        return True

    def preset_name(self, options: dict[str, Any]) -> str | None:
        """The name under which the `options` a host started a table with are saved, to be
        offered on the start form next time (service.offered_presets), or None to save nothing:
        the score pad's sheet, by its game's name. Options alike for every table (a
        checkbox or two) are not worth saving."""
        return None

    def charted(self, after: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """Whether the results' chart takes a point once `action` by `seat` made `after`:
        after every action by default; the score pad's, after each round (chart_axis)."""
        return True

    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """The `state` part of the API's table state, as `viewer` (a seat or None) may see it."""
        raise NotImplementedError

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
        """One line for the game log."""
        raise NotImplementedError

    def describe_outcome(
        self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]
    ) -> Text | None:
        """The log line of `action` by `seat` with what came of it (`before` and `after` are
        the states around it): "stopped — took 27 from the grill". None where the action's
        own line says it all (describe_action)."""
        return None

    def describe_last_turn(self, state: dict[str, Any]) -> Text | None:
        """The sentence for `state["last_turn"]` (how the last turn ended), in games whose
        public state has one (the worm-dice games)."""
        return None

    def redact_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """`action` by `seat` as the log shows it to `viewer` (a seat or None): games with
        secrets in their actions (Lobo's recorded colours) hide them here."""
        return action

    # --- its own files ---------------------------------------------------------------
    def packages(self) -> dict[str, Path]:
        """The folders of the packages this game's look comes from, by the name its
        templates are found under ("games/<name>/board.html"): each family it builds on
        (by the family's package name), then its own (by its slug)."""
        found: dict[str, Path] = {}
        for kind in reversed(type(self).__mro__):
            module = sys.modules.get(kind.__module__)
            if module is None or not getattr(module, "__path__", None):
                continue  # only a package (a folder) holds templates, styles and guides
            folder = Path(module.__file__).parent
            found[self.slug if kind is type(self) else folder.name] = folder
        return found

    def files_named(self, name: str) -> list[Path]:
        """This game's files called `name` at the top of its packages (style.css,
        script.js): its families' first, then its own."""
        return [folder / name for folder in self.packages().values() if (folder / name).is_file()]

    def guide(self, language: str) -> Path:
        """The player's guide in `language` (Markdown): guide/<language>.md in its package."""
        return self.packages()[self.slug] / "guide" / f"{language}.md"

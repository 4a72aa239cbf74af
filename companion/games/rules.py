"""A game's rules (Game's first part): who plays, the options, the setup, each action's
step, whose move it is, the end, the scores and the ranking. Pure functions over a
JSON-like state dict: no Flask, no database, no clock, no randomness inside `apply`.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .errors import MALFORMED_OPTION, MalformedAction, RuleError
from .text import N_, Text, shown


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
    # An option a table cannot start without (the score pad's title): 422 missing_option.
    required: bool = False

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


class Rules:
    """`apply` never changes the state it is given; `replay` copies once and then steps in
    place, which is how the shell rebuilds a table from its event log."""

    slug: str
    title: Text
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    bgg_id: int | None = None  # the game's BoardGameGeek id, when it has one (for exported plays)
    # Whether players take turns in seating order (the active player of Twenty One and
    # Qwixx included): then a rematch says who starts it. Lobo has no turns.
    has_turns: bool = True
    # Types of action only the host enters, undoes or redoes: they end everyone's game (the
    # score pad's end), which no player's phone decides alone.
    host_only_actions: tuple[str, ...] = ()

    def effective_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        raw = raw or {}
        if not isinstance(raw, dict):
            raise MalformedAction(N_("Options must be a JSON object."), code="malformed_request")
        known = {option.name: option for option in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise RuleError(
                "unknown_option",
                N_("%(game)s has no option called %(option)s.", game=self.title, option=shown(unknown[0])),
            )
        for name, option in known.items():
            if option.required and raw.get(name) is None:
                raise RuleError(
                    "missing_option",
                    N_("%(game)s needs the option %(option)s.", game=self.title, option=name),
                )
        return {
            name: option.check(raw[name]) if name in raw else copy.deepcopy(option.default)
            for name, option in known.items()
        }

    def deal(self, players: list[str], options: dict[str, Any], rng: random.Random) -> Any:
        """Whatever chance decides once at the start (Lobo's secret colours), drawn by the
        shell with `rng` and stored with the table; None for games without a deal."""
        return None

    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        raise NotImplementedError

    def step(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        """Apply `action` by `seat` to `state` in place, or raise RuleError.

        A step that raises may leave `state` half-changed: callers go through `apply`,
        which steps on a copy, unless the actions were all accepted before (replay).
        """
        raise NotImplementedError

    def apply(
        self, state: dict[str, Any], seat: int, action: dict[str, Any], entered_by_seat: bool = True
    ) -> dict[str, Any]:
        """A new action by `seat` on a copy of `state`: a JSON object with a "type" and no
        field its schema does not name (a field nothing reads would stay in the log for
        good), then whatever the rules say (step). `entered_by_seat` is false when another
        phone (the host's) enters it for the seat: a game with secrets must then not refuse
        on the strength of the seat's secret, which the one entering may not learn."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction(N_('An action is a JSON object with a "type".'))
        fields = self.action_fields.get(action["type"])
        unknown = None if fields is None else fields.unknown(action)  # an unknown type: the rules say so
        if unknown is not None:
            raise MalformedAction(
                N_("%(game)s actions have no field called %(field)s.", game=self.title, field=shown(".".join(unknown)))
            )
        self.check_shape(action)
        return self.reapply(state, seat, action)

    def check_shape(self, action: dict[str, Any]) -> None:
        """The types of a new action's fields, or MalformedAction (400): a malformed action
        is malformed whenever it comes, so this is checked before any rule of the moment (a
        turn, a step, the game's end). Names and bounds are the rules' (422)."""

    def as_logged(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """`action` by `seat`, accepted on `state`, as the log keeps it: with what a reader
        of the log needs to know of the moment it was entered (the score pad's round, which
        says until when its points stay hidden). By default as it was sent."""
        return action

    def reapply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """An action from the log by `seat` on a copy of `state`: the rules alone. Its fields
        were checked when it was new, or it was stored before they were, and stays readable."""
        new_state = copy.deepcopy(state)
        self.step(new_state, seat, action)
        return new_state

    def replay(self, state: dict[str, Any], moves: Iterable[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        state = copy.deepcopy(state)
        for seat, action in moves:
            self.step(state, seat, action)
        return state

    def current_seat(self, state: dict[str, Any]) -> int | None:
        raise NotImplementedError

    def is_finished(self, state: dict[str, Any]) -> bool:
        raise NotImplementedError

    def scores(self, state: dict[str, Any]) -> list[int]:
        raise NotImplementedError

    def ranking(self, state: dict[str, Any]) -> list[dict[str, Any]] | None:
        """Best first: seat, name, score, place, tiebreak (a Text or None), and detail: how
        the score is made up (the tiles held, the row scores...), shown under it."""
        raise NotImplementedError

    def actors(self, state: dict[str, Any]) -> list[int]:
        """The seats that may act now (several at once in simultaneous games)."""
        seat = self.current_seat(state)
        return [] if seat is None else [seat]

    def must_act(self, state: dict[str, Any], seat: int) -> bool:
        """Whether `seat` is awaited now (its phone tells its player): by default, whether it
        is among the seats that may act."""
        return seat in self.actors(state)

    def seat_for_host(self, state: dict[str, Any], action: Any) -> int | None:
        """The seat the host acts for when `action` names none: by default whose move it
        is. Games without turns (Lobo) answer per action, or None: the host must name one."""
        return self.current_seat(state)

    def memories(self, options: dict[str, Any], deal: Any) -> dict[int, dict[str, Any]]:
        """What a seat's player set up at this table that their next tables on this server
        start from, by seat as {key: value} (Twenty One's copied sheets); most games keep none."""
        return {}

    def recall(self, options: dict[str, Any], deal: Any, memories: list[dict[str, Any]]) -> dict[str, Any]:
        """`options` completed from `memories`, what each seat's player kept at earlier tables."""
        return options

    def rematch_options(self, options: dict[str, Any], deal: Any, order: list[int]) -> dict[str, Any]:
        """The options of a rematch whose seat `n` is this table's seat `order[n]`: options
        given per seat (Twenty One's sheets) follow their players; most games have none."""
        return options

"""What every game module provides, and the helpers they share."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Iterable

from .errors import MALFORMED_OPTION, MalformedAction, RuleError
from .schema import ApiSchemas
from .text import N_, Text, shown


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


class Game:
    """A game: pure functions over a JSON-like state dict (no Flask, no database).

    `apply` never changes the state it is given; `replay` copies once and then steps in
    place, which is how the shell rebuilds a table from its event log.
    """

    slug: str
    title: Text
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    bgg_id: int | None = None  # the game's BoardGameGeek id, when it has one (for exported plays)
    # Whether every phone that only watches (not its turn, nothing to undo) sees the same
    # table: then it is rendered once per version and language for all of them. Not so
    # when a phone shows its own sheet or its own secrets.
    watchers_see_the_same_table: bool = True
    # Whether one seat acts at a time, a turn being that seat's actions in a row (the worm
    # dice games); otherwise several seats act at once (store.redoable: what a correction
    # entered after going back replaces).
    one_seat_at_a_time: bool = False
    # The table page's offer to let the phone alert its player when they must act (must_act),
    # said as the game says it: the button's words, and why it asks for a tap (its title).
    alerts_offer: Text = N_("Alert me on my turn")
    alerts_offer_why: Text = N_("Tap here once so this phone can alert you when it is your turn")
    # What the page's title and a screen reader say when the player must act.
    must_act_words: Text = N_("Your turn")
    sound_switch: Text = N_("A sound when it is my turn")
    # Why "redo all" stopped before an action that would now end badly for its seat
    # (ends_badly) where it did not when first entered, with `name` and `line`; set by the
    # games where an action can end badly.
    redo_ends_badly: Text | None = None
    # The refusal of an action the host enters for `name` while it is not theirs to make
    # (the rules' own sentence says "not you" to the seat), with `turn` the current seat.
    host_out_of_turn: Text = N_("It is %(turn)s's turn, not %(name)s's.")

    # --- options -------------------------------------------------------------------
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
        return {
            name: option.check(raw[name]) if name in raw else copy.deepcopy(option.default)
            for name, option in known.items()
        }

    def api_schemas(self) -> ApiSchemas:
        """The game's part of the JSON API (games/schema.py): its options, actions, state."""
        raise NotImplementedError

    def scenes(self) -> dict[str, Scene]:
        """Named points of a game (Scene), "start" and "finished" among them."""
        raise NotImplementedError

    # --- the engine ----------------------------------------------------------------
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

    def reapply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """An action from the log by `seat` on a copy of `state`: the rules alone. Its fields
        were checked when it was new, or it was stored before they were, and stays readable."""
        new_state = copy.deepcopy(state)
        self.step(new_state, seat, action)
        return new_state

    # Fields the API's schemas name, shared with another game, that nothing here reads.
    fields_not_read: tuple[str, ...] = ()

    @cached_property
    def action_fields(self) -> dict[str, Fields]:
        """The fields each type of action may hold, as the game's schemas name them."""
        schemas = self.api_schemas()
        return {
            schema["properties"]["type"]["const"]: Fields.of(schema, schemas.named).without(*self.fields_not_read)
            for schema in schemas.actions.values()
        }

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

    def ends_badly(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
        """Whether the action of `seat` that made `after` of `before` ended badly for them (a
        failed turn, a penalty). "Redo all" stops before an action that would now end badly
        where it did not when first entered (tables/service.redo): going back changed what
        it meant, and the host decides."""
        return False

    def describe_last_turn(self, state: dict[str, Any]) -> Text | None:
        """The sentence for `state["last_turn"]` (how the last turn ended), in games whose
        public state has one (the worm-dice games)."""
        return None

    def seat_for_host(self, state: dict[str, Any], action: Any) -> int | None:
        """The seat the host acts for when `action` names none: by default whose move it
        is. Games without turns (Lobo) answer per action, or None: the host must name one."""
        return self.current_seat(state)

    def redone(self, action: dict[str, Any]) -> dict[str, Any]:
        """`action` as a redo enters it again: without what only tells which page it was
        tapped on (Twenty One's roll and row seen), since going back to correct an earlier
        action changes what later pages showed, and the redo is meant on top of it."""
        return action

    def redact_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """`action` by `seat` as the log shows it to `viewer` (a seat or None): games with
        secrets in their actions (Lobo's recorded colours) hide them here."""
        return action

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

    def tap_depends_on(
        self, state: dict[str, Any], seat: int, action: dict[str, Any], earlier_seat: int, earlier_action: dict[str, Any]
    ) -> bool:
        """Whether a tap of `action` by `seat`, on a page shown before `earlier_action` (by
        `earlier_seat`) was accepted, depends on that action: only then is the page out of
        date and the tap refused. In turn-based games every change matters."""
        return True

    # --- corrections (store.redoable: what an action entered after going back replaces) ---
    def correction_kind(self, action: dict[str, Any]) -> Any:
        """Where seats act at once: which of a seat's undone actions an action entered anew
        replaces, those of the same kind (by default its type)."""
        return action.get("type")

    def starts_round(self, action: dict[str, Any]) -> bool:
        """Where seats act at once: whether `action` starts a new round (what was left undone
        of the round before cannot be redone after it)."""
        return False

    def must_act(self, state: dict[str, Any], seat: int) -> bool:
        """Whether `seat` is awaited now (its phone tells its player): by default, whether it
        is among the seats that may act."""
        return seat in self.actors(state)

    def actors(self, state: dict[str, Any]) -> list[int]:
        """The seats that may act now (several at once in simultaneous games)."""
        seat = self.current_seat(state)
        return [] if seat is None else [seat]


@dataclass(frozen=True)
class Fields:
    """What a request's JSON may hold, read from a JSON schema: an object's fields by name
    (None where the schema names none) and an array's items (None where it says none)."""

    named: dict[str, Fields] | None = None
    items: Fields | None = None

    @classmethod
    def of(cls, schema: dict[str, Any], named_schemas: dict[str, dict[str, Any]]) -> Fields:
        """The fields of `schema`, whose $refs name schemas of `named_schemas`."""
        if "$ref" in schema:
            return cls.of(named_schemas[schema["$ref"].removeprefix("#/components/schemas/")], named_schemas)
        properties = schema.get("properties")
        return cls(
            None if properties is None else {name: cls.of(inner, named_schemas) for name, inner in properties.items()},
            cls.of(schema["items"], named_schemas) if "items" in schema else None,
        )

    def without(self, *names: str) -> Fields:
        """These fields but `names`, of an object's."""
        if self.named is None or not names:
            return self
        return replace(self, named={key: inner for key, inner in self.named.items() if key not in names})

    def unknown(self, value: Any, path: tuple[str, ...] = ()) -> tuple[str, ...] | None:
        """The path to the first field of `value` these fields do not name, or None. Values
        of the wrong kind are left to the rules, which refuse them with their own sentence."""
        if isinstance(value, dict) and self.named is not None:
            for key, inner in value.items():
                found = (*path, key) if key not in self.named else self.named[key].unknown(inner, (*path, key))
                if found is not None:
                    return found
        elif isinstance(value, list) and self.items is not None:
            for index, inner in enumerate(value):
                found = self.items.unknown(inner, (*path, str(index)))
                if found is not None:
                    return found
        return None


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

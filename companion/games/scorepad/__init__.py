"""Score pad: docs/rules.md (Score pad). A score sheet for any game the companion does not
referee (Azul, Wingspan, 7 Wonders, a card game): the host names the game and picks its
sheet, one number per round or a number per category (or both), and the companion keeps it.

Every round each seat enters its own points, all at the same time; an entry stays hidden
from the other seats until the round closes, which it does when every seat has entered
(`entries` holds the round in progress, `rounds` the closed ones). The game ends when a
round closes after the rounds to play, or with a total at the target, or when the host ends
it between rounds. Highest total wins, or lowest; ties are shared, or broken by the last
round or by a category.

Longer than 400 lines on purpose: a game is one module (docs: "How it is built"), so its
engine, its sentences, its part of the API's description and its scenes stay together.
"""

from __future__ import annotations

from typing import Any

from ..names import BROKEN, CONTROL, clean_name, look_of_name, text_problem
from ..base import THREE, TWO, Game, Option, Scene, explain_ties, rank
from ..errors import MALFORMED_OPTION, MalformedAction, RuleError
from ..schema import SEAT, ApiSchemas, action, array, nullable, obj
from ..text import N_, NP_, Text, listing, shown

TITLE_LENGTH = 60
CATEGORY_LENGTH = 40
MOST_CATEGORIES = 20
MOST_ROUNDS = 100  # a sheet with no number of rounds still ends: no game on a shelf goes further
POINTS_LIMIT = 1_000_000  # an entry's points, and each category's, from -POINTS_LIMIT to POINTS_LIMIT
SHARED, LAST_ROUND = "shared", "last_round"  # tie_break, besides a category's name
SCORE, END = "score", "end"

# Why the game ended (state "ended")
END_ROUNDS, END_TARGET, END_BY_HOST, END_MOST_ROUNDS = "rounds", "target", "host", "most_rounds"


# --- options ----------------------------------------------------------------------------------
def typed_text(value: Any, length: int, what: Text, sentences: dict[str, Text]) -> str:
    """A text a player typed for everyone to read, as it is kept: trimmed, in one Unicode
    form, visible, at most `length` characters. `sentences` say what is wrong with it:
    "empty", "long", and names.text_problem's findings (their own sentence otherwise)."""
    if not isinstance(value, str):
        raise MalformedAction(what, code=MALFORMED_OPTION)
    text = clean_name(value)
    if not text:
        raise RuleError("text_empty", sentences["empty"])
    problem = text_problem(text)
    if problem == BROKEN:
        raise RuleError("text_invalid", N_("This text holds broken characters: type it again."))
    if problem == CONTROL:
        raise RuleError("text_invalid", N_("This text cannot hold control characters (line breaks, tabs, direction marks)."))
    if problem is not None:
        raise RuleError("text_empty", sentences["empty"])
    if len(text) > length:
        raise RuleError("text_too_long", sentences["long"])
    return text


TITLE_SHAPE = N_("The option title is the game's name, as text.")
TITLE_SENTENCES = {
    "empty": N_("Name the game: 1 to %(most)s characters.", most=TITLE_LENGTH),
    "long": N_("A game's name has at most %(most)s characters.", most=TITLE_LENGTH),
}


def form_field(value: Any, field: str) -> Any:
    """The start form sends an option as fields <slug>.<option>.<field> (web/pages.py); the
    JSON API sends the value itself."""
    if isinstance(value, dict):
        return value.get(field)
    return value


def check_title(value: Any) -> str | None:
    """The name typed (required: Option.required refuses a table without it); blank is
    refused with a sentence."""
    if isinstance(value, dict):  # the start form's field, blank or not
        value = value.get("text", "")
    return typed_text(value, TITLE_LENGTH, TITLE_SHAPE, TITLE_SENTENCES)


CATEGORIES_SHAPE = N_("The option categories is a list of names, or null.")
CATEGORY_SENTENCES = {
    "empty": N_("Every category needs a name of 1 to %(most)s characters.", most=CATEGORY_LENGTH),
    "long": N_("A category's name has at most %(most)s characters.", most=CATEGORY_LENGTH),
}


def check_categories(value: Any) -> list[str] | None:
    if isinstance(value, dict):  # the start form: one name per line, blank lines left out
        lines = value.get("lines")
        if not isinstance(lines, str):
            raise MalformedAction(CATEGORIES_SHAPE, code=MALFORMED_OPTION)
        value = [line for line in lines.splitlines() if line.strip()] or None
    if value is None:
        return None
    if not isinstance(value, list):
        raise MalformedAction(CATEGORIES_SHAPE, code=MALFORMED_OPTION)
    if not 1 <= len(value) <= MOST_CATEGORIES:
        raise RuleError(
            "category_count",
            N_("A sheet has 1 to %(most)s categories, or none (one score per round).", most=MOST_CATEGORIES),
        )
    names = [typed_text(name, CATEGORY_LENGTH, CATEGORIES_SHAPE, CATEGORY_SENTENCES) for name in value]
    seen: set[str] = set()
    for name in names:
        if look_of_name(name) in seen:
            raise RuleError("duplicate_category", N_("Two categories are called %(name)s: give them different names.", name=name))
        seen.add(look_of_name(name))
    return names


def whole_number_or_none(value: Any, field: str, wrong: Text, code: str) -> int | None:
    """A number typed on the start form (blank: none) or sent as JSON (null: none)."""
    value = form_field(value, field)
    if value is None or value == "":
        return None
    if not is_whole(value):
        if isinstance(value, str):  # typed, and not a whole number
            raise RuleError(code, wrong)
        raise MalformedAction(wrong, code=MALFORMED_OPTION)
    return value


ROUNDS_WRONG = N_("The number of rounds is a whole number from 1 to %(most)s, or none.", most=MOST_ROUNDS)


def check_rounds(value: Any) -> int | None:
    rounds = whole_number_or_none(value, "count", ROUNDS_WRONG, "invalid_rounds")
    if rounds is not None and not 1 <= rounds <= MOST_ROUNDS:
        raise RuleError("invalid_rounds", ROUNDS_WRONG)
    return rounds


def check_target(value: Any) -> int | None:
    return whole_number_or_none(value, "points", N_("The target is a whole number of points, or none."), "invalid_target")


TIE_BREAK_SHAPE = N_('The option tie_break is "shared", "last_round" or the name of a category.')


def check_tie_break(value: Any) -> str:
    """SHARED, LAST_ROUND or a category's name as typed (effective_options finds the category)."""
    if isinstance(value, dict):  # the start form: {"rule": shared | last_round | category, "category": name}
        rule = value.get("rule")
        if rule == "category":
            value = value.get("category") or ""
        elif rule in (SHARED, LAST_ROUND, None):
            value = rule or SHARED
        else:
            raise MalformedAction(TIE_BREAK_SHAPE, code=MALFORMED_OPTION)
    if value is None:
        return SHARED
    if not isinstance(value, str):
        raise MalformedAction(TIE_BREAK_SHAPE, code=MALFORMED_OPTION)
    if value in (SHARED, LAST_ROUND):
        return value
    return typed_text(
        value, CATEGORY_LENGTH, TIE_BREAK_SHAPE,
        {"empty": N_("Name the category that breaks ties."), "long": CATEGORY_SENTENCES["long"]},
    )


# --- the sheet ------------------------------------------------------------------------------------
def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def entry_total(points: int | dict[str, int]) -> int:
    """What an entry adds to its seat's total: its points, or the sum of its categories."""
    return points if isinstance(points, int) else sum(points.values())


def totals(state: dict[str, Any]) -> list[int]:
    return [sum(entry_total(closed["points"][seat]) for closed in state["rounds"]) for seat in range(len(state["players"]))]


def category_totals(state: dict[str, Any]) -> list[dict[str, int]] | None:
    """Per seat, each category's points over the closed rounds; None without categories."""
    if state["categories"] is None:
        return None
    return [
        {category: sum(closed["points"][seat][category] for closed in state["rounds"]) for category in state["categories"]}
        for seat in range(len(state["players"]))
    ]


def added(points: list[int]) -> Text | int:
    """"12 + 7 + 9", each number written the reader's way."""
    head: Text | int = points[0]
    for item in points[1:]:
        head = N_("%(head)s + %(next)s", head=head, next=item)
    return head


def each_with(names: list[str], values: list[int]) -> Text:
    """"Ana 12, Bruno 9": each tied player's decisive number."""
    head = N_("%(name)s %(points)s", name=names[0], points=values[0])
    for name, value in zip(names[1:], values[1:]):
        head = N_("%(head)s, %(next)s", head=head, next=N_("%(name)s %(points)s", name=name, points=value))
    return head


class ScorePad(Game):
    slug = "score-pad"
    title = N_("Score pad")
    min_players = 2
    max_players = 12
    watchers_see_the_same_table = False  # each phone shows its own entry of the round
    secret_redone_unseen = True  # a redo enters hidden points unseen, and nothing refuses them for their value
    host_only_actions = (END,)
    alerts_offer = N_("Tap here once so this phone can alert you when it is time to enter your points")
    must_act_words = N_("Enter your points")
    sound_switch = N_("A sound when it is time to enter my points")
    chart_axis = N_("the game, round by round")
    points_limit = POINTS_LIMIT
    options = (
        Option(
            "title",
            None,
            N_("Title"),
            N_("The game's name, as you want to read it on every page (1 to 60 characters)."),
            check_title,
            typed=True,
            required=True,
        ),
        Option(
            "categories",
            None,
            N_("Categories"),
            N_("One per line (7 Wonders: military, coins, wonder…): each player fills a column of them. Leave empty for one score per round."),
            check_categories,
            typed=True,
        ),
        Option(
            "rounds",
            None,
            N_("Rounds"),
            N_("The game ends when this round closes (1 for a single final count). Leave empty when the host ends it, or the target does."),
            check_rounds,
        ),
        Option(
            "target",
            None,
            N_("Target"),
            N_("The game ends when the round in which a total reaches it closes. Leave empty for none."),
            check_target,
        ),
        Option("lowest_wins", False, N_("Lowest total wins"), N_("As in Hearts or golf.")),
        Option(
            "tie_break",
            SHARED,
            N_("Ties"),
            N_("Shared, or the better last round decides, or a category decides (the most in it, the fewest when the lowest total wins)."),
            check_tie_break,
            typed=True,
        ),
    )

    # --- setting up ---------------------------------------------------------------------------
    def effective_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Each option checked alone (Option.check), then together: a tie-break by category
        needs a category of the sheet (its name as the sheet spells it)."""
        options = super().effective_options(raw)
        tie_break = options["tie_break"]
        if tie_break not in (SHARED, LAST_ROUND):
            found = [name for name in options["categories"] or [] if look_of_name(name) == look_of_name(tie_break)]
            if not found:
                raise RuleError(
                    "unknown_tie_break",
                    N_("Ties are broken by a category of the sheet, and it has none called %(name)s.", name=shown(tie_break)),
                )
            options["tie_break"] = found[0]
        return options

    def setup(self, players: list[str], options: dict[str, Any], deal: Any = None) -> dict[str, Any]:
        return {
            "players": list(players),
            "title": options["title"],
            "categories": options["categories"],
            "rounds_to_play": options["rounds"],
            "target": options["target"],
            "lowest_wins": options["lowest_wins"],
            "tie_break": options["tie_break"],
            "round": 1,  # in progress; once the game is over, the last one played
            "entries": [None] * len(players),  # this round's, by seat, until it closes
            "rounds": [],  # closed: {"round": n, "points": [by seat]}
            "ended": None,  # END_ROUNDS, END_TARGET, END_BY_HOST or END_MOST_ROUNDS
        }

    # --- reading the state --------------------------------------------------------------------
    def is_finished(self, state: dict[str, Any]) -> bool:
        return state["ended"] is not None

    def current_seat(self, state: dict[str, Any]) -> int | None:
        return None  # no turns: every seat enters its own points at the same time

    def actors(self, state: dict[str, Any]) -> list[int]:
        if self.is_finished(state):
            return []
        return [seat for seat, entry in enumerate(state["entries"]) if entry is None]

    def seat_for_host(self, state: dict[str, Any], action: Any) -> int | None:
        """The end is nobody's in particular: logged under the first seat, marked as entered
        by the host (as Lobo's). Points are a seat's own: the one seat still to enter, else
        the host names the seat."""
        if isinstance(action, dict) and action.get("type") == END:
            return 0
        waiting = self.actors(state)
        return waiting[0] if len(waiting) == 1 else None

    def scores(self, state: dict[str, Any]) -> list[int]:
        return totals(state)

    def entry_total(self, points: int | dict[str, int]) -> int:
        return entry_total(points)

    def table_title(self, options: dict[str, Any]) -> Text | str:
        return options.get("title") or self.title

    def highest_wins(self, options: dict[str, Any]) -> bool:
        return not options.get("lowest_wins", False)

    def preset_name(self, options: dict[str, Any]) -> str | None:
        return options.get("title")

    def charted(self, after: dict[str, Any], seat: int, action: dict[str, Any]) -> bool:
        """A point of the chart per closed round: the totals move only then."""
        return action.get("type") == SCORE and all(entry is None for entry in after["entries"])

    # --- actions --------------------------------------------------------------------------
    def check_shape(self, action: dict[str, Any]) -> None:
        if action["type"] != SCORE:
            return
        points = action.get("points")
        if not (is_whole(points) or (isinstance(points, dict) and points and all(is_whole(value) for value in points.values()))):
            raise MalformedAction(
                N_('"points" is a whole number, or on a sheet with categories an object with a whole number for each category.')
            )
        if "round" in action and not is_whole(action["round"]):
            raise MalformedAction(N_('"round" is the number of the round the points are for.'))

    def as_logged(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """Points are kept with the round they were entered in: until it closes they are
        hidden from the other seats (redact_action)."""
        if action.get("type") == SCORE and "round" not in action:
            return {**action, "round": state["round"]}
        return action

    def step(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        if self.is_finished(state):
            raise RuleError("game_over", N_("The game is over."))
        kind = action["type"]
        if kind == SCORE:
            self._score(state, seat, action)
        elif kind == END:
            self._end(state)
        else:
            raise RuleError("unknown_action", N_("The score pad has no action %(type)s.", type=shown(kind)))

    def _score(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        entered_for = action.get("round")
        if entered_for is not None and entered_for != state["round"]:
            raise RuleError(
                "not_current_round",
                N_("These points are for round %(round)s, and round %(current)s is the one in progress.",
                   round=entered_for, current=state["round"]),
            )
        if state["entries"][seat] is not None:
            raise RuleError(
                "already_entered",
                N_("%(name)s has entered their points for round %(round)s already: to change them, undo that entry.",
                   name=state["players"][seat], round=state["round"]),
            )
        state["entries"][seat] = self._points(state, action["points"])
        if all(entry is not None for entry in state["entries"]):
            self._close_round(state)

    def _points(self, state: dict[str, Any], points: Any) -> int | dict[str, int]:
        categories = state["categories"]
        if categories is None and not isinstance(points, int):
            raise RuleError("no_categories", N_("This sheet has no categories: enter one number, the round's points."))
        if categories is not None and isinstance(points, int):
            raise RuleError("points_by_category", N_("This sheet has categories: enter a number for each of them."))
        values = [points] if isinstance(points, int) else list(points.values())
        for value in values:
            if not -POINTS_LIMIT <= value <= POINTS_LIMIT:
                raise RuleError(
                    "points_out_of_range",
                    N_("Points go from %(least)s to %(most)s: %(points)s is beyond.", least=-POINTS_LIMIT, most=POINTS_LIMIT, points=value),
                )
        if isinstance(points, int):
            return points
        unknown = [name for name in points if name not in categories]
        if unknown:
            raise RuleError("unknown_category", N_("This sheet has no category called %(name)s.", name=shown(unknown[0])))
        missing = [name for name in categories if name not in points]
        if missing:
            raise RuleError("missing_category", N_("Enter a number for every category: %(name)s has none.", name=missing[0]))
        return {name: points[name] for name in categories}  # in the sheet's order

    def _close_round(self, state: dict[str, Any]) -> None:
        closed = state["round"]
        state["rounds"].append({"round": closed, "points": state["entries"]})
        state["entries"] = [None] * len(state["players"])
        if state["rounds_to_play"] is not None and closed >= state["rounds_to_play"]:
            state["ended"] = END_ROUNDS
        elif state["target"] is not None and max(totals(state)) >= state["target"]:
            state["ended"] = END_TARGET
        elif closed >= MOST_ROUNDS:
            state["ended"] = END_MOST_ROUNDS
        else:
            state["round"] = closed + 1

    def _end(self, state: dict[str, Any]) -> None:
        entered = [state["players"][seat] for seat, entry in enumerate(state["entries"]) if entry is not None]
        if entered:
            raise RuleError(
                "round_half_entered",
                N_("Round %(round)s is half entered (%(names)s): the game ends between rounds, once everyone has entered, or once those entries are undone.",
                   round=state["round"], names=listing(entered)),
            )
        if not state["rounds"]:
            raise RuleError("no_round_played", N_("No round is over yet: the game ends after a round."))
        state["ended"] = END_BY_HOST
        state["round"] = state["rounds"][-1]["round"]

    def tap_depends_on(self, state, seat, action, earlier_seat, earlier_action) -> bool:
        """Everyone enters at once: another seat's points change nothing a tap here meant. The
        seat's own entry (made from another phone) does, and the end touches everyone."""
        return earlier_seat == seat or END in (action.get("type"), earlier_action.get("type"))

    def others_touched(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> Any:
        """An entry never changes another seat's points: the round it closes only shows them.
        (By default "redo all" would stop before each round's last entry, after a
        correction, since the totals it moves changed.)"""
        return ()

    # --- words ------------------------------------------------------------------------------
    def public_state(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """The closed rounds are everyone's; of the round in progress, who has entered, and
        to each seat its own points."""
        return {
            "title": state["title"],
            "categories": state["categories"],
            "round": state["round"],
            "rounds_to_play": state["rounds_to_play"],
            "target": state["target"],
            "waiting_for": self.actors(state),
            "entered": [seat for seat, entry in enumerate(state["entries"]) if entry is not None],
            "entry": state["entries"][viewer] if viewer is not None else None,
            "rounds": [{"round": closed["round"], "points": list(closed["points"])} for closed in state["rounds"]],
            "totals": totals(state),
            "category_totals": category_totals(state),
            "ended": self.is_finished(state),
            "end_reason": state["ended"],
        }

    def redact_action(self, state: dict[str, Any], seat: int, action: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """Points of a round not closed yet (the one in progress, or a later one the host went
        back over) are their seat's alone until it closes."""
        if action.get("type") != SCORE or seat == viewer or self.is_finished(state):
            return action
        entered_for = action.get("round")
        if entered_for is not None and entered_for < state["round"]:
            return action
        return {**action, "points": None}

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
        if action.get("type") == END:
            return N_("ended the game.")
        points, entered_for = action.get("points"), action.get("round") or state["round"]
        single = state["rounds_to_play"] == 1  # one final count: no round to name
        if points is None:
            return N_("entered their points.") if single else N_("entered their points for round %(round)s.", round=entered_for)
        total = entry_total(points)
        if single:
            return NP_("entered %(num)s point.", "entered %(num)s points.", total)
        return NP_("entered %(num)s point for round %(round)s.", "entered %(num)s points for round %(round)s.", total, round=entered_for)

    def describe_outcome(self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]) -> Text | None:
        """The end, with the round it came after; and the entry that ended the game, without
        its points (a line every phone reads alike, kept as it is)."""
        if action.get("type") == END:
            return N_("ended the game after round %(round)s.", round=after["round"])
        if after["ended"] is None:
            return None
        single = before["rounds_to_play"] == 1
        line = N_("entered their points") if single else N_("entered their points for round %(round)s", round=before["round"])
        reason = {
            END_ROUNDS: N_("every round is played") if not single else N_("everyone has entered"),
            END_TARGET: N_("a total reached the target, %(target)s", target=after["target"]),
            END_MOST_ROUNDS: N_("%(most)s rounds is the most a score pad keeps", most=MOST_ROUNDS),
        }[after["ended"]]
        return N_("%(line)s — the game is over: %(reason)s.", line=line, reason=reason)

    def ranking(self, state: dict[str, Any]) -> list[dict[str, Any]] | None:
        if not self.is_finished(state):
            return None
        by_category = category_totals(state)
        tie_break = state["tie_break"]
        better = -1 if state["lowest_wins"] else 1  # the key rank() sorts by: higher is better
        entries = []
        for seat, (name, total) in enumerate(zip(state["players"], totals(state))):
            if tie_break == LAST_ROUND:
                decider = entry_total(state["rounds"][-1]["points"][seat])
            elif tie_break != SHARED:
                decider = by_category[seat][tie_break]
            else:
                decider = 0
            if by_category is None:
                detail = N_("rounds: %(points)s", points=added([entry_total(closed["points"][seat]) for closed in state["rounds"]]))
            else:
                detail = listing([N_("%(category)s %(points)s", category=name_, points=points) for name_, points in by_category[seat].items()])
            entries.append({"seat": seat, "name": name, "score": total, "detail": detail, "decider": decider})
        ordered = rank(entries, key=lambda entry: (better * entry["score"], better * entry["decider"]))
        return explain_ties(ordered, lambda tied, entry: self._tie_sentence(state, tied), helper_keys=("decider",))

    def _tie_sentence(self, state: dict[str, Any], tied: list[dict[str, Any]]) -> Text:
        names, score = listing([entry["name"] for entry in tied]), tied[0]["score"]
        deciders = [entry["decider"] for entry in tied]
        tie_break = state["tie_break"]
        if tie_break == SHARED:
            return NP_("%(names)s tied on %(num)s point: they share the place.",
                       "%(names)s tied on %(num)s points: they share the place.", score, names=names)
        scores = each_with([entry["name"] for entry in tied], deciders)
        if tie_break == LAST_ROUND:
            if len(set(deciders)) == 1:
                return NP_("%(names)s tied on %(num)s point and scored the same in the last round (%(last)s): they share the place.",
                           "%(names)s tied on %(num)s points and scored the same in the last round (%(last)s): they share the place.",
                           score, names=names, last=deciders[0])
            if len(set(deciders)) < len(deciders):
                return NP_("%(names)s tied on %(num)s point; the last round decided (%(scores)s), and those who scored the same in it share the place.",
                           "%(names)s tied on %(num)s points; the last round decided (%(scores)s), and those who scored the same in it share the place.",
                           score, names=names, scores=scores)
            return NP_("%(names)s tied on %(num)s point; the last round decided (%(scores)s).",
                       "%(names)s tied on %(num)s points; the last round decided (%(scores)s).", score, names=names, scores=scores)
        if len(set(deciders)) == 1:
            return NP_("%(names)s tied on %(num)s point and have the same in %(category)s (%(points)s): they share the place.",
                       "%(names)s tied on %(num)s points and have the same in %(category)s (%(points)s): they share the place.",
                       score, names=names, category=tie_break, points=deciders[0])
        if state["lowest_wins"]:
            decided = N_("the fewest in %(category)s decided (%(scores)s)", category=tie_break, scores=scores)
        else:
            decided = N_("the most in %(category)s decided (%(scores)s)", category=tie_break, scores=scores)
        if len(set(deciders)) < len(deciders):
            return NP_("%(names)s tied on %(num)s point; %(decided)s, and those with the same in it share the place.",
                       "%(names)s tied on %(num)s points; %(decided)s, and those with the same in it share the place.",
                       score, names=names, decided=decided)
        return NP_("%(names)s tied on %(num)s point; %(decided)s.", "%(names)s tied on %(num)s points; %(decided)s.",
                   score, names=names, decided=decided)

    # --- the API and the scenes ------------------------------------------------------------
    def api_schemas(self) -> ApiSchemas:
        points = {"type": "integer", "minimum": -POINTS_LIMIT, "maximum": POINTS_LIMIT}
        by_category = {"type": "object", "additionalProperties": points, "minProperties": 1, "maxProperties": MOST_CATEGORIES}
        entry = {"anyOf": [points, by_category]}
        category = {"type": "string", "minLength": 1, "maxLength": CATEGORY_LENGTH}
        categories = nullable(array(category, minItems=1, maxItems=MOST_CATEGORIES, uniqueItems=True))
        rounds = nullable({"type": "integer", "minimum": 1, "maximum": MOST_ROUNDS})
        title = {"type": "string", "minLength": 1, "maxLength": TITLE_LENGTH}
        tie_break = {"type": "string", "minLength": 1, "description": '"shared", "last_round" or a category\'s name.'}
        return ApiSchemas(
            options_request=obj(
                {
                    "title": title | {"description": "The game's name as the host types it: visible Unicode, shown as typed "
                                      "(required: 422 missing_option without it)."},
                    "categories": categories | {"description": "Distinct names, or null: one score per round."},
                    "rounds": rounds | {"description": "The game ends when this round closes; null: no number."},
                    "target": nullable({"type": "integer"}) | {"description": "The game ends when the round in which a total reaches it closes."},
                    "lowest_wins": {"type": "boolean"},
                    "tie_break": tie_break,
                },
                required=["title"],
                additionalProperties=False,
            ),
            options=obj(
                {
                    "title": title, "categories": categories, "rounds": rounds, "target": nullable({"type": "integer"}),
                    "lowest_wins": {"type": "boolean"}, "tie_break": tie_break,
                }
            ),
            state=obj(
                {
                    "title": title,
                    "categories": categories,
                    "round": {"type": "integer", "minimum": 1, "description": "The round in progress (finished: the last one played)."},
                    "rounds_to_play": rounds,
                    "target": nullable({"type": "integer"}),
                    "waiting_for": array(SEAT, description="Seats yet to enter this round."),
                    "entered": array(SEAT, description="Seats that entered this round: their points stay hidden from the others until it closes."),
                    "entry": nullable(entry) | {"description": "The reader's own points for the round in progress, once entered."},
                    "rounds": array(
                        obj({"round": {"type": "integer", "minimum": 1}, "points": array(entry, description="By seat.")}),
                        description="The closed rounds.",
                    ),
                    "totals": array({"type": "integer"}, description="By seat: the closed rounds' points."),
                    "category_totals": nullable(array({"type": "object", "additionalProperties": {"type": "integer"}})),
                    "ended": {"type": "boolean"},
                    "end_reason": nullable({"enum": [END_ROUNDS, END_TARGET, END_BY_HOST, END_MOST_ROUNDS]}),
                },
                required=["title", "round", "waiting_for", "rounds", "entered"],
            ),
            actions={
                "ScorePadScore": action(
                    SCORE,
                    "score-pad: a seat's points for the round in progress, once per round, any seat in any order "
                    "(with categories, a whole number for each). The round closes when every seat has entered.",
                    {
                        "points": entry,
                        "round": {"type": "integer", "minimum": 1, "description": "The round they are for (422 not_current_round otherwise)."},
                    },
                    ["points"],
                ),
                "ScorePadEnd": action(
                    END, "score-pad, the host only: end the game after the last closed round, when no round is half entered."
                ),
            },
        )

    def scenes(self) -> dict[str, Scene]:
        # Titles and categories of digits and symbols: a player's typed words stay as typed in
        # every language, and the pages in every language are checked for English left.
        dice = {"title": "10000", "target": 10000}
        wonders = {"title": "7 🏛", "categories": list(WONDERS), "rounds": 1, "tie_break": "🪙"}
        by_last_round = {**dice, "tie_break": LAST_ROUND}
        hearts = {"title": "♥", "target": 100, "lowest_wins": True}
        return {
            "start": Scene(THREE, options=dice),
            "round-half-entered": Scene(THREE, ((0, score(350)),), dice, seen_by=1),
            "categories": Scene(THREE, ((0, score(wonder_points(0))),), wonders, seen_by=2),
            # 10,000 each after two rounds: Bruno's 6,000 in the last one beats Ana's 5,000
            "tie-by-last-round": Scene(TWO, rounds_of([5000, 4000], [5000, 6000]), by_last_round),
            # Ana and Bruno tie on 50: Ana's 6 coins beat Bruno's 3; Caio has 49
            "tie-by-category": Scene(THREE, rounds_of([wonder_points(seat) for seat in range(3)]), wonders),
            "rounds-closed": Scene(THREE, rounds_of([350, 0, 1200], [800, 450, 0]) + ((1, score(300)),), dice, seen_by=1),
            # Hearts: Ana passes 100; Bruno and Caio tie on the lowest total, 40, and share it
            "finished": Scene(THREE, rounds_of([26, 0, 10], [26, 10, 0], [26, 20, 20], [26, 10, 10]), hearts),
        }

    def screen_scenes(self, names: tuple[str, ...]) -> dict[str, Scene]:
        """Late: eleven rounds closed and the twelfth half entered (a long game of Azul).
        Finished: a game of 7 Wonders where every pair of seats ties, the first pair broken by
        coins, the others sharing."""
        players = len(names)
        late = tuple(range(1, 12))
        azul = {"title": "Azul", "tie_break": LAST_ROUND}
        rounds = [[(seat * 7 + turn * 13) % 29 for seat in range(players)] for turn in late]
        half = ((seat, score(seat + 3)) for seat in range(players // 2))
        wonders = {"title": "7 Wonders", "categories": ["Military", "Coins", "Wonder", "Civilian", "Commerce", "Guilds", "Science"],
                   "rounds": 1, "tie_break": "Coins"}
        sheets = []
        for seat in range(players):  # seats in pairs: the first pair 50 each, the next ones 47, 46…
            pair, second = divmod(seat, 2)
            first = pair == 0
            sheets.append({"Military": 9 if first else 7 - pair, "Coins": 6 - 3 * second if first else 4, "Wonder": 10,
                           "Civilian": 12 + 3 * second if first else 12, "Commerce": 5, "Guilds": 0, "Science": 8})
        return {
            "late": Scene(names, rounds_of(*rounds) + tuple(half), azul),
            "finished": Scene(names, tuple((seat, score(sheet)) for seat, sheet in enumerate(sheets)), wonders),
        }


# 7 Wonders' categories as the score sheet draws them: military, coins, wonder, civilian,
# commerce, guilds, science.
WONDERS = ("⚔", "🪙", "🏛", "🟦", "🟨", "🟪", "🔬")


def wonder_points(seat: int) -> dict[str, int]:
    """Ana 50 with 6 coins, Bruno 50 with 3, Caio 49."""
    return dict(zip(WONDERS, ([5, 6, 10, 12, 5, 4, 8], [5, 3, 10, 15, 5, 4, 8], [4, 4, 10, 12, 5, 6, 8])[seat]))


def score(points: int | dict[str, int]) -> dict[str, Any]:
    return {"type": SCORE, "points": points}


def rounds_of(*rounds: list[Any]) -> tuple[tuple[int, dict[str, Any]], ...]:
    """Each round's points entered seat by seat, the last seat closing it."""
    return tuple((seat, score(points)) for entries in rounds for seat, points in enumerate(entries))


GAME = ScorePad()

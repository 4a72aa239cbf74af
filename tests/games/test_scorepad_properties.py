"""Random score pads (docs/rules.md (Score pad)): random sheets (a score per round or
categories, a number of rounds or a target or neither, the highest or the lowest total
winning, each tie-break), random seats entering random points in random order, the host
ending between rounds now and then, with mistakes thrown in that must be refused, state
untouched.

After every accepted action: each total is the sum of that seat's points over the closed
rounds (counted here from the accepted entries, not by the engine); an entry of the round
in progress never reaches another seat (its points could be anything: nothing any other
reader sees changes, neither the table nor the log); the game is over exactly when its
rounds, its target, round 100 or the host end it. Every game ends, and replaying the
accepted actions gives the same state.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.games.scorepad import MOST_ROUNDS, POINTS_LIMIT, ScorePad

GAME = ScorePad()
CATEGORIES = ["Military", "Coins", "Wonder", "Science"]

sheets = st.fixed_dictionaries(
    {
        "title": st.sampled_from(["Azul", "Wingspan", "♥", "7 Wonders"]),
        "categories": st.one_of(st.none(), st.integers(1, len(CATEGORIES)).map(lambda count: CATEGORIES[:count])),
        "rounds": st.one_of(st.none(), st.integers(1, 8)),
        "target": st.one_of(st.none(), st.integers(-20, 400)),
        "lowest_wins": st.booleans(),
        "tie_break": st.sampled_from(["shared", "last_round", "Coins"]),
    }
).map(lambda sheet: {**sheet, "tie_break": "shared"} if sheet["tie_break"] == "Coins" and "Coins" not in (sheet["categories"] or []) else sheet)


def points(state, rng: random.Random):
    small = lambda: rng.choice([rng.randint(-5, 60), rng.randint(-POINTS_LIMIT, POINTS_LIMIT)]) if rng.random() < 0.05 else rng.randint(-5, 60)  # noqa: E731
    if state["categories"] is None:
        return small()
    return {category: small() for category in state["categories"]}


def mistake(state, rng: random.Random):
    seat = rng.randrange(len(state["players"]))
    entered = [other for other, entry in enumerate(state["entries"]) if entry is not None]
    return rng.choice(
        [
            (rng.choice(entered) if entered else seat, {"type": "score", "points": points(state, rng)}),  # a second entry
            (seat, {"type": "score", "points": POINTS_LIMIT + 1}),
            (seat, {"type": "score", "points": points(state, rng), "round": state["round"] + 1}),
            (seat, {"type": "score", "points": {"Nothing": 3}}),
            (seat, {"type": "end"}),  # refused mid-round and before any round
        ]
    )


def others_hidden(state, viewer: int, logged: list) -> None:
    """Whatever the other seats entered this round, `viewer` reads the same table and log."""
    disguised = copy.deepcopy(state)
    for seat, entry in enumerate(disguised["entries"]):
        if entry is not None and seat != viewer:
            disguised["entries"][seat] = 777 if isinstance(entry, int) else {category: 777 for category in entry}
    assert GAME.public_state(state, viewer) == GAME.public_state(disguised, viewer)
    for seat, action in logged:
        if seat != viewer and action["type"] == "score" and action["round"] >= state["round"] and not GAME.is_finished(state):
            seen = GAME.redact_action(state, seat, action, viewer)
            assert seen == GAME.redact_action(state, seat, {**action, "points": 777}, viewer) and seen["points"] is None


def check(state, entered: list, options) -> None:
    """Totals from the closed rounds' entries, as counted here; the end exactly when due."""
    closed = len(state["rounds"])
    totals = [0] * len(state["players"])
    for seat, round_, value in entered:
        if round_ <= closed:
            totals[seat] += value if isinstance(value, int) else sum(value.values())
    assert GAME.scores(state) == totals
    reason = state["ended"]
    if reason == "rounds":
        assert closed == options["rounds"]
    elif reason == "target":
        assert max(totals) >= options["target"] and (options["rounds"] is None or closed < options["rounds"])
    elif reason == "most_rounds":
        assert closed == MOST_ROUNDS
    elif reason is None:
        assert options["rounds"] is None or closed < options["rounds"]
        assert options["target"] is None or not state["rounds"] or max(totals) < options["target"]


@given(players=st.integers(2, 12), sheet=sheets, seed=st.integers(0, 2**32))
def test_random_score_pads_keep_their_totals_hide_their_entries_and_end(players, sheet, seed):
    rng = random.Random(seed)
    options = GAME.effective_options(sheet)
    names = [f"P{n}" for n in range(players)]
    state = GAME.setup(names, options)
    accepted, logged, entered = [], [], []
    while not GAME.is_finished(state):
        assert len(state["rounds"]) < MOST_ROUNDS
        if rng.random() < 0.1:
            seat, action = mistake(state, rng)
        elif state["rounds"] and not any(state["entries"]) and rng.random() < 0.03:
            seat, action = 0, {"type": "end"}  # the host, between rounds
        else:
            seat, action = rng.choice(GAME.actors(state)), {"type": "score", "points": points(state, rng)}
        before = copy.deepcopy(state)
        try:
            after = GAME.apply(state, seat, action)
        except RuleError:
            assert state == before
            continue
        action = GAME.as_logged(state, seat, action)
        if action["type"] == "score":
            entered.append((seat, action["round"], after["rounds"][-1]["points"][seat] if action["round"] == len(after["rounds"]) else after["entries"][seat]))
        accepted.append((seat, action))
        logged.append((seat, action))
        state = after
        check(state, entered, options)
        for viewer in range(players):
            others_hidden(state, viewer, logged)
    assert GAME.replay(GAME.setup(names, options), accepted) == state
    ranking = GAME.ranking(state)
    best_first = sorted(GAME.scores(state), reverse=not options["lowest_wins"])
    assert [entry["score"] for entry in ranking] == best_first
    assert all(entry["tiebreak"] is not None for entry in ranking if best_first.count(entry["score"]) > 1)

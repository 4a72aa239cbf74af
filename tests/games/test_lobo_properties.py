"""Random Lobo games (docs/rules.md (Lobo)): any seat does anything in any order, sensible or not.

Every action is either accepted or refused with the state untouched; the accepted ones
are tracked by a tiny independent model (who left when, the last meadows each seat
entered), and after every step the engine must agree with it: bonuses follow the leaving
order, scores are the largest valid meadow plus the bonus, hidden colours stay hidden.
"""

from __future__ import annotations

import copy
import itertools
import random

from hypothesis import event, given
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.lobo import COLORS

GAME = GAMES["lobo"]

sheep_counts = st.one_of(st.integers(0, 100), st.integers(-5, -1), st.integers(101, 500))
meadow_entries = st.fixed_dictionaries({"sheep": sheep_counts, "fenced": st.booleans(), "wolf": st.booleans()})
actions = st.one_of(
    st.builds(lambda color: {"type": "choose_color", "color": color}, st.sampled_from(COLORS + ("green",))),
    st.just({"type": "reveal"}),
    st.just({"type": "abandon"}),
    st.just({"type": "end"}),
    st.builds(lambda entries: {"type": "meadows", "meadows": entries}, st.lists(meadow_entries, max_size=5)),
)
# (seat, action, whether the seat's own phone enters it: else the host does, for it)
moves = st.lists(st.tuples(st.integers(0, 3), actions, st.booleans()), max_size=40)
# Most random sequences never complete the count: often close the game afterwards, each
# seat recording a colour of its own first (refused where the colours were dealt).
valid_entries = st.fixed_dictionaries({"sheep": st.integers(0, 100), "fenced": st.booleans(), "wolf": st.booleans()})
closings = st.one_of(
    st.just([]),
    st.lists(st.lists(valid_entries, max_size=4), min_size=4, max_size=4).map(
        lambda per_seat: [(0, {"type": "end"}, True)]
        + [(seat, {"type": "choose_color", "color": COLORS[seat]}, True) for seat in range(len(per_seat))]
        + [(seat, {"type": "meadows", "meadows": entries}, False) for seat, entries in enumerate(per_seat)]
    ),
)


def expected_bonuses(leaving_order: list[int], players: int) -> list[int]:
    bonuses = [0] * players
    for position, seat in enumerate(leaving_order):
        bonuses[seat] = (6, 3, 1)[position] if position < 3 else 0
    return bonuses


def largest_valid(entries: list[dict]) -> int:
    valid = [entry["sheep"] for entry in entries if entry["fenced"] and not entry["wolf"]]
    return max(valid) if valid else 0


def check_against_model(state, model, players):
    public = GAME.public_state(state, None)
    seats = public["seats"]
    # bonuses follow the leaving order
    assert [seat["left"] for seat in seats] == [
        model["leaving"].index(seat) + 1 if seat in model["leaving"] else None for seat in range(players)
    ]
    bonuses = expected_bonuses(model["leaving"], players)
    assert [seat["bonus"] for seat in seats] == bonuses
    # scores: the largest valid meadow (never a sum) plus the bonus
    sheep = [largest_valid(model["meadows"][seat]) if seat in model["meadows"] else 0 for seat in range(players)]
    assert GAME.scores(state) == [s + b for s, b in zip(sheep, bonuses)]
    assert [seat["meadow"] for seat in seats] == [
        largest_valid(model["meadows"][seat]) if seat in model["meadows"] else None for seat in range(players)
    ]
    # the end, and finishing once every seat has entered
    assert public["ended"] == (model["end_said"] or len(model["leaving"]) == players)
    assert GAME.is_finished(state) == (public["ended"] and len(model["meadows"]) == players)
    # colours: each seen only by its holder until revealed or until the final count is done
    # (two revealed ones may clash during play, when the host revealed a slip: see the end)
    for viewer in [None, *range(players)]:
        for seat, shown in enumerate(GAME.public_state(state, viewer)["seats"]):
            if seat == viewer or state["seats"][seat]["revealed"] or GAME.is_finished(state):
                assert shown["color"] == state["seats"][seat]["color"]
            else:
                assert shown["color"] is None
        assert_nothing_depends_on_hidden_colours(state, viewer)


def assert_nothing_depends_on_hidden_colours(state, viewer):
    """What `viewer` is shown, and whether an action of theirs is accepted, stays the same
    whatever colours the others hold in secret."""
    if GAME.is_finished(state):
        return
    hidden = [seat for seat, holder in enumerate(state["seats"]) if seat != viewer and holder["color"] and not holder["revealed"]]
    for colors in itertools.product(COLORS, repeat=len(hidden)):
        other = copy.deepcopy(state)
        for seat, color in zip(hidden, colors):
            other["seats"][seat]["color"] = color
        assert GAME.public_state(other, viewer) == GAME.public_state(state, viewer)
        if viewer is not None:
            for action in [{"type": "choose_color", "color": color} for color in COLORS] + [{"type": "reveal"}]:
                assert outcome(other, viewer, action) == outcome(state, viewer, action)
        elif not state["ended"]:
            # the host, revealing for a seat during play: taken or refused alike
            for seat in range(len(state["seats"])):
                assert acceptance(other, seat, {"type": "reveal"}) == acceptance(state, seat, {"type": "reveal"})


def acceptance(state, seat, action):
    """Whether the host's `action` for `seat` is taken, or the refusal it gets."""
    try:
        GAME.apply(state, seat, action, entered_by_seat=False)
        return "taken"
    except RuleError as refused:
        return (refused.code, str(refused))


def outcome(state, seat, action):
    try:
        return GAME.public_state(GAME.apply(state, seat, action), seat)
    except RuleError as refused:
        return (refused.code, refused.status, str(refused))


@given(players=st.integers(2, 4), deal_colors=st.booleans(), seed=st.integers(0, 2**32), moves=moves, closing=closings)
def test_random_games_bonuses_follow_the_leaving_order_and_scores_match_the_largest_valid_meadow(
    players, deal_colors, seed, moves, closing
):
    names = [f"P{seat}" for seat in range(players)]
    options = GAME.effective_options({"deal_colors": deal_colors})
    initial = GAME.setup(names, options, GAME.deal(names, options, random.Random(seed)))
    state = initial
    model = {"leaving": [], "meadows": {}, "end_said": False}
    accepted = []
    for seat, action, entered_by_seat in moves + closing:
        seat %= players
        before = copy.deepcopy(state)
        try:
            state = GAME.apply(state, seat, action, entered_by_seat=entered_by_seat)
        except RuleError as refused:
            assert state == before, "a refused action changed the state"
            assert str(refused)  # every refusal carries a sentence
            continue
        accepted.append((seat, action))
        if action["type"] == "abandon":
            model["leaving"].append(seat)
        elif action["type"] == "end":
            model["end_said"] = True
        elif action["type"] == "meadows":
            assert all(0 <= entry["sheep"] <= 100 for entry in action["meadows"])
            model["meadows"][seat] = action["meadows"]
        check_against_model(state, model, players)
    event("finished" if GAME.is_finished(state) else "ended" if state["ended"] else "still playing")
    # the event log replays to the same state
    assert GAME.replay(initial, accepted) == state
    if GAME.is_finished(state):
        colors = [seat["color"] for seat in state["seats"]]
        assert None not in colors and len(set(colors)) == players, "RULES: colours are distinct"
        ranking = GAME.ranking(state)
        scores = GAME.scores(state)
        assert sorted(entry["seat"] for entry in ranking) == list(range(players))
        assert [entry["score"] for entry in ranking] == sorted(scores, reverse=True)
        for better, worse in zip(ranking, ranking[1:]):
            assert better["place"] <= worse["place"]


@given(players=st.integers(2, 4), leaving=st.permutations(range(4)), data=st.data())
def test_random_leaving_orders_earn_6_3_1_0_in_that_order(players, leaving, data):
    names = [f"P{seat}" for seat in range(players)]
    options = GAME.effective_options({})
    state = GAME.setup(names, options, GAME.deal(names, options, random.Random(0)))
    order = [seat for seat in leaving if seat < players]
    how_many = data.draw(st.integers(0, players))
    for seat in order[:how_many]:
        state = GAME.apply(state, seat, {"type": "abandon"})
    bonuses = [seat["bonus"] for seat in GAME.public_state(state, None)["seats"]]
    assert bonuses == expected_bonuses(order[:how_many], players)
    assert GAME.public_state(state, None)["ended"] == (how_many == players)

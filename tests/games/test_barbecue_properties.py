"""Heckmeck Barbecue (docs/rules.md (Heckmeck Barbecue)) over many random games: what must hold in every state.

Random players enter random dice (roll by roll or quick, stops and failures at any time,
and now and then an entry the rules refuse). After every accepted action the plates,
snails and worms are checked; after the game the ranking; and from any state reached,
failing turn after turn must end the game.
"""

from __future__ import annotations

import copy

from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.barbecue import PLATES_PER_PLAYER, SNAIL_POINTS, SNAILS, SPOT_VALUES, SPOT_WORMS_RANGE
from companion.games.errors import RuleError
from companion.games.wormdice import DICE_COUNT, WORM

GAME = GAMES["heckmeck-barbecue"]
FACES = list(GAME.dice.faces)
# No explain phase: on a failure it replays long games for minutes; the shrunk example is enough.
RANDOM_GAMES = settings(phases=[phase for phase in Phase if phase is not Phase.explain])
MAX_TURNS = 400  # more than most games last; the forced failures below end every game


def check_invariants(state, previous, spot_worms):
    players = len(state["players"])
    for seat in range(players):
        on_grill = sum(spot["plates"].count(seat) for spot in state["spots"])
        assert on_grill + state["plates_left"][seat] == PLATES_PER_PLAYER
        assert state["plates_left"][seat] >= 0
        assert state["worms"][seat] >= 0
    on_grill = sum(spot["snail"] for spot in state["spots"])
    assert state["snail_supply"] + on_grill + sum(state["snails"]) == SNAILS
    assert state["snail_supply"] >= 0
    for spot in state["spots"]:
        assert len(spot["plates"]) <= 2
        assert len(set(spot["plates"])) <= 1, "both plates on a spot belong to one player"
        assert not (spot["plates"] and spot["snail"]), "a plate and a snail never share a spot"
        assert spot["worms"] == spot_worms[str(spot["value"])]
    for before, after in zip(previous["spots"], state["spots"]):
        if len(before["plates"]) == 2:
            assert after == before, "a closed spot stays closed for good"
    assert [spot["value"] for spot in state["spots"]] == list(SPOT_VALUES)
    assert GAME.scores(state) == [w + SNAIL_POINTS * s for w, s in zip(state["worms"], state["snails"])]
    assert state["snail_supply"] <= previous["snail_supply"], "snails never go back to the supply"


def _entries(total, faces=(WORM, 6, 4, 3, 2, 1), dice=DICE_COUNT):
    """Every way to set aside dice worth `total` with distinct faces (worms first)."""
    if total == 0:
        return [[]]
    if not faces or dice == 0:
        return []
    face, rest = faces[0], faces[1:]
    value = 5 if face == WORM else face
    ways = [] if face == WORM else _entries(total, rest, dice)
    for count in range(1, dice + 1):
        if value * count > total:
            break
        ways += [[(face, count)] + way for way in _entries(total - value * count, rest, dice - count)]
    return ways


# Quick entries for results around the grill, each with at least one worm: most turns aim
# at a spot (or just below or above the grill), so games fill the grill, steal and close.
TARGETED = {total: _entries(total) for total in range(20, 42)}


def random_turn(data, state, aim):
    """The actions the current player enters next (not always ones the rules accept). With
    `aim` out of 10, a turn is a quick entry aimed at the grill; else random dice."""
    turn = state["turn"]
    if not turn["kept"] and turn["roll"] is None and data.draw(st.integers(0, 9)) < aim:
        total = data.draw(st.one_of(st.integers(23, 36), st.integers(23, 36), st.integers(20, 41)))
        groups = data.draw(st.sampled_from(TARGETED[total]))
        return [{"type": "set_aside", "face": face, "count": count} for face, count in groups] + [{"type": "stop"}]
    if data.draw(st.integers(0, 19)) == 0:  # now and then, something the rules refuse
        return [
            data.draw(
                st.sampled_from(
                    [
                        {"type": "set_aside", "face": 5, "count": 1},
                        {"type": "roll", "dice": [1] * (turn["dice_left"] + 1)},
                        {"type": "keep", "face": WORM},
                        {"type": "set_aside", "face": WORM, "count": 9},
                    ]
                )
            )
        ]
    if turn["roll"] is not None:
        return [{"type": "keep", "face": data.draw(st.sampled_from(sorted(set(turn["roll"]), key=str)))}]
    kind = data.draw(st.sampled_from(["roll", "roll", "set_aside", "set_aside", "stop", "bust"]))
    if kind == "roll":
        left = turn["dice_left"]
        return [{"type": "roll", "dice": data.draw(st.lists(st.sampled_from(FACES), min_size=left, max_size=left))}]
    if kind == "set_aside":
        return [{"type": "set_aside", "face": data.draw(st.sampled_from(FACES)), "count": data.draw(st.integers(1, turn["dice_left"]))}]
    return [{"type": kind}]


def play_randomly(data, players, options, turns):
    aim = data.draw(st.sampled_from([3, 7, 9, 10]))  # how often a turn aims at the grill, per game
    state = GAME.setup(players, GAME.effective_options(options))
    spot_worms = state["options"]["spot_worms"]
    moves = []
    for _ in range(turns):
        if GAME.is_finished(state):
            break
        for action in random_turn(data, state, aim):
            if GAME.is_finished(state):
                return state, moves
            seat = GAME.current_seat(state)
            before = copy.deepcopy(state)
            try:
                new_state = GAME.apply(state, seat, action)
            except RuleError:
                assert state == before, "a refused action changes nothing"
                break
            check_invariants(new_state, state, spot_worms)
            moves.append((seat, action))
            if new_state["last_turn"] is not state["last_turn"] and new_state["last_turn"] is not None:
                event(f"outcome {new_state['last_turn']['outcome']} {new_state['last_turn'].get('reason', '')}".strip())
            state = new_state
    return state, moves


player_lists = st.integers(2, 5).map(lambda count: ["Ana", "Bruno", "Caio", "Davi", "Eva"][:count])
spot_worm_tables = st.dictionaries(
    st.sampled_from([str(value) for value in SPOT_VALUES]), st.sampled_from(list(SPOT_WORMS_RANGE)), max_size=14
)


@RANDOM_GAMES
@given(data=st.data(), players=player_lists, spot_worms=spot_worm_tables, turns=st.integers(0, MAX_TURNS))
def test_rule_3_invariants_hold_in_random_games_and_the_game_always_ends(data, players, spot_worms, turns):
    state, moves = play_randomly(data, players, {"spot_worms": spot_worms}, turns)
    spot_worms = state["options"]["spot_worms"]
    # Every failure puts a snail from the supply on the grill or ends the game, and the
    # supply never grows: from any state, at most 12 + 1 failed turns end the game.
    failures = 0
    while not GAME.is_finished(state):
        assert failures <= SNAILS, "the game always ends"
        seat = GAME.current_seat(state)
        turn = state["turn"]
        if turn["roll"] is None and not turn["kept"]:  # a failure comes after a first group
            action = {"type": "set_aside", "face": 1, "count": 1}
        elif turn["roll"] is None:
            action = {"type": "bust"}
            failures += 1
        else:  # a roll waiting for a face cannot be declared failed: keep a new face first
            kept = [group["face"] for group in turn["kept"]]
            action = {"type": "keep", "face": next(face for face in turn["roll"] if face not in kept)}
        new_state = GAME.apply(state, seat, action)
        check_invariants(new_state, state, spot_worms)
        moves.append((seat, action))
        state = new_state
    assert GAME.current_seat(state) is None

    # The event log is the truth: replaying the accepted actions gives the same game.
    assert GAME.replay(GAME.setup(players, state["options"]), moves) == state

    ranking = GAME.ranking(state)
    assert sorted(entry["seat"] for entry in ranking) == list(range(len(players)))
    scores = GAME.scores(state)
    assert [entry["score"] for entry in ranking] == sorted(scores, reverse=True)
    assert all(entry["score"] == scores[entry["seat"]] for entry in ranking)
    highest_plate = {
        seat: max((spot["value"] for spot in state["spots"] if seat in spot["plates"]), default=0)
        for seat in range(len(players))
    }
    for better, worse in zip(ranking, ranking[1:]):
        if better["score"] > worse["score"]:
            assert better["place"] < worse["place"]
        else:  # tied on points: the plate on the higher spot wins, no plate at all shares
            assert highest_plate[better["seat"]] >= highest_plate[worse["seat"]]
            assert (better["place"] == worse["place"]) == (highest_plate[better["seat"]] == highest_plate[worse["seat"]] == 0)
            assert better["tiebreak"] is not None and worse["tiebreak"] is not None

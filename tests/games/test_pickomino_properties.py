"""Random Pickomino games through the pure engine (Hypothesis).

Each game is 2–7 players with random options. Turns are entered roll by roll or by quick
entry: random dice with random stops and busts, or dice aimed at a result (a tile, a top
tile of a stack, up to 40), whose claim is checked against the rule written out again,
sometimes declining a steal. Now and then a player makes a mistake that is wrong by
construction and must be refused without changing anything. After a random number of
turns every player aims at the highest face-up tile, which takes one tile off the grill
per turn, so every game has to end within that many turns more than 16.

Checked after every accepted action: the 16 tiles are each exactly once on the grill or in
a stack; face-down tiles stay face down; the scores are the worms in the stacks; the turn
adds up; the game is over exactly when no face-up tile is left. At the end: replaying the
accepted moves (through JSON, as the event log stores them) gives the same state.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.pickomino import TILE_WORMS

GAME = GAMES["pickomino"]
W = "worm"
FACES = (1, 2, 3, 4, 5, W)
TILES = list(range(21, 37))
RANDOM_TURNS_MAX = 30
NAMES = ["Ana", "Bruno", "Caio", "Dora", "Eva", "Fabio", "Gil"]


def value(face):
    return 5 if face == W else face


def ways_to_score():
    """For each result from 21 to 40, every set of groups (face, count) with a worm."""
    ways = {total: [] for total in range(21, 41)}
    for size in range(1, 9):
        for dice in itertools.combinations_with_replacement(FACES, size):
            total = sum(value(face) for face in dice)
            if W in dice and total in ways:
                ways[total].append(sorted(Counter(dice).items(), key=lambda group: str(group[0])))
    return ways


WAYS_TO_SCORE = ways_to_score()


class Table:
    """One random game: the state, the accepted moves, and the checks after each action."""

    def __init__(self, data, players, options):
        self.data = data
        self.start = GAME.setup(NAMES[:players], GAME.effective_options(options))
        self.state = copy.deepcopy(self.start)
        self.moves = []
        self.face_down = set()

    def draw(self, strategy):
        return self.data.draw(strategy)

    @property
    def turn(self):
        return self.state["turn"]

    def act(self, action):
        seat = GAME.current_seat(self.state)
        self.state = GAME.apply(self.state, seat, action)
        self.moves.append((seat, action))
        self.check()

    def refuse(self, seat, action, code):
        before = copy.deepcopy(self.state)
        try:
            GAME.apply(self.state, seat, action)
        except RuleError as error:
            assert error.code == code, (action, error.code, str(error))
            assert self.state == before
            return
        raise AssertionError(f"{action} by seat {seat} was accepted; expected {code}")

    # --- the invariants -----------------------------------------------------------
    def check(self):
        state = self.state
        on_grill = [tile["value"] for tile in state["grill"]]
        in_stacks = [tile for stack in state["stacks"] for tile in stack]
        assert sorted(on_grill + in_stacks) == TILES
        assert on_grill == sorted(on_grill)
        assert all(tile["worms"] == TILE_WORMS[tile["value"]] for tile in state["grill"])
        face_down = {tile["value"] for tile in state["grill"] if not tile["face_up"]}
        assert self.face_down <= face_down, "a face-down tile came back"
        self.face_down = face_down
        assert GAME.scores(state) == [sum(TILE_WORMS[tile] for tile in stack) for stack in state["stacks"]]
        any_face_up = any(tile["face_up"] for tile in state["grill"])
        assert GAME.is_finished(state) == (not any_face_up)
        if state["turn"] is not None:
            turn = state["turn"]
            kept = [group["face"] for group in turn["kept"]]
            assert len(kept) == len(set(kept)) < 6
            assert turn["dice_left"] == 8 - sum(group["count"] for group in turn["kept"]) > 0
            assert turn["total"] == sum(value(group["face"]) * group["count"] for group in turn["kept"])
            assert turn["has_worm"] == (W in kept)

    # --- one turn ------------------------------------------------------------------
    def play_turn(self, endgame):
        seat = self.turn["seat"]
        quick = self.draw(st.booleans())
        if endgame:
            self.aim_at_the_highest_tile(quick)
        else:
            style = self.draw(st.sampled_from(["aimed", "quick", "rolled"]))
            if style == "aimed":
                self.aim_at_a_random_result(quick)
            elif style == "quick":
                self.random_quick_turn()
            else:
                self.random_rolled_turn()
        if not GAME.is_finished(self.state):
            assert self.turn["seat"] == (seat + 1) % len(self.state["players"])
            assert self.turn["kept"] == []
        assert self.state["last_turn"]["seat"] == seat

    def turn_is_on(self, seat):
        """Whether `seat` is still in the middle of its turn."""
        return GAME.current_seat(self.state) == seat and bool(self.turn["kept"] or self.turn["roll"])

    def aim_at_the_highest_tile(self, quick):
        """Score exactly the highest face-up tile: it is on the grill, so it is taken."""
        target = max(tile["value"] for tile in self.state["grill"] if tile["face_up"])
        self.score(target, quick)
        record = self.state["last_turn"]
        assert (record["outcome"], record["tile"], record["from_seat"]) == ("took", target, None)

    def aim_at_a_random_result(self, quick):
        """Score a tile, another stack's top tile, or anything up to 40, and check the claim."""
        tops = [stack[-1] for stack in self.state["stacks"] if stack]
        target = self.draw(st.sampled_from(tops + TILES + [37, 38, 39, 40]))
        before = self.state
        declined = self.score(target, quick)
        self.check_claim(before, self.state["last_turn"], declined)

    def check_claim(self, before, record, declined):
        """docs/rules.md (Pickomino), claiming, written out once more on the state before the turn."""
        seat, total = record["seat"], record["total"]
        face_up = [tile["value"] for tile in before["grill"] if tile["face_up"]]
        victims = [other for other, stack in enumerate(before["stacks"]) if other != seat and stack[-1:] == [total]]
        lower = max((tile for tile in face_up if tile < total), default=None)
        if total in face_up:
            expected = ("took", total, None)
        elif victims and not declined:
            expected = ("stole", total, victims[0])
        elif lower is not None:
            expected = ("took", lower, None)
            assert record["declined_steal"] == bool(victims)
        else:
            expected = ("failed", None, None)
        assert (record["outcome"], record["tile"], record["from_seat"]) == expected

    def score(self, total, quick):
        """Set aside groups that add up to `total` (with a worm), then stop if the dice are not out.
        Whether the stop declined a steal."""
        groups = self.draw(st.sampled_from(WAYS_TO_SCORE[total]))
        groups = self.draw(st.permutations(groups))
        seat = self.turn["seat"]
        for face, count in groups:
            self.maybe_make_a_mistake()
            if quick:
                self.act({"type": "set_aside", "face": face, "count": count})
            else:
                others = [other for other in FACES if other != face]
                filler = self.draw(st.lists(st.sampled_from(others), min_size=self.turn["dice_left"] - count,
                                            max_size=self.turn["dice_left"] - count))
                self.act({"type": "roll", "dice": self.draw(st.permutations([face] * count + filler))})
                self.maybe_make_a_mistake()
                self.act({"type": "keep", "face": face})
        return self.turn_is_on(seat) and self.stop()

    def random_rolled_turn(self):
        seat = self.turn["seat"]
        while True:
            self.maybe_make_a_mistake()
            dice_left = self.turn["dice_left"]
            roll = self.draw(st.lists(st.sampled_from(FACES), min_size=dice_left, max_size=dice_left))
            taken = [group["face"] for group in self.turn["kept"]]
            new = [face for face in FACES if face in roll and face not in taken]
            self.act({"type": "roll", "dice": roll})
            if not new:
                assert self.state["last_turn"]["reason"] == "nothing_new"
                return
            self.maybe_make_a_mistake()
            self.act({"type": "keep", "face": self.draw(st.sampled_from(new))})
            if not self.turn_is_on(seat):
                return
            if self.draw(st.integers(0, 2)) == 0:
                self.stop()
                return

    def random_quick_turn(self):
        seat = self.turn["seat"]
        while True:
            self.maybe_make_a_mistake()
            taken = [group["face"] for group in self.turn["kept"]]
            face = self.draw(st.sampled_from([face for face in FACES if face not in taken]))
            count = self.draw(st.integers(1, self.turn["dice_left"]))
            self.act({"type": "set_aside", "face": face, "count": count})
            if not self.turn_is_on(seat):
                return
            ending = self.draw(st.sampled_from(["more", "more", "stop", "bust"]))
            if ending == "stop":
                self.stop()
                return
            if ending == "bust":
                self.act({"type": "bust"})
                return

    def stop(self):
        """A stop, sometimes declining a steal (refused when there is no lower tile to take
        instead). Whether it declined."""
        if self.draw(st.booleans()):
            claim = GAME.claim_options(self.state, self.turn["seat"], self.turn["total"])
            must_steal = (
                self.turn["has_worm"] and not claim["on_grill"] and claim["steal_from"] is not None
                and claim["lower"] is None
            )
            if not must_steal:
                self.act({"type": "stop", "take": "grill"})
                return True
            self.refuse(self.turn["seat"], {"type": "stop", "take": "grill"}, "no_lower_tile")
        self.act({"type": "stop"})
        return False

    # --- mistakes, wrong by construction ----------------------------------------------
    def maybe_make_a_mistake(self):
        if self.draw(st.integers(0, 7)) == 0:
            mistakes = self.mistakes_now()
            self.refuse(*self.draw(st.sampled_from(mistakes))())

    def mistakes_now(self):
        """Ways to get this moment wrong, each giving (seat, action, expected code)."""
        turn = self.turn
        seat = turn["seat"]
        dice_left = turn["dice_left"]
        taken = [group["face"] for group in turn["kept"]]
        fresh = [face for face in FACES if face not in taken]
        others = [other for other in range(len(self.state["players"])) if other != seat]
        pick = lambda values: self.draw(st.sampled_from(values))  # noqa: E731
        mistakes = [lambda: (pick(others), {"type": "bust"}, "not_your_turn")]
        if turn["roll"] is None:
            mistakes += [
                lambda: (seat, {"type": "roll", "dice": [1] * pick([n for n in range(1, 10) if n != dice_left])},
                         "wrong_dice_count"),
                lambda: (seat, {"type": "roll", "dice": [6] + [1] * (dice_left - 1)}, "invalid_face"),
                lambda: (seat, {"type": "keep", "face": pick(FACES)}, "no_roll"),
                lambda: (seat, {"type": "set_aside", "face": pick(fresh), "count": 0}, "invalid_count"),
                lambda: (seat, {"type": "set_aside", "face": pick(fresh), "count": dice_left + 1}, "too_many_dice"),
                lambda: (seat, {"type": "set_aside", "face": 6, "count": 1}, "invalid_face"),
                lambda: (seat, {"type": "stop", "take": "stack"}, "invalid_take"),
            ]
            if taken:
                mistakes.append(lambda: (seat, {"type": "set_aside", "face": pick(taken), "count": 1}, "face_already_kept"))
            else:
                mistakes.append(lambda: (seat, {"type": "stop"}, "nothing_set_aside"))
                mistakes.append(lambda: (seat, {"type": "bust"}, "nothing_set_aside"))
        else:
            missing = [face for face in FACES if face not in turn["roll"]]
            repeated = [face for face in taken if face in turn["roll"]]
            mistakes += [
                lambda: (seat, {"type": "stop"}, "keep_first"),
                lambda: (seat, {"type": "roll", "dice": turn["roll"]}, "keep_first"),
                lambda: (seat, {"type": "bust"}, "roll_has_new_face" if taken else "nothing_set_aside"),
            ]
            if missing:
                mistakes.append(lambda: (seat, {"type": "keep", "face": pick(missing)}, "face_not_in_roll"))
            if repeated:
                mistakes.append(lambda: (seat, {"type": "keep", "face": pick(repeated)}, "face_already_kept"))
        return mistakes


options = st.fixed_dictionaries({"alternative_return": st.booleans(), "flip_when_empty": st.booleans()})


@given(data=st.data(), players=st.integers(2, 7), options=options, random_turns=st.integers(0, RANDOM_TURNS_MAX))
def test_rule_2_random_games_keep_every_tile_and_end_and_replay(data, players, options, random_turns):
    table = Table(data, players, options)
    turns = 0
    while not GAME.is_finished(table.state):
        assert turns < random_turns + len(TILES), "the game did not end"
        table.play_turn(endgame=turns >= random_turns)
        turns += 1

    state = table.state
    assert GAME.current_seat(state) is None
    assert not any(tile["face_up"] for tile in state["grill"])
    table.refuse(0, {"type": "bust"}, "game_over")
    ranking = GAME.ranking(state)
    assert sorted(entry["seat"] for entry in ranking) == list(range(players))
    assert [entry["score"] for entry in ranking] == sorted(GAME.scores(state), reverse=True)
    keys = [(entry["score"], max(state["stacks"][entry["seat"]], default=0)) for entry in ranking]
    assert keys == sorted(keys, reverse=True)  # most worms, then the highest tile
    for entry, key in zip(ranking, keys):
        assert entry["place"] == keys.index(key) + 1  # equal keys share the first of their places

    stored_moves = json.loads(json.dumps(table.moves))
    assert GAME.replay(table.start, stored_moves) == state
    assert json.loads(json.dumps(state)) == state

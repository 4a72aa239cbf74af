"""docs/rules.md (corrections): what an action did to the other players (Game.others_touched),
which "redo all" compares with what it would do now, on the engines alone."""

from __future__ import annotations

import copy

from companion.games import GAMES

W = "worm"


def played(slug: str, players: list[str], moves: list[tuple[int, dict]]) -> dict:
    game = GAMES[slug]
    state = game.setup(players, game.effective_options({}), None)
    for seat, action in moves:
        state = game.apply(state, seat, action)
    return state


def test_rule_6_a_pickomino_take_from_the_grill_touches_no_other_player_and_a_steal_names_whom_and_what():
    game = GAMES["pickomino"]
    before = played("pickomino", ["Ana", "Bruno"], [(0, {"type": "set_aside", "face": W, "count": 5}), (0, {"type": "stop"}),
                                                    (1, {"type": "set_aside", "face": W, "count": 5})])
    steal = game.apply(before, 1, {"type": "stop"})
    take = game.apply(before, 1, {"type": "stop", "take": "grill"})
    assert game.others_touched(before, steal, 1) == ("stole", 0, 25)
    assert game.others_touched(before, take, 1) is None  # 24 from the grill: Bruno's own business
    assert game.others_touched(played("pickomino", ["Ana", "Bruno"], []), before, 1) is None  # no turn ended


def test_rule_6_a_barbecue_plate_on_an_empty_spot_touches_no_other_player_and_a_steal_names_whom_and_where():
    game = GAMES["heckmeck-barbecue"]
    before = played("heckmeck-barbecue", ["Ana", "Bruno"], [(0, {"type": "set_aside", "face": W, "count": 5}),
                                                             (0, {"type": "stop"}), (1, {"type": "set_aside", "face": W, "count": 5})])
    steal = game.apply(before, 1, {"type": "stop"})
    assert game.others_touched(before, steal, 1) == ("stole", 0, 25)
    placed = game.apply(played("heckmeck-barbecue", ["Ana", "Bruno"], [(0, {"type": "set_aside", "face": W, "count": 5})]), 0, {"type": "stop"})
    assert game.others_touched(before, placed, 0) is None


def test_rule_6_by_default_what_an_action_did_to_the_others_is_how_their_scores_moved():
    game = GAMES["qwixx"]
    before = played("qwixx", ["Ana", "Bruno", "Caio"], [(0, {"type": "roll", "dice": {"white1": 3, "white2": 4, "red": 1, "yellow": 1, "green": 1, "blue": 1}})])
    crossed = game.apply(before, 0, {"type": "white", "row": "red"})
    assert game.others_touched(before, crossed, 0) == (0, 0)  # Ana's own sheet only
    taken_from_bruno = copy.deepcopy(crossed)
    taken_from_bruno["sheets"][1]["penalties"] += 1  # as if Ana's action had cost Bruno a penalty
    assert game.scores(taken_from_bruno)[1] != game.scores(crossed)[1]
    assert game.others_touched(before, taken_from_bruno, 0) == (-5, 0)

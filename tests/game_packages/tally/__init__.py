"""A game that is no part of the companion, offered by a package of its own through the
entry point group "companion.games" (tests/test_game_packages.py installs it): each player
taps to add a point, in turn; the first to three wins. Everything it needs is here."""

from companion.games.base import TWO, Game, Scene, rank, require_seat_turn
from companion.games.errors import RuleError
from companion.games.schema import ApiSchemas, action, array, obj
from companion.games.text import N_

TARGET = 3


class Tally(Game):
    slug = "tally"
    title = N_("Tally")
    min_players, max_players = 2, 4
    one_seat_at_a_time = True

    def setup(self, players, options, deal=None):
        return {"players": list(players), "points": [0] * len(players), "turn": 0}

    def step(self, state, seat, action):
        require_seat_turn(self.current_seat(state), seat, state["players"])
        if action.get("type") != "point":
            raise RuleError("unknown_action", N_("Tally has one action: a point."))
        state["points"][seat] += 1
        state["turn"] = (seat + 1) % len(state["players"])

    def current_seat(self, state):
        return None if self.is_finished(state) else state["turn"]

    def is_finished(self, state):
        return max(state["points"]) >= TARGET

    def scores(self, state):
        return list(state["points"])

    def ranking(self, state):
        if not self.is_finished(state):
            return None
        entries = [{"seat": seat, "name": name, "score": score, "tiebreak": None, "detail": None}
                   for seat, (name, score) in enumerate(zip(state["players"], state["points"]))]
        return rank(entries, key=lambda entry: entry["score"])

    def public_state(self, state, viewer):
        return {"points": list(state["points"])}

    def describe_action(self, state, seat, action):
        return N_("scored a point")

    def api_schemas(self):
        return ApiSchemas(
            options_request=obj({}, additionalProperties=False),
            options=obj({}),
            state=obj({"points": array({"type": "integer"})}),
            actions={"TallyPoint": action("point", "A point for the seat in turn.")},
        )

    def scenes(self):
        return {"start": Scene(TWO), "finished": Scene(TWO, tuple((seat % 2, {"type": "point"}) for seat in range(5)))}

"""What corrections need to know of a game (Game's second part): whether one seat acts at a
time, what an action entered after going back replaces, what "redo all" must ask before
redoing an action (it would now end badly, or touch the other players otherwise), and what
a page shown before a change may still enter. The policy itself is tables/corrections.py.
"""

from __future__ import annotations

from typing import Any

from .text import N_, Text


class Corrections:
    # Whether one seat acts at a time, a turn being that seat's actions in a row (the worm
    # dice games); otherwise several seats act at once (tables/corrections.redoable: what a
    # correction entered after going back replaces).
    one_seat_at_a_time: bool = False
    # Why "redo all" stopped before an action that would now end badly for its seat
    # (ends_badly) where it did not when first entered, with `name` and `line`; set by the
    # games where an action can end badly.
    redo_ends_badly: Text | None = None
    # Why "redo all" stopped before an action that would now do to the other players what it
    # did not when first entered (others_touched), with `name`, `line` (what it did then) and
    # `now` (what it would do now).
    redo_touches_others: Text = N_(
        "Redoing “%(name)s %(line)s” would now change another player's score otherwise than when it was first"
        " entered: redo it on its own if that is right, or leave it out."
    )
    # Whether another phone (the host's) may redo an undone action whose secret it may not
    # read (redact_action): so where redoing it tells nothing of the secret, which goes in
    # unseen (the score pad's hidden points); not in Lobo, whose rules may refuse a recorded
    # colour by naming it. Otherwise only its seat redoes it.
    secret_redone_unseen: bool = False
    # The refusal of an action the host enters for `name` while it is not theirs to make
    # (the rules' own sentence says "not you" to the seat), with `turn` the current seat.
    host_out_of_turn: Text = N_("It is %(turn)s's turn, not %(name)s's.")

    def ends_badly(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
        """Whether the action of `seat` that made `after` of `before` ended badly for them (a
        failed turn, a penalty). "Redo all" stops before an action that would now end badly
        where it did not when first entered (tables/undo_redo.redo): going back changed what
        it meant, and the host decides."""
        return False

    def others_touched(self, before: dict[str, Any], after: dict[str, Any], seat: int) -> Any:
        """What the action of `seat` that made `after` of `before` did to the other players,
        as a value equal for equal effects: by default how each other seat's score moved.
        "Redo all" stops before an action that would now touch the others otherwise than when
        it was first entered (a take become a steal, a steal from someone else): that was its
        player's choice, made on a table that going back has changed. What changes only for
        the action's own seat (a better tile from the grill) does not stop it."""
        return tuple(
            after_score - before_score
            for other, (before_score, after_score) in enumerate(zip(self.scores(before), self.scores(after)))
            if other != seat
        )

    def redone(self, action: dict[str, Any]) -> dict[str, Any]:
        """`action` as a redo enters it again: without what only tells which page it was
        tapped on (Twenty One's roll and row seen), since going back to correct an earlier
        action changes what later pages showed, and the redo is meant on top of it."""
        return action

    def tap_depends_on(
        self, state: dict[str, Any], seat: int, action: dict[str, Any], earlier_seat: int, earlier_action: dict[str, Any]
    ) -> bool:
        """Whether a tap of `action` by `seat`, on a page shown before `earlier_action` (by
        `earlier_seat`) was accepted, depends on that action: only then is the page out of
        date and the tap refused. In turn-based games every change matters."""
        return True

    def correction_kind(self, action: dict[str, Any]) -> Any:
        """Where seats act at once: which of a seat's undone actions an action entered anew
        replaces, those of the same kind (by default its type)."""
        return action.get("type")

    def starts_round(self, action: dict[str, Any]) -> bool:
        """Where seats act at once: whether `action` starts a new round (what was left undone
        of the round before cannot be redone after it)."""
        return False

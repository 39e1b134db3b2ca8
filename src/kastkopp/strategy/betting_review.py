"""Grading a bet by its equity, shared by the pot games' reviews (Knack and Linka).

With a share ``s`` of the pot at the showdown (nobody folding), a choice is worth, in chips
against folding or knocking now: a call of ``owed`` into ``pot`` is ``s * (pot + owed) - owed``;
a raise of ``r`` that everyone still in calls is ``r * (s * players - 1)``; a fold, a knock or
a check is 0. The review grades what was done against the best of what was legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Action
from kastkopp.games.stakes import AllIn, Call, Check, Fold, Raise
from kastkopp.strategy.review import Moment, Step


def worth(action: Action, share: float, players: int, view: dict[str, Any]) -> float | None:
    """The chips ``action`` gains against giving up now; ``None`` for a choice not a bet."""
    seat = view["seat"]
    if isinstance(action, Raise):
        return action.amount * (share * players - 1)
    if isinstance(action, Call):
        owed = view["to_call"]
        return share * (view["pot"] + owed) - owed
    if isinstance(action, AllIn):
        left = view["purses"][seat]
        return share * (view["pot"] + left) - left
    if isinstance(action, Fold | Check):
        return 0.0
    if str(action) == "knock":
        return 0.0
    return None


def bet_moment(step: Step, action: Action, legal: Sequence[Action], share: float,
               players: int, view: dict[str, Any], situation: dict[str, str]) -> Moment:
    """The decision graded in chips, or described only when it is not a bet."""
    made = worth(action, share, players, view)
    options = {str(a): w for a in legal if (w := worth(a, share, players, view)) is not None}
    detail = {"share": share}
    if made is None or not options:
        return Moment(step.index, step.seat or 0, "decision", made=str(action),
                      situation=situation, detail=detail)
    best = max(options, key=lambda k: options[k])
    return Moment(step.index, step.seat or 0, "decision", made=str(action), best=best,
                  cost=options[best] - made, situation=situation,
                  detail={**detail, "worth": made})

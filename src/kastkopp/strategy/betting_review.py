"""Grading a bet by its equity, shared by the pot games' reviews (Knack and Linka).

With a share ``s`` of the pot at the showdown (nobody folding), a choice is worth, in chips
against folding or knocking now: a call of ``owed`` into ``pot`` is ``s * (pot + owed) - owed``;
a raise of ``r`` that everyone still in calls is ``r * (s * players - 1)``; a fold, a knock or
a check is 0. The review grades what was done against the best of what was legal; the hint
(:class:`BettingAdvisor`) ranks what is legal now by the same worth.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Action, Game
from kastkopp.games.stakes import AllIn, Call, Check, Fold, Raise
from kastkopp.strategy.advice import Hint, OddsAdvisor, ranked
from kastkopp.strategy.review import Moment, Step

# From a seat's view: its share of the pot at the showdown and how many are still in
# (``None`` where the seat has no bet to weigh).
ShareOf = Callable[[dict[str, Any], int], tuple[float, int] | None]


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


def options(legal: Sequence[Action], share: float, players: int,
            view: dict[str, Any]) -> dict[str, float]:
    """Each legal bet's worth in chips (choices that are not bets left out)."""
    return {str(a): w for a in legal if (w := worth(a, share, players, view)) is not None}


def bet_moment(step: Step, action: Action, legal: Sequence[Action], share: float,
               players: int, view: dict[str, Any], situation: dict[str, str]) -> Moment:
    """The decision graded in chips, or described only when it is not a bet."""
    made = worth(action, share, players, view)
    worths = options(legal, share, players, view)
    detail = {"share": share}
    if made is None or not worths:
        return Moment(step.index, step.seat or 0, "decision", made=str(action),
                      situation=situation, detail=detail)
    best = max(worths, key=lambda k: worths[k])
    return Moment(step.index, step.seat or 0, "decision", made=str(action), best=best,
                  cost=worths[best] - made, situation=situation,
                  detail={**detail, "worth": made})


@dataclass
class BettingAdvisor(OddsAdvisor):
    """The legal bets ranked by their worth in chips, from the seat's share of the pot."""

    game: Game
    share_of: ShareOf

    @property
    def key(self) -> Hashable:
        return ("betting", self.game.name)

    def hint(self, view: dict[str, Any], legal: Sequence[str]) -> Hint:
        found = self.share_of(view, view["seat"])
        if found is None:
            return Hint("chips")
        share, players = found
        actions = [self.game.parse_action(a) for a in legal]
        return Hint("chips", ranked(options(actions, share, players, view)),
                    {"share": share})

"""Linka's review: every bet graded in chips by the seat's share of the pot from its own
two dice and the others' open dice (:func:`kastkopp.games.linka.equity`), as the seat knew
it when it bet. The hint ranks the bets of the moment the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game
from kastkopp.games.linka import equity
from kastkopp.strategy.advice import Advisor, register_advisor
from kastkopp.strategy.betting_review import BettingAdvisor, bet_moment
from kastkopp.strategy.review import Graded, Moment, Step, decisions, register_grader


def share_of(view: dict[str, Any], seat: int) -> tuple[float, int] | None:
    """The seat's share of the pot from its own two dice against the others' open ones, and
    how many are still in (``None`` before the linka dice or while all-in is agreed)."""
    if view.get("phase") == "agree" or not view.get("linka") or len(view["dice"][seat]) < 2:
        return None
    others = [s for s in range(len(view["dice"])) if s != seat and s not in view["folded"]]
    mine = tuple(view["dice"][seat])
    return equity(tuple(view["linka"]), mine, [view["dice"][s][0] for s in others]), \
        len(others) + 1


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        found = share_of(view, seat)
        if found is None:
            continue
        share, players = found
        mine = view["dice"][seat]
        moments.append(bet_moment(step, game.parse_action(made),
                                  step.before.legal_actions(), share, players, view,
                                  {"dice": " ".join(map(str, mine))}))
    return Graded(moments, "chips", tolerance=1e-9,
                  method="the pot share of the seat's own dice against the open dice")


@register_grader("linka")
def grader(game: Game) -> Any:
    return grade


@register_advisor("linka")
def advisor(game: Game) -> Advisor:
    return BettingAdvisor(game, share_of)

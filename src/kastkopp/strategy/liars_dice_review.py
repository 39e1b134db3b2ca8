"""Liar's dice's review: for each bid, the chance that it holds given the bidder's own
dice; for each challenge or exact call, the chance that it was right, given the caller's
own dice. Every other cup counts binomially (the odds a player can know, not a guess at how
others bid)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game
from kastkopp.games.liars_dice import Bid, Calza, Dudo, HandBid, LiarsDice
from kastkopp.strategy.liars_dice import StrongLiarsBot, current_bid
from kastkopp.strategy.review import Graded, Moment, Step, register_grader


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    assert isinstance(game, LiarsDice)
    odds = StrongLiarsBot(game, trust=0.0)
    moments: list[Moment] = []
    for step in steps:
        if step.kind != "action" or step.seat is None or step.action is None:
            continue
        view = step.before.view(step.seat)
        action = game.parse_action(step.action)
        own = view.get("your_dice") or []
        situation = {"dice": " ".join(map(str, own))} if own else {}
        if view.get("bid"):
            situation["bid"] = str(view["bid"])
        detail: dict[str, float] = {}
        odds._memo = {}
        if view.get("hand") != "single" and "your_dice" in view:
            bid = current_bid(game, view)
            if isinstance(action, Bid | HandBid):
                detail["holds"] = odds.chance(action, view)
            elif isinstance(action, Dudo) and bid is not None:
                detail["right"] = 1.0 - odds.chance(bid, view)
            elif isinstance(action, Calza) and isinstance(bid, Bid):
                detail["right"] = odds.exact(bid, view)
        detail = {k: min(1.0, max(0.0, v)) for k, v in detail.items()}  # float sums
        moments.append(Moment(step.index, step.seat, "decision", made=step.action,
                              situation=situation, detail=detail))
    return Graded(moments, "dice", tolerance=1e-9,
                  method="binomial odds from the seat's own dice")


@register_grader("liars_dice")
def grader(game: Game) -> Any:
    return grade

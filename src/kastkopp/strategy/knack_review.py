"""Knack's review: every bet graded in chips by the exact pot shares of the open dice
(:func:`kastkopp.games.knack.equities`); everything in Knack lies open on the table. The
hint ranks the bets of the moment the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game
from kastkopp.strategy.advice import Advisor, register_advisor
from kastkopp.strategy.betting_review import BettingAdvisor, bet_moment
from kastkopp.strategy.knack_odds import equities
from kastkopp.strategy.review import Graded, Moment, Step, decisions, register_grader


def share_of(view: dict[str, Any], seat: int) -> tuple[float, int] | None:
    """The seat's share of the pot from the open dice, and how many are still in."""
    active = [s for s in range(len(view["kept"])) if s not in view["folded"]]
    if seat not in active:
        return None
    shares = equities(tuple(tuple(view["kept"][s]) for s in active))
    return shares[active.index(seat)], len(active)


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        action = game.parse_action(made)
        found = share_of(view, seat)
        if found is None:
            continue
        share, players = found
        kept = " ".join(map(str, view["kept"][seat])) or "-"
        moments.append(bet_moment(step, action, step.before.legal_actions(), share,
                                  players, view, {"kept": kept}))
    return Graded(moments, "chips", tolerance=1e-9,
                  method="exact pot shares of the open dice")


@register_grader("knack")
def grader(game: Game) -> Any:
    return grade


@register_advisor("knack")
def advisor(game: Game) -> Advisor:
    return BettingAdvisor(game, share_of)

"""Knack's review: every bet graded in chips by the exact pot shares of the open dice
(:func:`kastkopp.games.knack.equities`); everything in Knack lies open on the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game
from kastkopp.strategy.betting_review import bet_moment
from kastkopp.strategy.knack_odds import equities
from kastkopp.strategy.review import Graded, Moment, Step, decisions, register_grader


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        action = game.parse_action(made)
        active = [s for s in range(len(view["kept"])) if s not in view["folded"]]
        if seat not in active:
            continue
        shares = equities(tuple(tuple(view["kept"][s]) for s in active))
        share = shares[active.index(seat)]
        kept = " ".join(map(str, view["kept"][seat])) or "-"
        moments.append(bet_moment(step, action, step.before.legal_actions(), share,
                                  len(active), view, {"kept": kept}))
    return Graded(moments, "chips", tolerance=1e-9,
                  method="exact pot shares of the open dice")


@register_grader("knack")
def grader(game: Game) -> Any:
    return grade

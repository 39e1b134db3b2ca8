"""Linka's review: every bet graded in chips by the seat's share of the pot from its own
two dice and the others' open dice (:func:`kastkopp.games.linka.equity`), as the seat knew
it when it bet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game
from kastkopp.games.linka import equity
from kastkopp.strategy.betting_review import bet_moment
from kastkopp.strategy.review import Graded, Moment, Step, decisions, register_grader


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        if view.get("phase") == "agree" or not view.get("linka"):
            continue
        others = [s for s in range(len(view["dice"])) if s != seat and s not in view["folded"]]
        mine = tuple(view["dice"][seat])
        share = equity(tuple(view["linka"]), mine, [view["dice"][s][0] for s in others])
        moments.append(bet_moment(step, game.parse_action(made),
                                  step.before.legal_actions(), share, len(others) + 1, view,
                                  {"dice": " ".join(map(str, mine))}))
    return Graded(moments, "chips", tolerance=1e-9,
                  method="the pot share of the seat's own dice against the open dice")


@register_grader("linka")
def grader(game: Game) -> Any:
    return grade

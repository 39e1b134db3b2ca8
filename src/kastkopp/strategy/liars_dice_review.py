"""Liar's dice's review: for each bid, the chance that it holds given the bidder's own
dice; for each challenge or exact call, the chance that it was right, given the caller's
own dice. Every other cup counts binomially (the odds a player can know, not a guess at how
others bid).

Rounds of two players that the CFR solver handles (the rounds the ``strong`` bot plays by
its equilibrium, :func:`kastkopp.strategy.liars_equilibrium.equilibrium_for`) are graded
exactly as well: each bid or challenge against the best one, in dice, both players keeping
to the equilibrium afterwards.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from kastkopp.engine import Game
from kastkopp.games.liars_dice import Bid, Calza, Dudo, HandBid, LiarsDice
from kastkopp.locale import spoken
from kastkopp.strategy.cfr import Decision
from kastkopp.strategy.liars_dice import StrongLiarsBot, current_bid
from kastkopp.strategy.liars_equilibrium import BiddingGame, LiarsEquilibrium, equilibrium_for
from kastkopp.strategy.review import (
    Graded,
    Moment,
    Step,
    decisions,
    register_grader,
    register_words,
)

# The round solver stops at an exploitability of 0.001 dice; a choice this close to the
# best counts as the best.
TOLERANCE = 0.01
# That bound is over the whole round: at a position the other player's equilibrium bids
# reach with chance r, the values may be off by about 0.001 / r. Positions reached less
# often than this (after a bid the equilibrium hardly ever makes) are described, not graded.
MIN_REACH = 0.1


class RoundValues:
    """What every bid and challenge of a solved round is worth, both keeping to the
    equilibrium: the first bidder's winnings for every pair of cups, node by node."""

    def __init__(self, eq: LiarsEquilibrium) -> None:
        self.eq = eq
        self.game = BiddingGame(eq.bidding)
        self.chance = self.game.chance()
        self.names = {str(b): i for i, b in enumerate(eq.bidding.bids)}
        self._values: dict[Hashable, np.ndarray] = {}

    def value(self, node: tuple[Any, ...]) -> np.ndarray:
        if node not in self._values:
            shape = self.game.expand(node)
            if not isinstance(shape, Decision):
                self._values[node] = self.game.payoff(shape.key)
            else:
                policy = self.eq.solver.policy(node)
                total = np.zeros(self.game.hands)
                for label, child in shape.actions:
                    p = policy[label]
                    weight = p[:, None] if shape.player == 0 else p[None, :]
                    total += weight * self.value(child)  # type: ignore[arg-type]
                self._values[node] = total
        return self._values[node]

    def node(self, bids: Sequence[str]) -> tuple[int, ...] | None:
        if any(b not in self.names for b in bids):
            return None
        return tuple(self.names[b] for b in bids)

    def action_values(self, node: tuple[int, ...], hand: int) -> dict[str, float] | None:
        """For the player to move at ``node`` with ``hand``: each action's expected dice won,
        given how the other player's equilibrium bids reach the node; ``None`` where they
        reach it less often than :data:`MIN_REACH` (the values are not precise there)."""
        mover = len(node) % 2
        bids = self.eq.bidding.bids
        reach = np.ones(self.game.hands[1 - mover])
        for i in range(len(node)):
            if i % 2 != mover:
                reach = reach * self.eq.solver.policy(node[:i])[str(bids[node[i]])]
        dealt = self.chance[hand, :] if mover == 0 else self.chance[:, hand]
        weights = dealt * reach
        if weights.sum() < MIN_REACH * dealt.sum():
            return None
        shape = self.game.expand(node)
        assert isinstance(shape, Decision)
        out = {}
        for label, child in shape.actions:
            v = self.value(child)  # type: ignore[arg-type]
            row = v[hand, :] if mover == 0 else -v[:, hand]
            out[label] = float(weights @ row / weights.sum())
        return out


_ROUNDS: dict[int, RoundValues] = {}


def round_values(game: LiarsDice, view: dict[str, Any]) -> tuple[RoundValues, int] | None:
    """The solved round a decision belongs to, and the mover's hand in it, if any."""
    alive = [s for s, a in enumerate(view["alive"]) if a]
    if len(alive) != 2 or view["palifico"] is not None or "your_dice" not in view:
        return None
    history = view["history"]
    opener = history[0]["seat"] if history else view["to_move"]
    other = alive[1] if alive[0] == opener else alive[0]
    eq = equilibrium_for(game.rules, (view["dice_counts"][opener], view["dice_counts"][other]))
    if eq is None:
        return None
    values = _ROUNDS.setdefault(id(eq), RoundValues(eq))
    mover = 0 if view["seat"] == opener else 1
    cup = tuple(sorted(view["your_dice"]))
    if cup not in eq.cups[mover]:
        return None
    return values, eq.cups[mover].index(cup)


def _exact(step: Step, view: dict[str, Any], game: LiarsDice, detail: dict[str, float],
           situation: dict[str, str]) -> Moment | None:
    """The decision graded against the round's equilibrium, where it is solved."""
    found = round_values(game, view)
    if found is None:
        return None
    values, hand = found
    bids = [h["action"] for h in view["history"] if h["action"].startswith("bid")]
    node = values.node(bids)
    if node is None:
        return None
    worth = values.action_values(node, hand)
    if worth is None or step.action not in worth:
        return None
    best = max(worth, key=lambda k: worth[k])
    return Moment(step.index, step.seat or 0, "decision", made=step.action or "", best=best,
                  cost=worth[best] - worth[step.action or ""], situation=situation,
                  detail={**detail, "value": worth[step.action or ""]})


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    assert isinstance(game, LiarsDice)
    odds = StrongLiarsBot(game, trust=0.0)
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        action = game.parse_action(made)
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
        exact = _exact(step, view, game, detail, situation)
        moments.append(exact or Moment(step.index, seat, "decision", made=made,
                                       situation=situation, detail=detail))
    return Graded(moments, "dice", tolerance=TOLERANCE,
                  method="binomial odds from the seat's own dice; two-player rounds the "
                         "solver handles: the round's equilibrium")


@register_grader("liars_dice")
def grader(game: Game) -> Any:
    return grade


@register_words("liars_dice")
def words(game: Game, notation: str, lang: str) -> str:
    """``bid 2x3`` → ``bud 2×3``; ``dudo`` → ``utmana``."""
    verb, _, rest = notation.partition(" ")
    if verb == "bid":
        return spoken(lang, "bid {bid}", bid=rest.replace("x", "×"))
    return {"dudo": spoken(lang, "challenge the bid"), "calza": spoken(lang, "call it exact"),
            "accept": spoken(lang, "accept")}.get(notation, notation)

"""Bots for Knack. Everything in Knack lies open on the table, so the strong bot computes
each player's exact share of the pot (:func:`kastkopp.games.knack.equities`) and bets by
expected value:

- it keeps its highest die (every choice makes a triple equally likely; the highest wins
  ties between triples);
- worst placed, it raises the most it may when a called raise gains (its share times the
  players in the pot exceeds one), else knocks;
- facing a raise, it calls when its share of the pot after calling is worth the call;
- it never double-knocks (a 0.375 chance of winning back what a 0.625 chance pays again)
  and always accepts one;
- asked to let a short player go all-in, it refuses: he then folds, leaving his money in
  the pot and one rival fewer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Action, Game, Player
from kastkopp.games.knack import DoubleKnock, Keep, Knock, Pass, double_knock_chance, equities
from kastkopp.stakes import Accept, AllIn, Call, Fold, Raise, Refuse
from kastkopp.strategy import register_bot


@dataclass
class StrongKnackBot(Player):
    margin: float = 0.05  # how much a raise must gain, as a share of the raise, to be made

    def equity(self, view: dict[str, Any]) -> tuple[float, int]:
        """My share of the pot if nobody folds, and how many others are still in."""
        seat = view["seat"]
        active = [s for s in range(len(view["kept"])) if s not in view["folded"]]
        shares = equities(tuple(tuple(view["kept"][s]) for s in active))
        return shares[active.index(seat)], len(active) - 1

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        phase = view["phase"]
        if phase == "keep":
            return Keep(max(view["dice"][view["seat"]]))
        if phase == "double":
            gain = 2 * float(double_knock_chance()) - 1
            return DoubleKnock() if gain > 0 else Pass()
        if phase == "agree":
            return Refuse()
        if phase == "answer":
            gain = 1 - 2 * float(double_knock_chance())
            return Accept() if gain > 0 else Refuse()
        share, others = self.equity(view)
        if phase == "bet":
            raises = [a for a in legal if isinstance(a, Raise)]
            if raises and share * (others + 1) - 1 > self.margin:
                return max(raises, key=lambda a: a.amount)
            return Knock()
        owed = view["to_call"]
        if Call() in legal:
            return Call() if share * (view["pot"] + owed) >= owed else Fold()
        left = view["purses"][view["seat"]]
        if AllIn() in legal and share * (view["pot"] + left) >= left:
            return AllIn()
        return Fold()


@register_bot("knack", "strong", "exact pot shares from the open dice: raises, calls and "
              "folds by expected value")
def strong(game: Game) -> Player:
    return StrongKnackBot()

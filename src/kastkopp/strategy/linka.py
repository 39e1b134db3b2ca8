"""Bots for Linka. The strong bot knows its own two dice and everyone's open die; it counts
every hidden die the others may have (:func:`kastkopp.games.linka.equity`, ties replayed
as even chances) and bets by expected value:

- with a share of the pot larger than an even split by ``margin``, it raises the most it
  may (a raise that is called gains raise × (share × players − 1));
- facing a bet, it calls when its share of the pot after the call is worth the call, and
  otherwise folds; short of money it goes all-in by the same reckoning;
- asked to let a short player go all-in, it refuses: he then folds, leaving his money in
  the pot and one rival fewer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Action, Game, Player
from kastkopp.games.linka import equity
from kastkopp.games.stakes import AllIn, Call, Check, Fold, Raise, Refuse
from kastkopp.strategy import register_bot


@dataclass
class StrongLinkaBot(Player):
    margin: float = 0.1

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        if view["phase"] == "agree":
            return Refuse()
        seat = view["seat"]
        others = [s for s in range(len(view["dice"])) if s != seat and s not in view["folded"]]
        mine = tuple(view["dice"][seat])
        share = equity(tuple(view["linka"]), mine, [view["dice"][s][0] for s in others])
        raises = [a for a in legal if isinstance(a, Raise)]
        if raises and share * (len(others) + 1) - 1 > self.margin:
            return max(raises, key=lambda a: a.amount)
        owed = view["to_call"]
        if Check() in legal:
            return Check()
        if Call() in legal:
            return Call() if share * (view["pot"] + owed) >= owed else Fold()
        left = view["purses"][seat]
        if AllIn() in legal and share * (view["pot"] + left) >= left:
            return AllIn()
        return Fold()


@register_bot("linka", "strong", "counts the others' possible hidden dice: raises, calls "
              "and folds by expected value")
def strong(game: Game) -> Player:
    return StrongLinkaBot()


@dataclass
class EquilibriumLinkaBot(Player):
    """Two players: bets by the exact equilibrium of heads-up Linka
    (:mod:`kastkopp.strategy.linka_equilibrium`), from its own dice and the open ones;
    more players, all-in tables and the all-in question, as the strong bot."""

    game: Game
    fallback: Player

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        from kastkopp.strategy.linka_equilibrium import Deal, equilibrium_for

        rules = self.game.rules
        if (len(view["dice"]) != 2 or view["phase"] != "bet" or view["deal"] != 1
                or getattr(rules, "all_in", "no") != "no"):
            return self.fallback.choose(view, legal, rng)
        seat = view["seat"]
        deal = Deal(tuple(view["linka"]), view["dice"][1][0], view["dice"][0][0])
        history = [h["action"] for h in view["history"]]
        policy = equilibrium_for(rules).policy(
            deal, history, view["dice"][seat][1], seat)
        by_name = {str(a): a for a in legal}
        labels = [label for label, p in policy.items() if label in by_name and p > 0]
        if not labels:
            return self.fallback.choose(view, legal, rng)
        weights = [policy[label] for label in labels]
        return by_name[rng.choices(labels, weights=weights)[0]]


@register_bot("linka", "equilibrium", "two players: bets by the exact equilibrium of "
              "heads-up Linka (raises, bluffs, calls and folds mixed as solved); more "
              "players: as the strong bot")
def equilibrium(game: Game) -> Player:
    return EquilibriumLinkaBot(game, StrongLinkaBot())

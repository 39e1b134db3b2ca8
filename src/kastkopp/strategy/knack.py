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
from kastkopp.games.knack import DoubleKnock, Keep, Knock, Pass, Reroll
from kastkopp.games.stakes import Accept, AllIn, Call, Fold, Raise, Refuse
from kastkopp.strategy import register_bot
from kastkopp.strategy.knack_odds import double_knock_chance, equities


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


@dataclass
class EquilibriumKnackBot(Player):
    """Two players: plays the exact solution of heads-up Knack
    (:mod:`kastkopp.strategy.knack_equilibrium`); more players, or all-in tables, the
    strong bot. Everything it needs is open on the table."""

    game: Game
    fallback: Player

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        from kastkopp.strategy.knack_equilibrium import solution_for

        rules = self.game.rules
        if len(view["kept"]) != 2 or getattr(rules, "all_in", "no") != "no":
            return self.fallback.choose(view, legal, rng)
        if view["phase"] == "respond" and Call() not in legal:
            return Fold()  # a raise beyond his purse: folding is all there is
        action = _solved_action(solution_for(rules), view)
        return action if action in legal else self.fallback.choose(view, legal, rng)


def _solved_action(solution: Any, view: dict[str, Any]) -> Action:
    """What the solution does in this position (seat 0 maximises its value, seat 1
    minimises it)."""
    from kastkopp.games.knack import pair
    from kastkopp.strategy.knack_equilibrium import KEPT, best_raise

    seat, phase = view["seat"], view["phase"]
    kept = [tuple(k) for k in view["kept"]]
    sign = 1.0 if seat == 0 else -1.0  # the bot's own value is sign × seat 0's
    if phase == "double":
        ask, grant = solution.double_knock(view["share"])
        return DoubleKnock() if ask > 0 and grant >= 0 else Pass()
    if phase == "answer":
        _, grant = solution.double_knock(view["share"])
        return Accept() if grant >= 0 else Refuse()
    stake = view["paid_in"][seat]
    if phase == "keep":
        dice = tuple(view["dice"][seat])
        mine = [(f,) for f in sorted(set(dice))] + [()]
        if seat == 0:
            theirs_dice = tuple(view["dice"][1])
            theirs = [kept[1]] if pair(theirs_dice) is not None \
                else [(f,) for f in sorted(set(theirs_dice))] + [()]
            score = {k: round(min(solution.bet_value(stake, k, t) for t in theirs), 9)
                     for k in mine}
        else:
            score = {k: round(-solution.bet_value(stake, kept[0], k), 9) for k in mine}
        best = max(mine, key=lambda k: (score[k], KEPT.index(k)))
        return Keep(best[0]) if best else Reroll()
    if phase == "bet":
        values = solution.raise_values(stake, kept[0], kept[1])
        chosen = best_raise(values, 1 if seat == 0 else -1)
        return Knock() if chosen == 0 else Raise(chosen)
    if phase == "respond":
        raised = max(view["paid_in"])
        call = sign * solution.value(raised, kept[0], kept[1])
        return Call() if call >= -stake else Fold()
    return Fold()


@register_bot("knack", "equilibrium", "two players: the exact solution of heads-up Knack "
              "(keeps, raises, calls and double knocks by backward induction); more players: "
              "as the strong bot")
def equilibrium(game: Game) -> Player:
    return EquilibriumKnackBot(game, StrongKnackBot())

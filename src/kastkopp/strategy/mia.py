"""Bots for Slosch (Mia), reasoning from the odds of the active value order.

The sensible bot:

- tells the truth when its roll beats the claim, and otherwise bluffs the lowest value that
  is legal (the most believable lie), now and then one step higher;
- judges how likely a claim is true, distrusting the bare minimum above the previous claim
  (the classic forced bluff);
- calls when the claim is more likely false than its own chance of getting through after
  believing; passes likely-true claims that it could hardly beat; otherwise believes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kastkopp.engine import Action, Game, Player
from kastkopp.games.mia import MIA, Announce, Call, MiaRules, Pass, Roll, chance_of
from kastkopp.strategy import register_bot


@dataclass
class SensibleMiaBot(Player):
    rules: MiaRules
    honest_weight: float = 0.3  # how much it expects the others to play as it does
    bluff_survives: float = 0.4  # how often a forced bluff of its own goes unpunished
    pass_if_true: float = 0.5  # pass a claim at least this likely to be true ...
    pass_if_beaten_below: float = 0.3  # ... that a fresh roll beats this rarely
    shade: float = 0.15  # how often a forced bluff goes one step above the minimum

    def reached(self, value: int) -> Fraction:
        """The chance that a fresh roll is at least ``value``."""
        return self.rules.beaten(value) + chance_of(value)

    def believed(self, view: dict[str, Any]) -> float:
        """How likely the current claim is true.

        Against a player like itself (truthful when the roll beats the previous claim, else
        the lowest legal value, sometimes one higher) a claim far above the previous one is
        true, and the bare minimum above it is a likely bluff; against a careless player the
        claim is as likely as a fresh roll reaching it. The two are mixed.
        """
        claim = int(view["claim"])
        announcements = [int(h["action"].split()[1]) for h in view["history"]
                         if h["action"].startswith("announce")]
        honest = 1.0
        if len(announcements) >= 2:
            values = self.rules.values
            above = values.index(claim) - values.index(announcements[-2])
            forced = float(1 - self.rules.beaten(announcements[-2]))  # had to bluff
            bluffed = forced * {1: 1 - self.shade, 2: self.shade}.get(above, 0.0)
            honest = float(chance_of(claim)) / (float(chance_of(claim)) + bluffed)
        careless = float(self.reached(claim))
        return self.honest_weight * honest + (1 - self.honest_weight) * careless

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        if view["phase"] == "announce":
            return self.announce(view, legal, rng)
        claim = int(view["claim"])
        if "your_dice" in view:  # its own claim came back: it knows whether it holds
            holds = self.rules.rank(int(view["your_dice"])) >= self.rules.rank(claim)
            return Roll() if holds and Roll() in legal else Call()
        truth = self.believed(view)
        beaten = float(self.rules.beaten(claim))
        if Pass() in legal and truth >= self.pass_if_true and beaten < self.pass_if_beaten_below:
            return Pass()
        believing = beaten + (1 - beaten) * self.bluff_survives
        if Roll() not in legal or 1 - truth > believing:
            return Call()
        return Roll()

    def announce(self, view: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random) -> Action:
        mine = int(view["your_dice"])
        options = [a for a in legal if isinstance(a, Announce)]
        if Announce(mine) in options:
            return Announce(mine)
        honest_options = [a for a in options if a.value != MIA or not self.rules.mia_reveals]
        options = honest_options or options
        if len(options) > 1 and rng.random() < self.shade:
            return options[1]
        return options[0]


@register_bot("mia", "sensible", "truthful when it can, bluffs low, calls unlikely claims")
def sensible(game: Game) -> Player:
    assert isinstance(game.rules, MiaRules)
    return SensibleMiaBot(game.rules)


@dataclass
class EquilibriumMiaBot(Player):
    """Plays the solved heads-up exchange (:mod:`kastkopp.strategy.mia_equilibrium`).

    Two players alive: exactly the equilibrium — each announcement mixed as solved for the
    value in the cup and the claim to beat, each answer as solved for the claim and how
    often it has been passed. More players: the same tables, read as if the player to move
    faced one opponent (the claim to beat, the claim made, its own dice when they are its
    own), kept to what is legal here; where the tables say nothing, the sensible bot.
    """

    rules: MiaRules
    fallback: Player

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        policy = self.policy(view)
        by_name = {str(a): a for a in legal}
        labels = [label for label, p in policy.items() if label in by_name and p > 0]
        if not labels:
            return self.fallback.choose(view, legal, rng)
        return by_name[rng.choices(labels, weights=[policy[x] for x in labels])[0]]

    def policy(self, view: dict[str, Any]) -> dict[str, float]:
        """The chance of each action the solved exchange gives this position."""
        from kastkopp.strategy.mia_equilibrium import equilibrium_for

        eq = equilibrium_for(self.rules)
        said = [h["action"] for h in view["history"]]
        claims = [int(a.split()[1]) for a in said if a.startswith("announce")]
        if view["phase"] == "announce":
            to_beat = claims[-1] if claims else None
            mine = int(view["your_dice"])
            chances = eq.announcement_policy(to_beat).get(mine, {})
            return {f"announce {c}": p for c, p in chances.items()}
        if view["phase"] != "respond" or not claims:
            return {}
        claim = claims[-1]
        to_beat = claims[-2] if len(claims) > 1 else None
        sub = eq.subgames.get(to_beat)
        if "your_dice" in view:  # the cup came back to the roller: his own dice decide
            node = ("respond", claim, 1)
            if sub is None or node not in sub.solver.tree.index:
                return {}
            column = self.rules.rank(int(view["your_dice"]))
            return {label: float(p[column]) for label, p in sub.solver.policy(node).items()}
        node = ("respond", claim, 0)
        if sub is None or node not in sub.solver.tree.index:
            return {}
        return {label: float(p[0]) for label, p in sub.solver.policy(node).items()}


@register_bot("mia", "equilibrium", "two players: the solved heads-up equilibrium (bluffs, "
              "calls and passes mixed as solved); more players: the same tables, one "
              "opponent at a time")
def equilibrium(game: Game) -> Player:
    assert isinstance(game.rules, MiaRules)
    return EquilibriumMiaBot(game.rules, SensibleMiaBot(game.rules))

"""Bots for Slosch (Mia), reasoning from the odds of the active value order.

The sensible bot:

- tells the truth when its roll beats the claim, and otherwise bluffs the lowest value that
  is legal (the most believable lie), now and then one step higher;
- judges a claim by how likely a fresh roll reaches it, trusting less a claim that is the
  bare minimum above the previous one (the classic forced bluff);
- calls unlikely claims, passes likely-true claims that it could hardly beat, and otherwise
  believes and rolls.
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
    call_below: float = 0.5  # call when the claim is this unlikely to be true
    pass_above: float = 0.6  # pass a claim at least this likely to be true ...
    pass_if_beaten_below: float = 0.35  # ... that a fresh roll beats this rarely
    shade: float = 0.15  # how often a forced bluff goes one step above the minimum

    def reached(self, value: int) -> Fraction:
        """The chance that a fresh roll is at least ``value``."""
        return self.rules.beaten(value) + chance_of(value)

    def believed(self, view: dict[str, Any]) -> float:
        """How likely the current claim is true, from the odds and the round so far."""
        claim = int(view["claim"])
        truth = float(self.reached(claim))
        announcements = [int(h["action"].split()[1]) for h in view["history"]
                         if h["action"].startswith("announce")]
        if len(announcements) >= 2:
            before = announcements[-2]
            values = self.rules.values
            if values.index(claim) == values.index(before) + 1:
                truth *= 0.6  # the bare minimum above the last claim: often a forced bluff
        return truth

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        if view["phase"] == "announce":
            return self.announce(view, legal, rng)
        claim = int(view["claim"])
        truth = self.believed(view)
        can_pass = Pass() in legal
        if can_pass and truth >= self.pass_above and \
                self.rules.beaten(claim) < self.pass_if_beaten_below:
            return Pass()
        if truth < self.call_below or Roll() not in legal:
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

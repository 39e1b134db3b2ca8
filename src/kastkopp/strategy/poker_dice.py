"""Bots for Liar Dice (Poker Menteur), reasoning from exact reroll odds.

The strong bot knows, from :class:`kastkopp.games.poker_dice.RerollTable`:

- for every choice of dice to pick up, the chance of reaching a hand with the throws it has
  left (it always picks the best choice);
- the chance that the opponent's announcement is true: that a player who has thrown as many
  times as the opponent, aiming at the announced hand, reaches it — more credible when he
  announced without picking up dice although he could have.

It doubts when the announcement is less likely true than its own chances after accepting,
announces its real hand when that is high enough, and otherwise rerolls towards the lowest
legal hand; out of throws, it bluffs the lowest legal hand (the most believable lie), now and
then one step higher. Its first call is the truth, or a bluff of a middling hand when its
throw is weak.

The simple bot plays as a beginner does (keep the biggest group, doubt what one throw rarely
reaches) and is the yardstick: ``kastkopp simulate poker_dice --players
bot:strong,bot:simple`` shows how much the odds are worth.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Action, Game, Player
from kastkopp.games.poker_dice import (
    Accept,
    Announce,
    Doubt,
    Hand,
    PokerDiceRules,
    Reroll,
    best_hand,
    hands,
    parse_hand,
)
from kastkopp.strategy import register_bot
from kastkopp.strategy.poker_dice_odds import hand_chances, reroll_table


@dataclass
class StrongPokerDiceBot(Player):
    rules: PokerDiceRules
    # The weights below were chosen by self-play: each was played against the others over
    # 1500 seeded games, and these beat the first guesses (0.65, 0.3, 0.5, 1.0) 59% of the
    # time, then 53% once stand_bluff was tuned.
    true_claim_wins: float = 0.9  # how often a true announcement goes on to win
    bluff_wins: float = 0.2  # how often a forced bluff goes on to win
    weak_opening: float = 0.5  # a first throw reached this often by chance is weak ...
    opening_bluff: float = 0.2  # ... and bluffed this often
    shade: float = 0.15  # how often a bluff goes one hand above the lowest
    stand_bluff: float = 0.2  # how often a claim made without rerolling (when it could) lies

    def reached_fresh(self, hand: Hand, throws: int) -> float:
        """The chance that a player with ``throws`` throws, aiming at ``hand``, reaches it."""
        return reroll_table().fresh(self.rules.dice, hand.strength, max(1, throws))

    def reach(self, mine: Hand, target: Hand, rerolls: int) -> float:
        """My chance of reaching ``target`` with ``rerolls`` rerolls, picking the best dice."""
        table = reroll_table()
        return float(table.reach(self.rules.dice, target.strength, rerolls)
                     [table.index[mine.faces]])

    def claim_true(self, view: dict[str, Any], claim: Hand) -> float:
        """The chance that the claim on the table is true, from how often its announcer
        threw; a claim made without rerolling, though he could have, is more credible."""
        claimant = view["claimant"]
        throws = view["throws"][claimant]
        true = self.reached_fresh(claim, throws)
        turn = []
        for entry in reversed(view["history"]):
            if entry["seat"] != claimant:
                break
            turn.append(entry["action"])
        stood = not any(a.startswith("reroll") for a in turn)
        if stood and throws < view["max_throws"] and len(view["history"]) > 1:
            true = true / (true + self.stand_bluff * (1 - true))
        return true

    def best_reroll(self, mine: Hand, target: Hand, rerolls: int,
                    legal: Sequence[Action]) -> tuple[Reroll, float] | None:
        options = {a.faces: a for a in legal if isinstance(a, Reroll)}
        if not options or rerolls < 1:
            return None
        chances = reroll_table().choice_chances(mine.faces, self.rules.dice,
                                                target.strength, rerolls)
        faces, chance = max((c for c in chances if c[0] in options), key=lambda c: c[1])
        return options[faces], chance

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        kind = self.rules.dice
        seat = view["seat"]
        mine = Hand.of(view["your_faces"], kind)
        rerolls = view["max_throws"] - view["throws"][seat]
        if view["phase"] == "chase":
            five_aces = best_hand(kind)
            best = self.best_reroll(mine, five_aces, rerolls, legal)
            return best[0] if best else Accept()
        if view["claim"] is None:
            return self.opening(mine, rng)
        claim = parse_hand(view["claim"], kind)
        every = hands(kind)
        lowest = every[claim.strength + 1] if claim.strength + 1 < len(every) else None
        if Doubt() in legal:
            if lowest is None:
                return Doubt()
            true = self.claim_true(view, claim)
            mine_reaches = self.reach(mine, lowest, rerolls)
            accepting = (mine_reaches * self.true_claim_wins +
                         (1 - mine_reaches) * self.bluff_wins)
            if 1 - true > accepting:
                return Doubt()
        assert lowest is not None
        if mine >= lowest:
            return Announce(mine)
        best = self.best_reroll(mine, lowest, rerolls, legal)
        if best is not None and best[1] > 0:
            return best[0]
        step = 1 if rng.random() < self.shade and lowest.strength + 1 < len(every) else 0
        return Announce(every[lowest.strength + step])

    def opening(self, mine: Hand, rng: random.Random) -> Action:
        reached = at_least_chances(self.rules.dice)
        if reached[mine.strength] <= self.weak_opening or rng.random() >= self.opening_bluff:
            return Announce(mine)
        # a bluff: the best hand that one throw still reaches at least 40% of the time
        middling = max(i for i, p in enumerate(reached) if p >= 0.4)
        return Announce(max(hands(self.rules.dice)[middling], mine))


@functools.cache
def at_least_chances(dice: str) -> tuple[float, ...]:
    """For every hand, worst first, the chance that one throw is at least that hand."""
    chances = hand_chances(dice)
    exactly = [float(chances[h]) for h in hands(dice)]
    return tuple(sum(exactly[i:]) for i in range(len(exactly)))


@dataclass
class SimplePokerDiceBot(Player):
    """How a beginner plays: keeps its biggest group and throws the rest, says the truth
    when it beats the claim, bluffs the lowest hand when it must, and doubts any claim that
    one throw reaches less than half the time. A yardstick for the strong bot."""

    rules: PokerDiceRules

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        kind = self.rules.dice
        mine = Hand.of(view["your_faces"], kind)
        rerolls = [a for a in legal if isinstance(a, Reroll)]
        keep = mine.groups[0][1]  # the face of the biggest group (the higher one on a tie)
        rest = tuple(f for f in mine.faces if f != keep)
        if view["phase"] == "chase":
            others = tuple(f for f in mine.faces if f != best_hand(kind).faces[0])
            return Reroll(others, kind) if Reroll(others, kind) in legal else Accept()
        if view["claim"] is None:
            return Announce(mine)
        claim = parse_hand(view["claim"], kind)
        if Doubt() in legal and at_least_chances(kind)[claim.strength] < 0.5:
            return Doubt()
        if mine > claim:
            return Announce(mine)
        if rest and Reroll(rest, kind) in rerolls:
            return Reroll(rest, kind)
        announcements = [a for a in legal if isinstance(a, Announce)]
        return announcements[0] if announcements else Doubt()


@register_bot("poker_dice", "simple", "keeps its biggest group, truthful when it can, "
              "doubts claims one throw rarely reaches")
def simple(game: Game) -> Player:
    assert isinstance(game.rules, PokerDiceRules)
    return SimplePokerDiceBot(game.rules)


@register_bot("poker_dice", "strong", "exact reroll odds, doubts unlikely announcements, "
              "bluffs low")
def strong(game: Game) -> Player:
    assert isinstance(game.rules, PokerDiceRules)
    return StrongPokerDiceBot(game.rules)


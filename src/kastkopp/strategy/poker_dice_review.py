"""Poker Menteur's review (Liar Dice): at every decision with an announcement on the table,
the chance to make or beat the announced hand with the throws left
(:class:`kastkopp.games.poker_dice.RerollTable`). A reroll is graded by that chance for the
lowest hand that beats the announcement: the best dice to pick up against the ones picked
up, in chance points. The hint gives the same odds before the choice, the rerolls ranked."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Game
from kastkopp.games.poker_dice import Hand, PokerDiceRules, Reroll, hands, parse_hand
from kastkopp.strategy.advice import Advisor, Hint, OddsAdvisor, ranked, register_advisor
from kastkopp.strategy.poker_dice_odds import reroll_table
from kastkopp.strategy.review import Graded, Moment, Step, decisions, register_grader


@dataclass(frozen=True)
class Odds:
    """From a seat's view with an announcement to beat: the chance to make at least it with
    the throws left, and each legal pick-up's chance of beating it (empty: no reroll)."""

    make: float
    beat: dict[str, float]


def odds(rules: PokerDiceRules, view: dict[str, Any], legal: Iterable[str]) -> Odds | None:
    """``None`` where there is nothing to beat (no announcement, or no dice in hand)."""
    if "your_faces" not in view or view.get("claim") is None:
        return None
    kind = rules.dice
    table = reroll_table()
    mine = Hand.of(view["your_faces"], kind)
    claim = parse_hand(view["claim"], kind)
    rerolls = view["max_throws"] - view["throws"][view["seat"]]
    make = float(table.reach(kind, claim.strength, rerolls)[table.index[mine.faces]])
    make = min(1.0, max(0.0, make))  # a sum of floats may pass 1 by a hair
    above = claim.strength + 1
    beat: dict[str, float] = {}
    if rerolls > 0 and above < len(hands(kind)):
        names = {str(Reroll(faces, kind)): p
                 for faces, p in table.choice_chances(mine.faces, kind, above, rerolls)}
        beat = {a: names[a] for a in legal if a in names}
    return Odds(make, beat)


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    rules = game.rules
    assert isinstance(rules, PokerDiceRules)
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        found = odds(rules, view, (str(a) for a in step.before.legal_actions()))
        if found is None:
            moments.append(Moment(step.index, seat, "decision", made=made))
            continue
        detail = {"make_or_beat": found.make}
        situation = {"dice": str(view["your_hand"]), "to_beat": str(view["claim"])}
        action = game.parse_action(made)
        chosen = found.beat.get(str(action)) if isinstance(action, Reroll) else None
        if chosen is not None:
            best = max(found.beat, key=lambda f: found.beat[f])
            moments.append(Moment(step.index, seat, "decision", made=made, best=best,
                                  cost=found.beat[best] - chosen, situation=situation,
                                  detail={**detail, "beat": chosen}))
            continue
        moments.append(Moment(step.index, seat, "decision", made=made,
                              situation=situation, detail=detail))
    return Graded(moments, "chance", tolerance=1e-9,
                  method="exact reroll odds of the dice in hand")


@register_grader("poker_dice")
def grader(game: Game) -> Any:
    return grade


@dataclass
class RerollAdvisor(OddsAdvisor):
    """The chance to make the announced hand; the pick-ups ranked by the chance to beat it."""

    rules: PokerDiceRules

    def hint(self, view: dict[str, Any], legal: Sequence[str]) -> Hint:
        found = odds(self.rules, view, legal)
        if found is None:
            return Hint("chance")
        return Hint("chance", ranked(found.beat), {"make_or_beat": found.make})


@register_advisor("poker_dice")
def advisor(game: Game) -> Advisor:
    assert isinstance(game.rules, PokerDiceRules)
    return RerollAdvisor(game.rules)

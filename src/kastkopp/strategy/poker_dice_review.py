"""Poker Menteur's review (Liar Dice): at every decision with an announcement on the table,
the chance to make or beat the announced hand with the throws left
(:class:`kastkopp.games.poker_dice.RerollTable`). A reroll is graded by that chance for the
lowest hand that beats the announcement: the best dice to pick up against the ones picked
up, in chance points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game
from kastkopp.games.poker_dice import Hand, PokerDiceRules, Reroll, hands, parse_hand
from kastkopp.strategy.poker_dice_odds import reroll_table
from kastkopp.strategy.review import Graded, Moment, Step, decisions, register_grader


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    rules = game.rules
    assert isinstance(rules, PokerDiceRules)
    kind = rules.dice
    table = reroll_table()
    every = hands(kind)
    moments: list[Moment] = []
    for step, seat, made, view in decisions(steps):
        if "your_faces" not in view or view.get("claim") is None:
            moments.append(Moment(step.index, seat, "decision", made=made))
            continue
        mine = Hand.of(view["your_faces"], kind)
        claim = parse_hand(view["claim"], kind)
        rerolls = view["max_throws"] - view["throws"][seat]
        make = float(table.reach(kind, claim.strength, rerolls)[table.index[mine.faces]])
        make = min(1.0, max(0.0, make))  # a sum of floats may pass 1 by a hair
        detail = {"make_or_beat": make}
        situation = {"dice": str(view["your_hand"]), "to_beat": str(view["claim"])}
        action = game.parse_action(made)
        above = claim.strength + 1
        if isinstance(action, Reroll) and rerolls > 0 and above < len(every):
            legal = {a.faces for a in step.before.legal_actions() if isinstance(a, Reroll)}
            chances = {faces: p for faces, p in table.choice_chances(mine.faces, kind, above,
                                                                      rerolls)
                       if faces in legal}
            chosen = chances.get(tuple(sorted(action.faces)))
            if chances and chosen is not None:
                best = max(chances, key=lambda f: chances[f])
                moments.append(Moment(
                    step.index, seat, "decision", made=made,
                    best=str(Reroll(best, kind)), cost=chances[best] - chosen,
                    situation=situation, detail={**detail, "beat": chosen}))
                continue
        moments.append(Moment(step.index, seat, "decision", made=made,
                              situation=situation, detail=detail))
    return Graded(moments, "chance", tolerance=1e-9,
                  method="exact reroll odds of the dice in hand")


@register_grader("poker_dice")
def grader(game: Game) -> Any:
    return grade

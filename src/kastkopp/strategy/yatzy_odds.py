"""Yatzy's odds: for every row, the chance to make it in one throw and within the turn."""

from __future__ import annotations

from typing import Any

from kastkopp.engine import RuleError
from kastkopp.games.yatzy import Throws, Yatzy, YatzyRules, _points, label, made
from kastkopp.strategy.odds import register_odds


def row_odds(row: str, rules: YatzyRules) -> dict[str, Any]:
    """The chance to make ``row`` in one throw and within the turn when playing for it,
    and the best expected score of the row when playing for it alone."""
    throws = Throws.of(rules.dice)
    one = sum(p for h, p in zip(throws.hands, throws.first, strict=True)
              if made(row, h, rules))
    hit = [1.0 if made(row, h, rules) else 0.0 for h in throws.hands]
    if rules.throws == 1:
        within = one
        expected = sum(p * _points(row, h, rules, True)
                       for h, p in zip(throws.hands, throws.first, strict=True))
    else:
        chance_stages = throws.stages(lambda h: 1.0 if made(row, h, rules) else 0.0,
                                      rules.throws - 2)
        score_stages = throws.stages(lambda h: _points(row, h, rules, False), rules.throws - 2)
        within = expected = 0.0
        for index, (hand, p) in enumerate(zip(throws.hands, throws.first, strict=True)):
            keeps = throws.choices[index]
            within += p * max(hit[index], *(chance_stages[-1][k] for k in keeps))
            expected += p * max(_points(row, hand, rules, True),
                                *(score_stages[-1][k] for k in keeps))
    return {"row": row, "one_throw": one, "within_turn": within, "expected": expected}


@register_odds("yatzy")
def odds(game: Yatzy, **params: str) -> list[dict[str, Any]]:
    """For every row: the chance to make it in one throw and within the turn playing
    for it alone, and its best expected score so (upper rows: three of the face)."""
    if params:
        raise RuleError("the Yatzy odds table needs nothing given; choose the rule set "
                        "with --preset and --rule")
    return [{"row": label(r, game.rules.lang, game.rules.sheet_name),
             **{k: v for k, v in row_odds(r, game.rules).items() if k != "row"}}
            for r in game.rules.rows]

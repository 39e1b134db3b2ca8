"""The Yatzy family's review: expected final points lost at every choice, and the luck of
every roll, from the solved table of the rule set (:mod:`kastkopp.strategy.yatzy_solver`).

Each seat's account is a chain of expectations. Before the first roll a seat expects the
table's optimal score. A roll moves that to the value of the best choice with the new dice
(the difference is the roll's luck); the choice made moves it to that choice's value (the
difference is its cost). So the optimal start, minus every cost, plus every luck, is the
final score exactly: the last choice's value is what the sheet holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kastkopp.engine import Game, RuleError
from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.review import Graded, Moment, ReviewError, Step, register_grader
from kastkopp.strategy.yatzy_optimal import position_from_view, table_for
from kastkopp.strategy.yatzy_solver import Choice, SolvedTable


def choices(table: SolvedTable, view: dict[str, Any]) -> list[Choice]:
    """Every choice of the seat to move, best first, as expected final scores."""
    return table.advise(**position_from_view(view), already=view["totals"][view["seat"]])


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    rules = game.rules
    assert isinstance(rules, YatzyRules)
    table = table_for(rules)
    start = table.expected_score
    expected = [start] * game.players  # each seat's expectation so far
    options: dict[int, list[Choice]] = {}
    moments: list[Moment] = []
    for step in steps:
        if step.kind == "roll" and step.seat is not None and step.after.to_move() == step.seat:
            view = step.after.view(step.seat)
            found = choices(table, view)
            options[step.seat] = found
            dice = " ".join(map(str, view["dice"]))
            moments.append(Moment(step.index, step.seat, "roll", made=dice,
                                  luck=found[0].expected - expected[step.seat],
                                  situation=f"throw {view['throw']}/{view['throws']}"))
            expected[step.seat] = found[0].expected
        elif step.kind == "action" and step.seat is not None and step.seat in options:
            found = options.pop(step.seat)
            made = next(c for c in found if c.choice == step.action)
            view = step.before.view(step.seat)
            moments.append(Moment(
                step.index, step.seat, "decision", made=made.choice, best=found[0].choice,
                cost=found[0].expected - made.expected,
                situation=f"{' '.join(map(str, view['dice']))} "
                          f"(throw {view['throw']}/{view['throws']})",
                detail={"expected": made.expected, "best_expected": found[0].expected}))
            expected[step.seat] = made.expected
    return Graded(moments, "points", tolerance=1e-6, start=[start] * game.players,
                  method="the solved table of the rule set (optimal expected final score)")


@register_grader("yatzy")
def grader(game: Game) -> Any:
    from kastkopp.strategy.yatzy_solver import Sheet

    assert isinstance(game.rules, YatzyRules)
    try:
        Sheet.check(game.rules)
    except RuleError:
        raise ReviewError("the Yatzy solver does not handle these rules (six dice or saved "
                          "throws), so they cannot be reviewed") from None
    return grade

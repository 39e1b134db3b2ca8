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

import numpy as np

from kastkopp.engine import Game, RuleError
from kastkopp.games.yatzy import YatzyRules, YatzyState, label
from kastkopp.locale import spoken
from kastkopp.strategy.review import (
    Graded,
    Moment,
    Step,
    decisions,
    register_grader,
    register_words,
)
from kastkopp.strategy.yatzy_optimal import table_for
from kastkopp.strategy.yatzy_solver import Choice, Position, SolvedTable


def position(table: SolvedTable, state: YatzyState) -> Position:
    """The solver's position of the seat to move (the log replayed, so the sheet is a legal
    one and needs no checking again)."""
    sheet = table.sheet
    seat = state.player
    cells = state.sheets[seat]
    mask = sum(1 << j for j, cell in enumerate(cells) if cell is None)
    upper = min(max(state.upper_sum(seat), sheet.low), sheet.high) - sheet.low
    written = cells[sheet.yatzy_row]
    holds = int(sheet.flags == 2 and written is not None and written not in (0, "-"))
    return Position(mask, upper, holds)


class Turns:
    """The choices of each throw, the turn's table of values solved once per turn."""

    def __init__(self, table: SolvedTable) -> None:
        self.table = table
        self._stages: dict[tuple[int, int, int], np.ndarray] = {}

    def choices(self, state: YatzyState) -> list[Choice]:
        p = position(self.table, state)
        rerolls = state.throws() - state.throw
        stages = None
        if rerolls:
            key = (p.mask, p.upper_index, p.yatzy_holds)
            if key not in self._stages:
                self._stages = {key: self.table.turn_stages(p)}
            stages = self._stages[key]
        return self.table.choices(p, state.dice, rerolls, already=state.total(state.player),
                                  stages=stages)


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    rules = game.rules
    assert isinstance(rules, YatzyRules)
    table = table_for(rules)
    turns = Turns(table)
    start = table.expected_score
    expected = [start] * game.players  # each seat's expectation so far
    options: dict[int, list[Choice]] = {}
    moments: list[Moment] = []
    dice = [""] * game.players
    throw = ""
    for step in steps:
        state = step.after
        if step.kind == "roll" and step.seat is not None and state.to_move() == step.seat:
            assert isinstance(state, YatzyState)
            found = turns.choices(state)
            options[step.seat] = found
            throw = f"{state.throw}/{state.throws()}"
            dice[step.seat] = " ".join(map(str, state.dice))
            moments.append(Moment(step.index, step.seat, "roll", made=dice[step.seat],
                                  luck=found[0].expected - expected[step.seat],
                                  situation={"throw": throw}))
            expected[step.seat] = found[0].expected
        elif step.kind == "action" and step.seat is not None and step.seat in options:
            found = options.pop(step.seat)
            made = next(c for c in found if c.choice == step.action)
            moments.append(Moment(
                step.index, step.seat, "decision", made=made.choice, best=found[0].choice,
                cost=found[0].expected - made.expected,
                situation={"dice": dice[step.seat], "throw": throw},
                detail={"expected": made.expected, "best_expected": found[0].expected}))
            expected[step.seat] = made.expected
    return Graded(moments, "points", tolerance=1e-6, start=[start] * game.players,
                  method="the solved table of the rule set (optimal expected final score)")


# Said where the rules are beyond the solver (Maxi Yatzy), so a reader knows why nothing
# is graded.
NOT_SOLVED = ("the solver plays five dice and a fixed number of throws, so under these rules "
              "(six dice or saved throws) each decision is listed with its dice, not graded")


def listed(game: Game, steps: Sequence[Step]) -> Graded:
    """Rules the solver does not handle: every decision with the dice it was made on."""
    moments: list[Moment] = []
    for step, seat, action, view in decisions(steps):
        situation = {"dice": " ".join(map(str, view["dice"]))} if view.get("dice") else {}
        if view.get("throw"):
            situation["throw"] = f"{view['throw']}/{view['throws']}"
        moments.append(Moment(step.index, seat, "decision", made=action, situation=situation))
    return Graded(moments, "points", method=NOT_SOLVED)


@register_grader("yatzy")
def grader(game: Game) -> Any:
    from kastkopp.strategy.yatzy_solver import Sheet

    assert isinstance(game.rules, YatzyRules)
    try:
        Sheet.check(game.rules)
    except RuleError:
        return listed
    return grade


@register_words("yatzy")
def words(game: Game, notation: str, lang: str) -> str:
    """``score four-kind`` → ``skriv i Fyrtal``; ``keep 4 4`` → ``behåll 4 4``."""
    assert isinstance(game.rules, YatzyRules)
    verb, _, rest = notation.partition(" ")
    if verb == "score":
        return spoken(lang, "write in {row}", row=label(rest, lang, game.rules.sheet_name))
    if verb == "keep":
        return spoken(lang, "keep {dice}", dice=rest) if rest else spoken(lang, "roll all again")
    return notation

"""Bots for the Yatzy family.

The greedy bot plays every turn for the best score it can write this turn, and never
looks further ahead than the turn:

- with throws left, it keeps the dice whose rerolls give the highest expected best score
  over the rows it may still fill (counting the turn's remaining throws exactly), and
  stops when the dice in hand already score at least that much;
- when it writes, it takes the highest-scoring row; among rows that score the same
  (typically nothing) it gives up the row with the lowest possible score, so a miss goes
  in Ones rather than in Yatzy.

It ignores the upper bonus and what the rows are worth in later turns; the optimal
player that weighs those is a solver's work.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import make_bot
>>> bot = make_bot(load("yatzy", preset="yahtzee", players=1), "greedy")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kastkopp.dice import Faces
from kastkopp.engine import Action, Game, Player
from kastkopp.games.yatzy import (
    Cell,
    Keep,
    Score,
    Throws,
    YatzyRules,
    extra_yatzy,
    joker_applies,
    playable_rows,
    score,
)
from kastkopp.strategy import register_bot


def _points(row: str, dice: Faces, rules: YatzyRules, cells: dict[str, Cell],
            first_throw: bool) -> float:
    points = score(row, dice, rules, first_throw, joker_applies(rules, cells, dice))
    return float(points or 0)


@lru_cache(maxsize=64)
def potential(rules: YatzyRules) -> dict[str, int]:
    """The most each row can ever score (what giving it up costs at worst)."""
    hands = Throws.of(rules.dice).hands
    return {row: max(score(row, h, rules, True, True) or 0 for h in hands) for row in rules.rows}


def best_row(rules: YatzyRules, cells: dict[str, Cell], dice: Faces,
             first_throw: bool) -> tuple[str, float]:
    """The row greedy play writes these dice in, and what it scores there now."""
    rows = playable_rows(rules, cells, dice)
    worth = potential(rules)
    row = max(rows, key=lambda r: (_points(r, dice, rules, cells, first_throw), -worth[r]))
    bonus = rules.yatzy_bonus if extra_yatzy(rules, cells, dice) else 0
    return row, _points(row, dice, rules, cells, first_throw) + bonus


@lru_cache(maxsize=512)
def _stages(rules: YatzyRules, cells: tuple[tuple[str, Cell], ...],
            rerolls: int) -> list[list[float]]:
    sheet = dict(cells)
    throws = Throws.of(rules.dice)
    return throws.stages(lambda hand: best_row(rules, sheet, hand, False)[1], rerolls)


def _sheet_key(cells: dict[str, Cell]) -> tuple[tuple[str, Cell], ...]:
    """Only which rows are open matters to greedy play, and whether Yatzy holds a score."""
    def status(row: str, cell: Cell) -> Cell:
        if cell is None:
            return None
        return 1 if row == "yatzy" and isinstance(cell, int) and cell > 0 else 0

    return tuple((row, status(row, cell)) for row, cell in cells.items())


@dataclass
class GreedyYatzyBot(Player):
    rules: YatzyRules

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        seat = view["player"]
        cells: dict[str, Cell] = dict(zip(view["rows"], view["sheets"][seat], strict=True))
        dice = tuple(view["dice"])
        row, now = best_row(self.rules, cells, dice, view["throw"] == 1)
        rerolls = view["throws"] - view["throw"]
        if rerolls > 0:
            # at most two rerolls ahead: saved Maxi throws beyond that change little
            depth = min(rerolls, 3) - 1
            stages = _stages(self.rules, _sheet_key(cells), depth)
            keep, expected = Throws.of(self.rules.dice).best_keep(dice, stages[depth])
            if expected > now + 1e-9 and Keep(keep) in legal:
                return Keep(keep)
        return Score(row)


@register_bot("yatzy", "greedy", "plays each turn for the best score it can write this turn")
def greedy(game: Game) -> Player:
    assert isinstance(game.rules, YatzyRules)
    return GreedyYatzyBot(game.rules)


"""The optimal Yatzy bot: it plays every choice from the solved table of its rule set.

The first game under a rule set solves the table (or loads it from the disk cache); after
that every choice is a look-up in milliseconds. A server has the solve done in a worker
process (:meth:`OptimalYatzyBot.work`) and meanwhile lets the bot play greedily.
A process keeps the solved tables of a few rule sets (:data:`TABLES_KEPT`), the least
recently used leaving first. Against other players it still maximises
its own expected score, which is what the solitaire optimum is.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import bot_names
>>> "optimal" in bot_names("yatzy")
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kastkopp.engine import Action, Game, IllegalAction, Player, RuleError
from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy import register_bot
from kastkopp.strategy.advice import Advice, Advisor, Hint, register_advisor
from kastkopp.strategy.work import LRU, Work, env_int, register_kernels, register_warm_up
from kastkopp.strategy.yatzy import GreedyYatzyAdvisor, GreedyYatzyBot

if TYPE_CHECKING:
    from kastkopp.strategy.yatzy_solver import SolvedTable

# About 20 MB each; the four standard presets and a couple of house rule sets
# (``KASTKOPP_SOLVED_TABLES``).
TABLES_KEPT = env_int("KASTKOPP_SOLVED_TABLES", 6)
_TABLES: LRU[YatzyRules, SolvedTable] = LRU(TABLES_KEPT)


def table_for(rules: YatzyRules) -> SolvedTable:
    """The solved table of ``rules``: kept, loaded from the disk cache, or solved."""
    from kastkopp.strategy.yatzy_solver import solve

    return _TABLES.kept(rules, solve)


def solve_to_disk(rules: YatzyRules, directory: str) -> None:
    """Solve ``rules`` into the disk cache (in a worker process: nothing is sent back)."""
    from pathlib import Path

    from kastkopp.strategy.yatzy_solver import solve

    solve(rules, directory=Path(directory))


def solving(rules: YatzyRules) -> Work | None:
    """The solve of ``rules`` in a worker, then its table loaded here (``None``: kept);
    fresh when nothing is on disk and the rules are none of the standard presets'."""
    if rules in _TABLES:
        return None
    from kastkopp.strategy.yatzy_solver import cache_dir, cache_key, cache_path

    key, directory = cache_key(rules), cache_dir()
    fresh = key not in _standard_keys() and not cache_path(rules, directory).exists()
    return Work(("yatzy", key), solve_to_disk, (rules, str(directory)),
                lambda _: _keep(rules), fresh)


@functools.cache
def _standard_keys() -> frozenset[str]:
    """The standard presets' cache keys (their solves are never new)."""
    from kastkopp.strategy.yatzy_solver import cache_key, standard_rules

    return frozenset(cache_key(rules) for rules in standard_rules())


def _keep(rules: YatzyRules) -> None:
    from kastkopp.strategy.yatzy_solver import cache_path, solve

    # loaded from the disk, where the worker left it; never solved here
    if cache_path(rules).exists():
        _TABLES.put(rules, solve(rules))


@register_warm_up
def standard_tables() -> list[Work]:
    """The standard presets' tables not yet in the disk cache, solved into it (and only
    loaded into a process's memory when a bot or a hint needs them)."""
    from kastkopp.strategy.yatzy_solver import cache_dir, cache_key, cache_path, standard_rules

    return [Work(("yatzy", cache_key(rules)), solve_to_disk, (rules, str(cache_dir())),
                 _nothing)
            for rules in standard_rules() if not cache_path(rules).exists()]


def _nothing(_: object) -> None:
    """Nothing to keep in memory: the table is on disk."""


@register_kernels
def choice_kernels() -> None:
    """The solver's compiled turn, loaded by one choice on a table of nothing but zeros
    (of the first standard preset's shape: the same compiled code serves every rule set)."""
    import numpy as np

    from kastkopp.strategy.yatzy_solver import Sheet, SolvedTable, standard_rules

    sheet = Sheet.from_rules(standard_rules()[0])
    table = SolvedTable(sheet, np.zeros((1 << len(sheet.rows), sheet.n_upper, sheet.flags)))
    table.advise(dice=(1, 2, 3, 4, 5), rerolls=1)


def position_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """The advisor's question for the seat's own sheet and dice in a Yatzy view."""
    seat = view["seat"]
    cells = dict(zip(view["rows"], view["sheets"][seat], strict=True))
    return {
        "used": [row for row, cell in cells.items() if cell is not None],
        "upper": view["upper"][seat],
        "dice": tuple(view["dice"]),
        "rerolls": view["throws"] - view["throw"],
        "yatzy_zero": cells.get("yatzy") in (0, "-"),
    }


@dataclass
class OptimalYatzyBot(Player):
    rules: YatzyRules

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        table = table_for(self.rules)
        # the game's own sheet: its position is taken as it is, not checked as typed in
        position = table.seat_position(view, view["seat"])
        assert position is not None  # a seat to move has a row open
        advice = table.choices(position, tuple(sorted(view["dice"])),
                               view["throws"] - view["throw"])
        by_name = {str(a): a for a in legal}
        for choice in advice:
            if choice.choice in by_name:
                return by_name[choice.choice]
        return legal[0]  # every advised choice is legal; this keeps the bot total

    def work(self, view: dict[str, Any]) -> Work | None:
        return solving(self.rules)

    def cheap(self, view: dict[str, Any], legal: Sequence[Action],
              rng: random.Random) -> Action:
        """Until the table is solved: the best score this turn (the greedy bot)."""
        return GreedyYatzyBot(self.rules).choose(view, legal, rng)


@register_bot("yatzy", "optimal", "plays for the highest expected score, from the solved "
              "table of the rule set")
def optimal(game: Game) -> Player:
    assert isinstance(game.rules, YatzyRules)
    return OptimalYatzyBot(game.rules)


@dataclass
class OptimalYatzyAdvisor(Advisor):
    """The solved table's expected final score for every keep and row, best first; with
    opponents, the hint also tells the best chance of finishing ahead of them, where the
    rule set's distribution table is at hand (:mod:`kastkopp.strategy.yatzy_towin`)."""

    rules: YatzyRules
    opponents: bool = False

    @property
    def key(self) -> YatzyRules:
        return self.rules

    def ready(self) -> bool:
        return self.rules in _TABLES

    def prepare(self) -> None:
        table_for(self.rules)

    def work(self) -> Work | None:
        return solving(self.rules)

    def advise(self, view: dict[str, Any]) -> list[Advice]:
        if view.get("seat") is None or view.get("player") != view["seat"] or \
                not view.get("dice"):
            raise IllegalAction("advice is for your own turn, with your dice in hand")
        choices = table_for(self.rules).advise(**position_from_view(view),
                                               already=view["totals"][view["seat"]])
        return [Advice(c.choice, c.expected) for c in choices]

    def hint(self, view: dict[str, Any], legal: Sequence[str]) -> Hint:
        choices = tuple(self.advise(view))
        if not self.opponents:
            return Hint("points", choices)
        from kastkopp.strategy.yatzy_towin import at_hand, view_choices

        tables = at_hand(self.rules)  # never computed here: the hint answers at once
        to_win = view_choices(tables, view) if tables is not None else None
        return Hint("points", choices, facts={"win": to_win[0].win} if to_win else {})


@register_advisor("yatzy")
def advisor(game: Game) -> Advisor | None:
    """Five-dice rule sets with a fixed number of throws (the solver's reach) from the solved
    table; the others (Maxi) by the score this turn, as the greedy bot plays."""
    from kastkopp.strategy.yatzy_solver import Sheet

    assert isinstance(game.rules, YatzyRules)
    try:
        Sheet.check(game.rules)
    except RuleError:
        return GreedyYatzyAdvisor(game.rules)
    return OptimalYatzyAdvisor(game.rules, opponents=game.players > 1)

"""Odds tables a player can ask for (``kastkopp odds GAME k=v ...``), one per game family.

A game's odds module (named in its :class:`~kastkopp.engine.Parts` ``strategy``) registers
its table; callers ask :func:`odds_for` and never know which game it is.

>>> from kastkopp.games import load
>>> odds_for(load("knack"))[-1]["event"]
'double knock: 12 or more on three dice'
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from kastkopp.engine import Game, RuleError
from kastkopp.strategy import load_strategy

OddsTable = Callable[..., list[dict[str, Any]]]
_TABLES: dict[str, OddsTable] = {}


def register_odds(game: str) -> Callable[[OddsTable], OddsTable]:
    """Decorator for ``(game, **params) -> rows``: the odds table of one game family."""

    def decorate(table: OddsTable) -> OddsTable:
        _TABLES[game] = table
        return table

    return decorate


def odds_for(game: Game, **params: str) -> list[dict[str, Any]]:
    """Rows of odds for ``game`` under its rules; raises :class:`RuleError` for a game without
    odds or parameters it does not take."""
    load_strategy(game.name)
    table = _TABLES.get(game.name)
    if table is None:
        raise RuleError("there are no odds tables for {game}", game=game.title or game.name)
    return table(game, **params)


def exact_row(event: str, chance: Fraction) -> dict[str, Any]:
    """A row of an event's chance, as a rounded float and as an exact fraction."""
    return {"event": event, "chance": round(float(chance), 6),
            "exact": f"{chance.numerator}/{chance.denominator}"}

"""Slosch's odds: the chance that one fresh roll beats each value."""

from __future__ import annotations

from typing import Any

from kastkopp.engine import RuleError
from kastkopp.games.mia import Mia
from kastkopp.strategy.odds import register_odds


@register_odds("mia")
def odds(game: Mia, **params: str) -> list[dict[str, Any]]:
    """For every value, worst first, the chance that one fresh roll beats it."""
    if params:
        raise RuleError("the Slosch odds table needs nothing given")
    return [{"value": str(v), "beaten": float(game.rules.beaten(v))}
            for v in game.rules.values]

"""Advisors: a game's ranked choices for one seat, from that seat's own view.

A game's strategy module registers an advisor for the rule sets it can advise on; callers
(the CLI, the server's hints) ask :func:`advisor_for` and never know which game it is.
Preparing an advisor may be slow (a solver's table, solved once and cached on disk), so
it is a separate step that a server runs in a worker process (:meth:`Advisor.work`).

>>> from kastkopp.games import load
>>> advisor_for(load("yatzy", preset="tarningspoker", players=2)) is not None
True
>>> advisor_for(load("mia", players=2)) is None
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Game
from kastkopp.strategy import load_strategy
from kastkopp.strategy.work import Work


@dataclass(frozen=True)
class Advice:
    """One choice now, in the game's notation, and what it is expected to lead to."""

    choice: str
    expected: float

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "expected": round(self.expected, 3)}


class Advisor(ABC):
    """Ranked choices for the seat whose view it is given."""

    @property
    @abstractmethod
    def key(self) -> Hashable:
        """Advisors with the same key share one preparation (e.g. one solved table)."""

    @abstractmethod
    def ready(self) -> bool:
        """Whether :meth:`advise` answers at once."""

    @abstractmethod
    def prepare(self) -> None:
        """Do the slow part (solve or load); safe to call again."""

    def work(self) -> Work | None:
        """The slow part as work for a worker process (``None``: only :meth:`prepare`)."""
        return None

    @abstractmethod
    def advise(self, view: dict[str, Any]) -> list[Advice]:
        """Every choice for ``view["seat"]`` now, best first; raises with a reason."""


AdvisorFactory = Callable[[Game], Advisor | None]
_ADVISORS: dict[str, AdvisorFactory] = {}


def register_advisor(game: str) -> Callable[[AdvisorFactory], AdvisorFactory]:
    """Decorator for ``(game) -> Advisor | None`` (``None``: not for these rules)."""

    def decorate(factory: AdvisorFactory) -> AdvisorFactory:
        _ADVISORS[game] = factory
        return factory

    return decorate


def advisor_for(game: Game) -> Advisor | None:
    """The advisor for a game under its rules, or ``None`` when there is none."""
    load_strategy(game.name)
    factory = _ADVISORS.get(game.name)
    return factory(game) if factory is not None else None

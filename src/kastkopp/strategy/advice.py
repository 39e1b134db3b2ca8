"""Advisors: a game's ranked choices for one seat, from that seat's own view.

A game's strategy module (or its review module, whose grading the hint shares) registers
an advisor for the rule sets it can advise on; callers (the CLI's coach, the server's hints)
ask :func:`advisor_for` and never know which game it is. An advisor's :meth:`Advisor.hint`
is a :class:`Hint`: the choices ranked in the game's own unit and the odds behind them,
computed from the seat's view and the legal choices it is shown, and nothing else.
Preparing an advisor may be slow (a solver's table, solved once and cached on disk), so
it is a separate step that a server runs in a worker process (:meth:`Advisor.work`).

>>> from kastkopp.games import load
>>> advisor_for(load("yatzy", preset="tarningspoker", players=2)) is not None
True
>>> advisor_for(load("knack", players=2)) is not None
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class Hint:
    """What the advisor tells a seat now.

    ``choices`` are best first, each worth ``expected`` in ``unit``: "points" (expected final
    score), "turn" (expected score this turn, where no solver reaches), "lives" and "dice"
    (expected gain against the equilibrium), "chips" (against giving up now), "chance" (that
    the choice is right or the bid holds). ``facts`` are the odds of the position under the
    names the reviews use ("claim_beaten", "beat_by_rolling", "make_or_beat", "share"),
    "bid_holds", and "win" (the best chance of finishing ahead of the leading opponent);
    a position may have facts and no ranking.
    """

    unit: str
    choices: tuple[Advice, ...] = ()
    facts: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "choices": [c.to_json() for c in self.choices],
                "facts": {k: round(v, 4) for k, v in self.facts.items()}}

    def cost(self, made: str) -> float | None:
        """What ``made`` costs against the best choice (``None``: not ranked here)."""
        if self.unit == "chance":
            return None  # a chance of being right, not a worth to subtract
        worth = {c.choice: c.expected for c in self.choices}
        if made not in worth:
            return None
        return max(0.0, self.choices[0].expected - worth[made])


def ranked(worth: dict[str, float]) -> tuple[Advice, ...]:
    """Choices by worth, best first (ties, to a float sum's last digits, in the order given)."""
    return tuple(Advice(k, v) for k, v in sorted(worth.items(),
                                                 key=lambda kv: -round(kv[1], 9)))


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

    def hint(self, view: dict[str, Any], legal: Sequence[str]) -> Hint:
        """The hint for ``view["seat"]``, whose legal choices are ``legal`` (as it is shown
        them); by default the ranked choices in expected final points."""
        return Hint("points", tuple(self.advise(view)))


class OddsAdvisor(Advisor):
    """An advisor of odds worked out on the spot: nothing to prepare."""

    @property
    def key(self) -> Hashable:
        return type(self).__name__

    def ready(self) -> bool:
        return True

    def prepare(self) -> None:
        """Nothing is solved ahead."""

    def advise(self, view: dict[str, Any]) -> list[Advice]:
        """The hint's choices when no legal list is given (an odds advisor ranks the
        choices it is shown, so this may be none: ask :meth:`hint` with them)."""
        return list(self.hint(view, []).choices)


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
    game.parts.load("review")  # the advisors that share a review's grading
    factory = _ADVISORS.get(game.name)
    return factory(game) if factory is not None else None

"""``kastkopp play --coach``: after each of your decisions, what it cost and the best choice.

The coach asks the game's advisor (:func:`kastkopp.strategy.advice.advisor_for`) before the
choice, from the seat's own view and legal moves, as the table's Hint button does; the cost
is the review's measure in the game's own unit (expected points in Yatzy, lives in heads-up
Slosch, chips in Knack and Linka, the chance to beat the announcement in Poker Menteur).
Where the game ranks by chances only (liar's dice) it tells the chance the choice was right.
Nothing here knows a game by name.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from kastkopp.cli.support import console, say
from kastkopp.engine import Action, Game, KastkoppError, Player, notations
from kastkopp.strategy.advice import Advisor, Hint, advisor_for

# A choice this close to the best is the best (the solvers' precision, as the reviews count).
CLOSE = 1e-6


def amount(unit: str, value: float) -> str:
    """A worth in the game's unit, in the player's language."""
    if unit == "points":
        return say("{n} expected points", n=f"{value:.2f}")
    if unit == "turn":
        return say("{n} points this turn", n=f"{value:.2f}")
    if unit == "lives":
        return say("{n} lives", n=f"{value:.2f}")
    if unit == "dice":
        return say("{n} dice", n=f"{value:.2f}")
    if unit == "chips":
        return say("{n} chips", n=f"{value:.2f}")
    return say("{n} chance", n=f"{value:.1%}")


def verdict(hint: Hint, made: str) -> str | None:
    """What the coach says of ``made`` given the hint before it (``None``: nothing ranked)."""
    worth = {c.choice: c.expected for c in hint.choices}
    if not hint.choices or made not in worth:
        return None
    best = hint.choices[0]
    if hint.unit == "chance":
        if worth[made] >= best.expected - CLOSE:
            return say("Coach: {made} was the likeliest to be right ({p}).", made=made,
                       p=f"{worth[made]:.1%}")
        return say("Coach: {made} is right with a chance of {p}; {best} had {q}.", made=made,
                   p=f"{worth[made]:.1%}", best=best.choice, q=f"{best.expected:.1%}")
    cost = hint.cost(made) or 0.0
    if cost <= CLOSE:
        return say("Coach: {made} was the best choice.", made=made)
    return say("Coach: {made} cost {cost}; the best was {best}.", made=made,
               cost=amount(hint.unit, cost), best=best.choice)


class Coached(Player):
    """A person's seat with the coach beside it: the person chooses, the coach comments."""

    def __init__(self, person: Player, game: Game) -> None:
        self.person = person
        self.advisor: Advisor | None = advisor_for(game)
        self.prepared = False

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        hint = self._hint(view, legal)
        action = self.person.choose(view, legal, rng)
        said = verdict(hint, str(action)) if hint is not None else None
        if said is not None:
            console.print(f"[cyan]{escape(said)}[/]", highlight=False)
        return action

    def _hint(self, view: dict[str, Any], legal: Sequence[Action]) -> Hint | None:
        if self.advisor is None:
            return None
        if not self.prepared and not self.advisor.ready():
            console.print(say("Preparing the advisor…"), highlight=False)
            self.advisor.prepare()
        self.prepared = True
        try:
            return self.advisor.hint(view, notations(legal))
        except KastkoppError:
            return None  # nothing to advise here (not a position the advisor reads)


def coached(players: list[Player], people: Sequence[int], game: Game) -> list[Player]:
    """The seats of ``people`` coached; the bots as they are."""
    return [Coached(p, game) if seat in people else p for seat, p in enumerate(players)]

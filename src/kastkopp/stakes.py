"""The stakes ledger: antes, bets and the pot, in whole units ("koppar").

Every movement of money is an event; balances are derived from the events and, together
with the pot, always sum to zero::

    >>> ledger = Ledger(players=3).ante_all(2)
    >>> ledger.pot, ledger.balances()
    (6, (-2, -2, -2))
    >>> ledger = ledger.award((1,))
    >>> ledger.pot, ledger.balances()
    (0, (-2, 4, -2))

A ledger may give each player a purse (``stacks``); nobody can pay more than they have.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kastkopp.engine import IllegalAction


@dataclass(frozen=True)
class Movement:
    """One movement of money. ``amount`` > 0 goes from ``seat`` into the pot."""

    kind: str  # "ante", "bet", "win"
    seat: int
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True)
class Ledger:
    players: int
    movements: tuple[Movement, ...] = ()
    stacks: tuple[int, ...] | None = None  # each player's purse before play; None = unlimited

    @property
    def pot(self) -> int:
        return sum(m.amount for m in self.movements)

    def paid_in(self, seat: int) -> int:
        """What ``seat`` has put into the pot (antes and bets)."""
        return sum(m.amount for m in self.movements if m.seat == seat and m.amount > 0)

    def balances(self) -> tuple[int, ...]:
        """Each seat's winnings so far; ``sum(balances) + pot == 0``."""
        totals = [0] * self.players
        for m in self.movements:
            totals[m.seat] -= m.amount
        return tuple(totals)

    def purse(self, seat: int) -> int | None:
        """What ``seat`` has left to pay with, or ``None`` if unlimited."""
        if self.stacks is None:
            return None
        return self.stacks[seat] + self.balances()[seat]

    def _pay(self, kind: str, seat: int, amount: int) -> Ledger:
        if amount <= 0:
            raise IllegalAction(f"a {kind} must be at least 1, not {amount}")
        left = self.purse(seat)
        if left is not None and amount > left:
            raise IllegalAction(f"a {kind} of {amount} is more than the {left} left to pay with")
        return replace(self, movements=(*self.movements, Movement(kind, seat, amount)))

    def ante(self, seat: int, amount: int) -> Ledger:
        return self._pay("ante", seat, amount)

    def ante_all(self, amount: int) -> Ledger:
        ledger = self
        for seat in range(self.players):
            ledger = ledger.ante(seat, amount)
        return ledger

    def bet(self, seat: int, amount: int) -> Ledger:
        return self._pay("bet", seat, amount)

    def award(self, winners: tuple[int, ...]) -> Ledger:
        """Split the pot between ``winners`` in whole units.

        An odd unit that cannot be split goes to the winners in the order given (the first
        winners clockwise from the dealer, by convention of the caller).
        """
        if not winners:
            raise ValueError("the pot needs a winner")
        share, odd = divmod(self.pot, len(winners))
        movements = list(self.movements)
        for i, seat in enumerate(winners):
            amount = share + (1 if i < odd else 0)
            if amount:
                movements.append(Movement("win", seat, -amount))
        return replace(self, movements=tuple(movements))

    def to_json(self) -> dict[str, Any]:
        return {"pot": self.pot, "balances": list(self.balances()),
                "paid_in": [self.paid_in(s) for s in range(self.players)]}

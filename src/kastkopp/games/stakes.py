"""The stakes ledger: antes, bets and the pot, in whole units ("koppar").

Every movement of money is an event; balances are derived from the events and, together
with the pot, always sum to zero::

    >>> ledger = Ledger(players=3).ante_all(2)
    >>> ledger.pot, ledger.balances()
    (6, (-2, -2, -2))
    >>> ledger = ledger.award((1,))
    >>> ledger.pot, ledger.balances()
    (0, (-2, 4, -2))

The pot games (Knack, Linka) bet in rounds. A raise is at most the pot as it stands once
the raiser has called what he owes; the others call or fold, and a fold forfeits what was
paid in. A ledger may give each player a purse (``stacks``): nobody can pay more than they
have, and a player short of money may go all-in, after which the pot is paid out in layers
so nobody wins more from a player than he himself put in::

    >>> ledger = Ledger(2, stacks=(100, 100)).ante_all(5).new_round()
    >>> ledger.max_raise(1)
    10
    >>> ledger = ledger.raise_bet(1, 4).raise_bet(0, 2)  # Rejd raises 4; Vikos calls, raises 2
    >>> ledger.to_call(1), ledger.pot
    (2, 20)
    >>> ledger = ledger.call(1).settle([(0,), (1,)])
    >>> ledger.balances(), ledger.pot
    ((11, -11), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from kastkopp.engine import (
    Action,
    IllegalAction,
    Message,
    RuleError,
    Rules,
    changed,
    pterm,
    rule,
    term,
)

MAX_PURSE = 1000


@dataclass(frozen=True)
class PotRules(Rules):
    """The house rules about money that every pot game shares."""

    ante: int = rule(1, "what each player pays into the pot to play", min=1, max=MAX_PURSE)
    purse: int = rule(100, "koppar each player brings to the table; nobody pays more",
                      min=1, max=MAX_PURSE)
    purses: str = rule("", "each player's purse in seat order, e.g. 40,10 (repeated for more "
                       "players; replaces purse)")
    all_in: str = rule("no", "may a player short of money go all-in? no; ask: the others in "
                       "the pot agree or refuse at the table; yes: agreed before play",
                       choices=("no", "ask", "yes"))

    def check(self) -> None:
        for amount in self.purse_list():
            if not 1 <= amount <= MAX_PURSE:
                raise RuleError("a purse is 1 to {most} koppar, not {amount}", most=MAX_PURSE,
                                amount=amount)
            if amount < self.ante:
                raise RuleError("a purse of {amount} cannot pay the ante of {ante}",
                                amount=amount, ante=self.ante)

    def purse_list(self) -> list[int]:
        if not self.purses.strip():
            return [self.purse]
        try:
            return [int(p) for p in self.purses.replace(",", " ").split()]
        except ValueError:
            raise RuleError("purses are whole koppar separated by commas, not '{purses}'",
                            purses=self.purses) from None

    def stacks(self, players: int) -> tuple[int, ...]:
        """Each seat's purse."""
        listed = self.purse_list()
        return tuple(listed[s % len(listed)] for s in range(players))

    @property
    def largest_purse(self) -> int:
        return max(self.purse_list())


class MovementJSON(TypedDict):
    """:meth:`Movement.to_json`, as the pot games' views carry it."""

    kind: str
    seat: int
    amount: int


@dataclass(frozen=True)
class Movement:
    """One movement of money. ``amount`` > 0 goes from ``seat`` into the pot.

    Kinds: ``ante``, ``call``, ``raise``, ``all-in`` and ``bet`` go into the pot; ``win`` and
    ``return`` (a bet nobody matched) come out of it; ``pays`` and ``receives`` are the two
    halves of a payment from one player to another (Knack's double knock).
    """

    kind: str
    seat: int
    amount: int

    def to_json(self) -> MovementJSON:
        return {"kind": self.kind, "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True)
class Ledger:
    players: int
    movements: tuple[Movement, ...] = ()
    stacks: tuple[int, ...] | None = None  # each player's purse before play; None = unlimited
    folded: frozenset[int] = field(default_factory=frozenset)
    round_start: int = 0  # the index of the first movement of the current betting round
    raised: tuple[int, ...] = ()  # who has raised in the current betting round

    # -- reading ---------------------------------------------------------------------
    @property
    def pot(self) -> int:
        return sum(m.amount for m in self.movements if m.kind not in ("pays", "receives"))

    def paid_in(self, seat: int) -> int:
        """What ``seat`` has put into the pot (antes and bets)."""
        return sum(m.amount for m in self.movements
                   if m.seat == seat and m.amount > 0 and m.kind != "pays")

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

    def can_pay(self, seat: int, amount: int) -> bool:
        left = self.purse(seat)
        return left is None or amount <= left

    def in_round(self, seat: int) -> int:
        """What ``seat`` has bet in the current betting round."""
        return sum(m.amount for m in self.movements[self.round_start:]
                   if m.seat == seat and m.kind in ("call", "raise", "all-in", "bet"))

    def to_call(self, seat: int) -> int:
        """What ``seat`` must add to match the highest bet of this round."""
        highest = max((self.in_round(s) for s in range(self.players)), default=0)
        return highest - self.in_round(seat)

    def all_in(self, seat: int) -> bool:
        """Whether ``seat`` has nothing left to bet with."""
        return self.purse(seat) == 0

    def max_raise(self, seat: int) -> int:
        """The largest raise ``seat`` may make now: the pot after his call, and his purse."""
        owed = self.to_call(seat)
        cap = self.pot + owed
        left = self.purse(seat)
        if left is not None:
            cap = min(cap, left - owed)
        return max(0, cap)

    # -- paying ----------------------------------------------------------------------
    def _pay(self, kind: str, seat: int, amount: int) -> Ledger:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalAction("bets are whole koppar, not {amount}", amount=repr(amount))
        if amount <= 0:
            raise IllegalAction("a {kind} must be at least 1, not {amount}",
                                kind=_PAYMENTS.get(kind, kind), amount=amount)
        left = self.purse(seat)
        if left is not None and amount > left:
            raise IllegalAction("a {kind} of {amount} is more than the {left} left to pay with",
                                kind=_PAYMENTS.get(kind, kind), amount=amount, left=left)
        return changed(self, movements=(*self.movements, Movement(kind, seat, amount)))

    def _check_in(self, seat: int) -> None:
        if seat in self.folded:
            raise IllegalAction("you have folded and are out of this pot")

    def ante(self, seat: int, amount: int) -> Ledger:
        return self._pay("ante", seat, amount)

    def ante_all(self, amount: int) -> Ledger:
        ledger = self
        for seat in range(self.players):
            ledger = ledger.ante(seat, amount)
        return ledger

    def bet(self, seat: int, amount: int) -> Ledger:
        return self._pay("bet", seat, amount)

    def new_round(self) -> Ledger:
        """Start a betting round: nobody owes anything and nobody has raised yet."""
        return changed(self, round_start=len(self.movements), raised=())

    def call(self, seat: int) -> Ledger:
        """Match the highest bet of the round."""
        self._check_in(seat)
        owed = self.to_call(seat)
        if owed == 0:
            raise IllegalAction("there is nothing to call")
        if not self.can_pay(seat, owed):
            if self.purse(seat):
                raise IllegalAction("calling costs {owed} and you have {left} left; fold or go "
                                    "all-in", owed=owed, left=self.purse(seat))
            raise IllegalAction("calling costs {owed} and you have {left} left; fold",
                                owed=owed, left=self.purse(seat))
        return self._pay("call", seat, owed)

    def raise_bet(self, seat: int, amount: int, *, once: bool = True) -> Ledger:
        """Call what is owed and raise by ``amount`` (at most the pot after the call).

        With ``once`` a seat may raise only once per betting round.
        """
        self._check_in(seat)
        if once and seat in self.raised:
            owed = self.to_call(seat)
            if owed:
                raise IllegalAction("you have already raised this round; call {owed} or fold",
                                    owed=owed)
            raise IllegalAction("you have already raised this round")
        cap = self.max_raise(seat)
        if cap <= 0:
            raise IllegalAction("you have no money left to raise with")
        if not 1 <= amount <= cap:
            raise IllegalAction("a raise is 1 to {cap} koppar (at most the pot), not {amount}",
                                cap=cap, amount=amount)
        ledger = self
        owed = self.to_call(seat)
        if owed:
            ledger = ledger._pay("call", seat, owed)
        ledger = ledger._pay("raise", seat, amount)
        return changed(ledger, raised=(*self.raised, seat))

    def go_all_in(self, seat: int) -> Ledger:
        """Put in everything that is left, short of what calling costs."""
        self._check_in(seat)
        left = self.purse(seat)
        if left is None or left >= self.to_call(seat):
            raise IllegalAction("all-in is only for a player who cannot pay the call")
        if left == 0:
            raise IllegalAction("you are already all-in")
        return self._pay("all-in", seat, left)

    def fold(self, seat: int) -> Ledger:
        """Leave the pot; what was paid in stays in it."""
        self._check_in(seat)
        return changed(self, folded=self.folded | {seat})

    def transfer(self, payer: int, payee: int, amount: int) -> Ledger:
        """``payer`` pays ``amount`` straight to ``payee`` (the pot is not touched)."""
        ledger = self._pay("pays", payer, amount)
        return changed(ledger, movements=(*ledger.movements,
                                          Movement("receives", payee, -amount)))

    # -- paying out ------------------------------------------------------------------
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
        return changed(self, movements=tuple(movements))

    def settle(self, ranking: Sequence[Sequence[int]]) -> Ledger:
        """Pay out the whole pot by ``ranking`` (groups of seats, best first; ties share).

        The pot is taken in layers of what was paid in: each layer goes to the best-ranked
        seats that paid into it and did not fold, so an all-in player wins from each other
        player at most what he put in himself, and a bet nobody matched is returned.
        Folded seats may be left out of the ranking.
        """
        order = [s for group in ranking for s in group]
        paid = [self.paid_in(s) for s in range(self.players)]
        shares: dict[tuple[str, tuple[int, ...]], int] = {}
        level = 0
        for top in sorted({p for p in paid if p > 0}):
            payers = [s for s in range(self.players) if paid[s] >= top]
            amount = (top - level) * len(payers)
            level = top
            eligible = [s for s in payers if s not in self.folded]
            winners: tuple[int, ...] = ()
            for group in ranking:
                winners = tuple(s for s in group if s in eligible)
                if winners:
                    break
            if not winners:  # everybody who paid this far folded: the best seat still in
                winners = tuple(s for s in ranking[0] if s not in self.folded) or tuple(order[:1])
            kind = "return" if payers == list(winners) and len(payers) == 1 else "win"
            shares[kind, winners] = shares.get((kind, winners), 0) + amount
        movements = list(self.movements)
        for (kind, winners), amount in shares.items():
            share, odd = divmod(amount, len(winners))
            for i, seat in enumerate(winners):
                won = share + (1 if i < odd else 0)
                if won:
                    movements.append(Movement(kind, seat, -won))
        return changed(self, movements=tuple(movements), raised=())

    def to_json(self) -> dict[str, Any]:
        return {"pot": self.pot, "balances": list(self.balances()),
                "paid_in": [self.paid_in(s) for s in range(self.players)],
                "folded": sorted(self.folded),
                "movements": [m.to_json() for m in self.movements]}


# --------------------------------------------------------------------------- betting actions
# The words every pot game shares; each game adds its own (Knack's ``knock``).


@dataclass(frozen=True)
class Raise(Action):
    """Call what is owed and raise by ``amount`` koppar."""

    amount: int

    def __str__(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True)
class Call(Action):
    """Match the highest bet of the round."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True)
class Check(Action):
    """Bet nothing more when nothing is owed."""

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True)
class Fold(Action):
    """Leave the pot, forfeiting what was paid in."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True)
class AllIn(Action):
    """Put in everything that is left, short of the call (when the table allows it)."""

    def __str__(self) -> str:
        return "all-in"


@dataclass(frozen=True)
class Accept(Action):
    """Agree to what another player asks (an all-in, Knack's double knock): palm up."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True)
class Refuse(Action):
    """Say no to what another player asks: the back of the hand up."""

    def __str__(self) -> str:
        return "refuse"


# Payments and betting actions as messages name them, translated with the message.
_PAYMENTS = {"ante": pterm("payment", "ante"), "bet": pterm("payment", "bet"),
             "call": pterm("payment", "call"), "raise": pterm("payment", "raise"),
             "all-in": pterm("payment", "all-in")}
BET_TERMS: dict[str, Message] = {
    "call": term("call"), "check": term("check"), "fold": term("fold"),
    "all-in": term("all-in"), "accept": term("accept"), "refuse": term("refuse")}

_BET_WORDS: dict[str, Action] = {}
for _word in ("call", "syna", "se", "see", "match"):
    _BET_WORDS[_word] = Call()
for _word in ("check", "pass", "passa", "videre"):
    _BET_WORDS[_word] = Check()
for _word in ("fold", "lägg", "lägg-dig", "læg", "drop", "ut"):
    _BET_WORDS[_word] = Fold()
for _word in ("all-in", "allin"):
    _BET_WORDS[_word] = AllIn()
for _word in ("accept", "agree", "ja", "yes", "godkänn"):
    _BET_WORDS[_word] = Accept()
for _word in ("refuse", "nej", "no", "neka"):
    _BET_WORDS[_word] = Refuse()
_RAISE_WORDS = ("raise", "höj", "hæv", "hoj")


def parse_bet(words: Sequence[str]) -> Action | None:
    """Read a betting action from lower-case words, or ``None`` if it is not one.

    ``raise 3`` (``höj 3``), ``call`` (``syna``), ``check``, ``fold`` (``lägg``), ``all-in``,
    and the answers to a request, ``accept`` (``ja``) and ``refuse`` (``nej``).
    """
    if len(words) == 1 and words[0] in _BET_WORDS:
        return _BET_WORDS[words[0]]
    if words and words[0] in _RAISE_WORDS:
        if len(words) != 2 or not words[1].isdigit():
            raise IllegalAction("say how much to raise, in whole koppar: 'raise 3'")
        return Raise(int(words[1]))
    return None

"""The pot sheets (Knack, Linka): who paid what into each pot, and who won it.

Every pot is one entry. Each player's cell is what the pot did to them — what they won
minus what they paid in — and their balance is the sum of their cells; since every pot is
paid out whole, the balances always sum to zero. The movements go through the game's own
ledger (:class:`kastkopp.games.stakes.Ledger`), so its rules hold: nobody pays more than their
purse has left (``purse``, ``purses``), and everybody in a pot has paid the ``ante``.

Entries, as typed:

``Anna 3 Ben 3 Cara 5 won Cara``
    Anna and Ben paid 3 each and Cara 5 (antes, calls and raises together); Cara won the
    pot of 11. A player not named sat the pot out; one who folded is named with what he
    paid. ``won Anna Cara`` shares a pot (an odd koppar goes to the first of them on the
    sheet).
``double Ben won`` / ``double Ben lost`` (Knack)
    Ben's double knock against the last pot's winner (``double_knock``): he won back his
    share of that pot (the pot divided by the players at the table), or paid it again.

Decisions where the seed is silent: a pot with side pots (after an all-in) is entered as
one entry per pot, each won whole; a player is out once their purse cannot pay the ante,
and the sheet is finished when only one player can still pay it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kastkopp.engine import IllegalAction, Rules, term
from kastkopp.games.knack import KnackRules
from kastkopp.games.stakes import Ledger, PotRules
from kastkopp.sheets.core import (
    Derivation,
    Entry,
    Flag,
    Sheet,
    SheetKind,
    Standing,
    places,
    quote,
    register_kind,
    signed,
)

WON_WORDS = {"won", "wins", "win", "vann", "vandt", "vinder", "to"}
DOUBLE_WORDS = {"double", "dubbelknack", "dobbeltbank", "dubbel"}
RESULT_WORDS = {"won": True, "vann": True, "vandt": True, "lost": False, "förlorade": False,
                "tabte": False}


@dataclass(frozen=True)
class Pot(Entry):
    """What each player paid into one pot, and who won it."""

    paid: tuple[tuple[int, int], ...]  # (player id, koppar)
    winners: tuple[int, ...]


@dataclass(frozen=True)
class DoubleKnock(Entry):
    """A loser's double knock against the last pot's winner: won back, or paid again."""

    player: int
    won: bool


class PotSheet(SheetKind):
    """The sheet of a pot game: balances in koppar."""

    entry_help: ClassVar[str] = ("write what each player paid and who won, like 'Anna 3 Ben "
                                 "3 Cara 5 won Cara'")
    words: ClassVar[frozenset[str]] = frozenset(WON_WORDS | DOUBLE_WORDS | set(RESULT_WORDS))
    no_double_knock: ClassVar[str] = "there is no double knock in this game"

    def parse_entry(self, words: list[str], sheet: Sheet) -> Entry:
        if words[0].casefold() in DOUBLE_WORDS:
            return self._parse_double(words, sheet)
        split = next((i for i, w in enumerate(words) if w.casefold() in WON_WORDS), None)
        if split is None or split == len(words) - 1:
            raise IllegalAction("who won the pot? {help}", help=term(self.entry_help))
        payments, winners = words[:split], words[split + 1:]
        if len(payments) % 2:
            raise IllegalAction("name each player with what they paid: {help}",
                                help=term(self.entry_help))
        paid: list[tuple[int, int]] = []
        for name, amount in zip(payments[::2], payments[1::2], strict=True):
            pid = sheet.player(name).id
            if not amount.isdigit():
                raise IllegalAction("{name} paid '{amount}'? Write whole koppar, like 3",
                                    name=name, amount=amount)
            if any(p == pid for p, _ in paid):
                raise IllegalAction("{name} is named twice", name=sheet.name_of(pid))
            paid.append((pid, int(amount)))
        won = tuple(dict.fromkeys(sheet.player(w).id for w in winners))
        return Pot(tuple(paid), won)

    def _parse_double(self, words: list[str], sheet: Sheet) -> Entry:
        if len(words) != 3 or words[2].casefold() not in RESULT_WORDS:
            raise IllegalAction("write the double knock as 'double NAME won' or 'double NAME "
                                "lost'")
        return DoubleKnock(sheet.player(words[1]).id, RESULT_WORDS[words[2].casefold()])

    def notation(self, entry: Entry, sheet: Sheet) -> str:
        if isinstance(entry, DoubleKnock):
            return f"double {quote(sheet.name_of(entry.player))} " + \
                ("won" if entry.won else "lost")
        assert isinstance(entry, Pot)
        paid = " ".join(f"{quote(sheet.name_of(p))} {a}" for p, a in entry.paid)
        return f"{paid} won " + " ".join(quote(sheet.name_of(p)) for p in entry.winners)

    def double_knocks(self, rules: Rules) -> bool:
        return False

    # -- deriving ----------------------------------------------------------------------
    def derive(self, sheet: Sheet) -> Derivation:
        rules = sheet.rules
        assert isinstance(rules, PotRules)
        players = sheet.players
        # the ledger's seats are the players' ids: purses go in the order players came
        ledger = Ledger(len(players), stacks=rules.stacks(len(players)))
        rows: list[tuple[str | None, ...]] = []
        flags: list[Flag] = []
        last: tuple[int, int, int, set[int]] | None = None  # winner, share, pot, who paid
        knocked: set[int] = set()
        for index, entry in enumerate(sheet.entries):
            before = ledger.balances()
            try:
                if isinstance(entry, Pot):
                    ledger, last = self._pot(entry, ledger, rules, sheet, index)
                    knocked = set()
                else:
                    assert isinstance(entry, DoubleKnock)
                    ledger = self._double(entry, ledger, rules, sheet, last, knocked)
                    knocked.add(entry.player)
            except IllegalAction as exc:
                flags.append(Flag.of(index, sheet.notation(entry), exc.message))
                rows.append((f"{index + 1} !", *(None for _ in players),
                             *(signed(ledger.balances()[p.id]) for p in players)))
                continue
            after = ledger.balances()
            involved = {p.id for p in players if after[p.id] != before[p.id]}
            if isinstance(entry, Pot):
                involved |= {p for p, _ in entry.paid}
            rows.append((str(index + 1),
                         *(signed(after[p.id] - before[p.id])
                           if p.id in involved else None for p in players),
                         *(signed(after[p.id]) for p in players)))
        balances = ledger.balances()
        header = ("Pot", *sheet.names, *(f"{n} balance" for n in sheet.names))
        placed = places([balances[p.id] for p in players])
        purses = [ledger.purse(p.id) for p in players]
        standings = tuple(Standing(p.id, p.name, placed[i], balances[p.id],
                                   extra={"purse": purses[i]})
                          for i, p in enumerate(players))
        can_play = [p for p, left in zip(players, purses, strict=True)
                    if left is None or left >= rules.ante]
        return Derivation("balance", (header, *rows), standings, len(can_play) <= 1,
                          tuple(flags))

    def _pot(self, entry: Pot, ledger: Ledger, rules: PotRules, sheet: Sheet,
             index: int) -> tuple[Ledger, tuple[int, int, int, set[int]]]:
        paid_by = dict(entry.paid)
        for pid, amount in entry.paid:
            player = sheet.by_id(pid)
            if player.joined > index:
                raise IllegalAction("{name} joined after pot {pot}", name=player.name,
                                    pot=player.joined)
            if amount < rules.ante:
                raise IllegalAction("everybody in a pot pays the ante of {ante}; {name} paid "
                                    "{amount}", ante=rules.ante, name=player.name,
                                    amount=amount)
        for pid in entry.winners:
            if pid not in paid_by:
                raise IllegalAction("{name} paid nothing into this pot, so cannot have won it",
                                    name=sheet.name_of(pid))
        if len(entry.paid) < 2:
            raise IllegalAction("a pot needs at least two players paying in")
        for pid, amount in entry.paid:
            try:
                ledger = ledger.bet(pid, amount)
            except IllegalAction as exc:
                raise IllegalAction("{name}: {problem}", name=sheet.name_of(pid),
                                    problem=exc.message) from None
        pot = ledger.pot
        order = [p.id for p in sheet.players if p.id in entry.winners]
        ledger = ledger.award(tuple(order))
        seated = sum(1 for p in sheet.players if p.joined <= index)
        winner = order[0] if len(order) == 1 else -1
        return ledger, (winner, pot // seated, pot, set(paid_by))

    def _double(self, entry: DoubleKnock, ledger: Ledger, rules: PotRules, sheet: Sheet,
                last: tuple[int, int, int, set[int]] | None, knocked: set[int]) -> Ledger:
        name = sheet.name_of(entry.player)
        if not self.double_knocks(rules):
            raise IllegalAction(self.no_double_knock)
        if last is None:
            raise IllegalAction("a double knock follows a pot, and there is none yet")
        winner, share, pot, paid = last
        if winner < 0:
            raise IllegalAction("a shared pot cannot be double-knocked")
        if entry.player == winner:
            raise IllegalAction("{name} won the last pot; only a loser asks for the double "
                                "knock", name=name)
        if entry.player not in paid:
            raise IllegalAction("{name} was not in the last pot", name=name)
        if entry.player in knocked:
            raise IllegalAction("{name} has already double-knocked this pot", name=name)
        if share <= 0:
            raise IllegalAction("the pot of {pot} leaves no share to win back", pot=pot)
        payer, payee = (winner, entry.player) if entry.won else (entry.player, winner)
        try:
            return ledger.transfer(payer, payee, share)
        except IllegalAction as exc:
            raise IllegalAction("{name}: {problem}", name=sheet.name_of(payer),
                                problem=exc.message) from None


@register_kind
class KnackSheet(PotSheet):
    game: ClassVar[str] = "knack"
    title: ClassVar[str] = "Knack"
    entry_help: ClassVar[str] = PotSheet.entry_help + "; a double knock: 'double Ben won'"
    no_double_knock: ClassVar[str] = "the double knock is not played here (double_knock=off)"

    def double_knocks(self, rules: Rules) -> bool:
        return isinstance(rules, KnackRules) and rules.double_knock


@register_kind
class LinkaSheet(PotSheet):
    game: ClassVar[str] = "linka"
    title: ClassVar[str] = "Linka"

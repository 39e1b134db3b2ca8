"""The Slosch (Mia) sheet: lives that fall, two at a time when Slosch decided the round.

Each round has a loser, whose cell is the lives the round cost: 1, or 2 when Slosch (21)
was rolled or claimed in the decisive exchange and the table plays the double loss
(``slosch_double``). Lives left are the start (``lives``) minus the sum of the cells; a
player at zero is out, their later cells empty, and the sheet ranks as liar's dice does.

Entries, as typed:

``Ben`` or ``loss Ben``
    Ben lost the round.
``loss Ben slosch``
    Ben lost it with Slosch on the table: two lives with the double loss, else one.
``loss Anna Cara slosch``
    Several losers at once: only when announcing Slosch lifts the cup (``mia_reveals``)
    and it was true, so everybody else lost.
``0 2 0``
    The round's cells, one per player still in, in the order of the sheet (2 is the
    Slosch double loss).

Everybody pays ``stake`` into the pot and the last player with a life wins it: the
standings carry each player's ``winnings`` (what the pot gave or cost them) once it is paid.

With ``scoring=points`` (the Mäxchen preset) nobody goes out: each round played is +1 and
each loss −1, the cells are the points a round gave, and the sheet is full after
``rounds`` rounds. The rules are Slosch's own (:class:`kastkopp.games.mia.MiaRules`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from kastkopp.engine import IllegalAction, Message, term
from kastkopp.games.mia import MiaRules
from kastkopp.games.stakes import Ledger
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
)
from kastkopp.sheets.rounds import Countdown, is_cell, read_cell

SLOSCH_WORDS = {"slosch", "mia", "21", "double"}
LOSS_WORDS = {"loss", "lost", "lose", "förlust", "förlorade", "tabt"}


@dataclass(frozen=True)
class Round(Entry):
    """Who lost a round, and whether Slosch was in the decisive exchange."""

    losers: tuple[int, ...]
    slosch: bool = False


@register_kind
class SloschSheet(SheetKind):
    game: ClassVar[str] = "mia"
    title: ClassVar[str] = "Slosch"
    entry_help: ClassVar[str] = ("write 'loss NAME', 'loss NAME slosch' (Slosch decided it), "
                                 "or the round's cells in the sheet's order, like 0 1 0")
    words: ClassVar[frozenset[str]] = frozenset(SLOSCH_WORDS | LOSS_WORDS)

    def parse_entry(self, words: list[str], sheet: Sheet) -> Entry:
        if all(is_cell(w) for w in words) and len(words) > 1:
            return self._from_cells(words, sheet)
        rest = words[1:] if words[0].casefold() in LOSS_WORDS else words
        slosch = bool(rest) and rest[-1].casefold() in SLOSCH_WORDS
        names = rest[:-1] if slosch else rest
        if not names:
            raise IllegalAction("who lost? {help}", help=term(self.entry_help))
        losers = []
        for word in names:
            if not sheet.is_player(word) and words[0].casefold() not in LOSS_WORDS:
                raise IllegalAction("cannot read '{text}': {help}", text=" ".join(words),
                                    help=term(self.entry_help))
            pid = sheet.player(word).id
            if pid in losers:
                raise IllegalAction("{name} is named twice", name=sheet.name_of(pid))
            losers.append(pid)
        return Round(tuple(losers), slosch)

    def _from_cells(self, words: list[str], sheet: Sheet) -> Entry:
        now = {s.id: s for s in sheet.derive().standings}
        playing = [p for p in sheet.players if now[p.id].out is None]
        if len(words) != len(playing):
            raise IllegalAction("{cells} cells for the {count} players in the game ({names})",
                                cells=len(words), count=len(playing),
                                names=", ".join(p.name for p in playing))
        cells = [read_cell(w) for w in words]
        losers = [(p, c) for p, c in zip(playing, cells, strict=True) if c]
        bad = [c for _, c in losers if c not in (1, 2)]
        if bad or not losers or any(c is None for c in cells):
            raise IllegalAction("a Slosch cell is 1 (lost), 2 (lost with Slosch) or 0, and "
                                "somebody lost every round")
        slosch = any(c == 2 for _, c in losers)
        if slosch and any(c == 1 for _, c in losers):
            raise IllegalAction("a round costs every loser the same: all 1 or all 2")
        return Round(tuple(p.id for p, _ in losers), slosch)

    def notation(self, entry: Entry, sheet: Sheet) -> str:
        assert isinstance(entry, Round)
        names = " ".join(quote(sheet.name_of(p)) for p in entry.losers)
        return f"loss {names}" + (" slosch" if entry.slosch else "")

    def _refusal(self, entry: Round, rules: MiaRules) -> Message | None:
        if len(entry.losers) > 1 and not rules.mia_reveals:
            return Message("one player loses a round here; several lose at once only when "
                           "announcing Slosch lifts the cup (mia_reveals=on)")
        if len(entry.losers) > 1 and not entry.slosch:
            return Message("several players lose at once only to a revealed Slosch: add "
                           "'slosch'")
        return None

    def derive(self, sheet: Sheet) -> Derivation:
        rules = sheet.rules
        assert isinstance(rules, MiaRules)
        if rules.scoring == "points":
            return self._derive_points(sheet)
        fold = Countdown(sheet, rules.lives, "lives")
        for index, entry in enumerate(sheet.entries):
            assert isinstance(entry, Round)
            cost = 2 if entry.slosch and rules.slosch_double else 1
            shown = {p: str(cost) for p in entry.losers}
            reason = fold.refusal(index, entry.losers) or self._refusal(entry, rules)
            if reason is not None:
                fold.flag(index, reason, shown)
                continue
            fold.play(index, {p: min(cost, fold.counts[p]) for p in entry.losers})
        return self._pot(fold.result(), rules)

    @staticmethod
    def _pot(derived: Derivation, rules: MiaRules) -> Derivation:
        """Everybody paid ``stake`` into the pot; once the game is over the winner takes it."""
        if not rules.stake:
            return derived
        ids = [s.id for s in derived.standings]
        ledger = Ledger(len(ids)).ante_all(rules.stake)
        if derived.finished:
            ledger = ledger.award(tuple(ids.index(w.id) for w in derived.winners))
        balances = ledger.balances()
        return replace(derived, standings=tuple(
            replace(s, extra={**s.extra, "winnings": balances[i]})
            for i, s in enumerate(derived.standings)))

    def _derive_points(self, sheet: Sheet) -> Derivation:
        """Mäxchen: +1 for every round played, −1 for every round lost; nobody goes out."""
        rules = sheet.rules
        assert isinstance(rules, MiaRules)
        points = {p.id: 0 for p in sheet.players}
        rows: list[tuple[str | None, ...]] = []
        flags: list[Flag] = []
        played = 0
        for index, entry in enumerate(sheet.entries):
            assert isinstance(entry, Round)
            seated = [p for p in sheet.players if p.joined <= index]
            reason = self._refusal(entry, rules)
            late = [p for p in entry.losers if sheet.by_id(p).joined > index]
            if played >= rules.rounds:
                reason = Message("the game was {rounds} rounds", {"rounds": rules.rounds})
            elif late:
                reason = Message("{name} joined after round {round}",
                                 {"name": sheet.name_of(late[0]), "round": index})
            if reason is not None:
                flags.append(Flag.of(index, sheet.notation(entry), reason))
                rows.append((f"{index + 1} !", *(f"({'lost'})" if p.id in entry.losers
                                                 else None for p in sheet.players),
                             *(str(points[p.id]) for p in sheet.players)))
                continue
            played += 1
            cells: list[str | None] = []
            for p in sheet.players:
                if p not in seated:
                    cells.append(None)
                    continue
                gain = 0 if p.id in entry.losers else 1
                points[p.id] += gain
                cells.append(str(gain))
            rows.append((str(index + 1), *cells,
                         *(str(points[p.id]) if p in seated else None for p in sheet.players)))
        names = sheet.names
        header = ("Round", *names, *(f"{n} points" for n in names))
        placed = places([points[p.id] for p in sheet.players])
        standings = tuple(Standing(p.id, p.name, placed[i], points[p.id])
                          for i, p in enumerate(sheet.players))
        return Derivation("points", (header, *rows), standings, played >= rules.rounds,
                          tuple(flags))

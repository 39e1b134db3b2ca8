"""What the elimination sheets share: a row per round, a cell per player, counts that fall.

Liar's dice and Slosch are kept the same way on paper (Løgneterninger regler): every round
changes some players' count by a cell, the count left is the start minus the sum of the
cells, and a player at zero is out. An out player's later cells are *empty* — there was no round for
them — which is not the same as a 0 (they played and lost nothing).

Ranking is Løgneterninger regler's: players still in by what they have left, players who
are out by when they went out (later is better). Nobody ties on their shared zero; only players who
went out in the very same round share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kastkopp.engine import Message
from kastkopp.sheets.core import Derivation, Flag, Player, Sheet, Standing, places, signed

EMPTY = {"-", "—", "–", "_", "."}


def read_cell(word: str) -> int | None:
    """A typed cell: ``1``, ``+1``, ``0``, ``-1`` or ``−1``; ``None`` for an empty cell."""
    text = word.strip().replace("−", "-")
    if text in EMPTY or not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(word) from None


def is_cell(word: str) -> bool:
    try:
        read_cell(word)
    except ValueError:
        return False
    return True


@dataclass
class Countdown:
    """The fold of a countdown sheet, one round at a time (used by the kinds' ``derive``).

    ``start`` is what every player starts with (a late player starts with it too).
    """

    sheet: Sheet
    start: int
    count_name: str
    show_out: bool = True
    counts: dict[int, int] = field(default_factory=dict)
    out: dict[int, int] = field(default_factory=dict)  # id -> round (1-based) gone out
    records: list[tuple[str, dict[int, str | None], dict[int, str | None]]] = field(
        default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    ended: int | None = None  # the round after which one player was left

    def __post_init__(self) -> None:
        self.counts = {p.id: self.start for p in self.sheet.players}

    def in_game(self, index: int) -> list[int]:
        """Ids of the players who play entry ``index``: seated and not out."""
        return [p.id for p in self.sheet.players if p.joined <= index and p.id not in self.out
                and self.counts[p.id] > 0]

    def seated(self, index: int) -> list[int]:
        return [p.id for p in self.sheet.players if p.joined <= index]

    def refusal(self, index: int, pids: Sequence[int]) -> Message | None:
        """Why entry ``index`` cannot involve ``pids`` now, if it cannot."""
        if self.ended is not None:
            winner = [self.sheet.name_of(p) for p in self.in_game(index)]
            if len(winner) == 1:
                return Message("the game ended in round {round}: {name} was the last one in",
                               {"round": self.ended, "name": winner[0]})
            return Message("the game ended in round {round}", {"round": self.ended})
        for pid in pids:
            player = self.sheet.by_id(pid)
            if player.joined > index:
                return Message("{name} joined after round {round}",
                               {"name": player.name, "round": player.joined})
            if pid in self.out:
                return Message("{name} is out since round {round}; the cells after that are "
                               "empty", {"name": player.name, "round": self.out[pid]})
        return None

    def flag(self, index: int, reason: Message, shown: dict[int, str] | None = None) -> None:
        """Entry ``index`` is impossible now: it is listed with the reason, counting nothing.

        ``shown`` are the cells as entered, printed in brackets in its row.
        """
        entry = self.sheet.entries[index]
        self.flags.append(Flag.of(index, self.sheet.notation(entry), reason))
        self._record(index, {}, shown or {})

    def play(self, index: int, changes: dict[int, int]) -> None:
        """Round ``index`` (0-based) changes these players' counts by their cells."""
        for pid, change in changes.items():
            self.counts[pid] = self.counts[pid] - change
            if self.counts[pid] <= 0:
                self.counts[pid] = 0
                self.out[pid] = index + 1
        self._record(index, changes, None)
        if len(self.seated(index)) >= 2 and len(self.in_game(index + 1)) <= 1:
            self.ended = index + 1

    def _record(self, index: int, changes: dict[int, int],
                shown: dict[int, str] | None) -> None:
        cells: dict[int, str | None] = {}
        counts: dict[int, str | None] = {}
        for p in self.sheet.players:
            out_before = p.id in self.out and self.out[p.id] < index + 1
            gone = p.joined > index or out_before
            counts[p.id] = None if gone else str(self.counts[p.id])
            if shown is not None:  # a flagged round: only what was entered, in brackets
                cells[p.id] = f"({shown[p.id]})" if p.id in shown else None
            else:
                cells[p.id] = None if gone else signed(changes.get(p.id, 0))
        self.records.append((f"{index + 1}" + (" !" if shown is not None else ""),
                             cells, counts))

    def visible(self) -> list[Player]:
        return [p for p in self.sheet.players if self.show_out or p.id not in self.out]

    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        shown = self.visible()
        names = [p.name for p in shown]
        header = ("Round", *names, *(f"{n} {self.count_name}" for n in names))
        rows = [(label, *(cells[p.id] for p in shown), *(counts[p.id] for p in shown))
                for label, cells, counts in self.records]
        return (header, *rows)

    def result(self) -> Derivation:
        players = self.sheet.players
        last = len(self.sheet.entries)
        keys = []
        for p in players:
            left = self.counts[p.id]
            keys.append((1, left, 0) if p.id not in self.out else (0, 0, self.out[p.id]))
        placed = places(keys)
        standings = tuple(
            Standing(p.id, p.name, placed[i], self.counts[p.id], self.out.get(p.id))
            for i, p in enumerate(players))
        finished = self.ended is not None or (len(self.seated(last)) >= 2
                                              and len(self.in_game(last)) <= 1)
        return Derivation(count_name=self.count_name, grid=self.grid(),
                          standings=standings, finished=finished, flags=tuple(self.flags))

"""The Liar Dice sheet (Poker Menteur, Løgner terninger): who won each game of a match.

A game of Liar Dice ends when someone doubts, with one winner. Two players play a match,
best of ``best_of`` games (3 by default, 5 is common): the first to win more than half wins
it, and the winner of a game calls first in the next. Three or more play a chouette: the two
first in the order play, the winner stays, the loser goes to the end of the queue. The
folding of both is :mod:`kastkopp.matches`'; the sheet writes one row per game.

Entries, as typed:

``Anna`` (or ``won Anna``)
    Anna won the game.
``draw``
    Both made five aces: the game is dealt again and counts for nobody (only with the
    five-aces rule, ``five_aces``).

Refused, or flagged after a rule change: a winner who was not at the table, a game after the
match is decided, a draw without the five-aces rule. A player inserted late joins the end
of the queue, which makes a two-player match a chouette from then on. Places go by games
won, then by fewest lost; a chouette is never finished, a match is when it is decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kastkopp.engine import IllegalAction, Message, Rules, rule, term
from kastkopp.games.poker_dice import PokerDiceRules
from kastkopp.matches import Chouette, Match, check_best_of
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

WON_WORDS = {"won", "wins", "vann", "vandt", "winner"}
DRAW_WORDS = {"draw", "drawn", "oavgjort", "uafgjort", "remis"}


@dataclass(frozen=True)
class MatchRules(PokerDiceRules):
    """The game's house rules, and how long a match is."""

    best_of: int = rule(3, "a match of two is best of this many games (an odd number)",
                        min=1, max=99)

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        **PokerDiceRules.PRESETS, "best_of_5": {"best_of": 5}}

    def check(self) -> None:
        super().check()
        check_best_of(self.best_of)


@dataclass(frozen=True)
class Played(Entry):
    """One game: its winner, or ``None`` for a drawn game (dealt again)."""

    winner: int | None


@register_kind
class PokerDiceSheet(SheetKind):
    game: ClassVar[str] = "poker_dice"
    title: ClassVar[str] = "Liar Dice"
    entry_help: ClassVar[str] = "write who won the game ('Anna' or 'won Anna'), or 'draw'"
    words: ClassVar[frozenset[str]] = frozenset(WON_WORDS | DRAW_WORDS)

    def rules_class(self) -> type[Rules]:
        return MatchRules

    @property
    def max_players(self) -> int:
        """Two play a match; more play a chouette."""
        return 10

    def parse_entry(self, words: list[str], sheet: Sheet) -> Entry:
        if len(words) == 1 and words[0].casefold() in DRAW_WORDS:
            return Played(None)
        if len(words) == 2 and words[0].casefold() in WON_WORDS:
            return Played(sheet.player(words[1]).id)
        if len(words) == 1:
            return Played(sheet.player(words[0]).id)
        raise IllegalAction("cannot read '{text}': {help}", text=" ".join(words),
                            help=term(self.entry_help))

    def notation(self, entry: Entry, sheet: Sheet) -> str:
        assert isinstance(entry, Played)
        return "draw" if entry.winner is None else f"won {quote(sheet.name_of(entry.winner))}"

    def derive(self, sheet: Sheet) -> Derivation:
        rules = sheet.rules
        assert isinstance(rules, MatchRules)
        players = sheet.players
        # the matches module names players by strings: the ids, so renaming changes nothing
        pid_of = {str(p.id): p.id for p in players}
        seated = [str(p.id) for p in sorted(players, key=lambda p: p.id) if p.joined == 0]
        match = Match((seated[0], seated[1]), rules.best_of) if len(seated) == 2 else None
        chouette = Chouette(tuple(seated)) if match is None else None
        won = dict.fromkeys(pid_of.values(), 0)
        lost = dict.fromkeys(pid_of.values(), 0)
        rows: list[tuple[str | None, ...]] = []
        flags: list[Flag] = []
        for index, entry in enumerate(sheet.entries):
            assert isinstance(entry, Played)
            late = [str(p.id) for p in players if p.joined == index > 0]
            if late and not (match is not None and match.is_over):
                # newcomers join the end of the queue: a chouette from here on
                table, waiting = (match.players, ()) if match is not None else \
                    (chouette.table, chouette.waiting) if chouette is not None else ((), ())
                chouette, match = Chouette((*table, *waiting, *late)), None
            table = match.players if match is not None else \
                chouette.table if chouette is not None else ()
            at_table = [pid_of[k] for k in table]
            reason = self._refusal(entry, rules, sheet, match, at_table)
            if reason is not None:
                flags.append(Flag.of(index, sheet.notation(entry), reason))
            elif entry.winner is not None:
                if match is not None:
                    match = match.record(str(entry.winner))
                elif chouette is not None:
                    chouette = chouette.record(str(entry.winner))
                for pid in at_table:
                    won[pid] += pid == entry.winner
                    lost[pid] += pid != entry.winner
            elif match is not None:
                match = match.record(None)  # a drawn game is dealt again
            rows.append(self._row(sheet, index, entry, at_table, won, reason))
        header = ("Game", *sheet.names, *(f"{p.name} wins" for p in players))
        finished = match is not None and match.is_over
        if finished:
            assert match is not None and match.winner is not None
            placed = [1 if p.id == pid_of[match.winner] else 2 for p in players]
        else:
            placed = places([(won[p.id], -lost[p.id]) for p in players])
        standings = tuple(Standing(p.id, p.name, placed[i], won[p.id],
                                   extra={"lost": lost[p.id]})
                          for i, p in enumerate(players))
        return Derivation("wins", (header, *rows), standings, finished, tuple(flags))

    @staticmethod
    def _refusal(entry: Played, rules: MatchRules, sheet: Sheet, match: Match | None,
                 at_table: list[int]) -> Message | None:
        if match is not None and match.is_over:
            a, b = (sheet.name_of(p) for p in at_table)
            wins = match.wins()
            return Message("the match is over: {score}", {"score": f"{a} {wins[0]}, {b} {wins[1]}"})
        if entry.winner is None:
            if not rules.five_aces:
                return Message("a game is drawn only by five aces against five aces "
                               "(five_aces=on)")
            return None
        if entry.winner not in at_table:
            a, b = (sheet.name_of(p) for p in at_table)
            return Message("{name} was not at the table ({a} against {b})",
                           {"name": sheet.name_of(entry.winner), "a": a, "b": b})
        return None

    @staticmethod
    def _row(sheet: Sheet, index: int, entry: Played, at_table: list[int],
             won: dict[int, int], reason: Message | None) -> tuple[str | None, ...]:
        cells: list[str | None] = []
        for p in sheet.players:
            if reason is not None:
                cells.append("(won)" if p.id == entry.winner else None)
            elif p.id not in at_table:
                cells.append(None)
            elif entry.winner is None:
                cells.append("=")
            else:
                cells.append("won" if p.id == entry.winner else "lost")
        counts = [str(won[p.id]) if p.joined <= index else None for p in sheet.players]
        return (f"{index + 1}" + (" !" if reason else ""), *cells, *counts)

"""The Yatzy-family sheet: Yatzy, Maxi Yatzy, Yahtzee, Tärningspoker and Terningspoker.

One entry fills one row of one player's column. Enter the dice and the sheet scores them,
or enter the points read off a paper sheet and the sheet checks they are possible:

``Anna fours 4 4 4 1 2`` (or ``Anna fours 44412``)
    the dice Anna wrote in Fours: 12 points under Yatzy rules, +3 under Terningspoker's.
``Anna pair 3 3 1 2 5 first``
    the dice came on the first throw (Terningspoker doubles the combination).
``Anna fours 12``
    the points; ``31`` in Fours is refused, as is 25 for a Scandinavian full house.
``Anna full house -`` (or ``0``)
    the row crossed out: a dash or a zero, as the rule set writes a row not made.

Refused, with the reason: a row the sheet does not have, a second entry in a row, dice
that do not make the row they are written in (cross it out instead), points no dice can
score there, and rows out of the order the rules keep (Terningspoker's part 1 first). The
scoring — each row, the bonus, the Yahtzee joker and extra-Yahtzee bonus, the total and
Terningspoker's result against the average — is the game's own
(:mod:`kastkopp.games.yatzy`), applied to the cells as entered.

Decisions the seeds leave open: rows are entered in any order and by any player (paper
sheets are filled as the table goes round); a ``0`` in a row that can never score 0 is a
crossing-out and is written as the rule set writes one; the extra-Yahtzee bonus is counted
only for rows entered with their dice, since points alone do not show a Yahtzee.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar

from kastkopp.dice import Faces, multisets
from kastkopp.engine import IllegalAction, Rules, term
from kastkopp.games.yatzy import (
    DASH,
    UPPER,
    Cell,
    Yatzy,
    YatzyRules,
    YatzyState,
    extra_yatzy,
    joker_applies,
    label,
    mark,
    parse_dice,
    parse_row,
    playable_rows,
    row_words,
    score,
)
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

SCRATCH = {"-", "—", "–", "x", "X", "/", "0"}
FIRST_WORDS = {"first", "1st", "först", "første", "direkte"}


@dataclass(frozen=True)
class Fill(Entry):
    """One row of one player: the dice, or the points, or crossed out (``scratch``)."""

    player: int
    row: str
    dice: Faces | None = None
    points: int | None = None
    scratch: bool = False
    first: bool = False  # the dice were the turn's first throw


@lru_cache(maxsize=1024)
def possible_points(row: str, rules: YatzyRules) -> frozenset[int]:
    """Every score some throw can give ``row`` under ``rules`` (doubling and jokers too)."""
    firsts = (False, True) if rules.first_throw_double else (False,)
    jokers = (False, True) if rules.joker else (False,)
    return frozenset(p for dice, _ in multisets(rules.dice) for first in firsts
                     for joker in jokers
                     if (p := score(row, dice, rules, first, joker)) is not None)


@lru_cache(maxsize=1024)
def can_miss(row: str, rules: YatzyRules) -> bool:
    """Whether some throw does not make ``row`` (chance, and Terningspoker's part 1, never)."""
    return any(score(row, dice, rules) is None for dice, _ in multisets(rules.dice))


def describe(values: frozenset[int]) -> str:
    ordered = sorted(values)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"  # a range, read alike in every language
    if len(ordered) <= 12:
        return ", ".join(map(str, ordered))
    return f"{', '.join(map(str, ordered[:8]))}, … {ordered[-1]}"


@register_kind
class YatzySheet(SheetKind):
    game: ClassVar[str] = "yatzy"
    stand_in: ClassVar[str] = "sheets/yatzy.js"
    title: ClassVar[str] = "Yatzy"
    entry_help: ClassVar[str] = ("write 'NAME ROW DICE' (Anna fours 4 4 4 1 2), 'NAME ROW "
                                 "POINTS' (Anna fours 12) or 'NAME ROW -' to cross it out")
    words: ClassVar[frozenset[str]] = frozenset(FIRST_WORDS | {"x"})
    offline_texts: ClassVar[tuple[str, ...]] = (
        "'{name}' is not a player here (players: {names})", "cannot read '{text}': {help}",
        "'{text}' is not a row (rows: {rows})", "no dice or points for {row}: {help}",
        "this sheet has no {row} row (rows: {rows})",
        "{name} has already written {cell} in {row} (entry {entry}); a row takes one entry",
        "{dice} is not {row}: to cross the row out write '{entry}'",
        "{points} is not a possible score in {row} ({possible})",
        "{row} is always made ({possible}): it cannot be crossed out",
        "this sheet is played with {dice} dice, not {count} ({shown})",
        "'{text}' are not dice: write them like 3 3 5", "a die shows 1 to 6, not {face}",
        "'first' goes with the dice of the first throw, not points",
        "{name} cannot write in {row} yet: {why} (open now: {open})",
        "a Yahtzee goes in its upper row if open, else a lower row",
        "the rows are filled top to bottom", "the upper part is filled first")

    # -- reading entries ---------------------------------------------------------------
    def parse_entry(self, words: list[str], sheet: Sheet) -> Entry:
        rules = sheet.rules
        assert isinstance(rules, YatzyRules)
        if len(words) < 3:
            raise IllegalAction("cannot read '{text}': {help}", text=" ".join(words),
                                help=term(self.entry_help))
        player = sheet.player(words[0])
        rest = words[1:]
        first = rest[-1].casefold() in FIRST_WORDS
        if first:
            rest = rest[:-1]
        # the row is every word up to the first value (row names may be several words)
        at = next((i for i, w in enumerate(rest) if i > 0 and self._is_value(w)), None)
        if at is None:
            raise IllegalAction("no dice or points for {row}: {help}", row=" ".join(rest),
                                help=term(self.entry_help))
        row = parse_row(" ".join(rest[:at]), rules)
        values = rest[at:]
        if len(values) == 1 and values[0] in SCRATCH and not first:
            if values[0] == "0":
                return Fill(player.id, row, points=0)
            return Fill(player.id, row, scratch=True)
        if len(values) == 1 and not (len(values[0]) == rules.dice and values[0].isdigit()):
            if first:
                raise IllegalAction("'first' goes with the dice of the first throw, not points")
            return Fill(player.id, row, points=int(values[0]))
        dice = parse_dice(" ".join(values))
        if len(dice) != rules.dice:
            raise IllegalAction("this sheet is played with {dice} dice, not {count} ({shown})",
                                dice=rules.dice, count=len(dice),
                                shown=" ".join(map(str, dice)))
        return Fill(player.id, row, dice=dice, first=first)

    @staticmethod
    def _is_value(word: str) -> bool:
        return word in SCRATCH or bool(re.fullmatch(r"\d+", word))

    def notation(self, entry: Entry, sheet: Sheet) -> str:
        assert isinstance(entry, Fill)
        head = f"{quote(sheet.name_of(entry.player))} {entry.row}"
        if entry.dice is not None:
            return f"{head} {' '.join(map(str, entry.dice))}" + (" first" if entry.first
                                                                 else "")
        return f"{head} -" if entry.scratch else f"{head} {entry.points}"

    # -- deriving ----------------------------------------------------------------------
    def derive(self, sheet: Sheet) -> Derivation:
        rules = sheet.rules
        assert isinstance(rules, YatzyRules)
        players = sheet.players
        cells: dict[int, dict[str, Cell]] = {p.id: dict.fromkeys(rules.rows) for p in players}
        extras = {p.id: 0 for p in players}
        written_by: dict[tuple[int, str], int] = {}
        flags: list[Flag] = []
        pending: dict[tuple[int, str], str] = {}  # flagged entries shown in empty cells
        for index, entry in enumerate(sheet.entries):
            assert isinstance(entry, Fill)
            try:
                cell, extra = self._cell(entry, cells[entry.player], rules, sheet,
                                         written_by)
            except IllegalAction as exc:
                flags.append(Flag.of(index, sheet.notation(entry), exc.message))
                pending.setdefault((entry.player, entry.row), self._typed(entry))
                continue
            cells[entry.player][entry.row] = cell
            written_by[entry.player, entry.row] = index
            extras[entry.player] += extra

        # the game's own state, holding the cells as entered, adds up the totals
        state = replace(Yatzy(rules=rules, players=len(players)).new_state(),
                        sheets=tuple(tuple(cells[p.id].values()) for p in players),
                        extras=tuple(extras[p.id] for p in players))
        finished = all(c is not None for p in players for c in cells[p.id].values())
        return Derivation(count_name="total", grid=self._grid(sheet, state, cells, pending),
                          standings=self._standings(sheet, state), finished=finished,
                          flags=tuple(flags), empty="")

    def _cell(self, entry: Fill, cells: dict[str, Cell], rules: YatzyRules, sheet: Sheet,
              written_by: dict[tuple[int, str], int]) -> tuple[Cell, int]:
        """What the entry writes in its row, and whether it earns an extra Yatzy bonus."""
        name, row = sheet.name_of(entry.player), entry.row
        if row not in rules.rows:
            raise IllegalAction("this sheet has no {row} row (rows: {rows})", row=row,
                                rows=", ".join(rules.rows))
        here = label(row, rules.lang, rules.sheet_name)
        if cells[row] is not None:
            raise IllegalAction("{name} has already written {cell} in {row} (entry {entry}); a "
                                "row takes one entry", name=name, cell=text(cells[row]),
                                row=here, entry=written_by[entry.player, row] + 1)
        dice = entry.dice or ()
        allowed = playable_rows(rules, cells, dice)
        if row not in allowed:
            why = (term("a Yahtzee goes in its upper row if open, else a lower row")
                   if joker_applies(rules, cells, dice) else
                   term("the rows are filled top to bottom") if rules.order == "top-down"
                   else term("the upper part is filled first"))
            raise IllegalAction("{name} cannot write in {row} yet: {why} (open now: {open})",
                                name=name, row=here, why=why, open=", ".join(allowed))
        cross = "-" if rules.misses == "dash" else "0"
        if entry.dice is not None:
            points = score(row, entry.dice, rules, entry.first,
                           joker_applies(rules, cells, entry.dice))
            if points is None:
                raise IllegalAction("{dice} is not {row}: to cross the row out write "
                                    "'{entry}'", dice=" ".join(map(str, entry.dice)),
                                    row=here, entry=f"{quote(name)} {row} {cross}")
            return points, int(extra_yatzy(rules, cells, entry.dice))
        possible = possible_points(row, rules)
        if entry.scratch or (entry.points == 0 and 0 not in possible):
            if not can_miss(row, rules):
                raise IllegalAction("{row} is always made ({possible}): it cannot be crossed "
                                    "out", row=here, possible=describe(possible))
            return mark(None, rules), 0
        if entry.points not in possible:
            raise IllegalAction("{points} is not a possible score in {row} ({possible})",
                                points=entry.points, row=here, possible=describe(possible))
        return entry.points, 0

    def offline(self, rules: Rules) -> dict[str, Any]:
        assert isinstance(rules, YatzyRules)
        return scores_table(rules)

    @staticmethod
    def _typed(entry: Fill) -> str:
        if entry.dice is not None:
            return "".join(map(str, entry.dice))
        return "-" if entry.scratch else str(entry.points)

    def row_labels(self, sheet: Sheet, lang: str) -> dict[str, str]:
        """The rows in the terminal's language; the ``lang`` rule names them on the sheet."""
        rules = sheet.rules
        assert isinstance(rules, YatzyRules)
        keys = (*rules.rows, "upper", "bonus", "extra", "total", "average", "result")
        return {label(key, rules.lang, rules.sheet_name): label(key, lang, rules.sheet_name)
                for key in keys}

    def _grid(self, sheet: Sheet, state: YatzyState, cells: dict[int, dict[str, Cell]],
              pending: dict[tuple[int, str], str]) -> tuple[tuple[str | None, ...], ...]:
        rules = state.rules
        lang, kind = rules.lang, rules.sheet_name
        players = sheet.players
        seats = range(len(players))
        grid: list[tuple[str | None, ...]] = [("", *sheet.names)]
        for row in rules.rows:
            shown: list[str | None] = []
            for p in players:
                cell = cells[p.id][row]
                if cell is None and (p.id, row) in pending:
                    shown.append(f"({pending[p.id, row]}) !")
                else:
                    shown.append(None if cell is None else text(cell))
            grid.append((label(row, lang, kind), *shown))
            if row == "sixes" or (row == rules.rows[-1] and "sixes" not in rules.rows):
                grid.append((label("upper", lang), *(str(state.upper_sum(s)) for s in seats)))
                if rules.bonus:
                    grid.append((label("bonus", lang),
                                 *(str(b) if (b := state.bonus(s)) else None for s in seats)))
        if rules.yatzy_bonus:
            grid.append((label("extra", lang, kind),
                         *(str(n * rules.yatzy_bonus) if n else None for n in state.extras)))
        grid.append((label("total", lang), *(str(t) for t in state.totals())))
        if rules.result == "average":
            average = sum(state.totals()) / len(players)
            grid.append((label("average", lang), *(number(average) for _ in seats)))
            grid.append((label("result", lang), *(number(r, sign=True)
                                                   for r in state.results())))
        return tuple(grid)

    def _standings(self, sheet: Sheet, state: YatzyState) -> tuple[Standing, ...]:
        totals = state.totals()
        placed = places(totals)
        average = state.rules.result == "average"
        results = state.results()
        return tuple(Standing(p.id, p.name, placed[s], totals[s],
                              extra={"result": results[s]} if average else {})
                     for s, p in enumerate(sheet.players))


@lru_cache(maxsize=64)
def scores_table(rules: YatzyRules) -> dict[str, Any]:
    """Every row's score of every throw under ``rules``, for a page checking entries offline.

    ``throws`` are the multisets of the rules' dice, sorted (252 with five dice, 462 with
    six); ``scores[way][row][i]`` is what throw ``i`` scores in ``row`` (``None``: not
    made) — ``plain``, and where the rules have them ``first`` (the turn's first throw),
    ``joker`` and ``first joker``. ``possible`` and ``miss`` are what a row may hold when
    points alone are written; ``names`` every row name an entry may use; ``order`` and
    ``joker_choice`` which open rows an entry may take (:func:`playable_rows`).
    """
    throws = [dice for dice, _ in multisets(rules.dice)]
    firsts = (False, True) if rules.first_throw_double else (False,)
    jokers = (False, True) if rules.joker else (False,)
    scores = {" ".join(w for w, on in (("first", first), ("joker", joker)) if on) or "plain":
              {row: [score(row, dice, rules, first, joker) for dice in throws]
               for row in rules.rows}
              for first in firsts for joker in jokers}
    return {"rules": rules.to_json(), "dice": rules.dice,
            "throws": ["".join(map(str, dice)) for dice in throws],
            "rows": list(rules.rows), "scores": scores,
            "sheet": rules.sheet_name, "upper": list(UPPER),
            "possible": {row: sorted(possible_points(row, rules)) for row in rules.rows},
            "possible_text": {row: describe(possible_points(row, rules)) for row in rules.rows},
            "miss": [row for row in rules.rows if can_miss(row, rules)],
            "cross": "-" if rules.misses == "dash" else "0", "crossed": text(mark(None, rules)),
            "names": row_words(rules), "first_words": sorted(FIRST_WORDS),
            "scratch": sorted(SCRATCH), "joker_choice": rules.joker_choice,
            "order": rules.order}


def text(cell: Cell) -> str:
    return "–" if cell == DASH else str(cell)


def number(value: float, sign: bool = False) -> str:
    """``12``, ``-3.5``; with ``sign`` also ``+12``."""
    shown = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"+{shown}" if sign and value > 0 else shown


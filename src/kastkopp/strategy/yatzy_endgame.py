"""Heads-up Yatzy end-games solved exactly against the expected-score play.

Against an opponent who plays for the expected score (``bot:optimal``) the rest of a
heads-up game is a game against chance alone: the opponent's turn is the chance of every
(row, points) that play writes, walked forward through the throws as the distribution pass
walks it (:func:`kastkopp.strategy.yatzy_distribution.turn_outcomes`). With few rows open
on both sheets the whole of it is small enough to solve: for every pair of positions (mine
at my turn, the opponent's) and every difference of the two totals, the best chance of
winning, by backward induction over the turns of both. My turn is the solver's turn with
one lane per difference; each way it can end is worth the opponent's next turn averaged
over what it writes, then my next turn, and so on to the end (ties count half).

That is the best any play can do from the position, so it measures the others:
``bot:towin`` (:mod:`kastkopp.strategy.yatzy_towin`) plans the turn in hand only and values
the rest as played for points; the chance it leaves behind at each choice is what the
exact end-game would keep (``benchmarks/bench_towin_endgame.py``). With one turn of mine
left the two agree exactly.

Solved for a heads-up Yahtzee game with Chance and Yahtzee open on both sheets, 10 behind::

    d = distributions_for(YatzyRules.make("yahtzee"))      # kastkopp.strategy.yatzy_towin
    me = d.table.position([r for r in d.rules.rows if r not in ("chance", "yatzy")],
                          upper=63)
    end = EndGame(d, me, me, difference=-10)
    end.value                                  # the best chance of winning, before rolling
    end.chances(me, me, -10, (5, 5, 5, 6, 6), throw=2)   # every choice, exactly

The size grows about fivefold with every turn: with four rows open on each Scandinavian
Yatzy sheet a solve takes some 0.05 s, with six about 1 s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numba
import numpy as np

from kastkopp.dice import Faces
from kastkopp.games import yatzy as ymod
from kastkopp.strategy.yatzy_distribution import (
    DistributionTable,
    row_written,
    rows_for,
    turn_outcomes,
)
from kastkopp.strategy.yatzy_solver import (
    DICE,
    KEEP_INDEX,
    Position,
    Sheet,
    turn_lanes,
)
from kastkopp.strategy.yatzy_towin import Outlook

Key = tuple[int, int, int]  # a position as (open rows, upper index, Yatzy flag)


@numba.njit(cache=True, nogil=True)
def _my_turn(mask, ui, y, after, finished, index_of, values, pmin, span, arrays, ints,
             yatzy_bonus, cls, child, parents, prob, out, stages, lane):
    """out[x]: the best chance of winning from my position before its first throw, for
    every lane. Writing g points into position q is worth after[index_of[q], x + g]
    (``finished[x + g]`` when the sheet is full), lanes clamped at both ends, where the
    game is decided. With ``lane`` >= 0, stages[throws + t] holds every keep's chance in
    that lane after throw t + 1."""
    points, extra = arrays[0], arrays[4]
    flags, throws, first_differs = ints[3], ints[4], ints[5]
    n = points.shape[1]
    L = after.shape[1]
    keeps_n = child.shape[0]
    cells = np.full((n, span, 2, L), -1.0)
    for j in range(n):
        if not mask >> j & 1:
            continue
        for p in values[j]:
            for e in range(flags):
                g, rest, nui, ny = row_written(mask, ui, y, j, p, e, arrays, ints, yatzy_bonus)
                cell = cells[j, p - pmin, e]
                for x in range(L):
                    to = min(max(x + g, 0), L - 1)
                    cell[x] = finished[to] if rest == 0 else after[index_of[rest, nui, ny], to]
    rolls = np.empty((2, 252, L))
    for table in range(2 if first_differs else 1):
        for r in range(252):
            rows, t = rows_for(mask, r, table, arrays, ints)
            e = 1 if flags == 2 and cls[r] > 0 and extra[mask, y, cls[r]] else 0
            rolls[table, r, :] = -1.0
            for j in range(n):
                if rows >> j & 1 and mask >> j & 1:
                    cell = cells[j, int(points[t, j, r]) - pmin, e]
                    for x in range(L):
                        rolls[table, r, x] = max(rolls[table, r, x], cell[x])
    if not first_differs:
        rolls[1] = rolls[0]
    turn_lanes(rolls[1], rolls[0], throws, child, parents, prob, np.empty((252, L)),
               np.empty((keeps_n, L)), np.empty((keeps_n, L)), np.empty((252, L)), out, stages,
               lane)


def _row_points(sheet: Sheet) -> tuple[np.ndarray, int, int]:
    """Every number of points each row can take (padded by repeats), the lowest, the span."""
    found = [np.unique(sheet.points[:, j, :]).astype(np.int64)
             for j in range(len(sheet.rows))]
    width = max(map(len, found))
    values = np.array([np.pad(v, (0, width - len(v)), mode="edge") for v in found])
    pmin = min(0, int(sheet.points.min()))
    return values, pmin, int(sheet.points.max()) - pmin + 1


def _most(sheet: Sheet, p: Key | None) -> int:
    """A bound on the points the open rows of ``p`` can still add, bonuses included."""
    if p is None:
        return 0
    mask, _, y = p
    open_rows = [j for j in range(len(sheet.rows)) if mask >> j & 1]
    most = sum(max(0, int(sheet.points[:, j, :].max())) for j in open_rows)
    most += int(np.max(sheet.bonus))
    if sheet.flags == 2:  # extra Yatzy bonuses: only once the Yatzy row holds its 50
        extra = len(open_rows) if y else len(open_rows) - 1 if mask >> sheet.yatzy_row & 1 \
            else 0
        most += int(sheet.rules.yatzy_bonus) * max(0, extra)
    return most


def _key(p: Position | None) -> Key | None:
    return None if p is None or p.mask == 0 else (p.mask, p.upper_index, p.yatzy_holds)


def _rows(p: Key | None) -> int:
    return 0 if p is None else bin(p[0]).count("1")


@numba.njit(cache=True, nogil=True)
def _their_turn(below, which, chance, gain, out):
    """out[q, x] = the sum over the opponent's turn's outcomes i of chance[i] times
    below[which[i], q, x - gain[i]] (lanes clamped): my positions q after my turn, the
    opponent's turn averaged over what it writes."""
    n, L = out.shape
    out[:, :] = 0.0
    for i in range(chance.shape[0]):
        c, g, src = chance[i], gain[i], below[which[i]]
        for q in range(n):
            for x in range(L):
                out[q, x] += c * src[q, min(max(x - g, 0), L - 1)]


@dataclass
class _Turn:
    """What the opponent's turn from one position writes: chances, points, and the index
    of the position it leads to among the opponent's positions with a row fewer."""

    chance: np.ndarray
    gain: np.ndarray
    then: np.ndarray


class EndGame:
    """The exact heads-up end-game from my position at my turn, the opponent's and the
    difference of the totals (mine minus theirs). Whose turn comes first in a round follows
    from the open rows: as many as mine, the opponent plays after me this round; one fewer,
    the opponent has played. ``opponent`` is ``None`` (or a full sheet) when they are done."""

    def __init__(self, d: DistributionTable, me: Position, opponent: Position | None,
                 difference: int) -> None:
        self.d = d
        sheet = d.table.sheet
        self.sheet = sheet
        mine, theirs = _key(me), _key(opponent)
        if mine is None or _rows(theirs) not in (_rows(mine), _rows(mine) - 1):
            raise ValueError("an end-game starts at my turn: my rows open, the opponent's "
                             "as many or one fewer")
        self.first = _rows(theirs) == _rows(mine)
        self._arrays, self._ints = sheet.arrays(), sheet.ints()
        self._yb = float(sheet.rules.yatzy_bonus)
        self._values, self._pmin, self._span = _row_points(sheet)
        # my positions and the opponent's, by rows open; each indexed within its level
        self.mine = self._mine(mine)
        self.theirs, turns = self._theirs(theirs)
        self._index = np.full(d.table.values.shape, -1, dtype=np.int32)
        for level in self.mine.values():
            self._index[tuple(np.array(level).T)] = np.arange(len(level))
        self._their_index = {o: i for level in self.theirs.values() for i, o in enumerate(level)}
        self.turns = {o: _Turn(np.array([c for c, _, _ in out]),
                               np.array([g for _, g, _ in out], dtype=np.int64),
                               np.array([self._their_index[t] for _, _, t in out],
                                        dtype=np.int64))
                      for o, out in turns.items()}
        # lanes: every difference the rest of the game can reach, clamped where it is
        # decided (ahead by more than the opponent can add, behind by more than I can)
        mine_most, theirs_most = _most(sheet, mine), _most(sheet, theirs)
        self.low = max(difference - theirs_most, -mine_most - 1)
        high = max(min(difference + mine_most, theirs_most + 1), self.low)
        self.lanes = self.low + np.arange(high - self.low + 1)
        # values[k][o, m, lane]: my turn from my m-th position with k rows open, the
        # opponent at their o-th position of the level that goes with k
        self.values: dict[int, np.ndarray] = {}
        self._stages = np.empty((2 * sheet.throws, len(DICE["child"])))
        self.solves = 0
        for k in sorted(self.mine):
            opponents = self.theirs.get(self._their_rows(k), [])
            solved = np.empty((len(opponents), len(self.mine[k]), len(self.lanes)))
            for o in opponents:
                after, finished = self._after(k, o)
                for m in self.mine[k]:
                    self._turn(m, after, finished, solved[self._their_index[o],
                                                          self._index[m]])
            self.values[k] = solved
        self._root: tuple[Key, Key | None, int] | None = None
        self._rooted = (np.empty((0, 0)), np.empty(0))  # _after of the root's turn
        self.value = self._at(mine, theirs, difference)

    def _their_rows(self, k: int) -> int:
        """The opponent's rows open at my turn with k rows open."""
        return k if self.first else k - 1

    # ------------------------------------------------------------------ the positions

    def _mine(self, root: Key) -> dict[int, list[Key]]:
        """Every position my open rows can lead to, written any way, by rows open."""
        seen = {root}
        stack = [root]
        while stack:
            mask, ui, y = stack.pop()
            for j in range(len(self.sheet.rows)):
                if not mask >> j & 1:
                    continue
                for p in set(self._values[j].tolist()):
                    for e in range(self.sheet.flags):
                        _, rest, nui, ny = self._write((mask, ui, y), j, p, e)
                        if rest and (rest, nui, ny) not in seen:
                            seen.add((rest, nui, ny))
                            stack.append((rest, nui, ny))
        levels: dict[int, list[Key]] = {}
        for p in sorted(seen):
            levels.setdefault(_rows(p), []).append(p)
        return levels

    def _theirs(self, root: Key | None
                ) -> tuple[dict[int, list[Key | None]],
                           dict[Key, list[tuple[float, int, Key | None]]]]:
        """Every position the opponent's play can reach, by rows open (a full sheet as
        ``None``), and the chances of each one's turn: (chance, points with any bonus, the
        position it leads to)."""
        sheet, arrays, ints = self.sheet, self._arrays, self._ints
        keeps_n = len(DICE["child"])
        stages = np.empty((2 * sheet.throws, keeps_n))
        work = np.empty((6, keeps_n))
        acc = np.empty((len(sheet.rows), self._span, 2))
        turns: dict[Key, list[tuple[float, int, Key | None]]] = {}
        stack = [] if root is None else [root]
        while stack:
            o = stack.pop()
            if o in turns:
                continue
            turn_outcomes(o[0], o[1], o[2], self.d.table.values, arrays, ints, self._yb,
                          DICE["cls"], DICE["child"], DICE["parents"], DICE["prob"], stages,
                          work, acc, self._pmin)
            out = []
            for j, i, e in zip(*np.nonzero(acc), strict=True):
                g, rest, nui, ny = self._write(o, int(j), int(i) + self._pmin, int(e))
                after = (rest, nui, ny) if rest else None
                out.append((float(acc[j, i, e]), g, after))
                if after is not None:
                    stack.append(after)
            turns[o] = out
        levels: dict[int, list[Key | None]] = {0: [None]}
        for o in sorted(turns):
            levels.setdefault(_rows(o), []).append(o)
        return levels, turns

    def _write(self, p: Key, j: int, points: int, e: int) -> tuple[int, int, int, int]:
        g, rest, nui, ny = row_written(p[0], p[1], p[2], j, points, e, self._arrays,
                                       self._ints, self._yb)
        return int(g), int(rest), int(nui), int(ny)

    # ------------------------------------------------------------------ the solve

    def _finished(self, o: Key | None) -> np.ndarray:
        """My sheet full: my chance at each difference as the opponent plays out from o."""
        rest = Outlook.certain(0) if o is None else Outlook(*self.d.of(Position(*o)))
        k = self.lanes - rest.low  # a difference beats their points to come as k beats 0
        return np.where(k < 0, 0.0, rest.beaten()[np.clip(k, 0, len(rest.chances))])

    def _after(self, k: int, o: Key | None) -> tuple[np.ndarray, np.ndarray]:
        """What the endings of my turn with k rows open lead to, the opponent at o: for
        each of my positions with a row fewer, the opponent's turn averaged (or none, when
        they are done), and the chances once my sheet is full."""
        after = np.zeros((len(self.mine.get(k - 1, [])), len(self.lanes)))
        if k > 1:
            below = self.values[k - 1]
            if o is None:
                after[:] = below[self._their_index[None]]
            else:
                turn = self.turns[o]
                _their_turn(below, turn.then, turn.chance, turn.gain, after)
        return after, self._finished(o)

    def _turn(self, m: Key, after: np.ndarray, finished: np.ndarray, out: np.ndarray,
              lane: int = -1) -> None:
        """My turn from m into ``out`` for every lane (the keeps of ``lane`` kept)."""
        _my_turn(m[0], m[1], m[2], after if len(after) else np.zeros((1, len(self.lanes))),
                 finished, self._index, self._values, self._pmin, self._span, self._arrays,
                 self._ints, self._yb, DICE["cls"], DICE["child"], DICE["parents"],
                 DICE["prob"], out, self._stages, lane)
        self.solves += 1

    # ------------------------------------------------------------------ asking it

    def _lane(self, difference: int) -> int:
        return int(np.clip(difference - self.low, 0, len(self.lanes) - 1))

    def _at(self, me: Key, opponent: Key | None, difference: int) -> float:
        """Root the choices at (me, opponent, difference), a pair the solve covers."""
        k = _rows(me)
        if not self._covers(me, opponent):
            raise ValueError("that position is not in this end-game")
        root = (me, opponent, difference)
        if self._root != root:
            self._rooted = self._after(k, opponent)
            self._turn(me, *self._rooted, np.empty(len(self.lanes)), self._lane(difference))
            self._root = root
        return float(self.values[k][self._their_index[opponent], self._index[me],
                                    self._lane(difference)])

    def _covers(self, me: Key | None, opponent: Key | None) -> bool:
        k = _rows(me)
        return (me is not None and me in self.mine.get(k, ())
                and opponent in self.theirs.get(self._their_rows(k), ()))

    def covers(self, me: Position, opponent: Position | None) -> bool:
        """Whether a later turn of this game is inside this end-game (both positions in it,
        the difference being within the lanes or beyond where the game is decided)."""
        return self._covers(_key(me), _key(opponent))

    def chances(self, me: Position, opponent: Position | None, difference: int,
                dice: Iterable[int], throw: int) -> dict[str, float]:
        """Every choice with dice in hand after throw ``throw`` (each row; each keep while
        throws are left) with its exact chance of winning."""
        mine, theirs = _key(me), _key(opponent)
        assert mine is not None
        self._at(mine, theirs, difference)
        after, finished = self._rooted
        faces: Faces = tuple(sorted(dice))
        lane = self._lane(difference)
        found = {}
        for row, now, then in self.d.table.score_moves(me, faces, first_throw=throw == 1):
            to = int(np.clip(lane + round(now), 0, len(self.lanes) - 1))
            found[f"score {row}"] = float(finished[to] if then.mask == 0
                                          else after[self._index[_key(then)], to])
        if throw < self.sheet.throws:
            at = self.sheet.throws + throw - 1
            for keep in ymod.sub_multisets(faces):
                if len(keep) < len(faces):
                    name = "keep " + " ".join(map(str, keep)) if keep else "keep"
                    found[name] = float(self._stages[at, KEEP_INDEX[keep]])
        return found

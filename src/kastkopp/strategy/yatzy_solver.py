"""Optimal solitaire play for every Yatzy rule set, by backward induction over the sheet.

The solver knows dice, not Yatzy: what every row scores, which rows may be written, when
the bonuses are paid and how jokers work all come from :mod:`kastkopp.games.yatzy`
(:func:`~kastkopp.games.yatzy.score`, :func:`~kastkopp.games.yatzy.playable_rows`,
:func:`~kastkopp.games.yatzy.joker_applies`, :func:`~kastkopp.games.yatzy.extra_yatzy`,
``rules.bonus_earned``). :meth:`Sheet.from_rules` asks them once and tabulates the answers;
from then on the work is arithmetic on arrays.

A position between turns is (the open rows, the upper sum, whether the Yatzy row holds a
score). The upper sum is kept only as far as it matters: up to the bonus threshold when the
upper rows score their dice, exactly (it can fall) when they score against three as in
Terningspoker; not at all without a bonus. The Yatzy flag exists only where extra Yatzies
pay. Terningspoker's first-throw doubling needs no state: it is a second score table used
for the dice of the first throw. Forced orders (``parts``, ``top-down``) only shrink the
choices, and positions the order can never reach are skipped.

One turn is solved the way dice are rolled: the value of keeping some dice and rolling the
rest is the mean over the first rerolled die of keeping one die more (so 462 keeps cost six
additions each), and the best keep of a roll is found by walking up from smaller keeps.
The kernels are compiled with numba. The solve runs one turn for all the upper sums of a
set of open rows at once (a vector over the sums), the sets of one size in parallel; upper
sums that are worth the same, because the bonus comes out the same whatever is still
written, are solved once.

Usage::

    >>> from kastkopp.games.yatzy import YatzyRules
    >>> table = solve(YatzyRules.make("tarningspoker"), cache=False)
    >>> round(table.expected_score, 4)
    229.6385
    >>> best = table.advise(used=["yatzy"], dice=(6, 6, 6, 2, 1), rerolls=2)[0]
    >>> best.choice
    'keep 6 6 6'
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np

from kastkopp.dice import Faces
from kastkopp.engine import IllegalAction, RuleError
from kastkopp.games import yatzy as ymod
from kastkopp.games.yatzy import FACE, YatzyRules
from kastkopp.strategy.work import env_int, partial, prune, touch

SOLVER_VERSION = 2
# The disk cache is pruned to this many MB (``KASTKOPP_CACHE_MB``), least recently used
# first: a table is about 11.5 MB, and any guest can ask for a new rule set.
CACHE_MB = 512
NEG = -1e18

# --------------------------------------------------------------------------- dice


def _dice_tables() -> dict[str, np.ndarray]:
    """Rolls, keeps, and the links between keeps that one die more or less makes."""
    keeps = [k for n in range(6) for k in itertools.combinations_with_replacement(range(1, 7), n)]
    index = {k: i for i, k in enumerate(keeps)}
    child = np.full((len(keeps), 6), -1, dtype=np.int64)
    parents = np.full((len(keeps), 5), -1, dtype=np.int64)
    for i, k in enumerate(keeps):
        if len(k) < 5:
            for f in range(1, 7):
                child[i, f - 1] = index[tuple(sorted((*k, f)))]
        for j, face in enumerate(sorted(set(k))):
            rest = list(k)
            rest.remove(face)
            parents[i, j] = index[tuple(rest)]
    first_roll = len(keeps) - 252
    rolls = keeps[first_roll:]
    prob = np.array([math.factorial(5) / math.prod(math.factorial(r.count(f)) for f in set(r))
                     / 6**5 for r in rolls])
    size = np.array([len(k) for k in keeps], dtype=np.int64)
    cls = np.array([r[0] if len(set(r)) == 1 else 0 for r in rolls], dtype=np.int64)
    return {"child": child, "parents": parents, "prob": prob, "size": size, "cls": cls,
            "first_roll": np.array(first_roll)}


DICE = _dice_tables()
KEEPS: list[Faces] = [k for n in range(6)
                      for k in itertools.combinations_with_replacement(range(1, 7), n)]
KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}
ROLLS: list[Faces] = KEEPS[int(DICE["first_roll"]):]
ROLL_INDEX = {r: i for i, r in enumerate(ROLLS)}
ALIKE = np.array([ROLL_INDEX[(f,) * 5] for f in range(1, 7)], dtype=np.int64)


# --------------------------------------------------------------------------- the sheet


@dataclass
class Sheet:
    """Everything the solver needs to know about a rule set, as arrays.

    ``points[t, j, r]``: row ``j`` for roll ``r``, with ``t`` = 0 later throws, 1 the first
    throw, 2 and 3 the same under the joker. ``playable[mask, c]``: bitmask of the rows
    that may be written with open rows ``mask`` and dice of class ``c`` (0: not all alike,
    else the face of an all-alike roll); ``joker`` and ``extra`` likewise. Upper sums are
    stored as ``u - low`` and clipped to ``[low, high]``; ``bonus[u, complete]`` is the
    upper bonus held at that sum.
    """

    rules: YatzyRules
    rows: tuple[str, ...]
    upper: np.ndarray  # bool per row
    yatzy_row: int
    points: np.ndarray
    playable: np.ndarray
    joker: np.ndarray
    extra: np.ndarray  # [mask, yatzy holds a score, class]
    reachable_masks: np.ndarray
    reachable_upper: np.ndarray  # [filled upper rows as bits, u - low]
    bonus: np.ndarray
    low: int
    high: int
    flags: int  # 2 when the Yatzy-score flag matters, else 1
    throws: int
    values: np.ndarray  # [row, i]: the distinct scores of each upper row
    value_index: np.ndarray  # [t, row, roll]: which of them the roll scores
    upper_open: np.ndarray  # [mask]: how many upper rows are open

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.points, self.upper, self.playable, self.joker, self.extra, self.bonus,
                self.values, self.value_index, self.upper_open)

    def ints(self) -> tuple[int, ...]:
        return (self.yatzy_row, self.low, self.high, self.flags, self.throws,
                int(bool(np.any(self.points[1] != self.points[0]))), int(self.rules.joker))

    @property
    def n_upper(self) -> int:
        return self.high - self.low + 1

    @staticmethod
    def check(rules: YatzyRules) -> None:
        if rules.dice != 5 or rules.saved_throws:
            raise RuleError("the Yatzy solver plays five dice and a fixed number of throws; "
                            "Maxi Yatzy is beyond it")

    _ARRAYS = ("upper", "points", "playable", "joker", "extra", "reachable_masks",
               "reachable_upper", "bonus", "values", "value_index", "upper_open")

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The tables, to be cached with the solved values (so loading skips asking the
        Yatzy module again)."""
        data = {f"sheet_{name}": getattr(self, name) for name in self._ARRAYS}
        data["sheet_bounds"] = np.array([self.low, self.high, self.flags])
        return data

    @classmethod
    def from_arrays(cls, rules: YatzyRules, data: Any) -> Sheet:
        low, high, flags = (int(x) for x in data["sheet_bounds"])
        return cls(rules=rules, rows=rules.rows, yatzy_row=rules.rows.index("yatzy"),
                   low=low, high=high, flags=flags, throws=rules.throws,
                   **{name: data[f"sheet_{name}"] for name in cls._ARRAYS})

    @classmethod
    def from_rules(cls, rules: YatzyRules) -> Sheet:
        cls.check(rules)
        rows = rules.rows
        n = len(rows)
        upper = np.array([r in FACE for r in rows])
        yatzy_row = rows.index("yatzy")
        points = np.zeros((4, n, 252))
        for j, row in enumerate(rows):
            for r, dice in enumerate(ROLLS):
                for t, (first, jokered) in enumerate(((False, False), (True, False),
                                                      (False, True), (True, True))):
                    if jokered and len(set(dice)) != 1:
                        points[t, j, r] = points[t - 2, j, r]
                        continue
                    points[t, j, r] = ymod.score(row, dice, rules, first, jokered) or 0
        tracked = rules.bonus > 0
        if not tracked:
            low = high = 0
        elif rules.upper == "sum":
            low, high = 0, max(rules.bonus_at, 0)
        else:  # the sum can fall: keep it exactly
            low = int(sum(int(points[0, j].min()) for j in range(n) if upper[j]))
            high = int(sum(int(points[0, j].max()) for j in range(n) if upper[j]))
        bonus = np.zeros((high - low + 1, 2))
        if tracked:
            for u in range(low, high + 1):
                for complete in (0, 1):
                    earned = rules.bonus_earned(u, bool(complete))
                    bonus[u - low, complete] = rules.bonus if earned else 0
        flags = 2 if rules.yatzy_bonus > 0 else 1
        playable, joker, extra = _rule_tables(rules, flags)
        values = np.zeros((n, 6))
        value_index = np.zeros((4, n, 252), dtype=np.int64)
        for col in (int(c) for c in np.flatnonzero(upper)):
            distinct = np.unique(points[:, col, :])
            if len(distinct) > values.shape[1]:
                raise RuleError(f"the {rows[col]} row scores too many different values")
            values[col, :len(distinct)] = distinct
            value_index[:, col, :] = np.searchsorted(distinct, points[:, col, :])
        masks = np.arange(1 << n)
        upper_open = np.zeros(1 << n, dtype=np.int64)
        for col in (int(c) for c in np.flatnonzero(upper)):
            upper_open += (masks >> col) & 1
        sheet = cls(rules=rules, rows=rows, upper=upper, yatzy_row=yatzy_row, points=points,
                    playable=playable, joker=joker, extra=extra,
                    reachable_masks=_reachable_masks(playable, n),
                    reachable_upper=np.zeros(0, dtype=bool), bonus=bonus, low=low,
                    high=high, flags=flags, throws=rules.throws, values=values,
                    value_index=value_index, upper_open=upper_open)
        sheet.reachable_upper = _reachable_upper(sheet)
        return sheet

    # -- positions -------------------------------------------------------------------
    def upper_bits(self, mask: Any) -> Any:
        """The filled upper rows of open-rows masks (an int or an array), as bits over the
        upper rows."""
        bits = mask * 0
        for i, j in enumerate(np.flatnonzero(self.upper)):
            bits = bits | ((((mask >> int(j)) & 1) ^ 1) << i)
        return bits


def _cells(rules: YatzyRules, mask: int, yatzy_holds: bool) -> dict[str, Any]:
    """A sheet with the rows of ``mask`` open, the others written."""
    cells: dict[str, Any] = {}
    for j, row in enumerate(rules.rows):
        if mask >> j & 1:
            cells[row] = None
        else:
            cells[row] = rules.yatzy_score if row == "yatzy" and yatzy_holds else 0
    return cells


def _rule_tables(rules: YatzyRules, flags: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ask the Yatzy module which rows may be written, when the joker applies and when an
    extra Yatzy pays, for every set of open rows and every class of dice."""
    n = len(rules.rows)
    bit = {row: 1 << j for j, row in enumerate(rules.rows)}
    plain = (1, 2, 3, 4, 6)
    alike = [(f,) * 5 for f in range(1, 7)]
    playable = np.zeros((1 << n, 7), dtype=np.int64)
    joker = np.zeros((1 << n, 7), dtype=np.bool_)
    extra = np.zeros((1 << n, 2, 7), dtype=np.bool_)
    # Only the joker and the extra Yatzy look at the dice beyond their being rolled.
    dice_matter = rules.joker
    for mask in range(1, 1 << n):
        cells = _cells(rules, mask, False)
        rows = ymod.playable_rows(rules, cells, plain)
        playable[mask, :] = sum(bit[r] for r in rows)
        if dice_matter:
            for f, dice in enumerate(alike, start=1):
                playable[mask, f] = sum(bit[r] for r in ymod.playable_rows(rules, cells, dice))
                joker[mask, f] = ymod.joker_applies(rules, cells, dice)
        if flags == 2 and not mask & bit["yatzy"]:
            for holds in (0, 1):
                held = _cells(rules, mask, bool(holds))
                for f, dice in enumerate(alike, start=1):
                    extra[mask, holds, f] = ymod.extra_yatzy(rules, held, dice)
    return playable, joker, extra


@numba.njit(cache=True, nogil=True)
def _reachable_masks(playable: np.ndarray, n: int) -> np.ndarray:
    full = (1 << n) - 1
    reach = np.zeros(1 << n, dtype=np.bool_)
    reach[full] = True
    for mask in range(full, 0, -1):
        if not reach[mask]:
            continue
        rows = 0
        for c in range(7):
            rows |= playable[mask, c]
        for j in range(n):
            if rows >> j & 1 and mask >> j & 1:
                reach[mask ^ (1 << j)] = True
    return reach


def _reachable_upper(sheet: Sheet) -> np.ndarray:
    """Which clipped upper sums each set of filled upper rows can hold."""
    upper_rows = np.flatnonzero(sheet.upper)
    size = sheet.n_upper
    reach = np.zeros((1 << len(upper_rows), size), dtype=bool)
    reach[0, 0 - sheet.low] = True
    for bits in range(1, 1 << len(upper_rows)):
        i = (bits & -bits).bit_length() - 1  # add the lowest filled row to the rest
        before = reach[bits ^ (1 << i)]
        values = np.unique(sheet.points[:, upper_rows[i], :])
        for u in np.flatnonzero(before):
            for v in values:
                reach[bits, int(min(max(u + v, 0), size - 1))] = True
    return reach


def _upper_classes(sheet: Sheet) -> np.ndarray:
    """``rep[bits, u]``: the smallest reachable upper sum that is worth the same as ``u``
    with the upper rows ``bits`` filled, or -1 where ``u`` cannot be held.

    The upper sum matters only through the bonus, so two sums are worth the same when every
    total the open upper rows can still add (and every partial total on the way) holds and
    finally earns the same bonus from both. With only sixes open and 40 in hand, 40 and
    45 both miss the bonus whatever comes; 58 and 60 both need one six. Such positions are
    solved once and copied, which removes about two positions in five on the big sheets.
    """
    upper_rows = np.flatnonzero(sheet.upper)
    size = sheet.n_upper
    rep = np.full((1 << len(upper_rows), size), -1, dtype=np.int64)
    for bits in range(1 << len(upper_rows)):
        totals = {0}
        for i, j in enumerate(upper_rows):
            if not bits >> i & 1:
                scores = {0, *(int(v) for v in np.unique(sheet.points[:, j, :]))}
                totals = {a + v for a in totals for v in scores}
        added = np.array(sorted(totals))
        seen: dict[bytes, int] = {}
        for ui in np.flatnonzero(sheet.reachable_upper[bits]):
            later = np.clip(sheet.low + int(ui) + added, sheet.low, sheet.high) - sheet.low
            key = np.concatenate([sheet.bonus[[ui], 0], sheet.bonus[later].ravel()]).tobytes()
            rep[bits, ui] = seen.setdefault(key, int(ui))
    return rep


# --------------------------------------------------------------------------- the turn
#
# The kernels take the sheet as two tuples: ``arrays`` (points, upper, playable, joker,
# extra, bonus, values, value_index, upper_open) and ``ints`` (yatzy_row, low, high, flags,
# throws, first_differs, dice_matter), plus the extra-Yatzy bonus.


@numba.njit(cache=True, nogil=True)
def _score_now(mask, ui, y, table, E, arrays, ints, out, scratch):
    """out[r]: the best value of writing roll ``r`` now (``table`` 0: later, 1: first)."""
    points, upper, playable, bonus = arrays[0], arrays[1], arrays[2], arrays[5]
    values, value_index, upper_open = arrays[6], arrays[7], arrays[8]
    yatzy_row, low, high, flags, dice_matter = ints[0], ints[1], ints[2], ints[3], ints[6]
    n = points.shape[1]
    complete = 1 if upper_open[mask] == 1 else 0
    for r in range(252):
        out[r] = NEG
    rows = playable[mask, 0]
    for j in range(n):
        if not (rows >> j & 1) or not (mask >> j & 1):
            continue
        rest = mask ^ (1 << j)
        if upper[j]:
            # an upper row scores one of a few values; each leads to its own upper sum
            for i in range(values.shape[1]):
                p = values[j, i]
                u = min(max(low + ui + p, low), high)
                nui = int(u - low)
                scratch[i] = p + bonus[nui, complete] - bonus[ui, 0] + E[rest, nui, y]
            for r in range(252):
                v = scratch[value_index[table, j, r]]
                if v > out[r]:
                    out[r] = v
        elif flags == 2 and j == yatzy_row:
            held, missed = E[rest, ui, 1], E[rest, ui, y]
            for r in range(252):
                p = points[table, j, r]
                v = p + (held if p > 0 else missed)
                if v > out[r]:
                    out[r] = v
        else:
            later = E[rest, ui, y]
            for r in range(252):
                v = points[table, j, r] + later
                if v > out[r]:
                    out[r] = v
    if dice_matter:
        _score_alike(mask, ui, y, table, E, arrays, ints, out, complete)


@numba.njit(cache=True, nogil=True)
def _score_alike(mask, ui, y, table, E, arrays, ints, out, complete):
    """The six all-alike rolls again, with the rows and scores the joker allows."""
    points, upper, playable, joker, bonus = (arrays[0], arrays[1], arrays[2], arrays[3],
                                             arrays[5])
    yatzy_row, low, high, flags = ints[0], ints[1], ints[2], ints[3]
    n = points.shape[1]
    for face in range(1, 7):
        r = ALIKE[face - 1]
        rows = playable[mask, face]
        t = table + (2 if joker[mask, face] else 0)
        best = NEG
        for j in range(n):
            if not (rows >> j & 1) or not (mask >> j & 1):
                continue
            p = points[t, j, r]
            rest = mask ^ (1 << j)
            if upper[j]:
                u = min(max(low + ui + p, low), high)
                nui = int(u - low)
                v = p + bonus[nui, complete] - bonus[ui, 0] + E[rest, nui, y]
            else:
                ny = 1 if flags == 2 and j == yatzy_row and p > 0 else y
                v = p + E[rest, ui, ny]
            if v > best:
                best = v
        out[r] = best


@numba.njit(cache=True, nogil=True)
def _keep_values(roll_values, child, keeps_out):
    """keeps_out[k]: the expected value of keeping ``k`` and rolling the other dice."""
    first = keeps_out.shape[0] - 252
    for r in range(252):
        keeps_out[first + r] = roll_values[r]
    for k in range(first - 1, -1, -1):
        s = 0.0
        for f in range(6):
            s += keeps_out[child[k, f]]
        keeps_out[k] = s / 6.0


@numba.njit(cache=True, nogil=True)
def _best_reroll(keep_values, parents, best_sub, out):
    """out[r]: the best value of rerolling some of roll ``r``'s dice (keeping fewer than 5)."""
    first = keep_values.shape[0] - 252
    best_sub[0] = keep_values[0]
    for k in range(1, first):
        b = keep_values[k]
        for i in range(5):
            p = parents[k, i]
            if p < 0:
                break
            if best_sub[p] > b:
                b = best_sub[p]
        best_sub[k] = b
    for r in range(252):
        b = NEG
        for i in range(5):
            p = parents[first + r, i]
            if p < 0:
                break
            if best_sub[p] > b:
                b = best_sub[p]
        out[r] = b


@numba.njit(cache=True, nogil=True)
def _turn(mask, ui, y, E, arrays, ints, yatzy_bonus, cls, child, parents, stages, work):
    """Solve one turn: ``stages[t]`` gets the value of each roll after throw ``t + 1``,
    ``stages[throws + t]`` the value of each keep rerolled for throw ``t + 2``.
    Returns the values of the first throw's rolls. ``work`` is scratch space (6 rows of
    462), passed in so a thread can reuse it from one position to the next."""
    extra = arrays[4]
    flags, throws, first_differs = ints[3], ints[4], ints[5]
    later, first, best_sub = work[0, :252], work[1, :252], work[2]
    reroll, current, scratch = work[3, :252], work[4, :252], work[5]
    _score_now(mask, ui, y, 0, E, arrays, ints, later, scratch)
    if first_differs:
        _score_now(mask, ui, y, 1, E, arrays, ints, first, scratch)
    else:
        first[:] = later
    if flags == 2:
        for r in range(252):
            if cls[r] > 0 and extra[mask, y, cls[r]]:
                later[r] += yatzy_bonus
                first[r] += yatzy_bonus
    current[:] = first if throws == 1 else later
    stages[throws - 1, :252] = current
    for t in range(throws - 2, -1, -1):
        keeps = stages[throws + t]
        _keep_values(current, child, keeps)
        _best_reroll(keeps, parents, best_sub, reroll)
        now = first if t == 0 else later
        for r in range(252):
            current[r] = now[r] if now[r] >= reroll[r] else reroll[r]
        stages[t, :252] = current
    return current


# The solver runs the same turn for all upper sums of one set of open rows at once: every
# array gets a last axis over those sums ("lanes"), so each step is one vector operation
# over the lanes and the dice tables are walked once per set of rows, not once per sum.
# The arithmetic is the one of ``_turn`` above, in the same order, so both agree to the bit
# (the advisor uses ``_turn`` for one position).


@numba.njit(cache=True, nogil=True)
def _score_lanes(mask, uis, y, table, E, arrays, ints, out, scratch):
    """out[r, l]: ``_score_now`` for the upper sum ``uis[l]``."""
    points, upper, playable, joker, bonus = (arrays[0], arrays[1], arrays[2], arrays[3],
                                             arrays[5])
    values, value_index, upper_open = arrays[6], arrays[7], arrays[8]
    yatzy_row, low, high, flags, dice_matter = ints[0], ints[1], ints[2], ints[3], ints[6]
    n, lanes = points.shape[1], uis.shape[0]
    complete = 1 if upper_open[mask] == 1 else 0
    out[:, :] = NEG
    rows = playable[mask, 0]
    for j in range(n):
        if not (rows >> j & 1) or not (mask >> j & 1):
            continue
        rest = mask ^ (1 << j)
        if upper[j]:
            for i in range(values.shape[1]):
                p = values[j, i]
                for lane in range(lanes):
                    ui = uis[lane]
                    nui = int(min(max(low + ui + p, low), high) - low)
                    scratch[i, lane] = p + bonus[nui, complete] - bonus[ui, 0] + E[rest, nui, y]
            for r in range(252):
                i = value_index[table, j, r]
                for lane in range(lanes):
                    out[r, lane] = max(scratch[i, lane], out[r, lane])
        else:
            yatzy = flags == 2 and j == yatzy_row
            for lane in range(lanes):  # 0: the flag stays, 1: a Yatzy is written
                scratch[0, lane] = E[rest, uis[lane], y]
                scratch[1, lane] = E[rest, uis[lane], 1] if yatzy else scratch[0, lane]
            for r in range(252):
                p = points[table, j, r]
                i = 1 if yatzy and p > 0 else 0
                for lane in range(lanes):
                    out[r, lane] = max(p + scratch[i, lane], out[r, lane])
    if dice_matter:
        for face in range(1, 7):
            r = ALIKE[face - 1]
            rows = playable[mask, face]
            t = table + (2 if joker[mask, face] else 0)
            best = out[r]
            best[:] = NEG
            for j in range(n):
                if not (rows >> j & 1) or not (mask >> j & 1):
                    continue
                p = points[t, j, r]
                rest = mask ^ (1 << j)
                ny = 1 if flags == 2 and j == yatzy_row and p > 0 else y
                for lane in range(lanes):
                    ui = uis[lane]
                    if upper[j]:
                        nui = int(min(max(low + ui + p, low), high) - low)
                        v = p + bonus[nui, complete] - bonus[ui, 0] + E[rest, nui, y]
                    else:
                        v = p + E[rest, ui, ny]
                    if v > best[lane]:
                        best[lane] = v


@numba.njit(cache=True, nogil=True)
def keep_lanes(roll_values, child, keeps):
    """keeps[k, l]: ``_keep_values`` for every lane. (Loops with two indices over the
    lanes measured about twice as fast here as loops over row views.)"""
    first = keeps.shape[0] - 252
    w = keeps.shape[1]
    for r in range(252):
        for lane in range(w):
            keeps[first + r, lane] = roll_values[r, lane]
    for k in range(first - 1, -1, -1):
        c0, c1, c2 = child[k, 0], child[k, 1], child[k, 2]
        c3, c4, c5 = child[k, 3], child[k, 4], child[k, 5]
        for lane in range(w):
            keeps[k, lane] = (keeps[c0, lane] + keeps[c1, lane] + keeps[c2, lane]
                              + keeps[c3, lane] + keeps[c4, lane] + keeps[c5, lane]) / 6.0


@numba.njit(cache=True, nogil=True)
def reroll_lanes(keeps, parents, best_sub, out):
    """out[r, l]: ``_best_reroll`` for every lane."""
    first = keeps.shape[0] - 252
    w = keeps.shape[1]
    for lane in range(w):
        best_sub[0, lane] = keeps[0, lane]
    for k in range(1, first):
        for lane in range(w):
            best_sub[k, lane] = keeps[k, lane]
        for i in range(5):
            p = parents[k, i]
            if p < 0:
                break
            for lane in range(w):
                best_sub[k, lane] = max(best_sub[p, lane], best_sub[k, lane])
    for r in range(252):
        for lane in range(w):
            out[r, lane] = NEG
        for i in range(5):
            p = parents[first + r, i]
            if p < 0:
                break
            for lane in range(w):
                out[r, lane] = max(best_sub[p, lane], out[r, lane])


@numba.njit(cache=True, nogil=True)
def turn_lanes(first, later, throws, child, parents, prob, current, keeps, best_sub, reroll,
               out, stages, lane):
    """A turn played backwards in lanes: ``first[r, l]`` and ``later[r, l]`` are what roll
    ``r`` is worth written on the first throw and on a later one; out[l] what the turn is
    worth before its first throw. With ``lane`` >= 0, ``stages[throws + t]`` keeps what
    every keep is worth in that lane after throw t + 1."""
    w = out.shape[0]
    current[:] = first if throws == 1 else later
    for t in range(throws - 2, -1, -1):
        keep_lanes(current, child, keeps)
        if lane >= 0:
            stages[throws + t] = keeps[:, lane]
        reroll_lanes(keeps, parents, best_sub, reroll)
        now = first if t == 0 else later
        for r in range(252):
            for x in range(w):
                current[r, x] = max(now[r, x], reroll[r, x])
    for x in range(w):
        total = 0.0
        for r in range(252):
            total += prob[r] * current[r, x]
        out[x] = total


@numba.njit(parallel=True, cache=True, nogil=True)
def _solve_groups(groups, starts, uis, E, arrays, ints, yatzy_bonus, cls, child, parents, prob):
    """Solve the positions of one layer: group ``g`` is the open rows ``groups[g, 0]`` with
    Yatzy flag ``groups[g, 1]`` and the upper sums ``uis[starts[g]:starts[g + 1]]``."""
    extra = arrays[4]
    flags, throws, first_differs = ints[3], ints[4], ints[5]
    widest = 1
    for g in range(groups.shape[0]):
        widest = max(widest, starts[g + 1] - starts[g])
    keeps_n = child.shape[0]
    chunks = min(groups.shape[0], 64)
    for c in numba.prange(chunks):
        buffer = np.empty((4 * 252 + 2 * keeps_n + 7) * widest)
        for g in range(c, groups.shape[0], chunks):
            mask, y = groups[g, 0], groups[g, 1]
            lanes = uis[starts[g]:starts[g + 1]]
            w = lanes.shape[0]
            later = buffer[:252 * w].reshape((252, w))
            first = buffer[252 * w:504 * w].reshape((252, w))
            current = buffer[504 * w:756 * w].reshape((252, w))
            reroll = buffer[756 * w:1008 * w].reshape((252, w))
            at = 1008 * w
            keeps = buffer[at:at + keeps_n * w].reshape((keeps_n, w))
            best_sub = buffer[at + keeps_n * w:at + 2 * keeps_n * w].reshape((keeps_n, w))
            scratch = buffer[at + 2 * keeps_n * w:at + (2 * keeps_n + 6) * w].reshape((6, w))
            out = buffer[at + (2 * keeps_n + 6) * w:at + (2 * keeps_n + 7) * w]
            _score_lanes(mask, lanes, y, 0, E, arrays, ints, later, scratch)
            if first_differs:
                _score_lanes(mask, lanes, y, 1, E, arrays, ints, first, scratch)
            else:
                first[:] = later
            if flags == 2:
                for r in range(252):
                    if cls[r] > 0 and extra[mask, y, cls[r]]:
                        later[r] += yatzy_bonus
                        first[r] += yatzy_bonus
            turn_lanes(first, later, throws, child, parents, prob, current, keeps, best_sub,
                       reroll, out, scratch, -1)
            for lane in range(w):
                E[mask, lanes[lane], y] = out[lane]


def _groups(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """States as groups of the same open rows and flag: (groups, starts, upper sums)."""
    order = np.lexsort((states[:, 1], states[:, 2], states[:, 0]))
    states = states[order]
    key = states[:, 0] * 2 + states[:, 2]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    starts = np.r_[first, len(states)].astype(np.int64)
    groups = np.ascontiguousarray(states[first][:, [0, 2]])
    return groups, starts, np.ascontiguousarray(states[:, 1])


# --------------------------------------------------------------------------- solving


@dataclass(frozen=True)
class Choice:
    """One thing a player can do now, and the expected final score if he does it."""

    choice: str
    expected: float

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "expected": self.expected}


@dataclass
class Position:
    """A position between turns: the open rows, the upper sum, the Yatzy-row flag."""

    mask: int
    upper_index: int
    yatzy_holds: int


class SolvedTable:
    """The solved expectations of every position of one rule set, and advice from them."""

    def __init__(self, sheet: Sheet, values: np.ndarray, seconds: float = 0.0,
                 from_cache: bool = False) -> None:
        self.sheet = sheet
        self.values = values
        self.seconds = seconds
        self.from_cache = from_cache

    @property
    def rules(self) -> YatzyRules:
        return self.sheet.rules

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        sheet = self.sheet
        full = (1 << len(sheet.rows)) - 1
        start = 0 - sheet.low
        held = sheet.bonus[start, 0]  # a bonus held before anything is written
        return float(self.values[full, start, 0] + held)

    # -- positions -------------------------------------------------------------------
    def position(self, used: Sequence[str] = (), upper: int = 0,
                 yatzy_zero: bool = False) -> Position:
        """Check a sheet described by its used rows and upper sum; raise with the reason."""
        sheet, rules = self.sheet, self.rules
        seen: set[str] = set()
        mask = (1 << len(sheet.rows)) - 1
        for text in used:
            row = ymod.parse_row(text, rules)
            if row not in sheet.rows:
                raise IllegalAction(f"{row} is not a row of this sheet (rows: "
                                    f"{', '.join(sheet.rows)})")
            if row in seen:
                raise IllegalAction(f"{row} is listed twice; each row is written once")
            seen.add(row)
            mask &= ~(1 << sheet.rows.index(row))
        if mask == 0:
            raise IllegalAction("every row is used: the game is over")
        if not sheet.reachable_masks[mask]:
            raise IllegalAction(f"these rows cannot be the used ones under the order "
                                f"'{rules.order}'")
        ui = min(max(upper, sheet.low), sheet.high) - sheet.low
        bits = sheet.upper_bits(mask)
        upper_used = [r for r in sheet.rows if r in FACE and r in seen]
        # The solver keeps the sum only as far as it matters (clipped at the bonus); the
        # check is against what the used rows can really add up to.
        lo, hi = _upper_range(sheet, upper_used)
        possible = f"{lo}-{hi}" if lo < hi else f"{lo}"
        if sheet.n_upper > 1 and lo <= upper <= hi:
            held = np.flatnonzero(sheet.reachable_upper[bits]) + sheet.low
            possible = _ranges(held[held <= hi], sheet.high if hi >= sheet.high else hi + 1)
        if not lo <= upper <= hi or (sheet.n_upper > 1 and not sheet.reachable_upper[bits, ui]):
            made = ", ".join(upper_used) or "no upper rows"
            raise IllegalAction(f"an upper sum of {upper} cannot be made with {made} used "
                                f"(possible: {possible})")
        holds = 0
        if sheet.flags == 2 and "yatzy" in seen and not yatzy_zero:
            holds = 1
        return Position(mask, int(ui), holds)

    def seat_position(self, view: dict[str, Any], seat: int) -> Position | None:
        """The position of a seat's sheet in a Yatzy view (the game's own sheet, so a legal
        one: not checked again, as :meth:`position` checks one typed in), or ``None`` when
        every row is written."""
        sheet = self.sheet
        cells = view["sheets"][seat]
        mask = sum(1 << j for j, cell in enumerate(cells) if cell is None)
        if mask == 0:
            return None
        upper = min(max(view["upper"][seat], sheet.low), sheet.high) - sheet.low
        written = cells[sheet.yatzy_row]
        holds = int(sheet.flags == 2 and written is not None and written not in (0, "-"))
        return Position(mask, upper, holds)

    def value(self, position: Position) -> float:
        """Expected points still to come from a position between turns."""
        return float(self.values[position.mask, position.upper_index, position.yatzy_holds])

    def turn_stages(self, p: Position) -> np.ndarray:
        """The values of every roll and keep of one turn from position ``p``."""
        return self._stages(p)

    def _stages(self, p: Position) -> np.ndarray:
        sheet = self.sheet
        stages = np.empty((2 * sheet.throws, len(KEEPS)))
        _turn(p.mask, p.upper_index, p.yatzy_holds, self.values, sheet.arrays(), sheet.ints(),
              float(self.rules.yatzy_bonus), DICE["cls"], DICE["child"], DICE["parents"],
              stages, np.empty((6, len(KEEPS))))
        return stages

    def score_moves(self, p: Position, dice: Faces, first_throw: bool
                    ) -> list[tuple[str, float, Position]]:
        """Each row the dice may be written in, the points it adds now (with any bonus it
        earns or extra Yatzy it pays) and the position it leads to."""
        sheet, rules = self.sheet, self.rules
        cells = _cells(rules, p.mask, bool(p.yatzy_holds))
        r = ROLL_INDEX[dice]
        extra = rules.yatzy_bonus if ymod.extra_yatzy(rules, cells, dice) else 0
        joker = ymod.joker_applies(rules, cells, dice)
        t = (1 if first_throw and _first_differs(sheet) else 0) + (2 if joker else 0)
        out = []
        for row in ymod.playable_rows(rules, cells, dice):
            j = sheet.rows.index(row)
            points = sheet.points[t, j, r]
            rest = p.mask ^ (1 << j)
            if sheet.upper[j]:
                u = min(max(sheet.low + p.upper_index + points, sheet.low), sheet.high)
                nui = int(u - sheet.low)
                complete = int(sheet.upper_open[p.mask] == 1)
                gain = sheet.bonus[nui, complete] - sheet.bonus[p.upper_index, 0]
                after = Position(rest, nui, p.yatzy_holds)
            else:
                gain = 0.0
                ny = 1 if (sheet.flags == 2 and j == sheet.yatzy_row and points > 0) \
                    else p.yatzy_holds
                after = Position(rest, p.upper_index, ny)
            out.append((row, float(points + gain + extra), after))
        return out

    def score_options(self, p: Position, dice: Faces, first_throw: bool) -> list[Choice]:
        """Each row the dice may be written in, with the expected points still to come."""
        return [Choice(f"score {row}", now + self.value(after))
                for row, now, after in self.score_moves(p, dice, first_throw)]

    def advise(self, used: Sequence[str] = (), upper: int = 0, dice: Sequence[int] = (),
               rerolls: int = 0, yatzy_zero: bool = False, already: float = 0.0
               ) -> list[Choice]:
        """Every choice with dice in hand, best first: each distinct keep when rerolls are
        left (then the dice not kept are rolled), and each row the dice may be written in.
        ``expected`` is ``already`` (points on the sheet) plus the expected points to come.
        """
        position = self.position(used, upper, yatzy_zero)
        faces = _check_dice(dice)
        throws = self.sheet.throws
        if not 0 <= rerolls <= throws - 1:
            raise IllegalAction(f"rerolls left must be 0 to {throws - 1} (a turn has "
                                f"{throws} throws), not {rerolls}")
        return self.choices(position, faces, rerolls, already)

    def choices(self, position: Position, faces: Faces, rerolls: int, already: float = 0.0,
                stages: np.ndarray | None = None) -> list[Choice]:
        """:meth:`advise` for a checked position and sorted dice; ``stages`` may be the
        turn's (:meth:`turn_stages`), kept from an earlier throw of the same turn."""
        throws = self.sheet.throws
        throw = throws - rerolls  # the throw the dice in hand came from
        options = self.score_options(position, faces, first_throw=throw == 1)
        if rerolls:
            stages = self._stages(position) if stages is None else stages
            keep_values = stages[throws + throw - 1]
            for keep in ymod.sub_multisets(faces):
                if len(keep) < 5:
                    options.append(Choice("keep " + " ".join(map(str, keep)) if keep
                                          else "keep", float(keep_values[KEEP_INDEX[keep]])))
        for i, c in enumerate(options):
            options[i] = Choice(c.choice, c.expected + already)
        return sorted(options, key=lambda c: -c.expected)


def _upper_range(sheet: Sheet, rows: Sequence[str]) -> tuple[int, int]:
    js = [sheet.rows.index(r) for r in rows]
    return (int(sum(sheet.points[:, j].min() for j in js)),
            int(sum(sheet.points[:, j].max() for j in js)))


def _ranges(values: np.ndarray, high: int) -> str:
    """``0-5, 9, 12-63+`` from sorted integers."""
    parts: list[str] = []
    start = prev = None
    for v in [int(x) for x in values]:
        if start is None or prev is None:
            start = prev = v
        elif v == prev + 1:
            prev = v
        else:
            parts.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = v
    if start is not None:
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
    text = ", ".join(parts)
    return text + ("+" if values.size and int(values[-1]) == high else "")


def _check_dice(dice: Sequence[int]) -> Faces:
    faces = tuple(dice)
    if len(faces) != 5 or any(not isinstance(f, int) or not 1 <= f <= 6 for f in faces):
        shown = " ".join(map(str, faces)) or "none"
        raise IllegalAction(f"the dice must be five values 1 to 6, not {shown}")
    return tuple(sorted(faces))


def _first_differs(sheet: Sheet) -> bool:
    return bool(np.any(sheet.points[1] != sheet.points[0]))


def _states(sheet: Sheet, open_rows: int, popcount: np.ndarray) -> np.ndarray:
    """The reachable positions with ``open_rows`` rows open, as (mask, upper, flag) rows."""
    masks = np.flatnonzero((popcount == open_rows) & sheet.reachable_masks)
    held = sheet.reachable_upper[sheet.upper_bits(masks)]
    which, uis = np.nonzero(held)
    states = np.stack([masks[which], uis, np.zeros_like(uis)], axis=1).astype(np.int64)
    if sheet.flags == 2:  # a written Yatzy row may hold a score or a zero
        written = states[(states[:, 0] >> sheet.yatzy_row) & 1 == 0].copy()
        written[:, 2] = 1
        states = np.concatenate([states, written])
    return states


def cache_key(rules: YatzyRules) -> str:
    """What identifies a solved table: the rules that change play (not language or result)."""
    relevant = {k: v for k, v in rules.to_json().items() if k not in ("lang", "result",
                                                                       "misses")}
    text = json.dumps({"solver": SOLVER_VERSION, **relevant}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_dir() -> Path:
    """The per-user cache directory (``KASTKOPP_CACHE`` overrides it)."""
    override = os.environ.get("KASTKOPP_CACHE")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("kastkopp"))


def solve(rules: YatzyRules, progress: Callable[[int, int], None] | None = None,
          cache: bool = True, directory: Path | None = None,
          classes: bool = True) -> SolvedTable:
    """The solved table for ``rules``: from the disk cache when it is there, else solved
    (and then cached). ``progress(done, total)`` is called as layers of positions finish.
    ``classes=False`` solves every position, even those worth the same as another (the
    tests check that both ways agree)."""
    started = time.perf_counter()
    Sheet.check(rules)
    path = cache_path(rules, directory)
    if cache and path.exists():
        try:
            with np.load(path) as data:
                sheet = Sheet.from_arrays(rules, data)
                values = data["values"].astype(np.float64)
                values[(1 << len(sheet.rows)) - 1, 0 - sheet.low, 0] = float(data["start"])
            touch(path)
            return SolvedTable(sheet, values, time.perf_counter() - started, from_cache=True)
        except (OSError, KeyError, ValueError):
            path.unlink(missing_ok=True)  # a damaged or older cache is solved again
    sheet = Sheet.from_rules(rules)
    n = len(sheet.rows)
    values = np.zeros((1 << n, sheet.n_upper, sheet.flags))
    masks = np.arange(1 << n)
    popcount = np.zeros(1 << n, dtype=np.int64)
    for j in range(n):
        popcount += (masks >> j) & 1
    arrays, ints = sheet.arrays(), sheet.ints()
    rep = _upper_classes(sheet) if classes else None
    layers = [_states(sheet, k, popcount) for k in range(1, n + 1)]
    total = sum(len(layer) for layer in layers)
    done = 0
    for layer in layers:
        solved, copies, source = layer, layer[:0], layer[:0, 1]
        if rep is not None:
            same = rep[sheet.upper_bits(layer[:, 0]), layer[:, 1]]
            own = same == layer[:, 1]
            solved, copies, source = layer[own], layer[~own], same[~own]
        if len(solved):
            _solve_groups(*_groups(solved), values, arrays, ints, float(rules.yatzy_bonus),
                          DICE["cls"], DICE["child"], DICE["parents"], DICE["prob"])
        values[copies[:, 0], copies[:, 1], copies[:, 2]] = \
            values[copies[:, 0], source, copies[:, 2]]
        done += len(layer)
        if progress is not None:
            progress(done, total)
    table = SolvedTable(sheet, values, time.perf_counter() - started)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = partial(path, ".npz")
        saved: dict[str, Any] = {"values": values.astype(np.float32),
                                 "start": np.float64(values[(1 << n) - 1, 0 - sheet.low, 0]),
                                 **sheet.to_arrays()}
        np.savez(written, **saved)
        written.replace(path)
        prune(path.parent, "yatzy-*.npz", env_int("KASTKOPP_CACHE_MB", CACHE_MB) << 20,
              keep=[path, *standard_paths(path.parent)])
    return table


def standard_rules() -> list[YatzyRules]:
    """The standard presets the solver can solve."""
    found = []
    for preset in YatzyRules.PRESETS:
        rules = YatzyRules.make(preset)
        try:
            Sheet.check(rules)
        except RuleError:
            continue
        found.append(rules)
    return found


def cache_path(rules: YatzyRules, directory: Path | None = None) -> Path:
    """Where the solved table of ``rules`` is cached."""
    return (directory or cache_dir()) / f"yatzy-{cache_key(rules)}.npz"


def standard_paths(directory: Path) -> list[Path]:
    """The cached tables of the standard presets (kept however full the cache is)."""
    return [cache_path(rules, directory) for rules in standard_rules()]

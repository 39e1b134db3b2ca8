"""The spread of the final score under expected-score-optimal Yatzy play.

The solver (:mod:`kastkopp.strategy.yatzy_solver`) gives every position between turns the
expected points still to come, ``E``. Playing to win needs more than the mean: a player far
behind wants the choice that can still catch up. This module adds the second moment ``M``
(the mean of the square of the points still to come) of every position, under the very
play the solver's table makes, so the variance ``M - E**2`` of the final score is known at
every position and for every choice of a turn (the mean-variance method).

The backward pass is the solver's: over the same layers of positions, the same sheet
tables, the same turn (the best row of each roll, the best keep, standing or rolling again).
Every decision is taken by ``E``, as the optimal player takes it, and ``M`` follows it:
writing ``g`` points and going on to a position worth ``(E', M')`` is worth
``g**2 + 2 g E' + M'``; a keep's ``M`` is the mean over the dice rolled. The pass also
recomputes ``E`` for every position in the same arithmetic; the tests check that it equals
the solver's table.

The tables are cached next to the solver's (``yatzy-moments-*.npz``).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numba
import numpy as np

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.work import env_int, prune, touch
from kastkopp.strategy.yatzy_solver import (
    ALIKE,
    CACHE_MB,
    DICE,
    KEEPS,
    NEG,
    Position,
    SolvedTable,
    _states,
    _upper_classes,
    cache_dir,
    cache_key,
    solve,
    standard_paths,
)

MOMENTS_VERSION = 1


@numba.njit(cache=True)
def _score_pair(mask, ui, y, table, E, M, arrays, ints, outE, outM, sE, sM):
    """outE[r], outM[r]: the best row for roll ``r`` by ``E`` (as the solver's
    ``_score_now``), and the second moment of the points to come when it is written."""
    points, upper, playable, joker, bonus = (arrays[0], arrays[1], arrays[2], arrays[3],
                                             arrays[5])
    values, value_index, upper_open = arrays[6], arrays[7], arrays[8]
    yatzy_row, low, high, flags, dice_matter = ints[0], ints[1], ints[2], ints[3], ints[6]
    n = points.shape[1]
    complete = 1 if upper_open[mask] == 1 else 0
    for r in range(252):
        outE[r] = NEG
        outM[r] = 0.0
    rows = playable[mask, 0]
    for j in range(n):
        if not (rows >> j & 1) or not (mask >> j & 1):
            continue
        rest = mask ^ (1 << j)
        if upper[j]:
            for i in range(values.shape[1]):
                p = values[j, i]
                nui = int(min(max(low + ui + p, low), high) - low)
                g = p + bonus[nui, complete] - bonus[ui, 0]
                sE[i] = g + E[rest, nui, y]
                sM[i] = g * g + 2.0 * g * E[rest, nui, y] + M[rest, nui, y]
            for r in range(252):
                i = value_index[table, j, r]
                if sE[i] > outE[r]:
                    outE[r] = sE[i]
                    outM[r] = sM[i]
        else:
            yatzy = flags == 2 and j == yatzy_row
            for r in range(252):
                p = points[table, j, r]
                ny = 1 if yatzy and p > 0 else y
                v = p + E[rest, ui, ny]
                if v > outE[r]:
                    outE[r] = v
                    outM[r] = p * p + 2.0 * p * E[rest, ui, ny] + M[rest, ui, ny]
    if dice_matter:
        for face in range(1, 7):
            r = ALIKE[face - 1]
            rows = playable[mask, face]
            t = table + (2 if joker[mask, face] else 0)
            outE[r] = NEG
            for j in range(n):
                if not (rows >> j & 1) or not (mask >> j & 1):
                    continue
                p = points[t, j, r]
                rest = mask ^ (1 << j)
                ny = 1 if flags == 2 and j == yatzy_row and p > 0 else y
                nui = ui
                g = p
                if upper[j]:
                    nui = int(min(max(low + ui + p, low), high) - low)
                    g = p + bonus[nui, complete] - bonus[ui, 0]
                    ny = y
                v = g + E[rest, nui, ny]
                if v > outE[r]:
                    outE[r] = v
                    outM[r] = g * g + 2.0 * g * E[rest, nui, ny] + M[rest, nui, ny]


@numba.njit(cache=True)
def _turn_pair(mask, ui, y, E, M, arrays, ints, yatzy_bonus, cls, child, parents,
               stagesE, stagesM, work):
    """The solver's ``_turn`` with the second moment alongside: ``stagesE[t]`` and
    ``stagesM[t]`` for each roll after throw ``t + 1``, ``[throws + t]`` for each keep
    rerolled for throw ``t + 2``. ``work``: 12 rows of 462 of scratch."""
    extra = arrays[4]
    flags, throws, first_differs = ints[3], ints[4], ints[5]
    laterE, laterM, firstE, firstM = work[0, :252], work[1, :252], work[2, :252], work[3, :252]
    curE, curM, rerE, rerM = work[4, :252], work[5, :252], work[6, :252], work[7, :252]
    subE, subM, sE, sM = work[8], work[9], work[10], work[11]
    _score_pair(mask, ui, y, 0, E, M, arrays, ints, laterE, laterM, sE, sM)
    if first_differs:
        _score_pair(mask, ui, y, 1, E, M, arrays, ints, firstE, firstM, sE, sM)
    else:
        firstE[:] = laterE
        firstM[:] = laterM
    if flags == 2:
        c = yatzy_bonus
        for r in range(252):
            if cls[r] > 0 and extra[mask, y, cls[r]]:
                # (X + c)^2 = X^2 + 2cX + c^2
                laterM[r] += 2.0 * c * laterE[r] + c * c
                firstM[r] += 2.0 * c * firstE[r] + c * c
                laterE[r] += c
                firstE[r] += c
    if throws == 1:
        curE[:] = firstE
        curM[:] = firstM
    else:
        curE[:] = laterE
        curM[:] = laterM
    stagesE[throws - 1, :252] = curE
    stagesM[throws - 1, :252] = curM
    keeps_n = child.shape[0]
    first_roll = keeps_n - 252
    for t in range(throws - 2, -1, -1):
        kE, kM = stagesE[throws + t], stagesM[throws + t]
        for r in range(252):
            kE[first_roll + r] = curE[r]
            kM[first_roll + r] = curM[r]
        for k in range(first_roll - 1, -1, -1):
            c0, c1, c2 = child[k, 0], child[k, 1], child[k, 2]
            c3, c4, c5 = child[k, 3], child[k, 4], child[k, 5]
            kE[k] = (kE[c0] + kE[c1] + kE[c2] + kE[c3] + kE[c4] + kE[c5]) / 6.0
            kM[k] = (kM[c0] + kM[c1] + kM[c2] + kM[c3] + kM[c4] + kM[c5]) / 6.0
        # the best smaller keep of each keep, by E (the solver's walk up the keeps)
        subE[0] = kE[0]
        subM[0] = kM[0]
        for k in range(1, first_roll):
            subE[k] = kE[k]
            subM[k] = kM[k]
            for i in range(5):
                p = parents[k, i]
                if p < 0:
                    break
                if subE[p] > subE[k]:
                    subE[k] = subE[p]
                    subM[k] = subM[p]
        for r in range(252):
            rerE[r] = NEG
            for i in range(5):
                p = parents[first_roll + r, i]
                if p < 0:
                    break
                if subE[p] > rerE[r]:
                    rerE[r] = subE[p]
                    rerM[r] = subM[p]
        nowE = firstE if t == 0 else laterE
        nowM = firstM if t == 0 else laterM
        for r in range(252):
            if nowE[r] >= rerE[r]:
                curE[r] = nowE[r]
                curM[r] = nowM[r]
            else:
                curE[r] = rerE[r]
                curM[r] = rerM[r]
        stagesE[t, :252] = curE
        stagesM[t, :252] = curM


@numba.njit(parallel=True, cache=True)
def _solve_layer(states, E, M, check, arrays, ints, yatzy_bonus, cls, child, parents, prob):
    """``M`` (and ``check``, the recomputed ``E``) of every position in ``states``."""
    throws = ints[4]
    keeps_n = child.shape[0]
    chunks = min(states.shape[0], 64)
    for c in numba.prange(chunks):
        stagesE = np.empty((2 * throws, keeps_n))
        stagesM = np.empty((2 * throws, keeps_n))
        work = np.empty((12, keeps_n))
        for s in range(c, states.shape[0], chunks):
            mask, ui, y = states[s, 0], states[s, 1], states[s, 2]
            _turn_pair(mask, ui, y, E, M, arrays, ints, yatzy_bonus, cls, child, parents,
                       stagesE, stagesM, work)
            te = 0.0
            tm = 0.0
            for r in range(252):
                te += prob[r] * stagesE[0, r]
                tm += prob[r] * stagesM[0, r]
            check[mask, ui, y] = te
            M[mask, ui, y] = tm


class MomentTable:
    """The solver's table with the second moment of every position beside it."""

    def __init__(self, table: SolvedTable, second: np.ndarray, check: np.ndarray | None,
                 seconds: float = 0.0, from_cache: bool = False) -> None:
        self.table = table
        self.second = second
        self.check = check  # the means recomputed by this pass (None from the cache)
        self.seconds = seconds
        self.from_cache = from_cache

    @property
    def rules(self) -> YatzyRules:
        return self.table.rules

    def mean(self, p: Position) -> float:
        return self.table.value(p)

    def variance(self, p: Position) -> float:
        """The variance of the points still to come from ``p`` under optimal play."""
        e = self.table.value(p)
        return max(0.0, float(self.second[p.mask, p.upper_index, p.yatzy_holds]) - e * e)

    def turn_stages(self, p: Position) -> tuple[np.ndarray, np.ndarray]:
        """``E`` and ``M`` of every roll and keep of one turn from ``p`` (as the solver's
        ``turn_stages``)."""
        sheet = self.table.sheet
        stagesE = np.empty((2 * sheet.throws, len(KEEPS)))
        stagesM = np.empty((2 * sheet.throws, len(KEEPS)))
        _turn_pair(p.mask, p.upper_index, p.yatzy_holds, self.table.values, self.second,
                   sheet.arrays(), sheet.ints(), float(self.rules.yatzy_bonus), DICE["cls"],
                   DICE["child"], DICE["parents"], stagesE, stagesM,
                   np.empty((12, len(KEEPS))))
        return stagesE, stagesM


def moments(rules: YatzyRules, cache: bool = True, directory: Path | None = None
            ) -> MomentTable:
    """The moment table of ``rules``: from the disk cache, else computed from the solved
    table (itself cached or solved) and cached."""
    table = solve(rules, cache=cache, directory=directory)
    started = time.perf_counter()
    path = moments_path(rules, directory)
    if cache and path.exists():
        try:
            with np.load(path) as data:
                second = data["second"]
            touch(path)
            return MomentTable(table, second, None, time.perf_counter() - started, True)
        except (OSError, KeyError, ValueError):
            path.unlink(missing_ok=True)
    second, check = _compute(table)
    result = MomentTable(table, second, check, time.perf_counter() - started)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp.npz")
        np.savez(partial, second=second)
        partial.replace(path)
        prune(path.parent, "yatzy-*.npz", env_int("KASTKOPP_CACHE_MB", CACHE_MB) << 20,
              keep=[path, *standard_paths(path.parent)])
    return result


def _compute(table: SolvedTable) -> tuple[np.ndarray, np.ndarray]:
    sheet, values = table.sheet, table.values
    n = len(sheet.rows)
    second = np.zeros_like(values)
    check = np.zeros_like(values)
    masks = np.arange(1 << n)
    popcount = np.zeros(1 << n, dtype=np.int64)
    for j in range(n):
        popcount += (masks >> j) & 1
    rep = _upper_classes(sheet)
    arrays, ints = sheet.arrays(), sheet.ints()
    for k in range(1, n + 1):
        layer = _states(sheet, k, popcount)
        same = rep[sheet.upper_bits(layer[:, 0]), layer[:, 1]]
        own = same == layer[:, 1]
        solved, copies, source = layer[own], layer[~own], same[~own]
        if len(solved):  # a layer reads only the layers below it
            _solve_layer(np.ascontiguousarray(solved), values, second, check, arrays, ints,
                         float(table.rules.yatzy_bonus), DICE["cls"], DICE["child"],
                         DICE["parents"], DICE["prob"])
        for target in (second, check):
            target[copies[:, 0], copies[:, 1], copies[:, 2]] = \
                target[copies[:, 0], source, copies[:, 2]]
    return second, check


def moments_path(rules: YatzyRules, directory: Path | None = None) -> Path:
    """Where the moment table of ``rules`` is cached (beside the solver's table)."""
    return (directory or cache_dir()) / f"yatzy-moments-{MOMENTS_VERSION}-{cache_key(rules)}.npz"


def normal_win(mean: float, variance: float) -> float:
    """P(D > 0) + P(D = 0) / 2 for an integer score difference D of this mean and variance,
    by the normal approximation (the half-tie correction cancels the continuity one)."""
    if variance <= 1e-12:
        return 1.0 if mean > 0.5 else 0.0 if mean < -0.5 else 0.5
    return 0.5 * math.erfc(-mean / math.sqrt(2.0 * variance))

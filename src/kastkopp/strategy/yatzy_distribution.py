"""The whole distribution of the points still to come under expected-score-optimal Yatzy.

The solver (:mod:`kastkopp.strategy.yatzy_solver`) gives every position between turns the
expected points still to come. Playing to win against ``bot:optimal`` needs more: the
chance of every final score that player can still make. This module computes, for every
position between turns, the distribution of the points to come under the very play the
solver's table makes (every row, keep and stand chosen by the expected score).

The backward pass runs over the solver's layers of positions. For one position the turn is
played forward as mass: the 252 first rolls with their chances; each roll either is
written (in its best row) or keeps its best keep, whose mass is shared out over the dice
rolled (a sixth to each face of the first rerolled die, as the solver averages); after the
last throw every roll is written. What comes out is a chance for every (row, points, extra
Yatzy) of the turn, and the position's distribution is the mixture of the next positions'
distributions shifted by the points written (bonuses included, as the solver counts them).

Each distribution is stored as a run of chances from its lowest possible value, tails of
less than ``CUT`` cut off, in one flat array of single precision (the sums over them are
taken in double); upper sums worth the same (the solver's classes) share their run. Cached
beside the solver's tables (``yatzy_distribution-*.npy``, about 700 MB for a standard
rule set, read through a memory map, and its index): the standard presets' tables are
always kept, the others pruned to the solver's budget on their own, so that they never
push the solver's small tables out.

>>> from kastkopp.games.yatzy import YatzyRules
>>> d = distributions(YatzyRules.make("tarningspoker"), cache=False)
>>> start = d.table.position()
>>> low, chances = d.of(start)
>>> round(float(chances.sum()), 6), round(d.mean(start), 4)
(1.0, 229.6385)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.work import env_int, partial, prune, touch
from kastkopp.strategy.yatzy_solver import (
    ALIKE,
    CACHE_MB,
    DICE,
    NEG,
    Position,
    SolvedTable,
    _states,
    _turn,
    _upper_classes,
    cache_dir,
    cache_key,
    solve,
    standard_rules,
)

DISTRIBUTION_VERSION = 1
CUT = 1e-11  # the chance a cut tail may hold
CHUNK = 4096  # positions computed at once (a dense buffer of that many distributions)


def _bounds(sheet: Any) -> tuple[int, int]:
    """The lowest and highest points that can still come from any position."""
    points = sheet.points
    rows = points.shape[1]
    low = sum(min(0, int(points[:, j].min())) for j in range(rows))
    high = sum(int(points[:, j].max()) for j in range(rows))
    high += int(sheet.bonus.max()) + int(sheet.rules.yatzy_bonus) * rows
    return low + int(min(0, sheet.bonus.min())), high


@numba.njit(cache=True, nogil=True)
def rows_for(mask, r, table, arrays, ints):
    """The rows roll ``r`` may be written in with the rows ``mask`` open, and the score
    table it is scored by: ``table``, or ``table + 2`` under the joker."""
    playable, joker = arrays[2], arrays[3]
    rows = playable[mask, 0]
    t = table
    if ints[6]:  # the dice matter: an all-alike roll may be played elsewhere
        for face in range(1, 7):
            if ALIKE[face - 1] == r:
                rows = playable[mask, face]
                if joker[mask, face]:
                    t = table + 2
    return rows, t


@numba.njit(cache=True, nogil=True)
def _row_choices(mask, ui, y, table, E, arrays, ints, value, row):
    """value[r], row[r]: the best row for roll ``r`` by the expected score (as the solver's
    ``_score_now``, ties to the first row) and what it is worth."""
    points, upper, bonus, upper_open = arrays[0], arrays[1], arrays[5], arrays[8]
    yatzy_row, low, high, flags = ints[0], ints[1], ints[2], ints[3]
    n = points.shape[1]
    complete = 1 if upper_open[mask] == 1 else 0
    for r in range(252):
        value[r] = NEG
        row[r] = -1
        rows, t = rows_for(mask, r, table, arrays, ints)
        for j in range(n):
            if not (rows >> j & 1) or not (mask >> j & 1):
                continue
            p = points[t, j, r]
            rest = mask ^ (1 << j)
            if upper[j]:
                nui = int(min(max(low + ui + p, low), high) - low)
                v = p + bonus[nui, complete] - bonus[ui, 0] + E[rest, nui, y]
            else:
                ny = 1 if flags == 2 and j == yatzy_row and p > 0 else y
                v = p + E[rest, ui, ny]
            if v > value[r]:
                value[r] = v
                row[r] = j


@numba.njit(cache=True, nogil=True)
def _best_keeps(keep_values, parents, best_sub, arg_sub, out_value, out_keep):
    """The solver's ``_best_reroll`` with the keep that is best: out_keep[r]."""
    first = keep_values.shape[0] - 252
    best_sub[0] = keep_values[0]
    arg_sub[0] = 0
    for k in range(1, first):
        best_sub[k] = keep_values[k]
        arg_sub[k] = k
        for i in range(5):
            p = parents[k, i]
            if p < 0:
                break
            if best_sub[p] > best_sub[k]:
                best_sub[k] = best_sub[p]
                arg_sub[k] = arg_sub[p]
    for r in range(252):
        out_value[r] = NEG
        out_keep[r] = -1
        for i in range(5):
            p = parents[first + r, i]
            if p < 0:
                break
            if best_sub[p] > out_value[r]:
                out_value[r] = best_sub[p]
                out_keep[r] = arg_sub[p]


@numba.njit(cache=True, nogil=True)
def turn_outcomes(mask, ui, y, E, arrays, ints, yatzy_bonus, cls, child, parents, prob,
                   stages, work, acc, pmin):
    """The chances of what one turn of expected-score play writes: acc[row, points - pmin,
    extra Yatzy paid] (cleared first)."""
    extra = arrays[4]
    points = arrays[0]
    flags, throws, first_differs = ints[3], ints[4], ints[5]
    _turn(mask, ui, y, E, arrays, ints, yatzy_bonus, cls, child, parents, stages, work)
    keeps_n = child.shape[0]
    first_roll = keeps_n - 252
    mass = np.zeros(252)
    kmass = np.zeros(keeps_n)
    value = np.empty(252)
    row = np.empty(252, dtype=np.int64)
    kvalue = np.empty(252)
    keep = np.empty(252, dtype=np.int64)
    best_sub = np.empty(keeps_n)
    arg_sub = np.empty(keeps_n, dtype=np.int64)
    acc[:, :, :] = 0.0
    for r in range(252):
        mass[r] = prob[r]
    for t in range(throws):
        table = 1 if (t == 0 and first_differs) else 0
        _row_choices(mask, ui, y, table, E, arrays, ints, value, row)
        last = t == throws - 1
        if not last:
            _best_keeps(stages[throws + t], parents, best_sub, arg_sub, kvalue, keep)
            kmass[:] = 0.0
        for r in range(252):
            m = mass[r]
            if m == 0.0:
                continue
            e = 1 if flags == 2 and cls[r] > 0 and extra[mask, y, cls[r]] else 0
            if last or value[r] + e * yatzy_bonus >= kvalue[r]:
                j = row[r]
                p = points[rows_for(mask, r, table, arrays, ints)[1], j, r]
                acc[j, int(p) - pmin, e] += m
            else:
                kmass[keep[r]] += m
        if not last:
            for k in range(first_roll):
                share = kmass[k] / 6.0
                if share != 0.0:
                    for f in range(6):
                        kmass[child[k, f]] += share
            for r in range(252):
                mass[r] = kmass[first_roll + r]


@numba.njit(cache=True, nogil=True)
def row_written(mask, ui, y, j, p, e, arrays, ints, yatzy_bonus):
    """Writing ``p`` in row ``j`` (``e``: an extra Yatzy paid): the points the turn adds and
    the position it leads to."""
    upper, bonus, upper_open = arrays[1], arrays[5], arrays[8]
    yatzy_row, low, high, flags = ints[0], ints[1], ints[2], ints[3]
    rest = mask ^ (1 << j)
    g = p + e * yatzy_bonus
    nui = ui
    ny = y
    if upper[j]:
        complete = 1 if upper_open[mask] == 1 else 0
        nui = int(min(max(low + ui + p, low), high) - low)
        g += bonus[nui, complete] - bonus[ui, 0]
    elif flags == 2 and j == yatzy_row and p > 0:
        ny = 1
    return int(np.rint(g)), rest, nui, ny


@numba.njit(parallel=True, cache=True, nogil=True)
def _layer(states, E, flat, start, low, length, arrays, ints, yatzy_bonus, cls, child,
           parents, prob, dense, dense_low, pmin, prange_points, floor):
    """The distributions of ``states`` into ``dense[s]`` (index ``x - floor`` for ``x``
    points to come), their lowest index in ``dense_low[s]``."""
    throws = ints[4]
    keeps_n = child.shape[0]
    rows = arrays[0].shape[1]
    width = dense.shape[1]
    for s in numba.prange(states.shape[0]):
        mask, ui, y = states[s, 0], states[s, 1], states[s, 2]
        stages = np.empty((2 * throws, keeps_n))
        work = np.empty((6, keeps_n))
        acc = np.empty((rows, prange_points, 2))
        turn_outcomes(mask, ui, y, E, arrays, ints, yatzy_bonus, cls, child, parents, prob,
                       stages, work, acc, pmin)
        out = dense[s]
        out[:] = 0.0
        lowest = width
        for j in range(rows):
            for i in range(prange_points):
                for e in range(2):
                    m = acc[j, i, e]
                    if m == 0.0:
                        continue
                    g, rest, nui, ny = row_written(mask, ui, y, j, i + pmin, e, arrays, ints,
                                                 yatzy_bonus)
                    if rest == 0:
                        out[g - floor] += m
                        lowest = min(lowest, g - floor)
                        continue
                    at = start[rest, nui, ny]
                    base = low[rest, nui, ny] + g - floor
                    lowest = min(lowest, base)
                    for x in range(length[rest, nui, ny]):
                        out[base + x] += m * flat[at + x]
        dense_low[s] = lowest


@numba.njit(cache=True, nogil=True)
def _trim(dense, dense_low, cut, spans):
    """spans[s] = (first, last + 1): the run of ``dense[s]`` left when tails of less than
    ``cut`` are cut off."""
    width = dense.shape[1]
    for s in range(dense.shape[0]):
        row = dense[s]
        a = dense_low[s]
        tail = 0.0
        while a < width - 1 and tail + row[a] < cut:
            tail += row[a]
            a += 1
        b = width - 1
        tail = 0.0
        while b > a and tail + row[b] < cut:
            tail += row[b]
            b -= 1
        spans[s, 0] = a
        spans[s, 1] = b + 1


class DistributionTable:
    """The solver's table with the distribution of the points to come of every position.

    ``of(p)`` is ``(low, chances)``: ``chances[i]`` is the chance of ``low + i`` more
    points."""

    def __init__(self, table: SolvedTable, flat: np.ndarray, start: np.ndarray,
                 low: np.ndarray, length: np.ndarray, seconds: float = 0.0,
                 from_cache: bool = False) -> None:
        self.table = table
        self.flat = flat
        self.start = start
        self.low = low
        self.length = length
        self.seconds = seconds
        self.from_cache = from_cache

    @property
    def rules(self) -> YatzyRules:
        return self.table.rules

    def of(self, p: Position) -> tuple[int, np.ndarray]:
        at = (p.mask, p.upper_index, p.yatzy_holds)
        begin = int(self.start[at])
        return int(self.low[at]), self.flat[begin:begin + int(self.length[at])]

    def mean(self, p: Position) -> float:
        low, chances = self.of(p)
        return float(np.dot(np.arange(low, low + len(chances)), chances))

    def variance(self, p: Position) -> float:
        low, chances = self.of(p)
        x = np.arange(low, low + len(chances), dtype=np.float64)
        m = float(np.dot(x, chances))
        return max(0.0, float(np.dot(x * x, chances)) - m * m)


def distributions(rules: YatzyRules, cache: bool = True, directory: Path | None = None
                  ) -> DistributionTable:
    """The distribution table of ``rules``: from the disk cache, else computed from the
    solved table (itself cached or solved) and cached."""
    table = solve(rules, cache=cache, directory=directory)
    started = time.perf_counter()
    path = distribution_path(rules, directory)
    index = _index_path(path)
    if cache and path.exists() and index.exists():
        try:
            with np.load(index) as data:
                start, low, length = data["start"], data["low"], data["length"]
            # the chances are mapped, not read: a process holds only the pages it reads,
            # and processes reading one table share them
            flat = np.asarray(np.load(path, mmap_mode="r"))
            found = DistributionTable(table, flat, start, low, length, from_cache=True)
            touch(path)
            touch(index)
            found.seconds = time.perf_counter() - started
            return found
        except (OSError, KeyError, ValueError):
            path.unlink(missing_ok=True)
            index.unlink(missing_ok=True)
    flat, start, low, length = _compute(table)
    result = DistributionTable(table, flat, start, low, length, time.perf_counter() - started)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        # the index last: a table is there when its index is
        written = partial(path, ".npy")
        np.save(written, flat)
        written.replace(path)
        written = partial(index, ".npz")
        np.savez(written, start=start, low=low, length=length)
        written.replace(index)
        keep = [path, *(distribution_path(r, path.parent) for r in standard_rules())]
        prune(path.parent, "yatzy_distribution-*", env_int("KASTKOPP_CACHE_MB", CACHE_MB) << 20,
              keep=[*keep, *map(_index_path, keep)])
    return result


def _index_path(path: Path) -> Path:
    """Where the positions' runs of the chances in ``path`` are kept."""
    return path.with_name(path.name.removesuffix(".npy") + ".index.npz")


def _compute(table: SolvedTable) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    sheet, values = table.sheet, table.values
    n = len(sheet.rows)
    floor, ceiling = _bounds(sheet)
    pmin = min(0, int(sheet.points.min()))
    prange_points = int(sheet.points.max()) - pmin + 1
    shape = values.shape
    start = np.zeros(shape, dtype=np.int64)
    low = np.zeros(shape, dtype=np.int32)
    length = np.zeros(shape, dtype=np.int32)
    flat = np.zeros(1 << 20, dtype=np.float32)  # single precision: it is most of the memory
    used = 0
    masks = np.arange(1 << n)
    popcount = np.zeros(1 << n, dtype=np.int64)
    for j in range(n):
        popcount += (masks >> j) & 1
    rep = _upper_classes(sheet)
    arrays, ints = sheet.arrays(), sheet.ints()
    width = ceiling - floor + 1
    for k in range(1, n + 1):
        layer = _states(sheet, k, popcount)
        same = rep[sheet.upper_bits(layer[:, 0]), layer[:, 1]]
        own = same == layer[:, 1]
        solved, copies, source = layer[own], layer[~own], same[~own]
        for c in range(0, len(solved), CHUNK):  # a layer reads only the layers below it
            states = np.ascontiguousarray(solved[c:c + CHUNK])
            dense = np.empty((len(states), width))
            dense_low = np.empty(len(states), dtype=np.int64)
            _layer(states, values, flat, start, low, length, arrays, ints,
                   float(table.rules.yatzy_bonus), DICE["cls"], DICE["child"],
                   DICE["parents"], DICE["prob"], dense, dense_low, pmin, prange_points,
                   floor)
            spans = np.empty((len(states), 2), dtype=np.int64)
            _trim(dense, dense_low, CUT, spans)
            sizes = spans[:, 1] - spans[:, 0]
            need = used + int(sizes.sum())
            if need > len(flat):  # grown by a quarter, so that old and new fit in memory
                grown = np.empty(max(need, len(flat) + len(flat) // 4), dtype=np.float32)
                grown[:used] = flat[:used]
                flat = grown
            offsets = used + np.concatenate([[0], np.cumsum(sizes)[:-1]])
            _copy_runs(dense, spans, offsets, flat)
            at = (states[:, 0], states[:, 1], states[:, 2])
            start[at] = offsets
            low[at] = spans[:, 0] + floor
            length[at] = sizes
            used = need
        for target in (start, low, length):
            target[copies[:, 0], copies[:, 1], copies[:, 2]] = \
                target[copies[:, 0], source, copies[:, 2]]
    return flat[:used], start, low, length


@numba.njit(cache=True, nogil=True)
def _copy_runs(dense, spans, offsets, flat):
    for s in range(dense.shape[0]):
        a, b = spans[s, 0], spans[s, 1]
        flat[offsets[s]:offsets[s] + b - a] = dense[s, a:b]


def distribution_path(rules: YatzyRules, directory: Path | None = None) -> Path:
    """Where the distribution table of ``rules`` is cached (beside the solver's table)."""
    return (directory or cache_dir()) / \
        f"yatzy_distribution-{DISTRIBUTION_VERSION}-{cache_key(rules)}.npy"



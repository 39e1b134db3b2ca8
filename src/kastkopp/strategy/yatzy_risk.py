"""Yatzy played cautiously or boldly: the points to come under a family of risk attitudes.

Playing to win means playing safe when ahead and gambling when behind, not only in the turn
in hand but for the rest of the game. This module solves, for every position between
turns, a family of whole-game plays from cautious to bold, and keeps the mean and variance
of the points each of them still makes.

Play ``θ`` maximises the expected value of ``exp(θ·G)`` for the points to come ``G``
(minimises it for ``θ < 0``): ``θ > 0`` prefers a spread, ``θ < 0`` shuns it, and ``θ → 0``
is the expected-score optimum. This is the one family of attitudes whose best play from a
position does not depend on the points already made (``exp(θ·(T + G))`` is
``exp(θ·T)·exp(θ·G)``), so one table per ``θ`` holds it. The turn is solved as the solver
solves it, every value carrying (utility, mean, second moment), the choice made by the
utility. The utility of a position is kept relative to its expected score (the solver's
value), so that it stays near one whatever ``θ`` and the points at stake.

``bot:towin`` uses the table to choose, for every way its turn can end, how it will play
the rest of the game: each play's mean and variance of my final score against the
opponent's, with the exact distribution of the expected-score play as the anchor
(:mod:`kastkopp.strategy.yatzy_towin`).

>>> from kastkopp.games.yatzy import YatzyRules
>>> t = risk_table(YatzyRules.make("tarningspoker"), cache=False)
>>> start = t.table.position()
>>> bold, cautious = t.theta.argmax(), t.theta.argmin()
>>> t.mean(bold, start) < t.table.value(start) and t.mean(cautious, start) < t.table.value(start)
True
>>> t.variance(bold, start) > t.variance(cautious, start)
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.work import env_int, partial, prune, touch
from kastkopp.strategy.yatzy_distribution import layers, row_written, rows_for
from kastkopp.strategy.yatzy_solver import (
    CACHE_MB,
    DICE,
    NEG,
    Position,
    Sheet,
    SolvedTable,
    cache_dir,
    cache_key,
    solve,
    standard_rules,
)

RISK_VERSION = 1
# the attitudes, in points⁻¹: at 0.01 a spread of 40 points is worth about 8 of the mean
THETAS = np.array([-0.16, -0.08, -0.04, -0.02, -0.01, -0.005, 0.005, 0.01, 0.02, 0.04, 0.08,
                   0.16])
TIE = 1e-12  # values closer than this are the same; the mean decides


# --------------------------------------------------------------------------- the turn
#
# A turn whose values are triples: (what the choice is made by, mean, second moment).
# ``bot:towin`` solves its turn with the same kernels, its first value the chance of winning.


@numba.njit(cache=True, nogil=True)
def better(a, b):
    """Whether the choice worth ``a`` beats ``b``: by the first value, ties by the mean."""
    if a[0] > b[0] + TIE:
        return True
    return abs(a[0] - b[0]) <= TIE and a[1] > b[1]


@numba.njit(cache=True, nogil=True)
def rolls_written(mask, y, cells, pmin, arrays, ints, cls, now, marking=False):
    """now[table, :, r]: the best row to write roll ``r`` in (``table`` 1: the first throw),
    from ``cells[row, points - pmin, extra Yatzy paid]``, what ending the turn so is worth.
    ``marking``: only mark the cells the rolls read (``cells[..., 0]`` set to one)."""
    points, extra = arrays[0], arrays[4]
    flags, first_differs = ints[3], ints[5]
    n = points.shape[1]
    for table in range(2 if first_differs else 1):
        for r in range(252):
            rows, t = rows_for(mask, r, table, arrays, ints)
            e = 1 if flags == 2 and cls[r] > 0 and extra[mask, y, cls[r]] else 0
            best = now[table, :, r]
            best[0] = NEG
            best[1] = NEG
            best[2] = 0.0
            for j in range(n):
                if not (rows >> j & 1) or not (mask >> j & 1):
                    continue
                cell = cells[j, int(points[t, j, r]) - pmin, e]
                if marking:
                    cell[0] = 1.0
                elif better(cell, best):
                    best[:] = cell
    if not first_differs:
        now[1, :, :] = now[0, :, :]


@numba.njit(cache=True, nogil=True)
def turn_back(now, throws, child, parents, stages):
    """The turn solved back from its rows ``now``: ``stages[:, t]`` is the value of each
    roll after throw ``t + 1``, ``stages[:, throws + t]`` of each keep rerolled for throw
    ``t + 2``."""
    keeps_n = child.shape[0]
    first_roll = keeps_n - 252
    here = np.empty(3)
    cur = np.empty((3, 252))
    cur[:, :] = now[1] if throws == 1 else now[0]
    stages[:, throws - 1, :252] = cur
    sub = np.empty((3, keeps_n))
    for t in range(throws - 2, -1, -1):
        keeps = stages[:, throws + t]
        keeps[:, first_roll:] = cur
        for k in range(first_roll - 1, -1, -1):
            for q in range(3):
                s = 0.0
                for f in range(6):
                    s += keeps[q, child[k, f]]
                keeps[q, k] = s / 6.0
        sub[:, 0] = keeps[:, 0]
        for k in range(1, first_roll):
            sub[:, k] = keeps[:, k]
            for i in range(5):
                p = parents[k, i]
                if p < 0:
                    break
                if better(sub[:, p], sub[:, k]):
                    sub[:, k] = sub[:, p]
        stand = now[1] if t == 0 else now[0]
        for r in range(252):
            here[:] = stand[:, r]
            for i in range(5):
                p = parents[first_roll + r, i]
                if p < 0:
                    break
                if better(sub[:, p], here):
                    here[:] = sub[:, p]
            cur[:, r] = here
        stages[:, t, :252] = cur


def row_points(sheet: Sheet) -> tuple[np.ndarray, int, int]:
    """(``values[j, i]``: the points row ``j`` can score, padded with its first; the lowest
    points of any row; the span of points)."""
    points = sheet.points
    found = [np.unique(points[:, j, :]).astype(np.int64) for j in range(points.shape[1])]
    values = np.array([np.pad(v, (0, max(map(len, found)) - len(v)), mode="edge")
                       for v in found])
    pmin = min(0, int(points.min()))
    return values, pmin, int(points.max()) - pmin + 1


# --------------------------------------------------------------------------- the table


@numba.njit(parallel=True, cache=True, nogil=True)
def _layer(states, thetas, E, U, M, Q, values, pmin, span, arrays, ints, yatzy_bonus, cls,
           child, parents, prob):
    """Solve ``states`` for every attitude: U (utility relative to the expected score), M
    and Q (mean and second moment of the points to come)."""
    flags, throws = ints[3], ints[4]
    n = arrays[0].shape[1]
    keeps_n = child.shape[0]
    for s in numba.prange(states.shape[0]):
        mask, ui, y = states[s, 0], states[s, 1], states[s, 2]
        here = E[mask, ui, y]
        cells = np.zeros((n, span, 2, 3))
        now = np.empty((2, 3, 252))
        stages = np.empty((3, 2 * throws, keeps_n))
        for k in range(thetas.shape[0]):
            theta = thetas[k]
            for j in range(n):
                if not mask >> j & 1:
                    continue
                for p in values[j]:
                    for e in range(flags):
                        g, rest, nui, ny = row_written(mask, ui, y, j, p, e, arrays, ints,
                                                       yatzy_bonus)
                        cell = cells[j, p - pmin, e]
                        if rest == 0:
                            cell[0] = np.sign(theta) * np.exp(theta * (g - here))
                            cell[1] = g
                            cell[2] = g * g
                        else:
                            m = M[k, rest, nui, ny]
                            cell[0] = np.exp(theta * (g + E[rest, nui, ny] - here)) * \
                                U[k, rest, nui, ny]
                            cell[1] = g + m
                            cell[2] = g * g + 2 * g * m + Q[k, rest, nui, ny]
            rolls_written(mask, y, cells, pmin, arrays, ints, cls, now)
            turn_back(now, throws, child, parents, stages)
            u = 0.0
            m = 0.0
            q = 0.0
            for r in range(252):
                u += prob[r] * stages[0, 0, r]
                m += prob[r] * stages[1, 0, r]
                q += prob[r] * stages[2, 0, r]
            U[k, mask, ui, y] = u
            M[k, mask, ui, y] = m
            Q[k, mask, ui, y] = q


@dataclass
class RiskTable:
    """The solver's table with, for each attitude ``theta[k]`` and every position between
    turns, the mean and variance of the points to come under that play."""

    table: SolvedTable
    theta: np.ndarray
    means: np.ndarray
    variances: np.ndarray
    seconds: float = 0.0
    from_cache: bool = False

    def mean(self, k: int, p: Position) -> float:
        return float(self.means[k, p.mask, p.upper_index, p.yatzy_holds])

    def variance(self, k: int, p: Position) -> float:
        return float(self.variances[k, p.mask, p.upper_index, p.yatzy_holds])


def risk_table(rules: YatzyRules, cache: bool = True, directory: Path | None = None
               ) -> RiskTable:
    """The risk table of ``rules``: from the disk cache, else computed (and cached)."""
    table = solve(rules, cache=cache, directory=directory)
    started = time.perf_counter()
    path = risk_path(rules, directory)
    if cache and path.exists():
        try:
            with np.load(path) as data:
                theta, means, variances = data["theta"], data["means"], data["variances"]
            touch(path)
            return RiskTable(table, theta, means, variances, time.perf_counter() - started,
                             from_cache=True)
        except (OSError, KeyError, ValueError):
            path.unlink(missing_ok=True)
    means, variances = _compute(table, THETAS)
    result = RiskTable(table, THETAS, means, variances, time.perf_counter() - started)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = partial(path, ".npz")
        np.savez(written, theta=THETAS, means=means, variances=variances)
        written.replace(path)
        keep = [path, *(risk_path(r, path.parent) for r in standard_rules())]
        prune(path.parent, "yatzy_risk-*", env_int("KASTKOPP_CACHE_MB", CACHE_MB) << 20,
              keep=keep)
    return result


def _compute(table: SolvedTable, thetas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sheet, E = table.sheet, table.values
    shape = (len(thetas), *E.shape)
    U, M, Q = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    values, pmin, span = row_points(sheet)
    for solved, copies, source in layers(sheet):
        _layer(np.ascontiguousarray(solved), thetas, E, U, M, Q, values, pmin, span,
               sheet.arrays(), sheet.ints(), float(table.rules.yatzy_bonus), DICE["cls"],
               DICE["child"], DICE["parents"], DICE["prob"])
        for target in (U, M, Q):
            target[:, copies[:, 0], copies[:, 1], copies[:, 2]] = \
                target[:, copies[:, 0], source, copies[:, 2]]
    variances = np.maximum(Q - M * M, 0.0)
    return M.astype(np.float32), variances.astype(np.float32)


def risk_path(rules: YatzyRules, directory: Path | None = None) -> Path:
    """Where the risk table of ``rules`` is cached (beside the solver's table)."""
    return (directory or cache_dir()) / f"yatzy_risk-{RISK_VERSION}-{cache_key(rules)}.npz"

"""Yatzy played to win: every choice by its chance of finishing ahead of an opponent.

Against an opponent whose sheet is known, the best play is the one most likely to end with
more points than theirs, not the one with the most points on average: far behind, a long
shot at a Yatzy can be worth more than a safe row. The opponent is taken to play for the
expected score (as ``bot:optimal`` does), so the exact distribution of their final score
is their total plus the distribution of their position
(:mod:`kastkopp.strategy.yatzy_distribution`).

For every way my turn can end (a row written with some points) the chance of winning is
known if I play for the expected score afterwards: my distribution from the position it
leads to, shifted by my total, against theirs, ties counting half. The turn itself (which
keep, when to stand, which row) is then solved the way the solver solves it, maximising
that chance instead of the points; ties (a game already won or lost) go by the expected
score. Re-planned every turn, this is one step of policy improvement over the optimum.

``bot:towin`` plays heads-up this way. With more players it plays against the opponent
with the highest expected final score (the one to beat); alone it has nobody to beat and
plays for the expected score, as ``bot:optimal``.

>>> finished = Outlook.certain(250)  # an opponent done with 250 points
>>> [round(float(b), 2) for b in finished.beaten()]  # what 250 and 251 points are worth
[0.5, 1.0]
>>> behind = Outlook(240, np.array([0.5, 0.0, 0.5]))  # 240 or 242, even chances
>>> round(behind.mean, 1), [round(float(b), 2) for b in behind.beaten()]
(241.0, [0.25, 0.5, 0.75, 1.0])
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np

from kastkopp.dice import Faces
from kastkopp.engine import Action, Game, IllegalAction, Player
from kastkopp.games import yatzy as ymod
from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy import register_bot
from kastkopp.strategy.work import LRU, Work, env_int
from kastkopp.strategy.yatzy import GreedyYatzyBot
from kastkopp.strategy.yatzy_distribution import (
    DistributionTable,
    distribution_path,
    distributions,
    row_written,
    rows_for,
)
from kastkopp.strategy.yatzy_solver import (
    DICE,
    KEEP_INDEX,
    KEEPS,
    NEG,
    Position,
    _check_dice,
    cache_dir,
    cache_key,
)

TIE = 1e-12  # chances of winning closer than this are the same; the expected score decides
_TABLES: LRU[YatzyRules, DistributionTable] = LRU(env_int("KASTKOPP_SOLVED_TABLES", 6))


def distributions_for(rules: YatzyRules) -> DistributionTable:
    """The distribution table of ``rules``: kept, loaded from the disk cache, or computed."""
    return _TABLES.kept(rules, distributions)


def at_hand(rules: YatzyRules) -> DistributionTable | None:
    """The distribution table of ``rules`` if it is kept or on disk (loaded in a moment),
    else ``None``: nothing is computed."""
    if rules in _TABLES or distribution_path(rules).exists():
        return distributions_for(rules)
    return None


@dataclass(frozen=True)
class Outlook:
    """A final score as a distribution: ``chances[i]`` is the chance of ``low + i``."""

    low: int
    chances: np.ndarray = field(compare=False)

    @classmethod
    def certain(cls, total: float) -> Outlook:
        return cls(round(total), np.ones(1))

    @property
    def mean(self) -> float:
        x = np.arange(self.low, self.low + len(self.chances))
        return float(np.dot(x, self.chances) / self.chances.sum())

    @property
    def variance(self) -> float:
        x = np.arange(self.low, self.low + len(self.chances), dtype=np.float64)
        total = float(self.chances.sum())
        m = float(np.dot(x, self.chances)) / total
        return max(0.0, float(np.dot(x * x, self.chances)) / total - m * m)

    def beaten(self) -> np.ndarray:
        """``b[i]``: the chance that ``low + i`` points beat this score, ties counting half
        (below ``low`` nothing beats it; from ``low + len(b) - 1`` on, everything does)."""
        c = np.asarray(self.chances, dtype=np.float64)
        c = c / c.sum()
        below = np.concatenate([[0.0], np.cumsum(c)])
        return np.concatenate([below[:-1] + c / 2, [1.0]])


@dataclass(frozen=True)
class WinChoice:
    """One choice now: my expected final score (and its spread) and my chance of beating
    the opponent, playing to win this turn and for the expected score after it."""

    choice: str
    expected: float
    sd: float
    win: float

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "expected": self.expected, "sd": self.sd,
                "win": self.win}


def outlook(d: DistributionTable, used: Sequence[str], upper: int, total: float,
            yatzy_zero: bool = False) -> Outlook:
    """An opponent's final score from their sheet between turns (``total``: their points
    so far, bonuses included), played for the expected score."""
    if len(set(used)) >= len(d.table.sheet.rows):
        return Outlook.certain(total)  # their game is over
    return _ahead(d, d.table.position(used, upper, yatzy_zero), total)


def _ahead(d: DistributionTable, p: Position, total: float) -> Outlook:
    low, chances = d.of(p)
    return Outlook(round(total) + low, chances)


# --------------------------------------------------------------------------- the turn


@numba.njit(cache=True, nogil=True)
def _shifted(flat, at, low, length, shift, beat, beat_low, out):
    """out = (chance of winning, mean, second moment) of ``shift`` points plus the run
    ``flat[at:at + length]`` of chances from ``low``, against the ``beat`` table."""
    w = 0.0
    e = 0.0
    m = 0.0
    total = 0.0
    last = beat.shape[0] - 1
    for i in range(length):
        c = float(flat[at + i])
        x = shift + low + i
        b = x - beat_low
        w += c * (beat[b] if 0 <= b <= last else (0.0 if b < 0 else 1.0))
        e += c * x
        m += c * x * x
        total += c
    # the stored chances sum to one only to single precision: a game decided either way
    # must come out exactly 0 or 1, so that the expected score decides between its choices
    out[0] = w / total
    out[1] = e / total
    out[2] = m / total


@numba.njit(cache=True, nogil=True)
def _better(a, b):
    """Whether the choice worth ``a`` (chance, mean, second moment) beats ``b``."""
    if a[0] > b[0] + TIE:
        return True
    return abs(a[0] - b[0]) <= TIE and a[1] > b[1]


@numba.njit(cache=True, nogil=True)
def _ending(mask, ui, y, j, p, e, total, flat, start, low, length, beat, beat_low, arrays,
            ints, yatzy_bonus, out):
    """The value of ending the turn with ``p`` points in row ``j`` (``e``: an extra Yatzy
    paid), counted from my final score."""
    g, rest, nui, ny = row_written(mask, ui, y, j, p, e, arrays, ints, yatzy_bonus)
    shift = total + g
    if rest == 0:
        _shifted(np.ones(1), 0, 0, 1, shift, beat, beat_low, out)
    else:
        _shifted(flat, start[rest, nui, ny], low[rest, nui, ny], length[rest, nui, ny],
                 shift, beat, beat_low, out)


@numba.njit(cache=True, nogil=True)
def _win_turn(mask, ui, y, total, flat, start, low, length, beat, beat_low, arrays, ints,
              yatzy_bonus, cls, child, parents, stages):
    """The solver's turn, maximising the chance of winning: ``stages[:, t]`` is (chance,
    mean, second moment of my final score) of each roll after throw ``t + 1``,
    ``stages[:, throws + t]`` of each keep rerolled for throw ``t + 2``."""
    points, extra = arrays[0], arrays[4]
    flags, throws, first_differs = ints[3], ints[4], ints[5]
    n = points.shape[1]
    pmin = 0
    for v in points.ravel():
        pmin = min(pmin, int(v))
    span = int(points.max()) - pmin + 1
    memo = np.full((n, span, 2, 3), np.nan)
    keeps_n = child.shape[0]
    first_roll = keeps_n - 252
    now = np.empty((2, 3, 252))
    here = np.empty(3)
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
                p = int(points[t, j, r])
                cell = memo[j, p - pmin, e]
                if np.isnan(cell[0]):
                    _ending(mask, ui, y, j, p, e, total, flat, start, low, length, beat,
                            beat_low, arrays, ints, yatzy_bonus, cell)
                if _better(cell, best):
                    best[:] = cell
    if not first_differs:
        now[1, :, :] = now[0, :, :]
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
                if _better(sub[:, p], sub[:, k]):
                    sub[:, k] = sub[:, p]
        stand = now[1] if t == 0 else now[0]
        for r in range(252):
            here[:] = stand[:, r]
            for i in range(5):
                p = parents[first_roll + r, i]
                if p < 0:
                    break
                if _better(sub[:, p], here):
                    here[:] = sub[:, p]
            cur[:, r] = here
        stages[:, t, :252] = cur


def _beat(against: Outlook) -> np.ndarray:
    return against.beaten()


def win_choices(d: DistributionTable, position: Position, faces: Faces, rerolls: int,
                already: float, against: Outlook, stages: np.ndarray | None = None
                ) -> list[WinChoice]:
    """Every choice with dice in hand (each row, each keep when rerolls are left), most
    likely to win first (ties by the expected score). ``stages`` may be the turn's
    (:func:`turn_stages`), kept from an earlier throw of the same turn."""
    table, sheet = d.table, d.table.sheet
    throws = sheet.throws
    throw = throws - rerolls
    total = round(already)
    beat = _beat(against)
    found: list[tuple[str, np.ndarray]] = []
    out = np.empty(3)
    for row, now, after in table.score_moves(position, faces, first_throw=throw == 1):
        shift = total + round(now)
        if after.mask == 0:
            _shifted(np.ones(1), 0, 0, 1, shift, beat, against.low, out)
        else:
            at = (after.mask, after.upper_index, after.yatzy_holds)
            _shifted(d.flat, d.start[at], d.low[at], d.length[at], shift, beat,
                     against.low, out)
        found.append((f"score {row}", out.copy()))
    if rerolls:
        if stages is None:
            stages = turn_stages(d, position, total, against, beat)
        at_throw = throws + throw - 1
        for keep in ymod.sub_multisets(faces):
            if len(keep) < 5:
                name = "keep " + " ".join(map(str, keep)) if keep else "keep"
                found.append((name, stages[:, at_throw, KEEP_INDEX[keep]].copy()))
    choices = [WinChoice(name, float(v[1]), math.sqrt(max(0.0, v[2] - v[1] ** 2)),
                         min(1.0, max(0.0, float(v[0])))) for name, v in found]
    return sorted(choices, key=lambda c: (-round(c.win, 12), -c.expected))


def turn_stages(d: DistributionTable, p: Position, total: int, against: Outlook,
                beat: np.ndarray | None = None) -> np.ndarray:
    """(chance of winning, mean, second moment of my final score) of every roll and keep of
    one turn from ``p`` with ``total`` points on my sheet, played to win this turn."""
    sheet = d.table.sheet
    stages = np.empty((3, 2 * sheet.throws, len(KEEPS)))
    _win_turn(p.mask, p.upper_index, p.yatzy_holds, total, d.flat, d.start, d.low, d.length,
              _beat(against) if beat is None else beat, against.low, sheet.arrays(),
              sheet.ints(),
              float(sheet.rules.yatzy_bonus), DICE["cls"], DICE["child"], DICE["parents"],
              stages)
    return stages


def advise(d: DistributionTable, against: Outlook, used: Sequence[str] = (), upper: int = 0,
           dice: Sequence[int] = (), rerolls: int = 0, yatzy_zero: bool = False,
           already: float = 0.0) -> list[WinChoice]:
    """:func:`win_choices` for a sheet described as the solver's ``advise`` takes it."""
    position = d.table.position(used, upper, yatzy_zero)
    faces = _check_dice(dice)
    throws = d.table.sheet.throws
    if not 0 <= rerolls <= throws - 1:
        raise IllegalAction(f"rerolls left must be 0 to {throws - 1} (a turn has "
                            f"{throws} throws), not {rerolls}")
    return win_choices(d, position, faces, rerolls, already, against)


def seat_position(d: DistributionTable, view: dict[str, Any], seat: int) -> Position | None:
    """The solver's position of a seat's sheet in a view, or ``None`` when every row is
    written (:meth:`SolvedTable.seat_position`)."""
    return d.table.seat_position(view, seat)


def opponent(d: DistributionTable, view: dict[str, Any]) -> Outlook | None:
    """The opponent to beat in a view: the other seat with the highest expected final
    score (``None`` alone)."""
    best: Outlook | None = None
    for other in range(len(view["sheets"])):
        if other == view["seat"]:
            continue
        p = seat_position(d, view, other)
        total = view["totals"][other]
        found = Outlook.certain(total) if p is None else _ahead(d, p, total)
        if best is None or found.mean > best.mean:
            best = found
    return best


def view_choices(d: DistributionTable, view: dict[str, Any],
                 kept: dict[tuple[Any, ...], np.ndarray] | None = None
                 ) -> list[WinChoice] | None:
    """The seat's choices (its own turn, dice in hand) by the chance of winning, or
    ``None`` with nobody to beat. ``kept`` holds the last turn solved: the opponent does
    not move during my turn, so its later throws reuse the solve of the first."""
    against = opponent(d, view)
    seat = view["seat"]
    p = seat_position(d, view, seat)
    if against is None or p is None:
        return None
    rerolls = view["throws"] - view["throw"]
    total = view["totals"][seat]
    stages = None
    if rerolls and kept is not None:
        key = (p.mask, p.upper_index, p.yatzy_holds, round(total), against.low,
               against.chances.tobytes())
        stages = kept.get(key)
        if stages is None:
            stages = turn_stages(d, p, round(total), against)
            kept.clear()
            kept[key] = stages
    return win_choices(d, p, tuple(sorted(view["dice"])), rerolls, total, against, stages)


@dataclass
class TowinYatzyBot(Player):
    """``margin``: how much more likely to win a choice must be than the one with the best
    expected score before the bot takes it instead (0: the most likely win, always)."""

    rules: YatzyRules
    margin: float = 0.0
    # the turn solved at the first throw, for the throws after it (see view_choices)
    _turn: dict[tuple[Any, ...], np.ndarray] = field(default_factory=dict, repr=False,
                                                     compare=False)

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        d = distributions_for(self.rules)
        view = {**view, "seat": view["player"]}
        to_win = view_choices(d, view, self._turn)
        if to_win is not None:
            names = [c.choice for c in to_win]
            safe = max(to_win, key=lambda c: c.expected)
            if to_win[0].win - safe.win < self.margin:
                names.insert(0, safe.choice)
        else:  # alone: the expected score is all there is
            p = seat_position(d, view, view["seat"])
            assert p is not None  # a seat to move has a row open
            names = [c.choice for c in d.table.choices(
                p, tuple(sorted(view["dice"])), view["throws"] - view["throw"])]
        by_name = {str(a): a for a in legal}
        for name in names:
            if name in by_name:
                return by_name[name]
        return legal[0]  # every choice listed is legal; this keeps the bot total

    def work(self, view: dict[str, Any]) -> Work | None:
        return computing(self.rules)

    def cheap(self, view: dict[str, Any], legal: Sequence[Action],
              rng: random.Random) -> Action:
        """Until the tables are ready: the best score this turn (the greedy bot)."""
        return GreedyYatzyBot(self.rules).choose(view, legal, rng)


def computing(rules: YatzyRules) -> Work | None:
    """The distribution table (and the solved table under it) computed in a worker, then
    loaded here from the disk cache (``None``: kept)."""
    if rules in _TABLES:
        return None
    return Work(("yatzy-distribution", cache_key(rules)), _distributions_to_disk,
                (rules, str(cache_dir())), lambda _: _keep(rules))


def _distributions_to_disk(rules: YatzyRules, directory: str) -> None:
    distributions(rules, directory=Path(directory))


def _keep(rules: YatzyRules) -> None:
    if distribution_path(rules).exists():  # loaded from where the worker left it
        _TABLES.put(rules, distributions(rules))


@register_bot("yatzy", "towin", "plays for the best chance of finishing ahead of the "
              "opponent, from the exact distribution of both final scores")
def towin(game: Game) -> Player:
    assert isinstance(game.rules, YatzyRules)
    return TowinYatzyBot(game.rules)

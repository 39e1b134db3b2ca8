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

``bot:towin`` plans further: after the turn in hand, the rest of the game may be played
cautiously or boldly, by any of the whole-game plays of the risk table
(:mod:`kastkopp.strategy.yatzy_risk`), and each way the turn can end is valued by the play
most likely to win from there. Those chances are estimates (each play's final score is the
exact expected-score one moved to the play's mean and stretched to its spread); the advice
(:func:`advise`, the hint) gives the exact chances of the turn planned alone.

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
)
from kastkopp.strategy.yatzy_risk import (
    RiskTable,
    risk_path,
    risk_table,
    rolls_written,
    row_points,
    turn_back,
)
from kastkopp.strategy.yatzy_solver import (
    DICE,
    KEEP_INDEX,
    KEEPS,
    Position,
    _check_dice,
    cache_dir,
    cache_key,
)

TIE = 1e-12  # chances of winning closer than this are the same; the expected score decides
TAIL = 1e-6  # the chance a tail left out of a play's estimated chance of winning may hold
_TABLES: LRU[YatzyRules, DistributionTable] = LRU(env_int("KASTKOPP_SOLVED_TABLES", 6))
_RISKS: LRU[YatzyRules, RiskTable] = LRU(env_int("KASTKOPP_SOLVED_TABLES", 6))


def distributions_for(rules: YatzyRules) -> DistributionTable:
    """The distribution table of ``rules``: kept, loaded from the disk cache, or computed."""
    return _TABLES.kept(rules, distributions)


def risk_for(rules: YatzyRules) -> RiskTable:
    """The risk table of ``rules``: kept, loaded from the disk cache, or computed."""
    return _RISKS.kept(rules, risk_table)


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
def _ending_at(rest, nui, ny, shift, flat, start, low, length, beat, beat_low, means,
               variances, out):
    """The value of ending the turn ``shift`` points up, in the position (``rest``, ``nui``,
    ``ny``): playing for the expected score after it, or, where the risk table has a play
    more likely to win, that play."""
    if rest == 0:
        _shifted(np.ones(1), 0, 0, 1, shift, beat, beat_low, out)
        return
    at, lo, n = start[rest, nui, ny], low[rest, nui, ny], length[rest, nui, ny]
    _shifted(flat, at, lo, n, shift, beat, beat_low, out)
    if means.shape[0] == 0 or not 0.0 < out[0] < 1.0:
        return  # no table, or the game is decided whatever comes
    # Each play's final score is taken as the expected-score play's, moved to its mean and
    # stretched to its spread: the shape (the bonus, the Yatzy) stays that of the exact one.
    m0 = out[1]
    s0 = math.sqrt(max(out[2] - m0 * m0, 0.0))
    if s0 == 0.0:
        return
    # the tails (a millionth of the chance each side) are left out of these estimates
    a, z = at, at + n
    tail = 0.0
    while a < z - 1 and tail + flat[a] < TAIL:
        tail += flat[a]
        a += 1
    tail = 0.0
    while z - 1 > a and tail + flat[z - 1] < TAIL:
        tail += flat[z - 1]
        z -= 1
    chance, mean, second = out[0], out[1], out[2]
    ahead = out[0] >= 0.5
    for k in range(means.shape[0]):
        m = shift + float(means[k, rest, nui, ny])
        v = float(variances[k, rest, nui, ny])
        if (v >= s0 * s0) == ahead:
            continue  # no play makes more points: the leader gains by less spread only
        w = _stretched(flat, a, lo + a - at, z - a, shift, m0, m, math.sqrt(v) / s0, beat,
                       beat_low)
        if w > chance + TIE:
            chance, mean, second = w, m, m * m + v
    out[0] = chance
    out[1] = mean
    out[2] = second


@numba.njit(cache=True, nogil=True)
def _stretched(flat, at, low, length, shift, m0, m, scale, beat, beat_low):
    """The chance of winning with ``shift`` points plus the run of chances, each score
    ``x`` moved to ``m + (x - m0) * scale`` (``beat`` read between its whole points)."""
    w = 0.0
    total = 0.0
    last = beat.shape[0] - 1
    for i in range(length):
        c = float(flat[at + i])
        b = m + (shift + low + i - m0) * scale - beat_low
        if b >= last:
            w += c
        elif b > -1.0:
            f = math.floor(b)
            i0 = int(f)
            below = beat[i0] if i0 >= 0 else 0.0
            w += c * (below + (b - f) * (beat[i0 + 1] - below))
        total += c
    return w / total


@numba.njit(cache=True, nogil=True)
def _win_turn(mask, ui, y, total, flat, start, low, length, beat, beat_low, means, variances,
              values, pmin, span, arrays, ints, yatzy_bonus, cls, child, parents, stages):
    """The solver's turn, maximising the chance of winning: ``stages[:, t]`` is (chance,
    mean, second moment of my final score) of each roll after throw ``t + 1``,
    ``stages[:, throws + t]`` of each keep rerolled for throw ``t + 2``."""
    flags = ints[3]
    n = arrays[0].shape[1]
    cells = np.zeros((n, span, 2, 3))
    now = np.empty((2, 3, 252))
    rolls_written(mask, y, cells, pmin, arrays, ints, cls, now, True)
    for j in range(n):
        if not mask >> j & 1:
            continue
        for p in values[j]:
            for e in range(flags):
                cell = cells[j, p - pmin, e]
                if cell[0] != 1.0:
                    continue  # no roll writes it: not worth a look at the distributions
                g, rest, nui, ny = row_written(mask, ui, y, j, p, e, arrays, ints,
                                               yatzy_bonus)
                _ending_at(rest, nui, ny, total + g, flat, start, low, length, beat,
                           beat_low, means, variances, cell)
    rolls_written(mask, y, cells, pmin, arrays, ints, cls, now)
    turn_back(now, ints[4], child, parents, stages)


def _beat(against: Outlook) -> np.ndarray:
    return against.beaten()


NO_RISK = np.zeros((0, 1, 1, 1), dtype=np.float32)


def _plays(risk: RiskTable | None) -> tuple[np.ndarray, np.ndarray]:
    """The means and variances of the risk table's plays (none without one)."""
    return (NO_RISK, NO_RISK) if risk is None else (risk.means, risk.variances)


def win_choices(d: DistributionTable, position: Position, faces: Faces, rerolls: int,
                already: float, against: Outlook, stages: np.ndarray | None = None,
                risk: RiskTable | None = None) -> list[WinChoice]:
    """Every choice with dice in hand (each row, each keep when rerolls are left), most
    likely to win first (ties by the expected score). ``stages`` may be the turn's
    (:func:`turn_stages`), kept from an earlier throw of the same turn. With ``risk``, the
    rest of the game after each choice may be played cautiously or boldly (the play most
    likely to win); without, it is played for the expected score."""
    table, sheet = d.table, d.table.sheet
    throws = sheet.throws
    throw = throws - rerolls
    total = round(already)
    beat = _beat(against)
    means, variances = _plays(risk)
    found: list[tuple[str, np.ndarray]] = []
    out = np.empty(3)
    for row, now, after in table.score_moves(position, faces, first_throw=throw == 1):
        _ending_at(after.mask, after.upper_index, after.yatzy_holds, total + round(now),
                   d.flat, d.start, d.low, d.length, beat, against.low, means, variances,
                   out)
        found.append((f"score {row}", out.copy()))
    if rerolls:
        if stages is None:
            stages = turn_stages(d, position, total, against, beat, risk)
        at_throw = throws + throw - 1
        for keep in ymod.sub_multisets(faces):
            if len(keep) < 5:
                name = "keep " + " ".join(map(str, keep)) if keep else "keep"
                found.append((name, stages[:, at_throw, KEEP_INDEX[keep]].copy()))
    choices = [WinChoice(name, float(v[1]), math.sqrt(max(0.0, v[2] - v[1] ** 2)),
                         min(1.0, max(0.0, float(v[0])))) for name, v in found]
    return sorted(choices, key=lambda c: (-round(c.win, 12), -c.expected))


def turn_stages(d: DistributionTable, p: Position, total: int, against: Outlook,
                beat: np.ndarray | None = None, risk: RiskTable | None = None
                ) -> np.ndarray:
    """(chance of winning, mean, second moment of my final score) of every roll and keep of
    one turn from ``p`` with ``total`` points on my sheet, played to win this turn (and,
    with ``risk``, the rest of the game by the play most likely to win)."""
    sheet = d.table.sheet
    stages = np.empty((3, 2 * sheet.throws, len(KEEPS)))
    values, pmin, span = row_points(sheet)
    _win_turn(p.mask, p.upper_index, p.yatzy_holds, total, d.flat, d.start, d.low, d.length,
              _beat(against) if beat is None else beat, against.low, *_plays(risk),
              values, pmin, span, sheet.arrays(),
              sheet.ints(), float(sheet.rules.yatzy_bonus), DICE["cls"], DICE["child"],
              DICE["parents"], stages)
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
                 kept: dict[tuple[Any, ...], np.ndarray] | None = None,
                 risk: RiskTable | None = None) -> list[WinChoice] | None:
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
            stages = turn_stages(d, p, round(total), against, risk=risk)
            kept.clear()
            kept[key] = stages
    return win_choices(d, p, tuple(sorted(view["dice"])), rerolls, total, against, stages,
                       risk)


@dataclass
class TowinYatzyBot(Player):
    """``margin``: how much more likely to win a choice must be than the one with the best
    expected score before the bot takes it instead (0: the most likely win, always).
    ``ahead``: whether the rest of the game is planned too (cautiously or boldly, by the
    risk table), or played for the expected score after the turn in hand."""

    rules: YatzyRules
    margin: float = 0.0
    ahead: bool = True
    # the turn solved at the first throw, for the throws after it (see view_choices)
    _turn: dict[tuple[Any, ...], np.ndarray] = field(default_factory=dict, repr=False,
                                                     compare=False)

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        d = distributions_for(self.rules)
        view = {**view, "seat": view["player"]}
        to_win = view_choices(d, view, self._turn,
                              risk_for(self.rules) if self.ahead else None)
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
    """The distribution and risk tables (and the solved table under them) computed in a
    worker, then loaded here from the disk cache (``None``: kept)."""
    if rules in _TABLES and rules in _RISKS:
        return None
    return Work(("yatzy-distribution", cache_key(rules)), _tables_to_disk,
                (rules, str(cache_dir())), lambda _: _keep(rules))


def _tables_to_disk(rules: YatzyRules, directory: str) -> None:
    distributions(rules, directory=Path(directory))
    risk_table(rules, directory=Path(directory))


def _keep(rules: YatzyRules) -> None:
    # loaded from where the worker left them
    if distribution_path(rules).exists():
        _TABLES.put(rules, distributions(rules))
    if risk_path(rules).exists():
        _RISKS.put(rules, risk_table(rules))


@register_bot("yatzy", "towin", "plays for the best chance of finishing ahead of the "
              "opponent, from the exact distribution of both final scores, the rest of "
              "the game cautiously or boldly as the scores stand")
def towin(game: Game) -> Player:
    assert isinstance(game.rules, YatzyRules)
    return TowinYatzyBot(game.rules)

"""Yatzy played to win: every choice by its chance of finishing ahead of an opponent.

Against an opponent whose sheet is known, the best play is the one most likely to end with
more points than theirs, not the one with the most points on average: far behind, a long
shot at a Yatzy can be worth more than a safe row. For each choice this module takes the
mean and the variance of my final score if I make it and then play for the expected score
(:mod:`kastkopp.strategy.yatzy_moments`), the mean and the variance of the opponent's final
score from their sheet under the same play, and, taking both as normal, the chance that
mine is higher (plus half the chance of a tie): the mean-variance method.

``bot:towin`` plays heads-up this way. With more players it plays against the opponent
with the highest expected final score (the one to beat); alone it has nobody to beat and
plays for the expected score, as ``bot:optimal``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kastkopp.dice import Faces
from kastkopp.engine import Action, Game, IllegalAction, Player
from kastkopp.games import yatzy as ymod
from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy import register_bot
from kastkopp.strategy.work import LRU, Work, env_int
from kastkopp.strategy.yatzy import GreedyYatzyBot
from kastkopp.strategy.yatzy_moments import MomentTable, moments, moments_path, normal_win
from kastkopp.strategy.yatzy_solver import KEEP_INDEX, Position, _check_dice, cache_dir, cache_key

MARGIN = 0.01
_MOMENTS: LRU[YatzyRules, MomentTable] = LRU(env_int("KASTKOPP_SOLVED_TABLES", 6))


def moments_for(rules: YatzyRules) -> MomentTable:
    """The moment table of ``rules``: kept, loaded from the disk cache, or computed."""
    found = _MOMENTS.get(rules)
    if found is None:
        found = moments(rules)
        _MOMENTS.put(rules, found)
    return found


def at_hand(rules: YatzyRules) -> MomentTable | None:
    """The moment table of ``rules`` if it is kept or on disk (loaded in a moment), else
    ``None``: nothing is computed."""
    if rules in _MOMENTS or moments_path(rules).exists():
        return moments_for(rules)
    return None


@dataclass(frozen=True)
class Outlook:
    """A final score as a mean and a variance."""

    mean: float
    variance: float


@dataclass(frozen=True)
class WinChoice:
    """One choice now: my expected final score and my chance of beating the opponent."""

    choice: str
    expected: float
    sd: float
    win: float

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "expected": self.expected, "sd": self.sd,
                "win": self.win}


def outlook(m: MomentTable, used: Sequence[str], upper: int, total: float,
            yatzy_zero: bool = False) -> Outlook:
    """An opponent's final score from their sheet between turns (``total``: their points
    so far, bonuses included), played for the expected score."""
    if len(set(used)) >= len(m.table.sheet.rows):
        return Outlook(float(total), 0.0)  # their game is over
    p = m.table.position(used, upper, yatzy_zero)
    return Outlook(total + m.mean(p), m.variance(p))


def win_choices(m: MomentTable, position: Position, faces: Faces, rerolls: int,
                already: float, against: Outlook) -> list[WinChoice]:
    """Every choice with dice in hand (each row, each keep when rerolls are left), most
    likely to win first (ties by the expected score)."""
    table = m.table
    throws = table.sheet.throws
    throw = throws - rerolls
    found: list[tuple[str, float, float]] = []  # choice, E and M of the points to come
    for row, now, after in table.score_moves(position, faces, first_throw=throw == 1):
        e = table.value(after)
        second = float(m.second[after.mask, after.upper_index, after.yatzy_holds])
        found.append((f"score {row}", now + e, now * now + 2 * now * e + second))
    if rerolls:
        stages_e, stages_m = m.turn_stages(position)
        at = throws + throw - 1
        for keep in ymod.sub_multisets(faces):
            if len(keep) < 5:
                k = KEEP_INDEX[keep]
                name = "keep " + " ".join(map(str, keep)) if keep else "keep"
                found.append((name, float(stages_e[at, k]), float(stages_m[at, k])))
    out = []
    for name, e, second in found:
        variance = max(0.0, second - e * e)
        win = normal_win(already + e - against.mean, variance + against.variance)
        out.append(WinChoice(name, already + e, math.sqrt(variance), win))
    return sorted(out, key=lambda c: (-c.win, -c.expected))


def advise(m: MomentTable, against: Outlook, used: Sequence[str] = (), upper: int = 0,
           dice: Sequence[int] = (), rerolls: int = 0, yatzy_zero: bool = False,
           already: float = 0.0) -> list[WinChoice]:
    """:func:`win_choices` for a sheet described as the solver's ``advise`` takes it."""
    position = m.table.position(used, upper, yatzy_zero)
    faces = _check_dice(dice)
    throws = m.table.sheet.throws
    if not 0 <= rerolls <= throws - 1:
        raise IllegalAction(f"rerolls left must be 0 to {throws - 1} (a turn has "
                            f"{throws} throws), not {rerolls}")
    return win_choices(m, position, faces, rerolls, already, against)


def seat_position(m: MomentTable, view: dict[str, Any], seat: int) -> Position | None:
    """The solver's position of a seat's sheet in a view (the game's own sheet, so a legal
    one: no checking again), or ``None`` when every row is written."""
    sheet = m.table.sheet
    cells = view["sheets"][seat]
    mask = sum(1 << j for j, cell in enumerate(cells) if cell is None)
    if mask == 0:
        return None
    upper = min(max(view["upper"][seat], sheet.low), sheet.high) - sheet.low
    written = cells[sheet.yatzy_row]
    holds = int(sheet.flags == 2 and written is not None and written not in (0, "-"))
    return Position(mask, upper, holds)


def opponent(m: MomentTable, view: dict[str, Any]) -> Outlook | None:
    """The opponent to beat in a view: the other seat with the highest expected final
    score (``None`` alone)."""
    best: Outlook | None = None
    for other in range(len(view["sheets"])):
        if other == view["seat"]:
            continue
        p = seat_position(m, view, other)
        total = view["totals"][other]
        found = Outlook(float(total), 0.0) if p is None else \
            Outlook(total + m.mean(p), m.variance(p))
        if best is None or found.mean > best.mean:
            best = found
    return best


def view_choices(m: MomentTable, view: dict[str, Any]) -> list[WinChoice] | None:
    """The seat's choices (its own turn, dice in hand) by the chance of winning, or
    ``None`` with nobody to beat."""
    against = opponent(m, view)
    seat = view["seat"]
    p = seat_position(m, view, seat)
    if against is None or p is None:
        return None
    rerolls = view["throws"] - view["throw"]
    return win_choices(m, p, tuple(sorted(view["dice"])), rerolls, view["totals"][seat],
                       against)


@dataclass
class TowinYatzyBot(Player):
    """``margin``: how much more likely to win a choice must be than the one with the best
    expected score before the bot takes it instead (the normal approximation is rough, and
    a small gain it sees may not be there). One percentage point measured better than none:
    see ``docs/solvers.md``."""

    rules: YatzyRules
    margin: float = MARGIN

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        m = moments_for(self.rules)
        view = {**view, "seat": view["player"]}
        to_win = view_choices(m, view)
        if to_win is not None:
            names = [c.choice for c in to_win]
            safe = max(to_win, key=lambda c: c.expected)
            if to_win[0].win - safe.win < self.margin:
                names.insert(0, safe.choice)
        else:  # alone: the expected score is all there is
            p = seat_position(m, view, view["seat"])
            assert p is not None  # a seat to move has a row open
            names = [c.choice for c in m.table.choices(
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
    """The moment table (and the solved table under it) computed in a worker, then loaded
    here from the disk cache (``None``: kept)."""
    if rules in _MOMENTS:
        return None
    return Work(("yatzy-moments", cache_key(rules)), _moments_to_disk,
                (rules, str(cache_dir())), lambda _: _keep(rules))


def _moments_to_disk(rules: YatzyRules, directory: str) -> None:
    moments(rules, directory=Path(directory))


def _keep(rules: YatzyRules) -> None:
    if moments_path(rules).exists():  # loaded from where the worker left it
        _MOMENTS.put(rules, moments(rules))


@register_bot("yatzy", "towin", "plays for the best chance of finishing ahead of the "
              "opponent, from the mean and spread of both final scores")
def towin(game: Game) -> Player:
    assert isinstance(game.rules, YatzyRules)
    return TowinYatzyBot(game.rules)

"""Heads-up Knack, solved exactly: what to keep, when to raise and how much, when to fold.

In Knack every die lies open, so two players play a stochastic game of perfect
information: at every moment both know everything there is to know. Such a game has a
value in every position and a best move for the player to move, found by backward
induction. Here a position is the dice each player has kept (nothing, one die or a pair)
and the stake — what each has paid in, the same for both whenever a throw starts — and
the induction runs over the throws, which can go on for ever when nobody makes three of a
kind; the values are the fixed point of one throw, reached by iterating it (each throw
ends the game with a chance of at least 1 − (35/36)², so the error shrinks by that factor).

One throw, as :mod:`kastkopp.games.knack` plays it:

1. Both throw the dice they have not kept (:func:`kastkopp.dice.multisets`). Three of a
   kind wins the pot, the higher triple if both make one, equal triples share it.
2. A pair stays on the table; without one, seat 0 keeps a die or rerolls, then seat 1,
   having seen it (each picks the best for himself).
3. The worst placed (:func:`kastkopp.games.knack.position`; seat 0 on equal positions)
   knocks — the next throw at the same stake — or raises, at most what the table's ledger
   (:class:`kastkopp.games.stakes.Ledger`) allows. The other calls (the next throw at the
   higher stake) or folds, losing what he has paid in; a raise he cannot pay, he must
   fold to.
4. When a throw wins the pot, the loser may ask for a double knock and the winner accept
   or refuse it; the double knock's chance (:func:`kastkopp.games.knack.double_knock_chance`)
   makes asking a loss for the loser whenever it is accepted, so it never changes a value,
   but the solution says so rather than assuming it.

Payoffs are koppar: seat 0's value is what he expects to win from seat 1.
``throws`` limits the game to that many throws (a pot nobody has won by then is shared):
the same induction, stopped early, which is what a brute-force expectation over the
module's own table can check.

Usage::

    >>> from kastkopp.games.knack import KnackRules
    >>> solution = solve(KnackRules.make(purse=4))
    >>> solution.residual < 1e-9
    True

A pair of 6s against a pair of 5s at the ante: the 5s bet first and knock, and the race
is worth 2 × 0.5455 − 1 of the 1 koppar each has in (:func:`kastkopp.games.knack.equities`)::

    >>> round(solution.value(1, (6, 6), (5, 5)), 4)
    0.0909
    >>> max(solution.raise_values(1, (6, 6), (5, 5)).items(), key=lambda kv: -kv[1])[0]
    0
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from kastkopp.dice import Faces, multisets
from kastkopp.engine import Action, Player, RuleError
from kastkopp.games.knack import (
    DOUBLE_KNOCK_SUM,
    DoubleKnock,
    Keep,
    KnackRules,
    Knock,
    Pass,
    Reroll,
    pair,
    position,
    triple,
)
from kastkopp.games.stakes import Accept, Call, Fold, Ledger, Raise, Refuse
from kastkopp.strategy.knack_odds import double_knock_chance

Array = np.ndarray

# What a player can have left on the table when a throw starts: nothing, a die, a pair.
KEPT: tuple[Faces, ...] = ((), *((f,) for f in range(1, 7)), *((f, f) for f in range(1, 7)))
KEPT_INDEX = {k: i for i, k in enumerate(KEPT)}


@dataclass(frozen=True)
class Result:
    """What one player's throw comes to: three of a kind (``triple``), or the dice he may
    leave on the table (one choice for a pair, four without one)."""

    triple: int  # the face of three of a kind, 0 if none
    options: tuple[Faces, ...]


def _result(dice: Faces) -> Result:
    face = triple(dice)
    if face is not None:
        return Result(face, ())
    paired = pair(dice)
    if paired is not None:
        return Result(0, ((paired, paired),))
    return Result(0, (*((f,) for f in sorted(set(dice))), ()))


@lru_cache(maxsize=1)
def throws() -> tuple[tuple[Result, ...], Array]:
    """Every result of a throw, and the chance of each from every kept position."""
    results: dict[Result, int] = {}
    chances: dict[tuple[int, int], float] = {}
    for k, kept in enumerate(KEPT):
        for faces, p in multisets(3 - len(kept)):
            result = _result(tuple(sorted(kept + faces, reverse=True)))
            r = results.setdefault(result, len(results))
            chances[k, r] = chances.get((k, r), 0.0) + float(p)
    matrix = np.zeros((len(KEPT), len(results)))
    for (k, r), chance in chances.items():
        matrix[k, r] = chance
    return tuple(results), matrix


# --------------------------------------------------------------------------- stakes


@dataclass(frozen=True, eq=False)
class Stakes:
    """What the ledger allows at each stake (both players having paid ``stakes[i]``)."""

    stakes: tuple[int, ...]
    # (stake, bettor) -> every raise he may make, and whether the other can pay it
    raises: dict[tuple[int, int], tuple[tuple[int, bool], ...]]
    double: dict[int, bool]  # may the loser of a pot at this stake ask for a double knock?

    @staticmethod
    def of(rules: KnackRules) -> Stakes:
        if rules.all_in != "no":
            raise RuleError("the Knack solver plays without all-in (all_in=no)")
        purses = rules.stacks(2)
        top = max(purses)
        stakes = tuple(range(rules.ante, top + 1))
        raises: dict[tuple[int, int], tuple[tuple[int, bool], ...]] = {}
        double: dict[int, bool] = {}
        for c in stakes:
            if any(c > p for p in purses):
                continue
            ledger = Ledger(2, stacks=purses).ante_all(rules.ante)
            for seat in (0, 1):
                if c > rules.ante:
                    ledger = ledger.bet(seat, c - rules.ante)
            ledger = ledger.new_round()
            for seat in (0, 1):
                other = 1 - seat
                cap = 0 if ledger.all_in(other) else ledger.max_raise(seat)
                raises[c, seat] = tuple((r, ledger.can_pay(other, r)) for r in range(1, cap + 1))
            settled = ledger.settle([(0,), (1,)])
            share = ledger.pot // 2
            double[c] = (rules.double_knock and share > 0 and settled.can_pay(0, share)
                         and settled.can_pay(1, share))
        return Stakes(tuple(c for c in stakes if (c, 0) in raises), raises, double)


# --------------------------------------------------------------------------- the solution


@dataclass
class KnackSolution:
    """Seat 0's value at the start of every throw, by stake and kept dice."""

    rules: KnackRules
    stakes: Stakes
    start: Array  # [stake index, kept of seat 0, kept of seat 1]
    residual: float = 0.0  # how far the values are from the fixed point of a throw
    iterations: int = 0
    seconds: float = 0.0
    _bet: Array | None = field(default=None, repr=False)

    def index(self, stake: int) -> int:
        return self.stakes.stakes.index(stake)

    def value(self, stake: int, kept0: Faces, kept1: Faces) -> float:
        """Seat 0's value when a throw starts at this stake with these dice kept."""
        return float(self.start[self.index(stake), KEPT_INDEX[kept0], KEPT_INDEX[kept1]])

    @property
    def first_value(self) -> float:
        """Seat 0's value of the game: the first throw, at the ante."""
        return self.value(self.rules.ante, (), ())

    def double_knock(self, stake: int) -> tuple[float, float]:
        """What asking for a double knock is worth to the loser if it is accepted, and
        what granting it is worth to the winner (both per pot won at ``stake``)."""
        q = float(double_knock_chance())
        share = stake  # the pot of 2 × stake split between two players
        return (2 * q - 1) * share, (1 - 2 * q) * share

    def won(self, stake: int) -> float:
        """What the winner of a pot at ``stake`` takes from the loser, the double knock
        played as solved."""
        ask, grant = self.double_knock(stake)
        if not self.stakes.double[stake]:
            return float(stake)
        # the winner grants only what gains; the loser asks only when that gains
        loser_extra = ask if grant >= 0 else 0.0
        return float(stake) - max(0.0, loser_extra)

    def bet_values(self) -> Array:
        """Seat 0's value once the dice are kept, before the worst placed bets."""
        if self._bet is None:
            self._bet = _bet(self.stakes, self.start)
        return self._bet

    def bet_value(self, stake: int, kept0: Faces, kept1: Faces) -> float:
        return float(self.bet_values()[self.index(stake), KEPT_INDEX[kept0], KEPT_INDEX[kept1]])

    def raise_values(self, stake: int, kept0: Faces, kept1: Faces) -> dict[int, float]:
        """For each raise the worst placed may make: seat 0's value once it is answered
        as well as the other can (0 stands for knocking)."""
        i = self.index(stake)
        k0, k1 = KEPT_INDEX[kept0], KEPT_INDEX[kept1]
        worst = _worst(kept0, kept1)
        out = {0: float(self.start[i, k0, k1])}
        for r, payable in self.stakes.raises[stake, worst]:
            fold = float(stake) if worst == 0 else -float(stake)
            if not payable:
                out[r] = fold
                continue
            call = float(self.start[self.index(stake + r), k0, k1])
            out[r] = min(call, fold) if worst == 0 else max(call, fold)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"game": "knack", "players": 2, "rules": self.rules.to_json(),
                "first_value": self.first_value, "residual": self.residual,
                "iterations": self.iterations, "seconds": self.seconds,
                "double_knock": {"ask": False, "grant": True,
                                 "asking_costs_per_stake": -self.double_knock(1)[0]},
                "positions": positions_summary(self)}


def _worst(kept0: Faces, kept1: Faces) -> int:
    """Who bets: the worse position, seat 0 when they are equal (as the table decides)."""
    return min((0, 1), key=lambda s: (position((kept0, kept1)[s]), s))


WORST = np.array([[_worst(a, b) for b in KEPT] for a in KEPT])


def _bet(stakes: Stakes, start: Array) -> Array:
    """Seat 0's value at the betting, from the values of the next throw at every stake."""
    n = len(stakes.stakes)
    out = start.copy()  # knocking
    for worst in (0, 1):
        table = _raise_table(stakes, worst)
        if table is None:
            continue
        target, payable, valid = table
        mask = worst == WORST
        here = start[:, mask]  # [stake, positions where ``worst`` bets]
        fold = np.array(stakes.stakes, dtype=float)[:, None, None] * (1 if worst == 0 else -1)
        call = here[target]  # [stake, raise, position]
        if worst == 0:
            answered = np.where(payable[:, :, None], np.minimum(call, fold), fold)
            best = np.where(valid[:, :, None], answered, -np.inf).max(axis=1)
            out[:, mask] = np.maximum(here, best)
        else:
            answered = np.where(payable[:, :, None], np.maximum(call, fold), fold)
            best = np.where(valid[:, :, None], answered, np.inf).min(axis=1)
            out[:, mask] = np.minimum(here, best)
    assert out.shape[0] == n
    return out


@lru_cache(maxsize=32)
def _raise_table(stakes: Stakes, worst: int) -> tuple[Array, Array, Array] | None:
    """For the bettor ``worst`` at every stake and raise: the stake index a call leads to,
    whether the other can pay it, and whether the raise is allowed at all."""
    n = len(stakes.stakes)
    most = max((len(stakes.raises[c, worst]) for c in stakes.stakes), default=0)
    if most == 0:
        return None
    target = np.zeros((n, most), dtype=int)
    payable = np.zeros((n, most), dtype=bool)
    valid = np.zeros((n, most), dtype=bool)
    for i, c in enumerate(stakes.stakes):
        for j, (r, can) in enumerate(stakes.raises[c, worst]):
            valid[i, j] = True
            payable[i, j] = can and i + r < n
            target[i, j] = i + r if payable[i, j] else i
    return target, payable, valid


def _terminal(stakes: Stakes, results: tuple[Result, ...], won: list[float]) -> Array:
    """Seat 0's payoff when a throw ends the game, by stake and the two results (NaN where
    nobody made three of a kind)."""
    t = np.array([r.triple for r in results])
    sign = np.sign(np.subtract.outer(t, t)).astype(float)
    ended = np.add.outer(t, t) > 0
    return np.where(ended[None], sign[None] * np.array(won)[:, None, None], np.nan)


def _options_mask(results: tuple[Result, ...]) -> Array:
    mask = np.zeros((len(results), len(KEPT)), dtype=bool)
    for r, result in enumerate(results):
        for kept in result.options:
            mask[r, KEPT_INDEX[kept]] = True
    return mask


def iterate(rules: KnackRules, stakes: Stakes, start: Array, won: list[float]) -> Array:
    """One throw: the values at its start from those at the start of the next."""
    results, chance = throws()
    options = _options_mask(results)
    bet = _bet(stakes, start)
    # seat 1 keeps last, having seen seat 0's choice: the worst for seat 0 among his options
    answer = np.where(options[None, None, :, :], bet[:, :, None, :], np.inf).min(axis=-1)
    # seat 0 keeps first: the best of his options, answered
    kept = np.where(options.T[None, :, :, None], answer[:, :, None, :], -np.inf).max(axis=1)
    terminal = _terminal(stakes, results, won)
    after = np.where(np.isnan(terminal), kept, terminal)
    after = np.where(np.isfinite(after), after, 0.0)  # results that never come together
    return chance @ after @ chance.T


def solve(rules: KnackRules, throws_limit: int | None = None, tolerance: float = 1e-12,
          max_iterations: int = 5_000) -> KnackSolution:
    """Solve heads-up Knack under ``rules`` by iterating one throw to its fixed point (or
    ``throws_limit`` times, for the game cut off after that many throws)."""
    started = time.perf_counter()
    stakes = Stakes.of(rules)
    solution = KnackSolution(rules, stakes, np.zeros((len(stakes.stakes), len(KEPT), len(KEPT))))
    won = [solution.won(c) for c in stakes.stakes]
    start = solution.start
    limit = throws_limit if throws_limit is not None else max_iterations
    residual = np.inf
    for step in range(limit):
        new = iterate(rules, stakes, start, won)
        residual = float(np.max(np.abs(new - start)))
        start = new
        solution.iterations = step + 1
        if throws_limit is None and residual < tolerance:
            break
    solution.start = start
    solution.residual = residual if throws_limit is None else 0.0
    solution.seconds = time.perf_counter() - started
    return solution


@lru_cache(maxsize=8)
def solution_for(rules: KnackRules) -> KnackSolution:
    """The solved game for ``rules``, once per process."""
    return solve(rules)


def best_raise(options: dict[int, float], sign: int) -> int:
    """The bettor's choice among ``options`` (0: knock), ``sign`` 1 for seat 0 and -1 for
    seat 1: the best value, and of equal values (to 1e-9) the smallest raise."""
    return max(options, key=lambda r: (round(sign * options[r], 9), -r))


def positions_summary(solution: KnackSolution) -> list[dict[str, Any]]:
    """At the ante, for each pair of kept positions: seat 0's value and what the worst
    placed does (knock or the raise he makes)."""
    rows = []
    c = solution.rules.ante
    for kept0 in KEPT:
        for kept1 in KEPT:
            options = solution.raise_values(c, kept0, kept1)
            worst = _worst(kept0, kept1)
            sign = 1 if worst == 0 else -1
            best = best_raise(options, sign)
            rows.append({"seat0": list(kept0), "seat1": list(kept1),
                         "value": solution.bet_value(c, kept0, kept1),
                         "bettor": worst, "raise": best})
    return rows


__all__ = ["DOUBLE_KNOCK_SUM", "KnackSolution", "match_value", "solution_for", "solve"]


# --------------------------------------------------------------------------- playing it off


def match_value(rules: KnackRules, players: tuple[Player, Player],
                tolerance: float = 1e-12, max_iterations: int = 5_000) -> float:
    """Seat 0's exact expected winnings when two bots play one pot of heads-up Knack.

    The same throw as the solver's, but every choice is asked of the bots themselves, once
    for every position, from the view their seat would have there (the bots of Knack
    choose without chance, so one answer per position is the whole of their play). Then
    the values are iterated to their fixed point, as the solver's are.
    """
    stakes = Stakes.of(rules)
    results, chance = throws()
    purses = rules.stacks(2)
    n = len(stakes.stakes)
    ask = _Asker(players, purses)
    won = [[_pot_won(ask, c, winner) for c in stakes.stakes] for winner in (0, 1)]
    first = np.zeros((n, len(results), len(results)), dtype=int)
    second = np.zeros((n, len(KEPT), len(results)), dtype=int)
    for i, c in enumerate(stakes.stakes):
        for r1, theirs in enumerate(results):
            for r0, mine in enumerate(results):
                if not mine.triple and not theirs.triple:
                    first[i, r0, r1] = KEPT_INDEX[ask.keep(0, c, mine, theirs, ())]
            for k0, kept0 in enumerate(KEPT):
                if not theirs.triple:
                    second[i, k0, r1] = KEPT_INDEX[ask.keep(1, c, theirs, None, kept0)]
    # the betting: knock (target = the same stake), a called raise, or a fold
    target = np.zeros((n, len(KEPT), len(KEPT)), dtype=int)
    folded = np.zeros((n, len(KEPT), len(KEPT)))
    is_fold = np.zeros((n, len(KEPT), len(KEPT)), dtype=bool)
    for i, c in enumerate(stakes.stakes):
        for k0, kept0 in enumerate(KEPT):
            for k1, kept1 in enumerate(KEPT):
                worst = int(WORST[k0, k1])
                r, called = ask.bet(stakes, c, worst, kept0, kept1)
                target[i, k0, k1] = stakes.stakes.index(c + r) if called else i
                is_fold[i, k0, k1] = not called
                folded[i, k0, k1] = c if worst == 0 else -c
    t = np.array([r.triple for r in results])
    ended = np.add.outer(t, t) > 0
    sign = np.sign(np.subtract.outer(t, t))
    terminal = np.where(sign[None] > 0, np.array(won[0])[:, None, None],
                        -np.array(won[1])[:, None, None]) * (sign[None] != 0)
    k0s, k1s = np.arange(len(KEPT))[:, None], np.arange(len(KEPT))[None, :]
    start = np.zeros((n, len(KEPT), len(KEPT)))
    stake_index = np.arange(n)[:, None, None]
    for _ in range(max_iterations):
        bet = np.where(is_fold, folded, start[target, k0s, k1s])
        chosen = second[stake_index, first, np.arange(len(results))[None, None, :]]
        after = np.where(ended[None], terminal, bet[stake_index, first, chosen])
        new = chance @ after @ chance.T
        residual = float(np.max(np.abs(new - start)))
        start = new
        if residual < tolerance:
            break
    return float(start[stakes.stakes.index(rules.ante), KEPT_INDEX[()], KEPT_INDEX[()]])


def _dice_for(result: Result) -> list[int]:
    """Dice that make ``result``: the three faces, a pair with another die, or a triple."""
    if result.triple:
        return [result.triple] * 3
    if len(result.options) == 1:
        face = result.options[0][0]
        return sorted([face, face, 1 if face != 1 else 2], reverse=True)
    return sorted((k[0] for k in result.options if k), reverse=True)


@dataclass
class _Asker:
    """Asks the two bots, from the views their seats would have."""

    players: tuple[Player, Player]
    purses: tuple[int, ...]

    def view(self, phase: str, seat: int, paid: tuple[int, int], kept: tuple[Faces, Faces],
             dice: tuple[list[int], list[int]] = ([], []), **extra: Any) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": "knack", "seat": seat, "phase": phase, "to_move": seat,
            "dice": [list(d) for d in dice], "kept": [list(k) for k in kept],
            "folded": [], "pot": sum(paid), "paid_in": list(paid),
            "purses": [p - q for p, q in zip(self.purses, paid, strict=True)],
            "winners": [], "won": 0, "share": 0, "asker": None, "history": []}
        view.update(extra)
        return view

    def choose(self, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        action = self.players[seat].choose(view, legal, random.Random(0))
        if action not in legal:
            raise ValueError(f"the bot chose {action}, not one of {legal}")
        return action

    def keep(self, seat: int, c: int, mine: Result, theirs: Result | None,
             kept0: Faces) -> Faces:
        if len(mine.options) == 1:
            return mine.options[0]
        if seat == 0:
            assert theirs is not None
            other: Faces = theirs.options[0] if len(theirs.options) == 1 else ()
            view = self.view("keep", 0, (c, c), ((), other),
                             (_dice_for(mine), _dice_for(theirs)))
        else:
            view = self.view("keep", 1, (c, c), (kept0, ()), ([], _dice_for(mine)))
        legal: list[Action] = [*(Keep(f) for f in sorted({k[0] for k in mine.options if k})),
                               Reroll()]
        action = self.choose(seat, view, legal)
        return (action.face,) if isinstance(action, Keep) else ()

    def bet(self, stakes: Stakes, c: int, worst: int, kept0: Faces, kept1: Faces
            ) -> tuple[int, bool]:
        """The raise the worst placed makes (0: he knocks), and whether it is called."""
        raises = stakes.raises[c, worst]
        legal: list[Action] = [Knock(), *(Raise(r) for r, _ in raises)]
        view = self.view("bet", worst, (c, c), (kept0, kept1), worst=worst, to_call=0,
                         max_raise=len(raises))
        action = self.choose(worst, view, legal)
        if not isinstance(action, Raise):
            return 0, True
        r = action.amount
        payable = dict(raises)[r]
        other = 1 - worst
        paid = (c + r, c) if worst == 0 else (c, c + r)
        answers: list[Action] = [Call(), Fold()] if payable else [Fold()]
        view = self.view("respond", other, paid, (kept0, kept1), worst=worst, to_call=r,
                         max_raise=0)
        return r, isinstance(self.choose(other, view, answers), Call)


def _pot_won(ask: _Asker, c: int, winner: int) -> float:
    """What the winner of a pot at stake ``c`` takes, the double knock asked of the bots."""
    loser = 1 - winner
    paid = (c, c)
    view = ask.view("double", loser, paid, ((), ()), winners=[winner], share=c)
    if not isinstance(ask.choose(loser, view, [DoubleKnock(), Pass()]), DoubleKnock):
        return float(c)
    view = ask.view("answer", winner, paid, ((), ()), winners=[winner], share=c, asker=loser)
    if not isinstance(ask.choose(winner, view, [Accept(), Refuse()]), Accept):
        return float(c)
    q = float(double_knock_chance())
    return c - (2 * q - 1) * c

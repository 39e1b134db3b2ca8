"""Knack's odds: the chance of a triple from each position, who wins a race to one
(each player's share of the pot), and the double knock.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from kastkopp.dice import Faces, multisets
from kastkopp.engine import RuleError, term
from kastkopp.games.knack import DOUBLE_KNOCK_SUM, Knack, pair, triple
from kastkopp.strategy.odds import exact_row, register_odds


@cache
def _throw(kept: Faces) -> tuple[tuple[str, Faces, Fraction], ...]:
    """What one throw from ``kept`` leads to, playing as the rules and good sense say.

    Results are ``("triple", (face,), p)`` or ``("keep", kept_after, p)``: a pair stays; with
    no pair the highest die is kept (it is as likely to make a triple as any other choice,
    and wins ties between triples).
    """
    outcomes: dict[tuple[str, Faces], Fraction] = {}
    for faces, p in multisets(3 - len(kept)):
        dice = tuple(sorted(kept + faces, reverse=True))
        face = triple(dice)
        if face is not None:
            key: tuple[str, Faces] = ("triple", (face,))
        else:
            paired = pair(dice)
            key = ("keep", (paired, paired) if paired else (dice[0],))
        outcomes[key] = outcomes.get(key, Fraction(0)) + p
    return tuple((kind, faces, p) for (kind, faces), p in sorted(outcomes.items()))


def _first_triple_by_throw(kept: Faces, throws: int, one: Any) -> list[dict[int, Any]]:
    """Per throw, the chance that the first triple comes then, by face.

    ``one`` sets the arithmetic: ``Fraction(1)`` for exact odds, ``1.0`` for the bots.
    """
    states: dict[Faces, Any] = {kept: one}
    result = []
    for _ in range(throws):
        made: dict[int, Any] = {}
        after: dict[Faces, Any] = {}
        for state, mass in states.items():
            for kind, faces, p in _throw(state):
                if kind == "triple":
                    made[faces[0]] = made.get(faces[0], 0 * one) + mass * p
                else:
                    after[faces] = after.get(faces, 0 * one) + mass * p
        result.append(made)
        states = after
        if sum(states.values()) < 1e-12:  # only the endless float tail is cut off
            break
    return result


def triple_chances(kept: Faces, throws: int) -> list[dict[int, Fraction]]:
    """For each of the next ``throws`` throws, the exact chance of the first triple, by face.

    >>> triple_chances((5, 5), 2)
    [{5: Fraction(1, 6)}, {5: Fraction(5, 36)}]
    """
    return _first_triple_by_throw(kept, throws, Fraction(1))


@lru_cache(maxsize=4096)
def _first_triples(kept: Faces, throws: int = 150) -> tuple[tuple[float, ...], ...]:
    """:func:`triple_chances` in floats, as rows of the chance for faces 0..6."""
    return tuple(tuple(float(made.get(face, 0.0)) for face in range(7))
                 for made in _first_triple_by_throw(kept, throws, 1.0))


@lru_cache(maxsize=4096)
def equities(positions: tuple[Faces, ...]) -> tuple[float, ...]:
    """Each player's expected share of the pot from the dice kept now, if nobody folds.

    Players throw independently; the first throw with a triple ends it, the higher triple
    wins, equal triples share.

    >>> [round(e, 4) for e in equities(((6, 6), (5, 5)))]
    [0.5455, 0.4545]
    """
    tables = [_first_triples(kept) for kept in positions]
    n = len(positions)
    equity = [0.0] * n
    alive = [1.0] * n  # the chance each player has not made a triple before this throw
    for t in range(max(len(table) for table in tables)):
        made = [table[t] if t < len(table) else (0.0,) * 7 for table in tables]
        for i in range(n):
            for face in range(1, 7):
                p = made[i][face]
                if p == 0.0:
                    continue
                # each other player has no triple or a lower one now, or an equal one;
                # shares[k] is the chance that exactly k others tie (and nobody is higher)
                shares = [1.0]
                for j in range(n):
                    if j != i:
                        lower = alive[j] - sum(made[j][face:])
                        equal = made[j][face]
                        shares = [a * lower + b * equal
                                  for a, b in zip([*shares, 0.0], [0.0, *shares], strict=True)]
                equity[i] += p * sum(c / (k + 1) for k, c in enumerate(shares))
        for i in range(n):
            alive[i] -= sum(made[i])
        if max(alive) < 1e-12:
            break
    return tuple(equity)


def double_knock_chance() -> Fraction:
    """The chance that three dice sum to 12 or more: 81/216."""
    return sum((p for faces, p in multisets(3) if sum(faces) >= DOUBLE_KNOCK_SUM),
               Fraction(0))


@register_odds("knack")
def odds(game: Knack, **params: str) -> list[dict[str, Any]]:
    """The chance of three of a kind from each position, and of a double knock.

    >>> from kastkopp.games import load
    >>> rows = odds(load("knack"))
    >>> rows[-1]["event"], rows[-1]["chance"]
    ('double knock: 12 or more on three dice', 0.375)
    """
    if params:
        raise RuleError("Knack's odds take no settings (got {params})",
                        params=", ".join(params))
    rows = []
    # Whole texts, marked for the catalogs: the terminal shows them in the player's words.
    starts = [((), term("triple on the next throw, throwing all three"),
               term("triple within 3 throws, throwing all three")),
              ((6,), term("triple on the next throw, keeping one die"),
               term("triple within 3 throws, keeping one die")),
              ((6, 6), term("triple on the next throw, keeping a pair"),
               term("triple within 3 throws, keeping a pair"))]
    for kept, next_text, within_text in starts:
        chances = triple_chances(kept, 3)
        next_throw = sum(chances[0].values(), Fraction(0))
        within = sum((sum(c.values(), Fraction(0)) for c in chances), Fraction(0))
        rows.append(exact_row(str(next_text), next_throw))
        rows.append(exact_row(str(within_text), within))
    races = [(term("pair of 5s against a pair of 6s: first to a triple"), ((5, 5), (6, 6))),
             (term("pair of 2s against nothing kept: first to a triple"), ((2, 2), ()))]
    for text, positions in races:
        rows.append({"event": str(text), "chance": round(equities(positions)[0], 6),
                     "exact": ""})
    rows.append(exact_row(str(term("double knock: 12 or more on three dice")),
                          double_knock_chance()))
    return rows

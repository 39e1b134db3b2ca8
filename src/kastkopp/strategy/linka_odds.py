"""Linka's odds: the chance of each hand from the linka dice, the open die given or not."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kastkopp.dice import Faces
from kastkopp.engine import RuleError
from kastkopp.games.linka import HAND_KEYS, HAND_NAMES, Linka, hand, read_die
from kastkopp.strategy.odds import register_odds


def hand_chances(linka: Faces, open_die: int | None = None) -> dict[int, Fraction]:
    """The chance of each hand class, the open die given or not."""
    firsts = [open_die] if open_die is not None else list(range(1, 7))
    chances: dict[int, Fraction] = {rank: Fraction(0) for rank in HAND_NAMES}
    weight = Fraction(1, 6 * len(firsts))
    for first in firsts:
        for second in range(1, 7):
            chances[hand(linka, (first, second)).rank] += weight
    return chances


@register_odds("linka")
def odds(game: Linka, **params: str) -> list[dict[str, Any]]:
    """The chance of each hand: ``linka=6,3`` (and ``open=2``), or for every linka roll.

    >>> from kastkopp.games import load
    >>> rows = odds(load("linka"), linka="6,3", open="2")
    >>> for row in rows:
    ...     if row["chance"]:
    ...         print(row["hand"], row["exact"], "with a hidden", row["hidden die"])
    the high linka die 1/3 with a hidden 4 6
    the low linka die 1/3 with a hidden 1 3
    nothing 1/3 with a hidden 2 5
    """
    unknown = set(params) - {"linka", "open"}
    if unknown:
        raise RuleError("Linka's odds take linka=A,B and open=X, not {unknown}",
                        unknown=", ".join(sorted(unknown)))
    open_die = read_die(params["open"], "open") if "open" in params else None
    if "linka" not in params:
        if open_die is not None:
            raise RuleError("give the linka dice too: linka=6,3 open=2")
        rows = []
        for high in range(6, 0, -1):
            for low in range(high, 0, -1):
                chances = hand_chances((high, low))
                rows.append({"linka": f"{high} {low}",
                             **{HAND_KEYS[r]: round(float(chances[r]), 4)
                                for r in sorted(HAND_NAMES, reverse=True)}})
        return rows
    faces = [f for f in params["linka"].replace(",", " ").split() if f]
    if len(faces) != 2:
        raise RuleError("linka is two dice like 6,3, not '{text}'", text=params["linka"])
    linka = tuple(sorted((read_die(f, "linka") for f in faces), reverse=True))
    chances = hand_chances(linka, open_die)
    rows = []
    for rank in sorted(HAND_NAMES, reverse=True):
        row: dict[str, Any] = {"hand": HAND_NAMES[rank],
                               "chance": round(float(chances[rank]), 4),
                               "exact": str(chances[rank])}
        if open_die is not None:
            row["hidden die"] = " ".join(str(h) for h in range(1, 7)
                                         if hand(linka, (open_die, h)).rank == rank)
        rows.append(row)
    return rows

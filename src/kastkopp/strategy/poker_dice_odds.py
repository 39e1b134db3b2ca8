"""Poker Menteur's odds: the chance of each hand in one throw, and of reaching a hand with
the throws left, picking up the best dice (:class:`RerollTable`, built with numpy).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from kastkopp.dice import Faces, multisets
from kastkopp.engine import RuleError, term
from kastkopp.games.poker_dice import (
    POKER,
    Hand,
    HandClass,
    PokerDice,
    faces_text,
    hand_strengths,
    parse_faces,
    parse_hand,
    remove,
    sub_multisets,
)
from kastkopp.strategy.odds import register_odds

if TYPE_CHECKING:  # numpy loads only when the reroll table is built
    import numpy as np


# The classes' names as the catalogs hold them (the games' own English names, weakest
# first), so the terminal can say them in the player's words.
CLASS_WORDS = (term("nothing"), term("one pair"), term("two pair"), term("three of a kind"),
               term("low straight"), term("high straight"), term("full house"),
               term("four of a kind"), term("five of a kind"))


def hand_chances(dice: str = POKER) -> dict[Hand, Fraction]:
    """The exact chance of every hand in one throw of five dice."""
    return {Hand(faces, dice): p for faces, p in multisets(5)}


class RerollTable:
    """Exact one-reroll transitions between all 252 throws, for the reroll odds.

    Row ``(throw, dice picked up)`` holds the chance of each throw that results. With it,
    :meth:`reach` finds the best chance of reaching a hand with the throws a player has
    left, choosing the best dice to pick up each time — for every hand at once.
    """

    def __init__(self) -> None:
        import numpy as np

        self.throws: tuple[Faces, ...] = tuple(
            itertools.combinations_with_replacement(range(1, 7), 5))
        self.index = {faces: i for i, faces in enumerate(self.throws)}
        outcomes = {k: [(new, float(p)) for new, p in multisets(k)] for k in range(1, 6)}
        self.choices: list[list[Faces]] = []
        self.row_start: list[int] = []
        cells: list[tuple[int, int, float]] = []
        rows = 0
        for faces in self.throws:
            self.row_start.append(rows)
            picks = sub_multisets(faces)
            self.choices.append(picks)
            for pick in picks:
                kept = remove(faces, pick)
                for new, p in outcomes[len(pick)]:
                    cells.append((rows, self.index[tuple(sorted(kept + new))], p))
                rows += 1
        self.matrix = np.zeros((rows, len(self.throws)))
        where = np.array([(r, c) for r, c, _ in cells])
        np.add.at(self.matrix, (where[:, 0], where[:, 1]), [p for _, _, p in cells])
        self.starts = np.array(self.row_start)
        self.first = np.array([float(p) for _, p in multisets(5)])
        self._reach: dict[tuple[str, int], np.ndarray] = {}

    def reached(self, dice: str) -> np.ndarray:
        """1 where throw ``i`` (a row) is at least hand ``j`` (a column, by strength)."""
        import numpy as np

        strengths = np.array([hand_strengths(dice)[f] for f in self.throws])
        return (strengths[:, None] >= np.arange(len(self.throws))[None, :]).astype(float)

    def reach_all(self, dice: str, rerolls: int) -> np.ndarray:
        """Row ``i``, column ``j``: the best chance that throw ``i`` reaches at least hand
        ``j`` with ``rerolls`` rerolls still allowed, stopping as soon as it is reached."""
        import numpy as np

        key = (dice, rerolls)
        if key not in self._reach:
            done = self.reached(dice)
            if rerolls == 0:
                value = done
            else:
                after = self.matrix @ self.reach_all(dice, rerolls - 1)
                value = np.maximum(done, np.maximum.reduceat(after, self.starts, axis=0))
            self._reach[key] = value
        return self._reach[key]

    def reach(self, dice: str, at_least: int, rerolls: int) -> np.ndarray:
        """For every throw, the best chance of a hand at least strength ``at_least``."""
        return self.reach_all(dice, rerolls)[:, at_least]

    def choice_chances(self, faces: Faces, dice: str, at_least: int,
                       rerolls: int) -> list[tuple[Faces, float]]:
        """For each selection of dice to pick up now, the chance of reaching the hand
        (``rerolls`` counts this reroll too)."""
        i = self.index[tuple(sorted(faces))]
        later = self.reach(dice, at_least, rerolls - 1)
        start = self.row_start[i]
        picks = self.choices[i]
        values = self.matrix[start:start + len(picks)] @ later
        return [(pick, float(v)) for pick, v in zip(picks, values, strict=True)]

    def fresh(self, dice: str, at_least: int, throws: int) -> float:
        """The chance that a player who throws ``throws`` times (the first throw included),
        aiming at the hand, reaches at least strength ``at_least``."""
        return float(self.first @ self.reach(dice, at_least, throws - 1))


@functools.cache
def reroll_table() -> RerollTable:
    """The shared table (built once, in about a second)."""
    return RerollTable()


@register_odds("poker_dice")
def odds(game: PokerDice, **params: str) -> list[dict[str, Any]]:
    """Odds from the rules, in three forms:

    - no parameters: each class of hand, the chance in one throw (exactly, at least);
    - ``hand=3T A Q``: the chance of reaching at least that hand with one, two or three
      throws, picking up the best dice each time;
    - ``hand=3T A Q dice=T T 9 A Q [rerolls=2]``: for every choice of dice to pick up
      from those five, the chance of reaching the hand with that many rerolls left
      (the first one the choice made now, the rest chosen as well as possible).
    """
    known = {"hand", "dice", "rerolls"}
    unknown = set(params) - known
    if unknown:
        raise RuleError("unknown odds parameter '{name}' (parameters: {known})",
                        name=sorted(unknown)[0], known=", ".join(sorted(known)))
    dice = game.rules.dice
    if ("dice" in params or "rerolls" in params) and "hand" not in params:
        raise RuleError("say which hand to reach, e.g. hand='3T A Q'")
    if "hand" in params:
        target = parse_hand(params["hand"], dice)
        table = reroll_table()
        if "dice" not in params:
            return [{"hand": str(target), "name": target.name(), "throws": n,
                     "at_least": table.fresh(dice, target.strength, n)}
                    for n in range(1, game.rules.throws + 1)]
        mine = Hand.of(parse_faces(params["dice"], dice), dice)
        if len(mine.faces) != 5:
            raise RuleError("give all five dice, not {count} (e.g. dice='T T 9 A Q')",
                            count=len(mine.faces))
        try:
            rerolls = int(params.get("rerolls", game.rules.throws - 1))
        except ValueError:
            raise RuleError("rerolls is a whole number, not '{text}'",
                            text=params["rerolls"]) from None
        if not 1 <= rerolls <= game.rules.throws - 1:
            raise RuleError("rerolls is 1 to {most} under these rules",
                            most=game.rules.throws - 1)
        choices = sorted(table.choice_chances(mine.faces, dice, target.strength, rerolls),
                         key=lambda c: -c[1])
        rows: list[dict[str, Any]] = []
        for pick, chance in choices:
            kept = remove(mine.faces, pick)
            rows.append({"reroll": faces_text(pick, dice),
                         "keep": faces_text(kept, dice) if kept else "-",
                         "at_least": chance})
        standing = {"reroll": "-", "keep": mine.dice_text(),
                    "at_least": 1.0 if mine >= target else 0.0}
        return [standing, *rows]
    by_class = dict.fromkeys(HandClass, Fraction(0))
    for hand, p in hand_chances(dice).items():
        by_class[hand.hand_class] += p
    rows = []
    at_least = Fraction(1)
    for cls in HandClass:
        exactly = by_class[cls]
        rows.append({"class": str(CLASS_WORDS[cls]), "exactly": float(exactly),
                     "at_least": float(at_least)})
        at_least -= exactly
    return rows[::-1]

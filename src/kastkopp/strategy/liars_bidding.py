"""One round of liar's-dice bidding between two cups: the game the equilibrium solver plays.

A round is: both cups are rolled; the players bid in turn, each bid higher than the last;
one of them challenges and the cups are lifted. :class:`Bidding` says which bids there are,
in which order, which may open, and how a challenge counts the dice. Two families of rules:

- kastkopp's own (:meth:`Bidding.from_rules`): the dice's faces (six unless the rule
  ``faces`` says fewer), and the bid order, the opening
  and the counting of :mod:`kastkopp.games.liars_dice` (Lögnare without wilds; wild ones
  with Perudo's order, where ``k`` ones sit just above ``2k`` of any face and a round
  never opens on ones). Only rules without exact calls are one round of bidding.
- OpenSpiel's ``liars_dice`` (:meth:`Bidding.openspiel`): any number of faces, the highest
  face wild, bids ordered by count and then face (``1-1 … 1-6, 2-1 …``), one round.

>>> b = Bidding.openspiel(dice=1, faces=6)
>>> [str(x) for x in b.bids[:3]], str(b.bids[-1]), b.count((6, 2), 2)
(['bid 1x1', 'bid 1x2', 'bid 1x3'], 'bid 2x6', 2)
>>> p = Bidding.from_rules(LiarsRules.make("perudo", exact_call="off", dice=1))
>>> [str(x) for x in p.openings()][:2], [str(x) for x in p.bids[-3:]]
(['bid 1x2', 'bid 1x3'], ['bid 2x6', 'bid 1x1', 'bid 2x1'])
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from kastkopp.engine import RuleError
from kastkopp.games.liars_dice import Bid, LiarsRules, count_matches, ordered_bids


@dataclass(frozen=True)
class Bidding:
    """The bids of one round over two cups of ``dice`` dice with ``faces`` faces."""

    dice: tuple[int, int]
    faces: int
    wild: str  # "none", "ones" (Perudo) or "highest" (OpenSpiel)
    bids: tuple[Bid, ...]

    @classmethod
    def from_rules(cls, rules: LiarsRules, dice: tuple[int, int] | None = None) -> Bidding:
        """The bidding of a kastkopp rule set, for two players with ``dice`` each."""
        if rules.hand != "common" or rules.bids != "counts":
            raise RuleError("the solver plays bids on a face from a cup each (not poker-hand "
                            "bids or a shared cup)")
        if rules.exact_call != "off":
            raise RuleError("exact calls make more than one round: set exact_call=off")
        if rules.penalty != "one":
            raise RuleError("the solver plays one round: set penalty=one")
        cups = dice or (rules.dice, rules.dice)
        wild = rules.ones_wild
        bids, _ = ordered_bids(sum(cups), wild, rules.faces)
        return cls(cups, rules.faces, "ones" if wild else "none", bids)

    @classmethod
    def openspiel(cls, dice: int = 1, faces: int = 6) -> Bidding:
        """OpenSpiel's ``liars_dice``: the highest face wild, bids by count then face."""
        if not 2 <= faces <= 9 or not 1 <= dice <= 5:
            raise RuleError("OpenSpiel's liar's dice has 1 to 5 dice and 2 to 9 faces here")
        total = 2 * dice
        bids = tuple(Bid(q, f) for q in range(1, total + 1) for f in range(1, faces + 1))
        return cls((dice, dice), faces, "highest", bids)

    # -- the order -------------------------------------------------------------------
    def _key(self, bid: Bid) -> tuple[int, int]:
        return bid.key(self.wild == "ones") if self.wild != "highest" else \
            (bid.count, bid.face)

    def openings(self) -> list[Bid]:
        """The bids a round may open with (never wild ones, as the rules say)."""
        return [b for b in self.bids if not (self.wild == "ones" and b.face == 1)]

    def higher(self, bid: Bid) -> list[Bid]:
        """The bids above ``bid``, lowest first."""
        keys = [self._key(b) for b in self.bids]
        return list(self.bids[bisect_right(keys, self._key(bid)):])

    # -- the challenge ---------------------------------------------------------------
    def count(self, dice: Iterable[int], face: int) -> int:
        """How many of the lifted dice count for ``face``."""
        if self.wild == "highest":
            return sum(1 for d in dice if d == face or d == self.faces)
        return count_matches(dice, face, self.wild == "ones")

    def holds(self, bid: Bid, dice: Iterable[int]) -> bool:
        return self.count(dice, bid.face) >= bid.count

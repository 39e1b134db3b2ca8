"""Liar's dice odds: the chance of a bid (at least, exactly) over the dice a seat cannot
see, and of a poker hand in the Single and Common Hand games.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kastkopp.engine import RuleError
from kastkopp.games.liars_dice import HANDS, Bid, Hand, LiarsDice, LiarsRules, count_matches
from kastkopp.strategy.odds import register_odds


def binomial_at_least(n: int, k: int, p: float) -> float:
    """P(at least ``k`` successes in ``n`` trials of chance ``p``), exactly summed."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def binomial_exactly(n: int, k: int, p: float) -> float:
    if not 0 <= k <= n:
        return 0.0
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def face_chance(face: int, wild: bool, faces: int = 6) -> float:
    """The chance one unseen die counts for ``face``: 1/3 with wild ones, else 1/6 (for
    dice of six faces)."""
    return (2 if wild and face != 1 else 1) / faces


def bid_chance(bid: Bid, own: Sequence[int], unseen: int, wild: bool) -> float:
    """The chance that ``bid`` holds, knowing one's own dice and that ``unseen`` are hidden."""
    need = bid.count - count_matches(own, bid.face, wild)
    return binomial_at_least(unseen, need, face_chance(bid.face, wild))


def exact_chance(bid: Bid, own: Sequence[int], unseen: int, wild: bool) -> float:
    """The chance that the count is exactly the bid (a right ``calza``)."""
    need = bid.count - count_matches(own, bid.face, wild)
    return binomial_exactly(unseen, need, face_chance(bid.face, wild))


def hand_chance(hand: Hand, own: Sequence[int], unseen: int) -> float:
    """The chance that ``hand`` can be made from one's own dice plus ``unseen`` fair dice."""
    have = Counter(own)
    missing = {f: max(0, n - have[f]) for f, n in hand.needs().items()}
    missing = {f: n for f, n in missing.items() if n}
    if not missing:
        return 1.0
    if sum(missing.values()) > unseen:
        return 0.0
    if hand.kind in ("low straight", "high straight"):
        # inclusion-exclusion over the faces that might all be absent
        faces = list(missing)
        total = 0.0
        for size in range(len(faces) + 1):
            for _ in itertools.combinations(faces, size):
                total += (-1) ** size * (1 - size / 6) ** unseen
        return total
    (_, need_first), *rest = missing.items()
    if not rest:
        return binomial_at_least(unseen, need_first, 1 / 6)
    need_second = rest[0][1]
    # the first face i times, then the second among the remaining dice (chance 1/5 each)
    return sum(binomial_exactly(unseen, i, 1 / 6)
               * binomial_at_least(unseen - i, need_second, 1 / 5)
               for i in range(need_first, unseen + 1))


@register_odds("liars_dice")
def odds(game: LiarsDice, **params: str) -> list[dict[str, Any]]:
    """The chance of every bid over ``unseen`` hidden dice given the dice you hold.

    ``kastkopp odds liars_dice unseen=10 have=2 face=5`` lists, for each count, the chance
    of at least and of exactly that many fives when you hold two (wild ones included);
    in poker-hand games ``kastkopp odds liars_dice unseen=10 own=6,6,1`` lists every hand.
    """
    known = {"unseen", "have", "face", "wild", "own"}
    unknown = set(params) - known
    if unknown:
        raise RuleError("unknown odds parameter '{name}' (parameters: {known})",
                        name=sorted(unknown)[0], known=", ".join(sorted(known)))
    try:
        unseen = int(params.get("unseen", 4 * game.rules.dice))
        have = int(params.get("have", 0))
        face = int(params.get("face", 5))
        own = [int(f) for f in params.get("own", "").replace(",", " ").split()]
    except ValueError:
        raise RuleError("odds parameters are whole numbers (own=6,6,1)") from None
    if not 0 <= unseen <= 60 or have < 0 or not 1 <= face <= 6 \
            or any(not 1 <= f <= 6 for f in own):
        raise RuleError("unseen is 0 to 60 dice, a face 1 to 6, have at least 0")
    if game.rules.bids == "hands":
        return [{"hand": str(h), "chance": hand_chance(h, own, unseen)} for h in HANDS]
    wild = game.rules.ones_wild
    if "wild" in params:
        wild = LiarsRules.parse_value("ones_wild", params["wild"])
    p = face_chance(face, wild, game.rules.faces)
    return [{"bid": f"{q}x{face}", "at_least": binomial_at_least(unseen, q - have, p),
             "exactly": binomial_exactly(unseen, q - have, p)}
            for q in range(1, unseen + have + 1)]

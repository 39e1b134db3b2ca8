"""Bots for liar's dice, reasoning from the exact chance of a bid given the bot's own dice.

The strong bot sees only its view: its own dice, everyone's dice counts and the bids. For
every bid it computes the exact chance that the bid holds with its own dice known: each
other cup is binomial (a die counts with chance 1/3 for a face in a wild round, 1/6 for
ones and in a palifico round), except that a player who bid a face this round is believed
to hold more of it (``trust``; with ``trust=0`` it is the plain binomial over all unseen
dice). Poker hands are counted exactly over the unseen dice. Then, on its turn:

- it challenges when a challenge is likelier to win than its best raise is to survive
  (being true, or not being challenged, which it puts at ``escape``);
- it calls ``calza`` when an exact count is likelier still, valuing the die it wins back;
- otherwise it raises to its most probable bid, the lowest of the near-best ones, and now and
  then (``bluff``) bids on a face it does not hold to keep the table guessing.

In Single Hand it weighs a claim over every way the rerolled dice may lie, knowing how
bidders bid (the lowest true hand above the last claim, else the lowest bluff), keeps the
dice that most often leave a true higher bid, and bids the lowest true hand itself.

The naive bot bids one more of its best face and calls when that would claim more than half
the dice on the table: the baseline the strong bot is measured against.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import make_bot
>>> bot = make_bot(load("liars_dice", preset="perudo"), "strong")
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from kastkopp.dice import multisets
from kastkopp.engine import Action, Game, Player
from kastkopp.games.liars_dice import (
    HANDS,
    Accept,
    Bid,
    Calza,
    Dudo,
    HandBid,
    Keep,
    LiarsDice,
    best_hand,
    count_matches,
)
from kastkopp.strategy import register_bot
from kastkopp.strategy.liars_odds import bid_chance, binomial_exactly, face_chance, hand_chance

HAND_INDEX = {hand: i for i, hand in enumerate(HANDS)}


@lru_cache(maxsize=8192)
def made_hands(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The places in ``HANDS`` of every hand the (sorted) dice make, lowest first."""
    return tuple(i for i, h in enumerate(HANDS) if h.size <= len(dice) and h.made_by(dice))


@lru_cache(maxsize=16)
def rerolls(count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every roll of ``count`` dice, sorted, with its chance (as ``multisets``, in floats)."""
    return tuple((faces, float(p)) for faces, p in multisets(count))


def current_bid(game: LiarsDice, view: dict[str, Any]) -> Bid | HandBid | None:
    if view["bid"] is None:
        return None
    bid = game.parse_action(f"bid {view['bid']}")
    assert isinstance(bid, (Bid, HandBid))
    return bid


@dataclass
class StrongLiarsBot(Player):
    game: LiarsDice
    bluff: float = 0.1  # how often a raise goes to a face the bot does not hold
    near: float = 0.04  # raises this close to the best count as equally good
    open_safety: float = 0.6  # an opening bid should hold at least this often
    accept_above: float = 0.45  # Single Hand: believe a claim at least this likely

    trust: float = 4.0  # how much a player's bid on a face says about their cup
    escape: float = 0.4  # how often a raise that is not true goes unchallenged
    _memo: dict[int, list[float]] = field(default_factory=dict, repr=False)

    # -- chances -----------------------------------------------------------------------
    def unseen_counts(self, face: int, view: dict[str, Any]) -> list[float]:
        """The chances that 0, 1, 2, ... of the dice the bot cannot see count for ``face``.

        Every other cup is binomial; a player who bid on the face this round is believed to
        hold more of it (each die of it makes the bid ``1 + trust`` times likelier). With
        ``trust=0`` this is the plain binomial over all unseen dice.
        """
        if face in self._memo:
            return self._memo[face]
        wild = view["ones_wild"]
        p = face_chance(face, wild, self.game.rules.faces)
        faces_bid: dict[int, set[int]] = {}
        for entry in view["history"]:
            if entry["action"].startswith("bid "):
                bid = self.game.parse_action(entry["action"])
                if isinstance(bid, Bid):
                    faces_bid.setdefault(entry["seat"], set()).add(bid.face)
        dist = [1.0]
        for seat, size in enumerate(view["dice_counts"]):
            if seat == view["seat"] or size == 0:
                continue
            cup = [binomial_exactly(size, m, p) for m in range(size + 1)]
            told = faces_bid.get(seat, set())
            if self.trust and (face in told or (wild and 1 in told)):
                cup = [c * (1 + self.trust * m) for m, c in enumerate(cup)]
                cup = [c / sum(cup) for c in cup]
            dist = [sum(dist[i] * cup[k - i] for i in range(len(dist)) if 0 <= k - i < len(cup))
                    for k in range(len(dist) + len(cup) - 1)]
        self._memo[face] = dist
        return dist

    def chance(self, bid: Bid | HandBid, view: dict[str, Any]) -> float:
        own = view.get("your_dice", [])
        if isinstance(bid, HandBid):
            return hand_chance(bid.hand, own, view["total_dice"] - len(own))
        need = bid.count - count_matches(own, bid.face, view["ones_wild"])
        dist = self.unseen_counts(bid.face, view)
        return sum(dist[max(0, need):])

    def exact(self, bid: Bid, view: dict[str, Any]) -> float:
        need = bid.count - count_matches(view.get("your_dice", []), bid.face, view["ones_wild"])
        dist = self.unseen_counts(bid.face, view)
        return dist[need] if 0 <= need < len(dist) else 0.0

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        self._memo = {}
        if view["hand"] == "single":
            return self.single_hand(view, legal, rng)
        bids = [a for a in legal if isinstance(a, (Bid, HandBid))]
        bid = current_bid(self.game, view)
        if bid is None:
            return self.opening(view, bids, rng)
        holds = self.chance(bid, view)
        options: list[tuple[float, Action]] = [(1 - holds, Dudo())]
        raise_to = self.best_raise(view, bids, rng)
        if raise_to is not None:
            true = self.chance(raise_to, view)
            options.append((true + (1 - true) * self.escape, raise_to))
        if Calza() in legal and isinstance(bid, Bid):
            exact = self.exact(bid, view)
            seat = view["seat"]
            full = view["stock"][seat] >= self.game.rules.start
            # an exact call risks a die like a challenge but wins one back
            options.append((exact * (1.0 if full else 1.6), Calza()))
        return max(options, key=lambda o: o[0])[1]

    def best_raise(self, view: dict[str, Any], bids: Sequence[Bid | HandBid],
                   rng: random.Random) -> Bid | HandBid | None:
        if not bids:
            return None
        chances = [self.chance(b, view) for b in bids]
        best = max(chances)
        good = [b for b, c in zip(bids, chances, strict=True) if c >= best - self.near]
        if rng.random() < self.bluff:
            own = view.get("your_dice", [])
            bluffs = [b for b, c in zip(bids, chances, strict=True)
                      if c >= best - 0.2 and isinstance(b, Bid)
                      and count_matches(own, b.face, view["ones_wild"]) == 0]
            if bluffs:
                return bluffs[0]
        return good[0]  # bids come lowest first: the lowest of the near-best

    def opening(self, view: dict[str, Any], bids: Sequence[Bid | HandBid],
                rng: random.Random) -> Action:
        chances = [(self.chance(b, view), b) for b in bids]
        safe = [b for c, b in chances if c >= self.open_safety]
        if not safe:
            return max(chances, key=lambda cb: cb[0])[1]
        if rng.random() < self.bluff:
            return rng.choice(safe)
        return safe[-1]  # the highest safe bid leaves the others the harder raise

    # -- Single Hand -----------------------------------------------------------------------
    def single_hand(self, view: dict[str, Any], legal: Sequence[Action],
                    rng: random.Random) -> Action:
        bid = current_bid(self.game, view)
        if view["phase"] == "respond":
            assert bid is not None
            if Accept() in legal and self.believed(bid, view) >= self.accept_above:
                return Accept()
            return Dudo()
        if view["phase"] == "keep":
            return self.keep(view, bid, legal)
        bids = [a for a in legal if isinstance(a, (Bid, HandBid))]
        cup = view["your_dice"]
        true = [b for b in bids if self.chance_in(b, cup, view) == 1.0]
        if true and rng.random() >= self.bluff:
            return true[0]
        return bids[0]

    @staticmethod
    def chance_in(bid: Bid | HandBid, cup: Sequence[int], view: dict[str, Any]) -> float:
        if isinstance(bid, HandBid):
            return 1.0 if bid.hand.made_by(cup) else 0.0
        return 1.0 if count_matches(cup, bid.face, view["ones_wild"]) >= bid.count else 0.0

    def believed(self, bid: Bid | HandBid, view: dict[str, Any]) -> float:
        """How likely a Single Hand claim is, given how bidders bid.

        A bidder is taken to bid the lowest true hand above the claim before, to bluff the
        lowest legal one when nothing is true, and to bid anything at all now and then
        (``bluff``). Summing over every way the rerolled dice may lie gives the chance.
        """
        open_dice = view["open_dice"]
        rerolled = view["total_dice"] - len(open_dice)
        if not isinstance(bid, HandBid):
            return bid_chance(bid, open_dice, rerolled, view["ones_wild"])
        claims = [h["action"] for h in view["history"] if h["action"].startswith("bid ")]
        before = current_bid(self.game, {"bid": claims[-2][4:]}) if len(claims) > 1 else None
        floor = HAND_INDEX[before.hand] if isinstance(before, HandBid) else -1
        claim = HAND_INDEX[bid.hand]
        possible = [i for i, h in enumerate(HANDS) if i > floor and h.size <= view["total_dice"]]
        held = told = 0.0
        for faces, weight in rerolls(rerolled):
            made = made_hands(tuple(sorted((*open_dice, *faces))))
            above = [i for i in made if i > floor]
            expected = above[0] if above else possible[0]
            likelihood = (1 - self.bluff) * (claim == expected) + self.bluff / len(possible)
            told += weight * likelihood
            if claim in made:
                held += weight * likelihood
        return held / told if told else 0.0

    def keep(self, view: dict[str, Any], bid: Bid | HandBid | None,
             legal: Sequence[Action]) -> Action:
        """Keep the dice that most often leave a true bid above the claim after the reroll."""
        keeps = [a for a in legal if isinstance(a, Keep)]
        best: tuple[float, int] = (-1.0, 0)
        choice = keeps[-1]
        for keep in keeps:
            p = self.keep_chance(keep, bid, view)
            # equal chances: keep more dice (fewer new dice the next player can doubt)
            if (p, len(keep.faces)) > best:
                best, choice = (p, len(keep.faces)), keep
        return choice

    @classmethod
    def keep_chance(cls, keep: Keep, bid: Bid | HandBid | None, view: dict[str, Any]) -> float:
        """Single Hand: the chance that keeping ``keep`` leaves a true bid above ``bid``
        after the reroll."""
        rolled = rerolls(view["total_dice"] - len(keep.faces))
        if view["bids"] == "hands":
            floor = HAND_INDEX[bid.hand] if isinstance(bid, HandBid) else -1
            made = [made_hands(tuple(sorted((*keep.faces, *faces)))) for faces, _ in rolled]
            return sum(w for (_, w), m in zip(rolled, made, strict=True) if m and m[-1] > floor)
        return sum(w for faces, w in rolled if cls.beats((*keep.faces, *faces), bid, view))

    @staticmethod
    def claim_chance(bid: Bid | HandBid, view: dict[str, Any]) -> float:
        """Single Hand, before looking: the chance that the shared cup makes ``bid``, the
        open dice as they lie and the rerolled ones as the dice fall (no read of the
        bidders)."""
        open_dice = view["open_dice"]
        rerolled = view["total_dice"] - len(open_dice)
        if not isinstance(bid, HandBid):
            return bid_chance(bid, open_dice, rerolled, view["ones_wild"])
        claim = HAND_INDEX[bid.hand]
        return sum(w for faces, w in rerolls(rerolled)
                   if claim in made_hands(tuple(sorted((*open_dice, *faces)))))

    @staticmethod
    def beats(dice: Sequence[int], bid: Bid | HandBid | None, view: dict[str, Any]) -> bool:
        """Whether ``dice`` make a true bid above ``bid`` (any true bid when ``None``)."""
        if isinstance(bid, HandBid) or (bid is None and view["bids"] == "hands"):
            made = made_hands(tuple(sorted(dice)))
            return bool(made) and (bid is None or made[-1] > HAND_INDEX[bid.hand])
        if bid is None:
            return True
        wild = view["ones_wild"]
        return any(Bid(count_matches(dice, f, wild), f).key(wild) > bid.key(wild)
                   for f in range(1, 7) if count_matches(dice, f, wild))


@dataclass
class NaiveLiarsBot(Player):
    """Bids one more of its best face; calls when that claims over half the dice."""

    game: LiarsDice

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        own = view.get("your_dice", [])
        bids = [a for a in legal if isinstance(a, (Bid, HandBid))]
        if Accept() in legal:
            bid = current_bid(self.game, view)
            strong = isinstance(bid, HandBid) and bid.hand.key[0] >= 5  # full house and up
            return Dudo() if strong else Accept()
        keeps = [a for a in legal if isinstance(a, Keep)]
        if keeps:
            face = Counter(own).most_common(1)[0][0]
            return Keep(tuple(d for d in own if d == face))
        if not bids:
            return Dudo()
        if isinstance(bids[0], HandBid):
            top = best_hand(own)
            if view["bid"] is not None and Dudo() in legal and top is None:
                return Dudo()
            return bids[0]
        wild = view["ones_wild"]
        faces = [f for f in range(1, 7) if not (wild and f == 1 and view["bid"] is None)]
        best = max(faces, key=lambda f: (count_matches(own, f, wild), f))
        on_best = [b for b in bids if isinstance(b, Bid) and b.face == best]
        if not on_best or (Dudo() in legal and on_best[0].count > view["total_dice"] / 2):
            return Dudo() if Dudo() in legal else bids[0]
        return on_best[0]


def liars_game(game: Game) -> LiarsDice:
    """The game as liar's dice, for a bot that needs its rules (every liar's-dice bot)."""
    assert isinstance(game, LiarsDice)
    return game


@register_bot("liars_dice", "strong", "exact binomial odds from its own dice, bluffs now "
              "and then, calls and exact-calls by the odds; heads-up rounds that are solved "
              "it plays by their equilibrium")
def strong(game: Game) -> Player:
    from kastkopp.strategy.liars_equilibrium import EquilibriumLiarsBot

    return EquilibriumLiarsBot(liars_game(game), StrongLiarsBot(liars_game(game)))


@register_bot("liars_dice", "naive", "bids one more of its best face; calls past half the dice")
def naive(game: Game) -> Player:
    return NaiveLiarsBot(liars_game(game))


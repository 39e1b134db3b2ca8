"""A heads-up liar's-dice bot that reads the other cup from the bids and looks one reply ahead.

The search bot plays rounds of two players with a cup each (any number of dice, wild ones,
palifico and exact calls as the rules say); anywhere else it plays as the strong bot. On its
turn it:

1. **Reads the bids.** It keeps a belief over every cup the other player may hold (every
   sorted roll: 252 for five dice) and over what kind of player it is: one who bids like
   the strong bot (its exact choice for that cup, bluffs included), one who bids like the
   naive bot, or a plain player who weighs each move by how likely it is right. For each
   bid the other made this round it weighs each kind and cup by how likely that bid was
   from them. After a bid of many fives the cups with fives weigh more, and a bid the
   strong bot would never make with any likely cup moves the belief to the other kinds.
   The kind carries over from round to round: when cups are lifted, the other's moves are
   weighed again with the cup it showed (``keep`` of that reading is kept, the rest is
   the prior ``kinds``, so the belief can still change its mind).
2. **Values every move against that belief,** in the chance of winning the game from the
   dice each player would have left (rounds taken as even: a die counts for more when few
   are left). A challenge and an exact call are valued exactly over the believed cups. A
   bid is valued over how the other answers it, cup by cup, by the same model: challenging
   it (the dice are counted), calling it exact, or raising — and after each raise the bot
   takes its own best answer again (challenge, exact call, or a further bid, valued by how
   often it is true, ``raise_true`` and ``raise_false`` of a win). Of the bids it values
   the ``width`` likeliest to hold: sixteen.
3. **Plays the best value,** choosing among moves within ``near`` of it at random.

Rounds small enough to be solved (see :mod:`kastkopp.strategy.liars_equilibrium`) it plays
by their equilibrium, as the strong bot does.

Everything it reads is in its own view: its dice, the dice counts, the stocks and the bids.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import make_bot
>>> bot = make_bot(load("liars_dice", preset="perudo", players=2), "search")
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kastkopp.dice import multisets
from kastkopp.engine import Action, Game, Player
from kastkopp.games.liars_dice import Bid, Calza, Dudo, LiarsDice, count_matches, ordered_bids
from kastkopp.strategy import register_bot
from kastkopp.strategy.liars_dice import StrongLiarsBot, liars_game

Array = NDArray[np.float64]


@lru_cache(maxsize=32)
def cups(count: int, faces: int) -> tuple[tuple[tuple[int, ...], ...], Array]:
    """Every sorted roll of ``count`` dice and its chance."""
    rolls = list(multisets(count, faces))
    return tuple(r for r, _ in rolls), np.array([float(p) for _, p in rolls])


@lru_cache(maxsize=64)
def cup_matches(count: int, faces: int, wild: bool) -> NDArray[np.int64]:
    """``[cup, face - 1]``: how many dice of each cup count for each face."""
    rolls, _ = cups(count, faces)
    return np.array([[count_matches(r, f, wild) for f in range(1, faces + 1)] for r in rolls],
                    dtype=np.int64)


@lru_cache(maxsize=64)
def win_table(start: int) -> Array:
    """``[mine, theirs]``: the chance of winning heads-up from these stocks, rounds even."""
    w = np.zeros((start + 2, start + 2))
    w[1:, 0] = 1.0
    for a in range(1, start + 2):
        for b in range(1, start + 2):
            w[a, b] = 0.5 * w[a - 1, b] + 0.5 * w[a, b - 1]
    return w


@dataclass
class Round:
    """What one decision needs, from the view of the seat to move: the bids, both cups."""

    game: LiarsDice
    view: dict[str, Any]
    me: int
    other: int
    bids: tuple[Bid, ...]
    wild: bool
    total: int
    # the other's chances of every bid per cup, by the faces it saw us bid (see their_chances)
    chances: dict[frozenset[int], tuple[Array, Array]] = field(default_factory=dict)

    @classmethod
    def of(cls, game: LiarsDice, view: dict[str, Any]) -> Round:
        me = view["seat"]
        other = next(s for s, a in enumerate(view["alive"]) if a and s != me)
        wild = view["ones_wild"]
        bids, _ = ordered_bids(view["total_dice"], wild, game.rules.faces)
        return cls(game, view, me, other, bids, wild, view["total_dice"])

    @property
    def faces(self) -> int:
        return self.game.rules.faces

    @cached_property
    def said(self) -> list[tuple[int, Bid]]:
        """The bids of this round so far: who made each, in order."""
        bids = [(h["seat"], self.game.parse_action(h["action"])) for h in self.view["history"]]
        return [(seat, bid) for seat, bid in bids if isinstance(bid, Bid)]

    def index(self, bid: Bid) -> int:
        return self.bids.index(bid)

    def raises(self, after: int | None) -> list[int]:
        """The bids that may follow the bid at ``after`` (the openings for ``None``)."""
        if after is None:  # a palifico round's face is locked by its opening
            return [j for j in range(len(self.bids))
                    if not (self.wild and self.bids[j].face == 1)]
        start = bisect_right(self.keys, self.keys[after])
        return [j for j in range(start, len(self.bids)) if self.may_bid(j)]

    def may_bid(self, j: int) -> bool:
        """Whether the bid is on the face a palifico round locked, if it did."""
        locked = self.view["locked_face"]
        return locked is None or self.bids[j].face == locked

    @cached_property
    def keys(self) -> list[tuple[int, int]]:
        return [b.key(self.wild) for b in self.bids]

    @cached_property
    def lowest_next(self) -> NDArray[np.int64]:
        """``[bid, face - 1]``: the lowest bid on the face that may follow the bid, or -1."""
        nxt = np.full((len(self.bids), self.faces), -1, dtype=np.int64)
        for j in range(len(self.bids)):
            for k in reversed(self.raises(j)):
                nxt[j, self.bids[k].face - 1] = k
        return nxt

    @cached_property
    def face_col(self) -> NDArray[np.int64]:
        return np.array([b.face - 1 for b in self.bids], dtype=np.int64)

    @cached_property
    def counts(self) -> NDArray[np.int64]:
        return np.array([b.count for b in self.bids], dtype=np.int64)


@dataclass
class SearchLiarsBot(Player):
    """Heads-up: reads the other's cup and kind from the bids, values each move one reply
    ahead (see the module's docstring); elsewhere the strong bot."""

    thinks = True

    game: LiarsDice
    # the belief, before any bid, that the other plays like the strong bot, like the naive
    # bot, or plainly (see their_policy). The naive kind weighs most: a game of two dice
    # each lasts three rounds, too few to learn from lifted cups that the other calls every
    # bid past half the dice, and bids made for a raiser meet that call in the first round;
    # the strong kind still shows at its first bid, which the naive bot would not make
    kinds: tuple[float, float, float] = (0.2, 0.6, 0.2)
    slip: float = 0.05  # how often a player like a bot plays as a plain one instead
    temperature: float = 0.1  # how sharply a plain player prefers its likelier moves
    raise_true: float = 0.8  # a further bid that is true wins this often, in the end
    raise_false: float = 0.25  # and one that is false
    near: float = 0.002  # moves this close to the best are equally good
    width: int = 16  # bids valued on a turn, the likeliest to hold
    keep: float = 0.97  # of the kinds read from lifted cups, kept against the prior
    model: StrongLiarsBot = field(init=False)
    fallback: StrongLiarsBot = field(init=False)
    # what the lifted cups of earlier rounds of this game say of the other's kind: the
    # seat it was read for, the last round read, the belief in each kind
    _read: tuple[int, int, Array] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.model = StrongLiarsBot(self.game)
        self.fallback = StrongLiarsBot(self.game)

    # -- when it searches ---------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        if not self.searches(view):
            return self.fallback.choose(view, legal, rng)
        rnd = Round.of(self.game, view)
        self.read_last_round(view)
        values = self.values(rnd, self.belief(rnd), legal)
        best = max(values.values())
        near = [a for a in legal if str(a) in values and values[str(a)] >= best - self.near]
        return rng.choice(near)

    def searches(self, view: dict[str, Any]) -> bool:
        alive = [s for s, a in enumerate(view["alive"]) if a]
        return (view["hand"] == "common" and view["bids"] == "counts" and len(alive) == 2
                and "your_dice" in view and view["phase"] == "bid")

    # -- how the other bids ---------------------------------------------------------------
    def their_chances(self, rnd: Round, told: frozenset[int]) -> tuple[Array, Array]:
        """``[cup, bid]``: the chance the other gives each bid holding each cup, at least and
        exactly, as the strong bot reckons it after seeing us bid the faces ``told``."""
        if told not in rnd.chances:
            rnd.chances[told] = self._their_chances(rnd, told)
        return rnd.chances[told]

    def _their_chances(self, rnd: Round, told: frozenset[int]) -> tuple[Array, Array]:
        history = [{"seat": rnd.me, "action": f"bid 1x{f}"} for f in sorted(told)]
        seen = {**rnd.view, "seat": rnd.other, "history": history}
        self.model._memo = {}
        mine = rnd.view["dice_counts"][rnd.me]
        dist = np.zeros((rnd.faces, mine + 2))
        for f in range(1, rnd.faces + 1):
            dist[f - 1, :mine + 1] = self.model.unseen_counts(f, seen)
        tail = np.cumsum(dist[:, ::-1], axis=1)[:, ::-1]  # tail[f, k]: at least k
        theirs = cup_matches(rnd.view["dice_counts"][rnd.other], rnd.faces, rnd.wild)
        need = rnd.counts[None, :] - theirs[:, rnd.face_col]
        cols = np.broadcast_to(rnd.face_col, need.shape)
        at_least = np.where(need <= 0, 1.0, tail[cols, np.clip(need, 0, mine + 1)])
        exactly = np.where(need < 0, 0.0, dist[cols, np.clip(need, 0, mine + 1)])
        return at_least, exactly

    def their_policy(self, rnd: Round, told: frozenset[int], after: int | None,
                     ) -> tuple[list[int], Array, Array, Array]:
        """How the other answers the bid at ``after`` (or opens): the raises it may make,
        and for each kind of player and cup (a player like the strong bot with every cup,
        then one like the naive bot, then a plain player) the chance of a challenge, an
        exact call and each raise."""
        at_least, exactly = self.their_chances(rnd, told)
        raises = rnd.raises(after)
        theirs = cup_matches(rnd.view["dice_counts"][rnd.other], rnd.faces, rnd.wild)
        strong = self._strong(rnd, at_least, exactly, theirs, raises, after)
        naive = self._naive(rnd, theirs, raises, after)
        plain = self._plain(rnd, at_least, exactly, raises, after)
        every = [np.concatenate(((1 - self.slip) * s + self.slip * p,
                                 (1 - self.slip) * n + self.slip * p, p))
                 for s, n, p in zip(strong, naive, plain, strict=True)]
        return raises, every[0], every[1], every[2]

    def _calza_value(self, rnd: Round, exactly: Array, after: int | None) -> Array | None:
        if after is None or not rnd.view["exact_calls"]:
            return None
        full = rnd.view["stock"][rnd.other] >= self.game.rules.start
        return exactly[:, after] * (1.0 if full else 1.6)

    def _strong(self, rnd: Round, at_least: Array, exactly: Array, theirs: NDArray[np.int64],
                raises: list[int], after: int | None) -> tuple[Array, Array, Array]:
        """The strong bot's own choice, cup by cup (its bluffs at their rate)."""
        cups_n = at_least.shape[0]
        dudo, calza = np.zeros(cups_n), np.zeros(cups_n)
        raise_p = np.zeros((cups_n, len(raises)))
        rows = np.arange(cups_n)
        model = self.model
        if not raises:
            calza_v = self._calza_value(rnd, exactly, after)
            if calza_v is None:
                return np.ones(cups_n), calza, raise_p
            assert after is not None
            won = calza_v > 1 - at_least[:, after]
            return (~won).astype(float), won.astype(float), raise_p
        chances = at_least[:, raises]
        if after is None:
            safe = chances >= model.open_safety
            any_safe = safe.any(axis=1)
            last = len(raises) - 1 - np.argmax(safe[:, ::-1], axis=1)
            raise_p[rows, np.argmax(chances, axis=1)] += ~any_safe
            raise_p[rows, last] += any_safe * (1 - model.bluff)
            raise_p += safe * (model.bluff / np.maximum(safe.sum(axis=1), 1))[:, None]
            return dudo, calza, raise_p
        best = chances.max(axis=1, keepdims=True)
        good = np.argmax(chances >= best - model.near, axis=1)
        faces = rnd.face_col[raises]
        bluffs = (chances >= best - 0.2) & (theirs[:, faces] == 0)
        has_bluff = bluffs.any(axis=1)
        bluff = np.where(has_bluff, np.argmax(bluffs, axis=1), good)
        challenge = 1 - at_least[:, after]
        calza_v = self._calza_value(rnd, exactly, after)
        exact = calza_v if calza_v is not None else np.full(cups_n, -np.inf)
        for pick, weight in ((good, 1 - model.bluff), (bluff, model.bluff)):
            c = chances[rows, pick]
            value = c + (1 - c) * model.escape
            chal = (challenge >= value) & (challenge >= exact)
            rais = ~chal & (value >= exact)
            dudo += weight * chal
            calza += weight * (~chal & ~rais)
            raise_p[rows, pick] += weight * rais
        return dudo, calza, raise_p

    def _naive(self, rnd: Round, theirs: NDArray[np.int64], raises: list[int],
               after: int | None) -> tuple[Array, Array, Array]:
        """The naive bot's choice, cup by cup: the lowest bid on its best face (the higher
        face of equal counts), or a challenge when that bid claims over half the dice."""
        cups_n = theirs.shape[0]
        dudo, calza = np.zeros(cups_n), np.zeros(cups_n)
        raise_p = np.zeros((cups_n, len(raises)))
        score = theirs * 10 + np.arange(1, rnd.faces + 1)  # counts first, then the face
        if after is None and rnd.wild:
            score[:, 0] = -1  # never opens on wild ones
        best = np.argmax(score, axis=1)
        if after is None:
            firsts = {rnd.bids[j].face - 1: k for k, j in reversed(list(enumerate(raises)))}
            for h in range(cups_n):
                raise_p[h, firsts.get(int(best[h]), 0)] = 1.0
            return dudo, calza, raise_p
        nxt = rnd.lowest_next[after, best]
        column = {j: k for k, j in enumerate(raises)}
        for h in range(cups_n):
            j = int(nxt[h])
            if j < 0 or rnd.bids[j].count > rnd.total / 2:
                dudo[h] = 1.0
            else:
                raise_p[h, column[j]] = 1.0
        return dudo, calza, raise_p

    def _plain(self, rnd: Round, at_least: Array, exactly: Array, raises: list[int],
               after: int | None) -> tuple[Array, Array, Array]:
        """A plain player: each move weighted by how likely it is right (a raise by how
        likely it holds, a challenge by how likely the bid does not)."""
        cups_n = at_least.shape[0]
        columns = [at_least[:, raises]]
        if after is not None:
            columns.append((1 - at_least[:, after])[:, None])
        calza_v = self._calza_value(rnd, exactly, after)
        if calza_v is not None:
            columns.append(calza_v[:, None])
        values = np.concatenate(columns, axis=1)
        weights = np.exp((values - values.max(axis=1, keepdims=True)) / self.temperature)
        weights /= weights.sum(axis=1, keepdims=True)
        r = len(raises)
        dudo = weights[:, r] if after is not None else np.zeros(cups_n)
        calza = weights[:, -1] if calza_v is not None else np.zeros(cups_n)
        return dudo, calza, weights[:, :r]

    # -- what the bids say ----------------------------------------------------------------
    def belief(self, rnd: Round) -> Array:
        """The chance of each kind of player and cup the other may be and hold (as
        :meth:`their_policy` orders them), given every bid it made this round."""
        _, rolls = cups(rnd.view["dice_counts"][rnd.other], rnd.faces)
        prior = np.concatenate([share * rolls for share in self.kinds_now(rnd.view)])
        belief = prior.copy()
        told: set[int] = set()
        last: int | None = None
        for seat, bid in rnd.said:
            j = rnd.index(bid)
            if seat == rnd.other:
                raises, _, _, raise_p = self.their_policy(rnd, frozenset(told), last)
                belief = belief * raise_p[:, raises.index(j)]
                total = belief.sum()
                belief = belief / total if total > 0 else prior.copy()
            else:
                told.add(bid.face)
            last = j
        return belief

    # -- what the lifted cups say ---------------------------------------------------------
    def kinds_now(self, view: dict[str, Any]) -> Array:
        """The belief in each kind of player before this round's bids: the prior, moved by
        what the other did in earlier rounds of this game with the cup it showed."""
        prior = np.array(self.kinds)
        if not self._still(view):
            return prior
        assert self._read is not None
        return self.keep * self._read[2] + (1 - self.keep) * prior

    def _still(self, view: dict[str, Any]) -> bool:
        """Whether the kinds read so far are of this game and seat (not an earlier game)."""
        return (self._read is not None and self._read[0] == view["seat"]
                and self._read[1] < view["round"])

    def read_last_round(self, view: dict[str, Any]) -> None:
        """Fold the round just lifted into the belief in the other's kind: how likely each
        kind was to make its moves holding the cup it showed."""
        last = view.get("last_round")
        if not self._still(view):
            self._read = None  # a new game
        if last is None or (self._read is not None and self._read[1] >= last["round"]):
            return
        weights = self.kinds_now(view) * self.likelihoods(view, last)
        total = weights.sum()
        if total > 0:
            self._read = (view["seat"], last["round"], weights / total)

    def likelihoods(self, view: dict[str, Any], last: dict[str, Any]) -> Array:
        """``[kind]``: the chance each kind of player makes the other's moves of a lifted
        round, holding the cup it showed (1 each where the round cannot be read)."""
        me = view["seat"]
        cups_then = last["cups"]
        others = [s for s, c in enumerate(cups_then) if c and s != me]
        if len(others) != 1 or not cups_then[me] or "wild" not in last:
            return np.ones(len(self.kinds))
        other = others[0]
        actions = [(seat, action) for seat, action in last["actions"]]
        first = self.game.parse_action(actions[0][1]) if actions else None
        palifico = self.game.rules.ones_wild and not last["wild"]
        stock = list(view["stock"])
        stock[last["seat"]] += last["change"]
        then = {**view, "dice_counts": [len(c) if c else 0 for c in cups_then],
                "total_dice": sum(len(c) for c in cups_then if c), "ones_wild": last["wild"],
                "locked_face": first.face if palifico and isinstance(first, Bid) else None,
                "your_dice": cups_then[me], "stock": stock,
                "alive": [bool(c) for c in cups_then]}
        rolls, _ = cups(len(cups_then[other]), self.game.rules.faces)
        cup = rolls.index(tuple(sorted(cups_then[other])))
        n = len(rolls)
        odds = np.ones(len(self.kinds))
        for t, (seat, action) in enumerate(actions):
            if seat != other:
                continue
            rnd = Round.of(self.game, {**then, "history": [
                {"seat": s, "action": a} for s, a in actions[:t]]})
            told = frozenset(b.face for s, b in rnd.said if s == me)
            after = rnd.index(rnd.said[-1][1]) if rnd.said else None
            raises, dudo, calza, raise_p = self.their_policy(rnd, told, after)
            move = self.game.parse_action(action)
            if isinstance(move, Bid):
                if rnd.index(move) not in raises:
                    continue  # a round this reading does not follow
                column = raise_p[:, raises.index(rnd.index(move))]
            else:
                column = dudo if isinstance(move, Dudo) else calza
            odds *= column[cup::n]
        return odds

    # -- what each move is worth ----------------------------------------------------------
    def values(self, rnd: Round, belief: Array, legal: Sequence[Action]) -> dict[str, float]:
        """The chance of winning the game after each legal move, by the belief."""
        out = Outcomes.of(self.game, rnd)
        told = frozenset(bid.face for seat, bid in rnd.said if seat == rnd.me)
        values: dict[str, float] = {}
        if rnd.said:
            last = rnd.index(rnd.said[-1][1])
            values[str(Dudo())] = float(belief @ out.we_challenge[:, last])
            if Calza() in legal:
                values[str(Calza())] = float(belief @ out.we_exact[:, last])
        # a further bid after the other's raise wins raise_true of the time if it holds
        won = self.raise_false + (self.raise_true - self.raise_false) * out.holds
        further = out.win[:, None] * won + out.lose[:, None] * (1 - won)
        for action in self.candidates(rnd, out, belief, legal):
            j = rnd.index(action)
            values[str(action)] = self.bid_value(rnd, out, belief, told | {action.face},
                                                 j, further)
        return values

    def candidates(self, rnd: Round, out: Outcomes, belief: Array,
                   legal: Sequence[Action]) -> list[Bid]:
        """The ``width`` bids likeliest to hold by the belief, lowest first: the rest are
        long shots, and valuing every one of sixty bids would keep the table waiting."""
        bids = [a for a in legal if isinstance(a, Bid)]
        if len(bids) <= self.width:
            return bids
        holds = belief @ out.holds
        ranked = sorted(range(len(bids)), key=lambda i: -holds[rnd.index(bids[i])])
        return [bids[i] for i in sorted(ranked[:self.width])]

    def bid_value(self, rnd: Round, out: Outcomes, belief: Array, told: frozenset[int],
                  j: int, further: Array) -> float:
        raises, dudo, calza, raise_p = self.their_policy(rnd, told, j)
        value = float(belief @ (dudo * out.they_challenge[:, j] + calza * out.they_exact[:, j]))
        if not raises:
            return value
        weight = belief[:, None] * raise_p  # [cup, their raise]
        answers = [(weight * out.we_challenge[:, raises]).sum(axis=0)]
        if rnd.view["exact_calls"]:
            answers.append((weight * out.we_exact[:, raises]).sum(axis=0))
        # a further bid is worth more the likelier it holds, so the best one after a raise
        # is the lowest allowed on some face
        nxt = rnd.lowest_next[raises]  # [their raise, face]
        onward = (weight[:, :, None] * further[:, np.maximum(nxt, 0)]).sum(axis=0)
        answers.append(np.where(nxt >= 0, onward, -np.inf).max(axis=1))
        return value + float(np.max(answers, axis=0).sum())


@dataclass
class Outcomes:
    """``[cup, bid]``: the chance of winning the game when the round ends on each bid."""

    holds: Array  # whether the bid holds with each cup of the other's (kind by kind)
    we_challenge: Array  # we challenge the other's bid
    we_exact: Array  # we call the other's bid exact
    they_challenge: Array  # the other challenges our bid
    they_exact: Array  # the other calls our bid exact
    win: Array  # per cup: the other loses a die (what a further bid is valued between)
    lose: Array

    @classmethod
    def of(cls, game: LiarsDice, rnd: Round) -> Outcomes:
        rules = game.rules
        view = rnd.view
        own = np.array([count_matches(view["your_dice"], f, rnd.wild)
                        for f in range(1, rnd.faces + 1)])
        theirs = cup_matches(view["dice_counts"][rnd.other], rnd.faces, rnd.wild)
        actual = theirs[:, rnd.face_col] + own[rnd.face_col][None, :]
        holds = actual >= rnd.counts[None, :]
        if rules.penalty == "difference":
            cost = np.maximum(1, np.abs(actual - rnd.counts[None, :]))
        else:
            cost = np.ones_like(actual)
        start = rules.start
        w = win_table(start)
        a, b = view["stock"][rnd.me], view["stock"][rnd.other]

        def at(x: Any, y: Any) -> Array:
            return np.asarray(w[np.clip(x, 0, start + 1), np.clip(y, 0, start + 1)], float)

        exact = actual == rnd.counts[None, :]
        came_back = view.get("came_back", [])

        def gained(stock: int, seat: int) -> int:
            if rules.come_back and stock == 1 and seat not in came_back:
                return start
            return stock + 1 if stock < start else stock

        if rules.exact_gain:
            we_right, they_right = at(gained(a, rnd.me), b), at(a, gained(b, rnd.other))
        else:
            we_right, they_right = at(a, b - 1), at(a - 1, b)
        # the same for either kind of player the other may be
        kinds = (3, 1)
        return cls(
            holds=np.tile(holds.astype(float), kinds),
            we_challenge=np.tile(np.where(holds, at(a - cost, b), at(a, b - cost)), kinds),
            we_exact=np.tile(np.where(exact, we_right, at(a - 1, b)), kinds),
            they_challenge=np.tile(np.where(holds, at(a, b - cost), at(a - cost, b)), kinds),
            they_exact=np.tile(np.where(exact, they_right, at(a, b - 1)), kinds),
            win=np.full(3 * theirs.shape[0], float(at(a, b - 1))),
            lose=np.full(3 * theirs.shape[0], float(at(a - 1, b))),
        )


@register_bot("liars_dice", "search", "heads-up: reads the other cup from its bids (as the "
              "strong bot would bid) and values each move one reply ahead; solved rounds by "
              "their equilibrium, more players as the strong bot")
def search(game: Game) -> Player:
    from kastkopp.strategy.liars_equilibrium import EquilibriumLiarsBot

    return EquilibriumLiarsBot(liars_game(game), SearchLiarsBot(liars_game(game)))

"""CFR+ for one round of two-player liar's dice without building the tree of bid sequences.

A node of the round is the set of bids made so far (they only go up), so the tree has a
node for every subset of the bids: 2^16 with two dice each and four faces, 2^20 with five
faces, 2^24 with six. :mod:`kastkopp.strategy.cfr` keeps the tree as arrays of nodes,
each with a vector over hands, which is the fast way for small trees and does not fit in
memory for the big ones. Here the tree is never stored: the children of the node whose last
bid is ``k`` are the bids above ``k`` and the challenge, so the whole subtree below it has
the same shape wherever ``k`` comes last, and its edges sit in one contiguous block whose
size depends on ``k`` alone. A depth-first walk (compiled with numba, a loop over an
explicit stack) finds every edge's row in the regret and average-strategy tables by
arithmetic, and keeps only one vector per depth for reaches and values. The memory is the
two tables and nothing else: edges × hands × 2 numbers.

It is the same algorithm as :class:`kastkopp.strategy.cfr.Solver` with ``variant="cfr+"``
(alternating updates, regrets floored at zero, linear averaging) and its exploitability is
computed exactly in the same way (a best-response walk against the average strategy); the
tests check that both solvers' iterates agree. A challenge is valued without the matrix
of hand pairs: the bid holds when the two cups' counts for its face add up to the count
bid, so the opponent's reach is summed by his count (0, 1 or 2 dice for the face) once and
each of the player's hands takes the sums at or above what it lacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from kastkopp.dice import multisets
from kastkopp.engine import RuleError
from kastkopp.strategy.cfr import Iterating
from kastkopp.strategy.liars_bidding import Bidding

CALL = "dudo"
NO_BID = -1


def _subtree_edges(bids: int) -> np.ndarray:
    """edges[k]: the edges of the subtree below the node whose last bid is ``k``."""
    edges = np.zeros(bids, dtype=np.int64)
    for k in range(bids - 1, -1, -1):
        edges[k] = (bids - k) + int(edges[k + 1:].sum())
    return edges


@dataclass(frozen=True)
class Lattice:
    """The shape of a round: bids, openings, hands, and how every challenge comes out."""

    bidding: Bidding
    openings: np.ndarray  # bid indices a round may open with
    subtree: np.ndarray  # edges below a node, by its last bid
    need: np.ndarray  # the count of each bid
    counts: tuple[np.ndarray, np.ndarray]  # [bid, hand]: the hand's dice for that bid
    prob: tuple[np.ndarray, np.ndarray]  # each player's chance of each hand
    labels: tuple[str, ...]

    @classmethod
    def of(cls, bidding: Bidding) -> Lattice:
        cups = [[h for h, _ in multisets(d, bidding.faces)] for d in bidding.dice]
        prob = tuple(np.array([float(p) for _, p in multisets(d, bidding.faces)])
                     for d in bidding.dice)
        bids = bidding.bids
        counts = tuple(np.array([[bidding.count(cup, b.face) for cup in hands] for b in bids],
                                dtype=np.int64) for hands in cups)
        # The walk counts each cup alone; that is the game's rule only if counts add up.
        for k, b in enumerate(bids):
            for i, a in enumerate(cups[0]):
                for j, c in enumerate(cups[1]):
                    if bidding.holds(b, a + c) != (counts[0][k, i] + counts[1][k, j]
                                                   >= b.count):
                        raise RuleError("this bidding does not count the two cups apart")
        openings = np.array([bids.index(b) for b in bidding.openings()], dtype=np.int64)
        return cls(bidding, openings, _subtree_edges(len(bids)),
                   np.array([b.count for b in bids], dtype=np.int64),
                   (counts[0], counts[1]), (prob[0], prob[1]),
                   (*(str(b) for b in bids), CALL))

    @property
    def hands(self) -> tuple[int, int]:
        return (len(self.prob[0]), len(self.prob[1]))

    @property
    def edges(self) -> int:
        return len(self.openings) + int(self.subtree[self.openings].sum())

    def bytes(self, itemsize: int = 8) -> int:
        """The memory of the regret and average tables."""
        return 2 * self.edges * max(self.hands) * itemsize

    def node(self, bids: Sequence[int]) -> tuple[int, int]:
        """The first edge row and the last bid of the node after ``bids`` (indices)."""
        offset, last = 0, NO_BID
        for b in bids:
            children = list(self.openings) if last == NO_BID else list(range(last + 1,
                                                                             len(self.need)))
            if b not in children:
                raise RuleError("no such bidding in this round")
            offset += len(children) + (last != NO_BID)
            offset += int(sum(self.subtree[c] for c in children[:children.index(b)]))
            last = b
        return offset, last

    def actions(self, last: int) -> list[str]:
        if last == NO_BID:
            return [self.labels[int(b)] for b in self.openings]
        return [*self.labels[last + 1:len(self.need)], CALL]


# --------------------------------------------------------------------------- the walk
#
# mode 0: a CFR+ update of player p's regrets and average; 1: player p's best response to
# the average strategy; 2: player 0's value when both play the average strategy.


@numba.njit(cache=True, nogil=True)
def _walk(p, t, mode, openings, subtree, need, counts0, counts1, prob0, prob1, regrets,
          average, sig, child_values, reach, out, scratch, stack):
    """One depth-first pass from the root; player p's values of his hands end in out[0].

    A loop with an explicit stack (``stack[d]``: last bid, first edge row, edge being
    walked, row of that edge's subtree, edges) rather than recursion: no call per node.
    ``reach[d, 0]`` is p's reach at depth d, ``reach[d, 1]`` the other player's."""
    n_bids = need.shape[0]
    n = (prob0.shape[0], prob1.shape[0])
    np_ = n[p]
    d = 0
    _enter(0, NO_BID, 0, p, mode, openings, n_bids, n, regrets, average, sig, stack)
    while True:
        descended = False
        q = d % 2
        while stack[d, 2] < stack[d, 4]:
            e = stack[d, 2]
            last = stack[d, 0]
            for h in range(np_):
                reach[d + 1, 0, h] = reach[d, 0, h] * sig[d, e, h] if q == p and mode != 1 \
                    else reach[d, 0, h]
            for h in range(n[1 - p]):
                reach[d + 1, 1, h] = reach[d, 1, h] * sig[d, e, h] if q != p \
                    else reach[d, 1, h]
            if last != NO_BID and e == stack[d, 4] - 1:  # the challenge
                _challenge(last, d, p, need, counts0, counts1, prob0, prob1, reach[d + 1, 1],
                           child_values[d, e], scratch)
                stack[d, 2] += 1
                continue
            c = openings[e] if last == NO_BID else last + 1 + e
            if c == n_bids - 1:
                # The top bid leaves only the challenge (half of all nodes): its value is
                # the challenge's, its regret stays zero and its one action needs no average.
                _challenge(c, d + 1, p, need, counts0, counts1, prob0, prob1,
                           reach[d + 1, 1], child_values[d, e], scratch)
                stack[d, 3] += subtree[c]
                stack[d, 2] += 1
                continue
            _enter(d + 1, c, stack[d, 3], p, mode, openings, n_bids, n, regrets, average, sig,
                   stack)
            d += 1
            descended = True
            break
        if descended:
            continue
        _finish(d, p, t, mode, np_, regrets, average, sig, child_values, reach, out, stack)
        if d == 0:
            return
        d -= 1
        e = stack[d, 2]
        for h in range(np_):
            child_values[d, e, h] = out[d + 1, h]
        stack[d, 3] += subtree[stack[d + 1, 0]]
        stack[d, 2] += 1


@numba.njit(cache=True, nogil=True, inline="always")
def _enter(d, last, off, p, mode, openings, n_bids, n, regrets, average, sig, stack):
    """Open the node at depth d: its place in the tables and its strategy."""
    n_edges = openings.shape[0] if last == NO_BID else n_bids - last
    stack[d, 0], stack[d, 1], stack[d, 2] = last, off, 0
    stack[d, 3], stack[d, 4] = off + n_edges, n_edges
    q = d % 2
    if mode == 1 and q == p:
        return  # the best response needs no strategy of its own
    for h in range(n[q]):
        total = 0.0
        for e in range(n_edges):
            x = regrets[off + e, h] if mode == 0 else average[off + e, h]
            if x < 0.0:
                x = 0.0
            sig[d, e, h] = x
            total += x
        for e in range(n_edges):
            sig[d, e, h] = sig[d, e, h] / total if total > 0.0 else 1.0 / n_edges


@numba.njit(cache=True, nogil=True, inline="always")
def _finish(d, p, t, mode, np_, regrets, average, sig, child_values, reach, out, stack):
    """Close the node at depth d: its value, and in an update its regrets and average."""
    q = d % 2
    off, n_edges = stack[d, 1], stack[d, 4]
    for h in range(np_):
        if q != p:
            v = 0.0
            for e in range(n_edges):
                v += child_values[d, e, h]
        elif mode == 1:
            v = child_values[d, 0, h]
            for e in range(1, n_edges):
                v = max(v, child_values[d, e, h])
        else:
            v = 0.0
            for e in range(n_edges):
                v += sig[d, e, h] * child_values[d, e, h]
        out[d, h] = v
    if mode == 0 and q == p:
        for e in range(n_edges):
            for h in range(np_):
                r = regrets[off + e, h] + child_values[d, e, h] - out[d, h]
                regrets[off + e, h] = r if r > 0.0 else 0.0
                average[off + e, h] += t * reach[d, 0, h] * sig[d, e, h]


@numba.njit(cache=True, nogil=True, inline="always")
def _challenge(last, depth, p, need, counts0, counts1, prob0, prob1, opp, out, by_count):
    """out[i]: player p's counterfactual value of hand i when bid ``last`` is challenged
    (``by_count`` is scratch space)."""
    mine, theirs = (counts0, counts1) if p == 0 else (counts1, counts0)
    p_mine, p_theirs = (prob0, prob1) if p == 0 else (prob1, prob0)
    bidder = (depth - 1) % 2
    sign = 1.0 if bidder == p else -1.0  # the bidder wins if the bid holds
    by_count[:] = 0.0
    top = 0
    total = 0.0
    for j in range(p_theirs.shape[0]):
        w = p_theirs[j] * opp[j]
        c = theirs[last, j]
        top = max(top, c)
        by_count[c] += w
        total += w
    for c in range(top - 1, -1, -1):  # by_count[c]: reach of hands with c or more
        by_count[c] += by_count[c + 1]
    for i in range(p_mine.shape[0]):
        lack = need[last] - mine[last, i]
        holds = total if lack <= 0 else (by_count[lack] if lack <= top else 0.0)
        out[i] = sign * p_mine[i] * (2.0 * holds - total)


# --------------------------------------------------------------------------- the solver


class LatticeSolver(Iterating):
    """CFR+ on a :class:`Lattice`; the same interface as :class:`~kastkopp.strategy.cfr.Solver`
    where the liar's-dice code needs it."""

    def __init__(self, lattice: Lattice, dtype: type = np.float64) -> None:
        self.lattice = lattice
        self.iterations = 0
        self.variant = "cfr+"
        width = max(lattice.hands)
        self.regrets: np.ndarray = np.zeros((lattice.edges, width), dtype=dtype)
        self.average: np.ndarray = np.zeros((lattice.edges, width), dtype=dtype)
        depth = len(lattice.need) + 2
        self._sig = np.zeros((depth, len(lattice.need) + 1, width))
        self._cv = np.zeros((depth, len(lattice.need) + 1, width))
        self._reach = np.ones((depth, 2, width))
        self._out = np.zeros((depth, width))
        self._scratch = np.zeros(int(lattice.need.max()) + 2 + max(
            int(c.max()) for c in lattice.counts))
        self._stack = np.zeros((depth, 5), dtype=np.int64)

    def _run(self, p: int, mode: int) -> float:
        la = self.lattice
        self._reach[0] = 1.0
        _walk(p, float(self.iterations), mode, la.openings, la.subtree, la.need,
              la.counts[0], la.counts[1], la.prob[0], la.prob[1], self.regrets, self.average,
              self._sig, self._cv, self._reach, self._out, self._scratch, self._stack)
        return float(self._out[0, :la.hands[p]].sum())

    def iterate(self) -> None:
        self.iterations += 1
        for player in (0, 1):
            self._run(player, 0)

    def game_value(self) -> float:
        return self._run(0, 2)

    def best_response_value(self, player: int) -> float:
        return self._run(player, 1)

    def exploitability(self) -> float:
        return 0.5 * (self.best_response_value(0) + self.best_response_value(1))

    def policy(self, bids: Sequence[int]) -> dict[str, np.ndarray]:
        """After ``bids`` (indices): each action's probability for every hand of the player
        to move, by the average strategy."""
        la = self.lattice
        offset, last = la.node(bids)
        labels = la.actions(last)
        n = la.hands[len(bids) % 2]
        rows = np.maximum(self.average[offset:offset + len(labels), :n].astype(float), 0.0)
        total = rows.sum(axis=0)
        rows = np.where(total > 0, rows / np.where(total > 0, total, 1.0), 1.0 / len(labels))
        return dict(zip(labels, rows, strict=True))

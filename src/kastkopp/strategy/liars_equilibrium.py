"""Equilibrium play for one round of two-player liar's dice, by CFR over the bidding tree.

Each player's private hand is his cup (a sorted roll); everything else — the bids and the
challenge — is public. So the public tree is the tree of bid sequences, and
:mod:`kastkopp.strategy.cfr` carries, along it, one vector per player over his possible
cups. A leaf is a challenge of the last bid: the bidder wins one if the lifted dice hold it.
Which bids exist, which may open and how dice are counted come from
:class:`kastkopp.strategy.liars_bidding.Bidding` (kastkopp's rule sets, or OpenSpiel's).

The tree has one node per increasing sequence of bids, so it doubles with every bid: one
die each with six faces is 2^12 sequences, two dice each with four faces 2^16. Trees up to
:data:`MAX_NODES` can be built and solved by :mod:`kastkopp.strategy.cfr` (discounted CFR
runs there); CFR+ runs by :mod:`kastkopp.strategy.liars_lattice`, which never builds the
tree, is about ten times faster, and takes rounds up to :data:`MAX_TABLE_BYTES` of regret
and strategy tables (two dice each with five faces, 2^20). Two dice each with six
faces (2^24) needs 11 GB and about 14 s of processor time an iteration, hours in all, and
is refused with those figures.

Usage::

    >>> from kastkopp.strategy.liars_bidding import Bidding
    >>> eq = solve(Bidding.openspiel(dice=1, faces=3), target=1e-4)
    >>> eq.exploitability < 1e-4, -1 < eq.game_value < 1
    (True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kastkopp.dice import Faces, multisets
from kastkopp.engine import Action, Player, RuleError
from kastkopp.games.liars_dice import LiarsDice, LiarsRules
from kastkopp.strategy.cfr import Array, Decision, Leaf, Solver, build
from kastkopp.strategy.liars_bidding import Bidding
from kastkopp.strategy.liars_lattice import Lattice, LatticeSolver
from kastkopp.strategy.work import LRU, Work

MAX_NODES = 300_000
MAX_TABLE_BYTES = 2_000_000_000
# Measured: one CFR+ iteration of the lattice walk takes about 20 ns of processor time per
# edge and hand (two dice each, five faces: 0.6 s for 2,097,150 edges x 15 hands).
SECONDS_PER_EDGE_HAND = 2e-8
# A bot solves a round while its table waits (on the server in a worker process, see
# EquilibriumLiarsBot.work), so it solves only rounds that take about a second at most.
# Measured on the 2-core machine: one die each, six faces (2^12 bid sequences) 0.7 s; one
# die against two (2^18) 37 s, which the bot plays by the odds instead.
BOT_MAX_SEQUENCES = 2 ** 14
CALL = "dudo"


@dataclass(frozen=True)
class BiddingGame:
    """The public tree of one round: a node is the tuple of bids made (indices)."""

    bidding: Bidding

    @property
    def cups(self) -> tuple[list[Faces], list[Faces]]:
        return tuple([h for h, _ in multisets(d, self.bidding.faces)]  # type: ignore[return-value]
                     for d in self.bidding.dice)

    @property
    def hands(self) -> tuple[int, int]:
        a, b = self.cups
        return (len(a), len(b))

    def chance(self) -> Array:
        p0, p1 = ([float(p) for _, p in multisets(d, self.bidding.faces)]
                  for d in self.bidding.dice)
        return np.outer(p0, p1)

    def root(self) -> Hashable:
        return ()

    def expand(self, node: Hashable) -> Decision | Leaf:
        assert isinstance(node, tuple)
        if node and node[-1] == CALL:
            return Leaf((node[-2], (len(node) - 2) % 2))  # the bid challenged, its bidder
        bids = self.bidding.bids
        options = self.bidding.higher(bids[node[-1]]) if node else self.bidding.openings()
        actions: list[tuple[str, Hashable]] = [
            (str(b), (*node, bids.index(b))) for b in options]
        if node:
            actions.append((CALL, (*node, CALL)))
        return Decision(len(node) % 2, actions)

    def payoff(self, key: Hashable) -> Array:
        """The first bidder's winnings for each pair of cups when ``key`` is challenged."""
        assert isinstance(key, tuple)
        index, bidder = key
        bid = self.bidding.bids[index]
        first, second = self.cups
        holds = np.array([[self.bidding.holds(bid, a + b) for b in second] for a in first])
        win = np.where(holds, 1.0, -1.0)
        return win if bidder == 0 else -win


def _tree(bidding: Bidding) -> tuple[BiddingGame, Any]:
    game = BiddingGame(bidding)
    size = 2 ** len(bidding.bids)
    if size > MAX_NODES:
        raise RuleError(f"{len(bidding.bids)} possible bids make about {size:,} bid sequences; "
                        f"the tree solver takes up to {MAX_NODES:,} (fewer dice or faces)")
    return game, build(game, max_nodes=4 * MAX_NODES)


def _lattice(bidding: Bidding, max_bytes: float = MAX_TABLE_BYTES) -> Lattice:
    """The walk for rounds too big for the tree, or the reason (in numbers) it is refused."""
    lattice = Lattice.of(bidding)
    need = lattice.bytes()
    if need > max_bytes:
        hands = max(lattice.hands)
        per_iteration = SECONDS_PER_EDGE_HAND * lattice.edges * hands
        raise RuleError(
            f"{len(bidding.bids)} possible bids make {2 ** len(bidding.bids):,} bid sequences: "
            f"exact CFR needs {need / 1e9:.1f} GB for its tables ({lattice.edges:,} moves x "
            f"{hands} cups x 2) and about {per_iteration:.0f} s of processor time an "
            f"iteration, for hundreds of iterations; the solver takes up to "
            f"{max_bytes / 1e9:g} GB (fewer dice or faces, or allow more with --max-memory)")
    return lattice


@dataclass
class LiarsEquilibrium:
    """A solved round: its value for the first bidder, the strategy, and its quality."""

    bidding: Bidding
    solver: Solver | LatticeSolver
    game_value: float
    exploitability: float
    seconds: float
    cups: tuple[list[Faces], list[Faces]]

    @property
    def iterations(self) -> int:
        return self.solver.iterations

    def policy(self, bids: tuple[str, ...], cup: Faces) -> dict[str, float]:
        """How the player to move bids (or challenges) after ``bids`` holding ``cup``."""
        bidding = self.bidding
        names = {str(b): i for i, b in enumerate(bidding.bids)}
        node = tuple(names[b] for b in bids)
        known = (node in self.solver.tree.index if isinstance(self.solver, Solver)
                 else _walks_to(self.solver.lattice, node))
        if not known:
            raise RuleError(f"no such bidding in this round: {' '.join(bids) or 'the opening'}")
        player = len(node) % 2
        hand = self.cups[player].index(tuple(sorted(cup)))
        return {label: float(p[hand]) for label, p in self.solver.policy(node).items()}

    def opening_rows(self) -> list[dict[str, Any]]:
        """For each cup of the first bidder: his most likely opening bids."""
        rows = []
        for cup in self.cups[0]:
            policy = self.policy((), cup)
            top = sorted(policy.items(), key=lambda kv: -kv[1])[:3]
            rows.append({"cup": " ".join(map(str, cup)),
                         "bids": {label: p for label, p in top if p > 0.001}})
        return rows

    def to_json(self) -> dict[str, Any]:
        return {"game": "liars_dice", "dice": list(self.bidding.dice),
                "faces": self.bidding.faces, "wild": self.bidding.wild,
                "game_value": self.game_value, "exploitability": self.exploitability,
                "seconds": self.seconds, "iterations": self.iterations,
                "opening": self.opening_rows()}


def solve(bidding: Bidding, target: float = 1e-3, variant: str = "cfr+",
          max_iterations: int = 100_000, check_every: int = 10,
          progress: Callable[[int, float], None] | None = None,
          max_bytes: float = MAX_TABLE_BYTES) -> LiarsEquilibrium:
    """Run CFR until the exploitability is at most ``target``. CFR+ runs by the lattice walk
    (about ten times faster than on the built tree, and it takes rounds too big to build);
    discounted CFR on the tree, where it fits. ``max_bytes`` bounds the lattice walk's
    tables: a machine with the memory may solve two dice each with six faces (11.3 GB)."""
    started = time.perf_counter()
    game = BiddingGame(bidding)
    solver: Solver | LatticeSolver
    if variant == "cfr+" or 2 ** len(bidding.bids) > MAX_NODES:
        lattice = _lattice(bidding, max_bytes)
        if variant != "cfr+":
            raise RuleError(f"rounds this big are solved by CFR+ only, not {variant}")
        solver = LatticeSolver(lattice)
    else:
        solver = Solver(_tree(bidding)[1], variant=variant)
    gap = solver.solve(target, max_iterations=max_iterations, check_every=check_every,
                       callback=progress)
    return LiarsEquilibrium(bidding, solver, solver.game_value(), gap,
                            time.perf_counter() - started, game.cups)


def _walks_to(lattice: Lattice, node: tuple[int, ...]) -> bool:
    try:
        lattice.node(node)
    except RuleError:
        return False
    return True


# --------------------------------------------------------------------------- the bot

# Solved rounds kept by a process (under 1 MB each), the least recently used leaving first.
_SOLVED: LRU[tuple[LiarsRules, tuple[int, int]], LiarsEquilibrium | None] = LRU(64)


def equilibrium_for(rules: LiarsRules, cups: tuple[int, int]) -> LiarsEquilibrium | None:
    """The solved round for kastkopp rules and these cups, or ``None`` if there is none
    (rules that are not one round of bidding, or too many bids to solve while a table
    waits: the bot solves only rounds of at most :data:`BOT_MAX_SEQUENCES` bid sequences)."""
    key = (rules, cups)
    if key not in _SOLVED:
        _SOLVED.put(key, solve_round(rules, cups))
    return _SOLVED.get(key)


def solve_round(rules: LiarsRules, cups: tuple[int, int]) -> LiarsEquilibrium | None:
    """The round solved (in a worker process on a server), or ``None`` as above."""
    try:
        bidding = Bidding.from_rules(rules, cups)
    except RuleError:
        return None
    if 2 ** len(bidding.bids) > BOT_MAX_SEQUENCES:
        return None
    return solve(bidding, target=1e-3)


def round_solving(rules: LiarsRules, cups: tuple[int, int]) -> Work | None:
    """The solve of a round in a worker, kept here once done (``None``: kept already)."""
    key = (rules, cups)
    if key in _SOLVED:
        return None
    return Work(("liars_dice", rules, cups), solve_round, (rules, cups),
                lambda solved: _SOLVED.put(key, solved))


@dataclass
class EquilibriumLiarsBot(Player):
    """Two players, a cup each: bids by the solved equilibrium of the round; anywhere else
    (more players, palifico rounds, exact calls, rounds too big to solve) the strong bot."""

    game: LiarsDice
    fallback: Player

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        eq = self._round(view)
        if eq is None:
            return self.fallback.choose(view, legal, rng)
        bids = tuple(h["action"] for h in view["history"] if h["action"].startswith("bid"))
        policy = eq.policy(bids, tuple(view["your_dice"]))
        by_name = {str(a): a for a in legal}
        labels = [label for label in policy if label in by_name]
        weights = [policy[label] for label in labels]
        if not labels or sum(weights) <= 0:
            return self.fallback.choose(view, legal, rng)
        return by_name[rng.choices(labels, weights=weights)[0]]

    def _round(self, view: dict[str, Any]) -> LiarsEquilibrium | None:
        cups = self._cups(view)
        return None if cups is None else equilibrium_for(self.game.rules, cups)

    def _cups(self, view: dict[str, Any]) -> tuple[int, int] | None:
        """The opener's and the other's cup sizes of a heads-up round (else ``None``)."""
        alive = [s for s, a in enumerate(view["alive"]) if a]
        if len(alive) != 2 or view["palifico"] is not None or "your_dice" not in view:
            return None
        history = view["history"]
        opener = history[0]["seat"] if history else view["to_move"]
        other = alive[1] if alive[0] == opener else alive[0]
        return (view["dice_counts"][opener], view["dice_counts"][other])

    def work(self, view: dict[str, Any]) -> Work | None:
        cups = self._cups(view)
        return None if cups is None else round_solving(self.game.rules, cups)

    def cheap(self, view: dict[str, Any], legal: Sequence[Action],
              rng: random.Random) -> Action:
        """Until the round is solved: by the odds (the strong bot's own play)."""
        return self.fallback.choose(view, legal, rng)

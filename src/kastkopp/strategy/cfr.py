"""Counterfactual regret minimisation over a public tree, vectorised over private hands.

The two-player zero-sum games solved here share one shape: each player holds a private
hand (a die roll, a card), everything else that happens is public. So instead of walking
every deal separately, the solver walks the *public* tree once per iteration and carries,
at every public node, a vector per player: the reach of each of that player's hands, and on
the way back the counterfactual value of each hand. A player's information set is exactly
(public node, own hand), so one row of a strategy matrix is one information set.

A game describes itself to :func:`build` through a small :class:`PublicGame` protocol:

- ``hands``: how many private hands each player can hold, and ``chance()``: the joint
  probability of each pair of hands (a matrix, so dealt cards may exclude each other);
- ``root()`` and ``expand(node)``: a public node is either a :class:`Decision` (who acts,
  and for each action its label and the next public node) or a :class:`Leaf`;
- ``payoff(key)``: for a leaf, the matrix of what player 0 wins for each pair of hands
  (player 1 wins the negative). Leaves with the same key share one matrix.

Two regret rules are offered: CFR+ (regrets floored at zero, alternating updates, linear
averaging) and discounted CFR (α = 1.5, β = 0, γ = 2, Brown & Sandholm 2019). The best
response is exact: a backward pass in which the responder takes, for every hand, the best
action against the other player's average strategy. ``exploitability`` is the mean of the
two best-response gains (NashConv / 2, as OpenSpiel reports it).

Kuhn poker in a dozen lines, solved to its value of −1/18 for the first player::

    >>> import numpy as np
    >>> class Kuhn:
    ...     hands = (3, 3)
    ...     def chance(self):
    ...         return (1 - np.eye(3)) / 6          # two different cards of three
    ...     def root(self):
    ...         return ""
    ...     def expand(self, h):
    ...         if h in ("pp", "bp", "pbp", "bb", "pbb"):
    ...             return Leaf(h)
    ...         return Decision(len(h) % 2, [("p", h + "p"), ("b", h + "b")])
    ...     def payoff(self, h):
    ...         higher = np.sign(np.subtract.outer(range(3), range(3)))
    ...         if h in ("bp", "pbp"):                # a fold: the bettor takes the ante
    ...             return np.full((3, 3), 1.0 if h == "bp" else -1.0)
    ...         return higher * (2.0 if "b" in h else 1.0)
    >>> solver = Solver(build(Kuhn()))
    >>> solver.run(2000)
    >>> round(solver.game_value(), 4), solver.exploitability() < 1e-3
    (-0.0556, True)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

Array = np.ndarray


@dataclass(frozen=True)
class Decision:
    """A public node where ``player`` acts; ``actions`` are (label, next public node)."""

    player: int
    actions: Sequence[tuple[str, Hashable]]


@dataclass(frozen=True)
class Leaf:
    """A public node where the game ends; ``key`` names its payoff matrix."""

    key: Hashable


class PublicGame(Protocol):
    @property
    def hands(self) -> tuple[int, int]: ...

    def chance(self) -> Array: ...

    def root(self) -> Hashable: ...

    def expand(self, node: Hashable) -> Decision | Leaf: ...

    def payoff(self, key: Hashable) -> Array: ...


# --------------------------------------------------------------------------- the tree


@dataclass
class _Group:
    """The edges of one player at one depth: contiguous, siblings next to each other."""

    player: int
    edges: slice  # into that player's edge list
    parents: Array  # node of each sibling segment
    starts: Array  # start of each segment, relative to ``edges``
    counts: Array  # edges per segment


@dataclass
class PublicTree:
    """A public tree flattened into arrays, ready for vectorised passes."""

    hands: tuple[int, int]
    chance: Array
    nodes: list[Hashable]
    node_player: Array  # -1 for leaves
    leaves: Array  # node ids of the leaves
    leaf_matrix: Array  # index into ``matrices`` for each leaf
    matrices: Array  # (K, n0, n1): chance × payoff for player 0
    edge_parent: tuple[Array, Array]  # per player
    edge_child: tuple[Array, Array]
    edge_label: tuple[list[str], list[str]]
    groups: list[list[_Group]]  # by depth
    index: dict[Hashable, int] = field(repr=False, default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.nodes)

    def actions(self, node: Hashable) -> list[tuple[int, int, str]]:
        """(player, edge index, label) for every action at a public node."""
        n = self.index[node]
        player = int(self.node_player[n])
        if player < 0:
            return []
        edges = np.flatnonzero(self.edge_parent[player] == n)
        return [(player, int(e), self.edge_label[player][e]) for e in edges]


def build(game: PublicGame, max_nodes: int = 2_000_000) -> PublicTree:
    """Expand a game's public tree breadth first (so every depth is contiguous)."""
    hands = (int(game.hands[0]), int(game.hands[1]))
    chance = np.asarray(game.chance(), dtype=float)
    if chance.shape != hands:
        raise ValueError(f"chance matrix {chance.shape} does not match hands {hands}")
    root = game.root()
    nodes: list[Hashable] = [root]
    depth = [0]
    index: dict[Hashable, int] = {root: 0}
    players: list[int] = []
    leaf_keys: list[Hashable] = []
    leaves: list[int] = []
    raw_edges: list[tuple[int, int, int, int, str]] = []  # depth, player, parent, child, label
    cursor = 0
    while cursor < len(nodes):
        node = nodes[cursor]
        spec = game.expand(node)
        if isinstance(spec, Leaf):
            players.append(-1)
            leaves.append(cursor)
            leaf_keys.append(spec.key)
        else:
            players.append(spec.player)
            for name, successor in spec.actions:
                if successor in index:
                    raise ValueError(f"public node {successor!r} is reached twice: not a tree")
                index[successor] = len(nodes)
                nodes.append(successor)
                depth.append(depth[cursor] + 1)
                raw_edges.append((depth[cursor], spec.player, cursor, index[successor], name))
            if len(nodes) > max_nodes:
                raise ValueError(f"the public tree has more than {max_nodes} nodes")
        cursor += 1

    keys: dict[Hashable, int] = {}
    matrices: list[Array] = []
    for key in leaf_keys:
        if key not in keys:
            keys[key] = len(matrices)
            payoff = np.asarray(game.payoff(key), dtype=float)
            matrices.append(chance * np.broadcast_to(payoff, hands))
    # BFS order keeps siblings together; a stable sort by (depth, player) keeps it so.
    raw_edges.sort(key=lambda e: (e[0], e[1]))
    parent: list[list[int]] = [[], []]
    child: list[list[int]] = [[], []]
    label: list[list[str]] = [[], []]
    by_depth: dict[tuple[int, int], list[int]] = {}
    for d, p, a, b, text in raw_edges:
        by_depth.setdefault((d, p), []).append(len(parent[p]))
        parent[p].append(a)
        child[p].append(b)
        label[p].append(text)
    groups: list[list[_Group]] = [[] for _ in range(max(depth) + 1)]
    for (d, p), local in sorted(by_depth.items()):
        edges = slice(local[0], local[-1] + 1)
        seg_parent = np.asarray(parent[p][edges])
        change = np.flatnonzero(np.diff(seg_parent)) + 1
        starts = np.concatenate(([0], change))
        counts = np.diff(np.concatenate((starts, [len(seg_parent)])))
        groups[d].append(_Group(p, edges, seg_parent[starts], starts, counts))
    return PublicTree(
        hands=hands, chance=chance, nodes=nodes, node_player=np.asarray(players),
        leaves=np.asarray(leaves, dtype=int),
        leaf_matrix=np.asarray([keys[k] for k in leaf_keys], dtype=int),
        matrices=np.asarray(matrices).reshape(-1, *hands),
        edge_parent=(np.asarray(parent[0], dtype=int), np.asarray(parent[1], dtype=int)),
        edge_child=(np.asarray(child[0], dtype=int), np.asarray(child[1], dtype=int)),
        edge_label=(label[0], label[1]), groups=groups, index=index)


# --------------------------------------------------------------------------- the solver


class Iterating(ABC):
    """Running a CFR solver: ``iterate`` and ``exploitability`` are the solver's own."""

    iterations: int

    @abstractmethod
    def iterate(self) -> None:
        """One iteration for both players."""

    @abstractmethod
    def exploitability(self) -> float:
        """How much a best response gains against the average strategy, exactly."""

    def run(self, iterations: int, callback: Callable[[int], None] | None = None) -> None:
        for _ in range(iterations):
            self.iterate()
            if callback is not None:
                callback(self.iterations)

    def solve(self, target: float, max_iterations: int = 100_000, check_every: int = 10,
              callback: Callable[[int, float], None] | None = None) -> float:
        """Iterate until the exploitability is at most ``target``; return it."""
        gap = self.exploitability()
        while gap > target and self.iterations < max_iterations:
            self.run(check_every)
            gap = self.exploitability()
            if callback is not None:
                callback(self.iterations, gap)
        return gap


class Solver(Iterating):
    """CFR+ (``variant="cfr+"``) or discounted CFR (``"dcfr"``) on a :class:`PublicTree`."""

    def __init__(self, tree: PublicTree, variant: str = "cfr+") -> None:
        if variant not in ("cfr+", "dcfr"):
            raise ValueError(f"unknown CFR variant {variant!r} (cfr+ or dcfr)")
        self.tree = tree
        self.variant = variant
        self.iterations = 0
        n = tree.hands
        self.regrets = [np.zeros((len(tree.edge_parent[p]), n[p])) for p in (0, 1)]
        self.average = [np.zeros((len(tree.edge_parent[p]), n[p])) for p in (0, 1)]
        # Leaves in one tensor when small (one einsum), else grouped by payoff matrix.
        size = len(tree.leaves) * n[0] * n[1]
        self._leaf_tensor = tree.matrices[tree.leaf_matrix] if size <= 4_000_000 else None
        self._by_matrix = [(k, tree.leaves[tree.leaf_matrix == k])
                           for k in range(len(tree.matrices))]

    # -- strategies ------------------------------------------------------------------
    def _normalise(self, weights: Array, player: int) -> Array:
        """Rows of ``weights`` made into distributions over each node's actions."""
        out = np.empty_like(weights)
        for groups in self.tree.groups:
            for g in groups:
                if g.player != player:
                    continue
                w = weights[g.edges]
                totals = np.add.reduceat(w, g.starts, axis=0)
                uniform = np.repeat(1.0 / g.counts, g.counts)[:, None]
                totals = np.repeat(totals, g.counts, axis=0)
                safe = np.where(totals > 0, totals, 1.0)
                out[g.edges] = np.where(totals > 0, w / safe, uniform)
        return out

    def current_strategy(self, player: int) -> Array:
        return self._normalise(np.maximum(self.regrets[player], 0.0), player)

    def average_strategy(self, player: int) -> Array:
        """The average strategy: one row per edge of ``player``, one column per hand."""
        return self._normalise(self.average[player], player)

    # -- passes ----------------------------------------------------------------------
    def _reach(self, strategy: Sequence[Array]) -> list[Array]:
        tree = self.tree
        reach = [np.ones((tree.size, tree.hands[p])) for p in (0, 1)]
        for groups in tree.groups:
            for g in groups:
                p, o = g.player, 1 - g.player
                parents = tree.edge_parent[p][g.edges]
                children = tree.edge_child[p][g.edges]
                reach[p][children] = reach[p][parents] * strategy[p][g.edges]
                reach[o][children] = reach[o][parents]
        return reach

    def _leaf_values(self, player: int, reach: Sequence[Array]) -> Array:
        """Counterfactual values of ``player``'s hands at every leaf."""
        tree = self.tree
        other = reach[1 - player][tree.leaves]
        if self._leaf_tensor is not None:
            if player == 0:
                return np.einsum("tij,tj->ti", self._leaf_tensor, other)
            return -np.einsum("tij,ti->tj", self._leaf_tensor, other)
        values = np.empty((len(tree.leaves), tree.hands[player]))
        position = {int(leaf): i for i, leaf in enumerate(tree.leaves)}
        for k, leaves in self._by_matrix:
            rows = [position[int(leaf)] for leaf in leaves]
            matrix = tree.matrices[k]
            r = reach[1 - player][leaves]
            values[rows] = r @ matrix.T if player == 0 else -(r @ matrix)
        return values

    def _values(self, player: int, strategy: Sequence[Array], reach: Sequence[Array],
                regret_out: Array | None = None, best_response: bool = False) -> Array:
        """Backward pass: ``player``'s counterfactual value of each hand at every node.

        With ``regret_out`` the instantaneous regrets of ``player``'s edges are written into
        it; with ``best_response`` ``player`` takes the best action for every hand instead.
        """
        tree = self.tree
        values = np.zeros((tree.size, tree.hands[player]))
        values[tree.leaves] = self._leaf_values(player, reach)
        for groups in reversed(tree.groups):
            for g in groups:
                children = tree.edge_child[g.player][g.edges]
                child_values = values[children]
                if g.player != player:
                    values[g.parents] = np.add.reduceat(child_values, g.starts, axis=0)
                elif best_response:
                    values[g.parents] = np.maximum.reduceat(child_values, g.starts, axis=0)
                else:
                    weighted = strategy[player][g.edges] * child_values
                    node_values = np.add.reduceat(weighted, g.starts, axis=0)
                    values[g.parents] = node_values
                    if regret_out is not None:
                        regret_out[g.edges] = child_values - np.repeat(node_values, g.counts,
                                                                       axis=0)
        return values

    # -- iterating -------------------------------------------------------------------
    def iterate(self) -> None:
        """One iteration: each player in turn updates regrets against the other."""
        self.iterations += 1
        t = self.iterations
        for player in (0, 1):
            strategy = [self.current_strategy(0), self.current_strategy(1)]
            reach = self._reach(strategy)
            instant = np.zeros_like(self.regrets[player])
            self._values(player, strategy, reach, regret_out=instant)
            parents = self.tree.edge_parent[player]
            own = reach[player][parents] * strategy[player]
            if self.variant == "cfr+":
                self.regrets[player] = np.maximum(self.regrets[player] + instant, 0.0)
                self.average[player] += t * own
            else:
                r = self.regrets[player] + instant
                positive = t**1.5 / (t**1.5 + 1)
                self.regrets[player] = np.where(r > 0, r * positive, r * 0.5)
                self.average[player] = self.average[player] * ((t - 1) / t) ** 2 + own

    # -- measuring -------------------------------------------------------------------
    def _strategies(self, strategy: Sequence[Array] | None) -> list[Array]:
        if strategy is None:
            return [self.average_strategy(0), self.average_strategy(1)]
        return list(strategy)

    def game_value(self, strategy: Sequence[Array] | None = None) -> float:
        """What player 0 expects to win when both play ``strategy`` (default: the average)."""
        strategy = self._strategies(strategy)
        values = self._values(0, strategy, self._reach(strategy))
        return float(values[0].sum())

    def best_response_value(self, player: int,
                            strategy: Sequence[Array] | None = None) -> float:
        """The most ``player`` can expect against the other player's ``strategy``."""
        strategy = self._strategies(strategy)
        values = self._values(player, strategy, self._reach(strategy), best_response=True)
        return float(values[0].sum())

    def exploitability(self, strategy: Sequence[Array] | None = None) -> float:
        """(best response of 0 + best response of 1) / 2: zero exactly at an equilibrium."""
        strategy = self._strategies(strategy)
        return 0.5 * (self.best_response_value(0, strategy)
                      + self.best_response_value(1, strategy))

    def policy(self, node: Hashable, strategy: Sequence[Array] | None = None
               ) -> dict[str, Array]:
        """At a public node: each action's probability for every hand of the player acting."""
        strategy = self._strategies(strategy)
        return {label: strategy[player][edge]
                for player, edge, label in self.tree.actions(node)}

    def action_values(self, node: Hashable, hand: int,
                      strategy: Sequence[Array] | None = None) -> dict[str, float] | None:
        """What the player acting at ``node`` with ``hand`` expects from each action, both
        playing ``strategy`` afterwards (default: the average), given how the other player
        reached the node; ``None`` where the other player's strategy never gets there."""
        strategy = self._strategies(strategy)
        tree = self.tree
        n = tree.index[node]
        player = int(tree.node_player[n])
        reach = self._reach(strategy)
        values = self._values(player, strategy, reach)
        chance = tree.chance[hand] if player == 0 else tree.chance[:, hand]
        weight = float(chance @ reach[1 - player][n])
        if weight <= 1e-12:
            return None
        return {label: float(values[tree.edge_child[player][edge], hand]) / weight
                for _, edge, label in tree.actions(node)}

    def reach(self, strategy: Sequence[Array] | None = None) -> list[Array]:
        """Each player's own reach of every hand at every public node."""
        return self._reach(self._strategies(strategy))

"""An equilibrium of heads-up Linka: how to bet one hidden die against another.

Two players: the dealer (seat 0) throws the linka dice, each throws an open die, then a
hidden one, and the betting starts left of the dealer — with two players, seat 1 bets
first. Once the dice are down, everything is public except the two hidden dice, so every
deal (linka dice and both open dice) is a small game of its own: six hidden dice against
six, and a betting tree in which each player raises at most once, at most the pot.

Nothing of the rules is restated here. The betting tree is explored on the module's own
table (:mod:`kastkopp.games.linka`): its legal actions, and what each fold and each
showdown has cost whom when the betting stops. Who beats whom at the showdown is
:func:`kastkopp.games.linka.hand`; equal hands play again without bets, which is an even
chance for either, so a tie is worth nothing to either player.

Many deals are the same game: what matters is only how each player's six hidden dice rank
against the other's. Hidden dice that make the same hand are merged into one hand with its
weight, and deals whose hands rank alike share one game (258 games for the 756 deals).
The value and the exploitability of the whole game are the chance-weighted sums over the
deals (they are public, so a best response splits along them too). Each is solved exactly by its
sequence-form linear programme (HiGHS, through SciPy) — the project's CFR+ engine gets there
too, but needs thousands of iterations for each — and measured with the CFR engine's exact
best response (:meth:`kastkopp.strategy.cfr.Solver.exploitability`).

Folding when nothing is owed is left out of the tree: checking and then folding to any
raise is never worse, so neither player can gain by it and the measures are those of the
whole game.

Payoffs are koppar: the first bettor's value is what he expects to win from the dealer.

Usage — the seed's first example deal (linka 5 4; Rejd, betting first, shows a 6, Vikos
a 4), solved on its own::

    >>> from kastkopp.games.linka import LinkaRules
    >>> game, rejd, vikos = deal_game(Deal((5, 4), 6, 4))
    >>> tree = build(DealBetting(Betting.of(LinkaRules.make(ante=1, purse=3)), game))
    >>> strategy, value = sequence_form_lp(tree)
    >>> Solver(tree).exploitability(strategy) < 1e-9
    True
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from kastkopp.dice import Faces
from kastkopp.engine import Player, RuleError
from kastkopp.games.linka import Hand, Linka, LinkaRules, LinkaState, hand
from kastkopp.strategy.cfr import Array, Decision, Leaf, PublicTree, Solver, build
from kastkopp.strategy.work import partial

FIRST, DEALER = 1, 0  # seats; the solver's player 0 is the first bettor
Node = tuple[str, ...]  # the betting so far, as the table writes it


# --------------------------------------------------------------------------- the betting


@dataclass(frozen=True)
class Betting:
    """The betting tree of a two-player Linka table, read off the module's table.

    ``nodes`` maps each betting history to the seat to move and its actions, or, at the
    end, to ``("fold", won)`` (what the first bettor wins) or ``("show", stake)`` (what
    each has paid in, won or lost at the showdown).
    """

    nodes: dict[Node, tuple[str, Any]]

    @staticmethod
    def of(rules: LinkaRules) -> Betting:
        if rules.all_in != "no":
            raise RuleError("the Linka solver plays without all-in (all_in=no)")
        game = Linka(rules=rules, players=2)
        dealt = game.new_state()
        while dealt.chance() is not None:  # any dice: the betting does not depend on them
            dealt = dealt.resolve((1,) * dealt.chance().count)  # type: ignore[union-attr]
        nodes: dict[Node, tuple[str, Any]] = {}
        stack: list[tuple[Node, LinkaState]] = [((), dealt)]
        while stack:
            node, state = stack.pop()
            seat = state.to_move()
            if seat is None:
                nodes[node] = _end(state)
                continue
            actions = [str(a) for a in state.legal_actions()]
            nodes[node] = ("bet", (seat, tuple(actions)))
            stack.extend(((*node, a), state.apply(a)) for a in actions)
        return Betting(nodes)


def _end(state: LinkaState) -> tuple[str, Any]:
    ledger = state.ledger
    if ledger.folded:
        return "fold", float(state.outcome().payoffs[FIRST])
    stake = ledger.paid_in(FIRST)
    if ledger.paid_in(DEALER) != stake:
        raise ValueError("a showdown with unequal stakes (all-in) is not solved here")
    return "show", float(stake)


# --------------------------------------------------------------------------- the deals


@dataclass(frozen=True)
class Deal:
    """The dice on the table before the betting: the linka dice and both open dice."""

    linka: Faces
    first_open: int
    dealer_open: int


@dataclass(frozen=True)
class DealGame:
    """What a deal comes to: each player's hands (hidden dice making the same hand merged),
    ranked together 0 (worst) up, with how many hidden dice make each."""

    first: tuple[tuple[int, int], ...]  # (rank, dice) for the first bettor
    dealer: tuple[tuple[int, int], ...]


def deal_game(deal: Deal) -> tuple[DealGame, tuple[int, ...], tuple[int, ...]]:
    """The game of a deal, and for each hidden die 1..6 of each player its hand's index."""
    hands_first = [hand(deal.linka, (deal.first_open, h)) for h in range(1, 7)]
    hands_dealer = [hand(deal.linka, (deal.dealer_open, h)) for h in range(1, 7)]
    ranks = {h: i for i, h in enumerate(sorted(set(hands_first) | set(hands_dealer)))}

    def merged(hands: list[Hand]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
        counts = sorted(Counter(ranks[h] for h in hands).items())
        position = {rank: i for i, (rank, _) in enumerate(counts)}
        return tuple(counts), tuple(position[ranks[h]] for h in hands)

    first, first_index = merged(hands_first)
    dealer, dealer_index = merged(hands_dealer)
    return DealGame(first, dealer), first_index, dealer_index


def deals() -> list[tuple[Deal, float]]:
    """Every deal with its chance: linka dice A ≥ B, then the two open dice."""
    out = []
    for high in range(1, 7):
        for low in range(1, high + 1):
            p = (1 if high == low else 2) / 36 / 36
            for first in range(1, 7):
                for dealer in range(1, 7):
                    out.append((Deal((high, low), first, dealer), p))
    return out


@dataclass(frozen=True)
class DealBetting:
    """One deal's betting as a :class:`kastkopp.strategy.cfr.PublicGame`."""

    betting: Betting
    game: DealGame

    @property
    def hands(self) -> tuple[int, int]:
        return (len(self.game.first), len(self.game.dealer))

    def chance(self) -> Array:
        first = np.array([n for _, n in self.game.first], dtype=float)
        dealer = np.array([n for _, n in self.game.dealer], dtype=float)
        return np.outer(first, dealer) / 36

    def root(self) -> Hashable:
        return ()

    def expand(self, node: Hashable) -> Decision | Leaf:
        assert isinstance(node, tuple)
        kind, data = self.betting.nodes[node]
        if kind != "bet":
            return Leaf((kind, data))
        seat, actions = data
        if "check" in actions:  # folding when checking is free is never better: left out
            actions = tuple(a for a in actions if a != "fold")
        return Decision(0 if seat == FIRST else 1, [(a, (*node, a)) for a in actions])

    def payoff(self, key: Hashable) -> Array:
        """What the first bettor wins, for each pair of hands."""
        assert isinstance(key, tuple)
        kind, amount = key
        if kind == "fold":
            return np.full(self.hands, amount)
        first = np.array([r for r, _ in self.game.first])
        dealer = np.array([r for r, _ in self.game.dealer])
        return amount * np.sign(np.subtract.outer(first, dealer)).astype(float)


# --------------------------------------------------------------------------- solving


def sequence_form_lp(tree: PublicTree) -> tuple[list[Array], float]:
    """Both players' equilibrium strategies of a small public tree, exactly, by the
    sequence-form linear programme, and player 0's value.

    A player's realisation plan gives, for every one of his hands, the chance that his own
    actions follow each sequence; a sequence ends with one of his edges (or is empty).
    The plans are turned back into the solver's behavioural strategies (one row per edge,
    one column per hand), so that :class:`Solver` can measure them.
    """
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, hstack

    hands = tree.hands
    size = tree.size
    # the last edge of each player on the way to every node (-1: none yet)
    last = [np.full(size, -1), np.full(size, -1)]
    for groups in tree.groups:
        for g in groups:
            p = g.player
            edges = np.arange(g.edges.start, g.edges.stop)
            parents = tree.edge_parent[p][edges]
            children = tree.edge_child[p][edges]
            last[p][children] = edges
            last[1 - p][children] = last[1 - p][parents]

    def constraints(p: int) -> tuple[Any, Array]:
        """E x = e: the empty sequence is 1; at each node of p, the children sum to it."""
        h = hands[p]
        rows: list[int] = list(range(h))
        cols: list[int] = list(range(h))
        vals: list[float] = [1.0] * h
        rhs: list[float] = [1.0] * h
        deciders = np.flatnonzero(tree.node_player == p)
        children_of: dict[int, list[int]] = {}
        for e, parent in enumerate(tree.edge_parent[p]):
            children_of.setdefault(int(parent), []).append(e)
        row = h
        for n in deciders:
            for i in range(h):
                for e in children_of[int(n)]:
                    rows.append(row)
                    cols.append((e + 1) * h + i)
                    vals.append(1.0)
                rows.append(row)
                cols.append((last[p][n] + 1) * h + i)
                vals.append(-1.0)
                rhs.append(0.0)
                row += 1
        count = (len(tree.edge_parent[p]) + 1) * h
        return coo_matrix((vals, (rows, cols)), shape=(row, count)).tocsr(), np.array(rhs)

    # the payoff matrix over sequences, player 0's rows against player 1's columns
    h0, h1 = hands
    rows, cols, vals = [], [], []
    ii, jj = np.meshgrid(np.arange(h0), np.arange(h1), indexing="ij")
    for leaf, k in zip(tree.leaves, tree.leaf_matrix, strict=True):
        s0, s1 = last[0][leaf] + 1, last[1][leaf] + 1
        rows.append((s0 * h0 + ii).ravel())
        cols.append((s1 * h1 + jj).ravel())
        vals.append(tree.matrices[k].ravel())
    n0 = (len(tree.edge_parent[0]) + 1) * h0
    n1 = (len(tree.edge_parent[1]) + 1) * h1
    payoff = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                        shape=(n0, n1)).tocsr()
    e_mat, e_rhs = constraints(0)
    f_mat, f_rhs = constraints(1)
    # player 0: max f.v  s.t.  F^T v - A^T x <= 0,  E x = e,  x >= 0
    first = linprog(np.concatenate([np.zeros(n0), -f_rhs]),
                    A_ub=hstack([-payoff.T, f_mat.T]).tocsr(), b_ub=np.zeros(n1),
                    A_eq=hstack([e_mat, coo_matrix((e_mat.shape[0], f_mat.shape[0]))]).tocsr(),
                    b_eq=e_rhs, bounds=[(0, None)] * n0 + [(None, None)] * f_mat.shape[0],
                    method="highs")
    if first.status != 0:
        raise RuntimeError(f"the linear programme failed: {first.message}")
    # player 1's plan is the dual of player 0's: the prices of the constraints F^T v <= A^T x
    plans = [first.x[:n0].reshape(-1, h0), -first.ineqlin.marginals.reshape(-1, h1)]
    strategy = []
    for p in (0, 1):
        plan = np.maximum(plans[p], 0.0)
        parent_seq = last[p][tree.edge_parent[p]] + 1
        reach = plan[parent_seq]
        own = plan[1:]
        behaviour = np.where(reach > 1e-12, own / np.where(reach > 1e-12, reach, 1.0), 0.0)
        strategy.append(behaviour)
    return strategy, float(-first.fun)


@dataclass
class Solved:
    """One deal game, solved: a strategy (one row per edge of the betting tree, one column
    per hand) for each player, its value and exploitability."""

    strategy: list[Array]
    value: float
    exploitability: float


@dataclass
class LinkaEquilibrium:
    rules: LinkaRules
    tree: PublicTree  # the betting, the same for every deal
    games: dict[DealGame, Solved]
    value: float = 0.0  # for the first bettor, in koppar
    exploitability: float = 0.0
    seconds: float = 0.0
    best_responses: dict[str, float] = field(default_factory=dict)
    cached: bool = False

    def node_policy(self, game: DealGame, node: Node) -> dict[str, Array]:
        """At a betting history: each action's chance for every hand of the player to act."""
        strategy = self.games[game].strategy
        return {label: strategy[player][edge] for player, edge, label in self.tree.actions(node)}

    def policy(self, deal: Deal, history: Sequence[str], hidden: int, seat: int
               ) -> dict[str, float]:
        """The chance of each action for ``seat`` holding ``hidden`` after ``history``."""
        game, first_index, dealer_index = deal_game(deal)
        column = (first_index if seat == FIRST else dealer_index)[hidden - 1]
        return {label: float(p[column])
                for label, p in self.node_policy(game, tuple(history)).items()}

    def rows(self) -> list[dict[str, Any]]:
        return summary(self)

    def to_json(self) -> dict[str, Any]:
        return {"game": "linka", "players": 2, "rules": self.rules.to_json(),
                "first_bettor_value": self.value, "exploitability": self.exploitability,
                "best_responses": self.best_responses, "deal_games": len(self.games),
                "seconds": self.seconds, "cached": self.cached, "hands": self.rows()}


def solve(rules: LinkaRules, progress: Callable[[int, int], None] | None = None
          ) -> LinkaEquilibrium:
    """Solve heads-up Linka under ``rules``: every deal game by its linear programme."""
    started = time.perf_counter()
    betting = Betting.of(rules)
    weights = deal_weights()
    eq: LinkaEquilibrium | None = None
    first_br = dealer_br = 0.0
    for done, (game, weight) in enumerate(weights.items()):
        solver = Solver(build(DealBetting(betting, game)))
        strategy, _ = sequence_form_lp(solver.tree)
        if eq is None:
            eq = LinkaEquilibrium(rules=rules, tree=solver.tree, games={})
        value = solver.game_value(strategy)
        gap = solver.exploitability(strategy)
        eq.games[game] = Solved(strategy, value, gap)
        eq.value += weight * value
        eq.exploitability += weight * gap
        first_br += weight * solver.best_response_value(0, strategy)
        dealer_br += weight * solver.best_response_value(1, strategy)
        if progress is not None:
            progress(done + 1, len(weights))
    assert eq is not None
    eq.best_responses = {"first_bettor": first_br, "dealer": dealer_br}
    eq.seconds = time.perf_counter() - started
    return eq


def deal_weights() -> dict[DealGame, float]:
    """Every deal game with the chance of the deals that come to it."""
    weights: dict[DealGame, float] = {}
    for deal, p in deals():
        game = deal_game(deal)[0]
        weights[game] = weights.get(game, 0.0) + p
    return weights


# --------------------------------------------------------------------------- the cache

CACHE_VERSION = 1


def cache_path(rules: LinkaRules) -> Path:
    from kastkopp.strategy.yatzy_solver import cache_dir

    relevant = {k: rules.to_json()[k] for k in ("ante", "purse", "purses", "all_in")}
    text = json.dumps({"solver": CACHE_VERSION, **relevant}, sort_keys=True)
    return cache_dir() / f"linka-{hashlib.sha256(text.encode()).hexdigest()[:16]}.npz"


def save(eq: LinkaEquilibrium, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Array] = {}
    for i, solved in enumerate(eq.games.values()):
        arrays[f"first{i}"], arrays[f"dealer{i}"] = solved.strategy
        arrays[f"measures{i}"] = np.array([solved.value, solved.exploitability])
    meta = {"games": [[list(map(list, g.first)), list(map(list, g.dealer))] for g in eq.games],
            "value": eq.value, "exploitability": eq.exploitability,
            "best_responses": eq.best_responses, "seconds": eq.seconds}
    temporary = partial(path, ".npz")
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(temporary, **arrays)  # type: ignore[arg-type]
    temporary.replace(path)


def load(rules: LinkaRules, path: Path) -> LinkaEquilibrium:
    data = np.load(path)
    meta = json.loads(str(data["meta"]))
    tree = build(DealBetting(Betting.of(rules), DealGame(((0, 6),), ((0, 6),))))
    games = {}
    for i, (first, dealer) in enumerate(meta["games"]):
        game = DealGame(tuple(map(tuple, first)), tuple(map(tuple, dealer)))
        value, gap = data[f"measures{i}"]
        games[game] = Solved([data[f"first{i}"], data[f"dealer{i}"]], float(value), float(gap))
    return LinkaEquilibrium(rules=rules, tree=tree, games=games, value=meta["value"],
                            exploitability=meta["exploitability"],
                            best_responses=meta["best_responses"], seconds=meta["seconds"],
                            cached=True)


def cached_solve(rules: LinkaRules, progress: Callable[[int, int], None] | None = None,
                 fresh: bool = False) -> LinkaEquilibrium:
    """:func:`solve`, kept on disk (``KASTKOPP_CACHE`` or the user's cache directory)."""
    path = cache_path(rules)
    if path.exists() and not fresh:
        return load(rules, path)
    eq = solve(rules, progress)
    save(eq, path)
    return eq


@lru_cache(maxsize=8)
def equilibrium_for(rules: LinkaRules) -> LinkaEquilibrium:
    """The solved game for ``rules``, once per process (the bot asks every move)."""
    return cached_solve(rules)


# --------------------------------------------------------------------------- playing it off


def play_off(eq: LinkaEquilibrium, bot: Player) -> dict[str, float]:
    """The equilibrium's exact winnings per pot against ``bot``, in either seat.

    ``bot`` must choose without chance (as the strong bot does). It is asked, on the
    module's own table, what it does in every betting position of every deal game with
    each of its hidden dice; its answers become a strategy on the same tree, and the CFR
    engine weighs every deal and hidden die exactly.
    """
    betting = Betting.of(eq.rules)
    as_first = as_dealer = 0.0
    for game, weight in deal_weights().items():
        first, dealer = play_off_game(eq, betting, game, bot)
        as_first += weight * first
        as_dealer += weight * dealer
    return {"as_first_bettor": as_first, "as_dealer": as_dealer,
            "mean": (as_first + as_dealer) / 2}


def play_off_game(eq: LinkaEquilibrium, betting: Betting, game: DealGame, bot: Player
                  ) -> tuple[float, float]:
    """One deal game of :func:`play_off`: the equilibrium's winnings as first bettor and
    as dealer."""
    deal = next(d for d, _ in deals() if deal_game(d)[0] == game)
    solver = Solver(build(DealBetting(betting, game)))
    mine = eq.games[game].strategy
    theirs = [_bot_strategy(solver.tree, eq.rules, deal, bot, seat) for seat in (FIRST, DEALER)]
    return (solver.game_value([mine[0], theirs[1]]),
            -solver.game_value([theirs[0], mine[1]]))


def _bot_strategy(tree: PublicTree, rules: LinkaRules, deal: Deal, bot: Player,
                  seat: int) -> Array:
    """What ``bot`` in ``seat`` does at every betting position, for each of its hands."""
    player = 0 if seat == FIRST else 1
    game, first_index, dealer_index = deal_game(deal)
    index = first_index if seat == FIRST else dealer_index
    hands = len(game.first if seat == FIRST else game.dealer)
    strategy = np.zeros((len(tree.edge_parent[player]), hands))
    table = Linka(rules=rules, players=2)
    done: set[int] = set()
    for hidden in range(1, 7):
        column = index[hidden - 1]
        if column in done:
            continue
        done.add(column)
        own = {seat: hidden, 1 - seat: 1}
        state = table.new_state().resolve(deal.linka).resolve((deal.first_open,))
        state = state.resolve((deal.dealer_open,)).resolve((own[FIRST],))
        stack: list[tuple[Node, LinkaState]] = [((), state.resolve((own[DEALER],)))]
        while stack:
            node, here = stack.pop()
            actions = tree.actions(node)
            if not actions:
                continue
            if actions[0][0] == player:
                chosen = str(bot.choose(dict(here.view(seat)), here.legal_actions(),
                                        random.Random(0)))
                edges = {label: edge for _, edge, label in actions}
                strategy[edges[chosen], column] = 1.0
            stack.extend(((*node, label), here.apply(label)) for _, _, label in actions)
    return strategy


# --------------------------------------------------------------------------- in words

SITUATIONS = (("opening", FIRST), ("after a check", DEALER), ("facing a raise", DEALER),
              ("checked, then raised", FIRST), ("re-raised", FIRST),
              ("re-raised after checking", DEALER))


def situation(node: Node) -> str:
    """Which of :data:`SITUATIONS` a betting history is."""
    kinds = tuple(a.split()[0] for a in node)
    return {(): "opening", ("check",): "after a check", ("raise",): "facing a raise",
            ("check", "raise"): "checked, then raised", ("raise", "raise"): "re-raised",
            ("check", "raise", "raise"): "re-raised after checking"}[kinds]


def summary(eq: LinkaEquilibrium) -> list[dict[str, Any]]:
    """How each hand is bet in each situation, over every deal, weighted by how often the
    situation comes with that hand: the chance of each kind of action (check, call, raise,
    fold) and the mean raise in koppar."""
    totals: dict[tuple[str, str], dict[str, float]] = {}
    for deal, p in deals():
        game, first_index, dealer_index = deal_game(deal)
        solved = eq.games[game]
        tree = eq.tree
        reach = _reach(tree, solved.strategy)
        weights = [np.array([n for _, n in game.first]) / 6.0,
                   np.array([n for _, n in game.dealer]) / 6.0]
        for node in tree.nodes:
            actions = tree.actions(node)
            if not actions:
                continue
            player = actions[0][0]
            seat = FIRST if player == 0 else DEALER
            n = tree.index[node]
            other = float(weights[1 - player] @ reach[1 - player][n])
            own_open = deal.first_open if seat == FIRST else deal.dealer_open
            index = first_index if seat == FIRST else dealer_index
            for hidden in range(1, 7):
                column = index[hidden - 1]
                w = p / 6 * other * float(reach[player][n][column])
                if w <= 0:
                    continue
                name = _hand_key(hand(deal.linka, (own_open, hidden)))
                row = totals.setdefault((situation(node), name),  # type: ignore[arg-type]
                                        {"weight": 0.0})
                row["weight"] += w
                for _, edge, label in actions:
                    prob = float(solved.strategy[player][edge][column])
                    kind = label.split()[0]
                    row[kind] = row.get(kind, 0.0) + w * prob
                    if kind == "raise":
                        row["amount"] = row.get("amount", 0.0) + w * prob * int(label.split()[1])
    rows = []
    for (where, name), row in sorted(totals.items(), key=lambda kv: (
            [s for s, _ in SITUATIONS].index(kv[0][0]), _ORDER.index(kv[0][1]))):
        weight = row["weight"]
        out: dict[str, Any] = {"situation": where, "hand": name, "chance": weight}
        for kind in ("check", "call", "raise", "fold"):
            if kind in row:
                out[kind] = row[kind] / weight
        if row.get("raise", 0.0) > 1e-12:
            out["mean_raise"] = row["amount"] / row["raise"]
        rows.append(out)
    return rows


def _reach(tree: PublicTree, strategy: list[Array]) -> list[Array]:
    """Each player's own reach of every hand at every node, under ``strategy``."""
    reach = [np.ones((tree.size, strategy[p].shape[1])) for p in (0, 1)]
    for groups in tree.groups:
        for g in groups:
            p = g.player
            parents = tree.edge_parent[p][g.edges]
            children = tree.edge_child[p][g.edges]
            reach[p][children] = reach[p][parents] * strategy[p][g.edges]
            reach[1 - p][children] = reach[1 - p][parents]
    return reach


_ORDER = ["exact", "both", "sum", "high", "low", "nothing"]


def _hand_key(h: Hand) -> str:
    return _ORDER[6 - h.rank]

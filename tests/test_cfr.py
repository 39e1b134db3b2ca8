"""The CFR engine on Kuhn poker: the known game value, exact best responses, convergence."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kastkopp.strategy.cfr import Decision, Leaf, Solver, build

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow

TERMINAL = ("pp", "bp", "pbp", "bb", "pbb")


class Kuhn:
    """Kuhn poker: three cards, one each, ante 1, one bet of 1."""

    hands = (3, 3)

    def chance(self):
        return (1 - np.eye(3)) / 6

    def root(self):
        return ""

    def expand(self, history):
        if history in TERMINAL:
            return Leaf(history)
        return Decision(len(history) % 2, [("p", history + "p"), ("b", history + "b")])

    def payoff(self, history):
        return np.array([[kuhn_payoff(history, a, b) for b in range(3)] for a in range(3)])


def kuhn_payoff(history: str, card0: int, card1: int) -> float:
    """What player 0 wins, told the way the rules are told."""
    if history == "bp":
        return 1.0
    if history == "pbp":
        return -1.0
    stake = 2.0 if "b" in history else 1.0
    return stake if card0 > card1 else -stake


def policy_table(solver, player, strategy):
    """{(history, card): probability of betting} for one player, from solver arrays."""
    table = {}
    for node in solver.tree.nodes:
        for p, edge, label in solver.tree.actions(node):
            if p == player and label == "b":
                for card in range(3):
                    table[node, card] = float(strategy[p][edge][card])
    return table


def brute_force_best_response(player, table):
    """The best pure strategy of ``player`` against ``table``, by trying all 64."""
    own = [h for h in ("", "p", "b", "pb") if len(h) % 2 == player]
    infosets = [(h, c) for h in own for c in range(3)]
    best = -np.inf
    for choice in itertools.product((0, 1), repeat=len(infosets)):
        pure = dict(zip(infosets, choice, strict=True))
        total = 0.0
        for c0, c1 in itertools.permutations(range(3), 2):
            cards = (c0, c1)
            total += _play("", cards, player, pure, table) / 6
        best = max(best, total)
    return best


def _play(history, cards, player, pure, table):
    if history in TERMINAL:
        value = kuhn_payoff(history, *cards)
        return value if player == 0 else -value
    mover = len(history) % 2
    card = cards[mover]
    if mover == player:
        bet = pure[history, card]
        return _play(history + ("b" if bet else "p"), cards, player, pure, table)
    p_bet = table[history, card]
    return (p_bet * _play(history + "b", cards, player, pure, table)
            + (1 - p_bet) * _play(history + "p", cards, player, pure, table))


@pytest.mark.parametrize("variant", ["cfr+", "dcfr"])
def test_kuhn_game_value_is_minus_one_eighteenth(variant):
    solver = Solver(build(Kuhn()), variant=variant)
    gap = solver.solve(target=1e-4, max_iterations=20_000)
    assert gap <= 1e-4
    assert solver.game_value() == pytest.approx(-1 / 18, abs=1e-3)


def test_kuhn_equilibrium_has_the_known_shape():
    """Player 1 with the jack never calls a bet, with the king always calls."""
    solver = Solver(build(Kuhn()))
    solver.solve(target=1e-5, max_iterations=50_000)
    call = solver.policy("b")["b"]
    assert call[0] == pytest.approx(0.0, abs=1e-3)
    assert call[1] == pytest.approx(1 / 3, abs=1e-2)
    assert call[2] == pytest.approx(1.0, abs=1e-3)
    # the first player bets the king three times as often as the jack
    bet = solver.policy("")["b"]
    assert bet[2] == pytest.approx(3 * bet[0], abs=2e-2)


@pytest.mark.parametrize("iterations", [0, 3, 50])
def test_best_response_matches_brute_force_over_pure_strategies(iterations):
    solver = Solver(build(Kuhn()))
    solver.run(iterations)
    strategy = [solver.average_strategy(0), solver.average_strategy(1)]
    for player in (0, 1):
        table = policy_table(solver, 1 - player, strategy)
        expected = brute_force_best_response(player, table)
        assert solver.best_response_value(player) == pytest.approx(expected, abs=1e-12)


def test_uniform_play_is_exploitable_and_values_are_zero_sum():
    solver = Solver(build(Kuhn()))
    # before any iteration both players play uniformly at random
    value = solver.game_value()
    assert solver.best_response_value(0) >= value
    assert solver.best_response_value(1) >= -value
    assert solver.exploitability() > 0.1


def test_exploitability_decreases_as_cfr_runs():
    solver = Solver(build(Kuhn()))
    gaps = []
    for _ in range(4):
        solver.run(5 if not gaps else 10 * len(gaps) ** 2)
        gaps.append(solver.exploitability())
    assert all(later < earlier for earlier, later in itertools.pairwise(gaps))
    assert gaps[-1] < 0.01


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="cfr\\+ or dcfr"):
        Solver(build(Kuhn()), variant="cfr-")


def test_a_public_graph_that_is_not_a_tree_is_refused():
    class Merging(Kuhn):
        def expand(self, history):
            if history == "":
                return Decision(0, [("p", "x"), ("b", "x")])
            return Leaf(history)

    with pytest.raises(ValueError, match="reached twice"):
        build(Merging())

"""The lattice walk: CFR+ for rounds too big to build as a tree, checked against the tree
solver and OpenSpiel's iterate, and the refusal of what does not fit, in numbers."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.engine import RuleError
from kastkopp.games.liars_dice import LiarsRules
from kastkopp.strategy.cfr import Solver
from kastkopp.strategy.liars_bidding import Bidding
from kastkopp.strategy.liars_equilibrium import _tree, solve
from kastkopp.strategy.liars_lattice import Lattice, LatticeSolver

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow


def test_the_walk_matches_openspiels_cfr_plus_iterate():
    """OpenSpiel's CFRPlusSolver on liars_dice(numdice=1): 0.0049082812340596 after 100
    iterations, as for the tree solver."""
    solver = LatticeSolver(Lattice.of(Bidding.openspiel(dice=1, faces=6)))
    solver.run(100)
    assert solver.exploitability() == pytest.approx(0.0049082812340596, abs=1e-12)


@pytest.mark.parametrize("rules", [{"preset": "lognare"},
                                   {"preset": "perudo", "exact_call": "off"}])
def test_the_walk_and_the_tree_agree_iterate_for_iterate(rules):
    """Kastkopp's bid orders (Perudo's wild ones never open): same moves, same iterates,
    same strategy at every node."""
    bidding = Bidding.from_rules(LiarsRules.make(dice=1, **rules))
    _, tree = _tree(bidding)
    lattice = Lattice.of(bidding)
    assert lattice.edges == len(tree.edge_parent[0]) + len(tree.edge_parent[1])
    walk, built = LatticeSolver(lattice), Solver(tree)
    walk.run(20)
    built.run(20)
    assert walk.exploitability() == pytest.approx(built.exploitability(), abs=1e-12)
    assert walk.game_value() == pytest.approx(built.game_value(), abs=1e-12)
    for node in tree.nodes[:: len(tree.nodes) // 50]:
        if tree.node_player[tree.index[node]] < 0:
            continue
        ours, theirs = walk.policy(list(node)), built.policy(node)
        assert list(ours) == list(theirs)
        for label in ours:
            assert np.allclose(ours[label], theirs[label], atol=1e-12)


def test_two_dice_each_solve_to_the_same_value_both_ways():
    """Two dice each, three faces: both reach exploitability 2e-3; the values of two
    epsilon-equilibria differ by at most twice the sum of their exploitabilities."""
    bidding = Bidding.openspiel(dice=2, faces=3)
    walk, built = LatticeSolver(Lattice.of(bidding)), Solver(_tree(bidding)[1])
    gap, tree_gap = walk.solve(2e-3), built.solve(2e-3)
    assert gap <= 2e-3 and tree_gap <= 2e-3
    assert walk.game_value() == pytest.approx(built.game_value(), abs=2 * (gap + tree_gap))
    assert walk.game_value() == pytest.approx(0.0617, abs=5e-3)
    # and solve() takes the walk for CFR+
    assert isinstance(solve(bidding, target=1e-2).solver, LatticeSolver)


def test_five_faces_two_dice_each_is_taken_by_the_walk():
    """2^20 bid sequences: past the tree solver, inside the walk's memory."""
    lattice = Lattice.of(Bidding.openspiel(dice=2, faces=5))
    assert lattice.edges == 2**21 - 2 and lattice.hands == (15, 15)
    assert lattice.bytes() == 2 * (2**21 - 2) * 15 * 8


def test_six_faces_two_dice_each_is_refused_with_the_memory_and_time_it_needs():
    with pytest.raises(RuleError, match=r"needs 11\.3 GB .* s of processor time an iteration"):
        solve(Bidding.openspiel(dice=2, faces=6))
    with pytest.raises(RuleError, match=r"16,777,216 bid sequences"):
        solve(Bidding.from_rules(LiarsRules.make("lognare", dice=2)))


def test_the_memory_bound_is_the_users_to_raise():
    bidding = Bidding.openspiel(dice=2, faces=3)  # 0.8 MB of tables
    with pytest.raises(RuleError, match=r"takes up to 0\.0001 GB .*--max-memory"):
        solve(bidding, target=1e-2, max_bytes=1e5)
    assert solve(bidding, target=1e-2, max_bytes=1e6).exploitability <= 1e-2
    refused = CliRunner().invoke(app, ["solve", "liars_dice", "--openspiel", "--dice", "2",
                                       "--faces", "3", "--max-memory", "0.0001", "--json"])
    assert refused.exit_code == 2 and "--max-memory" in refused.stderr


def test_the_walk_runs_cfr_plus_only():
    with pytest.raises(RuleError, match="CFR\\+ only"):
        solve(Bidding.openspiel(dice=2, faces=5), variant="dcfr")


def test_solve_liars_dice_names_the_memory_needed_in_one_line():
    result = CliRunner().invoke(app, ["solve", "liars_dice", "--openspiel", "--dice", "2",
                                      "--faces", "6", "--json"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "11.3 GB" in lines[0]
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout or "")

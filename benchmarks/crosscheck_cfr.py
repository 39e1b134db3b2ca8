"""pyspiel's CFR+ on kastkopp's two-player, one-die liar's dice, against kastkopp's solver.

The kastkopp game (Lögnare: no wilds, one die each) is walked once through the OpenSpiel
adapter, written as an EFG tree (:func:`kastkopp.interop.openspiel.to_efg`) and loaded back
as a native OpenSpiel game, on which OpenSpiel's C++ CFR+ runs. Its value for the first
player is compared with :func:`kastkopp.strategy.liars_equilibrium.solve` on the same rules.
As the named peer, OpenSpiel's own ``liars_dice`` (one die each, sixes wild) is solved the
same way; the time per iteration of both is printed.

    .venv/bin/python benchmarks/crosscheck_cfr.py [ITERATIONS] [FACES]

Not part of the test suite: with six faces the walk visits some 300 000 nodes of a Python
game (minutes). The suite runs the same cross-check on dice of three and four faces
(``tests/test_interop_openspiel.py``).
"""

from __future__ import annotations

import sys
import time

import pyspiel

from kastkopp.games.liars_dice import LiarsRules
from kastkopp.interop.openspiel import to_efg
from kastkopp.strategy.liars_bidding import Bidding
from kastkopp.strategy.liars_equilibrium import solve


def cfr_plus(game: pyspiel.Game, iterations: int, label: str) -> tuple[float, float, float]:
    """(value for the first player, exploitability, seconds per iteration)."""
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = (time.perf_counter() - start) / iterations
    policy = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    gap = pyspiel.exploitability(game, policy)
    print(f"{label:<40} value {value:+.5f}, exploitability {gap:.5f} "
          f"({iterations} CFR+ iterations)", flush=True)
    return value, gap, seconds


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    faces = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    ours = pyspiel.load_game("kastkopp_liars_dice", {"players": 2, "preset": "lognare",
                                                     "rules": f"dice:1;faces:{faces}"})
    start = time.perf_counter()
    text = to_efg(ours)
    print(f"{ours}: {text.count(chr(10)) - 1} nodes walked in "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    value, gap, our_time = cfr_plus(pyspiel.load_efg_game(text), iterations,
                                    f"pyspiel on kastkopp lognare, 1 die, {faces} faces")
    eq = solve(Bidding.from_rules(LiarsRules.make("lognare", dice=1, faces=faces)),
               target=1e-4)
    print(f"{'kastkopp solver, same rules':<40} value {eq.game_value:+.5f}, "
          f"exploitability {eq.exploitability:.5f}")
    # a profile's value is within its NashConv (twice the exploitability) of the game's
    print(f"difference {abs(value - eq.game_value):.5f} "
          f"(allowed by the exploitabilities: {2 * (gap + eq.exploitability):.5f})")
    _, _, peer_time = cfr_plus(pyspiel.load_game("liars_dice", {"numdice": 1,
                                                                "dice_sides": faces}),
                               iterations, f"pyspiel on OpenSpiel liars_dice, 1 die, {faces}")
    print(f"CFR+ iteration: {our_time * 1000:.1f} ms on the kastkopp tree, "
          f"{peer_time * 1000:.1f} ms on OpenSpiel's liars_dice "
          f"(ratio {our_time / peer_time:.2f})")


if __name__ == "__main__":
    main()

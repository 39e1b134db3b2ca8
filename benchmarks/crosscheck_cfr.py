"""pyspiel's CFR on kastkopp's two-player, one-die liar's dice (Lögnare: no wilds).

The kastkopp game is walked once through the OpenSpiel adapter, written as an EFG tree
(:func:`kastkopp.interop.openspiel.to_efg`) and loaded back as a native OpenSpiel game, on
which OpenSpiel's C++ CFR runs. It prints the first player's value and the exploitability
of the average policy as CFR converges, and — as the named peer — OpenSpiel's own
``liars_dice`` (one die each, but sixes wild) solved the same way, with the time per
iteration of each.

    .venv/bin/python benchmarks/crosscheck_cfr.py [ITERATIONS]

Not part of the test suite: the walk visits some 300 000 nodes of a Python game.
"""

from __future__ import annotations

import sys
import time

import pyspiel

from kastkopp.interop.openspiel import to_efg


def solve(game, iterations: int, label: str) -> float:
    solver = pyspiel.CFRSolver(game)
    start = time.perf_counter()
    checkpoints = {10, 100, iterations} | {iterations // 4, iterations // 2}
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in checkpoints:
            policy = solver.average_policy()
            value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
            gap = pyspiel.exploitability(game, policy)
            print(f"{label:<28} iteration {i:>5}: value {value:+.5f}, "
                  f"exploitability {gap:.5f}", flush=True)
    return (time.perf_counter() - start) / iterations


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    ours = pyspiel.load_game("kastkopp_liars_dice",
                             {"players": 2, "preset": "lognare", "rules": "dice:1"})
    start = time.perf_counter()
    text = to_efg(ours)
    walked = time.perf_counter() - start
    tree = pyspiel.load_efg_game(text)
    print(f"{ours}: {text.count(chr(10)) - 1} nodes walked in {walked:.0f} s", flush=True)
    our_time = solve(tree, iterations, "kastkopp lognare, 1 die")
    peer = pyspiel.load_game("liars_dice", {"numdice": 1})
    peer_time = solve(peer, iterations, "OpenSpiel liars_dice, 1 die")
    print(f"CFR iteration: {our_time * 1000:.1f} ms on the kastkopp tree, "
          f"{peer_time * 1000:.1f} ms on OpenSpiel's liars_dice "
          f"(ratio {our_time / peer_time:.2f})")


if __name__ == "__main__":
    main()

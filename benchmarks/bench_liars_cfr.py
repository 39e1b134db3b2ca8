"""Liar's dice CFR+ against OpenSpiel's, on OpenSpiel's own game.

    .venv/bin/pip install -e '.[bench]'      # open-spiel, a benchmark-only dependency
    .venv/bin/python benchmarks/bench_liars_cfr.py [DICE] [FACES]

Both solvers run CFR+ on ``liars_dice(numdice=DICE, dice_sides=FACES)`` (default one die,
six faces): the highest face wild, bids by count then face, one round. Every 10
iterations each measures its exploitability exactly; the clock counts only the iterations
(not the measuring). It prints the iterations and seconds each needs to reach an
exploitability of 1e-3, the game values (they must agree within 1e-3), and the ratio.
Ours runs twice: the lattice walk (what ``solve`` uses for CFR+) and the tree solver.
"""

from __future__ import annotations

import os
import sys
import time

from kastkopp.strategy.cfr import Solver
from kastkopp.strategy.liars_bidding import Bidding
from kastkopp.strategy.liars_equilibrium import _tree
from kastkopp.strategy.liars_lattice import Lattice, LatticeSolver

TARGET = 1e-3
STEP = 10


def ours(dice: int, faces: int, walk: bool) -> tuple[int, float, float, float]:
    started = time.perf_counter()
    bidding = Bidding.openspiel(dice=dice, faces=faces)
    solver = LatticeSolver(Lattice.of(bidding)) if walk else Solver(_tree(bidding)[1])
    setup = time.perf_counter() - started
    clock = setup
    gap = solver.exploitability()
    while gap > TARGET:
        started = time.perf_counter()
        solver.run(STEP)
        clock += time.perf_counter() - started
        gap = solver.exploitability()
    return solver.iterations, clock, gap, solver.game_value()


def openspiel(dice: int, faces: int) -> tuple[int, float, float, float]:
    import pyspiel

    started = time.perf_counter()
    game = pyspiel.load_game(f"liars_dice(numdice={dice},dice_sides={faces})")
    solver = pyspiel.CFRPlusSolver(game)
    clock = time.perf_counter() - started
    iterations, gap = 0, 1.0
    while gap > TARGET:
        started = time.perf_counter()
        for _ in range(STEP):
            solver.evaluate_and_update_policy()
        clock += time.perf_counter() - started
        iterations += STEP
        gap = pyspiel.exploitability(game, solver.average_policy())
    value = pyspiel.expected_returns(game.new_initial_state(), solver.average_policy(), -1,
                                     True)[0]
    return iterations, clock, gap, value


def main(dice: int, faces: int) -> None:
    print(f"liars_dice(numdice={dice}, dice_sides={faces}), CFR+ to exploitability {TARGET}; "
          f"load average {os.getloadavg()[0]:.1f}")
    results = {"kastkopp": ours(dice, faces, walk=True)}
    print("kastkopp  {:5d} iterations {:8.2f} s  exploitability {:.2e}  value {:+.5f}"
          .format(*results["kastkopp"]), flush=True)
    tree = ours(dice, faces, walk=False)
    print("  (tree)  {:5d} iterations {:8.2f} s  exploitability {:.2e}  value {:+.5f}"
          .format(*tree), flush=True)
    try:
        results["openspiel"] = openspiel(dice, faces)
    except ImportError:
        print("OpenSpiel is not installed: pip install -e '.[bench]'")
        return
    print("openspiel {:5d} iterations {:8.2f} s  exploitability {:.2e}  value {:+.5f}"
          .format(*results["openspiel"]))
    difference = abs(results["kastkopp"][3] - results["openspiel"][3])
    print(f"game values agree within {difference:.1e} "
          f"({'ok' if difference < 1e-3 else 'MORE THAN 1e-3'})")
    ratio = results["openspiel"][1] / results["kastkopp"][1]
    print(f"time to 1e-3: ours {results['kastkopp'][1]:.2f} s, OpenSpiel "
          f"{results['openspiel'][1]:.2f} s, ratio {ratio:.1f}x")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*(args + [1, 6][len(args):]))

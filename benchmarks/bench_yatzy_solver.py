"""The Yatzy solver: time to solve a whole rule set, its value against the published ones.

    .venv/bin/python benchmarks/bench_yatzy_solver.py [RUNS]

Scandinavian Yatzy and official Yahtzee are solved from scratch RUNS times each (default
5; the disk cache is not used) and the median wall time is printed; the other rule sets
are solved once, for their values. The CPU column is the median processor time of both
threads together: on a loaded machine it says more than the wall time. Then the peak
memory of the process and the size of the cached Scandinavian table. The peer is the
fastest public solver we know of (Rust, SIMD, all cores), quoted at about one second for
Scandinavian Yatzy on a laptop; it is not run here, so that ratio is against the quoted
figure. The values are checked against the literature: Yahtzee 254.5896 (Verhoeff, Glenn;
Verhoeff's reading of the joker), 245.8708 without the Yahtzee bonus and jokers. The last
column says whether a value is the anchor.
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numba

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.yatzy_solver import solve

PEER = ("yatzy (Rust, SIMD, all cores; quoted, not run)", 1.0)
CASES = [  # preset, rule changes, published value, timed
    ("yatzy", {}, None, True),
    ("yahtzee", {}, None, True),
    ("yahtzee", {"joker_choice": True}, 254.5896, False),
    ("yahtzee", {"yatzy_bonus": 0, "joker": False}, 245.8708, False),
    ("tarningspoker", {}, None, False),
    ("terningspoker", {}, None, False),
]


def main(runs: int) -> None:
    started = time.perf_counter()
    solve(YatzyRules.make("tarningspoker", order="top-down"), cache=False)
    print(f"warm-up (numba compile or load of compiled kernels): "
          f"{time.perf_counter() - started:.2f} s; threads: {numba.get_num_threads()}")
    print(f"{'rule set':44} {'expected':>12} {'median s':>9} {'min s':>7} {'cpu s':>7} "
          f"{'anchor':>8}")
    medians = {}
    for preset, rules, anchor, timed in CASES:
        times, cpu = [], []
        value = 0.0
        for _ in range(runs if timed else 1):
            before = time.process_time()
            table = solve(YatzyRules.make(preset, **rules), cache=False)
            cpu.append(time.process_time() - before)
            times.append(table.seconds)
            value = table.expected_score
        name = preset + "".join(f" {k}={v}" for k, v in rules.items())
        medians[name] = statistics.median(times)
        check = "" if anchor is None else ("ok" if abs(value - anchor) < 5e-5 else "WRONG")
        print(f"{name:44} {value:12.6f} {medians[name]:9.2f} {min(times):7.2f} "
              f"{statistics.median(cpu):7.2f} {check:>8}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        solve(YatzyRules.make("yatzy"), directory=Path(tmp))
        size = sum(f.stat().st_size for f in Path(tmp).iterdir())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cached Scandinavian table: {size / 1e6:.1f} MB; peak memory: {peak:.0f} MB")
    ours = medians["yatzy"]
    print(f"Scandinavian Yatzy: ours {ours:.2f} s (median of {runs}), peer {PEER[0]} "
          f"{PEER[1]:.1f} s, ratio {ours / PEER[1]:.1f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)

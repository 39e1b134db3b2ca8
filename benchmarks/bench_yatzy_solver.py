"""The Yatzy solver: time to solve a whole rule set, its value against the published ones,
and the same solves by a named peer in the same run.

    .venv/bin/python benchmarks/bench_yatzy_solver.py [RUNS] [PEER_RUNS]

Scandinavian Yatzy and official Yahtzee are solved from scratch RUNS times each (default
5; the disk cache is not used) and the median wall time is printed; the other rule sets
are solved once, for their values. The CPU column is the median processor time of both
threads together: on a loaded machine it says more than the wall time. Then the peak
memory of the process and the size of the cached Scandinavian table.

The peer is ``yatzy-solver`` from PyPI (a Rust library with Python bindings, the ``bench``
extra): it solves the same two rule sets PEER_RUNS times each (default 1: it took 25 to
60 s each on the shared 2-core machine), and its start value is compared with ours. Its
``yatzy-scandinavian`` is our ``yatzy`` preset and its ``american+forced-joker`` our
``yahtzee`` preset.

The values are checked against the literature: Yahtzee 254.5896 (Verhoeff, Glenn;
Verhoeff's reading of the joker), 245.8708 without the Yahtzee bonus and jokers. The last
column says whether a value is the anchor.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numba

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.yatzy_solver import solve

CASES: list[tuple[str, dict[str, Any], float | None, bool]] = [  # preset, rule changes,
    # published value, timed
    ("yatzy", {}, None, True),
    ("yahtzee", {}, None, True),
    ("yahtzee", {"joker_choice": True}, 254.5896, False),
    ("yahtzee", {"yatzy_bonus": 0, "joker": False}, 245.8708, False),
    ("tarningspoker", {}, None, False),
    ("terningspoker", {}, None, False),
]
PEER_VARIANTS = {"yatzy": "yatzy-scandinavian", "yahtzee": "american+forced-joker"}


def ours(runs: int) -> tuple[dict[str, float], dict[str, float]]:
    started = time.perf_counter()
    solve(YatzyRules.make("tarningspoker", order="top-down"), cache=False)
    print(f"warm-up (numba compile or load of compiled kernels): "
          f"{time.perf_counter() - started:.2f} s; threads: {numba.get_num_threads()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'rule set':44} {'expected':>12} {'median s':>9} {'min s':>7} {'cpu s':>7} "
          f"{'anchor':>8}")
    medians, values = {}, {}
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
        medians[name], values[name] = statistics.median(times), value
        check = "" if anchor is None else ("ok" if abs(value - anchor) < 5e-5 else "WRONG")
        print(f"{name:44} {value:12.6f} {medians[name]:9.2f} {min(times):7.2f} "
              f"{statistics.median(cpu):7.2f} {check:>8}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        solve(YatzyRules.make("yatzy"), directory=Path(tmp))
        size = sum(f.stat().st_size for f in Path(tmp).iterdir())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cached Scandinavian table: {size / 1e6:.1f} MB; peak memory: {peak:.0f} MB")
    return medians, values


def peer(runs: int) -> dict[str, tuple[float, float]]:
    try:
        import yatzy_solver
    except ImportError:
        print("peer: yatzy-solver is not installed (pip install -e '.[bench]')")
        return {}
    out = {}
    for preset, variant in PEER_VARIANTS.items():
        times, value = [], 0.0
        for _ in range(runs):
            started = time.perf_counter()
            solver = yatzy_solver.Solver.build(yatzy_solver.Variant(variant))
            times.append(time.perf_counter() - started)
            value = solver.state_value("upper 0 | filled -")
        out[preset] = (statistics.median(times), value)
        print(f"peer yatzy-solver {yatzy_solver.__version__} {variant:24} {value:12.6f} "
              f"{out[preset][0]:9.2f} s (median of {runs}; load average "
              f"{os.getloadavg()[0]:.1f})", flush=True)
    return out


def main(runs: int, peer_runs: int) -> None:
    medians, values = ours(runs)
    theirs = peer(peer_runs)
    for preset, (seconds, value) in theirs.items():
        same = "same value" if abs(value - values[preset]) < 1e-6 else "VALUES DIFFER"
        print(f"{preset}: ours {medians[preset]:.2f} s (median of {runs}), peer "
              f"{seconds:.2f} s (median of {peer_runs}), ratio peer/ours "
              f"{seconds / medians[preset]:.1f}x; {same} ({values[preset]:.6f} vs "
              f"{value:.6f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5,
         int(sys.argv[2]) if len(sys.argv) > 2 else 1)

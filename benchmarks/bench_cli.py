"""Start-up of the command line: ``kastkopp --help`` and ``kastkopp odds mia --json``
against the interpreter starting and doing nothing (``python -c pass``).

    .venv/bin/python benchmarks/bench_cli.py [REPEATS]

Each command runs in a fresh interpreter (as a person typing it does), the three in turn
so a busy machine slows them alike; the table prints the median of REPEATS (default 5)
wall-clock runs in milliseconds and each command's ratio to the bare interpreter.

The sources run from compiled bytecode, as an installed kastkopp does: it is written once
to a folder of its own (``PYTHONPYCACHEPREFIX``, never next to the sources) by a first,
unmeasured run of each command.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "kastkopp --help": [sys.executable, "-m", "kastkopp", "--help"],
    "kastkopp odds mia --json": [sys.executable, "-m", "kastkopp", "odds", "mia", "--json"],
}


def run_once(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(repeats: int = 5) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as cache:
        env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "80",
               "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for command in COMMANDS.values():  # compiles the sources once, unmeasured
            run_once(command, env)
        measure(env, repeats)


def measure(env: dict[str, str], repeats: int) -> None:
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(repeats):
        for name, command in COMMANDS.items():
            times[name].append(run_once(command, env))
    base = statistics.median(times["python -c pass"])
    print(f"{'command':<28}{'median ms':>10}{'× python -c pass':>18}")
    for name, runs in times.items():
        median = statistics.median(runs)
        print(f"{name:<28}{median * 1000:>10.0f}{median / base:>18.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)

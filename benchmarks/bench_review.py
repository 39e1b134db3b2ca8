"""How long does a game's review take, against replaying its log with the engine alone?

Two games, each reviewed and replayed in the same run (medians of repeated runs):

- a 15-round Scandinavian Yatzy game of one player (``bot:greedy``, so choices cost
  something), the solved table already loaded (it is cached on disk and kept in the
  process after the first review); target: under 50 ms;
- a liar's dice game (Perudo, six players of ``bot:strong``) of at least 300 moves, the
  first such seeded game; target: under 200 ms.

The peer is :meth:`kastkopp.engine.Table.from_json`, the replay every log gets when it is
loaded: the review replays the log once as well, so the ratio is the price of grading.
The review's processor time is printed too (``review cpu``): on a shared machine the wall
clock counts the time other programs had the processor, the processor time does not.

Usage::

    python benchmarks/bench_review.py
    python benchmarks/bench_review.py --runs 50
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.strategy import make_bot
from kastkopp.strategy.review import review


def median_ms(work: Callable[[], Any], runs: int,
              clock: Callable[[], float] = time.perf_counter) -> float:
    times = []
    for _ in range(runs):
        started = clock()
        work()
        times.append(clock() - started)
    return 1000 * statistics.median(times)


def yatzy_log() -> dict[str, Any]:
    game = load("yatzy", preset="yatzy", players=1)
    table = Table(game)
    play_out(table, [make_bot(game, "greedy")], random.Random(1))
    return table.to_json()


def liars_log(moves: int) -> dict[str, Any]:
    game = load("liars_dice", preset="perudo", players=6)
    for seed in range(1000):
        table = Table(game)
        play_out(table, [make_bot(game, "strong") for _ in range(6)], random.Random(seed))
        if sum(1 for e in table.events if e["type"] == "action") >= moves:
            return table.to_json()
    raise RuntimeError(f"no seeded game of {moves} moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    cases = [("Yatzy, 15 rounds", yatzy_log(), 50.0),
             (f"liar's dice, {args.moves}+ moves", liars_log(args.moves), 200.0)]
    print(f"{'game':<26} {'moves':>5} {'review ms':>10} {'review cpu':>10} {'replay ms':>10} "
          f"{'ratio':>6} {'target':>7}")
    for name, log, target in cases:
        review(log)  # warm: the solved table is loaded once per process
        moves = sum(1 for e in log["events"] if e["type"] == "action")
        reviewed = median_ms(functools.partial(review, log), args.runs)
        cpu = median_ms(functools.partial(review, log), args.runs, time.process_time)
        replayed = median_ms(functools.partial(Table.from_json, log), args.runs)
        verdict = "ok" if reviewed < target else "MISSED"
        print(f"{name:<26} {moves:>5} {reviewed:>10.1f} {cpu:>10.1f} {replayed:>10.1f} "
              f"{reviewed / replayed:>6.1f} {target:>5.0f} {verdict}")


if __name__ == "__main__":
    main()

"""Yatzy played to win: ``bot:towin`` against ``bot:optimal``, heads-up, with its 95% interval.

    .venv/bin/python benchmarks/bench_towin.py [PAIRS] [PRESET ...] [--seconds S] [--margin M]
        [--processes P]

For each preset (default: yatzy and yahtzee) PAIRS pairs of games are played (default
1000), or as many as S seconds allow (the tally so far is printed every 100 pairs), in P
processes at once (default 1; pair ``i`` is played the same in any of them, so the result
does not depend on P).
The two games of a pair use the same two streams of dice, swapped: towin rolls the
dice of stream A in the first and of stream B in the second, optimal the others, and the
seats are swapped too. Each seat draws from its own stream in order, so while both play
alike they roll the same dice; if towin played exactly as optimal does, every pair would
be one win and one loss (common random numbers), and the difference towin makes is what
the pairs measure. ``--margin M``: towin leaves the best expected score only for a choice
at least M more likely to win (default: the bot's own, 0). The peer is ``bot:optimal``
(the expected-score optimum): a ratio above 1 (win rate over 50%) is towin's gain. Prints
the win rate (ties count half), its 95% interval from the spread of the pairs, the mean
scores, the time, and the tables' build time (from the cache, or computed when not
cached) and peak memory.
"""

from __future__ import annotations

import random
import resource
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from kastkopp.dice import DiceSource, Faces
from kastkopp.engine import Player, Table
from kastkopp.games import load
from kastkopp.games.yatzy import YatzyRules, YatzyState
from kastkopp.strategy import make_bot
from kastkopp.strategy.yatzy_towin import TowinYatzyBot, distributions_for


@dataclass
class SeatStreams(DiceSource):
    """Dice from one stream per seat: the seat to move draws the next dice of its own."""

    kind = "seat-streams"
    streams: list[random.Random] = field(default_factory=list)
    seat: int = 0

    def _faces(self, nonce: int, count: int, sides: int) -> Faces:
        rng = self.streams[self.seat]
        return tuple(rng.randint(1, sides) for _ in range(count))


MARGIN = 0.0  # bot:towin's margin (``--margin``)


def game(preset: str, seed: int, towin_seat: int, towin_stream: int,
         player: Player | None = None) -> tuple[float, int, int]:
    """One game: towin's result (1 win, 0.5 tie, 0 loss) and both final scores. ``player``
    takes towin's seat instead (with towin's dice), for the benchmarks that watch it."""
    g = load("yatzy", preset=preset, players=2)
    streams = [random.Random(f"{seed}:{s}") for s in range(2)]
    # seat -> stream: towin's seat gets towin's stream
    order = [towin_stream, 1 - towin_stream] if towin_seat == 0 else \
        [1 - towin_stream, towin_stream]
    dice = SeatStreams(streams=[streams[order[0]], streams[order[1]]])
    table = Table(g, dice=dice)
    bots = [make_bot(g, "optimal") for _ in range(2)]
    bots[towin_seat] = player or TowinYatzyBot(YatzyRules.make(preset), MARGIN)
    rng = random.Random(seed)
    while not table.state.is_over():
        seat = table.state.to_move()
        assert seat is not None
        dice.seat = seat
        table.act(seat, bots[seat].choose(table.state.view(seat), table.state.legal_actions(),
                                          rng))
    assert isinstance(table.state, YatzyState)
    totals = table.state.totals()
    mine, theirs = totals[towin_seat], totals[1 - towin_seat]
    return (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0), mine, theirs


Pair = tuple[float, int, int, int, int]  # towin's result, then both scores of both games
CHUNK = 100  # pairs handed to a process at a time


def pair(preset: str, seed: int) -> Pair:
    """The two games of pair ``seed``: the streams and the seats swapped in the second."""
    a = game(preset, seed, towin_seat=0, towin_stream=0)
    b = game(preset, seed, towin_seat=1, towin_stream=1)
    return (a[0] + b[0]) / 2, a[1], b[1], a[2], b[2]


def chunk(preset: str, first: int, last: int, margin: float) -> list[Pair]:
    global MARGIN
    MARGIN = margin  # a process of the pool learns the margin here
    return [pair(preset, seed) for seed in range(first, last)]


def played(preset: str, pairs: int, processes: int) -> Iterator[list[Pair]]:
    """The pairs in chunks, in order: in this process, or in a pool of ``processes``."""
    bounds = [(first, min(first + CHUNK, pairs)) for first in range(0, pairs, CHUNK)]
    if processes <= 1:
        for first, last in bounds:
            yield chunk(preset, first, last, MARGIN)
        return
    with ProcessPoolExecutor(processes) as pool:
        futures = [pool.submit(chunk, preset, first, last, MARGIN) for first, last in bounds]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def run(preset: str, pairs: int, limit: float, processes: int = 1) -> None:
    started = time.perf_counter()
    m = distributions_for(YatzyRules.make(preset))
    build = time.perf_counter() - started
    source = "from the cache" if m.from_cache else "computed"
    print(f"{preset}: tables {source} in {build:.1f} s", flush=True)
    results: list[float] = []
    mine: list[int] = []
    theirs: list[int] = []
    started = time.perf_counter()
    for done in played(preset, pairs, processes):
        for result, towin_a, towin_b, optimal_a, optimal_b in done:
            results.append(result)
            mine += [towin_a, towin_b]
            theirs += [optimal_a, optimal_b]
        seconds = time.perf_counter() - started
        report(preset, results, mine, theirs, seconds, processes)
        if seconds > limit:
            break


def report(preset: str, results: list[float], mine: list[int], theirs: list[int],
           seconds: float, processes: int = 1) -> None:
    pairs = len(results)
    rate = statistics.mean(results)
    half = 1.96 * statistics.stdev(results) / len(results) ** 0.5 if len(results) > 1 else 0
    print(f"{preset}: towin wins {rate:.2%} of {2 * pairs} games against optimal "
          f"(95% interval {rate - half:.2%} to {rate + half:.2%}; ratio "
          f"{rate / 0.5:.4f} against optimal's 50%); mean score towin "
          f"{statistics.mean(mine):.2f}, optimal {statistics.mean(theirs):.2f}; "
          f"{seconds:.0f} s ({1000 * seconds / (2 * pairs):.1f} ms a game"
          f"{f' with {processes} processes' if processes > 1 else ''})", flush=True)


def main() -> None:
    global MARGIN
    args = sys.argv[1:]
    limit = float("inf")
    if "--margin" in args:
        at = args.index("--margin")
        MARGIN = float(args[at + 1])
        del args[at:at + 2]
    processes = 1
    if "--processes" in args:
        at = args.index("--processes")
        processes = int(args[at + 1])
        del args[at:at + 2]
    if "--seconds" in args:
        at = args.index("--seconds")
        limit = float(args[at + 1])
        del args[at:at + 2]
    pairs = int(args[0]) if args else 1000
    presets = args[1:] or ["yatzy", "yahtzee"]
    for preset in presets:
        run(preset, pairs, limit, processes)
    peak = max(resource.getrusage(who).ru_maxrss
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    print(f"peak memory {peak:.0f} MB (the largest process; the tables' pages are shared)")


if __name__ == "__main__":
    main()

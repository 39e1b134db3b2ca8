"""Yatzy played to win: ``bot:towin`` against ``bot:optimal``, heads-up, with its 95% interval.

    .venv/bin/python benchmarks/bench_towin.py [PAIRS] [PRESET ...] [--seconds S] [--margin M]

For each preset (default: yatzy and yahtzee) PAIRS pairs of games are played (default
1000), or as many as S seconds allow (the tally so far is printed every 100 pairs).
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
from dataclasses import dataclass, field

from kastkopp.dice import DiceSource, Faces
from kastkopp.engine import Table
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


def game(preset: str, seed: int, towin_seat: int, towin_stream: int) -> tuple[float, int, int]:
    """One game: towin's result (1 win, 0.5 tie, 0 loss) and both final scores."""
    g = load("yatzy", preset=preset, players=2)
    streams = [random.Random(f"{seed}:{s}") for s in range(2)]
    # seat -> stream: towin's seat gets towin's stream
    order = [towin_stream, 1 - towin_stream] if towin_seat == 0 else \
        [1 - towin_stream, towin_stream]
    dice = SeatStreams(streams=[streams[order[0]], streams[order[1]]])
    table = Table(g, dice=dice)
    bots = [TowinYatzyBot(YatzyRules.make(preset), MARGIN) if s == towin_seat
            else make_bot(g, "optimal") for s in range(2)]
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


def run(preset: str, pairs: int, limit: float) -> None:
    started = time.perf_counter()
    m = distributions_for(YatzyRules.make(preset))
    build = time.perf_counter() - started
    source = "from the cache" if m.from_cache else "computed"
    print(f"{preset}: tables {source} in {build:.1f} s", flush=True)
    results, mine, theirs = [], [], []
    started = time.perf_counter()
    for seed in range(pairs):
        a = game(preset, seed, towin_seat=0, towin_stream=0)
        b = game(preset, seed, towin_seat=1, towin_stream=1)
        results.append((a[0] + b[0]) / 2)
        mine += [a[1], b[1]]
        theirs += [a[2], b[2]]
        seconds = time.perf_counter() - started
        if (seed + 1) % 100 == 0 or seconds > limit or seed + 1 == pairs:
            report(preset, results, mine, theirs, seconds)
        if seconds > limit:
            break


def report(preset: str, results: list[float], mine: list[int], theirs: list[int],
           seconds: float) -> None:
    pairs = len(results)
    rate = statistics.mean(results)
    half = 1.96 * statistics.stdev(results) / len(results) ** 0.5 if len(results) > 1 else 0
    print(f"{preset}: towin wins {rate:.2%} of {2 * pairs} games against optimal "
          f"(95% interval {rate - half:.2%} to {rate + half:.2%}; ratio "
          f"{rate / 0.5:.4f} against optimal's 50%); mean score towin "
          f"{statistics.mean(mine):.2f}, optimal {statistics.mean(theirs):.2f}; "
          f"{seconds:.0f} s ({1000 * seconds / (2 * pairs):.1f} ms a game)", flush=True)


def main() -> None:
    global MARGIN
    args = sys.argv[1:]
    limit = float("inf")
    if "--margin" in args:
        at = args.index("--margin")
        MARGIN = float(args[at + 1])
        del args[at:at + 2]
    if "--seconds" in args:
        at = args.index("--seconds")
        limit = float(args[at + 1])
        del args[at:at + 2]
    pairs = int(args[0]) if args else 1000
    presets = args[1:] or ["yatzy", "yahtzee"]
    for preset in presets:
        run(preset, pairs, limit)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()

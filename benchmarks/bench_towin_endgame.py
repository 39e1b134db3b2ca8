"""How far ``bot:towin`` is from the best end-game: its choices against the exact one.

    .venv/bin/python benchmarks/bench_towin_endgame.py [TURNS] [PAIRS] [PRESET ...]
        [--processes P]

Plays the pairs of ``bench_towin.py`` (towin against ``bot:optimal``, the same dice). From
the turn when TURNS rows are left on towin's sheet (default 4), every choice it makes is set
against the exact heads-up end-game (:mod:`kastkopp.strategy.yatzy_endgame`): the best
choice's chance of winning minus the chance of towin's. Summed over a game, the mean of
that loss is exactly how much more often the best end-game would win than towin's from
there (each choice's loss measured with the best play after it: the performance
difference of the two plays). The peer is the expected-score play (``bot:optimal`` in
the same seat, against ``bot:optimal``), measured the same way on the same pairs: the
ratio is the share of the expected-score play's loss that towin still gives away.
PAIRS pairs of games a rule set (default 100), in P processes (default 1); prints each
loss per game in points of win rate with its 95% interval, how many choices differed
from the best, the mean best chance at the start of the end-game and the solves' time.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench_towin import game

from kastkopp.engine import Action, Player
from kastkopp.games import load
from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy import make_bot
from kastkopp.strategy.yatzy_distribution import DistributionTable
from kastkopp.strategy.yatzy_endgame import EndGame
from kastkopp.strategy.yatzy_towin import TowinYatzyBot, distributions_for, seat_position


@dataclass
class Watched(Player):
    """A bot whose choices in the end-game are set against the exact end-game's."""

    bot: Player
    d: DistributionTable
    turns: int
    loss: float = 0.0
    by_turn: list[float] = field(default_factory=list)  # [k]: the loss with k + 1 rows open
    choices: int = 0
    differ: int = 0
    start: float = 0.0  # the best chance at the end-game's first turn
    seconds: float = 0.0
    end: EndGame | None = None

    def __post_init__(self) -> None:
        self.by_turn = [0.0] * self.turns

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        action = self.bot.choose(view, legal, rng)
        seat = view["player"]
        seen = {**view, "seat": seat}
        me = seat_position(self.d, seen, seat)
        if me is None or bin(me.mask).count("1") > self.turns:
            return action
        them = seat_position(self.d, seen, 1 - seat)
        difference = round(view["totals"][seat] - view["totals"][1 - seat])
        if self.end is None or not self.end.covers(me, them):
            started = time.process_time()
            self.end = EndGame(self.d, me, them, difference)
            self.seconds += time.process_time() - started
            self.start = self.end.value
        chances = self.end.chances(me, them, difference, view["dice"], view["throw"])
        best = max(chances[str(a)] for a in legal)
        loss = best - chances[str(action)]
        self.loss += loss
        self.by_turn[bin(me.mask).count("1") - 1] += loss
        self.choices += 1
        self.differ += loss > 1e-9
        return action


# loss, choices, differing, start, seconds, loss by turns left
Tally = tuple[float, int, int, float, float, tuple[float, ...]]


def pair(preset: str, seed: int, turns: int, who: str) -> Tally:
    """Pair ``seed`` of bench_towin with ``who`` (towin or optimal) in towin's seat."""
    rules = YatzyRules.make(preset)
    d = distributions_for(rules)
    watched = []
    for seat in (0, 1):
        bot = TowinYatzyBot(rules) if who == "towin" else \
            make_bot(load("yatzy", preset=preset, players=2), "optimal")
        watched.append(Watched(bot, d, turns))
        game(preset, seed, towin_seat=seat, towin_stream=seat, player=watched[-1])
    return (sum(w.loss for w in watched), sum(w.choices for w in watched),
            sum(w.differ for w in watched), sum(w.start for w in watched),
            sum(w.seconds for w in watched),
            tuple(a + b for a, b in zip(watched[0].by_turn, watched[1].by_turn, strict=True)))


def chunk(preset: str, first: int, last: int, turns: int, who: str) -> list[Tally]:
    return [pair(preset, seed, turns, who) for seed in range(first, last)]


def measured(preset: str, pairs: int, turns: int, who: str, processes: int) -> list[Tally]:
    bounds = [(first, min(first + 10, pairs)) for first in range(0, pairs, 10)]
    if processes <= 1:
        return [t for first, last in bounds for t in chunk(preset, first, last, turns, who)]
    with ProcessPoolExecutor(processes) as pool:
        futures = [pool.submit(chunk, preset, first, last, turns, who) for first, last in bounds]
        return [t for future in futures for t in future.result()]


def summary(tallies: list[Tally]) -> tuple[float, float]:
    """The loss per game (in points of win rate) and the half-width of its 95% interval."""
    per_game = [100 * t[0] / 2 for t in tallies]
    half = 1.96 * statistics.stdev(per_game) / len(per_game) ** 0.5 if len(per_game) > 1 else 0
    return statistics.mean(per_game), half


def run(preset: str, turns: int, pairs: int, processes: int) -> None:
    distributions_for(YatzyRules.make(preset))  # the tables first, outside the timing
    losses = {}
    for who in ("towin", "optimal"):
        started = time.perf_counter()
        tallies = measured(preset, pairs, turns, who, processes)
        loss, half = summary(tallies)
        losses[who] = loss
        choices = sum(t[1] for t in tallies)
        print(f"{preset}, last {turns} turns, {who}: gives away {loss:.3f} ± {half:.3f} points "
              f"of win rate a game to the exact end-game over {2 * pairs} games; "
              f"{sum(t[2] for t in tallies)} of {choices} choices not the best; best chance "
              f"at the start {sum(t[3] for t in tallies) / (2 * pairs):.4f}; solves "
              f"{sum(t[4] for t in tallies) / (2 * pairs):.3f} s of CPU a game; "
              f"{time.perf_counter() - started:.0f} s", flush=True)
        for k in range(1, turns):  # the same choices, the end-game counted from k turns
            part = [(sum(t[5][:k]), *t[1:]) for t in tallies]
            loss, half = summary(part)
            print(f"    of which in the last {k}: {loss:.3f} ± {half:.3f}", flush=True)
    share = losses["towin"] / losses["optimal"] if losses["optimal"] else float("nan")
    print(f"{preset}, last {turns} turns: ratio {share:.3f} (towin's loss against the "
          f"expected-score play's)", flush=True)


def main() -> None:
    args = sys.argv[1:]
    processes = 1
    if "--processes" in args:
        at = args.index("--processes")
        processes = int(args[at + 1])
        del args[at:at + 2]
    turns = int(args[0]) if args else 4
    pairs = int(args[1]) if len(args) > 1 else 100
    for preset in args[2:] or ["yatzy", "yahtzee"]:
        run(preset, turns, pairs, processes)


if __name__ == "__main__":
    main()

"""Yatzy bots: mean score and time per solo game of the greedy bot, against the random bot.

    .venv/bin/python benchmarks/bench_yatzy_bots.py [GAMES]

Every preset is played GAMES times (default 50) by each bot on the same seeded dice; the
ratio is greedy's mean score over random's (Terningspoker's can be negative, so it also
prints the difference).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from kastkopp.dice import SeededDice
from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.games.yatzy import YatzyRules, YatzyState
from kastkopp.strategy import make_bot


def play(preset: str, bot: str, games: int) -> tuple[float, float, float]:
    """Mean total, its standard deviation, and seconds per game."""
    game = load("yatzy", preset=preset, players=1)
    totals = []
    start = time.perf_counter()
    for seed in range(games):
        table = Table(game, dice=SeededDice(seed))
        play_out(table, [make_bot(game, bot)], random.Random(seed))
        assert isinstance(table.state, YatzyState)
        totals.append(table.state.totals()[0])
    seconds = (time.perf_counter() - start) / games
    return statistics.mean(totals), statistics.stdev(totals), seconds


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    print(f"{'preset':14} {'greedy':>14} {'random':>14} {'ratio':>6} {'diff':>6} "
          f"{'s/game greedy':>14} {'random':>7}")
    for preset in YatzyRules.PRESETS:
        g_mean, g_sd, g_time = play(preset, "greedy", games)
        r_mean, r_sd, r_time = play(preset, "random", games)
        ratio = f"{g_mean / r_mean:6.2f}" if r_mean > 0 else "     –"
        print(f"{preset:14} {g_mean:7.1f} ±{g_sd:5.1f} {r_mean:7.1f} ±{r_sd:5.1f} {ratio} "
              f"{g_mean - r_mean:6.1f} {g_time:14.3f} {r_time:7.3f}")
    print(f"({games} solo games per bot and preset, seeds 0..{games - 1})")


if __name__ == "__main__":
    main()

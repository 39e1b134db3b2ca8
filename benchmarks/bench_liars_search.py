"""The liar's-dice search bot's thinking time per move, against the strong bot's.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_liars_search.py [GAMES] [DICE ...]

Plays GAMES heads-up Perudo games (default 10) of ``search`` against ``strong`` at each
count of dice per player (default 2 3 5), seats alternating, and times every move each bot
makes (processor time of this process). It prints, per dice count, each bot's mean move,
the search bot's 95th percentile and slowest move, and the ratio of the means.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from kastkopp.dice import SeededDice
from kastkopp.engine import Action, Player, Table, play_out
from kastkopp.games import load
from kastkopp.strategy import make_bot


class Timed(Player):
    """A bot whose every choice is timed."""

    def __init__(self, bot: Player, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        started = time.process_time()
        action = self.bot.choose(view, legal, rng)
        self.times.append(time.process_time() - started)
        return action


def measure(dice: int, games: int) -> dict[str, list[float]]:
    game = load("liars_dice", preset="perudo", players=2, dice=dice)
    times: dict[str, list[float]] = {"search": [], "strong": []}
    for number in range(games):
        names = ["search", "strong"] if number % 2 == 0 else ["strong", "search"]
        players = [Timed(make_bot(game, n), times[n]) for n in names]
        play_out(Table(game, dice=SeededDice(number)), players, random.Random(number))
    return times


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    counts = [int(a) for a in sys.argv[2:]] or [2, 3, 5]
    for dice in counts:
        times = measure(dice, games)
        search, strong = sorted(times["search"]), times["strong"]
        mean_search = sum(search) / len(search)
        mean_strong = sum(strong) / len(strong)
        p95 = search[int(0.95 * (len(search) - 1))]
        print(f"{dice} dice each, {games} games: search {len(search)} moves, mean "
              f"{mean_search * 1e3:.1f} ms, 95% under {p95 * 1e3:.1f} ms, slowest "
              f"{search[-1] * 1e3:.0f} ms; strong mean {mean_strong * 1e3:.2f} ms; "
              f"search/strong {mean_search / mean_strong:.0f}x")


if __name__ == "__main__":
    main()

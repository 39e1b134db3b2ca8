"""``kastkopp simulate``: bots against bots, win rates and mean winnings with intervals."""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.seats import Seat, make_game, parse_seats, seat_names
from kastkopp.cli.support import console, errors, friendly, rich_table, say

if TYPE_CHECKING:
    from kastkopp.engine import Game, Outcome


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def play_game(game: Game, labels: Sequence[str], bots: Sequence[str], number: int,
              seed: int, deal: int | None = None) -> tuple[list[int], Outcome]:
    """Game ``number`` of a run of bots against bots, its dice and choices seeded from ``seed``
    and ``deal`` (default: ``number``); the entries' seats rotate with ``number`` so no bot
    keeps the first seat. Games with one ``deal`` and different seats throw the same dice
    as long as their players choose alike (common random numbers).

    Returns ``order`` (seat ``s`` is played by entry ``order[s]``) and the outcome.
    """
    from kastkopp.dice import SeededDice
    from kastkopp.engine import Table, play_out
    from kastkopp.strategy import make_bot

    n = len(bots)
    deal = number if deal is None else deal
    order = [(i + number % n) % n for i in range(n)]
    table = Table(game, seats=[labels[e] for e in order],
                  dice=SeededDice(seed * 1_000_003 + deal))
    actors = [make_bot(game, bots[e]) for e in order]
    return order, play_out(table, actors, random.Random(seed * 7_919 + deal))


def simulate(game: Game, seats: Sequence[Seat], games: int, seed: int,
             progress: Callable[[], None] | None = None) -> list[dict[str, Any]]:
    """Play ``games`` games, rotating the seats each game so no bot keeps the first seat.

    Returns one row per ``--players`` entry: win rate (ties share the win) with a 95%
    Wilson interval, and the mean payoff per game with a 95% interval.
    """
    n = len(seats)
    wins = [0.0] * n
    payoffs: list[list[float]] = [[] for _ in range(n)]
    scores: list[list[float]] = [[] for _ in range(n)]
    labels = [seat.label for seat in seats]
    bots = [seat.bot or "random" for seat in seats]
    for number in range(games):
        order, outcome = play_game(game, labels, bots, number, seed)
        for seat, entry in enumerate(order):
            if seat in outcome.winners:
                wins[entry] += 1 / len(outcome.winners)
            payoffs[entry].append(outcome.payoffs[seat])
            scores[entry].append(outcome.scores[seat])
        if progress is not None:
            progress()
    rows = []
    names = seat_names(seats)
    for entry in range(n):
        low, high = wilson(wins[entry], games)
        mean, mlow, mhigh = mean_interval(payoffs[entry])
        score, slow, shigh = mean_interval(scores[entry])
        rows.append({"player": names[entry], "games": games, "wins": wins[entry],
                     "win_rate": wins[entry] / games, "win_rate_ci95": [low, high],
                     "even_share": 1 / n, "mean_payoff": mean,
                     "mean_payoff_ci95": [mlow, mhigh], "mean_score": score,
                     "mean_score_ci95": [slow, shigh]})
    return rows


def _half(interval: Sequence[float]) -> float:
    return (interval[1] - interval[0]) / 2


@app.command("simulate")
@friendly
def simulate_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="the game to simulate"),
    players: str = typer.Option(..., "--players", metavar="BOTS",
                                help='the bots, in seat order, e.g. "bot:sensible,bot:random" '
                                '(seats rotate every game)'),
    games: int = typer.Option(1000, "--games", min=1, metavar="N", help="how many games"),
    seed: int = typer.Option(0, "--seed", metavar="N",
                             help="the seed of the dice and the bots' choices (the same seed "
                             "gives the same results)"),
    preset: Preset = None,
    rule: HouseRules = None,
    as_json: AsJson = False,
) -> None:
    """Bots against bots: win rates and mean winnings with 95% confidence intervals."""
    from kastkopp.engine import RuleError
    from kastkopp.locale import minus

    seats = parse_seats(players, game_name)
    people = [s.label for s in seats if s.bot is None]
    if people:
        raise RuleError("simulate plays bots only; '{name}' is not 'bot:NAME'", name=people[0])
    game = make_game(game_name, preset, rule, len(seats))
    from rich.progress import Progress

    with Progress(console=errors, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(say("playing"), total=games)
        rows = simulate(game, seats, games, seed, progress=lambda: bar.advance(task))
    if as_json:
        console.print_json(json.dumps({"game": game_name, "preset": preset,
                                       "rules": game.rules.changed(), "results": rows}))
        return
    title = say(game.title)
    played = (say("1 game of {game}", game=title) if games == 1
              else say("{count} games of {game}", count=games, game=title))
    console.print(played, style="bold", highlight=False)
    table = rich_table()
    table.add_column(say("player"), no_wrap=True)
    for column in (say("win rate"), say("mean payoff"), say("mean score")):
        table.add_column(column, justify="right", no_wrap=True)
    for row in rows:
        low, high = row["win_rate_ci95"]
        table.add_row(row["player"], f"{row['win_rate']:.1%} ({low:.1%}–{high:.1%})",
                      minus(f"{row['mean_payoff']:+.3f}")
                      + f" ±{_half(row['mean_payoff_ci95']):.3f}",
                      minus(f"{row['mean_score']:.2f}")
                      + f" ±{_half(row['mean_score_ci95']):.2f}")
    console.print(table)
    console.print(say("In brackets and after ±: the 95 percent confidence intervals."))
    console.print(say("An even share is {share}.", share=format(1 / len(seats), ".1%")))



"""``kastkopp ladder``: every bot of a game against every other, rated with openskill.

Each table of the ladder (a pair of bots heads-up, or a mix of several where the game seats
more) plays ``--games`` games through :func:`kastkopp.cli.simulate.play_game`, the seats
rotating every game so the first seat's advantage cancels. The games are cut into chunks and
played on local processes, or on Ray when it is installed (``pip install kastkopp[ray]``;
``RAY_ADDRESS`` names a cluster, else Ray starts on this machine). Every game's dice and
every bot's choices are seeded from ``--seed``, the table and the game's number, and the
ratings are folded in a fixed order, so the same command gives the same ladder on any number
of workers.

The ladder is a JSON file (``--out``); the server shows the one in its ladder folder on
``/stats/GAME`` (see ``docs/ladder.md``).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.simulate import mean_interval, play_game, wilson
from kastkopp.cli.support import console, errors, friendly, parse_rules, rich_table, say

BACKENDS = ("auto", "processes", "ray")
# Games per chunk at most: small enough for a steady progress bar and even work.
CHUNK = 25


@dataclass(frozen=True)
class Chunk:
    """Games ``first`` to ``first + count - 1`` of one ladder table."""

    game: str
    preset: str | None
    rules: tuple[tuple[str, str], ...]
    table: int  # the table's index in the ladder: part of its seed
    bots: tuple[str, ...]
    first: int
    count: int
    seed: int
    paired: bool = False  # the games of a round of seatings share their dice (see play_chunk)


@dataclass(frozen=True)
class Result:
    """One game: each entry's place (1 is best; tied seats share one) and payoff."""

    table: int
    number: int
    places: tuple[int, ...]
    payoffs: tuple[float, ...]


def tables_of(bots: Sequence[str], largest: int) -> list[tuple[str, ...]]:
    """Every pair heads-up, then every mix of 3 to ``largest`` different bots."""
    return [mix for size in range(2, largest + 1) for mix in itertools.combinations(bots, size)]


def table_seed(seed: int, table: int) -> int:
    return seed * 10_007 + table


def play_chunk(chunk: Chunk) -> list[Result]:
    """Play one chunk (in a worker: everything it needs travels in ``chunk``)."""
    from kastkopp.games import load

    game = load(chunk.game, preset=chunk.preset, players=len(chunk.bots), **dict(chunk.rules))
    labels = [f"bot:{bot}" for bot in chunk.bots]
    results = []
    size = len(chunk.bots)
    for number in range(chunk.first, chunk.first + chunk.count):
        # paired: games size*k to size*k + size - 1 seat the bots every way round on one deal
        deal = number // size if chunk.paired else None
        order, outcome = play_game(game, labels, chunk.bots, number,
                                   table_seed(chunk.seed, chunk.table), deal)
        places = [0] * len(order)
        payoffs = [0.0] * len(order)
        for seat, entry in enumerate(order):
            places[entry] = outcome.place(seat)
            payoffs[entry] = outcome.payoffs[seat]
        results.append(Result(chunk.table, number, tuple(places), tuple(payoffs)))
    return results


def chunks_of(game: str, preset: str | None, rules: dict[str, str],
              tables: Sequence[tuple[str, ...]], games: int, seed: int,
              paired: bool = False) -> list[Chunk]:
    return [Chunk(game, preset, tuple(sorted(rules.items())), index, bots, first,
                  min(CHUNK, games - first), seed, paired)
            for first in range(0, games, CHUNK) for index, bots in enumerate(tables)]


def check_paired(tables: Sequence[tuple[str, ...]], games: int) -> None:
    """Paired games come in rounds of every seating: ``games`` must be a whole number of
    rounds at every table (even heads-up)."""
    from kastkopp.engine import RuleError

    rounds = math.lcm(*(len(mix) for mix in tables))
    if games % rounds:
        raise RuleError("paired games seat the bots every way round on the same dice: the "
                        "games at each table must be a multiple of {rounds}, not {games}",
                        rounds=rounds, games=games)


def backend_for(choice: str) -> str:
    """``auto`` is Ray when it is installed, else local processes."""
    from kastkopp.engine import RuleError

    if choice not in BACKENDS:
        raise RuleError("unknown backend '{name}' (backends: {known})", name=choice,
                        known=", ".join(BACKENDS))
    has_ray = importlib.util.find_spec("ray") is not None
    if choice == "ray" and not has_ray:
        raise RuleError("Ray is not installed: pip install kastkopp[ray]")
    if choice == "auto":
        return "ray" if has_ray else "processes"
    return choice


def run_processes(chunks: Sequence[Chunk], workers: int,
                  done: Callable[[int], None]) -> list[Result]:
    """The chunks on ``workers`` local processes (one: in this process)."""
    if workers <= 1:
        results = []
        for chunk in chunks:
            results.extend(play_chunk(chunk))
            done(chunk.count)
        return results
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_chunk, chunk): chunk for chunk in chunks}
        for future in as_completed(futures):
            results.extend(future.result())
            done(futures[future].count)
    return results


def run_ray(chunks: Sequence[Chunk], done: Callable[[int], None]) -> list[Result]:
    """The chunks as Ray tasks: on the cluster ``RAY_ADDRESS`` names, else on this machine."""
    import ray

    ray.init(address=os.environ.get("RAY_ADDRESS"), ignore_reinit_error=True,
             log_to_driver=False)
    remote = ray.remote(play_chunk)
    pending = {remote.remote(chunk): chunk for chunk in chunks}
    results: list[Result] = []
    waiting = list(pending)
    while waiting:
        ready, waiting = ray.wait(waiting)
        for ref in ready:
            results.extend(ray.get(ref))
            done(pending[ref].count)
    return results


def places_by(totals: Sequence[float]) -> tuple[int, ...]:
    """Places by total, most first; equal totals share a place (two tied seconds are both 2)."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def rankings(results: Iterable[Result], match: int) -> list[tuple[int, tuple[int, ...]]]:
    """The rated events in a fixed order, each ``(table, places)``: every game by its own
    ranking, or with ``match`` above 1 every ``match`` games of a table in a row as one
    event, ranked by what each bot won in them."""
    if match == 1:
        ordered = sorted(results, key=lambda r: (r.number, r.table))
        return [(r.table, r.places) for r in ordered]
    totals: dict[tuple[int, int], list[float]] = {}
    for r in results:
        summed = totals.setdefault((r.number // match, r.table), [0.0] * len(r.payoffs))
        for entry, payoff in enumerate(r.payoffs):
            summed[entry] += payoff
    return [(table, places_by(totals[(number, table)]))
            for number, table in sorted(totals)]


def rate(tables: Sequence[tuple[str, ...]], results: Iterable[Result],
         match: int = 1) -> list[dict[str, Any]]:
    """Openskill (Plackett–Luce) ratings folded over the rated events in a fixed order (see
    :func:`rankings`), best first; ``events`` counts each bot's."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    for table, places in rankings(results, match):
        bots = tables[table]
        teams = [[ratings.get(bot) or model.rating(name=bot)] for bot in bots]
        rated = model.rate(teams, ranks=[float(place) for place in places])
        for bot, (new,) in zip(bots, rated, strict=True):
            ratings[bot] = new
            played[bot] = played.get(bot, 0) + 1
    rows = [{"bot": bot, "rating": r.ordinal(), "mu": r.mu, "sigma": r.sigma,
             "mu_2sigma": [r.mu - 2 * r.sigma, r.mu + 2 * r.sigma], "events": played[bot]}
            for bot, r in ratings.items()]
    rows.sort(key=lambda row: (-row["rating"], row["bot"]))
    return rows


def table_rows(tables: Sequence[tuple[str, ...]], results: Sequence[Result],
               paired: bool = False) -> list[dict[str, Any]]:
    """Per table, each bot's win rate (a shared first place shares the win) and mean payoff,
    with 95% intervals (Wilson; normal for the mean). ``paired``: the intervals are over
    the rounds of seatings on one deal (see :func:`play_chunk`), each round's mean one
    sample, so what the dice gave every seat alike cancels."""
    rows = []
    for index, bots in enumerate(tables):
        games = sorted((r for r in results if r.table == index), key=lambda r: r.number)
        size = len(bots) if paired else 1
        entries = []
        for entry, bot in enumerate(bots):
            won = [1 / r.places.count(1) if r.places[entry] == 1 else 0.0 for r in games]
            wins = sum(won)
            payoff, low, high = mean_interval(rounds_of([r.payoffs[entry] for r in games],
                                                        size))
            if paired:
                _, wlow, whigh = mean_interval(rounds_of(won, size))
                rate_ci = [max(0.0, wlow), min(1.0, whigh)]
            else:
                rate_ci = list(wilson(wins, len(games)))
            entries.append({"bot": bot, "wins": wins, "win_rate": wins / len(games),
                            "win_rate_ci95": rate_ci,
                            "mean_payoff": payoff, "mean_payoff_ci95": [low, high]})
        rows.append({"bots": list(bots), "players": len(bots), "games": len(games),
                     "results": entries})
    return rows


def rounds_of(values: Sequence[float], size: int) -> list[float]:
    """The means of ``values`` taken ``size`` at a time (``size`` 1: the values)."""
    return [sum(values[i:i + size]) / size for i in range(0, len(values), size)]


def largest_table(game_name: str, bots: Sequence[str], players: int | None) -> int:
    """The most players at a ladder table: ``--players``, else as many bots as the game
    seats; each bot sits at a table once."""
    from kastkopp.engine import RuleError
    from kastkopp.games import game_class

    cls = game_class(game_name)
    most = min(len(bots), cls.max_players)
    if players is None:
        return most
    if not max(2, cls.min_players) <= players <= most:
        raise RuleError("a ladder of {game} seats 2 to {most} bots at a table, not {players}",
                        game=cls.title or game_name, most=most, players=players)
    return players


def chosen_bots(game_name: str, names: str | None) -> list[str]:
    """The bots of a ladder: ``names`` (``random,optimal`` or with settings,
    ``random,ismcts:sims=50``) in the game's order, else every bot of the game."""
    from kastkopp.engine import RuleError
    from kastkopp.strategy import bot_names, check_bot, parse_bot

    known = bot_names(game_name)
    if names is None:
        return known
    given = [name.strip().removeprefix("bot:") for name in names.split(",") if name.strip()]
    ours = all(name.split(":")[0] in known for name in given)
    # the game's own bots, each written the one way; a bad setting is refused by check_bot
    wanted = list(dict.fromkeys(check_bot(game_name, name) for name in given)) if ours else []
    if len(wanted) < 2:
        raise RuleError("a ladder of {game} needs two or more of its bots ({bots}), not "
                        "'{names}'", game=game_name, bots=", ".join(known), names=names)
    return sorted(wanted, key=lambda spec: known.index(parse_bot(game_name, spec).name))


def ladder(game_name: str, preset: str | None, rules: dict[str, str], games: int,
           players: int | None, seed: int, workers: int, backend: str,
           progress: Callable[[int, int], None], match: int = 1,
           names: str | None = None, paired: bool = False) -> dict[str, Any]:
    """Play and rate the ladder; the JSON ladder file's contents. ``progress`` is told the
    games played so far and how many there are; ``names`` chooses the bots (else all);
    ``paired`` plays each table's games in rounds of every seating on one deal."""
    from kastkopp.games import load

    game = load(game_name, preset=preset, players=2, **rules)  # a bad rule fails here
    bots = chosen_bots(game_name, names)
    tables = tables_of(bots, largest_table(game_name, bots, players))
    for size in {len(mix) for mix in tables}:
        load(game_name, preset=preset, players=size, **rules)  # and every table size is legal
    if paired:
        check_paired(tables, games)
    chunks = chunks_of(game_name, preset, rules, tables, games, seed, paired)
    chosen = backend_for(backend)
    played = [0]

    def done(count: int) -> None:
        played[0] += count
        progress(played[0], games * len(tables))

    results = (run_ray(chunks, done) if chosen == "ray"
               else run_processes(chunks, workers, done))
    ratings = rate(tables, results, match)
    for row in ratings:
        row["games"] = games * sum(row["bot"] in mix for mix in tables)
    return {"game": game_name, "preset": preset, "rules": game.rules.changed(), "seed": seed,
            "games_per_table": games, "match": match, "paired": paired, "bots": bots,
            "ratings": ratings, "tables": table_rows(tables, results, paired),
            "backend": chosen,
            "command": command_line(game_name, preset, rules, games, players, seed, match,
                                    None if names is None else ",".join(bots), paired)}


def command_line(game_name: str, preset: str | None, rules: dict[str, str], games: int,
                 players: int | None, seed: int, match: int = 1,
                 bots: str | None = None, paired: bool = False) -> str:
    """The command that plays this ladder again."""
    words = ["kastkopp", "ladder", game_name]
    if bots is not None:
        words += ["--bots", bots]
    if preset is not None:
        words += ["--preset", preset]
    for name, value in sorted(rules.items()):
        words += ["--rule", f"{name}={value}"]
    words += ["--games", str(games)]
    if players is not None:
        words += ["--players", str(players)]
    if match != 1:
        words += ["--match", str(match)]
    if paired:
        words += ["--paired"]
    return " ".join([*words, "--seed", str(seed)])


@app.command("ladder")
@friendly
def ladder_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="the game whose bots to rate"),
    games: int = typer.Option(200, "--games", min=1, metavar="N",
                              help="games at each table (a pair of bots, or a mix)"),
    players: int = typer.Option(None, "--players", metavar="K",
                                help="the most bots at a table: 2 plays heads-up only "
                                "(default: as many as the game seats)"),
    seed: int = typer.Option(0, "--seed", metavar="N",
                             help="the seed of the dice and the bots' choices (the same seed "
                             "gives the same ladder)"),
    match: int = typer.Option(1, "--match", min=1, metavar="N",
                              help="rate every N games of a table as one match, ranked by "
                              "what each bot won in them (in pot games a bot may win most "
                              "pots and still lose money); 1 rates each game by its winner"),
    workers: int = typer.Option(None, "--workers", min=1, metavar="N",
                                help="local processes to play on (default: one per core)"),
    backend: str = typer.Option("auto", "--backend", metavar="NAME",
                                help="processes, ray, or auto: Ray when installed "
                                "(pip install kastkopp[ray]; RAY_ADDRESS names a cluster)"),
    out: Path = typer.Option(None, "--out", metavar="FILE",
                             help="write the ladder as JSON to this file (the server shows "
                             "GAME.json from its ladder folder)"),
    bots: str = typer.Option(None, "--bots", metavar="A,B,...",
                             help="the bots to rate, e.g. random,optimal (default: every bot "
                             "of the game)"),
    paired: bool = typer.Option(False, "--paired",
                                help="play each table's games in rounds that seat the bots "
                                "every way round on the same dice (heads-up: pairs, seats "
                                "swapped); the intervals are over the rounds"),
    preset: Preset = None,
    rule: HouseRules = None,
    as_json: AsJson = False,
) -> None:
    """Every bot of a game against every other: openskill ratings and head-to-head win
    rates with 95% confidence intervals."""
    from rich.progress import Progress

    rules = parse_rules(rule)
    with Progress(console=errors, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(say("playing"), total=None)
        data = ladder(game_name, preset, rules, games, players, seed,
                      workers or os.cpu_count() or 1, backend,
                      lambda played, total: bar.update(task, completed=played, total=total),
                      match, bots, paired)
    if out is not None:
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if as_json:
        console.print_json(json.dumps(data))
        return
    show(data)


def ahead(entry: dict[str, Any]) -> tuple[float, float]:
    """What puts a bot ahead at a table: what it won, then how often."""
    return (entry["mean_payoff"], entry["win_rate"])


def show(data: dict[str, Any]) -> None:
    """The ladder as tables in the player's language."""
    from kastkopp.games import game_class
    from kastkopp.locale import minus

    title = say(game_class(data["game"]).title)
    console.print(say("Bot ladder of {game}: {count} games at each table, seed {seed}",
                      game=title, count=data["games_per_table"], seed=data["seed"]),
                  style="bold", highlight=False)
    ratings = rich_table()
    for column in ("#", say("bot"), say("rating"), "μ ± 2σ", say("games")):
        ratings.add_column(column, justify="left" if column == say("bot") else "right",
                           no_wrap=True)
    for place, row in enumerate(data["ratings"], start=1):
        ratings.add_row(str(place), f"bot:{row['bot']}", minus(f"{row['rating']:.2f}"),
                        minus(f"{row['mu']:.2f}") + f" ± {2 * row['sigma']:.2f}",
                        str(row["games"]))
    console.print(ratings)
    results = rich_table()
    results.add_column(say("bot"), no_wrap=True)
    results.add_column(say("against"))
    for column in (say("games"), say("win rate"), say("mean payoff")):
        results.add_column(column, justify="right", no_wrap=True)
    for table in data["tables"]:
        # heads-up, the row of the bot ahead says it all
        entries = table["results"]
        if table["players"] == 2:
            entries = [max(entries, key=ahead)]
        for entry in entries:
            others = ", ".join(b for b in table["bots"] if b != entry["bot"])
            low, high = entry["win_rate_ci95"]
            plow, phigh = entry["mean_payoff_ci95"]
            results.add_row(f"bot:{entry['bot']}", others, str(table["games"]),
                            f"{entry['win_rate']:.1%} ({low:.1%}–{high:.1%})",
                            minus(f"{entry['mean_payoff']:+.3f}")
                            + f" ±{(phigh - plow) / 2:.3f}")
    console.print(results)
    rated = (say("each game ranked by its winner") if data["match"] == 1 else
             say("every {count} games of a table as one match, ranked by what each bot won",
                 count=data["match"]))
    console.print(say("The rating is openskill's μ − 3σ over the rated events: {rated}.",
                      rated=rated), highlight=False)
    console.print(say("In brackets and after ±: the 95 percent confidence intervals."),
                  highlight=False)
    if data.get("paired"):
        console.print(say("Paired: each table's games come in rounds that seat the bots "
                          "every way round on the same dice; the intervals are over the "
                          "rounds."), highlight=False)
    console.print(say("The same ladder again: {command}", command=data["command"]),
                  highlight=False)

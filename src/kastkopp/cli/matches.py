"""``kastkopp match``, ``chouette`` and ``knockout``: the match formats on the command line.

Generic over every two-player game (the default is Liar Dice, whose source, Løgner
terninger, describes these formats). People and bots mix freely in ``--players``; games
between two bots are played quietly, games with a person at the table are played as
``kastkopp play`` plays them.

    kastkopp match poker_dice --best-of 3 --players "Anna,bot:strong"
    kastkopp chouette poker_dice --players "Anna,Bo,bot:strong" --games 6
    kastkopp knockout --players bot:strong,bot:random,bot:strong,bot:random --seed 1
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, HouseRules, Logs, Preset, Seed, TwoPlayerGame
from kastkopp.cli.seats import make_game, parse_seats, seat_names
from kastkopp.cli.support import (
    console,
    friendly,
    language,
    print_json,
    printed,
    rich_table,
    say,
)

if TYPE_CHECKING:  # the games and matches are loaded by the commands that play, not by --help
    from kastkopp.dice import DiceSource
    from kastkopp.engine import Action, Game, Player
    from kastkopp.matches import Match, Pairing, PlayGame


class Seating:
    """The players of a match or tournament, and how to play one game between two of them."""

    def __init__(self, game_name: str | None, players: str, seed: int | None,
                 logs: Path | None = None) -> None:
        from kastkopp.games import default_game

        self.game_name = game_name or default_game("match")
        self.seats = parse_seats(players, self.game_name)
        self.names = seat_names(self.seats)
        self.bots = {name: seat.bot for name, seat in zip(self.names, self.seats, strict=True)}
        self.seed = seed
        self.numbers = itertools.count()
        self.rng = random.Random(seed)
        self.logs = logs
        self.played = 0
        if logs is not None:
            logs.mkdir(parents=True, exist_ok=True)

    def game(self, preset: str | None, rule: Sequence[str] | None) -> Game:
        """The two-player game the seats play, under ``--preset`` and ``--rule``."""
        return make_game(self.game_name, preset, rule, 2)

    def dice(self) -> DiceSource:
        """A fresh dice source for each game (reproducible with ``--seed``)."""
        from kastkopp.dice import SecureDice, SeededDice

        if self.seed is None:
            return SecureDice()
        return SeededDice(self.seed * 1_000_003 + next(self.numbers))

    def roll(self) -> int:
        return self.dice().roll(1)[0]

    def play(self, game: Game, pair: tuple[str, str]) -> str | None:
        from kastkopp.cli.terminal import Narrator, TerminalPlayer, board
        from kastkopp.engine import Table, play_out
        from kastkopp.strategy import make_bot

        names = list(pair)
        table = Table(game, seats=names, dice=self.dice())
        people = [n for n in names if self.bots[n] is None]
        seats = [seat for seat, name in enumerate(names) if self.bots[name] is None]
        narrator = Narrator(table, seats, hot_seat=len(people) > 1)
        actors: list[Player] = []
        for seat, name in enumerate(names):
            bot = self.bots[name]
            actors.append(make_bot(game, bot) if bot is not None
                          else TerminalPlayer(table, seat, hot_seat=len(people) > 1,
                                              narrator=narrator))

        def narrate(seat: int, action: Action) -> None:
            if people:  # games between two bots are played quietly
                narrator(seat, action)

        if people:
            console.rule(say("{a} against {b}", a=pair[0], b=pair[1]))
        self.played += 1
        try:
            outcome = play_out(table, actors, self.rng, on_action=narrate)
        finally:
            if self.logs is not None:  # every game's log, finished or not
                path = self.logs / f"game-{self.played:03d}.json"
                path.write_text(table.dumps(), encoding="utf-8")
        if people:
            console.print(board(game, table.state.view(None), names), highlight=False)
        if len(outcome.winners) != 1:
            return None
        return names[outcome.winners[0]]


def match_line(match: Match) -> str:
    a, b = match.players
    wins = match.wins()
    return f"{a} {wins[0]}-{wins[1]} {b}"


def logged_play(seating: Seating) -> PlayGame:
    """Play a game and print one line about it."""
    count = itertools.count(1)

    def play(game: Game, pair: tuple[str, str]) -> str | None:
        winner = seating.play(game, pair)
        number, (a, b) = next(count), pair
        console.print(say("game {number}: {a} against {b} — drawn", number=number, a=a, b=b)
                      if winner is None else
                      say("game {number}: {a} against {b} — {winner} won", number=number,
                          a=a, b=b, winner=winner), highlight=False)
        return winner

    return play


@app.command("match")
@friendly
def match_command(
    game_name: TwoPlayerGame = None,
    players: str = typer.Option(..., "--players", help='two players, e.g. "Anna,bot:strong"'),
    best_of: int = typer.Option(3, "--best-of", help="an odd number of games: 3 or 5"),
    preset: Preset = None,
    rule: HouseRules = None,
    seed: Seed = None,
    logs: Logs = None,
    as_json: AsJson = False,
) -> None:
    """A match of best of N games; the winner of each game starts the next."""
    seating = Seating(game_name, players, seed, logs)
    if len(seating.names) != 2:
        from kastkopp.engine import RuleError

        raise RuleError("a match is between two players, not {count}",
                        count=len(seating.names))
    game = seating.game(preset, rule)
    pair = (seating.names[0], seating.names[1])
    from kastkopp.matches import check_best_of, play_match

    check_best_of(best_of)
    match = play_match(game, pair, best_of, seating.play if as_json else logged_play(seating))
    if printed(match.to_json(), as_json):
        return
    console.print(say("{name} wins the match {score}.", name=match.winner,
                      score=match_line(match)), highlight=False)


@app.command("chouette")
@friendly
def chouette_command(
    game_name: TwoPlayerGame = None,
    players: str = typer.Option(..., "--players", help='three or more, e.g. "Anna,Bo,bot"'),
    games: int = typer.Option(10, "--games", min=1, help="how many games to play"),
    preset: Preset = None,
    rule: HouseRules = None,
    seed: Seed = None,
    logs: Logs = None,
    as_json: AsJson = False,
) -> None:
    """Chouette: a die each for the order, the winner stays, the loser queues at the end."""
    seating = Seating(game_name, players, seed, logs)
    if len(seating.names) < 3:
        from kastkopp.engine import RuleError

        raise RuleError("a chouette is for three or more players; two play a match")
    game = seating.game(preset, rule)
    from kastkopp.matches import play_chouette, roll_for_order

    roll_off = roll_for_order(seating.names, seating.roll)
    if not as_json:
        for number, rolls in enumerate(roll_off.rounds, start=1):
            thrown = ", ".join(f"{n} {f}" for n, f in rolls)
            console.print(say("Dice for the order: {rolls}", rolls=thrown) if number == 1
                          else say("Rolled again: {rolls}", rolls=thrown), highlight=False)
        console.print(say("Order: {names}", names=", ".join(roll_off.order)), highlight=False)
    chouette = play_chouette(game, roll_off.order, games,
                             seating.play if as_json else logged_play(seating))
    if as_json:
        data: dict[str, Any] = chouette.to_json()
        data["rolls"] = [[list(r) for r in rolls] for rolls in roll_off.rounds]
        print_json(data)
        return
    table = rich_table(title=say("Chouette after 1 game") if games == 1
                       else say("Chouette after {count} games", count=games))
    table.add_column(say("player"))
    for column in (say("played"), say("won"), say("lost")):
        table.add_column(column, justify="right")
    for row in chouette.standings():
        table.add_row(row.player, str(row.played), str(row.won), str(row.lost))
    console.print(table)
    console.print(say("At the table now: {a} and {b}; waiting: {names}", a=chouette.table[0],
                      b=chouette.table[1], names=", ".join(chouette.waiting)), highlight=False)


@app.command("knockout")
@friendly
def knockout_command(
    game_name: TwoPlayerGame = None,
    players: str = typer.Option(..., "--players",
                                help="the players, best seed first, e.g. bot:strong,bot:random"),
    best_of: int = typer.Option(1, "--best-of", help="games per match (odd)"),
    seeding: str = typer.Option("listed", "--seeding",
                                help="listed: as given; dice: a die each, highest first"),
    preset: Preset = None,
    rule: HouseRules = None,
    seed: Seed = None,
    logs: Logs = None,
    as_json: AsJson = False,
) -> None:
    """A knockout: the bracket (byes for the top seeds), every match best of N, a final."""
    from kastkopp.matches import Knockout, check_best_of, play_knockout, roll_for_order

    seating = Seating(game_name, players, seed, logs)
    game = seating.game(preset, rule)
    check_best_of(best_of)
    if seeding == "listed":
        seeds: Sequence[str] = seating.names
    elif seeding == "dice":
        seeds = roll_for_order(seating.names, seating.roll).order
    else:
        from kastkopp.engine import RuleError

        raise RuleError("seeding is 'listed' or 'dice', not '{seeding}'", seeding=seeding)

    bracket = Knockout(tuple(seeds))
    if not as_json:
        console.print(say("Seeds: {seeds}", seeds=", ".join(
            f"{i}. {n}" for i, n in enumerate(seeds, 1))), highlight=False)

    def report(pairing: Pairing, match: Match) -> None:
        if not as_json:
            console.print(f"{bracket.round_name(pairing.round, language())}: "
                          f"{match_line(match)}",
                          highlight=False)

    cup = play_knockout(game, seeds, best_of, seating.play, on_match=report)
    if printed(cup.to_json(), as_json):
        return
    console.rule(say("Bracket"))
    console.print("\n".join(cup.lines(language())), highlight=False)

"""``kastkopp games`` and ``kastkopp play``: what there is to play, and playing it here.

Everything here is generic over the game protocol; what a game looks like on screen comes
from its own ``render``, what it accepts from its own notation.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.seats import make_game, parse_seats, seat_names
from kastkopp.cli.support import console, friendly, rich_table, say

if TYPE_CHECKING:
    from kastkopp.engine import Player


# --------------------------------------------------------------------------- games


@app.command("games")
@friendly
def games_command(as_json: AsJson = False) -> None:
    """List the games, their presets, house rules and bots."""
    from kastkopp.games import registered
    from kastkopp.strategy import bot_help, bot_names

    listing = []
    for name, cls in sorted(registered().items()):
        rules_cls = cls.rules_class
        listing.append({
            "name": name,
            "title": cls.title,
            "summary": cls.summary,
            "players": {"min": cls.min_players, "max": cls.max_players,
                        "default": cls.default_players},
            "presets": [{"name": p, "help": rules_cls.PRESET_HELP.get(p, ""),
                         "rules": rules_cls.PRESETS[p]} for p in rules_cls.PRESETS],
            "rules": [spec.to_json() for spec in rules_cls.specs()],
            "bots": [{"name": b, "help": bot_help(name, b)} for b in bot_names(name)],
        })
    if as_json:
        console.print_json(json.dumps(listing, ensure_ascii=False))
        return
    for game in listing:
        show_game(game)


def show_game(game: dict[str, Any]) -> None:
    """One game of ``kastkopp games`` in the player's language (the JSON stays English)."""
    players = game["players"]
    console.print(f"[bold]{game['name']}[/] — {say(game['title'])}, "
                  f"{player_range(players['min'], players['max'])}: {say(game['summary'])}",
                  highlight=False)
    presets = rich_table(show_header=False, box=None, padding=(0, 1, 0, 0))
    presets.add_column(no_wrap=True)
    presets.add_column()
    for preset in game["presets"]:  # a hanging indent: a long help wraps under itself
        colored = f"[cyan]{preset['name']}[/]"
        presets.add_row("  " + say("preset {name}:", name=colored),
                        say(preset["help"]) if preset["help"] else "")
    console.print(presets, highlight=False)
    table = rich_table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("  " + say("rule"))
    table.add_column(say("default"))
    table.add_column(say("what it does"))
    for spec in game["rules"]:
        limits = ""
        if spec["choices"]:
            limits = f" ({' | '.join(map(str, spec['choices']))})"
        elif spec["min"] is not None:
            limits = f" ({spec['min']}–{spec['max']})"
        default = spec["default"]
        shown = ((say("yes") if default else say("no")) if isinstance(default, bool)
                 else str(default))
        table.add_row(f"  {spec['name']}", shown, say(spec["help"]) + limits)
    console.print(table)
    console.print("  " + say("bots: {names}", names=", ".join(b["name"] for b in game["bots"])))
    console.print()


def player_range(low: int, high: int) -> str:
    """``2 players``, ``2–10 players``."""
    if low == high:
        return say("{count} players", count=low)
    return say("{low}–{high} players", low=low, high=high)


# --------------------------------------------------------------------------- play


@app.command("play")
@friendly
def play_command(
    game_name: str = typer.Argument(None, metavar="GAME", show_default=False,
                                    help="the game to play ('kastkopp games' lists them; "
                                    "asks if left out)"),
    preset: Preset = None,
    rule: HouseRules = None,
    players: str = typer.Option(None, "--players", metavar="NAMES",
                                help='who sits where, in order: names for people, bot or '
                                'bot:NAME for bots, e.g. "Anna,bot,bot:random" (default: '
                                'You and bots)'),
    seed: int = typer.Option(None, "--seed", metavar="N",
                             help="reproducible dice, needed for 'kastkopp verify' to check "
                             "the log (default: secure dice)"),
    log: Path = typer.Option(None, "--log", metavar="FILE",
                             help="write the game's log to FILE (to replay or verify)"),
    coach: bool = typer.Option(False, "--coach",
                               help="after each of your decisions, say what it cost and the "
                               "best choice"),
) -> None:
    """Play in the terminal: hot seat for people, bots in the other seats.

    At your turn type an action as the legal list shows it (e.g. "bid 3x5", "dudo"), "?"
    for every legal action, or "quit" to stop. With several people at the keyboard the
    screen is cleared between turns, and each is told what happened since their last one.
    """
    from kastkopp.cli.terminal import Narrator, TerminalPlayer, board, pick
    from kastkopp.dice import DiceSource, SecureDice, SeededDice
    from kastkopp.engine import RuleError, Table, play_out
    from kastkopp.games import default_game, registered
    from kastkopp.strategy import make_bot

    games = registered()
    if game_name is None:
        game_name = pick(say("Game"), sorted(games), default_game("play"))
        presets = list(games[game_name].rules_class.PRESETS)
        if presets and preset is None:
            preset = pick(say("Preset"), presets, presets[0])
        if players is None:
            default = ",".join(["You"] + ["bot"] * (games[game_name].default_players - 1))
            players = typer.prompt(say("Players (names, or bot / bot:NAME)"), default=default)
    if game_name not in games:
        raise RuleError("unknown game '{name}' (games: {known})", name=game_name,
                        known=", ".join(sorted(games)))
    cls = games[game_name]
    if players is None:
        players = ",".join(["You"] + ["bot"] * (cls.default_players - 1))
    seats = parse_seats(players, game_name)
    game = make_game(game_name, preset, rule, len(seats))
    names = seat_names(seats)
    dice: DiceSource = SecureDice() if seed is None else SeededDice(seed)
    table = Table(game, seats=names, dice=dice)
    people = [i for i, s in enumerate(seats) if s.bot is None]
    narrator = Narrator(table, people, hot_seat=len(people) > 1)
    actors: list[Player] = []
    for i, seat in enumerate(seats):
        if seat.bot is None:
            actors.append(TerminalPlayer(table, i, hot_seat=len(people) > 1,
                                         narrator=narrator))
        else:
            actors.append(make_bot(game, seat.bot))
    if coach:
        from kastkopp.cli.coach import coached

        actors = coached(actors, people, game)
    rng = random.Random(seed)
    try:
        outcome = play_out(table, actors, rng, on_action=narrator)
    finally:
        if log is not None:
            log.write_text(table.dumps(), encoding="utf-8")
    console.rule(say("Game over"))
    # one person may see their own hidden dice at the end; several share the public board
    final_seat = people[0] if len(people) == 1 else None
    console.print(board(game, table.state.view(final_seat), names), highlight=False)
    for place, group in enumerate(outcome.ranking, start=1):
        console.print(f"{place}. " + ", ".join(names[s] for s in group), highlight=False)

"""The ``kastkopp`` command line: list, play, simulate, replay, verify and ask for odds.

Everything here is generic over the game protocol; what a game looks like on screen comes
from its own ``render``, what it accepts from its own notation.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.progress import Progress
from rich.table import Table as RichTable

from kastkopp.cli_support import console, errors, friendly, parse_rules
from kastkopp.dice import DiceSource, SecureDice, SeededDice
from kastkopp.engine import (
    Action,
    Game,
    IllegalAction,
    KastkoppError,
    LogError,
    Player,
    RuleError,
    Table,
    load,
    play_out,
    registered,
    verify_log,
)
from kastkopp.interop import commands as interop_commands
from kastkopp.sheets.cli import sheet_app
from kastkopp.strategy import bot_help, bot_names, make_bot
from kastkopp.strategy.cli import register as register_solvers

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="kastkopp — the Scandinavian dice games.")
app.add_typer(sheet_app, name="sheet")



# --------------------------------------------------------------------------- seats


@dataclass(frozen=True)
class Seat:
    """One entry of ``--players``: a person's name, or ``bot`` / ``bot:NAME``."""

    label: str
    bot: str | None

    @classmethod
    def parse(cls, text: str, game_name: str) -> Seat:
        text = text.strip()
        if not text:
            raise RuleError("a player's name cannot be empty")
        if text.lower() == "bot" or text.lower().startswith("bot:"):
            names = bot_names(game_name)
            name = text[4:].strip() if ":" in text else default_bot(game_name)
            if name not in names:
                raise RuleError(f"no bot '{name}' for {game_name} (bots: {', '.join(names)})")
            return cls(f"bot:{name}", name)
        return cls(text, None)


def default_bot(game_name: str) -> str:
    """The bot a bare ``bot`` means: the game's strongest (its only non-random one first)."""
    names = bot_names(game_name)
    for preferred in ("optimal", "strong", "sensible", "greedy"):
        if preferred in names:
            return preferred
    return names[-1]


def parse_seats(spec: str, game_name: str) -> list[Seat]:
    return [Seat.parse(part, game_name) for part in spec.split(",")]


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """Display names, numbering repeated bots (``bot:random``, ``bot:random 2``)."""
    names: list[str] = []
    for seat in seats:
        name = seat.label
        count = sum(1 for n in names if n == name or n.startswith(name + " "))
        names.append(name if count == 0 else f"{name} {count + 1}")
    return names


def make_game(name: str, preset: str | None, rules: Sequence[str], players: int) -> Game:
    return load(name, preset=preset, players=players, **parse_rules(rules))


# --------------------------------------------------------------------------- games


@app.command("games")
@friendly
def games_command(as_json: bool = typer.Option(False, "--json", help="machine-readable")) -> None:
    """List the games, their presets, house rules and bots."""
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
        players = game["players"]
        console.print(f"[bold]{game['name']}[/] — {game['title']}, "
                      f"{players['min']}–{players['max']} players: {game['summary']}")
        for preset in game["presets"]:
            console.print(f"  preset [cyan]{preset['name']}[/]: {preset['help']}")
        table = RichTable(show_header=True, header_style="bold", box=None, padding=(0, 2))
        table.add_column("  rule")
        table.add_column("default")
        table.add_column("what it does")
        for spec in game["rules"]:
            limits = ""
            if spec["choices"]:
                limits = f" ({' | '.join(map(str, spec['choices']))})"
            elif spec["min"] is not None:
                limits = f" ({spec['min']}–{spec['max']})"
            table.add_row(f"  {spec['name']}", str(spec["default"]), spec["help"] + limits)
        console.print(table)
        console.print("  bots: " + ", ".join(b["name"] for b in game["bots"]))
        console.print()


# --------------------------------------------------------------------------- play


class TerminalPlayer(Player):
    """A person at the keyboard, seeing only their own seat's view."""

    def __init__(self, table: Table, seat: int, hot_seat: bool) -> None:
        self.table, self.game, self.seat = table, table.game, seat
        self.names, self.hot_seat = table.seats, hot_seat

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        name = self.names[self.seat]
        if self.hot_seat:
            console.rule()
            typer.prompt(f"Pass the dice to {name} and press Enter", default="",
                         show_default=False, prompt_suffix=" ")
            console.clear()
        console.rule(f"{name}'s turn")
        console.print(self.game.render(view, self.names), highlight=False)
        options = [str(a) for a in legal]
        shown = options if len(options) <= 12 else [*options[:10], "…", options[-1]]
        console.print(f"[dim]legal: {', '.join(shown)}   (? lists all, quit stops)[/]",
                      highlight=False)
        while True:
            text = typer.prompt(f"{name}")
            if text.strip() == "?":
                console.print(", ".join(options), highlight=False)
                continue
            if text.strip().lower() in {"quit", "exit"}:
                raise typer.Exit(1)
            try:
                action = self.game.parse_action(text)
            except IllegalAction as exc:
                console.print(f"[red]{self._unreadable(text, exc)}[/]", highlight=False)
                continue
            if action in legal:
                return action
            console.print(f"[red]{self._why_not(action)}[/]", highlight=False)

    def _unreadable(self, text: str, error: IllegalAction) -> str:
        """The state may explain unreadable text better (what would be legal instead)."""
        try:
            self.table.state.apply(text)
        except IllegalAction as exc:
            return str(exc)
        return str(error)

    def _why_not(self, action: Action) -> str:
        """Ask the rules why: applying to the real state explains best (and changes nothing)."""
        try:
            self.table.state.apply(action)
        except IllegalAction as exc:
            return str(exc)
        return f"'{action}' is not possible now"


def pick(question: str, options: Sequence[str], default: str) -> str:
    console.print(f"{question}: " + ", ".join(f"[cyan]{o}[/]" for o in options))
    while True:
        answer = typer.prompt(question, default=default).strip()
        if answer in options:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        console.print(f"[red]choose one of: {', '.join(options)}[/]")


@app.command("play")
@friendly
def play_command(
    game_name: str = typer.Argument(None, metavar="[GAME]", help="game to play (asks if left out)"),
    preset: str = typer.Option(None, "--preset", help="a named rule set"),
    rule: list[str] = typer.Option([], "--rule", help="house rule as name=value (repeatable)"),
    players: str = typer.Option(None, "--players",
                                help='who sits where, e.g. "Anna,bot,bot:random"'),
    seed: int = typer.Option(None, "--seed", help="reproducible dice (default: secure dice)"),
    log: Path = typer.Option(None, "--log", help="write the game's log to this file"),
) -> None:
    """Play in the terminal: hot seat for people, bots in the other seats."""
    games = registered()
    if game_name is None:
        game_name = pick("Game", sorted(games), "mia")
        presets = list(games[game_name].rules_class.PRESETS)
        if presets and preset is None:
            preset = pick("Preset", presets, presets[0])
        if players is None:
            default = ",".join(["You"] + ["bot"] * (games[game_name].default_players - 1))
            players = typer.prompt("Players (names, or bot / bot:NAME)", default=default)
    if game_name not in games:
        raise RuleError(f"unknown game '{game_name}' (games: {', '.join(sorted(games))})")
    cls = games[game_name]
    if players is None:
        players = ",".join(["You"] + ["bot"] * (cls.default_players - 1))
    seats = parse_seats(players, game_name)
    game = make_game(game_name, preset, rule, len(seats))
    names = seat_names(seats)
    dice: DiceSource = SecureDice() if seed is None else SeededDice(seed)
    table = Table(game, seats=names, dice=dice)
    humans = sum(1 for s in seats if s.bot is None)
    actors: list[Player] = []
    for i, seat in enumerate(seats):
        if seat.bot is None:
            actors.append(TerminalPlayer(table, i, hot_seat=humans > 1))
        else:
            actors.append(make_bot(game, seat.bot))

    def narrate(seat: int, action: Action) -> None:
        if seats[seat].bot is not None:
            console.print(f"[dim]{names[seat]}:[/] {action}", highlight=False)

    rng = random.Random(seed)
    try:
        outcome = play_out(table, actors, rng, on_action=narrate)
    finally:
        if log is not None:
            log.write_text(table.dumps(), encoding="utf-8")
    console.rule("Game over")
    console.print(game.render(table.state.view(None), names), highlight=False)
    for place, group in enumerate(outcome.ranking, start=1):
        console.print(f"{place}. " + ", ".join(names[s] for s in group), highlight=False)


# --------------------------------------------------------------------------- simulate


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
    for number in range(games):
        shift = number % n
        order = [(i + shift) % n for i in range(n)]  # seat s is played by entry order[s]
        table = Table(game, seats=[seats[e].label for e in order],
                      dice=SeededDice(seed * 1_000_003 + number))
        actors = [make_bot(game, seats[e].bot or "random") for e in order]
        outcome = play_out(table, actors, random.Random(seed * 7_919 + number))
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


@app.command("simulate")
@friendly
def simulate_command(
    game_name: str = typer.Argument(..., metavar="GAME"),
    players: str = typer.Option(..., "--players", help='bots, e.g. "bot:sensible,bot:random"'),
    games: int = typer.Option(1000, "--games", min=1, help="how many games"),
    seed: int = typer.Option(0, "--seed"),
    preset: str = typer.Option(None, "--preset"),
    rule: list[str] = typer.Option([], "--rule", help="house rule as name=value"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Bots against bots: win rates and mean winnings with 95% confidence intervals."""
    seats = parse_seats(players, game_name)
    people = [s.label for s in seats if s.bot is None]
    if people:
        raise RuleError(f"simulate plays bots only; '{people[0]}' is not 'bot:NAME'")
    game = make_game(game_name, preset, rule, len(seats))
    with Progress(console=errors, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("playing", total=games)
        rows = simulate(game, seats, games, seed, progress=lambda: bar.advance(task))
    if as_json:
        console.print_json(json.dumps({"game": game_name, "preset": preset,
                                       "rules": game.rules.changed(), "results": rows}))
        return
    table = RichTable(title=f"{games} games of {game.title}")
    for column in ("player", "win rate", "95% interval", "mean payoff", "95% interval ",
                   "mean score", "95% interval  "):
        table.add_column(column)
    for row in rows:
        low, high = row["win_rate_ci95"]
        mlow, mhigh = row["mean_payoff_ci95"]
        slow, shigh = row["mean_score_ci95"]
        table.add_row(row["player"], f"{row['win_rate']:.1%}", f"{low:.1%} – {high:.1%}",
                      f"{row['mean_payoff']:+.3f}", f"{mlow:+.3f} – {mhigh:+.3f}",
                      f"{row['mean_score']:.2f}", f"{slow:.2f} – {shigh:.2f}")
    console.print(table)
    console.print(f"An even share is {1 / len(seats):.1%}.")


# --------------------------------------------------------------------------- logs


def read_log(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LogError(f"{path} is not a text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise LogError(f"{path} is not a kastkopp log")
    return data


@app.command("replay")
@friendly
def replay_command(log: Path = typer.Argument(..., metavar="LOG.json"),
                   as_json: bool = typer.Option(False, "--json")) -> None:
    """Replay a log: the final position and outcome, or the first illegal event and why."""
    table = Table.from_json(read_log(log))
    state = table.state
    if as_json:
        data: dict[str, Any] = {"events": len(table.events), "over": table.is_over(),
                                "view": state.view(None)}
        if table.is_over():
            data["outcome"] = table.outcome().to_json()
        if table.forfeited is not None:
            data["forfeited"] = table.forfeited
        console.print_json(json.dumps(data, ensure_ascii=False))
        return
    console.print(f"{table.game.title}: {len(table.events)} events replayed.")
    console.print(table.game.render(state.view(None), table.seats), highlight=False)
    if table.forfeited is not None:
        console.print(f"{table.seats[table.forfeited]} lost by forfeit.", highlight=False)
    if table.is_over():
        for place, group in enumerate(table.outcome().ranking, start=1):
            console.print(f"{place}. " + ", ".join(table.seats[s] for s in group),
                          highlight=False)
    else:
        to_move = state.to_move()
        console.print("The game is not over" + (f"; {table.seats[to_move]} is to move."
                                                 if to_move is not None else "."))


@app.command("verify")
@friendly
def verify_command(log: Path = typer.Argument(..., metavar="LOG.json")) -> None:
    """Check every roll in a log against its revealed dice seed."""
    data = read_log(log)
    problems = verify_log(data)
    if problems:
        for problem in problems:
            errors.print(f"[bold red]not verified:[/] {problem}", highlight=False)
        raise typer.Exit(1)
    rolls = sum(1 for e in data["events"] if e.get("type") == "roll")
    source = data["dice"]
    console.print(f"All {rolls} rolls match the {source['source']} dice"
                  + (f" (seed hash {source['server_seed_sha256'][:16]}…)"
                     if "server_seed_sha256" in source else "") + ".")


# --------------------------------------------------------------------------- odds


def _format_cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1%}" if 0.0 <= value <= 1.0 else f"{value:.4f}"
    return str(value)


@app.command("odds")
@friendly
def odds_command(
    game_name: str = typer.Argument(..., metavar="GAME"),
    given: list[str] = typer.Argument(None, metavar="[NAME=VALUE]...",
                                      help="what is known, e.g. linka=6,3 open=2"),
    preset: str = typer.Option(None, "--preset"),
    rule: list[str] = typer.Option([], "--rule", help="house rule as name=value"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Odds computed from the rules (for Slosch: the chance a fresh roll beats each value)."""
    cls = registered().get(game_name)
    players = cls.default_players if cls is not None else 2
    game = make_game(game_name, preset, rule, players)
    rows = game.odds(**parse_rules(given or []))
    if as_json:
        console.print_json(json.dumps(rows, ensure_ascii=False))
        return
    table = RichTable(title=f"Odds — {game.title}")
    columns = list(rows[0]) if rows else []
    for column in columns:
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(*(_format_cell(row[c]) for c in columns))
    console.print(table)


# --------------------------------------------------------------------------- the server


@app.command("serve")
@friendly
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", min=1, max=65535),
    db: str = typer.Option(None, "--db", help="SQLite file or database URL "
                           "(postgresql+psycopg://...); default: the user data directory"),
    redis: str = typer.Option(None, "--redis", help="Redis URL, for several server "
                              "processes on one PostgreSQL database"),
    bot_delay: float = typer.Option(0.0, "--bot-delay", min=0.0, max=10.0,
                                    help="seconds a bot waits before it moves"),
    maexchen: bool = typer.Option(False, "--maexchen",
                                  help="also run a Mäxchen bot-competition server (UDP)"),
    maexchen_port: int = typer.Option(9000, "--maexchen-port", min=1, max=65535),
    answer_timeout_ms: int = typer.Option(250, "--answer-timeout-ms", min=1,
                                          help="how long a Mäxchen bot may take to answer"),
    guest_limit: str = typer.Option(None, "--guest-limit", help="guests one address (and "
                                    "everybody) may make, e.g. 100/minute"),
    workers: int = typer.Option(1, "--workers", min=1, max=16,
                                help="worker processes for solves (bots' tables, hints)"),
    warm_up: bool = typer.Option(True, "--warm-up/--no-warm-up", help="solve the standard "
                                 "presets' tables in the background at start"),
) -> None:
    """Run the game server: online tables, accounts, bots and provably fair dice."""
    try:
        from kastkopp.server import serve
    except ImportError as exc:
        raise KastkoppError(f"the server needs its extras: pip install 'kastkopp[server]' "
                            f"({exc.name} is missing)") from None
    from kastkopp.server.limits import RateLimits
    from kastkopp.store import default_url

    if guest_limit is not None:
        try:
            RateLimits(guest_per_address=guest_limit)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--guest-limit") from None
    console.print(f"kastkopp server on http://{host}:{port} · database {db or default_url()}")
    if maexchen:
        console.print(f"Mäxchen server on udp://{host}:{maexchen_port}")
    serve(host=host, port=port, db=db, redis_url=redis, bot_delay=bot_delay,
          maexchen_port=maexchen_port if maexchen else None,
          maexchen_timeout=answer_timeout_ms / 1000, guest_limit=guest_limit,
          workers=workers, warm_up=warm_up)


register_solvers(app)

# --------------------------------------------------------------------------- Mäxchen

bot_app = typer.Typer(no_args_is_help=True, help="Let kastkopp's bots play elsewhere.")
bot_app.command("maexchen")(friendly(interop_commands.bot_maexchen))
app.add_typer(bot_app, name="bot")
app.command("maexchen-server")(friendly(interop_commands.maexchen_server))

# The match formats (match, chouette, knockout) and Yatzy's ``score`` (checking a row of a
# paper sheet) register their commands on ``app``.
from kastkopp import cli_matches, cli_yatzy  # noqa: E402, F401


def main() -> None:
    app()


if __name__ == "__main__":
    main()

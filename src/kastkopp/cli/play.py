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

from kastkopp.cli_support import (
    clear_for_hand_over,
    confirm,
    console,
    errors,
    escape,
    friendly,
    language,
    parse_rules,
    pick_language,
    rich_table,
    say,
    set_language,
    tell,
)
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
    check_log,
    load,
    play_out,
    registered,
)
from kastkopp.interop import commands as interop_commands
from kastkopp.locale import minus
from kastkopp.sheets.cli import sheet_app
from kastkopp.strategy import bot_help, bot_names, make_bot
from kastkopp.strategy.cli import register as register_solvers

# Plain help (no rich panels): it starts faster and shows no Python type labels; options
# name what they take with their own metavars.
app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]})
app.add_typer(sheet_app, name="sheet")


def _version(value: bool) -> None:
    if value:
        from kastkopp import __version__

        console.print(f"kastkopp {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
@friendly
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print kastkopp's version and exit."),
          lang: str = typer.Option(None, "--lang", metavar="LANG",
                                   help="sv, da or en: the language of prompts, tables and "
                                   "errors (default: the locale, LC_ALL or LANG)")) -> None:
    """kastkopp — the Scandinavian dice games: play them in the terminal, keep score of
    games played with real dice, and ask for odds, solutions and advice.

    Every command has its own --help. Shell completion: kastkopp --install-completion
    (bash, zsh, fish or PowerShell), then open a new shell.
    """
    set_language(pick_language(lang))



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
                raise RuleError("no bot '{name}' for {game} (bots: {bots})", name=name,
                                game=game_name, bots=", ".join(names))
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
    seats = [Seat.parse(part, game_name) for part in spec.split(",")]
    people = [s.label.casefold() for s in seats if s.bot is None]
    twice = next((s.label for s in seats if s.bot is None
                  and people.count(s.label.casefold()) > 1), None)
    if twice is not None:
        raise RuleError("two players are called '{name}': give each person a name of "
                        "their own", name=twice)
    return seats


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
def games_command(as_json: bool = typer.Option(False, "--json",
                                               help="print JSON for programs")) -> None:
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


def board(game: Game, view: dict[str, Any], names: Sequence[str]) -> str:
    """A view as the game draws it, in the player's language when it is not English."""
    lang = language()
    return game.render(view if lang == "en" else {**view, "lang": lang}, names)


def public_text(action: Action, table: Table, seat: int) -> str:
    """How ``seat``'s action reads to the others: its public form, never hidden dice.

    An action that knows its public form says it; otherwise the table's public record
    (the public view's history, which the game words for every seat) does.
    """
    public = getattr(action, "public", None)
    if callable(public):
        return str(public())
    history = table.state.view(None).get("history") or []
    last = history[-1] if history else None
    if isinstance(last, dict) and last.get("seat") == seat:
        return str(last.get("action"))
    return str(action)


class Narrator:
    """Everything the whole table may know, told as it happens and kept for the hot seat.

    Each action is told in its public form; when a round ends, its result is told from the
    public view (who called, what the cups showed, who lost what). In the hot seat each
    person is told, after the hand-over clears the screen, what happened since their turn.
    """

    def __init__(self, table: Table, people: Sequence[int], hot_seat: bool) -> None:
        self.table, self.names, self.hot_seat = table, table.seats, hot_seat
        self.people = set(people)
        self.told: list[str] = []
        self.seen = {seat: 0 for seat in people}
        self.last_round = table.state.view(None).get("last_round")

    def __call__(self, seat: int, action: Action) -> None:
        if seat in self.people:
            self.seen[seat] = len(self.told)
        if seat not in self.people or self.hot_seat:
            text = public_text(action, self.table, seat)
            self.tell(f"[dim]{escape(self.names[seat])}:[/] {escape(text)}")
        view = self.table.state.view(None)
        last = view.get("last_round")
        if last is not None and last != self.last_round and not self.table.is_over():
            # the public board at a round's start opens with how the last round ended
            self.tell(escape(board(self.table.game, {**view, "history": []}, self.names)))
        self.last_round = last

    def tell(self, text: str) -> None:
        self.told.append(text)
        console.print(text, highlight=False)

    def catch_up(self, seat: int) -> None:
        """After a hand-over: what this person missed while the others played."""
        missed = self.told[self.seen.get(seat, 0):]
        if missed:
            console.print(say("Since your last turn:"), highlight=False)
            for text in missed:
                console.print(text, highlight=False)
        self.seen[seat] = len(self.told)


class TerminalPlayer(Player):
    """A person at the keyboard, seeing only their own seat's view."""

    def __init__(self, table: Table, seat: int, hot_seat: bool,
                 narrator: Narrator | None = None) -> None:
        self.table, self.game, self.seat = table, table.game, seat
        self.names, self.hot_seat = table.seats, hot_seat
        self.narrator = narrator

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        name = self.names[self.seat]
        if self.hot_seat:
            console.rule()
            typer.prompt(say("Pass the dice to {name} and press Enter", name=name), default="",
                         show_default=False, prompt_suffix=" ")
            clear_for_hand_over()
            if self.narrator is not None:
                self.narrator.catch_up(self.seat)
        console.rule(say("{name}'s turn", name=name))
        console.print(board(self.game, view, self.names), highlight=False)
        options = [str(a) for a in legal]
        shown = options if len(options) <= 12 else [*options[:10], "…", options[-1]]
        console.print("[dim]" + escape(say("legal: {actions}   (? lists all, quit stops)",
                                           actions=", ".join(shown))) + "[/]",
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
                console.print(f"[red]{escape(self._unreadable(text, exc))}[/]",
                              highlight=False)
                continue
            if action in legal:
                if self._confirmed(view, action):
                    return action
                continue
            console.print(f"[red]{escape(self._why_not(action))}[/]", highlight=False)

    def _confirmed(self, view: dict[str, Any], action: Action) -> bool:
        """Writing nothing in a row while another would score is asked about first.

        A view that offers ``options`` (what writing in each row gives now) and an action that
        names its ``row`` are all this needs to know of the game.
        """
        options = view.get("options")
        row = getattr(action, "row", None)
        if not isinstance(options, dict) or row not in options or options[row] not in (0, "-"):
            return True
        better = {r: v for r, v in options.items() if isinstance(v, int) and v > 0}
        if not better:
            return True
        best = sorted(better.items(), key=lambda item: -item[1])[:3]
        offer = ", ".join(f"{r} {v}" for r, v in best)
        return confirm(say("{action} scores {points} here (instead: {offer}). Write it?",
                           action=str(action), points=options[row], offer=offer))

    def _unreadable(self, text: str, error: IllegalAction) -> str:
        """The state may explain unreadable text better (what would be legal instead)."""
        try:
            self.table.state.apply(text)
        except IllegalAction as exc:
            return tell(exc)
        return tell(error)

    def _why_not(self, action: Action) -> str:
        """Ask the rules why: applying to the real state explains best (and changes nothing)."""
        try:
            self.table.state.apply(action)
        except IllegalAction as exc:
            return tell(exc)
        return say("'{action}' is not possible now", action=str(action))


def pick(question: str, options: Sequence[str], default: str) -> str:
    console.print(f"{question}: " + ", ".join(f"[cyan]{o}[/]" for o in options))
    while True:
        answer = typer.prompt(question, default=default).strip()
        if answer in options:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        console.print("[red]" + escape(say("choose one of: {options}",
                                           options=", ".join(options))) + "[/]")


@app.command("play")
@friendly
def play_command(
    game_name: str = typer.Argument(None, metavar="GAME", show_default=False,
                                    help="the game to play ('kastkopp games' lists them; "
                                    "asks if left out)"),
    preset: str = typer.Option(None, "--preset", metavar="NAME",
                               help="a named rule set, e.g. perudo ('kastkopp games' lists "
                               "each game's)"),
    rule: list[str] = typer.Option([], "--rule", metavar="NAME=VALUE",
                                   help="a house rule, e.g. lives=5 (repeatable)"),
    players: str = typer.Option(None, "--players", metavar="NAMES",
                                help='who sits where, in order: names for people, bot or '
                                'bot:NAME for bots, e.g. "Anna,bot,bot:random" (default: '
                                'You and bots)'),
    seed: int = typer.Option(None, "--seed", metavar="N",
                             help="reproducible dice, needed for 'kastkopp verify' to check "
                             "the log (default: secure dice)"),
    log: Path = typer.Option(None, "--log", metavar="FILE",
                             help="write the game's log to FILE (to replay or verify)"),
) -> None:
    """Play in the terminal: hot seat for people, bots in the other seats.

    At your turn type an action as the legal list shows it (e.g. "bid 3x5", "dudo"), "?"
    for every legal action, or "quit" to stop. With several people at the keyboard the
    screen is cleared between turns, and each is told what happened since their last one.
    """
    games = registered()
    if game_name is None:
        game_name = pick(say("Game"), sorted(games), "mia")
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
    preset: str = typer.Option(None, "--preset", metavar="NAME", help="a named rule set"),
    rule: list[str] = typer.Option([], "--rule", metavar="NAME=VALUE",
                                   help="a house rule (repeatable)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON for programs"),
) -> None:
    """Bots against bots: win rates and mean winnings with 95% confidence intervals."""
    seats = parse_seats(players, game_name)
    people = [s.label for s in seats if s.bot is None]
    if people:
        raise RuleError("simulate plays bots only; '{name}' is not 'bot:NAME'", name=people[0])
    game = make_game(game_name, preset, rule, len(seats))
    from rich.progress import Progress

    with Progress(console=errors, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("playing", total=games)
        rows = simulate(game, seats, games, seed, progress=lambda: bar.advance(task))
    if as_json:
        console.print_json(json.dumps({"game": game_name, "preset": preset,
                                       "rules": game.rules.changed(), "results": rows}))
        return
    title = say(game.title)
    played = (say("1 game of {game}", game=title) if games == 1
              else say("{count} games of {game}", count=games, game=title))
    console.print(played, style="bold",
                  highlight=False)
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


# --------------------------------------------------------------------------- logs


def error_json(error: KastkoppError | OSError) -> dict[str, Any]:
    """An error for programs that asked for JSON: its text, and its template to translate."""
    if isinstance(error, KastkoppError):
        from kastkopp.locale.messages import error_json as message_json

        return message_json(error)
    return {"error": f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")}


def read_log(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LogError("{path} is not a text file", path=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError("{path} is not valid JSON (line {line}: {problem})", path=str(path),
                       line=exc.lineno, problem=exc.msg) from None
    if not isinstance(data, dict):
        raise LogError("{path} is not a kastkopp log", path=str(path))
    return data


@app.command("replay")
@friendly
def replay_command(log: Path = typer.Argument(..., metavar="LOG.json",
                                             help="a game's log (play --log writes one)"),
                   as_json: bool = typer.Option(False, "--json",
                                                help="print JSON for programs")) -> None:
    """Replay a log: the final position and outcome, or the first illegal event and why."""
    try:
        table = Table.from_json(read_log(log))
    except (KastkoppError, OSError) as exc:
        if not as_json:
            raise
        console.print_json(json.dumps(error_json(exc), ensure_ascii=False))
        raise typer.Exit(2) from None
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
    count = len(table.events)
    replayed = (say("{game}: 1 event replayed.", game=say(table.game.title)) if count == 1
                else say("{game}: {count} events replayed.", game=say(table.game.title),
                         count=count))
    console.print(replayed, highlight=False)
    console.print(board(table.game, state.view(None), table.seats), highlight=False)
    if table.forfeited is not None:
        console.print(say("{name} lost by forfeit.", name=table.seats[table.forfeited]),
                      highlight=False)
    if table.is_over():
        for place, group in enumerate(table.outcome().ranking, start=1):
            console.print(f"{place}. " + ", ".join(table.seats[s] for s in group),
                          highlight=False)
    else:
        to_move = state.to_move()
        console.print(say("The game is not over; {name} is to move.",
                          name=table.seats[to_move]) if to_move is not None
                      else say("The game is not over."), highlight=False)


@app.command("verify")
@friendly
def verify_command(log: Path = typer.Argument(..., metavar="LOG.json",
                                             help="a game's log (play --seed N --log FILE "
                                             "writes a checkable one)")) -> None:
    """Check a log's seeds and every roll, and that the log goes to the game's end.

    Exit code 0: verified and complete; 1: a seed or roll does not check out; 3: every
    roll checks out but the log stops before the game's end."""
    data = read_log(log)
    result = check_log(data)
    if result.problems:
        for problem in result.problems:
            label = escape(say("not verified:"))
            errors.print(f"[bold red]{label}[/] {escape(problem)}", highlight=False)
        if (data.get("dice") or {}).get("source") == "secure":
            errors.print(say("A terminal game can be checked when it is played with --seed N "
                             "(kastkopp play GAME --seed N --log FILE)."), highlight=False)
        raise typer.Exit(1)
    source = data["dice"]
    for c in result.contributions:
        console.print(say("Seat {seat} ({name}) contributed the seed {seed}.", seat=c.seat + 1,
                          name=escape(c.name), seed=escape(c.seed)), highlight=False)
    rolls = result.rolls
    matched = (say("The roll matches the {source} dice", source=source["source"]) if rolls == 1
               else say("All {count} rolls match the {source} dice", count=rolls,
                        source=source["source"]))
    matched += (f" (seed hash {source['server_seed_sha256'][:16]}…)"
                if "server_seed_sha256" in source else "")
    if not result.complete:
        label = escape(say("incomplete:"))
        errors.print(f"[bold yellow]{label}[/] " + say(
            "{matched}, but {why}; this is not a whole game.", matched=matched,
            why=result.unfinished), highlight=False)
        raise typer.Exit(3)
    console.print(say("Verified: {matched}, and the log goes to the game's end.",
                      matched=matched), highlight=False)


# --------------------------------------------------------------------------- odds


def _format_cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1%}" if 0.0 <= value <= 1.0 else f"{value:.4f}"
    return str(value)


@app.command("odds")
@friendly
def odds_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="the game"),
    given: list[str] = typer.Argument(None, metavar="NAME=VALUE", show_default=False,
                                      help="what is known, e.g. linka=6,3 open=2; a house "
                                      "rule may be given here too, e.g. order=classic"),
    preset: str = typer.Option(None, "--preset", metavar="NAME", help="a named rule set"),
    rule: list[str] = typer.Option([], "--rule", metavar="NAME=VALUE",
                                   help="a house rule (repeatable)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON for programs"),
) -> None:
    """Odds computed from the rules (for Slosch: the chance a fresh roll beats each value)."""
    cls = registered().get(game_name)
    players = cls.default_players if cls is not None else 2
    known = parse_rules(given or [])
    house = {spec.name for spec in cls.rules_class.specs()} if cls is not None else set()
    rules = {**{k: v for k, v in known.items() if k in house}, **parse_rules(rule)}
    game = load(game_name, preset=preset, players=players, **rules)
    rows = game.odds(**{k: v for k, v in known.items() if k not in house})
    if as_json:
        console.print_json(json.dumps(rows, ensure_ascii=False))
        return
    console.print(f"Odds — {game.title}", style="bold", highlight=False)
    table = rich_table()
    columns = list(rows[0]) if rows else []
    for column in columns:
        numeric = all(isinstance(row[column], int | float)
                      or str(row[column]).replace("/", "").isdigit() or row[column] == ""
                      for row in rows)
        table.add_column(column, justify="right" if numeric else "left")
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

bot_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                      help="Let kastkopp's bots play elsewhere.")
bot_app.command("maexchen")(friendly(interop_commands.bot_maexchen))
app.add_typer(bot_app, name="bot")
app.command("maexchen-server")(friendly(interop_commands.maexchen_server))

# The match formats (match, chouette, knockout) and Yatzy's ``score`` (checking a row of a
# paper sheet) register their commands on ``app``.
from kastkopp import cli_matches, cli_review, cli_yatzy  # noqa: E402, F401


def main() -> None:
    app()


if __name__ == "__main__":
    main()

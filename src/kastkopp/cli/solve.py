"""``kastkopp solve`` and ``kastkopp advise``: the solvers and the advisor on the command line.

The commands take their rules the way the rest of the command line does (``--preset``,
``--rule name=value``) and print a table, or JSON with ``--json``. Anything slow shows a
progress bar on the terminal (never in the JSON on standard output).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.support import console, errors, friendly, parse_rules, rich_table, say

solve_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, add_completion=False,
                        help="Solve a game: its value and how to play it.")
advise_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, add_completion=False,
                         help="What to do now, in numbers, from a solved table.")


def _rules(rule_class: Any, preset: str | None, pairs: list[str] | None) -> Any:
    return rule_class.make(preset, **parse_rules(pairs))


@contextmanager
def _progress(label: str, total: float) -> Iterator[Callable[[float], None]]:
    """A progress bar on the terminal; yields ``update(done)``."""
    from rich.progress import Progress

    with Progress(console=errors, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def _print_json(data: Any) -> None:
    console.print_json(json.dumps(data, ensure_ascii=False))


def _percent(p: Any) -> str:
    return "" if p is None else f"{p:.1%}"


# --------------------------------------------------------------------------- Slosch


@solve_app.command("mia")
@friendly
def solve_mia(
    preset: Preset = None,
    rule: HouseRules = None,
    passes: int = typer.Option(1, "--passes", min=0, max=5,
                               help="how often one claim may be passed on in a row (the "
                               "rules: once)"),
    target: float = typer.Option(1e-4, "--target", min=1e-9, max=0.1,
                                 help="exploitability to reach in every subgame, in lives"),
    as_json: AsJson = False,
) -> None:
    """Heads-up Slosch: the equilibrium of one exchange (announce, believe, call, pass)."""
    from kastkopp.games.mia import MiaRules
    from kastkopp.strategy.mia_equilibrium import solve

    rules = _rules(MiaRules, preset, rule)
    with _progress(say("solving"), len(rules.values)) as update:
        eq = solve(rules, passes=passes, target=target,
                   progress=lambda done, total: update(done))
    data = eq.to_json()
    if as_json:
        _print_json(data)
        return
    console.print(say("First player's value: {value} lives per exchange (exploitability "
                      "{gap}, {seconds} s)", value=f"[bold]{eq.value:+.4f}[/]",
                      gap=f"{eq.exploitability:.1e}", seconds=f"{eq.seconds:.1f}"))
    console.print(say("The opening announcement, and how it is answered"), style="bold")
    legend = mia_legend()
    table = rich_table()
    for column, _ in legend:
        table.add_column(column, justify="right")
    for row in data["opening"]:
        table.add_row(row["value"], *(_percent(row.get(c)) for c in
                                      ("truth", "bluff", "claimed", "true", "call", "roll",
                                       "pass")))
    console.print(table)
    told = rich_table(show_header=False, box=None, padding=(0, 2, 0, 0))
    told.add_column(no_wrap=True)
    told.add_column()  # a long meaning wraps under itself, within 80 columns
    for column, meaning in legend:
        told.add_row(column, meaning)
    console.print(told, highlight=False)


def mia_legend() -> list[tuple[str, str]]:
    """The columns of ``solve mia``, each with what it means, in the player's language."""
    return [
        (say("value"), say("what the first roller has in the cup, worst first")),
        (say("truth"), say("how often the roller announces exactly that value")),
        (say("bluff"), say("how often the roller announces more than that value")),
        (say("claimed"), say("how often the roller announces that value at all, whatever "
                             "the cup shows")),
        (say("true"), say("of those announcements, how often the cup holds at least that "
                          "value")),
        (say("call"), say("how often the other player lifts the cup on that announcement")),
        (say("roll"), say("how often the other player believes it and rolls on")),
        (say("pass"), say("how often the other player believes it and passes the cup on "
                          "unseen")),
    ]


# --------------------------------------------------------------------------- Linka


@solve_app.command("linka")
@friendly
def solve_linka(
    preset: Preset = None,
    rule: list[str] = typer.Option([], "--rule", metavar="NAME=VALUE",
                                   help="a house rule (repeatable; Tärningsspel's example "
                                   "plays ante=5)"),
    fresh: bool = typer.Option(False, "--fresh", help="solve again even if cached"),
    as_json: AsJson = False,
) -> None:
    """Heads-up Linka: the betting equilibrium of one pot, exactly (a linear programme for
    every deal)."""
    from kastkopp.games.linka import LinkaRules
    from kastkopp.strategy.linka_equilibrium import cached_solve

    rules = _rules(LinkaRules, preset, rule)
    with _progress(say("solving"), 1) as update:
        eq = cached_solve(rules, progress=lambda done, total: update(done / total),
                          fresh=fresh)
    data = eq.to_json()
    if as_json:
        _print_json(data)
        return
    source = (say("from the cache") if eq.cached
              else say("solved in {seconds} s", seconds=f"{eq.seconds:.0f}"))
    console.print(say("First bettor's value: {value} koppar per pot (exploitability {gap}, "
                      "{source})", value=f"[bold]{eq.value:+.4f}[/]",
                      gap=f"{eq.exploitability:.1e}", source=source), highlight=False)
    table = rich_table(title=say("How each hand is bet, over every deal"))
    table.add_column(say("situation"))
    table.add_column(say("hand"))
    for column in (say("check"), say("call"), say("raise"), say("mean raise"), say("fold")):
        table.add_column(column, justify="right")
    for row in data["hands"]:
        raised = row.get("mean_raise")
        table.add_row(row["situation"], row["hand"],
                      *(_percent(row.get(c)) for c in ("check", "call", "raise")),
                      "" if raised is None else f"{raised:.1f}", _percent(row.get("fold")))
    console.print(table)


# --------------------------------------------------------------------------- Knack


@solve_app.command("knack")
@friendly
def solve_knack(
    preset: Preset = None,
    rule: HouseRules = None,
    versus: str = typer.Option(None, "--versus", help="also play the equilibrium bot off "
                               "against this bot, exactly (every position, no sampling)"),
    as_json: AsJson = False,
) -> None:
    """Heads-up Knack: every position's value and best move, by backward induction."""
    from kastkopp.engine import RuleError
    from kastkopp.games import load
    from kastkopp.games.knack import KnackRules
    from kastkopp.strategy import make_bot
    from kastkopp.strategy.knack_equilibrium import match_value, solve

    rules = _rules(KnackRules, preset, rule)
    with _progress(say("solving"), 1):
        solution = solve(rules)
    data = solution.to_json()
    if versus is not None:
        if versus == "random":
            raise RuleError("the play-off asks each bot once per position, so it needs a "
                            "bot that chooses without chance (not random)")
        game = load("knack", players=2, **rules.changed())
        mine, theirs = make_bot(game, "equilibrium"), make_bot(game, versus)
        with _progress(say("playing off against {bot}", bot=versus), 1):
            first = match_value(rules, (mine, theirs))
            second = -match_value(rules, (theirs, mine))
        data["versus"] = {"bot": versus, "as_seat_0": first, "as_seat_1": second,
                          "mean": (first + second) / 2}
    if as_json:
        _print_json(data)
        return
    console.print(say("Seat 0's value: {value} koppar per pot (residual {residual} after "
                      "{iterations} throws iterated, {seconds} s)",
                      value=f"[bold]{solution.first_value:+.6f}[/]",
                      residual=f"{solution.residual:.1e}", iterations=solution.iterations,
                      seconds=f"{solution.seconds:.1f}"), highlight=False)
    console.print(say("Double knock: never ask for one; always grant it (asking costs the "
                      "loser {cost} × the stake).",
                      cost=f"{data['double_knock']['asking_costs_per_stake']:.3f}"))
    table = rich_table(title=say("Raises at the ante (the worst placed bets; the rest knock)"))
    for column in (say("seat 0 kept"), say("seat 1 kept"), say("bettor"), say("raise"),
                   say("seat 0's value")):
        table.add_column(column)
    for row in data["positions"]:
        if row["raise"]:
            table.add_row(" ".join(map(str, row["seat0"])) or "-",
                          " ".join(map(str, row["seat1"])) or "-", str(row["bettor"]),
                          str(row["raise"]), f"{row['value']:+.4f}")
    console.print(table)
    if "versus" in data:
        v = data["versus"]
        console.print(say("The equilibrium bot against {bot}: {first} koppar per pot as seat "
                          "0, {second} as seat 1 (exactly)", bot=v["bot"],
                          first=f"{v['as_seat_0']:+.6f}", second=f"{v['as_seat_1']:+.6f}"),
                      highlight=False)


# --------------------------------------------------------------------------- Yatzy


@solve_app.command("yatzy")
@friendly
def solve_yatzy(
    preset: str = typer.Option(None, "--preset", metavar="NAME",
                               help="yatzy, yahtzee, tarningspoker, ..."),
    rule: HouseRules = None,
    fresh: bool = typer.Option(False, "--fresh", help="solve again even if cached"),
    as_json: AsJson = False,
) -> None:
    """Optimal solitaire Yatzy: the highest expected score under a rule set."""
    from kastkopp.games.yatzy import YatzyRules
    from kastkopp.strategy.yatzy_solver import cache_dir, cache_key, solve

    rules = _rules(YatzyRules, preset, rule)
    with _progress(say("solving"), 1) as update:
        def progress(done: int, total: int) -> None:
            update(done / total)

        table = solve(rules, progress=progress, cache=not fresh)
    path = cache_dir() / f"yatzy-{cache_key(rules)}.npz"
    data = {"game": "yatzy", "preset": preset, "rules": rules.changed(),
            "expected_score": round(table.expected_score, 6), "seconds": table.seconds,
            "cached": table.from_cache, "cache": str(path)}
    if as_json:
        _print_json(data)
        return
    seconds = f"{table.seconds:.2f}"
    source = (say("from the cache in {seconds} s", seconds=seconds) if table.from_cache
              else say("solved in {seconds} s", seconds=seconds))
    console.print(say("Expected score with optimal play: {score} ({source})",
                      score=f"[bold]{table.expected_score:.6f}[/]", source=source),
                  highlight=False)


def _read_dice(text: str) -> tuple[int, ...]:
    from kastkopp.engine import IllegalAction

    digits = [c for c in text if not c.isspace() and c not in ",;"]
    if not all(c.isdigit() for c in digits):
        raise IllegalAction("the dice must be five values 1 to 6, not '{text}'",
                            text=text.strip())
    return tuple(int(c) for c in digits)


@advise_app.command("yatzy")
@friendly
def advise_yatzy(
    dice: str = typer.Option(..., "--dice", help="the dice in hand, e.g. '3 3 5 5 1'"),
    rerolls: int = typer.Option(..., "--rerolls", help="rerolls left this turn (2 after "
                                "the first throw)"),
    used: str = typer.Option("", "--used", help="rows already written, e.g. ones,pair"),
    upper: int = typer.Option(0, "--upper", help="the upper-part sum so far"),
    yatzy_zero: bool = typer.Option(False, "--yatzy-zero",
                                    help="the Yatzy row was crossed out (holds 0)"),
    score: float = typer.Option(0.0, "--score", help="points already on the sheet"),
    against: str = typer.Option(None, "--against", metavar="SHEET",
                                help="the opponent's sheet, e.g. 'used=ones,pair upper=3 "
                                "score=40' (add yatzy-zero if their Yatzy row holds 0): "
                                "rank by the chance of finishing ahead of them"),
    preset: Preset = None,
    rule: HouseRules = None,
    as_json: AsJson = False,
) -> None:
    """Every choice now with its expected final score, best first (from the solved table);
    with --against, by the chance of beating that sheet."""
    from kastkopp.games.yatzy import YatzyRules
    from kastkopp.strategy.yatzy_optimal import table_for

    rules = _rules(YatzyRules, preset, rule)
    rows = [r.strip() for r in used.split(",") if r.strip()]
    faces = _read_dice(dice)
    if against is not None:
        _advise_to_win(rules, preset, against, rows, upper, faces, rerolls, yatzy_zero, score,
                       as_json)
        return
    with _progress(say("solving the table (once)"), 1):
        table = table_for(rules)
    advice = table.advise(used=rows, upper=upper, dice=faces, rerolls=rerolls,
                          yatzy_zero=yatzy_zero, already=score)
    if as_json:
        _print_json({"game": "yatzy", "preset": preset, "rules": rules.changed(),
                     "choices": [c.to_json() for c in advice]})
        return
    best = advice[0].expected
    out = rich_table(title=say("Choices, best first (expected final score)"))
    out.add_column(say("choice"))
    out.add_column(say("expected"), justify="right")
    out.add_column(say("loss"), justify="right")
    for c in advice:
        out.add_row(c.choice, f"{c.expected:.3f}", f"{best - c.expected:.3f}")
    console.print(out)


def _read_sheet(text: str) -> dict[str, Any]:
    """``used=ones,pair upper=3 score=40 yatzy-zero`` as the advisor's sheet."""
    from kastkopp.engine import IllegalAction

    sheet: dict[str, Any] = {"used": [], "upper": 0, "total": 0, "yatzy_zero": False}
    for word in text.split():
        key, _, value = word.partition("=")
        if key == "used" and value:
            sheet["used"] = [r.strip() for r in value.split(",") if r.strip()]
        elif key in ("upper", "score") and value.lstrip("-").isdigit():
            sheet["upper" if key == "upper" else "total"] = int(value)
        elif word == "yatzy-zero":
            sheet["yatzy_zero"] = True
        else:
            raise IllegalAction("the opponent's sheet is words like '{example}', not '{word}'",
                                example="used=ones,pair upper=3 score=40", word=word)
    return sheet


def _advise_to_win(rules: Any, preset: str | None, against: str, rows: list[str],
                   upper: int, faces: tuple[int, ...], rerolls: int, yatzy_zero: bool,
                   score: float, as_json: bool) -> None:
    """``advise yatzy --against``: every choice by the chance of beating the sheet."""
    from kastkopp.strategy.yatzy_towin import advise, moments_for, outlook

    with _progress(say("solving the table (once)"), 1):
        table = moments_for(rules)
    them = outlook(table, **_read_sheet(against))
    advice = advise(table, them, used=rows, upper=upper, dice=faces, rerolls=rerolls,
                    yatzy_zero=yatzy_zero, already=score)
    spread = them.variance ** 0.5
    if as_json:
        _print_json({"game": "yatzy", "preset": preset, "rules": rules.changed(),
                     "against": {"expected": them.mean, "sd": spread},
                     "choices": [c.to_json() for c in advice]})
        return
    out = rich_table(title=say("Choices, most likely to win first (the opponent expects "
                               "{expected} ± {sd})", expected=f"{them.mean:.1f}",
                               sd=f"{spread:.1f}"))
    out.add_column(say("choice"))
    out.add_column(say("chance of winning"), justify="right")
    out.add_column(say("expected"), justify="right")
    out.add_column(say("spread"), justify="right")
    for c in advice:
        out.add_row(c.choice, _percent(c.win), f"{c.expected:.3f}", f"{c.sd:.1f}")
    console.print(out)


# --------------------------------------------------------------------------- liar's dice


@solve_app.command("liars_dice")
@friendly
def solve_liars(
    dice: int = typer.Option(1, "--dice", min=1, max=5, help="dice in each cup"),
    preset: str = typer.Option(None, "--preset", metavar="NAME",
                               help="kastkopp rules (default lognare)"),
    rule: HouseRules = None,
    openspiel: bool = typer.Option(False, "--openspiel", help="OpenSpiel's rules: the "
                                   "highest face wild, bids by count then face"),
    faces: int = typer.Option(6, "--faces", min=2, max=9, help="faces of a die (2 to 6 with "
                              "kastkopp's rules, to 9 with OpenSpiel's)"),
    target: float = typer.Option(1e-3, "--target", min=1e-7, max=0.5,
                                 help="exploitability to reach"),
    variant: str = typer.Option("cfr+", "--variant", help="cfr+ or dcfr"),
    max_memory: float = typer.Option(2.0, "--max-memory", min=0.001,
                                     help="GB the solver's tables may take"),
    as_json: AsJson = False,
) -> None:
    """One round of two-player liar's dice: its value and an equilibrium, by CFR."""
    from kastkopp.engine import RuleError
    from kastkopp.games.liars_dice import LiarsRules
    from kastkopp.strategy.liars_bidding import Bidding
    from kastkopp.strategy.liars_equilibrium import solve

    if variant not in ("cfr+", "dcfr"):
        raise RuleError("the variant is cfr+ or dcfr, not '{variant}'", variant=variant)
    if openspiel:
        if preset or rule:
            raise RuleError("--openspiel fixes the rules; leave out --preset and --rule")
        bidding = Bidding.openspiel(dice=dice, faces=faces)
    else:
        fewer = [f"faces={faces}"] if faces != 6 else []
        rules = _rules(LiarsRules, preset or "lognare", [*(rule or []), f"dice={dice}", *fewer])
        bidding = Bidding.from_rules(rules)
    with _progress(say("solving"), 1) as update:
        eq = solve(bidding, target=target, variant=variant, max_bytes=max_memory * 1e9,
                   progress=lambda i, gap: update(min(1.0, target / max(gap, 1e-12))))
    data = eq.to_json()
    if as_json:
        _print_json(data)
        return
    console.print(say("First bidder's value: {value} (exploitability {gap} after {iterations} "
                      "iterations, {seconds} s)", value=f"[bold]{eq.game_value:+.5f}[/]",
                      gap=f"{eq.exploitability:.1e}", iterations=eq.iterations,
                      seconds=f"{eq.seconds:.1f}"), highlight=False)
    out = rich_table(title=say("How the first bidder opens, by cup"))
    out.add_column(say("cup"))
    out.add_column(say("opening bids"))
    for row in data["opening"]:
        out.add_row(row["cup"], ", ".join(f"{b[4:]} {p:.0%}" for b, p in row["bids"].items()))
    console.print(out)

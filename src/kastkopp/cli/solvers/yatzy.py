"""``solve yatzy``, ``advise yatzy`` and ``score RULESET``: the Yatzy family's solver,
advisor and row checker on the command line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.score import score_app
from kastkopp.cli.solve import advise_app, percent, progress, rules_of, solve_app
from kastkopp.cli.support import console, friendly, language, parse_rules, printed, rich_table, say
from kastkopp.games.yatzy import TITLES, YatzyRules


@solve_app.command("yatzy")
@friendly
def solve_yatzy(
    preset: Preset = None,
    rule: HouseRules = None,
    fresh: bool = typer.Option(False, "--fresh", help="solve again even if cached"),
    as_json: AsJson = False,
) -> None:
    """Optimal solitaire Yatzy: the highest expected score under a rule set."""
    from kastkopp.games.yatzy import YatzyRules
    from kastkopp.strategy.yatzy_solver import cache_dir, cache_key, solve

    rules = rules_of(YatzyRules, preset, rule)
    with progress(say("solving"), 1) as update:
        def solved(done: int, total: int) -> None:
            update(done / total)

        table = solve(rules, progress=solved, cache=not fresh)
    path = cache_dir() / f"yatzy-{cache_key(rules)}.npz"
    data = {"game": "yatzy", "preset": preset, "rules": rules.changed(),
            "expected_score": round(table.expected_score, 6), "seconds": table.seconds,
            "cached": table.from_cache, "cache": str(path)}
    if printed(data, as_json):
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

    rules = rules_of(YatzyRules, preset, rule)
    rows = [r.strip() for r in used.split(",") if r.strip()]
    faces = _read_dice(dice)
    if against is not None:
        _advise_to_win(rules, preset, against, rows, upper, faces, rerolls, yatzy_zero, score,
                       as_json)
        return
    with progress(say("solving the table (once)"), 1):
        table = table_for(rules)
    advice = table.advise(used=rows, upper=upper, dice=faces, rerolls=rerolls,
                          yatzy_zero=yatzy_zero, already=score)
    if printed({"game": "yatzy", "preset": preset, "rules": rules.changed(),
                "choices": [c.to_json() for c in advice]}, as_json):
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
    from kastkopp.strategy.yatzy_towin import advise, distributions_for, outlook

    with progress(say("solving the table (once)"), 1):
        table = distributions_for(rules)
    them = outlook(table, **_read_sheet(against))
    advice = advise(table, them, used=rows, upper=upper, dice=faces, rerolls=rerolls,
                    yatzy_zero=yatzy_zero, already=score)
    spread = them.variance ** 0.5
    if printed({"game": "yatzy", "preset": preset, "rules": rules.changed(),
                "against": {"expected": them.mean, "sd": spread},
                "choices": [c.to_json() for c in advice]}, as_json):
        return
    out = rich_table(title=say("Choices, most likely to win first (the opponent expects "
                               "{expected} ± {sd})", expected=f"{them.mean:.1f}",
                               sd=f"{spread:.1f}"))
    out.add_column(say("choice"))
    out.add_column(say("chance of winning"), justify="right")
    out.add_column(say("expected"), justify="right")
    out.add_column(say("spread"), justify="right")
    for c in advice:
        out.add_row(c.choice, percent(c.win), f"{c.expected:.3f}", f"{c.sd:.1f}")
    console.print(out)


# --------------------------------------------------------------------------- score RULESET


def _score_command(ruleset: str) -> Callable[..., None]:
    """``score RULESET``: what a row of that rule set's sheet scores."""

    @friendly
    def score_row(
        row: str = typer.Argument(..., metavar="ROW", help="a row, e.g. pair, full-house, kåk"),
        dice: list[str] = typer.Argument(..., metavar="DICE", help="the dice, e.g. 3 3 5 5 5"),
        first_throw: bool = typer.Option(False, "--first-throw",
                                         help="the dice were the turn's first throw"),
        rule: HouseRules = None,
        as_json: AsJson = False,
    ) -> None:
        _print_score(ruleset, row, dice, first_throw, rule, as_json)

    return score_row


def _print_score(ruleset: str, row: str, dice: list[str], first_throw: bool,
                 rule: list[str] | None, as_json: bool) -> None:
    from kastkopp.games.yatzy import check_row

    rules = parse_rules(rule)
    if language() != "en" and not as_json:  # rows named as the player's sheets name them
        rules.setdefault("lang", language())
    entry = check_row(ruleset, row, " ".join(dice), first_throw, **rules)
    if printed(entry, as_json):
        return
    faces = " ".join(map(str, entry["dice"]))
    thrown = (say("{dice} on the first throw", dice=faces) if first_throw else faces)
    written = str(entry["written"])
    if written == "-":
        written = say("a dash (not made)")
    elif entry["written"] == 0 and not entry["made"]:
        written = say("0 (not made)")
    console.print(say("{title} · {row} with {dice}: {written}", title=say(entry["title"]),
                      row=entry["label"], dice=thrown, written=written), highlight=False)


for _ruleset in YatzyRules.PRESETS:
    score_app.command(_ruleset, help=f"What a row of a {TITLES[_ruleset]} sheet scores for "
                      "some dice.")(_score_command(_ruleset))

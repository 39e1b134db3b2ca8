"""``kastkopp score``: what a row of a Yatzy-family sheet scores, for checking a paper sheet.

    kastkopp score yatzy full-house 3 3 5 5 5
    kastkopp score terningspoker poker 66666 --first-throw
    kastkopp score yahtzee "full house" 22222 --json
"""

from __future__ import annotations

import json

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, HouseRules
from kastkopp.cli.support import console, friendly, language, parse_rules, say


@app.command("score")
@friendly
def score_command(
    ruleset: str = typer.Argument(..., metavar="RULESET",
                                  help="yatzy, maxi, yahtzee, tarningspoker or terningspoker"),
    row: str = typer.Argument(..., metavar="ROW", help="a row, e.g. pair, full-house, kåk"),
    dice: list[str] = typer.Argument(..., metavar="DICE", help="the dice, e.g. 3 3 5 5 5"),
    first_throw: bool = typer.Option(False, "--first-throw",
                                     help="the dice were the turn's first throw"),
    rule: HouseRules = None,
    as_json: AsJson = False,
) -> None:
    """What a row of a Yatzy-family sheet scores for some dice (to check a paper sheet)."""
    from kastkopp.games.yatzy import check_row

    rules = parse_rules(rule)
    if language() != "en" and not as_json:  # rows named as the player's sheets name them
        rules.setdefault("lang", language())
    entry = check_row(ruleset, row, " ".join(dice), first_throw, **rules)
    if as_json:
        console.print_json(json.dumps(entry, ensure_ascii=False))
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

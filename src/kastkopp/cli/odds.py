"""``kastkopp odds``: odds computed from a game's rules."""

from __future__ import annotations

import json
from typing import Any

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, Game, HouseRules, Preset
from kastkopp.cli.support import console, friendly, language, parse_rules, rich_table, say


def _format_cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1%}" if 0.0 <= value <= 1.0 else f"{value:.4f}"
    return known(str(value))


def heading(column: str) -> str:
    """A column of the odds (an English key of the JSON) as the player's language names it."""
    words = {"value": say("value"), "beaten": say("beaten"), "event": say("event"),
             "chance": say("chance"), "exact": say("exact"), "both": say("both"),
             "sum": say("sum"), "high": say("high"), "low": say("low"),
             "nothing": say("nothing"), "bid": say("bid"), "at_least": say("at least"),
             "exactly": say("exactly"), "class": say("class"), "row": say("row"),
             "one_throw": say("one throw"), "within_turn": say("within the turn"),
             "expected": say("expected"), "hand": say("hand"), "name": say("name"),
             "throws": say("throws"), "keep": say("keep"), "reroll": say("reroll")}
    return words.get(column, column.replace("_", " "))


def known(text: str) -> str:
    """A text of a game's odds (English data) in the player's language, where the catalogs
    hold it; names, dice and numbers are left as they are."""
    if language() == "en" or not text or not text[0].isalpha():
        return text
    from kastkopp.engine import Message
    from kastkopp.locale.messages import translate

    return translate(Message(text, {}), language())


@app.command("odds")
@friendly
def odds_command(
    game_name: Game,
    given: list[str] = typer.Argument(None, metavar="NAME=VALUE", show_default=False,
                                      help="what is known, e.g. linka=6,3 open=2; a house "
                                      "rule may be given here too, e.g. order=classic"),
    preset: Preset = None,
    rule: HouseRules = None,
    as_json: AsJson = False,
) -> None:
    """Odds computed from the rules (for Slosch: the chance a fresh roll beats each value)."""
    from kastkopp.games import load, registered
    from kastkopp.strategy.odds import odds_for

    cls = registered().get(game_name)
    players = cls.default_players if cls is not None else 2
    known = parse_rules(given or [])
    house = {spec.name for spec in cls.rules_class.specs()} if cls is not None else set()
    rules = {**{k: v for k, v in known.items() if k in house}, **parse_rules(rule)}
    if "lang" in house and language() != "en" and not as_json:  # a table in the language
        rules.setdefault("lang", language())
    game = load(game_name, preset=preset, players=players, **rules)
    rows = odds_for(game, **{k: v for k, v in known.items() if k not in house})
    if as_json:
        console.print_json(json.dumps(rows, ensure_ascii=False))
        return
    console.print(say("Odds — {game}", game=say(game.title)), style="bold", highlight=False)
    table = rich_table()
    columns = list(rows[0]) if rows else []
    for column in columns:
        numeric = all(isinstance(row[column], int | float)
                      or str(row[column]).replace("/", "").isdigit() or row[column] == ""
                      for row in rows)
        table.add_column(heading(column), justify="right" if numeric else "left")
    for row in rows:
        table.add_row(*(_format_cell(row[c]) for c in columns))
    console.print(table)



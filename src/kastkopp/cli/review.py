"""``kastkopp review LOG.json``: every decision of a finished game against the best choice.

    kastkopp review game.json
    kastkopp review game.json --seat 1
    kastkopp review game.json --json
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer

from kastkopp.cli.app import app
from kastkopp.cli.logs import read_log
from kastkopp.cli.options import AsJson, LogFile
from kastkopp.cli.support import console, friendly, rich_table, say

if TYPE_CHECKING:  # a review is loaded by the command that makes one, not by --help
    from kastkopp.strategy.review import Review


@app.command("review")
@friendly
def review_command(
    log: LogFile,
    seat: int | None = typer.Option(None, "--seat", metavar="N",
                                    help="only this seat (0 is the first)"),
    as_json: AsJson = False,
) -> None:
    """Review a finished game: each decision, the best choice, and what it cost."""
    from kastkopp.engine import RuleError
    from kastkopp.strategy.review import review

    result = review(read_log(log))
    if seat is not None and not 0 <= seat < len(result.names):
        raise RuleError("there is no seat {seat} (seats 0 to {last})", seat=seat,
                        last=len(result.names) - 1)
    if as_json:
        data = result.to_json()
        data.pop("events")
        if seat is not None:
            data["summaries"] = [s for s in data["summaries"] if s["seat"] == seat]
            data["moments"] = [m for m in data["moments"] if m["seat"] == seat]
        console.print_json(json.dumps(data, ensure_ascii=False))
        return
    _print(result, seat)


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def unit_word(unit: str) -> str:
    """The unit a review counts its costs in, in the player's language."""
    words = {"points": say("points"), "lives": say("lives"), "chips": say("chips"),
             "chance": say("chance")}
    return words.get(unit, unit)


def _print(result: Review, seat: int | None) -> None:
    console.print(say("{game} — cost in {unit}; best from {method}.", game=say(result.title),
                      unit=unit_word(result.unit), method=say(result.method)),
                  highlight=False)
    moments = rich_table(say("event"), say("seat"), say("situation"), say("made"), say("best"),
                         say("cost"), say("odds / luck"))
    for m in result.moments:
        if seat is not None and m.seat != seat:
            continue
        if m.kind == "roll":
            moments.add_row(str(m.index), result.names[m.seat], m.situation_text(), m.made,
                            "", "",
                            say("luck {luck}", luck=f"{m.luck:+.2f}")
                            if m.luck is not None else "")
            continue
        odds = ", ".join(f"{k} {v:.1%}" for k, v in m.detail.items()
                         if k not in ("expected", "best_expected", "value", "worth"))
        moments.add_row(str(m.index), result.names[m.seat], m.situation_text(), m.made,
                        m.best or "", _number(m.cost), odds)
    console.print(moments)
    summary = rich_table(say("seat"), say("decisions"), say("best / graded"), say("lost"),
                         say("luck"), say("start"), say("final"), say("costliest"))
    for s in result.seats:
        if seat is not None and s.seat != seat:
            continue
        best = f"{s.best}/{s.graded}" + (f" ({s.accuracy:.0%})" if s.accuracy is not None
                                          else "")
        costliest = "; ".join(say("{made} (best {best}, {cost})", made=m.made, best=m.best,
                                  cost=f"−{m.cost:.2f}") for m in s.costliest)
        summary.add_row(s.name, str(s.decisions), best, _number(s.lost), _number(s.luck),
                        _number(s.start), _number(s.final), costliest)
    console.print(summary)

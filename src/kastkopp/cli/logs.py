"""``kastkopp replay`` and ``kastkopp verify``: a game's log read back and checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from kastkopp.cli.app import app
from kastkopp.cli.options import AsJson, LogFile
from kastkopp.cli.support import console, errors, escape, friendly, say

if TYPE_CHECKING:
    from kastkopp.engine import KastkoppError


def error_json(error: KastkoppError | OSError) -> dict[str, Any]:
    """An error for programs that asked for JSON: its text, and its template to translate."""
    from kastkopp.engine import KastkoppError

    if isinstance(error, KastkoppError):
        from kastkopp.locale.messages import error_json as message_json

        return message_json(error)
    return {"error": f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")}


def read_log(path: Path) -> dict[str, Any]:
    from kastkopp.engine import LogError

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
def replay_command(log: LogFile, as_json: AsJson = False) -> None:
    """Replay a log: the final position and outcome, or the first illegal event and why."""
    from kastkopp.cli.terminal import board
    from kastkopp.engine import KastkoppError, Table

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
    from kastkopp.engine import check_log

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
    if "server_seed_sha256" in source:
        matched += " " + say("(seed hash {hash}…)", hash=source["server_seed_sha256"][:16])
    if not result.complete:
        label = escape(say("incomplete:"))
        errors.print(f"[bold yellow]{label}[/] " + say(
            "{matched}, but {why}; this is not a whole game.", matched=matched,
            why=result.unfinished), highlight=False)
        raise typer.Exit(3)
    console.print(say("Verified: {matched}, and the log goes to the game's end.",
                      matched=matched), highlight=False)



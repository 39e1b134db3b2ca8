"""``kastkopp sheet ...``: keep score of a game played with real dice, in a file.

::

    kastkopp sheet new liars_dice --players "Anna,Ben,Cara" game.sheet
    kastkopp sheet add game.sheet loss Ben          # or: 0 1 0
    kastkopp sheet add game.sheet exact Anna
    kastkopp sheet set game.sheet dice=3            # every count is derived again
    kastkopp sheet undo game.sheet --steps 2
    kastkopp sheet show game.sheet [--json]
    kastkopp sheet export game.sheet --csv

Every command that changes the sheet checks the change first (an impossible entry is refused
with the reason and the file is left as it was), writes the file atomically and prints the
sheet. What a sheet accepts is told by its kind (:mod:`kastkopp.sheets`), not here.
"""

from __future__ import annotations

import csv
import io
import json
import shlex
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import typer

from kastkopp.cli.options import AsJson, HouseRules, Preset
from kastkopp.cli.support import console, escape, friendly, language, parse_rules, rich_table, say
from kastkopp.cli.usage import ToldGroup

if TYPE_CHECKING:  # the sheets load the games: only a command that reads a sheet waits
    from collections.abc import Sequence

    from kastkopp.sheets import Sheet
    from kastkopp.sheets.history import History

sheet_app = typer.Typer(cls=ToldGroup, no_args_is_help=True, rich_markup_mode=None,
                        help="Keep score of a game played with real dice: enter what "
                        "happened, every number is derived.")


# Cells like -1 are entries, not options.
ENTRY_COMMAND = {"ignore_unknown_options": True, "allow_extra_args": False}




def files() -> ModuleType:
    """The sheet files' module, loaded when a command first reads or writes a sheet."""
    from kastkopp.sheets import sheetfile

    return sheetfile


def change(path: Path, *lines: str) -> History:
    """Make changes to the sheet in ``path``: all of them, or (on an error) none."""
    history = files().read(path)
    for line in lines:
        history = history.do(line)
    files().write(path, history)
    return history


# --------------------------------------------------------------------------- showing


def render(sheet: Sheet) -> None:
    """The sheet as the table players know, then the flags and the standings."""
    derived = sheet.derive()
    header, *rows = derived.grid
    table = rich_table(title=escape(f"{sheet_title(sheet.kind.title)} · "
                                   + describe_rules(sheet)), title_justify="left")
    for index, column in enumerate(told_header(header, sheet.names, derived.count_name)):
        table.add_column(escape(column or ""), justify="left" if index == 0 else "right")
    labels = sheet.kind.row_labels(sheet, language()) if language() != "en" else {}
    for first, *cells in rows:
        row = (labels.get(first or "", first), *cells)
        table.add_row(*(derived.empty if cell is None else escape(cell) for cell in row))
    console.print(table, highlight=False)
    for flag in derived.flags:
        warning = say("! entry {number} ({text}): {reason}", number=flag.entry + 1,
                      text=flag.text, reason=flag.told)
        console.print(f"[yellow]{escape(warning)}[/]", highlight=False)
    console.print(escape(standings_line(sheet)), highlight=False)


def told_header(header: Sequence[str | None], names: Sequence[str],
                count_name: str) -> list[str | None]:
    """The grid's header in the player's language: the kinds word it in English."""
    if language() == "en":
        return list(header)
    columns = {"Round": say("Round"), "Game": say("Game"), "Pot": say("Pot")}
    unit = unit_word(count_name)
    counts = {f"{name} {count_name}": f"{name} {unit}" for name in names}
    return [None if cell is None else columns.get(cell) or counts.get(cell, cell)
            for cell in header]


def unit_word(word: str) -> str:
    """A count's column word: ``dice``, ``lives``, ``points``, ``wins``, ``balance``, ``total``."""
    words = {"dice": say("dice"), "lives": say("lives"), "points": say("points"),
             "wins": say("wins"), "balance": say("balance"), "total": say("total")}
    return words.get(word, word)


def sheet_title(title: str) -> str:
    """A kind's title (``liar's dice``, ``Liar Dice``) as the player's language names it."""
    if title == "liar's dice":
        return say("liar's dice")
    return say("Liar Dice") if title == "Liar Dice" else title  # the others are names


def describe_rules(sheet: Sheet) -> str:
    changed = sheet.changed_rules()
    preset = say("preset {name}", name=sheet.preset) if sheet.preset else say("default rules")
    if not changed:
        return preset
    return preset + ", " + ", ".join(f"{k}={sheet.rule_text(k)}" for k in changed)


def ordinal(n: int) -> str:
    """``1st`` in English; ``1.`` in Swedish and Danish."""
    if language() != "en":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def counted(number: float, word: str) -> str:
    """What a player has left or has made, in the sheet's own unit."""
    one = number == 1
    count = (str(number) if isinstance(number, int) else f"{number:g}").replace("-", "−")
    if word == "dice":
        return say("1 die") if one else say("{count} dice", count=count)
    if word == "lives":
        return say("1 life") if one else say("{count} lives", count=count)
    if word == "points":
        return say("1 point") if one else say("{count} points", count=count)
    if word == "total":
        return say("total {count}", count=count)
    if word == "balance":
        return say("balance {count}", count=count)
    return f"{count} {word}"


def signed(value: float) -> str:
    """``+3``, ``−3``: with the minus sign the sheet's cells are written with."""
    text = f"{value:+d}" if isinstance(value, int) else f"{value:+g}"
    return text.replace("-", "−")


def standings_line(sheet: Sheet) -> str:
    derived = sheet.derive()
    parts = []
    for s in sorted(derived.standings, key=lambda s: s.place):
        what = counted(s.count, derived.count_name)
        if s.out is not None:
            what += ", " + say("out in round {round}", round=s.out)
        if "result" in s.extra:
            what += ", " + say("result {result}", result=signed(s.extra["result"]))
        if "winnings" in s.extra:
            what += ", " + say("pot {pot}", pot=signed(s.extra["winnings"]))
        parts.append(f"{ordinal(s.place)} {s.name} ({what})")
    winners = derived.winners
    if len(winners) == 1:
        won = say("{name} wins", name=winners[0].name)
    elif winners:
        won = say("{names} share the win", names=" & ".join(w.name for w in winners))
    state = (say("finished: {who}", who=won) if derived.finished and winners
             else say("finished") if derived.finished
             else say("not finished: {who}", who=won) if winners else say("not finished"))
    return f"{' · '.join(parts)} — {state}"


# --------------------------------------------------------------------------- commands


@sheet_app.command("new")
@friendly
def new_command(
    game: str = typer.Argument(..., metavar="GAME",
                               help="the game ('kastkopp sheet games' lists them)"),
    file: Path = typer.Argument(..., metavar="FILE", help="the sheet file to create"),
    players: str = typer.Option(..., "--players", help='the players in order, e.g. '
                                '"Anna,Ben,Cara"'),
    preset: Preset = None,
    rule: HouseRules = None,
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
) -> None:
    """Start a sheet for GAME in FILE."""
    from kastkopp.engine import RuleError

    if file.exists() and not force:
        raise RuleError("{file} already exists (use another name, or --force to replace it)",
                        file=str(file))
    rules = parse_rules(rule)
    names = [n.strip() for n in players.split(",")]
    from kastkopp.sheets import Sheet
    from kastkopp.sheets.core import kind_for
    from kastkopp.sheets.history import History

    specs = {spec.name for spec in kind_for(game).rules_class().specs()}
    if "lang" in specs and language() != "en" and preset is None:
        rules.setdefault("lang", language())  # a sheet that names its rows: the player's words

    sheet = Sheet.new(game, names, preset, **rules)
    files().write(file, History(sheet))
    render(sheet)


@sheet_app.command("add", context_settings=ENTRY_COMMAND)
@friendly
def add_command(
    file: Path = typer.Argument(..., metavar="FILE"),
    entry: list[str] = typer.Argument(..., metavar="ENTRY...",
                                      help="e.g. 'loss Ben', 0 1 0, 'Anna fours 4 4 4 1 2' "
                                           "or 'Anna 3 Ben 3 won Ben'"),
) -> None:
    """Add one round, one row or one pot to the sheet."""
    render(change(file, "add " + shlex.join(entry)).sheet)


@sheet_app.command("edit", context_settings=ENTRY_COMMAND)
@friendly
def edit_command(
    file: Path = typer.Argument(..., metavar="FILE"),
    number: int = typer.Argument(..., metavar="NUMBER", help="which entry (1 is the first)"),
    entry: list[str] = typer.Argument(..., metavar="ENTRY..."),
) -> None:
    """Replace an entry, e.g. one that a rule change flagged."""
    render(change(file, f"edit {number} " + shlex.join(entry)).sheet)


@sheet_app.command("set")
@friendly
def set_command(
    file: Path = typer.Argument(..., metavar="FILE"),
    rules: list[str] = typer.Argument(..., metavar="NAME=VALUE..."),
) -> None:
    """Change house rules mid-game: everything is derived again from the same entries."""
    parse_rules(rules)  # refuses a pair that is not name=value before the file is read
    render(change(file, *(f"set {shlex.quote(pair)}" for pair in rules)).sheet)


@sheet_app.command("insert")
@friendly
def insert_command(
    file: Path = typer.Argument(..., metavar="FILE"),
    name: str = typer.Argument(..., metavar="NAME"),
    at: int = typer.Option(None, "--at", help="the column to sit in (1 is the first)"),
) -> None:
    """A player who joins now, from the next entry on."""
    line = f"insert {shlex.quote(name)}" + (f" at {at}" if at is not None else "")
    render(change(file, line).sheet)


@sheet_app.command("rename")
@friendly
def rename_command(file: Path = typer.Argument(..., metavar="FILE"),
                   old: str = typer.Argument(..., metavar="OLD"),
                   new: str = typer.Argument(..., metavar="NEW")) -> None:
    """Rename a player."""
    render(change(file, f"rename {shlex.quote(old)} {shlex.quote(new)}").sheet)


@sheet_app.command("move")
@friendly
def move_command(file: Path = typer.Argument(..., metavar="FILE"),
                 name: str = typer.Argument(..., metavar="NAME"),
                 position: int = typer.Argument(..., metavar="POSITION")) -> None:
    """Show a player's column at another position (1 is the first)."""
    render(change(file, f"move {shlex.quote(name)} {position}").sheet)


@sheet_app.command("undo")
@friendly
def undo_command(file: Path = typer.Argument(..., metavar="FILE"),
                 steps: int = typer.Option(1, "--steps", min=1)) -> None:
    """Take back the last change (or the last N)."""
    history = files().read(file).undo(steps)
    files().write(file, history)
    render(history.sheet)


@sheet_app.command("redo")
@friendly
def redo_command(file: Path = typer.Argument(..., metavar="FILE"),
                 steps: int = typer.Option(1, "--steps", min=1)) -> None:
    """Bring back what undo took back."""
    history = files().read(file).redo(steps)
    files().write(file, history)
    render(history.sheet)


@sheet_app.command("show")
@friendly
def show_command(file: Path = typer.Argument(..., metavar="FILE"),
                 as_json: AsJson = False) -> None:
    """The sheet: every cell entered, every number derived, who stands where."""
    history = files().read(file)
    if as_json:
        data = history.sheet.to_json()
        data["undo"] = len(history.changes)
        data["redo"] = len(history.undone)
        console.print_json(json.dumps(data, ensure_ascii=False))
        return
    render(history.sheet)


@sheet_app.command("export")
@friendly
def export_command(file: Path = typer.Argument(..., metavar="FILE"),
                   as_csv: bool = typer.Option(True, "--csv", hidden=True,
                                               help="comma-separated values (the only format, "
                                               "and the default)"),
                   output: Path = typer.Option(None, "--output", "-o", metavar="FILE",
                                               help="write here instead of printing")) -> None:
    """The table for a spreadsheet, as comma-separated values. Empty cells stay empty
    (they are not zeros)."""
    sheet = files().read(file).sheet
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in sheet.derive().grid:
        writer.writerow(["" if cell is None else cell.replace("−", "-") for cell in row])
    writer.writerow([])
    writer.writerow(["place", "name", sheet.derive().count_name])
    for s in sorted(sheet.derive().standings, key=lambda s: s.place):
        writer.writerow([s.place, s.name, s.count])
    if output is None:
        typer.echo(buffer.getvalue(), nl=False)
    else:
        output.write_text(buffer.getvalue(), encoding="utf-8")


@sheet_app.command("games")
@friendly
def games_command() -> None:
    """The games a sheet can be kept for, and what an entry looks like for each."""
    from kastkopp.sheets import kinds

    for name, kind in sorted(kinds().items()):
        console.print(f"[bold]{name}[/] — {sheet_title(kind.title)}: "
                      f"{escape(entry_help(kind.entry_help))}", highlight=False)


def entry_help(text: str) -> str:
    """What an entry looks like, in the player's language with the words the sheets read."""
    pot = "write what each player paid and who won, like 'Anna 3 Ben 3 Cara 5 won Cara'"
    helps = {
        pot: say("write what each player paid and who won, like 'Anna 3 Ben 3 Cara 5 won "
                 "Cara'"),
        pot + "; a double knock: 'double Ben won'": say(
            "write what each player paid and who won, like 'Anna 3 Ben 3 Cara 5 won Cara'; "
            "a double knock: 'double Ben won'"),
        "write 'loss NAME', 'exact NAME', or the round's cells in the sheet's order, like "
        "0 1 0": say("write 'loss NAME', 'exact NAME', or the round's cells in the sheet's "
                     "order, like 0 1 0"),
        "write 'loss NAME', 'loss NAME slosch' (Slosch decided it), or the round's cells in "
        "the sheet's order, like 0 1 0": say(
            "write 'loss NAME', 'loss NAME slosch' (Slosch decided it), or the round's cells "
            "in the sheet's order, like 0 1 0"),
        "write who won the game ('Anna' or 'won Anna'), or 'draw'": say(
            "write who won the game ('Anna' or 'won Anna'), or 'draw'"),
        "write 'NAME ROW DICE' (Anna fours 4 4 4 1 2), 'NAME ROW POINTS' (Anna fours 12) or "
        "'NAME ROW -' to cross it out": say(
            "write 'NAME ROW DICE' (Anna fours 4 4 4 1 2), 'NAME ROW POINTS' (Anna fours 12) "
            "or 'NAME ROW -' to cross it out"),
    }
    return helps.get(text, text)

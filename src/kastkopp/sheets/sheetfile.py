"""The sheet file: plain text, one line per fact, oldest first (docs/sheet-format.md).

::

    kastkopp-sheet 1
    game liars_dice
    rule dice=5
    player Anna
    player Ben
    add loss Ben
    set dice=3
    undone
    add exact Anna

The header names the game, the preset, every house rule as the sheet was created and the
players; then come the changes (:mod:`kastkopp.sheets.history`), and after a line
``undone`` the changes that ``redo`` would bring back. Reading replays every line and
checks it exactly as the command line did when it was made, so a damaged or hand-edited
file is refused with the number of its first bad line. Writing goes to a temporary file in
the same folder which then replaces the old one, so a crash never leaves half a sheet.

>>> from kastkopp.sheets import Sheet
>>> from kastkopp.sheets.history import History
>>> text = dumps(History(Sheet.new("liars_dice", ["Anna", "Ben"])).do("add Ben"))
>>> loads(text).sheet.derive().standings[1].count
4
>>> try:
...     loads(text.replace("add loss Ben", "add loss Bob"), "game.sheet")
... except SheetFileError as exc:
...     print(exc)
game.sheet, line 19: 'Bob' is not a player here (players: Anna, Ben)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from kastkopp.engine import KastkoppError, Message, term
from kastkopp.sheets.core import Sheet, kind_for, rule_text
from kastkopp.sheets.history import ChangeError, History, apply_changes

FORMAT = "kastkopp-sheet"
VERSION = 1
HEADER_WORDS = ("game", "preset", "rule", "player")


# Where a problem of the file is, before the problem itself (a message of its own).
AT_LINE = Message("{name}, line {number}: {problem}").template


class SheetFileError(KastkoppError):
    """A sheet file that cannot be read: says which file, which line and what is wrong."""


def dumps(history: History) -> str:
    """The history as the file's text."""
    start = history.start
    lines = [f"# kastkopp score sheet: {start.kind.title}. Format: docs/sheet-format.md",
             f"{FORMAT} {VERSION}", f"game {start.kind.game}"]
    if start.preset is not None:
        lines.append(f"preset {start.preset}")
    for spec in type(start.rules).specs():
        lines.append(f"rule {spec.name}={rule_text(getattr(start.rules, spec.name))}")
    lines += [f"player {p.name}" for p in start.players]
    lines += history.changes
    if history.undone:
        lines.append("undone")
        lines += history.undone
    return "\n".join(lines) + "\n"


def loads(text: str, name: str = "the sheet") -> History:
    """Read a sheet file's text; :class:`SheetFileError` names the first bad line."""
    numbered = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)]
    numbered = [(n, line) for n, line in numbered if line and not line.startswith("#")]
    if not numbered:
        raise SheetFileError("{name} is empty: it is not a kastkopp score sheet", name=name)
    number, first = numbered[0]
    words = first.split()
    if len(words) != 2 or words[0] != FORMAT:
        raise SheetFileError("{name}, line {number}: this is not a kastkopp score sheet (it "
                             "should start with '{start}')", name=name, number=number,
                             start=f"{FORMAT} {VERSION}")
    if words[1] != str(VERSION):
        raise SheetFileError("{name}, line {number}: sheet format version {version} is not "
                             "known here (this kastkopp reads version {known})", name=name,
                             number=number, version=words[1], known=VERSION)

    game: tuple[int, str] | None = None
    preset: str | None = None
    rules: dict[str, tuple[int, str]] = {}  # name -> (line number, value)
    players: list[tuple[int, str]] = []
    body = numbered[1:]
    while body and body[0][1].split(maxsplit=1)[0] in HEADER_WORDS:
        number, line = body.pop(0)
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "game":
            if game is not None or players:
                raise SheetFileError("{name}, line {number}: the game is named once, before "
                                     "the players", name=name, number=number)
            game = (number, rest)
        elif word == "preset":
            preset = rest or None
        elif word == "rule":
            key, sep, value = rest.partition("=")
            if not sep:
                raise SheetFileError("{name}, line {number}: write a rule as 'rule "
                                     "name=value', not '{line}'", name=name, number=number,
                                     line=line)
            rules[key.strip()] = (number, value.strip())
        else:
            players.append((number, rest))
    if game is None:
        raise SheetFileError("{name}: the sheet does not say which game it is (a line 'game "
                             "NAME')", name=name)
    start = _header(name, game, preset, rules, players)

    done: list[tuple[int, str]] = []  # (line number, change)
    redo: list[tuple[int, str]] = []
    marked = False
    for number, line in body:
        if line == "undone":
            if marked:
                raise SheetFileError("{name}, line {number}: a second 'undone' line",
                                     name=name, number=number)
            marked = True
            continue
        if line.split(maxsplit=1)[0] in HEADER_WORDS:
            raise SheetFileError("{name}, line {number}: '{word}' belongs in the header, "
                                 "before the first change", name=name, number=number,
                                 word=line.split()[0])
        (redo if marked else done).append((number, line))
    try:
        sheet, changes = apply_changes(start, [text for _, text in done])
    except ChangeError as exc:
        raise SheetFileError(AT_LINE, name=name, number=done[exc.index][0],
                             problem=exc.message) from None
    try:  # each undone change must still redo, after the ones before it
        _, redone = apply_changes(sheet, [text for _, text in redo])
    except ChangeError as exc:
        raise SheetFileError(AT_LINE, name=name, number=redo[exc.index][0],
                             problem=exc.message) from None
    history = History(start, tuple(changes), tuple(redone))
    history.__dict__["sheet"] = sheet
    return history


def _header(name: str, game: tuple[int, str], preset: str | None,
            rules: dict[str, tuple[int, str]], players: list[tuple[int, str]]) -> Sheet:
    """The sheet as created, from the header; an error names the line it comes from."""
    try:
        kind = kind_for(game[1])
        rules_class = kind.rules_class()
    except KastkoppError as exc:
        raise SheetFileError(AT_LINE, name=name, number=game[0], problem=exc.message) from None
    values: dict[str, Any] = {}
    try:
        for key, (_, text) in rules.items():
            values[key] = rules_class.parse_value(key, text)
        rules_obj = rules_class.make(preset, **values)
    except KastkoppError as exc:
        # point at the rule the message is about, if it names one
        lines = [n for key, (n, _) in rules.items() if f"'{key}'" in str(exc)]
        if lines:
            raise SheetFileError(AT_LINE, name=name, number=lines[0],
                                 problem=exc.message) from None
        raise SheetFileError("{name}, header: {problem}", name=name,
                             problem=exc.message) from None
    sheet = Sheet(kind=kind, rules=rules_obj, players=(), preset=preset)
    for number, player in players:
        try:
            sheet = sheet.insert(player)
        except KastkoppError as exc:
            raise SheetFileError(AT_LINE, name=name, number=number,
                                 problem=exc.message) from None
    if not kind.min_players <= len(sheet.players) <= kind.max_players:
        raise SheetFileError("{name}, header: a {kind} sheet is for {low} to {high} players, "
                             "not {count}", name=name, kind=term(kind.title),
                             low=kind.min_players, high=kind.max_players,
                             count=len(sheet.players))
    return sheet


def read(path: Path | str) -> History:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SheetFileError("there is no sheet {path} (make one with 'kastkopp sheet new')",
                             path=str(path)) from None
    except UnicodeDecodeError:
        raise SheetFileError("{path} is not a text file, so not a score sheet",
                             path=str(path)) from None
    return loads(text, str(path))


def write(path: Path | str, history: History) -> None:
    """Write the sheet atomically: a temporary file next to it, then a rename over it."""
    path = Path(path)
    text = dumps(history)
    folder = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(temp, path.stat().st_mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise

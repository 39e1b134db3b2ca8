"""Undo and redo: a sheet is the sheet as created plus the changes made to it, in order.

Each change is one line of text — ``add loss Ben``, ``set dice=3``, ``rename Ben Bengt``,
``insert Dora at 2``, ``move Cara 1``, ``edit 7 exact Anna`` — the same line the sheet file
stores. The current sheet is the fold of the changes over the sheet as created; undo moves
the last changes to a redo list, redo brings them back, and any new change clears it::

    >>> from kastkopp.sheets import Sheet
    >>> history = History(Sheet.new("liars_dice", ["Anna", "Ben"]))
    >>> history = history.do("add Ben").do("set dice=3").do("add loss Ben 1")
    >>> history.changes
    ('add loss Ben', 'set dice=3', 'add loss Ben')
    >>> history.sheet.derive().standings[1].count
    1
    >>> history.undo(2).sheet.derive().standings[1].count
    4
    >>> history.undo(3).redo().changes
    ('add loss Ben',)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from kastkopp.engine import IllegalAction, Message
from kastkopp.sheets.core import Sheet, quote, split


def apply_change(sheet: Sheet, line: str) -> tuple[Sheet, str]:
    """The sheet after one change, and the change as the file writes it.

    Raises :class:`IllegalAction` (the sheet unchanged) for a change that is impossible.
    """
    words = split(line)
    if not words:
        raise IllegalAction("an empty change")
    verb, rest = words[0].casefold(), words[1:]
    if verb == "add":
        new = sheet.add(rest)
        return new, f"add {new.notation(new.entries[-1])}"
    if verb == "edit":
        if not rest or not rest[0].isdigit():
            raise IllegalAction("write 'edit NUMBER ENTRY', e.g. 'edit 7 loss Ben'")
        number = int(rest[0])
        new = sheet.edit(number, rest[1:])
        return new, f"edit {number} {new.notation(new.entries[number - 1])}"
    if verb == "set":
        if len(rest) != 1 or "=" not in rest[0]:
            raise IllegalAction("write a house rule as name=value, e.g. 'set dice=3'")
        name, _, value = rest[0].partition("=")
        new = sheet.set_rule(name.strip(), value.strip())
        name, _ = sheet.kind.rule_name(name.strip(), value)
        return new, f"set {name}={new.rule_text(name)}"
    if verb == "insert":
        if len(rest) == 3 and rest[1].casefold() == "at" and rest[2].isdigit():
            new = sheet.insert(rest[0], int(rest[2]))
            return new, f"insert {quote(new.by_id(len(sheet.players)).name)} at {rest[2]}"
        if len(rest) == 1:
            new = sheet.insert(rest[0])
            return new, f"insert {quote(new.by_id(len(sheet.players)).name)}"
        raise IllegalAction("write 'insert NAME' or 'insert NAME at POSITION'")
    if verb == "rename":
        if len(rest) != 2:
            raise IllegalAction("write 'rename OLD NEW' (quote names with spaces)")
        new = sheet.rename(rest[0], rest[1])
        pid = sheet.player(rest[0]).id
        return new, f"rename {quote(sheet.name_of(pid))} {quote(new.name_of(pid))}"
    if verb == "move":
        if len(rest) != 2 or not rest[1].isdigit():
            raise IllegalAction("write 'move NAME POSITION', e.g. 'move Cara 1'")
        new = sheet.move(rest[0], int(rest[1]))
        return new, f"move {quote(sheet.player(rest[0]).name)} {rest[1]}"
    raise IllegalAction("unknown change '{word}' (changes: add, edit, set, insert, rename, "
                        "move)", word=words[0])


class ChangeError(IllegalAction):
    """A change among several that is impossible; ``index`` says which (0-based)."""

    def __init__(self, index: int, message: str | Message) -> None:
        super().__init__(message)
        self.index = index


def apply_changes(sheet: Sheet, lines: Sequence[str]) -> tuple[Sheet, list[str]]:
    """The sheet after several changes in order, and each change as the file writes it.

    Each is checked against the sheet as it was when it came, exactly as :func:`apply_change`
    would; a run of entries is checked with one derivation, since whether an entry is
    possible depends only on what came before it. Raises :class:`ChangeError`.
    """
    written: list[str] = []
    index = 0
    while index < len(lines):
        words = split(lines[index])
        if not words or words[0].casefold() != "add":
            try:
                sheet, line = apply_change(sheet, lines[index])
            except IllegalAction as exc:
                raise ChangeError(index, exc.message) from None
            written.append(line)
            index += 1
            continue
        first, base = index, len(sheet.entries)
        while index < len(lines) and (words := split(lines[index])) and \
                words[0].casefold() == "add":
            try:  # read against the entries so far (cells depend on who is still in)
                entry = sheet.parse(words[1:])
            except IllegalAction as exc:
                _first_flag(sheet, base, first)  # an earlier impossible entry comes first
                raise ChangeError(index, exc.message) from None
            sheet = replace(sheet, entries=(*sheet.entries, entry))
            index += 1
        _first_flag(sheet, base, first)
        written += [f"add {sheet.notation(e)}" for e in sheet.entries[base:]]
    return sheet, written


def _first_flag(sheet: Sheet, base: int, first: int) -> None:
    """Raise for the first flagged entry from ``base`` on (entry ``base`` is change ``first``)."""
    flags = [f for f in sheet.derive().flags if f.entry >= base]
    if flags:
        raise ChangeError(first + flags[0].entry - base, flags[0].told)


@dataclass(frozen=True)
class History:
    """A sheet as created, the changes made to it since, and the changes undone."""

    start: Sheet
    changes: tuple[str, ...] = ()
    undone: tuple[str, ...] = field(default=())  # the next one to redo first

    @cached_property
    def sheet(self) -> Sheet:
        """The sheet now: every change applied in order."""
        return apply_changes(self.start, self.changes)[0]

    def do(self, line: str) -> History:
        """Make a change (refused, changing nothing, if impossible); clears the redo list."""
        sheet, written = apply_change(self.sheet, line)
        history = History(self.start, (*self.changes, written), ())
        history.__dict__["sheet"] = sheet  # already folded
        return history

    def undo(self, steps: int = 1) -> History:
        if steps < 1:
            raise IllegalAction("undo at least one step")
        if not self.changes:
            raise IllegalAction("nothing to undo: the sheet is as it was created")
        if steps > len(self.changes):
            raise IllegalAction("only {count} changes can be undone", count=len(self.changes))
        keep = len(self.changes) - steps
        # the first change undone is the first one redone
        return History(self.start, self.changes[:keep], (*self.changes[keep:], *self.undone))

    def redo(self, steps: int = 1) -> History:
        if steps < 1:
            raise IllegalAction("redo at least one step")
        if not self.undone:
            raise IllegalAction("nothing to redo")
        if steps > len(self.undone):
            raise IllegalAction("only {count} changes can be redone", count=len(self.undone))
        sheet, written = apply_changes(self.sheet, self.undone[:steps])
        history = History(self.start, (*self.changes, *written), self.undone[steps:])
        history.__dict__["sheet"] = sheet
        return history

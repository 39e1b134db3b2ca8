"""The score sheet: what happened, entry by entry. Every number on it is derived.

A :class:`Sheet` is a game's house rules, its players and a list of entries — a round of
liar's dice or Slosch, a row of a Yatzy sheet, a pot of Knack. Dice or lives left, totals,
bonuses, eliminations, places and the winner are computed by the sheet's :class:`SheetKind`
from those entries every time they are asked for, so they can never disagree with them::

    >>> from kastkopp.sheets import Sheet
    >>> sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"])
    >>> sheet = sheet.add("loss Ben").add("exact Anna")
    >>> [(s.name, s.count, s.place) for s in sheet.derive().standings]
    [('Anna', 5, 1), ('Ben', 4, 3), ('Cara', 5, 1)]
    >>> sheet.derive().grid[2]          # an exact call won at a full hand is written 0
    ('2', '0', '0', '0', '5', '4', '5')
    >>> sheet.set_rule("dice", "3").derive().standings[1].count
    2

Changing a house rule keeps the entries and derives again. An entry the new rules make
impossible is *flagged* (:attr:`Derivation.flags`) — shown, explained and left out of the
numbers — never dropped. New entries are refused outright when they are impossible.

:class:`~kastkopp.sheets.history.History` adds undo and redo on top: it keeps the list of
changes made to a sheet, which is also what the sheet file stores.
"""

from __future__ import annotations

import dataclasses
import shlex
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar

from kastkopp.engine import IllegalAction, Message, RuleError, Rules, ranking_by, term
from kastkopp.games import load_part, registered


class Entry:
    """One thing that happened, as the sheet's kind reads it (a frozen dataclass)."""


@dataclass(frozen=True)
class Player:
    """A column of the sheet. ``id`` never changes; names and order may.

    ``joined`` is how many entries the sheet had when the player sat down (0: from the
    start); the player has no cells before that.
    """

    id: int
    name: str
    joined: int = 0


@dataclass(frozen=True)
class Flag:
    """An entry the current rules do not allow, and why. It counts for nothing until fixed."""

    entry: int  # 0-based index into Sheet.entries
    text: str
    reason: str
    said: Message | None = None  # the reason as a message, for the player's language

    @classmethod
    def of(cls, entry: int, text: str, reason: Message) -> Flag:
        return cls(entry, text, str(reason), reason)

    @property
    def told(self) -> str | Message:
        """The reason, as a message where there is one (the terminal translates it)."""
        return self.said if self.said is not None else self.reason

    def to_json(self) -> dict[str, Any]:
        return {"entry": self.entry + 1, "text": self.text, "reason": self.reason}


@dataclass(frozen=True)
class Standing:
    """Where a player stands: ``count`` is dice, lives, points, total or balance."""

    id: int
    name: str
    place: int
    count: int | float
    out: int | None = None  # the round the player went out in (1-based), if out
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Derivation:
    """Everything the sheet shows, computed from its entries.

    ``grid`` is the table as printed (the first row is the header; ``None`` is an empty
    cell, which is not a zero). ``standings`` follow the players' order on the sheet.
    """

    count_name: str
    grid: tuple[tuple[str | None, ...], ...]
    standings: tuple[Standing, ...]
    finished: bool
    flags: tuple[Flag, ...] = ()
    empty: str = "—"  # how an empty cell is printed (a row not yet filled is blank)

    def flag_for(self, entry: int) -> Flag | None:
        return next((f for f in self.flags if f.entry == entry), None)

    @property
    def winners(self) -> list[Standing]:
        return [s for s in self.standings if s.place == 1] if self.finished else []


def places(keys: Sequence[Any]) -> list[int]:
    """Places from ranking keys, best (highest key) first; equal keys share a place."""
    result = [0] * len(keys)
    ahead = 0
    for group in ranking_by(keys):
        for seat in group:
            result[seat] = ahead + 1
        ahead += len(group)
    return result


def quote(name: str) -> str:
    """A name as written in an entry: quoted only when it has spaces or quotes."""
    return shlex.quote(name) if any(c.isspace() or c in "'\"\\" for c in name) else name


def split(text: str) -> list[str]:
    """Split an entry or a change into words, honouring quotes ('Anna Lisa')."""
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise IllegalAction("cannot read '{text}': {problem}", text=text,
                            problem=str(exc)) from None


# --------------------------------------------------------------------------- kinds


class SheetKind(ABC):
    """How one game family's sheet reads entries and derives its numbers."""

    game: ClassVar[str] = ""  # the registered game this sheet keeps score of
    title: ClassVar[str] = ""
    entry_help: ClassVar[str] = ""
    words: ClassVar[frozenset[str]] = frozenset()  # words of the notation, not names
    # the refusals a page's offline check repeats (templates of this kind's messages)
    offline_texts: ClassVar[tuple[str, ...]] = ()
    # the browser module that works the sheet out without a network, a path under the
    # server's static folder ("sheets/<game>.js"); empty: the page has none
    stand_in: ClassVar[str] = ""

    def rules_class(self) -> type[Rules]:
        """The game's own house rules."""
        return registered()[self.game].rules_class

    def rule_name(self, name: str, value: Any) -> tuple[str, Any]:
        """A house rule as the game names it, for one named as players' sheets name it."""
        return name, value

    @property
    def min_players(self) -> int:
        return registered()[self.game].min_players

    @property
    def max_players(self) -> int:
        """As many as the game seats."""
        return registered()[self.game].max_players

    @abstractmethod
    def parse_entry(self, words: list[str], sheet: Sheet) -> Entry:
        """Read an entry; raise :class:`IllegalAction` (saying what is expected) if unreadable."""

    @abstractmethod
    def notation(self, entry: Entry, sheet: Sheet) -> str:
        """The entry as written in the sheet file, with the players' current names."""

    @abstractmethod
    def derive(self, sheet: Sheet) -> Derivation:
        """Every number of the sheet, from its rules, players and entries."""

    def row_labels(self, sheet: Sheet, lang: str) -> dict[str, str]:
        """The grid's row labels as the sheet writes them, each in ``lang`` (none to change)."""
        return {}

    def offline(self, rules: Rules) -> dict[str, Any] | None:
        """What a page needs to check this kind's entries without the server, as plain data
        computed here (one source of truth); ``None``: the kind publishes nothing."""
        return None


_KINDS: dict[str, SheetKind] = {}


def register_kind(kind: type[SheetKind]) -> type[SheetKind]:
    """Class decorator: make a sheet kind available under its game's name."""
    _KINDS[kind.game] = kind()
    return kind


def _load_kinds() -> None:
    """Import every game's sheet modules (its :class:`~kastkopp.engine.Parts`), which
    register their kinds (once; later calls cost nothing)."""
    for name in registered():
        load_part(name, "sheet")


def kinds() -> dict[str, SheetKind]:
    _load_kinds()
    return dict(_KINDS)


def kind_for(game: str) -> SheetKind:
    _load_kinds()
    if game not in _KINDS:
        known = ", ".join(sorted(_KINDS))
        raise RuleError("there is no score sheet for '{game}' (sheets: {known})", game=game,
                        known=known)
    return _KINDS[game]


# --------------------------------------------------------------------------- the sheet

_NOT_NAMES = {"-", "—", "–", "_"}


@dataclass(frozen=True)
class Sheet:
    """A game's house rules, its players (in the order shown) and what happened."""

    kind: SheetKind
    rules: Rules
    players: tuple[Player, ...]
    entries: tuple[Entry, ...] = ()
    preset: str | None = None

    @classmethod
    def new(cls, game: str, players: Sequence[str], preset: str | None = None,
            **rules: Any) -> Sheet:
        """An empty sheet. Rule values may be text, as typed (``dice="3"``)."""
        kind = kind_for(game)
        rules = dict(kind.rule_name(k, v) for k, v in rules.items())
        rules_obj = kind.rules_class().make(preset, **rules)
        sheet = cls(kind=kind, rules=rules_obj, players=(), preset=preset)
        for name in players:
            sheet = sheet.insert(name)
        if not kind.min_players <= len(sheet.players) <= kind.max_players:
            raise RuleError("a {kind} sheet is for {low} to {high} players, not {count}",
                            kind=term(kind.title), low=kind.min_players,
                            high=kind.max_players, count=len(sheet.players))
        return sheet

    # -- players -----------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def by_id(self, pid: int) -> Player:
        return next(p for p in self.players if p.id == pid)

    def name_of(self, pid: int) -> str:
        return self.by_id(pid).name

    def player(self, name: str) -> Player:
        """The player called ``name`` (any case)."""
        for p in self.players:
            if p.name.casefold() == name.strip().casefold():
                return p
        raise IllegalAction("'{name}' is not a player here (players: {names})", name=name,
                            names=", ".join(self.names))

    def is_player(self, word: str) -> bool:
        return any(p.name.casefold() == word.strip().casefold() for p in self.players)

    def _check_name(self, name: str, ignore: int | None = None) -> str:
        name = " ".join(name.split())
        if not name:
            raise IllegalAction("a player's name cannot be empty")
        if name in _NOT_NAMES or name.lstrip("+-−").isdigit():
            raise IllegalAction("'{name}' cannot be a name: it reads as a score", name=name)
        if name.casefold() in self.kind.words:
            raise IllegalAction("'{name}' cannot be a name: it is a word of the sheet",
                                name=name)
        for p in self.players:
            if p.name.casefold() == name.casefold() and p.id != ignore:
                raise IllegalAction("there is already a player called {name}", name=p.name)
        return name

    def insert(self, name: str, position: int | None = None) -> Sheet:
        """A player who sits down now: no cells before the next entry. ``position`` is 1-based."""
        name = self._check_name(name)
        if len(self.players) >= self.kind.max_players:
            raise IllegalAction("a {kind} sheet has room for {count} players",
                                kind=term(self.kind.title), count=self.kind.max_players)
        new = Player(id=len(self.players), name=name, joined=len(self.entries))
        players = list(self.players)
        at = len(players) if position is None else position - 1
        if not 0 <= at <= len(players):
            raise IllegalAction("a position is 1 to {last}, not {position}",
                                last=len(players) + 1, position=position)
        players.insert(at, new)
        return replace(self, players=tuple(players))

    def rename(self, old: str, new: str) -> Sheet:
        player = self.player(old)
        name = self._check_name(new, ignore=player.id)
        return replace(self, players=tuple(replace(p, name=name) if p.id == player.id else p
                                           for p in self.players))

    def move(self, name: str, position: int) -> Sheet:
        """Show a player's column at ``position`` (1-based). Nothing else changes."""
        player = self.player(name)
        others = [p for p in self.players if p.id != player.id]
        if not 1 <= position <= len(self.players):
            raise IllegalAction("a position is 1 to {last}, not {position}",
                                last=len(self.players), position=position)
        others.insert(position - 1, player)
        return replace(self, players=tuple(others))

    # -- entries -----------------------------------------------------------------------
    def parse(self, text: str | Sequence[str]) -> Entry:
        words = split(text) if isinstance(text, str) else list(text)
        if not words:
            raise IllegalAction("nothing to enter ({help})", help=term(self.kind.entry_help))
        return self.kind.parse_entry(words, self)

    def add(self, text: str | Sequence[str]) -> Sheet:
        """The sheet with one more entry; an impossible one is refused with the reason."""
        sheet = replace(self, entries=(*self.entries, self.parse(text)))
        sheet._refuse_if_flagged(len(self.entries))
        return sheet

    def edit(self, number: int, text: str | Sequence[str]) -> Sheet:
        """Replace entry ``number`` (1-based), e.g. to fix one that a rule change flagged."""
        if not 1 <= number <= len(self.entries):
            if not self.entries:
                raise IllegalAction("there are no entries yet")
            raise IllegalAction("there is no entry {number} (entries: 1 to {last})",
                                number=number, last=len(self.entries))
        entries = list(self.entries)
        # read it as it would have been read then (cells depend on who was still in)
        entries[number - 1] = replace(self, entries=self.entries[:number - 1]).parse(text)
        sheet = replace(self, entries=tuple(entries))
        sheet._refuse_if_flagged(number - 1)
        return sheet

    def _refuse_if_flagged(self, index: int) -> None:
        flag = self.derive().flag_for(index)
        if flag is not None:
            raise IllegalAction(flag.told)

    def notation(self, entry: Entry) -> str:
        return self.kind.notation(entry, self)

    # -- rules -------------------------------------------------------------------------
    def set_rule(self, name: str, value: str | Any) -> Sheet:
        """The same entries under a changed house rule (flagging what it makes impossible)."""
        rules_cls = type(self.rules)
        name, value = self.kind.rule_name(name, value)
        if isinstance(value, str):
            value = rules_cls.parse_value(name, value)
        elif name not in {s.name for s in rules_cls.specs()}:
            rules_cls.parse_value(name, "")  # raises: unknown rule, listing the rules
        return replace(self, rules=dataclasses.replace(self.rules, **{name: value}))

    def changed_rules(self) -> dict[str, Any]:
        """The house rules that differ from the sheet's preset (or from the defaults)."""
        base = type(self.rules).make(self.preset)
        return {s.name: getattr(self.rules, s.name) for s in type(self.rules).specs()
                if getattr(self.rules, s.name) != getattr(base, s.name)}

    def rule_text(self, name: str) -> str:
        return rule_text(getattr(self.rules, name))

    # -- deriving ----------------------------------------------------------------------
    @cached_property
    def _derivation(self) -> Derivation:
        return self.kind.derive(self)

    def derive(self) -> Derivation:
        """Everything the sheet shows; computed once per (immutable) sheet."""
        return self._derivation

    def to_json(self) -> dict[str, Any]:
        """The derived sheet for programs (``kastkopp sheet show --json``)."""
        derived = self.derive()
        players = []
        for s in derived.standings:
            row: dict[str, Any] = {"name": s.name, "place": s.place,
                                   derived.count_name: s.count}
            if s.out is not None:
                row["out_round"] = s.out
            row.update(s.extra)
            players.append(row)
        return {"game": self.kind.game, "preset": self.preset,
                "rules": self.rules.to_json(), "count": derived.count_name,
                "players": players, "entries": [self.notation(e) for e in self.entries],
                "table": [list(r) for r in derived.grid], "flags":
                [f.to_json() for f in derived.flags], "finished": derived.finished,
                "winner": derived.winners[0].name if len(derived.winners) == 1 else None}


def rule_text(value: Any) -> str:
    """A rule value as typed: ``on``/``off`` for switches."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def signed(value: int) -> str:
    """A cell as Løgneterninger regler writes it: ``1``, ``0``, ``−1``."""
    return f"−{-value}" if value < 0 else str(value)

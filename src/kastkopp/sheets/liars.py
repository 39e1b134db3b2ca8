"""The liar's-dice sheet (Løgneterninger regler): Løgneterninger, Perudo, Lögnare, Dudo.

Every round changes exactly one player's dice, and the sheet writes that change in the
player's cell: ``1`` for a lost challenge (either side) or a wrong exact call, ``−1`` for
an exact call won, ``0`` for everyone else in the round. An exact call won at a full hand
is written ``0``: there is no die to win back, and a ``−1`` there would silently swallow
the next real loss. Dice left are the start minus the sum of the cells; a player at zero
is out and their later cells are empty. With ``loss=life`` the arithmetic is the same and
only the word changes (hand sizes stay fixed). With the come-back (``come_back``) a player
on one die who wins an exact call for the first time in the game is back at the start: the
cell is the one that brings the count back, ``−4`` with five dice.

Entries, as typed (``kastkopp sheet add FILE ...``):

``loss Ben`` (or just ``Ben``)
    Ben lost a challenge or a wrong exact call: his cell is 1. ``loss Ben 2`` writes 2,
    which only the Dudo habit allows (``penalty=difference``).
``exact Anna``
    Anna won an exact call: −1, or 0 at a full hand (or the come-back's cell). ``exact Anna
    -1`` / ``exact Anna 0`` also says what was written, and is refused if the sheet says
    otherwise.
``0 1 0``
    The cells of the round, one per player still in (or one per player, ``-`` for those
    who are out), in the order of the sheet. A round of all zeros does not say who won the
    exact call: write ``exact NAME``.

The house rules are the game's own (:class:`kastkopp.games.liars_dice.LiarsRules`); seed
003's names for them are understood too (``startingDice=3``, ``onesWild``, ``exactCall``,
``keepEliminated``), and the sheet writes the game's names. Those that change the sheet are
``dice`` (or ``lives`` when ``loss=life``), ``exact_call``, ``exact_gain``, ``penalty``,
``come_back`` and ``keep_eliminated``. After a rule change, a round that is no longer
possible — a loss for a player who would already be out, an exact call where they are not
allowed, a loss of two with ``penalty=one`` — is flagged and counts for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kastkopp.engine import IllegalAction, Message, Rules, term
from kastkopp.games.liars_dice import LiarsRules
from kastkopp.sheets.core import Derivation, Entry, Sheet, SheetKind, quote, register_kind
from kastkopp.sheets.rounds import Countdown, is_cell, read_cell


@dataclass(frozen=True)
class Loss(Entry):
    """A player lost the round: ``cell`` dice (1 unless the Dudo habit is played)."""

    player: int
    cell: int = 1


@dataclass(frozen=True)
class Exact(Entry):
    """A player won an exact call. ``written``: the cell as entered (−1 or 0), if entered."""

    player: int
    written: int | None = None


# Løgneterninger regler's names for its settings (its sheet app is where players meet them)
SEED_SETTINGS = {"startingDice": "dice", "onesWild": "ones_wild", "exactCall": "exact_call",
                 "keepEliminated": "keep_eliminated"}
LOSS_WORDS = {"loss", "lost", "lose", "tab", "tabt", "förlust", "förlorade", "+1"}
EXACT_WORDS = {"exact", "calza", "præcis", "exakt"}


@register_kind
class LiarsSheet(SheetKind):
    game: ClassVar[str] = "liars_dice"
    stand_in: ClassVar[str] = "sheets/liars_dice.js"
    title: ClassVar[str] = "liar's dice"
    entry_help: ClassVar[str] = ("write 'loss NAME', 'exact NAME', or the round's cells in "
                                 "the sheet's order, like 0 1 0")
    words: ClassVar[frozenset[str]] = frozenset(LOSS_WORDS | EXACT_WORDS)

    def rule_name(self, name: str, value: Any) -> tuple[str, Any]:
        """The settings by the names Løgneterninger regler gives them (``startingDice=3``,
        ``exactCall=false``)."""
        if name not in SEED_SETTINGS:
            return name, value
        ours = SEED_SETTINGS[name]
        if ours == "exact_call" and isinstance(value, str):
            word = value.strip().lower()
            value = "on" if word in {"true", "on", "1", "yes"} else \
                "off" if word in {"false", "off", "0", "no"} else value
        return ours, value

    offline_texts: ClassVar[tuple[str, ...]] = (
        "'{name}' is not a player here (players: {names})",
        "{cells} cells for the {count} players in the game ({names})")

    def offline(self, rules: Rules) -> dict[str, Any]:
        """For the page's stand-in: what a player starts with, its unit, the entry words."""
        assert isinstance(rules, LiarsRules)
        return {"start": rules.start, "count": self.count_name(rules),
                "loss_words": sorted(LOSS_WORDS), "exact_words": sorted(EXACT_WORDS)}

    def count_name(self, rules: LiarsRules) -> str:
        return "lives" if rules.loss == "life" else "dice"

    # -- reading entries ---------------------------------------------------------------
    def parse_entry(self, words: list[str], sheet: Sheet) -> Entry:
        head = words[0].casefold()
        if all(is_cell(w) for w in words) and (len(words) > 1 or len(sheet.players) == 1):
            return self._from_cells(words, sheet)
        if head in EXACT_WORDS and len(words) in (2, 3):
            written = None
            if len(words) == 3:
                written = self._cell(words[2])
                if written is None or written > 0 or (written < -1
                                                      and not self._come_back(sheet)):
                    raise IllegalAction("an exact call won is written −1 (or 0 at a full "
                                        "hand), not {cell}", cell=words[2])
            return Exact(sheet.player(words[1]).id, written)
        if head in LOSS_WORDS and len(words) in (2, 3):
            cell = self._cell(words[2]) if len(words) == 3 else 1
            if cell is None or cell < 1:
                raise IllegalAction("a loss is written 1 or more, not {cell}", cell=words[2])
            return Loss(sheet.player(words[1]).id, cell)
        if len(words) == 1 and sheet.is_player(words[0]):
            return Loss(sheet.player(words[0]).id)
        raise IllegalAction("cannot read '{text}': {help}", text=" ".join(words),
                            help=term(self.entry_help))

    def _cell(self, word: str) -> int | None:
        try:
            return read_cell(word)
        except ValueError:
            raise IllegalAction("'{word}' is not a cell (1, 0 or −1)", word=word) from None

    def _from_cells(self, words: list[str], sheet: Sheet) -> Entry:
        cells = [self._cell(w) for w in words]
        now = sheet.derive()
        standing = {s.id: s for s in now.standings}
        everyone = list(sheet.players)
        playing = [p for p in everyone if standing[p.id].out is None]
        if len(cells) == len(everyone) and len(everyone) != len(playing):
            for p, cell in zip(everyone, cells, strict=True):
                if standing[p.id].out is not None and cell is not None:
                    raise IllegalAction("{name} is out since round {round}: the cell is "
                                        "empty ('-'), not {cell}", name=p.name,
                                        round=standing[p.id].out, cell=signed_word(cell))
            cells = [c for p, c in zip(everyone, cells, strict=True)
                     if standing[p.id].out is None]
        elif len(cells) != len(playing):
            names = ", ".join(p.name for p in playing)
            raise IllegalAction("{cells} cells for the {count} players in the game ({names})",
                                cells=len(cells), count=len(playing), names=names)
        marked = [(p, c) for p, c in zip(playing, cells, strict=True) if c]
        if any(c is None for c in cells):
            who = next(p.name for p, c in zip(playing, cells, strict=True) if c is None)
            raise IllegalAction("{name} is still in the game: the cell is a number, not empty",
                                name=who)
        if not marked:
            raise IllegalAction("a round of zeros is an exact call won at a full hand: write "
                                "'exact NAME' to say who won it")
        if len(marked) > 1:
            raise IllegalAction("every round changes exactly one player's dice; this one "
                                "changes {names}", names=" & ".join(p.name for p, _ in marked))
        player, cell = marked[0]
        if cell is not None and (cell == -1 or (cell < -1 and self._come_back(sheet))):
            return Exact(player.id, cell)
        if cell is not None and cell > 0:
            return Loss(player.id, cell)
        raise IllegalAction("a cell is 1 (a loss), −1 (an exact call won) or 0, not {cell}",
                            cell=cell)

    @staticmethod
    def _come_back(sheet: Sheet) -> bool:
        """Whether a come-back's cell (below −1) may be written: the rule is on."""
        return isinstance(sheet.rules, LiarsRules) and sheet.rules.come_back

    def notation(self, entry: Entry, sheet: Sheet) -> str:
        if isinstance(entry, Loss):
            name = quote(sheet.name_of(entry.player))
            return f"loss {name}" + (f" {entry.cell}" if entry.cell != 1 else "")
        assert isinstance(entry, Exact)
        written = "" if entry.written is None else f" {entry.written}"
        return f"exact {quote(sheet.name_of(entry.player))}{written}"

    # -- deriving ----------------------------------------------------------------------
    def derive(self, sheet: Sheet) -> Derivation:
        rules = sheet.rules
        assert isinstance(rules, LiarsRules)
        fold = Countdown(sheet, rules.start, self.count_name(rules),
                         show_out=rules.keep_eliminated)
        came_back: set[int] = set()  # the players who have used their come-back
        for index, entry in enumerate(sheet.entries):
            assert isinstance(entry, Loss | Exact)
            reason = fold.refusal(index, [entry.player]) or \
                self._refusal(entry, index, fold, rules, came_back)
            if reason is None:
                change = self._change(entry, fold, rules, came_back)
                if self._comes_back(entry, fold, rules, came_back):
                    came_back.add(entry.player)
                fold.play(index, {entry.player: change})
            else:
                fold.flag(index, reason, {entry.player: notation_cell(entry)})
        return fold.result()

    @staticmethod
    def _comes_back(entry: Loss | Exact, fold: Countdown, rules: LiarsRules,
                    came_back: set[int]) -> bool:
        """Whether this exact call won is the player's come-back, back to the start."""
        return (isinstance(entry, Exact) and rules.come_back and entry.player not in came_back
                and fold.counts[entry.player] == 1)

    @classmethod
    def _change(cls, entry: Loss | Exact, fold: Countdown, rules: LiarsRules,
                came_back: set[int]) -> int:
        have = fold.counts[entry.player]
        if isinstance(entry, Loss):
            return min(entry.cell, have)
        if cls._comes_back(entry, fold, rules, came_back):
            return 1 - rules.start
        # never above the start: an exact call won at a full hand is written 0
        return -1 if have < rules.start else 0

    def _refusal(self, entry: Loss | Exact, index: int, fold: Countdown,
                 rules: LiarsRules, came_back: set[int]) -> Message | None:
        """Why the rules do not allow this round, if they do not."""
        word = self.count_name(rules)
        one, many = ((term("die"), term("dice")) if word == "dice"
                     else (term("life"), term("lives")))
        if isinstance(entry, Loss):
            if entry.cell > 1 and rules.penalty == "one":
                return Message("a loss costs one {unit} here, not {cell} (the difference is "
                               "counted with penalty=difference)",
                               {"unit": one, "cell": entry.cell})
            return None
        left = len(fold.in_game(index))
        if not rules.calza_allowed(left):
            if rules.exact_call == "off":
                return Message("exact calls are not played here")
            return Message("exact calls are only played while three or more are in; {left} "
                           "were left", {"left": left})
        if not rules.exact_gain:
            return Message("a right exact call gives nothing back here (exact_gain=off): "
                           "enter the bidder's loss instead")
        cell = self._change(entry, fold, rules, came_back)
        if entry.written is None or entry.written == cell:
            return None
        name, have = fold.sheet.name_of(entry.player), fold.counts[entry.player]
        wrote = signed_word(entry.written)
        if cell == 0:
            return Message("{name} had all {have} {unit}: an exact call won at a full hand is "
                           "written 0, not {wrote}",
                           {"name": name, "have": have, "unit": many, "wrote": wrote})
        if cell < -1:
            return Message("{name} was on one {one} and had not come back yet: the come-back "
                           "brings back {count} {unit} and is written {cell}, not {wrote}",
                           {"name": name, "one": one, "count": -cell, "unit": many,
                            "cell": signed_word(cell), "wrote": wrote})
        if have == 1 and rules.come_back:
            return Message("{name} has come back once already: this exact call gives one back "
                           "and is written −1, not {wrote}", {"name": name, "wrote": wrote})
        return Message("{name} had {have} of {start} {unit}: the exact call gives one back and "
                       "is written −1, not {wrote}",
                       {"name": name, "have": have, "start": rules.start, "unit": many,
                        "wrote": wrote})


def notation_cell(entry: Loss | Exact) -> str:
    if isinstance(entry, Loss):
        return str(entry.cell)
    return "exact" if entry.written is None else signed_word(entry.written)


def signed_word(cell: int) -> str:
    return f"−{-cell}" if cell < 0 else str(cell)

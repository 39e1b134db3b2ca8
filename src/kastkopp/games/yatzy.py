"""The Yatzy family: Tärningspoker, Terningspoker, Yatzy, Maxi Yatzy and Yahtzee on one sheet.

Every rule set is a preset of the same game:

``yatzy``
    Scandinavian Yatzy, 15 rows: pair, two pairs, three and four of a kind score the
    matching dice; small straight 1-2-3-4-5 is 15, large 2-3-4-5-6 is 20; full house is
    the sum of its dice; Yatzy 50; a bonus of 50 for 63 or more in the upper part.
``maxi``
    Maxi Yatzy: the same with six dice (``dice=6``), which brings the Maxi rows (three
    pairs, five of a kind, full straight 1-6 = 21, villa 3+3, tower 4+2), Maxi Yatzy 100,
    and a bonus of 100 for 84 or more in the upper part.
``yahtzee``
    Official Yahtzee, 13 rows: three and four of a kind score all dice, full house 25,
    small straight (four in a row) 30, large (five in a row) 40, Yahtzee 50; bonus 35 at
    63; 100 more for every extra Yahtzee, and the forced joker rules.
``tarningspoker``
    Tärningspoker: the same 13 rows as Yahtzee, no bonus of any kind.
``terningspoker``
    Terningspoker: part 1 (the first six rounds, rows 1-6 in any order) scores
    (count - 3) x face; a part-1 sum of 0 or more earns 50. Part 2 (nine rounds) scores
    each combination by the dice that form it, doubled when made on the first throw
    (not chance); poker scores its dice plus 50; a combination not made is a dash.
    Each player's result is the total minus the average of all totals.

The turn, as every rule set tells it: roll all the dice, keep any of them and reroll the
rest up to twice (``keep 3 3 5``; a bare ``keep`` rerolls everything), then score one open
row (``score pair``). A row that does not qualify scores 0, or a dash where the rule set
says so. A game is one turn per row for each of 1 to 8 players.

Decisions where the seeds and the digest are silent, taken as players take them:

- Five (or six) alike are not a full house, and four alike are not two pairs: the two
  groups must show different faces (Tärningspoker says so for the full house, Terningspoker for
  two pairs; the Scandinavian sheets agree). Under the Yahtzee joker a Yahtzee does
  fill Full House and the straights at their full value.
- A row scores the best reading of the dice: with 6 6 5 5 1 "pair" is 12, not 10.
- Small and large straights are the exact runs 1-5 and 2-6 on the Scandinavian and
  Terningspoker sheets, and four or five in a row on the Yahtzee and Tärningspoker sheets.
- Terningspoker: the doubling is for the combination; poker's 50 is added after it
  (five sixes on the first throw: 2 x 30 + 50 = 110). Part 1 is never doubled. Upper
  rows are always written as a number (three of a face is a 0, not a dash). The part-1
  bonus is decided when part 1 is complete, since a later row can take the sum below 0;
  on the other sheets the bonus is earned as soon as the upper sum reaches the threshold.
- A dash counts as nothing in the totals; it differs from a zero on the sheet only.
- Official Yahtzee joker: a Yahtzee rolled when the Yahtzee row is already filled (with 50
  or with 0) must go in its upper row if that is open; otherwise in any open lower row
  (Full House and the straights then score full value); otherwise in any open upper row.
  The 100 bonus is paid only if the Yahtzee row holds 50. House rule ``joker_choice`` is
  Verhoeff's reading (the one behind the published optimum 254.5896): the extra Yahtzee
  may go in any open row, and scores full value in Full House and the straights only when
  its upper row is already filled.
- Keeping all the dice would roll nothing, so it is not a throw: score a row instead.
- Maxi Yatzy saves the throws a player does not use for the player's later turns
  (``saved_throws``); a turn may then have more than three throws.
  Some tables pay 50 at 75 in Maxi; that is ``bonus=50 bonus_at=75``.
- The sheet's language is the house rule ``lang`` (en, sv, da) and no preset changes it;
  row names are read in all three languages whatever it is.
- With two players, seat 0 plays white and seat 1 black (for the statistics of won games,
  as the Tärningspoker site keeps them).

The row scoring is a set of small pure functions of (sorted dice, rules, first throw), so
a solver can tabulate them: :func:`score` for one row, ``rules.rows`` for the row list.

Usage::

    >>> from kastkopp.games import load
    >>> game = load("yatzy", preset="yatzy", players=2)
    >>> state = game.new_state().resolve((3, 3, 5, 5, 5))
    >>> state.view(0)["options"]["full-house"]
    21
    >>> state = state.apply("keep 5 5 5").resolve((5, 2))
    >>> state = state.apply("score yatzy")
    >>> state.view(None)["totals"]
    [0, 0]
    >>> score("small-straight", (1, 2, 3, 3, 4), YatzyRules.make("tarningspoker"))
    30
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Literal, TypedDict

from kastkopp.dice import Faces, multisets
from kastkopp.engine import (
    ZERO_SUM_SHARE,
    Action,
    Bounds,
    Chance,
    Game,
    IllegalAction,
    Message,
    Outcome,
    OutcomeJSON,
    Parts,
    RuleError,
    Rules,
    State,
    Words,
    changed,
    ranking_by,
    register,
    rule,
)
from kastkopp.locale import marked

# --------------------------------------------------------------------------- the rows

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
FACE = {row: face for face, row in enumerate(UPPER, start=1)}

SHEETS: dict[str, tuple[str, ...]] = {
    "yatzy": (*UPPER, "pair", "two-pairs", "three-kind", "four-kind", "small-straight",
              "large-straight", "full-house", "chance", "yatzy"),
    "maxi": (*UPPER, "pair", "two-pairs", "three-pairs", "three-kind", "four-kind",
             "five-kind", "small-straight", "large-straight", "full-straight",
             "full-house", "villa", "tower", "chance", "yatzy"),
    "yahtzee": (*UPPER, "three-kind", "four-kind", "full-house", "small-straight",
                "large-straight", "yatzy", "chance"),
    "terningspoker": (*UPPER, "pair", "two-pairs", "three-kind", "small-straight",
                      "large-straight", "full-house", "four-kind", "yatzy", "chance"),
}
ALL_ROWS = tuple(dict.fromkeys(row for rows in SHEETS.values() for row in rows))

TITLES = {"yatzy": "Yatzy", "maxi": "Maxi Yatzy", "yahtzee": "Yahtzee",
          "tarningspoker": "Tärningspoker", "terningspoker": "Terningspoker"}

DASH: Literal["-"] = "-"
Cell = int | Literal["-"] | None  # None: open; "-": a combination not made

# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class YatzyRules(Rules):
    sheet: str = rule("yatzy", "which rows, in which order: yatzy (15 rows, 20 with six dice), "
                      "yahtzee (13) or terningspoker (15)", choices=("yatzy", "yahtzee",
                                                                     "terningspoker"))
    dice: int = rule(5, "number of dice (6: Maxi Yatzy)", choices=(5, 6))
    throws: int = rule(3, "throws per turn, the first included", min=1, max=5)
    saved_throws: bool = rule(False, "throws not used are saved for the player's later turns "
                              "(Maxi Yatzy)")
    order: str = rule("free", "free: any open row; parts: the upper part first; "
                      "top-down: rows filled top to bottom",
                      choices=("free", "parts", "top-down"))
    upper: str = rule("sum", "upper rows score: sum (of that face) or three ((count - 3) x "
                      "face)", choices=("sum", "three"))
    bonus: int = rule(50, "bonus for the upper part (0: none)", min=0, max=1000)
    bonus_at: int = rule(63, "upper sum that earns the bonus", min=-200, max=200)
    kinds: str = rule("matching", "three/four of a kind score the matching dice or all dice",
                      choices=("matching", "all"))
    small_straight: int = rule(15, "what the small straight scores (0: the sum of its dice)",
                               min=0, max=200)
    large_straight: int = rule(20, "what the large straight scores (0: the sum of its dice)",
                               min=0, max=200)
    full_straight: int = rule(21, "what the full straight 1-6 scores with six dice (0: its "
                              "sum)", min=0, max=200)
    full_house: int = rule(0, "what the full house scores (0: the sum of its dice)",
                           min=0, max=200)
    yatzy_score: int = rule(50, "what Yatzy (all dice alike) scores", min=0, max=1000)
    yatzy_adds_dice: bool = rule(False, "Yatzy also scores its dice (Terningspoker's poker: "
                                 "the dice + 50)")
    first_throw_double: bool = rule(False, "a lower combination (not chance) made on the "
                                    "first throw scores double")
    misses: str = rule("zero", "a row not made is written as a zero or a dash",
                       choices=("zero", "dash"))
    yatzy_bonus: int = rule(0, "bonus for every extra Yatzy once the Yatzy row holds a score",
                            min=0, max=1000)
    joker: bool = rule(False, "official Yahtzee joker rules for an extra Yahtzee")
    joker_choice: bool = rule(False, "joker without the forced row: any open row, full value "
                              "once the upper row of its face is filled (Verhoeff)")
    result: str = rule("total", "the result: the total, or the total minus the average of all "
                       "players", choices=("total", "average"))
    lang: str = rule("en", "language of the score sheet", choices=("en", "sv", "da"))

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "yatzy": {},
        "maxi": {"dice": 6, "bonus": 100, "bonus_at": 84, "yatzy_score": 100,
                 "saved_throws": True},
        "yahtzee": {"sheet": "yahtzee", "bonus": 35, "kinds": "all", "small_straight": 30,
                    "large_straight": 40, "full_house": 25, "yatzy_bonus": 100,
                    "joker": True},
        "tarningspoker": {"sheet": "yahtzee", "bonus": 0, "kinds": "all",
                          "small_straight": 30, "large_straight": 40, "full_house": 25},
        "terningspoker": {"sheet": "terningspoker", "order": "parts", "upper": "three",
                          "bonus_at": 0, "small_straight": 0, "large_straight": 0,
                          "yatzy_adds_dice": True, "first_throw_double": True,
                          "misses": "dash", "result": "average"},
    }
    PRESET_HELP: ClassVar[dict[str, str]] = {
        "yatzy": marked("Scandinavian Yatzy: 15 rows, bonus 50 at 63"),
        "maxi": marked("Maxi Yatzy: six dice, 20 rows, bonus 100 at 84, Maxi Yatzy 100, "
                       "unused throws saved"),
        "yahtzee": marked("official Yahtzee: bonus 35 at 63, 100 per extra Yahtzee, jokers"),
        "tarningspoker": marked("Tärningspoker (the Swedish rules): 13 rows, no bonus"),
        "terningspoker": marked("Terningspoker (the Danish rules): part 1 against three, "
                                "first throw doubles, poker +50, dashes, result against "
                                "the average"),
    }

    @property
    def sheet_name(self) -> str:
        """The sheet played: the Yatzy sheet with six dice is Maxi Yatzy's."""
        return "maxi" if self.sheet == "yatzy" and self.dice == 6 else self.sheet

    @property
    def rows(self) -> tuple[str, ...]:
        """The rows of this sheet, top to bottom."""
        return SHEETS[self.sheet_name]

    @property
    def runs(self) -> bool:
        """Straights are runs (four/five in a row) rather than the exact 1-5 and 2-6."""
        return self.sheet == "yahtzee"

    def bonus_earned(self, upper_sum: int, upper_complete: bool) -> bool:
        """Whether the upper part earns its bonus (decided early only if it cannot drop)."""
        if not self.bonus or upper_sum < self.bonus_at:
            return False
        return upper_complete or self.upper == "sum"


# --------------------------------------------------------------------------- scoring


def _counts(dice: Faces) -> list[int]:
    counts = [0] * 7
    for face in dice:
        counts[face] += 1
    return counts


def _groups(counts: Sequence[int], sizes: tuple[int, ...]) -> int | None:
    """The best sum of groups of the given sizes showing different faces (two pairs: 2, 2)."""
    best = None
    for faces in itertools.permutations(range(1, 7), len(sizes)):
        if all(counts[f] >= n for f, n in zip(faces, sizes, strict=True)):
            total = sum(f * n for f, n in zip(faces, sizes, strict=True))
            best = total if best is None else max(best, total)
    return best


def _straight(row: str, counts: Sequence[int], rules: YatzyRules) -> int | None:
    """Small, large or full straight: the run it needs, scored fixed or by its dice."""
    if row == "full-straight":
        return (rules.full_straight or 21) if all(counts[1:7]) else None
    length = 4 if rules.runs and row == "small-straight" else 5
    if rules.runs:  # any run of that length; the highest one counts its dice
        tops = [t for t in range(length, 7) if all(counts[t - length + 1:t + 1])]
    else:  # exactly 1-5 or 2-6
        top = 5 if row == "small-straight" else 6
        tops = [top] if all(counts[top - 4:top + 1]) else []
    if not tops:
        return None
    fixed = rules.small_straight if row == "small-straight" else rules.large_straight
    return fixed or sum(range(tops[-1] - length + 1, tops[-1] + 1))


def _base(row: str, dice: Faces, rules: YatzyRules, joker: bool) -> int | None:
    """What the dice are worth in ``row`` before doubling; ``None`` if not made."""
    counts = _counts(dice)
    if row in FACE:
        face = FACE[row]
        if rules.upper == "three":
            return (counts[face] - 3) * face
        return counts[face] * face if counts[face] else None
    if row == "chance":
        return sum(dice)
    if joker and row in ("full-house", "small-straight", "large-straight"):
        fixed = {"full-house": rules.full_house, "small-straight": rules.small_straight,
                 "large-straight": rules.large_straight}[row]
        return fixed or sum(dice)
    if row in ("small-straight", "large-straight", "full-straight"):
        return _straight(row, counts, rules)
    if row == "yatzy":
        if counts[dice[0]] != len(dice):
            return None
        return sum(dice) if rules.yatzy_adds_dice else rules.yatzy_score
    kind = {"three-kind": 3, "four-kind": 4, "five-kind": 5}.get(row)
    if kind is not None:
        faces = [f for f in range(1, 7) if counts[f] >= kind]
        if not faces:
            return None
        return sum(dice) if rules.kinds == "all" else kind * faces[-1]
    sizes = {"pair": (2,), "two-pairs": (2, 2), "three-pairs": (2, 2, 2),
             "full-house": (3, 2), "villa": (3, 3), "tower": (4, 2)}[row]
    best = _groups(counts, sizes)
    if best is None or row != "full-house" or not rules.full_house:
        return best
    return rules.full_house


@lru_cache(maxsize=65536)
def score(row: str, dice: Faces, rules: YatzyRules, first_throw: bool = False,
          joker: bool = False) -> int | None:
    """What ``row`` scores for ``dice`` under ``rules``; ``None`` when it is not made.

    ``first_throw``: the dice are the turn's first throw (Terningspoker doubles).
    ``joker``: the official Yahtzee joker applies (full house and straights score full).

    >>> rules = YatzyRules.make("terningspoker")
    >>> score("pair", (3, 3, 1, 2, 5), rules), score("sixes", (6, 6, 6, 6, 1), rules)
    (6, 6)
    >>> score("yatzy", (6, 6, 6, 6, 6), rules, first_throw=True)
    110
    >>> score("four-kind", (4, 4, 4, 1, 2), rules) is None
    True
    """
    if row not in rules.rows:
        raise RuleError("'{row}' is not a row of this sheet (rows: {rows})", row=row,
                        rows=row_names(rules.rows, rules.sheet_name))
    dice = tuple(sorted(dice))
    if len(dice) != rules.dice or any(not 1 <= f <= 6 for f in dice):
        raise RuleError("a throw is {count} dice showing 1 to 6, not {dice}", count=rules.dice,
                        dice=str(list(dice)))
    points = _base(row, dice, rules, joker)
    if points is None:
        return None
    lower = row not in FACE and row != "chance"
    if lower and first_throw and rules.first_throw_double:
        points *= 2
    if row == "yatzy" and rules.yatzy_adds_dice:
        points += rules.yatzy_score
    return points


def mark(points: int | None, rules: YatzyRules) -> int | Literal["-"]:
    """How a score is written on the sheet: the points, or a zero or dash when not made."""
    if points is not None:
        return points
    return DASH if rules.misses == "dash" else 0


@lru_cache(maxsize=256)
def best_score(row: str, rules: YatzyRules) -> int:
    """The most ``row`` can ever score under ``rules`` (a dash counts as 0)."""
    return max(score(row, hand, rules, first, False) or 0
               for hand, _ in multisets(rules.dice) for first in (False, True))


def is_yatzy(dice: Faces) -> bool:
    return len(set(dice)) == 1


# --------------------------------------------------------------------------- the turn


def joker_applies(rules: YatzyRules, cells: Mapping[str, Cell], dice: Faces) -> bool:
    """An extra Yahtzee under the joker rules: all dice alike, the Yatzy row already filled."""
    if not (rules.joker and bool(dice) and is_yatzy(dice) and cells["yatzy"] is not None):
        return False
    return not rules.joker_choice or cells[UPPER[dice[0] - 1]] is not None


def extra_yatzy(rules: YatzyRules, cells: Mapping[str, Cell], dice: Faces) -> bool:
    """Whether these dice earn the extra-Yatzy bonus: the Yatzy row already holds a score."""
    filled = cells["yatzy"]
    return (rules.yatzy_bonus > 0 and bool(dice) and is_yatzy(dice)
            and isinstance(filled, int) and filled > 0)


def playable_rows(rules: YatzyRules, cells: Mapping[str, Cell], dice: Faces) -> list[str]:
    """The rows a player with this sheet (row -> cell) may write these dice in."""
    rows = [row for row in rules.rows if cells[row] is None]
    if rules.order == "top-down":
        rows = rows[:1]
    elif rules.order == "parts":
        rows = [r for r in rows if r in FACE] or rows
    if joker_applies(rules, cells, dice) and not rules.joker_choice:
        own = UPPER[dice[0] - 1]
        lower = [r for r in rows if r not in FACE]
        rows = [own] if own in rows else (lower or rows)
    return rows


# --------------------------------------------------------------------------- notation

_LABELS: dict[str, dict[str, str]] = {
    "en": {"ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours",
           "fives": "Fives", "sixes": "Sixes", "pair": "One pair", "two-pairs": "Two pairs",
           "three-pairs": "Three pairs", "three-kind": "Three of a kind",
           "four-kind": "Four of a kind", "five-kind": "Five of a kind",
           "small-straight": "Small straight", "large-straight": "Large straight",
           "full-straight": "Full straight", "full-house": "Full house", "villa": "Villa",
           "tower": "Tower", "chance": "Chance", "yatzy": "Yatzy",
           "upper": "Sum", "bonus": "Bonus", "extra": "Yahtzee bonus", "total": "Total",
           "average": "Average", "result": "Result"},
    "sv": {"ones": "Ettor", "twos": "Tvåor", "threes": "Treor", "fours": "Fyror",
           "fives": "Femmor", "sixes": "Sexor", "pair": "Ett par", "two-pairs": "Två par",
           "three-pairs": "Tre par", "three-kind": "Tretal", "four-kind": "Fyrtal",
           "five-kind": "Femtal", "small-straight": "Liten stege",
           "large-straight": "Stor stege", "full-straight": "Hel stege", "full-house": "Kåk",
           "villa": "Hus", "tower": "Torn", "chance": "Chans", "yatzy": "Yatzy",
           "upper": "Summa", "bonus": "Bonus", "extra": "Extra yatzy", "total": "Totalt",
           "average": "Medel", "result": "Resultat"},
    "da": {"ones": "Enere", "twos": "Toere", "threes": "Treere", "fours": "Firere",
           "fives": "Femmere", "sixes": "Seksere", "pair": "Et par", "two-pairs": "To par",
           "three-pairs": "Tre par", "three-kind": "Tre ens", "four-kind": "Fire ens",
           "five-kind": "Fem ens", "small-straight": "Lille straight",
           "large-straight": "Stor straight", "full-straight": "Royal",
           "full-house": "Fuldt hus", "villa": "Villa", "tower": "Tårn", "chance": "Chance",
           "yatzy": "Yatzy", "upper": "Sum", "bonus": "Bonus", "extra": "Ekstra yatzy",
           "total": "I alt", "average": "Gennemsnit", "result": "Resultat"},
}
# The names each sheet's own players write (Tärningspoker is Swedish, Terningspoker Danish).
_SHEET_LABELS: dict[tuple[str, str], dict[str, str]] = {
    ("maxi", "en"): {"yatzy": "Maxi Yatzy"},
    ("maxi", "sv"): {"yatzy": "Maxi Yatzy"},
    ("maxi", "da"): {"yatzy": "Maxi Yatzy"},
    ("yahtzee", "en"): {"yatzy": "Yahtzee", "extra": "Yahtzee bonus"},
    ("yahtzee", "sv"): {"three-kind": "Triss", "full-house": "Fullt hus", "yatzy": "Femtal"},
    ("terningspoker", "en"): {"yatzy": "Poker"},
    ("terningspoker", "sv"): {"yatzy": "Poker"},
    ("terningspoker", "da"): {"pair": "Par", "three-kind": "Tre",
                              "small-straight": "Lille lige", "large-straight": "Stor lige",
                              "yatzy": "Poker"},
}
_TEXT: dict[str, dict[str, str]] = {
    "en": {"round": "round", "of": "of", "throw": "throw", "dice": "Dice", "kept": "Kept",
           "scored": "scored", "in": "in", "with": "with", "won": "won", "tie": "tied",
           "white": "white", "black": "black", "to_move": "to move"},
    "sv": {"round": "omgång", "of": "av", "throw": "kast", "dice": "Tärningar",
           "kept": "Sparade", "scored": "fick", "in": "på", "with": "med", "won": "vann",
           "tie": "delade segern", "white": "vit", "black": "svart", "to_move": "i tur"},
    "da": {"round": "runde", "of": "af", "throw": "kast", "dice": "Terninger",
           "kept": "Holdt", "scored": "fik", "in": "i", "with": "med", "won": "vandt",
           "tie": "delte sejren", "white": "hvid", "black": "sort", "to_move": "i tur"},
}


def label(row: str, lang: str = "en", sheet: str = "yatzy") -> str:
    """The name of a row (or of ``upper``, ``bonus``, ``total`` ...) on a sheet in a language."""
    return _SHEET_LABELS.get((sheet, lang), {}).get(row) or _LABELS[lang][row]


def row_name(row: str, sheet: str = "yatzy") -> Words:
    """A row as a message names it: its key in English, its sheet's name in the others."""
    return Words({"en": row, **{lang: label(row, lang, sheet) if row in _LABELS[lang] else row
                                for lang in ("sv", "da")}})


def row_names(rows: Sequence[str], sheet: str = "yatzy") -> list[Words]:
    return [row_name(row, sheet) for row in rows]


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[-_.:]", " ", text.strip().lower()).split())


_ALIASES: dict[str, str] = {}
for _row in ALL_ROWS:
    _ALIASES[_normal(_row)] = _row
for _names in [*_LABELS.values(), *_SHEET_LABELS.values()]:
    for _row, _name in _names.items():
        if _row in ALL_ROWS:
            _ALIASES.setdefault(_normal(_name), _row)
for _phrase, _row in {
    "1": "ones", "aces": "ones", "2": "twos", "3": "threes", "4": "fours", "5": "fives",
    "6": "sixes", "par": "pair", "1 pair": "pair", "2 pairs": "two-pairs", "tvåpar": "two-pairs",
    "2 par": "two-pairs", "3 pairs": "three-pairs", "3 par": "three-pairs",
    "three of a kind": "three-kind", "3 of a kind": "three-kind", "triss": "three-kind",
    "tre": "three-kind", "4 of a kind": "four-kind", "fire": "four-kind",
    "5 of a kind": "five-kind", "small": "small-straight", "liten": "small-straight",
    "lille": "small-straight", "large": "large-straight", "stor": "large-straight",
    "fullt hus": "full-house", "chans": "chance", "yahtzee": "yatzy", "poker": "yatzy",
    "femtal": "yatzy", "maxi yatzy": "yatzy", "maxiyatzy": "yatzy",
}.items():
    _ALIASES.setdefault(_phrase, _row)


@lru_cache(maxsize=64)
def _own_names(sheet: str, rows: tuple[str, ...]) -> dict[str, str]:
    """The names of a sheet's rows in every language (built once: a replay parses many)."""
    return {_normal(label(row, lang, sheet)): row
            for lang in ("en", "sv", "da") for row in reversed(rows)}


def parse_row(text: str, rules: YatzyRules | None = None) -> str:
    """A row from its key or its name in English, Swedish or Danish (``kåk``, ``to par``).

    The names on the given rules' own sheet come first: ``femtal`` is five of a kind in
    Maxi Yatzy but the all-alike row on a Tärningspoker sheet.
    """
    word = _normal(text)
    if rules is not None:
        own = _own_names(rules.sheet_name, rules.rows)
        if word in own:
            return own[word]
    if word in _ALIASES:
        return _ALIASES[word]
    rows = rules.rows if rules is not None else ALL_ROWS
    sheet = rules.sheet_name if rules is not None else "yatzy"
    raise IllegalAction("'{text}' is not a row (rows: {rows})", text=text.strip(),
                        rows=row_names(rows, sheet))


def row_words(rules: YatzyRules) -> dict[str, str]:
    """Every row name :func:`parse_row` reads for a sheet under ``rules``, written as it
    compares them (lower case, ``-_.:`` as spaces), each with the row it names."""
    return {**_ALIASES, **_own_names(rules.sheet_name, rules.rows)}


def parse_dice(text: str) -> Faces:
    """Dice as players write them: ``3 3 5``, ``3,3,5`` or ``335``."""
    digits = re.sub(r"[\s,;+-]", "", text)
    if not digits.isdigit():
        raise IllegalAction("'{text}' are not dice: write them like 3 3 5", text=text.strip())
    faces = tuple(sorted(int(d) for d in digits))
    wrong = [f for f in faces if not 1 <= f <= 6]
    if wrong:
        raise IllegalAction("a die shows 1 to 6, not {face}", face=wrong[0])
    return faces


@dataclass(frozen=True)
class Keep(Action):
    """Keep these dice and reroll the rest (``keep`` with none rerolls all)."""

    dice: Faces = ()

    def __str__(self) -> str:
        return " ".join(["keep", *map(str, self.dice)])


@dataclass(frozen=True)
class Score(Action):
    """Write the dice in a row and end the turn."""

    row: str

    def __str__(self) -> str:
        return f"score {self.row}"


_KEEP_WORDS = ("keep", "hold", "spara", "behåll", "behold", "gem")
_REROLL_WORDS = ("reroll", "roll", "slå", "kast")
_SCORE_WORDS = ("score", "write", "skriv", "sätt")


def parse_action(text: str, rules: YatzyRules | None = None) -> Action:
    """Read ``keep 3 3 5``, ``keep`` (reroll all) or ``score pair`` (any row name)."""
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    if word in _KEEP_WORDS or (word in _REROLL_WORDS and not rest.strip()):
        faces = parse_dice(rest) if rest.strip() else ()
        dice = rules.dice if rules is not None else 6
        if len(faces) > dice:
            raise IllegalAction("there are only {dice} dice to keep", dice=dice)
        return Keep(faces)
    if word in _SCORE_WORDS and rest.strip():
        return Score(parse_row(rest, rules))
    raise IllegalAction("cannot read '{text}': say 'keep 3 3 5' (the rest is rerolled), "
                        "'keep' (reroll all) or 'score pair'", text=text.strip())


def sub_multisets(dice: Faces) -> list[Faces]:
    """Every selection of dice that can be kept from ``dice``, smallest first."""
    counts = Counter(dice)
    faces = sorted(counts)
    keeps = {tuple(f for f, n in zip(faces, picks, strict=True) for _ in range(n))
             for picks in itertools.product(*(range(counts[f] + 1) for f in faces))}
    return sorted(keeps, key=lambda k: (len(k), k))


# --------------------------------------------------------------------------- state

ROLL, CHOOSE, OVER = "roll", "choose", "over"


class YatzyBonusRule(TypedDict):
    amount: int
    at: int  # the upper sum that earns it


class YatzyLast(TypedDict):
    """The last row written: by whom, with which dice, for what."""

    seat: int
    row: str
    dice: list[int]
    cell: Cell


class _YatzyView(TypedDict):
    game: Literal["yatzy"]
    seat: int | None
    phase: str
    to_move: int | None
    player: int
    round: int
    rounds: int
    throw: int
    throws: int  # this turn's, saved throws included
    saved: list[int]
    dice: list[int] | None
    kept: list[int] | None
    title: str
    sheet: str
    lang: str  # the sheet's language (the terminal puts the reader's here)
    rows: list[str]
    sheets: list[list[Cell]]
    upper: list[int]
    bonus: list[int]
    extras: list[int]
    extra_points: list[int]
    totals: list[int]
    bonus_rule: YatzyBonusRule | None
    last: YatzyLast | None


class YatzyView(_YatzyView, total=False):
    """What a seat at a Yatzy table sees (:meth:`YatzyState.view`)."""

    colours: list[str]  # two players: white and black
    options: dict[str, int | Literal["-"]]  # choosing a row: what each open row would score
    average: float  # scoring against the average
    results: list[float]
    outcome: OutcomeJSON


@dataclass(frozen=True)
class YatzyState(State[YatzyView]):
    game: Yatzy
    sheets: tuple[tuple[Cell, ...], ...]
    extras: tuple[int, ...]  # extra Yatzy bonuses paid to each player
    saved: tuple[int, ...]  # throws each player has saved for later turns
    player: int = 0
    throw: int = 0  # throws made this turn
    dice: Faces = ()  # the dice after the last throw, sorted; () while rolling
    kept: Faces | None = None  # the dice kept while the rest are being rerolled
    last: tuple[int, str, Faces, Cell] | None = None  # the last row written

    @property
    def rules(self) -> YatzyRules:
        return self.game.rules

    @property
    def phase(self) -> str:
        if all(cell is not None for sheet in self.sheets for cell in sheet):
            return OVER
        return ROLL if self.throw == 0 or self.kept is not None else CHOOSE

    # -- the sheet -----------------------------------------------------------------
    def cells(self, seat: int) -> dict[str, Cell]:
        return dict(zip(self.rules.rows, self.sheets[seat], strict=True))

    # every sheet starts with the six upper rows
    def upper_sum(self, seat: int) -> int:
        return sum(c for c in self.sheets[seat][:6] if isinstance(c, int))

    def upper_complete(self, seat: int) -> bool:
        return None not in self.sheets[seat][:6]

    def bonus(self, seat: int) -> int:
        earned = self.rules.bonus_earned(self.upper_sum(seat), self.upper_complete(seat))
        return self.rules.bonus if earned else 0

    def total(self, seat: int) -> int:
        written = sum(c for c in self.sheets[seat] if isinstance(c, int))
        return written + self.bonus(seat) + self.extras[seat] * self.rules.yatzy_bonus

    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(s) for s in range(self.game.players))

    def results(self) -> tuple[float, ...]:
        """Each total minus the average of all totals (Terningspoker's result)."""
        totals = self.totals()
        average = sum(totals) / len(totals)
        return tuple(t - average for t in totals)

    def open_rows(self, seat: int) -> list[str]:
        return [r for r, c in self.cells(seat).items() if c is None]

    def throws(self) -> int:
        """The throws the player to move has this turn (with any saved ones)."""
        return self.rules.throws + self.saved[self.player]

    def joker(self) -> bool:
        return joker_applies(self.rules, self.cells(self.player), self.dice)

    def playable_rows(self) -> list[str]:
        """The rows the player to move may write in now."""
        return playable_rows(self.rules, self.cells(self.player), self.dice)

    def options(self) -> dict[str, int | Literal["-"]]:
        """What each playable row would score with the dice in hand."""
        joker = self.joker()
        return {row: mark(score(row, self.dice, self.rules, self.throw == 1, joker),
                          self.rules) for row in self.playable_rows()}

    # -- protocol ------------------------------------------------------------------
    def to_move(self) -> int | None:
        return self.player if self.phase == CHOOSE else None

    def chance(self) -> Chance | None:
        if self.phase != ROLL:
            return None
        return Chance(seat=self.player, count=self.rules.dice - len(self.kept or ()))

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        if self.phase != CHOOSE:
            return []
        actions: list[Action] = [Score(row) for row in self.playable_rows()]
        if self.throw < self.throws():
            actions += [Keep(k) for k in sub_multisets(self.dice) if len(k) < len(self.dice)]
        return actions

    def default_action(self) -> Action:
        """Out of time, the turn ends in the row that loses least: the one whose score
        now falls shortest of the most it could ever hold (ties: the higher score now,
        then the first on the sheet)."""
        options = self.options()
        if self.phase != CHOOSE or not options:
            return super().default_action()

        def loss(row: str) -> tuple[int, int]:
            now = options[row]
            points = now if isinstance(now, int) else 0
            return best_score(row, self.rules) - points, -points

        return Score(min(options, key=loss))

    def _apply(self, action: Action) -> YatzyState:
        if isinstance(action, Keep):
            return self._keep(action.dice)
        if isinstance(action, Score):
            return self._score(action.row)
        raise IllegalAction("'{action}' is not a Yatzy action: keep dice or score a row",
                            action=str(action))

    def _keep(self, keep: Faces) -> YatzyState:
        if self.throw >= self.throws():
            raise IllegalAction("you have thrown {throws} times; score a row ({playable})",
                                throws=self.throws(), playable=self._playable_names())
        have = Counter(self.dice)
        missing = Counter(keep) - have
        if missing:
            raise IllegalAction("you cannot keep {keep}: your dice are {dice} (no {face} to "
                                "spare)", keep=" ".join(map(str, keep)),
                                dice=" ".join(map(str, self.dice)), face=min(missing))
        if len(keep) == len(self.dice):
            raise IllegalAction("keeping all {count} dice rolls nothing; keep fewer or score a "
                                "row ({playable})", count=len(keep),
                                playable=self._playable_names())
        return changed(self, kept=tuple(sorted(keep)), dice=())

    def _playable_names(self) -> list[Words]:
        # named only for a refusal: a keep is the commonest move of every solve and replay
        return row_names(self.playable_rows(), self.rules.sheet_name)

    def _resolve(self, faces: Faces) -> YatzyState:
        dice = tuple(sorted((*(self.kept or ()), *faces)))
        return changed(self, dice=dice, kept=None, throw=self.throw + 1)

    def _score(self, row: str) -> YatzyState:
        rules, seat = self.rules, self.player
        name = rules.sheet_name
        if row not in rules.rows:
            raise IllegalAction("there is no {row} row on this sheet (rows: {rows})",
                                row=row_name(row, name), rows=row_names(rules.rows, name))
        cells = self.cells(seat)
        playable = self.playable_rows()
        if cells[row] is not None:
            raise IllegalAction("{row} is already filled ({cell}); open: {playable}",
                                row=row_name(row, name), cell=cells[row],
                                playable=row_names(playable, name))
        if row not in playable:
            raise IllegalAction("{why}: score {playable}", why=self._why_not(row),
                                playable=row_names(playable, name))
        points = score(row, self.dice, rules, self.throw == 1, self.joker())
        cell = mark(points, rules)
        extras = self.extras
        if extra_yatzy(rules, cells, self.dice):
            extras = tuple(n + (s == seat) for s, n in enumerate(extras))
        saved = self.saved
        if rules.saved_throws:
            saved = tuple(self.throws() - self.throw if s == seat else n
                          for s, n in enumerate(saved))
        sheet = tuple(cell if r == row else c for r, c in cells.items())
        sheets = tuple(sheet if s == seat else other for s, other in enumerate(self.sheets))
        return changed(self, sheets=sheets, extras=extras, saved=saved, throw=0, dice=(),
                       kept=None,
                       player=(seat + 1) % self.game.players,
                       last=(seat, row, self.dice, cell))

    def _why_not(self, row: str) -> Message:
        if self.joker() and self.rules.order == "free":
            return Message("a Yahtzee of {face}s goes in its upper row, else a lower row",
                           {"face": self.dice[0]})
        if self.rules.order == "top-down":
            return Message("the rows are filled top to bottom")
        return Message("the upper part is filled first")

    def outcome(self) -> Outcome:
        n = self.game.players
        totals = self.totals()
        ranking = ranking_by(totals)
        if self.rules.result == "average":
            payoffs = self.results()
        else:
            winners = ranking[0]
            share = 1.0 / len(winners) if len(winners) < n else 0.0
            loss = -1.0 / (n - len(winners)) if len(winners) < n else 0.0
            payoffs = tuple(share if s in winners else loss for s in range(n))
        return Outcome(ranking=ranking, scores=tuple(float(t) for t in totals),
                       payoffs=tuple(float(p) for p in payoffs))

    def view(self, seat: int | None) -> YatzyView:
        n = self.game.players
        phase = self.phase
        totals = self.totals()
        view: YatzyView = {
            "game": "yatzy",
            "seat": seat,
            "phase": phase,
            "to_move": self.to_move(),
            "player": self.player,
            "round": min(len(self.rules.rows), len(self.rules.rows)
                         - len(self.open_rows(self.player)) + (phase != OVER)),
            "rounds": len(self.rules.rows),
            "throw": self.throw,
            "throws": self.throws(),
            "saved": list(self.saved),
            "dice": list(self.dice) if self.dice else None,
            "kept": None if self.kept is None else list(self.kept),
            "title": TITLES.get(self.game.preset or "", TITLES[self.rules.sheet_name]),
            "sheet": self.rules.sheet_name,
            "lang": self.rules.lang,
            "rows": list(self.rules.rows),
            "sheets": [list(s) for s in self.sheets],
            "upper": [self.upper_sum(s) for s in range(n)],
            "bonus": [self.bonus(s) for s in range(n)],
            "extras": list(self.extras),
            "extra_points": [count * self.rules.yatzy_bonus for count in self.extras],
            "totals": list(totals),
            "bonus_rule": {"amount": self.rules.bonus, "at": self.rules.bonus_at}
            if self.rules.bonus else None,
            "last": None if self.last is None else {
                "seat": self.last[0], "row": self.last[1], "dice": list(self.last[2]),
                "cell": self.last[3]},
        }
        if n == 2:
            view["colours"] = ["white", "black"]
        if phase == CHOOSE:
            view["options"] = self.options()
        if self.rules.result == "average":
            view["average"] = sum(totals) / n
            view["results"] = [t - view["average"] for t in totals]
        if phase == OVER:
            view["outcome"] = self.outcome().to_json()
        return view


# --------------------------------------------------------------------------- the game


@register
@dataclass(frozen=True)
class Yatzy(Game[YatzyView]):
    """The Yatzy family for 1 to 8 players: one sheet each, one row per turn."""
    action_words: ClassVar[dict[str, dict[str, str]]] = {
        "sv": {"keep": "spara", "score": "skriv"}, "da": {"keep": "behold", "score": "skriv"}}

    rules: YatzyRules
    name: ClassVar[str] = "yatzy"
    title: ClassVar[str] = "Yatzy"
    summary: ClassVar[str] = marked("five dice, three throws, one row of the score sheet per turn: "
                                    "Yatzy, Maxi Yatzy, Yahtzee, Tärningspoker, Terningspoker")
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 2
    hidden_information: ClassVar[bool] = False
    rules_class: ClassVar[type[Rules]] = YatzyRules
    parts: ClassVar[Parts] = Parts(
        strategy=("kastkopp.strategy.yatzy", "kastkopp.strategy.yatzy_optimal",
                  "kastkopp.strategy.yatzy_odds", "kastkopp.strategy.yatzy_towin"),
        review=("kastkopp.strategy.yatzy_review",), sheet=("kastkopp.sheets.yatzy",),
        commands=("kastkopp.cli.solvers.yatzy",), about="about:yatzy",
        renderer="games/yatzy.js")

    @classmethod
    def conformance_configs(cls) -> list[tuple[str | None, int]]:
        # the default rules are the yatzy preset, so it is not played twice; the player
        # count changes nothing that differs between presets, so solitaire is played once
        return [("yatzy", 1), *((p, 2) for p in YatzyRules.PRESETS)]

    def new_state(self) -> YatzyState:
        n = self.players
        return YatzyState(game=self, sheets=((None,) * len(self.rules.rows),) * n,
                          extras=(0,) * n, saved=(0,) * n)

    @classmethod
    def page_words(cls, lang: str) -> dict[str, str]:
        """Each sheet's rows as its players name them (``row:maxi:yatzy`` → ``Maxi Yatzy``)."""
        sums = ("upper", "bonus", "extra", "total", "average", "result")
        return {f"row:{sheet}:{row}": label(row, lang, sheet)
                for sheet in TITLES for row in (*ALL_ROWS, *sums)}

    def bounds(self) -> Bounds:
        # the winners share +1, the others -1; against the average there is no fixed range.
        # A turn is its keeps and one row, a keep for each throw after the first, and saved
        # throws are throws not used before: at most rounds x throws actions a player.
        length = self.players * len(self.rules.rows) * self.rules.throws
        utility = ZERO_SUM_SHARE.utility if self.rules.result != "average" else None
        return Bounds(utility=utility, length=length)

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.rules)

    def told_action(self, text: str, lang: str | None) -> str:
        """``score full-house`` as ``skriv kåk``: a row by its name on the sheet."""
        verb, _, row = text.partition(" ")
        if verb != "score" or lang not in ("sv", "da") or row not in self.rules.rows:
            return super().told_action(text, lang)
        name = label(row, lang, self.rules.sheet_name).lower()
        return f"{self.action_words[lang]['score']} {name}"

    def all_actions(self) -> list[Action]:
        keeps = [Keep(k) for size in range(self.rules.dice)
                 for k, _ in multisets(size)]
        return [*(Score(r) for r in self.rules.rows), *keeps]

    def colour(self, seat: int) -> str | None:
        """White and black for the two seats of a two-player game (for statistics)."""
        return ("white", "black")[seat] if self.players == 2 else None

    def render(self, view: YatzyView, names: Sequence[str]) -> str:
        return render_sheet(view, names)


# --------------------------------------------------------------------------- checking a sheet


def check_row(ruleset: str, row: str, dice: str, first_throw: bool = False,
              **rules: Any) -> dict[str, Any]:
    """What a row scores for dice under a rule set, for checking a paper sheet.

    >>> check_row("terningspoker", "to par", "2 2 6 6 1", first_throw=True)["written"]
    32
    >>> check_row("yatzy", "kåk", "55555")["written"]
    0
    """
    rule_set = YatzyRules.make(ruleset, **rules)
    key = parse_row(row, rule_set)
    faces = parse_dice(dice)
    if len(faces) != rule_set.dice:
        raise IllegalAction("{game} is played with {count} dice, not {got}",
                            game=TITLES[ruleset], count=rule_set.dice, got=len(faces))
    if key not in rule_set.rows:
        raise IllegalAction("{game} has no {row} row (rows: {rows})", game=TITLES[ruleset],
                            row=row_name(key, rule_set.sheet_name),
                            rows=row_names(rule_set.rows, rule_set.sheet_name))
    points = score(key, faces, rule_set, first_throw)
    return {"ruleset": ruleset, "title": TITLES[ruleset], "row": key,
            "label": label(key, rule_set.lang, rule_set.sheet_name), "dice": list(faces),
            "first_throw": first_throw, "made": points is not None,
            "points": points, "written": mark(points, rule_set)}


# --------------------------------------------------------------------------- a turn's odds


@dataclass(frozen=True)
class Throws:
    """The chance structure of one turn with ``dice`` dice, for odds, bots and solvers.

    ``hands`` are the sorted throws, ``keeps`` every selection of fewer than all dice;
    ``outcomes[k]`` lists (hand index, probability) after keeping ``keeps[k]`` and
    rolling the rest, ``choices[h]`` the keeps that hand ``h`` allows, ``first[h]`` the
    chance of hand ``h`` on a full throw.
    """

    dice: int
    hands: tuple[Faces, ...]
    keeps: tuple[Faces, ...]
    outcomes: tuple[tuple[tuple[int, float], ...], ...]
    choices: tuple[tuple[int, ...], ...]
    first: tuple[float, ...]

    @classmethod
    @lru_cache(maxsize=4)
    def of(cls, dice: int) -> Throws:
        hands = tuple(h for h, _ in multisets(dice))
        where = {h: i for i, h in enumerate(hands)}
        keeps = tuple(k for size in range(dice) for k, _ in multisets(size))
        keep_at = {k: i for i, k in enumerate(keeps)}
        outcomes = tuple(tuple((where[tuple(sorted(k + m))], float(p))
                               for m, p in multisets(dice - len(k))) for k in keeps)
        choices = tuple(tuple(keep_at[k] for k in sub_multisets(h) if len(k) < dice)
                        for h in hands)
        first = tuple(float(p) for _, p in multisets(dice))
        return cls(dice, hands, keeps, outcomes, choices, first)

    def expected(self, values: Sequence[float]) -> list[float]:
        """For every keep, the expected value of the hand after rolling the rest."""
        return [sum(p * values[h] for h, p in out) for out in self.outcomes]

    def stages(self, value: Callable[[Faces], float], rerolls: int) -> list[list[float]]:
        """Playing to maximise ``value`` of the final hand: for j = 0 .. rerolls, the
        expected value of each keep when j rerolls remain after it."""
        now = [value(h) for h in self.hands]
        stages = [self.expected(now)]
        for _ in range(rerolls):
            keep_values = stages[-1]
            hand_values = [max(v, *(keep_values[k] for k in ks)) if ks else v
                           for v, ks in zip(now, self.choices, strict=True)]
            stages.append(self.expected(hand_values))
        return stages

    def best_keep(self, hand: Faces, keep_values: Sequence[float]) -> tuple[Faces, float]:
        """The keep from ``hand`` with the highest value, and that value."""
        index = self.hands.index(tuple(sorted(hand)))
        best = max(self.choices[index], key=lambda k: keep_values[k])
        return self.keeps[best], keep_values[best]


def made(row: str, dice: Faces, rules: YatzyRules) -> bool:
    """Whether the dice make ``row``; an upper row counts as made with three of its face."""
    if row in FACE:
        return dice.count(FACE[row]) >= 3
    return score(row, dice, rules) is not None


def _points(row: str, dice: Faces, rules: YatzyRules, first_throw: bool) -> float:
    points = score(row, dice, rules, first_throw)
    return float(points or 0)


# --------------------------------------------------------------------------- the sheet


def _cell_text(cell: Any) -> str:
    if cell is None:
        return "."
    if cell == DASH:
        return "–"
    if isinstance(cell, float):
        return f"{cell:+.1f}" if cell != int(cell) else f"{int(cell):+d}"
    return str(cell)


def render_sheet(view: YatzyView, names: Sequence[str], lang: str | None = None) -> str:
    """The score sheet as the familiar table: upper part, sum, bonus, lower part, total.

    The player to move sees in brackets what each row would score with the dice in hand.
    ``lang`` overrides the sheet's language (``en``, ``sv``, ``da``).
    """
    lang = lang or view["lang"]
    sheet, text = view["sheet"], _TEXT[lang]
    n = len(view["sheets"])
    options = view.get("options", {})
    mover = view["player"]

    rows: list[tuple[str, list[str]]] = []
    for index, row in enumerate(view["rows"]):
        cells = []
        for seat in range(n):
            cell = view["sheets"][seat][index]
            if seat == mover and row in options and cell is None:
                cells.append(f"({_cell_text(options[row])})")
            else:
                cells.append(_cell_text(cell))
        rows.append((label(row, lang, sheet), cells))
        if row == "sixes":
            rows.append((label("upper", lang), [str(u) for u in view["upper"]]))
            if view["bonus_rule"]:
                rows.append((label("bonus", lang), [str(b) if b else "." for b in
                                                    view["bonus"]]))
    if any(view["extras"]):
        rows.append((label("extra", lang, sheet), [str(e) if e else "." for e in
                                                   view["extra_points"]]))
    rows.append((label("total", lang), [str(t) for t in view["totals"]]))
    if "results" in view:
        average = f"{view['average']:.1f}".removesuffix(".0")
        rows.append((label("average", lang), [average] * n))
        rows.append((label("result", lang), [_cell_text(r) for r in view["results"]]))

    heads = list(names[:n])  # the colours are for the statistics, not the sheet's heads
    width = max(len(r[0]) for r in rows)
    widths = [max(6, len(h), *(len(r[1][s]) for r in rows)) for s, h in enumerate(heads)]
    lines = []
    status = f"{view['title']} · {text['round']} {view['round']} {text['of']} {view['rounds']}"
    if view["phase"] != OVER:
        status += f" · {names[mover]} {text['to_move']}, {text['throw']} " \
                  f"{max(view['throw'], 1)} {text['of']} {view['throws']}"
    lines.append(status)
    lines.append(" " * width + "".join(f"  {h:>{w}}" for h, w in zip(heads, widths,
                                                                      strict=True)))
    for name, cells in rows:
        lines.append(f"{name:<{width}}" + "".join(f"  {c:>{w}}" for c, w in
                                                  zip(cells, widths, strict=True)))
    last = view.get("last")
    if last is not None:
        lines.append(f"{names[last['seat']]} {text['scored']} {_cell_text(last['cell'])} "
                     f"{text['in']} {label(last['row'], lang, sheet)} {text['with']} "
                     + " ".join(map(str, last["dice"])))
    if view["dice"]:
        lines.append(f"{text['dice']}: " + " ".join(map(str, view["dice"])))
    if view["kept"]:
        lines.append(f"{text['kept']}: " + " ".join(map(str, view["kept"])))
    if "outcome" in view:
        winners = view["outcome"]["ranking"][0]
        who = " & ".join(names[s] for s in winners)
        lines.append(f"{who} {text['won'] if len(winners) == 1 else text['tie']}.")
    return "\n".join(lines)

"""Liar Dice (Poker Menteur, hidden dice poker): two players, five poker dice each, a screen.

The rules, in the order Løgner terninger tells them:

1. Poker dice show 9, 10, J, Q, K and A. The hands, best first: five of a kind, four of a
   kind, full house, high straight (A-K-Q-J-10), low straight (K-Q-J-10-9), three of a kind,
   two pair, one pair and nothing. Equal classes are ordered as in card poker: "three tens,
   an ace and a queen" beats "three tens, an ace and a nine". Every one of the 252 ways five
   dice can fall is a different hand, so the order is total (:data:`HANDS`).
2. Each player rolls one die; the higher calls first (``opening``; equal dice roll again).
3. Both throw their five dice behind the screen. The caller announces an exact hand — not
   "three of a kind" but "three tens, an ace and a queen" — true or not.
4. The other player **doubts** (``doubt``: the screen is lifted and the game ends; if the
   announcer's dice are lower than the announcement the announcer loses, else he wins) or
   accepts and announces a higher hand himself. Before announcing he may pick up any dice
   and throw them again (``reroll Q 9``), but nobody throws more than three times in one
   game, the first throw included (``throws``). Once he has thrown he cannot doubt: he must
   announce. Play goes back and forth until someone doubts.
5. Five aces: a player who throws five aces shows them at once. The opponent may use the
   throws he has left to make five aces too (``reroll …``, or ``accept`` to give up): if he
   does, the game is drawn and dealt again; otherwise the five aces win (``five_aces``).
6. With ordinary dice the ace (the one) is high (preset ``ace_high``): the high straight is
   6-5-4-3-2 and the low straight 5-4-3-2-1.

Matches (best of three or five, the winner calling first in the next game), chouette and
knockout tournaments are in :mod:`kastkopp.matches`; :meth:`PokerDice.opened_by` gives the
game in which a chosen seat calls first.

Decisions where the seed is silent, as players decide them:

- The first caller announces straight after the deal; rerolling starts with the reply.
- Equal opening dice are rolled again by both. With ordinary dice the ace is high here too.
- A drawn game is dealt again with the same first caller and fresh throws; the view counts
  the replays. Five aces in both first throws is a draw at once.
- How many dice a player picks up is seen across the table; which ones is not.
- When the screen is lifted both hands are shown.
- Five aces announced (not shown) is an ordinary announcement: nothing beats it, so the
  reply is to doubt.

Announcements are written in a short form or in words, in English, Swedish or Danish::

    3T A Q            three tens, an ace and a queen      tre tior, ett ess och en dam
    2K 2Q 9           two kings, two queens and a nine    to konger, to damer og en nier
    3A 2Q             three aces and two queens (a full house)
    A K Q J T         high straight  (also "high straight", "stor stege", "høj lige")
    5A                five aces

With ordinary dice the faces are A 6 5 4 3 2 and a count before a digit takes an ``x``:
``3x4 A 6`` is three fours, an ace and a six.

Usage::

    >>> from kastkopp.games import load
    >>> game = load("poker_dice")
    >>> state = game.new_state().resolve((6,)).resolve((2,))   # seat 0 rolled A, seat 1 10
    >>> state = state.resolve((2, 2, 2, 6, 4)).resolve((1, 1, 3, 5, 6))
    >>> state = state.apply("announce three tens, an ace and a queen")
    >>> state.view(1)["claim"], state.view(1)["your_hand"]
    ('3T A Q', '2x9 A K J')
    >>> str(state.lowest_announcement())
    '3T A K'
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypedDict

from kastkopp.dice import Faces
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
    Rules,
    Said,
    State,
    Words,
    changed,
    either,
    register,
    rule,
    term,
    winner_takes_all,
)
from kastkopp.locale import marked, spoken

if TYPE_CHECKING:  # numpy loads only when the reroll table is built
    pass

# --------------------------------------------------------------------------- the dice

POKER, ORDINARY = "poker", "ordinary"
# The two kinds of dice as messages name them ("a hand of poker dice").
_DICE_TERMS = {POKER: term("poker"), ORDINARY: term("ordinary")}
DICE_KINDS = (POKER, ORDINARY)

# What each face of a die (1..6 as the dice source rolls it) shows.
SYMBOLS = {POKER: ("9", "T", "J", "Q", "K", "A"), ORDINARY: ("A", "2", "3", "4", "5", "6")}
ACE = {POKER: 6, ORDINARY: 1}
# Both straights are the same faces for both kinds of dice: 10-A and 9-K on poker dice,
# 2-6 and 1-5 on ordinary dice.
HIGH_STRAIGHT_FACES: Faces = (2, 3, 4, 5, 6)
LOW_STRAIGHT_FACES: Faces = (1, 2, 3, 4, 5)


def face_rank(face: int, dice: str) -> int:
    """0 for the lowest face (9, or 2 on ordinary dice) up to 5 for the ace."""
    if dice == POKER:
        return face - 1
    return 5 if face == 1 else face - 2


def sub_multisets(faces: Faces) -> list[Faces]:
    """Every non-empty selection of dice from ``faces`` (as sorted faces)."""
    counts = sorted(Counter(faces).items())
    choices = []
    for picks in itertools.product(*(range(n + 1) for _, n in counts)):
        chosen = tuple(f for (f, _), k in zip(counts, picks, strict=True) for _ in range(k))
        if chosen:
            choices.append(chosen)
    return sorted(choices, key=lambda c: (len(c), c))


def remove(faces: Faces, taken: Faces) -> Faces:
    """``faces`` without the dice ``taken`` (which must be among them)."""
    rest = list(faces)
    for face in taken:
        rest.remove(face)
    return tuple(rest)


# --------------------------------------------------------------------------- hands


class HandClass(IntEnum):
    """The classes of hands, worst first."""

    NOTHING = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    LOW_STRAIGHT = 4
    HIGH_STRAIGHT = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    FIVE_OF_A_KIND = 8

    def title(self, lang: str = "en") -> str:
        return CLASS_NAMES[lang][self]


CLASS_NAMES = {
    "en": ("nothing", "one pair", "two pair", "three of a kind", "low straight",
           "high straight", "full house", "four of a kind", "five of a kind"),
    "sv": ("ingenting", "ett par", "två par", "tretal", "liten stege", "stor stege",
           "kåk", "fyrtal", "femtal"),
    "da": ("ingenting", "et par", "to par", "tre ens", "lav straight", "høj straight",
           "fuldt hus", "fire ens", "fem ens"),
}

_SHAPES = {(5,): HandClass.FIVE_OF_A_KIND, (4, 1): HandClass.FOUR_OF_A_KIND,
           (3, 2): HandClass.FULL_HOUSE, (3, 1, 1): HandClass.THREE_OF_A_KIND,
           (2, 2, 1): HandClass.TWO_PAIR, (2, 1, 1, 1): HandClass.ONE_PAIR,
           (1, 1, 1, 1, 1): HandClass.NOTHING}


@dataclass(frozen=True)
class Hand:
    """Five dice read as a poker hand. ``faces`` are sorted; ``dice`` is poker or ordinary.

    >>> Hand.of((2, 2, 2, 6, 4)) > Hand.of((2, 2, 2, 6, 1))
    True
    >>> Hand.of((2, 2, 2, 6, 4)).name()
    'three tens, an ace and a queen'
    """

    faces: Faces
    dice: str = POKER

    @classmethod
    def of(cls, faces: Iterable[int], dice: str = POKER) -> Hand:
        return cls(tuple(sorted(faces)), dice)

    @functools.cached_property
    def groups(self) -> tuple[tuple[int, int], ...]:
        """(count, face) pairs, the larger groups first, then the higher faces."""
        counts = Counter(self.faces)
        return tuple(sorted(((n, f) for f, n in counts.items()),
                            key=lambda g: (g[0], face_rank(g[1], self.dice)), reverse=True))

    @functools.cached_property
    def hand_class(self) -> HandClass:
        if self.faces == HIGH_STRAIGHT_FACES:
            return HandClass.HIGH_STRAIGHT
        if self.faces == LOW_STRAIGHT_FACES:
            return HandClass.LOW_STRAIGHT
        return _SHAPES[tuple(n for n, _ in self.groups)]

    @functools.cached_property
    def key(self) -> tuple[int, tuple[int, ...]]:
        """What orders hands: the class, then the faces of the groups (kickers last)."""
        return self.hand_class, tuple(face_rank(f, self.dice) for _, f in self.groups)

    @property
    def strength(self) -> int:
        """0 for the worst hand up to 251 for five aces."""
        return strength_of(self)

    def __lt__(self, other: Hand) -> bool:
        return self.key < other.key

    def __le__(self, other: Hand) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Hand) -> bool:
        return self.key > other.key

    def __ge__(self, other: Hand) -> bool:
        return self.key >= other.key

    def __str__(self) -> str:
        """The short form: ``3T A Q``, ``2K 2Q 9``, ``A K Q J T``; ``3x4 A 6`` on ordinary dice."""
        symbols = SYMBOLS[self.dice]
        parts = []
        for n, face in self.groups:
            symbol = symbols[face - 1]
            if n == 1:
                parts.append(symbol)
            else:
                parts.append(f"{n}{'x' if symbol.isdigit() else ''}{symbol}")
        return " ".join(parts)

    def dice_text(self) -> str:
        """The five dice, best group first: ``T T T A Q``."""
        symbols = SYMBOLS[self.dice]
        return " ".join(symbols[f - 1] for n, f in self.groups for _ in range(n))

    def name(self, lang: str = "en") -> str:
        """The hand in words, as a player announces it."""
        if self.hand_class in (HandClass.HIGH_STRAIGHT, HandClass.LOW_STRAIGHT):
            return self.hand_class.title(lang)
        words = FACE_NAMES[lang][self.dice]
        phrases = []
        for n, face in self.groups:
            singular, plural, article = words[face - 1]
            phrases.append(f"{article} {singular}" if n == 1 else f"{NUMBERS[lang][n]} {plural}")
        if len(phrases) == 1:
            return phrases[0]
        return f"{', '.join(phrases[:-1])} {AND[lang]} {phrases[-1]}"


# (singular, plural, article) for each face 1..6, per language and kind of dice.
FACE_NAMES: dict[str, dict[str, tuple[tuple[str, str, str], ...]]] = {
    "en": {
        POKER: (("nine", "nines", "a"), ("ten", "tens", "a"), ("jack", "jacks", "a"),
                ("queen", "queens", "a"), ("king", "kings", "a"), ("ace", "aces", "an")),
        ORDINARY: (("ace", "aces", "an"), ("two", "twos", "a"), ("three", "threes", "a"),
                   ("four", "fours", "a"), ("five", "fives", "a"), ("six", "sixes", "a")),
    },
    "sv": {
        POKER: (("nia", "nior", "en"), ("tia", "tior", "en"), ("knekt", "knektar", "en"),
                ("dam", "damer", "en"), ("kung", "kungar", "en"), ("ess", "ess", "ett")),
        ORDINARY: (("ess", "ess", "ett"), ("tvåa", "tvåor", "en"), ("trea", "treor", "en"),
                   ("fyra", "fyror", "en"), ("femma", "femmor", "en"),
                   ("sexa", "sexor", "en")),
    },
    "da": {
        POKER: (("nier", "niere", "en"), ("tier", "tiere", "en"), ("knægt", "knægte", "en"),
                ("dame", "damer", "en"), ("konge", "konger", "en"), ("es", "esser", "et")),
        ORDINARY: (("es", "esser", "et"), ("toer", "toere", "en"), ("treer", "treere", "en"),
                   ("firer", "firere", "en"), ("femmer", "femmere", "en"),
                   ("sekser", "seksere", "en")),
    },
}
NUMBERS = {"en": ("", "one", "two", "three", "four", "five"),
           "sv": ("", "en", "två", "tre", "fyra", "fem"),
           "da": ("", "en", "to", "tre", "fire", "fem")}
AND = {"en": "and", "sv": "och", "da": "og"}


@functools.cache
def hands(dice: str = POKER) -> tuple[Hand, ...]:
    """Every hand of five dice, worst first."""
    every = [Hand(faces, dice) for faces in
             itertools.combinations_with_replacement(range(1, 7), 5)]
    return tuple(sorted(every, key=lambda h: h.key))


@functools.cache
def hand_strengths(dice: str) -> dict[Faces, int]:
    return {h.faces: i for i, h in enumerate(hands(dice))}


def strength_of(hand: Hand) -> int:
    return hand_strengths(hand.dice)[hand.faces]


def best_hand(dice: str = POKER) -> Hand:
    """Five aces."""
    return hands(dice)[-1]


# --------------------------------------------------------------------------- reading hands

_COUNT_WORDS = {
    "a": 1, "an": 1, "one": 1, "en": 1, "ett": 1, "et": 1,
    "two": 2, "två": 2, "to": 2, "pair": 2, "par": 2,
    "three": 3, "tre": 3, "four": 4, "fyra": 4, "fire": 4, "five": 5, "fem": 5,
}
_FILLER = {"and", "och", "og", "of", "av", "af", "with", "med", "kicker", "kickers", "plus",
           "full", "house", "kåk", "fuldt", "hus"}

# Extra names players use besides those in FACE_NAMES.
_EXTRA_FACE_WORDS: dict[str, dict[str, int]] = {
    POKER: {"nio": 1, "ni": 1, "nine's": 1, "tio": 2, "ti": 2, "10": 2, "knave": 3,
            "knaves": 3, "bonde": 3, "bønder": 3, "dreng": 3, "drenge": 3, "knekter": 3,
            "drottning": 4, "drottningar": 4, "dronning": 4, "dronninger": 4, "konung": 5,
            "esser": 6, "essen": 6},
    ORDINARY: {"ones": 1, "etta": 1, "ettor": 1, "ener": 1, "enere": 1, "deuce": 2,
               "deuces": 2, "trey": 3, "treys": 3, "sexes": 6, "seks": 6},
}
_HIGH_WORDS = {"high", "hög", "stor", "store", "høj", "høje", "big", "large"}
_LOW_WORDS = {"low", "låg", "liten", "lilla", "lav", "small", "little"}
_STRAIGHT_WORDS = {"straight", "stege", "stegen", "lige", "street", "straighten"}


@functools.cache
def _face_words(dice: str) -> dict[str, int]:
    words: dict[str, int] = {}
    for lang in FACE_NAMES:
        for face, (singular, plural, _) in enumerate(FACE_NAMES[lang][dice], start=1):
            words[singular] = face
            words[plural] = face
    words.update(_EXTRA_FACE_WORDS[dice])
    return words


def _symbol_face(token: str, dice: str) -> int | None:
    """The face a symbol names (``T``, ``10``, ``10s``, ``A``), else None."""
    symbols = [s.lower() for s in SYMBOLS[dice]]
    if len(token) > 1 and token.endswith("s"):
        token = token.removesuffix("s").removesuffix("'")
    if token in symbols:
        return symbols.index(token) + 1
    if dice == POKER and token == "10":
        return 2
    if dice == ORDINARY and token == "1":
        return 1
    return None


def parse_hand(text: str, dice: str = POKER) -> Hand:
    """Read an exact hand in the short form or in words (English, Swedish, Danish).

    >>> str(parse_hand("tre tiere, et es og en dronning"))
    '3T A Q'
    >>> str(parse_hand("three fours, an ace and a six", "ordinary"))
    '3x4 A 6'
    """
    cleaned = re.sub(r"[,;:.!+/()-]", " ", text.lower())
    tokens = cleaned.split()
    if not tokens:
        raise IllegalAction("name a hand of five dice, e.g. '3T A Q'")
    if any(t in _STRAIGHT_WORDS for t in tokens):
        if any(t in _HIGH_WORDS for t in tokens):
            return Hand(HIGH_STRAIGHT_FACES, dice)
        if any(t in _LOW_WORDS for t in tokens):
            return Hand(LOW_STRAIGHT_FACES, dice)
        raise IllegalAction("'{text}': say which straight, high or low", text=text.strip())
    face_words = _face_words(dice)
    counts: Counter[int] = Counter()
    pending: int | None = None
    for i, token in enumerate(tokens):
        face = _symbol_face(token, dice)
        article = token in _COUNT_WORDS and i + 1 < len(tokens) and tokens[i + 1] in face_words
        if face is not None and not article:  # "A Q" is an ace and a queen, "a queen" one
            counts[face] += pending or 1
            pending = None
            continue
        group = re.fullmatch(r"([1-5])[x×*]?(.+)", token)
        if group and (face := _symbol_face(group[2], dice) or face_words.get(group[2])):
            if pending is not None:
                raise IllegalAction("'{text}': a count with nothing to count",
                                    text=text.strip())
            counts[face] += int(group[1])
            continue
        if (token in _COUNT_WORDS and (pending is None or token not in face_words)) or \
                token in {"1", "2", "3", "4", "5"}:
            if pending is not None:
                raise IllegalAction("'{text}': two counts in a row", text=text.strip())
            pending = int(token) if token.isdigit() else _COUNT_WORDS[token]
            continue
        if token in face_words:
            counts[face_words[token]] += pending or 1
            pending = None
            continue
        if token in _FILLER:
            continue
        raise IllegalAction("cannot read '{token}' in the hand '{text}' (faces: {faces})",
                            token=token, text=text.strip(),
                            faces=" ".join(SYMBOLS[dice][::-1]))
    if pending is not None:
        raise IllegalAction("'{text}': a count with nothing to count", text=text.strip())
    total = sum(counts.values())
    if total != 5:
        raise IllegalAction("'{text}' names {total} dice; a hand is exactly five (e.g. "
                            "'3T A Q')", text=text.strip(), total=total)
    return Hand.of(counts.elements(), dice)


def named(hand: Hand) -> Words:
    """A hand in words in every language, for a message that names it."""
    return Words({lang: hand.name(lang) for lang in FACE_NAMES})


def parse_faces(text: str, dice: str = POKER) -> Faces:
    """Read dice to pick up, one face each: ``Q T 9`` (or face names); ``2Q`` is two queens."""
    tokens = re.sub(r"[,;]", " ", text.lower()).split()
    faces: list[int] = []
    words = _face_words(dice)
    for token in tokens:
        face = _symbol_face(token, dice)
        if face is not None:
            faces.append(face)
            continue
        group = re.fullmatch(r"([1-5])[x×*]?(.+)", token)
        if group and (face := _symbol_face(group[2], dice) or words.get(group[2])):
            faces.extend([face] * int(group[1]))
            continue
        if token in words:
            faces.append(words[token])
            continue
        if token in _FILLER:
            continue
        raise IllegalAction("cannot read '{token}' as a die (faces: {faces})", token=token,
                            faces=" ".join(SYMBOLS[dice][::-1]))
    if not 1 <= len(faces) <= 5:
        raise IllegalAction("say which dice to throw again, one to five of them (e.g. "
                            "'reroll Q 9')")
    return tuple(sorted(faces))


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class PokerDiceRules(Rules):
    dice: str = rule(POKER, "poker: dice 9 10 J Q K A; ordinary: dice 1-6 with the ace high",
                     choices=DICE_KINDS)
    throws: int = rule(3, "throws a player may make in one game, the first throw included",
                       min=1, max=5)
    five_aces: bool = rule(True, "five aces thrown are shown; the opponent may match them "
                           "with his throws left (a draw, dealt again)")
    opener: int = rule(0, "who calls first: 0 = each rolls a die, 1 or 2 = that player "
                       "(a match's next game)", min=0, max=2)

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "poker_dice": {},
        "ace_high": {"dice": ORDINARY},
    }
    PRESET_HELP: ClassVar[dict[str, str]] = {
        "poker_dice": marked("Løgner terninger: poker dice 9 10 J Q K A, three throws, the "
                             "five-aces rule"),
        "ace_high": marked("ordinary dice, the ace high: straights 6-5-4-3-2 and 5-4-3-2-1"),
    }


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Announce(Action):
    """Announce an exact hand (truthfully or not)."""

    hand: Hand

    def __str__(self) -> str:
        return f"announce {self.hand}"


@dataclass(frozen=True)
class Reroll(Action):
    """Pick up these dice (faces) and throw them again."""

    faces: Faces
    dice: str = POKER

    def __str__(self) -> str:
        return "reroll " + faces_text(self.faces, self.dice)

    def public(self) -> str:
        # which dice were picked up is as secret as the dice themselves: only the count shows
        count = len(self.faces)
        return f"reroll {count} {'die' if count == 1 else 'dice'}"


def faces_text(faces: Faces, dice: str = POKER) -> str:
    """Some dice, the highest first: ``Q T 9``."""
    shown = sorted(faces, key=lambda f: face_rank(f, dice), reverse=True)
    return " ".join(SYMBOLS[dice][f - 1] for f in shown)


@dataclass(frozen=True)
class Doubt(Action):
    """Lift the screen: the game ends on the announcer's dice."""

    def __str__(self) -> str:
        return "doubt"


@dataclass(frozen=True)
class Accept(Action):
    """Accept the opponent's five aces without (further) trying to match them."""

    def __str__(self) -> str:
        return "accept"


_DOUBT_WORDS = {"doubt", "liar", "lift", "tvivla", "tvivlar", "lyft", "lögnare", "tvivl",
                "tvivler", "løft", "løgner"}
_ACCEPT_WORDS = {"accept", "concede", "acceptera", "godta", "accepter", "opgiv", "ge"}
_REROLL_WORDS = {"reroll", "throw", "roll", "kasta", "slå", "kast", "rul", "omkast"}
_ANNOUNCE_WORDS = {"announce", "say", "call", "säg", "sig", "meld", "meddel", "bjud", "byd"}


def parse_action(text: str, dice: str = POKER) -> Action:
    """Read ``announce 3T A Q`` (or just the hand), ``reroll Q 9``, ``doubt`` or ``accept``."""
    words = text.strip().split(maxsplit=1)
    if not words:
        raise IllegalAction("say 'announce 3T A Q', 'reroll Q 9', 'doubt' or 'accept'")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if verb in _DOUBT_WORDS and not rest:
        return Doubt()
    if verb in _ACCEPT_WORDS and not rest:
        return Accept()
    if verb in _REROLL_WORDS:
        return Reroll(parse_faces(rest, dice), dice)
    if verb in _ANNOUNCE_WORDS:
        return Announce(parse_hand(rest, dice))
    try:
        return Announce(parse_hand(text, dice))
    except IllegalAction:
        raise IllegalAction("cannot read '{text}': say 'announce 3T A Q', 'reroll Q 9', "
                            "'doubt' or 'accept'", text=text.strip()) from None


# --------------------------------------------------------------------------- state

OPENING, DEAL, CALL, REROLL, CHASE, OVER = "opening", "deal", "call", "reroll", "chase", "over"


class _PokerDiceView(TypedDict):
    game: Literal["poker_dice"]
    seat: int | None
    phase: str
    to_move: int | None
    dice: str  # the kind of dice
    max_throws: int
    opening: list[list[str]]  # the dice rolled for the first call, pair by pair
    caller: int | None
    throws: list[int]
    thrown: bool
    claim: str | None
    claim_name: str | None
    claimant: int | None
    history: list[Said]
    shown: int | None  # who showed five aces
    replays: int
    last_draw: list[str] | None


class PokerDiceView(_PokerDiceView, total=False):
    """What a seat of a Liar Dice table sees (:meth:`PokerDiceState.view`)."""

    shown_dice: str
    your_faces: list[int]
    your_hand: str
    your_hand_name: str
    picked: list[int]  # the dice the seat to move picked up, while it rerolls
    revealed: list[str | None]  # the end: both hands, shown
    revealed_hands: list[str | None]
    winner: int | None
    reason: str
    outcome: OutcomeJSON
    lang: str  # the reader's language, added by the terminal for :meth:`PokerDice.render`


@dataclass(frozen=True)
class PokerDiceState(State[PokerDiceView]):
    game: PokerDice
    phase: str = OPENING
    opening: tuple[int, ...] = ()  # the dice rolled for the first call, seat 0 then seat 1
    caller: int | None = None  # who calls first
    player: int = 0  # the seat to act or to throw
    dice: tuple[Faces | None, Faces | None] = (None, None)
    throws: tuple[int, int] = (0, 0)
    claim: Hand | None = None
    claimant: int | None = None
    thrown: bool = False  # the player to move has thrown this turn (so cannot doubt)
    picked: Faces = ()  # dice picked up, waiting to be thrown
    shown: int | None = None  # who showed five aces
    history: tuple[tuple[int, str], ...] = ()
    replays: int = 0
    last_draw: tuple[Faces, Faces] | None = None
    winner: int | None = None
    reason: str = ""

    @property
    def rules(self) -> PokerDiceRules:
        return self.game.rules

    def hand(self, seat: int) -> Hand:
        faces = self.dice[seat]
        assert faces is not None
        return Hand(faces, self.rules.dice)

    def lowest_announcement(self) -> Hand | None:
        """The lowest hand the player to move may announce now (None: none)."""
        every = hands(self.rules.dice)
        if self.claim is None:
            return every[0]
        above = self.claim.strength + 1
        return every[above] if above < len(every) else None

    def _with_dice(self, seat: int, faces: Faces) -> tuple[Faces | None, Faces | None]:
        both = list(self.dice)
        both[seat] = tuple(sorted(faces))
        return both[0], both[1]

    # -- protocol ------------------------------------------------------------------
    def to_move(self) -> int | None:
        return self.player if self.phase in (CALL, CHASE) else None

    def chance(self) -> Chance | None:
        if self.phase == OPENING:
            return Chance(seat=len(self.opening) % 2, count=1, private=False)
        if self.phase == DEAL:
            return Chance(seat=self.player, count=5, private=True)
        if self.phase == REROLL:
            return Chance(seat=self.player, count=len(self.picked), private=True)
        return None

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        dice = self.rules.dice
        if self.phase == CHASE:
            actions: list[Action] = [Reroll(pick, dice) for pick in self._rerolls()]
            return [*actions, Accept()]
        if self.phase != CALL:
            return []
        actions = []
        if self.claim is not None and not self.thrown:
            actions.append(Doubt())
        actions.extend(Reroll(pick, dice) for pick in self._rerolls())
        lowest = self.lowest_announcement()
        if lowest is not None:
            actions.extend(Announce(h) for h in hands(dice)[lowest.strength:])
        return actions

    def default_action(self) -> Action:
        """Out of time: doubt when one may, else announce the lowest hand one may; a chase
        of five aces is given up."""
        legal = self.legal_actions()
        for kind in (Doubt, Announce, Accept):
            passive = next((a for a in legal if isinstance(a, kind)), None)
            if passive is not None:
                return passive
        return super().default_action()

    def _rerolls(self) -> list[Faces]:
        faces = self.dice[self.player]
        if faces is None or self.throws[self.player] >= self.rules.throws:
            return []
        if self.phase == CALL and (self.claim is None or self.lowest_announcement() is None):
            return []  # the first call is made on the first throw; nothing beats five aces
        return sub_multisets(faces)

    def apply(self, action: Action | str) -> PokerDiceState:
        if isinstance(action, str):
            try:
                action = self.game.parse_action(action)
            except IllegalAction as exc:
                lowest = self.lowest_announcement() if self.phase == CALL else None
                if lowest is None:
                    raise
                raise IllegalAction("{error}; the lowest legal announcement is '{lowest}' "
                                    "({name})", error=exc.message, lowest=str(lowest),
                                    name=named(lowest)) from None
        return super().apply(action)

    def _apply(self, action: Action) -> PokerDiceState:
        if self.phase == CHASE:
            return self._chase(action)
        if isinstance(action, Doubt):
            return self._doubt()
        if isinstance(action, Reroll):
            return self._reroll(action)
        if isinstance(action, Announce):
            return self._announce(action.hand)
        raise IllegalAction("there are no five aces to accept; {now}", now=self._what_now())

    def _what_now(self) -> Any:
        """What the player to move may do, in words (for error messages)."""
        lowest = self.lowest_announcement()
        options: list[Message] = []
        if self.claim is not None and not self.thrown:
            options.append(term("doubt"))
        if self._rerolls():
            options.append(term("reroll some dice"))
        if lowest is not None:
            options.append(Message("announce '{lowest}' ({name}) or higher",
                                   {"lowest": str(lowest), "name": named(lowest)}))
        return either(options) if options else ""

    def _announce(self, hand: Hand) -> PokerDiceState:
        if hand.dice != self.rules.dice:
            raise IllegalAction("'{hand}' is a hand of {kind} dice; this game uses {dice} "
                                "dice", hand=str(hand), kind=_DICE_TERMS[hand.dice],
                                dice=_DICE_TERMS[self.rules.dice])
        lowest = self.lowest_announcement()
        if lowest is None:
            raise IllegalAction("nothing beats {claim}: doubt", claim=str(self.claim))
        if hand < lowest:
            raise IllegalAction("'{hand}' ({name}) is not higher than the claim '{claim}'; the "
                                "lowest legal announcement is '{lowest}' ({lowest_name})",
                                hand=str(hand), name=named(hand), claim=str(self.claim),
                                lowest=str(lowest), lowest_name=named(lowest))
        seat = self.player
        return changed(self, claim=hand, claimant=seat, player=1 - seat, thrown=False,
                       history=(*self.history, (seat, str(Announce(hand)))))

    def _doubt(self) -> PokerDiceState:
        if self.claim is None:
            raise IllegalAction("there is nothing to doubt yet; {now}", now=self._what_now())
        if self.thrown:
            raise IllegalAction("you have thrown this turn, so you must announce; {now}",
                                now=self._what_now())
        assert self.claimant is not None
        holds = self.hand(self.claimant) >= self.claim
        winner = self.claimant if holds else self.player
        reason = "the announcement held" if holds else "the announcement was false"
        return changed(self, phase=OVER, winner=winner, reason=reason,
                       history=(*self.history, (self.player, "doubt")))

    def _reroll(self, action: Reroll) -> PokerDiceState:
        seat = self.player
        faces = self.dice[seat]
        assert faces is not None
        if self.throws[seat] >= self.rules.throws:
            raise IllegalAction("you have thrown {throws} times this game; {now}",
                                throws=self.rules.throws, now=self._what_now())
        if self.phase == CALL and self.claim is None:
            raise IllegalAction("the first call is made on the first throw; {now}",
                                now=self._what_now())
        if self.phase == CALL and self.lowest_announcement() is None:
            raise IllegalAction("nothing beats {claim}: doubt", claim=str(self.claim))
        if action.dice != self.rules.dice or Counter(action.faces) - Counter(faces):
            mine = Hand(faces, self.rules.dice).dice_text()
            raise IllegalAction("you can only pick up dice you have: {mine}", mine=mine)
        return changed(self, phase=REROLL, picked=tuple(sorted(action.faces)),
                       history=(*self.history, (seat, str(action))))

    def _chase(self, action: Action) -> PokerDiceState:
        assert self.shown is not None
        if isinstance(action, Accept):
            return changed(self, phase=OVER, winner=self.shown, reason="five aces",
                           history=(*self.history, (self.player, "accept")))
        if isinstance(action, Reroll):
            return self._reroll(action)
        raise IllegalAction("the opponent showed five aces: reroll to make five aces too "
                            "({left} throws left), or accept",
                            left=self.rules.throws - self.throws[self.player])

    def _resolve(self, faces: Faces) -> PokerDiceState:
        if self.phase == OPENING:
            return self._opening_die(faces[0])
        seat = self.player
        throws = list(self.throws)
        throws[seat] += 1
        counted = (throws[0], throws[1])
        if self.phase == DEAL:
            state = changed(self, dice=self._with_dice(seat, faces), throws=counted)
            if state.dice[1 - seat] is None:
                return changed(state, player=1 - seat)
            return state._after_deal()
        old = self.dice[seat]
        assert old is not None
        state = changed(self, dice=self._with_dice(seat, remove(old, self.picked) + faces),
                        throws=counted, picked=(), thrown=True)
        if state.shown is not None:
            return state._after_chase_throw()
        if state._has_five_aces(seat):
            return state._show_five_aces(seat)
        return changed(state, phase=CALL)

    def _opening_die(self, face: int) -> PokerDiceState:
        opening = (*self.opening, face)
        if len(opening) % 2:
            return changed(self, opening=opening)
        first, second = (face_rank(f, self.rules.dice) for f in opening[-2:])
        if first == second:
            return changed(self, opening=opening)  # equal dice: both roll again
        caller = 0 if first > second else 1
        return changed(self, opening=opening, caller=caller, player=caller, phase=DEAL)

    def _has_five_aces(self, seat: int) -> bool:
        return self.rules.five_aces and self.dice[seat] == (ACE[self.rules.dice],) * 5

    def _after_deal(self) -> PokerDiceState:
        assert self.caller is not None
        aces = [s for s in (0, 1) if self._has_five_aces(s)]
        if len(aces) == 2:
            return self._draw()
        if aces:
            return self._show_five_aces(aces[0])
        return changed(self, phase=CALL, player=self.caller, thrown=False)

    def _show_five_aces(self, seat: int) -> PokerDiceState:
        other = 1 - seat
        state = changed(self, shown=seat, player=other, thrown=False,
                        history=(*self.history, (seat, "shows five aces")))
        if self.throws[other] >= self.rules.throws:
            return changed(state, phase=OVER, winner=seat, reason="five aces")
        return changed(state, phase=CHASE)

    def _after_chase_throw(self) -> PokerDiceState:
        assert self.shown is not None
        if self._has_five_aces(self.player):
            return self._draw()
        if self.throws[self.player] >= self.rules.throws:
            return changed(self, phase=OVER, winner=self.shown, reason="five aces")
        return changed(self, phase=CHASE)

    def _draw(self) -> PokerDiceState:
        """Five aces matched: the game is drawn and dealt again."""
        assert self.caller is not None and self.dice[0] is not None and self.dice[1] is not None
        return changed(self, phase=DEAL, player=self.caller, dice=(None, None),
                       throws=(0, 0), claim=None, claimant=None, thrown=False, picked=(),
                       shown=None, history=(), replays=self.replays + 1,
                       last_draw=(self.dice[0], self.dice[1]))

    def outcome(self) -> Outcome:
        if self.winner is None:
            raise IllegalAction("the game is not over")
        loser = 1 - self.winner
        scores = tuple(1.0 if s == self.winner else 0.0 for s in (0, 1))
        return Outcome(ranking=((self.winner,), (loser,)), scores=scores,
                       payoffs=winner_takes_all(2, self.winner))

    # -- knowing -------------------------------------------------------------------
    def view(self, seat: int | None) -> PokerDiceView:
        kind = self.rules.dice
        symbols = SYMBOLS[kind]
        pairs = [[symbols[a - 1], symbols[b - 1]]
                 for a, b in zip(self.opening[::2], self.opening[1::2], strict=False)]
        history: list[Said] = []
        for s, text in self.history:
            if s != seat and self.phase != OVER and text.startswith("reroll"):
                text = self.game.parse_action(text).public()
            history.append({"seat": s, "action": text})
        view: PokerDiceView = {
            "game": "poker_dice",
            "seat": seat,
            "phase": self.phase,
            "to_move": self.to_move(),
            "dice": kind,
            "max_throws": self.rules.throws,
            "opening": pairs,
            "caller": self.caller,
            "throws": list(self.throws),
            "thrown": self.thrown,
            "claim": None if self.claim is None else str(self.claim),
            "claim_name": None if self.claim is None else self.claim.name(),
            "claimant": self.claimant,
            "history": history,
            "shown": self.shown,
            "replays": self.replays,
            "last_draw": None if self.last_draw is None else
            [Hand(f, kind).dice_text() for f in self.last_draw],
        }
        if self.shown is not None:
            view["shown_dice"] = self.hand(self.shown).dice_text()
        if seat is not None and self.dice[seat] is not None:
            mine = self.hand(seat)
            view["your_faces"] = list(mine.faces)
            view["your_hand"] = str(mine)
            view["your_hand_name"] = mine.name()
            if self.phase == REROLL and seat == self.player:
                view["picked"] = list(self.picked)
        if self.phase == OVER:
            view["revealed"] = [self.hand(s).dice_text() if self.dice[s] is not None
                                else None for s in (0, 1)]
            view["revealed_hands"] = [str(self.hand(s)) if self.dice[s] is not None
                                      else None for s in (0, 1)]
            view["winner"] = self.winner
            view["reason"] = self.reason
            view["outcome"] = self.outcome().to_json()
        return view

    def resample_hidden(self, seat: int | None, rng: random.Random) -> PokerDiceState:
        if self.phase == OVER:
            return self
        state = self
        for other in (0, 1):
            faces = self.dice[other]
            if other == seat or other == self.shown or faces is None:
                continue
            picked: Faces = ()
            if self.phase == REROLL and other == self.player:
                picked = tuple(sorted(rng.randint(1, 6) for _ in self.picked))
            kept = tuple(rng.randint(1, 6) for _ in range(5 - len(picked)))
            state = changed(state, dice=state._with_dice(other, picked + kept), picked=picked
                            if picked else state.picked)
        return state


# --------------------------------------------------------------------------- the game


@register
@dataclass(frozen=True)
class PokerDice(Game[PokerDiceView]):
    """Liar Dice / Poker Menteur for two players."""
    action_words: ClassVar[dict[str, dict[str, str]]] = {
        "sv": {"announce": "säg", "doubt": "tvivla", "accept": "acceptera", "reroll": "kasta"},
        "da": {"announce": "meld", "doubt": "tvivl", "accept": "accepter", "reroll": "kast"},
    }

    rules: PokerDiceRules
    name: ClassVar[str] = "poker_dice"
    title: ClassVar[str] = marked("Liar Dice (Poker Menteur)")
    summary: ClassVar[str] = marked("five poker dice behind a screen: announce an exact hand, "
                                    "doubt or beat it with up to three throws")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    rules_class: ClassVar[type[Rules]] = PokerDiceRules
    parts: ClassVar[Parts] = Parts(
        strategy=("kastkopp.strategy.poker_dice", "kastkopp.strategy.poker_dice_odds",
                  "kastkopp.interop.ismcts"),
        review=("kastkopp.strategy.poker_dice_review",), sheet=("kastkopp.sheets.poker_dice",),
        about="about:poker_dice",
        renderer="games/poker_dice.js", default_for=("match",))

    def new_state(self) -> PokerDiceState:
        if self.rules.opener:
            caller = self.rules.opener - 1
            return PokerDiceState(game=self, phase=DEAL, caller=caller, player=caller)
        return PokerDiceState(game=self)

    def opened_by(self, seat: int) -> PokerDice:
        """This game with ``seat`` calling first (no die rolled for it)."""
        return changed(self, rules=changed(self.rules, opener=seat + 1))

    def bounds(self) -> Bounds:
        # one winner takes all. Every announcement beats the last, each player rerolls at
        # most throws - 1 times, one doubt or accept ends it; but five aces matched deal
        # again, as often as they are matched, so only without that rule is the length fixed
        if self.rules.five_aces:
            return ZERO_SUM_SHARE
        length = len(hands(self.rules.dice)) + 2 * (self.rules.throws - 1) + 1
        return changed(ZERO_SUM_SHARE, length=length)

    def world(self, view: dict[str, Any], rng: random.Random) -> PokerDiceState | None:
        if view["phase"] not in (CALL, CHASE):
            return None  # between throws a view does not say which dice are still to come
        seat, kind = view["seat"], self.rules.dice
        symbols = SYMBOLS[kind]
        dice: list[Faces] = [(), ()]
        for s in (0, 1):
            if s == seat:
                dice[s] = tuple(sorted(view["your_faces"]))
            elif s == view["shown"]:
                dice[s] = tuple(sorted(parse_faces(view["shown_dice"], kind)))
            else:
                dice[s] = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        draw = view["last_draw"]
        return PokerDiceState(
            game=self, phase=view["phase"], caller=view["caller"], player=view["to_move"],
            opening=tuple(symbols.index(symbol) + 1 for pair in view["opening"]
                          for symbol in pair),
            dice=(dice[0], dice[1]), throws=(view["throws"][0], view["throws"][1]),
            claim=None if view["claim"] is None else self.parse_hand(view["claim"]),
            claimant=view["claimant"], thrown=view["thrown"], shown=view["shown"],
            history=tuple((h["seat"], h["action"] if h["seat"] == seat
                           else self._stand_in(h["action"])) for h in view["history"]),
            replays=view["replays"],
            last_draw=None if draw is None else (
                tuple(sorted(parse_faces(draw[0], kind))),
                tuple(sorted(parse_faces(draw[1], kind)))))

    def _stand_in(self, told: str) -> str:
        """An action of the other seat as its view tells it; a reroll, of which only the
        count is told, as a reroll of that many aces (which ones cannot show)."""
        if not told.startswith("reroll"):
            return told
        count = int(told.split()[1])
        return str(Reroll((ACE[self.rules.dice],) * count, self.rules.dice))

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.rules.dice)

    def parse_hand(self, text: str) -> Hand:
        return parse_hand(text, self.rules.dice)

    def all_actions(self) -> list[Action]:
        dice = self.rules.dice
        every = itertools.chain.from_iterable(
            itertools.combinations_with_replacement(range(1, 7), k) for k in range(1, 6))
        return [*(Announce(h) for h in hands(dice)), *(Reroll(f, dice) for f in every),
                Doubt(), Accept()]

    def render(self, view: PokerDiceView, names: Sequence[str]) -> str:
        lang = view.get("lang")
        kind = (spoken(lang, "poker dice 9-A") if view["dice"] == POKER
                else spoken(lang, "ordinary dice, ace high"))
        title = spoken(lang, "Liar Dice") + f" · {kind}"
        if view["replays"]:
            title += spoken(lang, " · dealt again {count}×", count=view["replays"])
        lines = [title]
        if view["opening"]:
            rolls = "; ".join(f"{names[0]} {a}, {names[1]} {b}" for a, b in view["opening"])
            lines.append(spoken(lang, "Dice for the first call: {rolls}", rolls=rolls))
        if view["caller"] is not None:
            lines.append(spoken(lang, "{name} calls first.", name=names[view["caller"]]))
        if view["last_draw"]:
            deal = ", ".join(f"{names[s]} {d}" for s, d in enumerate(view["last_draw"]))
            lines.append(spoken(lang, "Last deal drawn on five aces: {deal}", deal=deal))
        throws = ", ".join(f"{names[s]} {t}/{view['max_throws']}"
                           for s, t in enumerate(view["throws"]))
        lines.append(spoken(lang, "Throws: {throws}", throws=throws))
        for entry in view["history"]:
            lines.append(f"  {names[entry['seat']]}: "
                         f"{self.told_action(entry['action'], lang)}")
        if view["claim"] is not None and view["claimant"] is not None:
            lines.append(spoken(lang, "Claim: {claim} — {hand} ({name})", claim=view["claim"],
                                hand=_name(lang, view["claim"], view["dice"]),
                                name=names[view["claimant"]]))
        if view["shown"] is not None:
            lines.append(spoken(lang, "{name} shows five aces: {dice}",
                                name=names[view["shown"]], dice=view["shown_dice"]))
        if "your_hand" in view:
            lines.append(spoken(lang, "Your dice: {value}", value=Hand.of(
                view["your_faces"], view["dice"]).dice_text())
                         + f" — {Hand.of(view['your_faces'], view['dice']).name(_lang(lang))}")
        mover = view["to_move"]
        if mover is not None and mover == view["seat"]:
            lines.append(self._hint(view, mover))
        if view["phase"] == OVER and view["winner"] is not None:  # set when it is over
            shown = ", ".join(f"{names[s]} {d}" for s, d in enumerate(view["revealed"]) if d)
            lines.append(spoken(lang, "Dice: {dice}", dice=shown))
            lines.append(spoken(lang, "{name} won: {reason}.", name=names[view["winner"]],
                                reason=_reason(lang, view["reason"])))
        return "\n".join(lines)

    def _hint(self, view: PokerDiceView, seat: int) -> str:
        """What ``seat``, to move and reading, may do, in words."""
        lang = view.get("lang")
        left = view["max_throws"] - view["throws"][seat]
        throws = (spoken(lang, "1 throw left") if left == 1
                  else spoken(lang, "{count} throws left", count=left))
        if view["phase"] == CHASE:
            return spoken(lang, "Reroll to make five aces too ({throws}), or accept.",
                          throws=throws)
        every = hands(view["dice"])
        options = []
        if view["claim"] is not None and not view["thrown"]:
            options.append(spoken(lang, "doubt"))
        lowest = 0 if view["claim"] is None else \
            self.parse_hand(view["claim"]).strength + 1
        if view["claim"] is not None and left and lowest < len(every):
            options.append(spoken(lang, "reroll some dice ({throws})", throws=throws))
        if lowest < len(every):
            options.append(spoken(lang, "announce {hand} ({name}) or higher",
                                  hand=str(every[lowest]), name=every[lowest].name(_lang(lang))))
        if len(options) == 1:
            return spoken(lang, "You may {choice}.", choice=options[0])
        return spoken(lang, "You may {choices} or {last}.", choices=", ".join(options[:-1]),
                      last=options[-1])

    @classmethod
    def conformance_configs(cls) -> list[tuple[str | None, int]]:
        return [(None, 2), ("ace_high", 2)]


def _lang(lang: str | None) -> str:
    return lang if lang in FACE_NAMES else "en"


def _name(lang: str | None, claim: str, dice: str) -> str:
    """An announced hand in words in ``lang`` (the view keeps the English ones)."""
    return parse_hand(claim, dice).name(_lang(lang))


def _reason(lang: str | None, reason: str) -> str:
    """Why the game ended, from the view's English words."""
    if reason == "the announcement held":
        return spoken(lang, "the announcement held")
    if reason == "the announcement was false":
        return spoken(lang, "the announcement was false")
    if reason == "five aces":
        return spoken(lang, "five aces")
    return reason

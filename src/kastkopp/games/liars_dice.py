"""Liar's dice: Lögnare, Løgneterninger, Perudo, Dudo, Common Hand and Single Hand.

The rules, in the order Tärningsspel and Løgneterninger regler tell them:

1. Every player has a cup and ``dice`` dice (1 to 6, five by default). All roll under their
   cups and look at their own dice only.
2. The opener bids a count and a face over all the cups together: ``bid 4x5`` says there
   are at least four fives on the table. Each player in turn bids higher — a higher count
   of any face, or the same count of a higher face — or challenges: ``dudo`` (also
   ``lögnare``, ``liar``, ``call``). The cups are lifted; fewer than bid and the bidder
   loses, otherwise the challenger does.
3. Ones are wild (``ones_wild``): a challenge counts the face plus every one. A bid on ones
   needs only half the current count, rounded up; leaving ones needs at least twice the
   ones count plus one. The opening bid of a round cannot be on ones.
4. Exact call (``calza``, ``exact_call``): the player claims the count is exactly the bid.
   Right: one die back, never above the start count (``exact_gain``); wrong: one die lost.
   Variants: no exact calls, or only while three or more players remain; and (``come_back``)
   a player down to one die may come back once by winning an exact call.
5. Palifico (``palifico``): the round right after a player falls to one die, ones are not
   wild, that player opens (ones are a fine opening face then), and the opening face is
   locked for the round — only the count rises.
6. What a loss costs (``loss``): a die from the cup, or a life with a fixed hand size
   (``lives`` each). The Dudo habit (``penalty=difference``): the loser of a challenge
   loses as many as the bid was off by, at least one.
7. A player without dice (or lives) is out. The player who lost starts the next round; if
   that player is out, the next player does. The last player with dice wins; the others
   rank by when they went out, later is better.

Every round changes one player's count, written on the score sheet (``view()["sheet"]``) as
a cell: +1 for a loss, -1 for a die won back, empty (``None``) for a player already out; a
come-back writes the cell that brings the count back to the start (-4 with five dice).

Common Hand (``bids=hands``) reads bids as poker hands over all the dice on the table, with
ordinary dice and the ace (one) high: pair, two pair, three of a kind, low straight
(5-4-3-2-1), high straight (6-5-4-3-2), full house, four and five of a kind. Single Hand
(``hand=single``) has one shared cup of ``dice`` dice: the active player rolls it, looks,
bids about it and passes it on; the next player challenges (``dudo``) or accepts (``accept``):
looks, keeps some dice openly on the table (``keep 6 6``, ``keep none``), rerolls the rest
unseen by the others and must bid higher about the same cup. The loser of a challenge rolls
the whole cup afresh to start the next round.

Decisions where the seeds and the digest are silent, as players decide them:

- Seat 0 opens the first round; the cups are rolled starting from the opener.
- A poker-hand bid is true when the hand can be made from the dice (``full house 6 2``
  needs three sixes and two twos somewhere on the table); kickers are not bid.
- Bids never claim more dice than there are on the table (or in the shared cup).
- Only the player to move may call ``calza``; it is the alternative to bidding or ``dudo``.
- ``exact_gain=off``: a right exact call costs the bidder a die instead of giving the
  caller one, so every round still changes exactly one player's count.
- A right exact call at a full hand is written 0 on the sheet. After an exact call the
  player whose count changed starts the next round (the caller, when nothing changed).
- ``come_back`` (the variant "a player down to one die may come back once by winning an
  exact call"): a right exact call already wins a die back at any count, so coming back
  means more — the player on exactly one die returns to the start count, and the sheet
  writes the cell that brings the count back (-4 with five dice). Once is once per player
  and game; after it a right exact call on one die wins one die as usual, and a fall to
  one die again brings palifico as usual. A player who is out has no cup and no turn, so
  nobody comes back from zero. In lives mode it is read in lives. The rule needs exact
  calls that give dice back (``exact_call`` not off, ``exact_gain`` on) and a start above
  one; other combinations are refused.
- With ``penalty=difference`` a wrong exact call still costs one die.
- In lives mode palifico starts when a player falls to one life.
- Poker-hand bids have no wild ones, no palifico and no exact calls; the shared cup of
  Single Hand is nobody's, so a loss there always costs a life.
- ``keep_eliminated=off`` leaves players who are out off the table shown; they still rank.

Usage::

    >>> from kastkopp.games import load
    >>> game = load("liars_dice", preset="perudo", players=2)
    >>> state = game.new_state().resolve((1, 2, 5, 5, 6)).resolve((3, 3, 4, 5, 6))
    >>> state = state.apply("bid 3x5")
    >>> [str(a) for a in state.legal_actions()][:3]
    ['bid 3x6', 'bid 4x2', 'bid 4x3']
    >>> state.view(1)["your_dice"], state.view(1)["dice_counts"]
    ([3, 3, 4, 5, 6], [5, 5])
    >>> state.apply("bid 3x4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    kastkopp.engine.IllegalAction: 3x4 is not higher than 3x5; the smallest legal bid is 3x6 ...
    >>> state.apply("dudo").view(None)["last_round"]["actual"]   # 5 5 5 and the wild 1
    4
"""

from __future__ import annotations

import itertools
import random
import re
from abc import abstractmethod
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Literal, Self, TypedDict

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
    RuleError,
    Rules,
    Said,
    State,
    changed,
    ranking_by,
    register,
    rule,
    winner_takes_all,
)
from kastkopp.locale import marked, spoken

FACES = (1, 2, 3, 4, 5, 6)

# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class LiarsRules(Rules):
    dice: int = rule(5, "dice per player (the shared cup's dice in Single Hand)", min=1, max=6)
    hand: str = rule("common", "common: a cup each, bids about all dice on the table; "
                     "single: one shared cup rolled by the active player and passed on",
                     choices=("common", "single"))
    bids: str = rule("counts", "counts: 'bid 4x5' counts a face; hands: bids are poker hands",
                     choices=("counts", "hands"))
    ones_wild: bool = rule(True, "ones count as the face bid (a bid on ones needs half the "
                           "count, leaving ones twice plus one)")
    palifico: bool = rule(True, "the round after a player falls to one die: ones not wild, "
                          "that player opens, the face is locked")
    exact_call: str = rule("on", "exact calls ('calza'): on, three_plus (only while three or "
                           "more players remain) or off", choices=("on", "three_plus", "off"))
    exact_gain: bool = rule(True, "a right exact call gives the caller a die back (never above "
                            "the start); off: it costs the bidder one")
    loss: str = rule("die", "what a loss costs: a die from the cup, or a life with a fixed "
                     "hand size", choices=("die", "life"))
    lives: int = rule(5, "lives each player has when a loss costs a life", min=1, max=20)
    penalty: str = rule("one", "a lost challenge costs one, or the difference between the "
                        "bid and the count (Dudo)", choices=("one", "difference"))
    keep_eliminated: bool = rule(True, "players who are out stay on the table shown")
    come_back: bool = rule(False, "a player on one die (or life) who wins an exact call "
                           "comes back to the start count instead of one more, once a game")
    faces: int = rule(6, "faces of a die, 1 to this (fewer make small games for solvers; "
                      "bids on a face only)", min=2, max=6)

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "lognare": {"ones_wild": False, "palifico": False, "exact_call": "off"},
        "perudo": {},
        "dudo": {"penalty": "difference"},
        "common_hand": {"bids": "hands", "ones_wild": False, "palifico": False,
                        "exact_call": "off"},
        "single_hand": {"hand": "single", "bids": "hands", "ones_wild": False,
                        "palifico": False, "exact_call": "off", "loss": "life"},
        "come_back": {"come_back": True},
    }
    PRESET_HELP: ClassVar[dict[str, str]] = {
        "lognare": marked("Lögnare as Tärningsspel plays it: no wilds, the loser of a "
                          "challenge loses a die"),
        "perudo": marked("Perudo as Løgneterninger regler plays it: ones wild, exact calls, "
                         "palifico"),
        "dudo": marked("Perudo where the loser of a challenge loses the difference"),
        "common_hand": marked("no wilds; bids are poker hands over all dice on the table"),
        "single_hand": marked("one shared cup of five dice, rolled, bid on and passed on"),
        "come_back": marked("Perudo where a player on one die comes back once by a right "
                            "exact call"),
    }

    def check(self) -> None:
        if self.bids == "hands":
            for name, off in (("ones_wild", not self.ones_wild),
                              ("palifico", not self.palifico),
                              ("exact_call", self.exact_call == "off"),
                              ("penalty", self.penalty == "one")):
                if not off:
                    value = "one" if name == "penalty" else "off"
                    raise RuleError("poker-hand bids do not go with '{name}': set "
                                    "{name}={value} or bids=counts", name=name, value=value)
        if self.faces != 6 and (self.bids == "hands" or self.hand == "single"):
            raise RuleError("dice with fewer than six faces go only with bids on a face from "
                            "a cup each: set faces=6, or bids=counts and hand=common")
        if self.hand == "single" and self.loss != "life":
            raise RuleError("in Single Hand nobody holds dice of their own: set loss=life")
        if self.hand == "single" and self.bids == "hands" and self.dice < 2:
            raise RuleError("one die in the shared cup makes no poker hand: set dice=2 or more")
        if self.come_back:
            self._check_come_back()

    def _check_come_back(self) -> None:
        # without exact calls that give dice back, or with one to start, it never happens
        for name, value, off in (("exact_call", "on", self.exact_call == "off"),
                                 ("exact_gain", "on", not self.exact_gain)):
            if off:
                raise RuleError("the come-back is won by an exact call that gives a die back: "
                                "set {name}={value}, or come_back=off", name=name, value=value)
        if self.start == 1:
            name = "lives" if self.loss == "life" else "dice"
            raise RuleError("with one to start a player on one has nothing to come back to: "
                            "set {name}=2 or more, or come_back=off", name=name)

    @property
    def start(self) -> int:
        """What every player starts with: dice, or lives."""
        return self.lives if self.loss == "life" else self.dice

    def calza_allowed(self, players_left: int) -> bool:
        if self.exact_call == "off":
            return False
        return self.exact_call == "on" or players_left >= 3


# --------------------------------------------------------------------------- bids on a face


@dataclass(frozen=True)
class Bid(Action):
    """At least ``count`` dice showing ``face`` on the table (ones included when wild)."""

    count: int
    face: int

    def __str__(self) -> str:
        return f"bid {self.count}x{self.face}"

    @property
    def short(self) -> str:
        return f"{self.count}x{self.face}"

    def key(self, wild: bool) -> tuple[int, int]:
        """Bids compare by key. With wild ones, ``k`` ones sit just above ``2k`` of any face:
        reaching ones needs half the count rounded up, leaving them twice plus one."""
        if wild and self.face == 1:
            return (2 * self.count, 7)
        return (self.count, self.face)


@lru_cache(maxsize=256)
def ordered_bids(total: int, wild: bool,
                 faces: int = 6) -> tuple[tuple[Bid, ...], tuple[tuple[int, int], ...]]:
    """Every count bid over ``total`` dice of ``faces`` faces, lowest first, with their keys."""
    bids = sorted((Bid(q, f) for q in range(1, total + 1) for f in range(1, faces + 1)),
                  key=lambda b: b.key(wild))
    return tuple(bids), tuple(b.key(wild) for b in bids)


def count_matches(dice: Iterable[int], face: int, wild: bool) -> int:
    """How many of ``dice`` count for ``face``: the face itself and, when wild, the ones."""
    return sum(1 for d in dice if d == face or (wild and d == 1))


# --------------------------------------------------------------------------- poker hands
# Common Hand and Single Hand, with ordinary dice: the ace (one) is the highest face.

ACE_HIGH = (2, 3, 4, 5, 6, 1)  # faces, lowest first
FACE_RANK = {face: i for i, face in enumerate(ACE_HIGH)}
HAND_KINDS = ("pair", "two pair", "three", "low straight", "high straight", "full house",
              "four", "five")
LOW_STRAIGHT = (1, 2, 3, 4, 5)
HIGH_STRAIGHT = (2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Hand:
    """A poker hand claimed on dice: ``kind`` and its faces (``high`` over ``low``)."""

    kind: str
    high: int = 0
    low: int = 0

    def __str__(self) -> str:
        if self.kind in ("low straight", "high straight"):
            return self.kind
        if self.kind in ("two pair", "full house"):
            return f"{self.kind} {self.high} {self.low}"
        return f"{self.kind} {self.high}"

    @property
    def key(self) -> tuple[int, int, int]:
        return (HAND_KINDS.index(self.kind), FACE_RANK.get(self.high, 0),
                FACE_RANK.get(self.low, 0))

    def needs(self) -> dict[int, int]:
        """The dice the hand is made of: face -> how many."""
        if self.kind == "low straight":
            return dict.fromkeys(LOW_STRAIGHT, 1)
        if self.kind == "high straight":
            return dict.fromkeys(HIGH_STRAIGHT, 1)
        if self.kind == "two pair":
            return {self.high: 2, self.low: 2}
        if self.kind == "full house":
            return {self.high: 3, self.low: 2}
        size = {"pair": 2, "three": 3, "four": 4, "five": 5}[self.kind]
        return {self.high: size}

    @property
    def size(self) -> int:
        return sum(self.needs().values())

    def made_by(self, dice: Iterable[int]) -> bool:
        """Whether the hand can be made from ``dice``."""
        counts = Counter(dice)
        return all(counts[face] >= n for face, n in self.needs().items())


def all_hands() -> list[Hand]:
    """Every hand that can be bid, lowest first."""
    hands = [Hand("pair", f) for f in ACE_HIGH]
    hands += [Hand("two pair", high, low) for low, high in itertools.combinations(ACE_HIGH, 2)]
    hands += [Hand("three", f) for f in ACE_HIGH]
    hands += [Hand("low straight"), Hand("high straight")]
    hands += [Hand("full house", t, p) for t in ACE_HIGH for p in ACE_HIGH if t != p]
    hands += [Hand("four", f) for f in ACE_HIGH] + [Hand("five", f) for f in ACE_HIGH]
    return sorted(hands, key=lambda h: h.key)


HANDS = all_hands()


def best_hand(dice: Iterable[int]) -> Hand | None:
    """The highest hand that ``dice`` make, or ``None`` without even a pair.

    >>> str(best_hand((1, 1, 1, 4, 4))), str(best_hand((2, 3, 4, 5, 6))), best_hand((1, 2))
    ('full house 1 4', 'high straight', None)
    """
    counts = Counter(dice)
    faces = sorted(counts, key=FACE_RANK.__getitem__, reverse=True)  # highest first
    at_least = {n: [f for f in faces if counts[f] >= n] for n in (2, 3, 4, 5)}
    if at_least[5]:
        return Hand("five", at_least[5][0])
    if at_least[4]:
        return Hand("four", at_least[4][0])
    if at_least[3]:
        pairs = [f for f in at_least[2] if f != at_least[3][0]]
        if pairs:
            return Hand("full house", at_least[3][0], pairs[0])
    if all(counts[f] for f in HIGH_STRAIGHT):
        return Hand("high straight")
    if all(counts[f] for f in LOW_STRAIGHT):
        return Hand("low straight")
    if at_least[3]:
        return Hand("three", at_least[3][0])
    if len(at_least[2]) >= 2:
        return Hand("two pair", at_least[2][0], at_least[2][1])
    if at_least[2]:
        return Hand("pair", at_least[2][0])
    return None


_KIND_WORDS = {
    "pair": "pair", "par": "pair", "two pair": "two pair", "twopair": "two pair",
    "two pairs": "two pair", "pairs": "two pair", "tvåpar": "two pair", "topar": "two pair",
    "three": "three", "trips": "three", "triss": "three", "tre": "three",
    "low straight": "low straight", "small straight": "low straight",
    "high straight": "high straight", "large straight": "high straight",
    "full house": "full house", "full": "full house", "kåk": "full house",
    "fullhouse": "full house", "four": "four", "fyra": "four", "fire": "four",
    "five": "five", "fem": "five",
}
_OF_A_KIND = {2: "pair", 3: "three", 4: "four", 5: "five"}


def parse_face(word: str) -> int:
    if word in ("a", "ace", "ess", "es", "aces"):
        return 1
    if word.rstrip("s").isdigit() and 1 <= int(word.rstrip("s")) <= 6:
        return int(word.rstrip("s"))
    raise IllegalAction("'{word}' is not a face: a die shows 1 to 6 (1 is the ace)", word=word)


def parse_hand(text: str) -> Hand:
    """Read ``pair 6``, ``two pair 6 3``, ``full house 1 4``, ``low straight``, ``3x4``."""
    text = text.strip().lower().replace("-", " ").replace(" of ", " ")
    match = re.fullmatch(r"(\d+)\s*[x×*]\s*(\w+)", text)
    if match and int(match.group(1)) in _OF_A_KIND:
        return Hand(_OF_A_KIND[int(match.group(1))], parse_face(match.group(2)))
    words = text.split()
    for length in (2, 1):
        kind = _KIND_WORDS.get(" ".join(words[:length]))
        if kind is None:
            continue
        faces = [parse_face(w) for w in words[length:]]
        wanted = {"two pair": 2, "full house": 2, "low straight": 0, "high straight": 0}
        if len(faces) != wanted.get(kind, 1):
            break
        if kind == "two pair":
            high, low = sorted(faces, key=FACE_RANK.__getitem__, reverse=True)
            if high == low:
                raise IllegalAction("two pair needs two different faces")
            return Hand(kind, high, low)
        if kind == "full house":
            if faces[0] == faces[1]:
                raise IllegalAction("a full house needs two different faces (three, then two)")
            return Hand(kind, faces[0], faces[1])
        return Hand(kind, *faces)
    raise IllegalAction("cannot read the hand '{text}': write it like 'pair 6', 'two pair 6 3', "
                        "'three 4', 'low straight', 'full house 6 2' or 'four 1'", text=text)


@dataclass(frozen=True)
class HandBid(Action):
    """The hand can be made from the dice bid about."""

    hand: Hand

    def __str__(self) -> str:
        return f"bid {self.hand}"

    @property
    def short(self) -> str:
        return str(self.hand)


# --------------------------------------------------------------------------- other actions


@dataclass(frozen=True)
class Dudo(Action):
    """Challenge the last bid: every cup is lifted."""

    def __str__(self) -> str:
        return "dudo"


@dataclass(frozen=True)
class Calza(Action):
    """Claim the last bid is exactly right."""

    def __str__(self) -> str:
        return "calza"


@dataclass(frozen=True)
class Accept(Action):
    """Single Hand: take the shared cup and look at it (then keep, reroll and bid higher)."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True)
class Keep(Action):
    """Single Hand: keep these dice openly on the table and reroll the rest."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return "keep " + (" ".join(map(str, self.faces)) if self.faces else "none")


AnyBid = Bid | HandBid

_DUDO = {"dudo", "call", "liar", "lögnare", "lognare", "løgner", "løgn", "challenge", "doubt"}
_CALZA = {"calza", "exact", "spot-on", "exakt", "præcis", "precis"}
_ACCEPT = {"accept", "believe", "tro", "godta", "accepter", "acceptera"}
_KEEP = {"keep", "behåll", "behold"}
_BID = {"bid", "bud", "byd", "buda"}


def keep_faces(faces: Iterable[int]) -> tuple[int, ...]:
    """Kept dice in their canonical order, highest face first."""
    return tuple(sorted(faces, reverse=True))


# --------------------------------------------------------------------------- state

ROLL, BID, RESPOND, KEEP, OVER = "roll", "bid", "respond", "keep", "over"


class _LiarsRound(TypedDict):
    round: int
    bid: str
    bidder: int
    caller: int
    call: str  # dudo or calza
    holds: bool
    seat: int  # whose count changed
    change: int  # a positive change is a loss
    cups: list[list[int] | None]
    actions: list[list[int | str]]  # [seat, action] as the round's history said them


class LiarsRound(_LiarsRound, total=False):
    """How a round ended, as the next round's view shows it."""

    cup: list[int]  # Single Hand: the shared cup
    actual: int  # a bid on a face: how many dice counted
    wild: bool
    come_back: bool  # the exact call brought the caller back to the start


class _LiarsView(TypedDict):
    game: Literal["liars_dice"]
    seat: int | None
    phase: str
    to_move: int | None
    round: int
    hand: str
    bids: str
    loss: str
    stock: list[int]
    dice_counts: list[int]
    alive: list[bool]
    shown: list[int]
    out_round: list[int | None]
    total_dice: int
    ones_wild: bool
    palifico: int | None
    locked_face: int | None
    exact_calls: bool
    bid: str | None
    bidder: int | None
    history: list[Said]
    sheet: list[list[int | None]]
    last_round: LiarsRound | None
    came_back: list[int]


class LiarsView(_LiarsView, total=False):
    """What a seat at a liar's dice table sees (:meth:`LiarsState.view`)."""

    open_dice: list[int]  # Single Hand: the dice kept openly on the table
    holder: int | None  # Single Hand: who has looked into the cup
    your_dice: list[int]
    outcome: OutcomeJSON
    lang: str  # the reader's language, added by the terminal for :meth:`LiarsDice.render`


@dataclass(frozen=True)
class LiarsState(State[LiarsView]):
    """What every liar's dice table shares: bids, calls, rounds and their losses.

    How the dice are held is the variant's: a cup each (:class:`CommonHandState`) or one
    shared cup passed on (:class:`SingleHandState`); :meth:`LiarsDice.new_state` picks it by
    the ``hand`` rule.
    """

    game: LiarsDice
    stock: tuple[int, ...]  # dice (or lives) each seat has left
    cups: tuple[Faces | None, ...]  # this round's cup of each seat (none in Single Hand)
    player: int = 0  # who bids, answers or rolls next; at a round's start its opener
    phase: str = ROLL
    round: int = 0  # rounds finished
    bid: AnyBid | None = None
    bidder: int | None = None
    palifico: int | None = None  # the seat whose palifico round this is
    locked: int | None = None  # the face locked by a palifico opening
    history: tuple[tuple[int, str], ...] = ()  # this round's public actions
    sheet: tuple[tuple[int | None, ...], ...] = ()  # per round, each seat's cell
    out_round: tuple[int | None, ...] = ()
    came_back: tuple[int, ...] = ()  # the seats that have used their come-back, in order
    last_round: LiarsRound | None = field(default=None, compare=True, hash=False)

    single: ClassVar[bool] = False  # one shared cup (Single Hand)

    @property
    def rules(self) -> LiarsRules:
        return self.game.rules

    def alive(self, seat: int) -> bool:
        return self.stock[seat] > 0

    def players_left(self) -> int:
        return sum(1 for s in range(self.game.players) if self.alive(s))

    def next_alive(self, seat: int) -> int:
        n = self.game.players
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self.alive(other):
                return other
        return seat

    @abstractmethod
    def hand_size(self, seat: int) -> int:
        """How many dice ``seat`` rolls into a cup of its own."""

    @abstractmethod
    def total_dice(self) -> int:
        """The dice bids are about."""

    @property
    def wild(self) -> bool:
        """Whether ones are wild this round (never in a palifico round)."""
        return self.rules.ones_wild and self.palifico is None

    @abstractmethod
    def all_dice(self) -> list[int]:
        """Every die a bid is counted on."""

    # -- protocol ------------------------------------------------------------------
    def to_move(self) -> int | None:
        return self.player if self.phase in (BID, RESPOND, KEEP) else None

    def chance(self) -> Chance | None:
        return self._roll() if self.phase == ROLL else None

    @abstractmethod
    def _roll(self) -> Chance:
        """The dice to roll next, while the phase is rolling."""

    def is_over(self) -> bool:
        return self.phase == OVER

    # -- bidding -------------------------------------------------------------------
    def legal_bids(self) -> list[AnyBid]:
        """Every bid the player to move may make, lowest first."""
        total = self.total_dice()
        if self.rules.bids == "hands":
            hands = [h for h in HANDS if h.size <= total]
            if isinstance(self.bid, HandBid):
                hands = [h for h in hands if h.key > self.bid.hand.key]
            return [HandBid(h) for h in hands]
        wild = self.wild
        bids, keys = ordered_bids(total, wild, self.rules.faces)
        start = 0 if not isinstance(self.bid, Bid) else bisect_right(keys, self.bid.key(wild))
        legal: list[AnyBid] = []
        for bid in bids[start:]:
            if self.locked is not None and bid.face != self.locked:
                continue
            if self.bid is None and wild and bid.face == 1:
                continue  # a round never opens on wild ones
            legal.append(bid)
        return legal

    def can_calza(self) -> bool:
        return self.bid is not None and self.rules.calza_allowed(self.players_left())

    def legal_actions(self) -> list[Action]:
        if self.phase == BID:
            return [*self.legal_bids(), *self._calls_while_bidding()]
        return []

    def _calls_while_bidding(self) -> list[Action]:
        """The calls on the bid standing that the seat to move may make instead of bidding."""
        return []

    def _calls(self) -> list[Action]:
        """``dudo``, and ``calza`` where exact calls are allowed."""
        return [Dudo(), Calza()] if self.can_calza() else [Dudo()]

    def default_action(self) -> Action:
        """Out of time: challenge the bid standing, open with the smallest bid, keep every
        die of a Single Hand cup."""
        legal = self.legal_actions()
        dudo = next((a for a in legal if isinstance(a, Dudo)), None)
        if dudo is not None:
            return dudo
        keeps = [a for a in legal if isinstance(a, Keep)]
        if keeps:
            return max(keeps, key=lambda a: len(a.faces))
        return super().default_action()

    def smallest_bids(self) -> Message:
        """The smallest legal bid, as an illegal-bid message tells it."""
        bids = self.legal_bids()
        if not bids:
            if self.can_calza():
                return Message("nothing is higher: challenge with 'dudo' or call 'calza'")
            return Message("nothing is higher: challenge with 'dudo'")
        if self.wild:
            # ones and the other faces climb on different ladders: name the lowest of both
            on_ones = isinstance(bids[0], Bid) and bids[0].face == 1
            other = next((b for b in bids if isinstance(b, Bid) and (b.face == 1) != on_ones),
                         None)
            if other is not None and on_ones:
                return Message("the smallest legal bid is {bid} (not on ones: {other})",
                               {"bid": bids[0].short, "other": other.short})
            if other is not None:
                return Message("the smallest legal bid is {bid} (on ones: {other})",
                               {"bid": bids[0].short, "other": other.short})
        return Message("the smallest legal bid is {bid}", {"bid": bids[0].short})

    def now(self) -> Message:
        """What the player to move may do, as a refusal ends."""
        return self.smallest_bids()

    def _refuse_bid(self, bid: AnyBid) -> IllegalAction:
        smallest = self.smallest_bids()
        if isinstance(bid, Bid) != (self.rules.bids == "counts"):
            example = "'bid 4x5'" if self.rules.bids == "counts" else "'bid pair 6'"
            return IllegalAction("bids here are written like {example}; {smallest}",
                                 example=example, smallest=smallest)
        total = self.total_dice()
        size = bid.count if isinstance(bid, Bid) else bid.hand.size
        if size > total:
            return self._more_than_there_are(total, smallest)
        if isinstance(bid, Bid) and self.locked is not None and bid.face != self.locked:
            return IllegalAction("palifico: the face is locked to {face}s and only the count "
                                 "rises; {smallest}", face=self.locked, smallest=smallest)
        if self.bid is None:
            return IllegalAction("ones are wild, so a round cannot open on ones; {smallest}",
                                 smallest=smallest)
        return IllegalAction("{bid} is not higher than {last}; {smallest}", bid=bid.short,
                             last=self.bid.short, smallest=smallest)

    @abstractmethod
    def _more_than_there_are(self, total: int, smallest: Message) -> IllegalAction:
        """The refusal of a bid on more dice than ``total``, all there are."""

    def _apply(self, action: Action) -> Self:
        seat = self.player
        if isinstance(action, Keep):
            raise IllegalAction("you can only keep dice after accepting the cup; {now}",
                                now=self.now())
        if isinstance(action, (Bid, HandBid)):
            if action not in self.legal_bids():
                raise self._refuse_bid(action)
            return self._bid(seat, action)
        if isinstance(action, Accept):
            raise IllegalAction("there is no cup passed to you to accept; {now}",
                                now=self.now())
        if self.bid is None or self.bidder is None:
            raise IllegalAction("there is no bid to challenge yet; open with a bid "
                                "({smallest})", smallest=self.smallest_bids())
        return self._call(seat, action)

    def _call(self, seat: int, action: Action) -> Self:
        """A call on the bid standing: ``dudo`` or ``calza``."""
        if isinstance(action, Dudo):
            return self._challenge(seat)
        if isinstance(action, Calza):
            if self.rules.exact_call == "off":
                raise IllegalAction("exact calls are not played at this table: bid or 'dudo'")
            if not self.can_calza():
                raise IllegalAction("exact calls are only allowed while three or more players "
                                    "remain: bid or 'dudo'")
            return self._exact(seat)
        raise IllegalAction("'{action}' is not a liar's dice action", action=str(action))

    def _bid(self, seat: int, bid: AnyBid) -> Self:
        locked = self.locked
        if self.palifico is not None and locked is None and isinstance(bid, Bid):
            locked = bid.face
        state = changed(self, bid=bid, bidder=seat, locked=locked,
                        history=(*self.history, (seat, str(bid))))
        return state._passed_on(self.next_alive(seat))

    @abstractmethod
    def _passed_on(self, seat: int) -> Self:
        """After a bid: ``seat``, the next player, has the turn."""

    # -- lifting the cups ------------------------------------------------------------
    def actual(self) -> int:
        """How many dice count for the current count bid."""
        assert isinstance(self.bid, Bid)
        return count_matches(self.all_dice(), self.bid.face, self.wild)

    def _holds(self) -> bool:
        if isinstance(self.bid, HandBid):
            return self.bid.hand.made_by(self.all_dice())
        assert isinstance(self.bid, Bid)
        return self.actual() >= self.bid.count

    def _challenge(self, caller: int) -> Self:
        assert self.bid is not None and self.bidder is not None
        holds = self._holds()
        loser = caller if holds else self.bidder
        cost = 1
        if self.rules.penalty == "difference" and isinstance(self.bid, Bid):
            cost = max(1, abs(self.actual() - self.bid.count))
        return self._end_round(caller, "dudo", loser, cost, holds)

    def _exact(self, caller: int) -> Self:
        assert isinstance(self.bid, Bid) and self.bidder is not None
        right = self.actual() == self.bid.count
        if not right:
            return self._end_round(caller, "calza", caller, 1, False)
        if not self.rules.exact_gain:
            return self._end_round(caller, "calza", self.bidder, 1, True)
        if self.may_come_back(caller):
            state = self._end_round(caller, "calza", caller, 1 - self.rules.start, True)
            assert state.last_round is not None
            last = state.last_round.copy()
            last["come_back"] = True
            return changed(state, came_back=(*self.came_back, caller), last_round=last)
        gain = 1 if self.stock[caller] < self.rules.start else 0
        return self._end_round(caller, "calza", caller, -gain, True)

    def may_come_back(self, seat: int) -> bool:
        """Whether a right exact call by ``seat`` now brings it back to the start count."""
        return self.rules.come_back and self.stock[seat] == 1 and seat not in self.came_back

    def _end_round(self, caller: int, call: str, seat: int, change: int,
                   holds: bool) -> Self:
        """One seat's count changes by ``change`` (a positive change is a loss)."""
        stock = list(self.stock)
        change = min(change, stock[seat])
        before = stock[seat]
        stock[seat] -= change
        row = tuple(None if not self.alive(s) else (change if s == seat else 0)
                    for s in range(self.game.players))
        out_round = list(self.out_round)
        if stock[seat] == 0:
            out_round[seat] = self.round
        assert self.bid is not None and self.bidder is not None  # a round ends on a call
        last: LiarsRound = {
            "round": self.round + 1, "bid": self.bid.short,
            "bidder": self.bidder, "caller": caller, "call": call, "holds": holds,
            "seat": seat, "change": change,
            "cups": [list(c) if c else None for c in self.cups],
            "actions": [list(h) for h in self.history],
        }
        self._record_dice(last)
        if isinstance(self.bid, Bid):
            last["actual"] = self.actual()
            last["wild"] = self.wild
        state = changed(self, stock=tuple(stock), sheet=(*self.sheet, row),
                        out_round=tuple(out_round), round=self.round + 1,
                        cups=(None,) * self.game.players, bid=None, bidder=None,
                        palifico=None, locked=None, history=(), last_round=last,
                        **self._new_round())
        if state.players_left() <= 1:
            return changed(state, phase=OVER)
        starts = seat if state.alive(seat) else state.next_alive(seat)
        palifico = None
        if self.rules.palifico and before > 1 and stock[seat] == 1:
            palifico = seat
        return changed(state, phase=ROLL, player=starts, palifico=palifico)

    def _record_dice(self, last: LiarsRound) -> None:
        """Add the dice of the round, beyond the cups, to its record."""

    def _new_round(self) -> dict[str, Any]:
        """The fields of the variant's own that a new round starts afresh."""
        return {}

    # -- the end -----------------------------------------------------------------------
    def outcome(self) -> Outcome:
        n = self.game.players
        # survivors by what they have left, then the eliminated by when they went out
        keys = [(1, self.stock[s], 0) if self.alive(s) else (0, 0, self.out_round[s] or 0)
                for s in range(n)]
        ranking = ranking_by(keys)
        payoffs = winner_takes_all(n, ranking[0][0]) if len(ranking[0]) == 1 \
            else tuple(0.0 for _ in range(n))
        return Outcome(ranking=ranking, scores=tuple(float(v) for v in self.stock),
                       payoffs=payoffs)

    # -- knowing -------------------------------------------------------------------------
    def view(self, seat: int | None) -> LiarsView:
        n = self.game.players
        view: LiarsView = {
            "game": "liars_dice",
            "seat": seat,
            "phase": self.phase,
            "to_move": self.to_move(),
            "round": self.round + 1,
            "hand": self.rules.hand,
            "bids": self.rules.bids,
            "loss": self.rules.loss,
            "stock": list(self.stock),
            "dice_counts": [self.hand_size(s) for s in range(n)],
            "alive": [self.alive(s) for s in range(n)],
            "shown": [s for s in range(n) if self.alive(s) or self.rules.keep_eliminated],
            "out_round": list(self.out_round),
            "total_dice": self.total_dice(),
            "ones_wild": self.wild,
            "palifico": self.palifico,
            "locked_face": self.locked,
            "exact_calls": self.rules.calza_allowed(self.players_left()),
            "bid": None if self.bid is None else self.bid.short,
            "bidder": self.bidder,
            "history": [{"seat": s, "action": a} for s, a in self.history],
            "sheet": [list(row) for row in self.sheet],
            "last_round": self.last_round,
            "came_back": list(self.came_back),
        }
        self._show_dice(view, seat)
        if self.phase == OVER:
            view["outcome"] = self.outcome().to_json()
        return view

    @abstractmethod
    def _show_dice(self, view: LiarsView, seat: int | None) -> None:
        """Add the dice ``seat`` may see to its view."""


@dataclass(frozen=True)
class CommonHandState(LiarsState):
    """A cup each: every player rolls their own dice, and bids are about all of them."""

    def hand_size(self, seat: int) -> int:
        """How many dice ``seat`` rolls: its dice left, or all of them in lives mode."""
        if not self.alive(seat):
            return 0
        return self.rules.dice if self.rules.loss == "life" else self.stock[seat]

    def total_dice(self) -> int:
        """Every cup on the table."""
        return sum(self.hand_size(s) for s in range(self.game.players))

    def all_dice(self) -> list[int]:
        return [d for cup in self.cups if cup for d in cup]

    def _roll(self) -> Chance:
        seat = self._next_to_roll()
        assert seat is not None
        return Chance(seat=seat, count=self.hand_size(seat), sides=self.rules.faces,
                      private=True)

    def _next_to_roll(self) -> int | None:
        n = self.game.players
        for step in range(n):
            seat = (self.player + step) % n
            if self.alive(seat) and self.cups[seat] is None:
                return seat
        return None

    def _resolve(self, faces: Faces) -> Self:
        seat = self._next_to_roll()
        assert seat is not None
        cups = list(self.cups)
        cups[seat] = tuple(faces)
        state = changed(self, cups=tuple(cups))
        if state._next_to_roll() is None:
            return changed(state, phase=BID)
        return state

    def _calls_while_bidding(self) -> list[Action]:
        # the next player bids higher or calls the bid standing
        return self._calls() if self.bid is not None else []

    def now(self) -> Message:
        if self.bid is None:
            return self.smallest_bids()
        return Message("{smallest}, or challenge with 'dudo'",
                       {"smallest": self.smallest_bids()})

    def _more_than_there_are(self, total: int, smallest: Message) -> IllegalAction:
        return IllegalAction("there are only {total} dice on the table; {smallest}",
                             total=total, smallest=smallest)

    def _passed_on(self, seat: int) -> Self:
        return changed(self, player=seat)

    def _show_dice(self, view: LiarsView, seat: int | None) -> None:
        if seat is not None and self.cups[seat] is not None:
            view["your_dice"] = sorted(self.cups[seat] or ())

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        cups = tuple(cup if cup is None or s == seat
                     else tuple(rng.randint(1, self.rules.faces) for _ in cup)
                     for s, cup in enumerate(self.cups))
        return changed(self, cups=cups)


@dataclass(frozen=True)
class SingleHandState(LiarsState):
    """One shared cup: the active player rolls it and bids on it unseen by the others; the
    next accepts it (looks, keeps some dice openly, rerolls the rest and bids higher) or
    calls the bid."""

    cup: Faces = ()  # the shared cup (open dice included)
    open_dice: Faces = ()  # the dice kept openly on the table
    holder: int | None = None  # who has looked into the cup

    single: ClassVar[bool] = True

    def hand_size(self, seat: int) -> int:
        return 0  # nobody holds dice of their own

    def total_dice(self) -> int:
        """The shared cup."""
        return self.rules.dice

    def all_dice(self) -> list[int]:
        return list(self.cup)

    def _roll(self) -> Chance:
        return Chance(seat=self.player, count=self.rules.dice - len(self.cup), private=True)

    def _resolve(self, faces: Faces) -> Self:
        return changed(self, cup=(*self.cup, *faces), holder=self.player, phase=BID)

    def legal_actions(self) -> list[Action]:
        if self.phase == RESPOND:
            return [Accept(), *self._calls()] if self.legal_bids() else self._calls()
        if self.phase == KEEP:
            kept = {keep_faces(c) for size in range(len(self.cup) + 1)
                    for c in itertools.combinations(self.cup, size)}
            return [Keep(k) for k in sorted(kept, key=lambda k: (len(k), k))]
        return super().legal_actions()  # having taken the cup, only a higher bid

    def now(self) -> Message:
        if self.phase == RESPOND:
            return Message("'accept' the cup or challenge with 'dudo'")
        if self.phase == KEEP:
            return Message("keep some dice and reroll the rest ('keep 6 6', or 'keep none')")
        return self.smallest_bids()

    def _more_than_there_are(self, total: int, smallest: Message) -> IllegalAction:
        return IllegalAction("there are only {total} dice in the cup; {smallest}",
                             total=total, smallest=smallest)

    def _apply(self, action: Action) -> Self:
        seat = self.player
        if self.phase == KEEP:
            if not isinstance(action, Keep):
                raise IllegalAction("you have accepted the cup: keep some dice and reroll the "
                                    "rest (e.g. 'keep 6 6', or 'keep none' to reroll all)")
            return self._keep(seat, action)
        if self.phase == RESPOND and isinstance(action, (Bid, HandBid)):
            raise IllegalAction("accept the cup first (then keep, reroll and bid), or "
                                "challenge with 'dudo'")
        if self.phase == RESPOND and isinstance(action, Accept):
            if not self.legal_bids():
                raise IllegalAction("nothing beats {bid}: challenge with 'dudo'",
                                    bid=self.bid.short if self.bid else "")
            return changed(self, phase=KEEP, holder=seat,
                           history=(*self.history, (seat, "accept")))
        return super()._apply(action)

    def _call(self, seat: int, action: Action) -> Self:
        if self.phase == BID:
            raise IllegalAction("you took the cup: now bid higher ({smallest})",
                                smallest=self.smallest_bids())
        return super()._call(seat, action)

    def _passed_on(self, seat: int) -> Self:
        return changed(self, phase=RESPOND, player=seat)

    def _keep(self, seat: int, action: Keep) -> Self:
        if action not in self.legal_actions():
            raise IllegalAction("the cup holds {dice}: keep some of those dice (or 'keep "
                                "none')", dice=" ".join(map(str, keep_faces(self.cup))))
        state = changed(self, cup=action.faces, open_dice=action.faces,
                        history=(*self.history, (seat, str(action))))
        if len(action.faces) == self.rules.dice:
            return changed(state, phase=BID)
        return changed(state, phase=ROLL)

    def _record_dice(self, last: LiarsRound) -> None:
        last["cup"] = list(self.cup)

    def _new_round(self) -> dict[str, Any]:
        return {"cup": (), "open_dice": (), "holder": None}

    def _show_dice(self, view: LiarsView, seat: int | None) -> None:
        view["open_dice"] = list(self.open_dice)
        view["holder"] = self.holder
        if seat is not None and seat == self.holder and self.phase in (BID, RESPOND, KEEP):
            view["your_dice"] = sorted(self.cup)

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        if seat == self.holder or len(self.cup) == len(self.open_dice):
            return self
        hidden = len(self.cup) - len(self.open_dice)
        fresh = tuple(rng.randint(1, 6) for _ in range(hidden))
        return changed(self, cup=(*self.open_dice, *fresh))


# --------------------------------------------------------------------------- the game


@register
@dataclass(frozen=True)
class LiarsDice(Game[LiarsView]):
    """Liar's dice for 2 to 10 players, from Lögnare to Perudo, Common and Single Hand."""
    action_words: ClassVar[dict[str, dict[str, str]]] = {
        "sv": {"bid": "bud"}, "da": {"bid": "byd"}}

    rules: LiarsRules
    name: ClassVar[str] = "liars_dice"
    title: ClassVar[str] = marked("Liar's dice (Lögnare, Perudo)")
    summary: ClassVar[str] = marked("hidden cups, bids on all dice on the table: raise or call "
                                    "'dudo'; ones wild, exact calls and palifico as house rules")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    default_players: ClassVar[int] = 3
    rules_class: ClassVar[type[Rules]] = LiarsRules
    parts: ClassVar[Parts] = Parts(
        strategy=("kastkopp.strategy.liars_dice", "kastkopp.strategy.liars_odds",
                  "kastkopp.strategy.liars_search", "kastkopp.interop.ismcts"),
        review=("kastkopp.strategy.liars_dice_review",), sheet=("kastkopp.sheets.liars",),
        commands=("kastkopp.cli.solvers.liars_dice",), about="about:liars_dice",
        renderer="games/liars_dice.js")

    @classmethod
    def conformance_configs(cls) -> list[tuple[str | None, int]]:
        # every preset once; three players where exact calls or passing the cup need them
        return [(None, 3), ("lognare", 2), ("perudo", 3), ("dudo", 2), ("common_hand", 2),
                ("single_hand", 3), ("come_back", 3)]

    def new_state(self) -> LiarsState:
        n = self.players
        state = SingleHandState if self.rules.hand == "single" else CommonHandState
        return state(game=self, stock=(self.rules.start,) * n, cups=(None,) * n,
                          out_round=(None,) * n)

    def max_dice(self) -> int:
        return self.rules.dice if self.rules.hand == "single" else self.rules.dice * self.players

    def bounds(self) -> Bounds:
        # one winner takes all. A round ends in a call that costs someone at least one die
        # (or life) unless a right exact call gives one back, which can happen again and
        # again: only without that is the number of rounds fixed (the last player keeps one)
        if self.rules.exact_call != "off" and self.rules.exact_gain:
            return ZERO_SUM_SHARE
        bids = sum(1 for a in self.all_actions() if isinstance(a, Bid | HandBid))
        # every bid beats the last; in Single Hand a passed cup is accepted and kept from
        # before each new bid; one call ends the round
        per_round = 3 * bids if self.rules.hand == "single" else bids + 1
        rounds = self.players * self.rules.start - 1
        return changed(ZERO_SUM_SHARE, length=rounds * per_round)

    def world(self, view: dict[str, Any], rng: random.Random) -> LiarsState | None:
        if view["phase"] not in (BID, RESPOND, KEEP):
            return None  # between rolls a view does not say whose cup is rolled yet
        seat = view["seat"]
        shared = dict(
            game=self, stock=tuple(view["stock"]), player=view["to_move"],
            phase=view["phase"], round=view["round"] - 1,
            bid=None if view["bid"] is None else self._bid_of(view["bid"]),
            bidder=view["bidder"], palifico=view["palifico"], locked=view["locked_face"],
            history=tuple((h["seat"], h["action"]) for h in view["history"]),
            sheet=tuple(tuple(row) for row in view["sheet"]),
            out_round=tuple(view["out_round"]), came_back=tuple(view["came_back"]),
            last_round=view["last_round"])
        if self.rules.hand == "single":
            # the cup is full while it is bid on; only its holder has looked at all of it
            open_dice = tuple(view["open_dice"])
            cup = tuple(view.get("your_dice") or (*open_dice, *(
                rng.randint(1, 6) for _ in range(self.rules.dice - len(open_dice)))))
            return SingleHandState(**shared, cups=(None,) * self.players, cup=cup,
                                   open_dice=open_dice, holder=view["holder"])
        state = CommonHandState(**shared, cups=(None,) * self.players)
        cups = tuple(tuple(view["your_dice"]) if s == seat and "your_dice" in view
                     else tuple(rng.randint(1, self.rules.faces) for _ in range(size))
                     if (size := state.hand_size(s)) else None
                     for s in range(self.players))
        return changed(state, cups=cups)

    def _bid_of(self, short: str) -> AnyBid:
        bid = self.parse_action(f"bid {short}")
        assert isinstance(bid, (Bid, HandBid))
        return bid

    def parse_action(self, text: str) -> Action:
        """Read ``bid 4x5`` (or ``4x5``, ``bid 4 5``), ``dudo``, ``calza``; in poker-hand games
        ``bid pair 6``; in Single Hand also ``accept`` and ``keep 6 6`` / ``keep none``."""
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction("say a bid like 'bid 4x5', or 'dudo' to challenge")
        if len(words) == 1 and words[0] in _DUDO:
            return Dudo()
        if len(words) == 1 and words[0] in _CALZA:
            return Calza()
        if len(words) == 1 and words[0] in _ACCEPT and self.rules.hand == "single":
            return Accept()
        if words[0] in _KEEP and self.rules.hand == "single":
            if words[1:] in (["none"], ["nothing"], ["-"], []):
                return Keep(())
            return Keep(keep_faces(parse_face(w) for w in words[1:]))
        if words[0] in _BID:
            words = words[1:]
        rest = " ".join(words)
        if self.rules.bids == "hands":
            return HandBid(parse_hand(rest))
        match = re.fullmatch(r"(\d+)\s*(?:[x×*]\s*|\s)(\d+)s?", rest)
        if match is None:
            if self.rules.exact_call != "off":
                raise IllegalAction("cannot read '{text}': say 'bid 4x5' (four fives), 'dudo' "
                                    "or 'calza'", text=text.strip())
            raise IllegalAction("cannot read '{text}': say 'bid 4x5' (four fives) or 'dudo'",
                                text=text.strip())
        count, face = int(match.group(1)), int(match.group(2))
        if not 1 <= face <= self.rules.faces:
            raise IllegalAction("a die shows 1 to {faces}, not {face}", faces=self.rules.faces,
                                face=face)
        if count < 1:
            raise IllegalAction("a bid counts at least one die")
        return Bid(count, face)

    def all_actions(self) -> list[Action]:
        actions: list[Action]
        if self.rules.bids == "hands":
            actions = [HandBid(h) for h in HANDS if h.size <= self.max_dice()]
        else:
            actions = [Bid(q, f) for q in range(1, self.max_dice() + 1)
                       for f in range(1, self.rules.faces + 1)]
        actions.append(Dudo())
        if self.rules.exact_call != "off":
            actions.append(Calza())
        if self.rules.hand == "single":
            actions.append(Accept())
            actions += [Keep(keep_faces(k)) for size in range(self.rules.dice + 1)
                        for k in itertools.combinations_with_replacement(FACES, size)]
        return actions

    # -- the terminal ------------------------------------------------------------------
    def render(self, view: LiarsView, names: Sequence[str]) -> str:
        lives, lang = view["loss"] == "life", view.get("lang")
        if view["phase"] == "over":
            lines = [spoken(lang, "After {rounds} rounds", rounds=view["round"] - 1)]
        else:
            where = (spoken(lang, "in the shared cup") if view["hand"] == "single"
                     else spoken(lang, "on the table"))
            lines = [spoken(lang, "Round {round} · {dice} dice {where}", round=view["round"],
                            dice=view["total_dice"], where=where)
                     + (spoken(lang, " · ones wild") if view["ones_wild"] else "")]
        if view["palifico"] is not None:
            locked = view["locked_face"]
            on = spoken(lang, "one life") if lives else spoken(lang, "one die")
            face = (spoken(lang, "the face is locked to {face}s", face=locked) if locked
                    else spoken(lang, "the opening face will be locked"))
            lines.append(spoken(lang, "Palifico: {name} is on {one} — ones are not wild, "
                                "{face}", name=names[view["palifico"]], one=on, face=face))
        standing = ", ".join(self._standing(view, s, names) for s in view["shown"])
        lines.append(spoken(lang, "Lives: {lives}", lives=standing) if lives
                     else spoken(lang, "Dice: {dice}", dice=standing))
        last = view.get("last_round")
        if last and not view["history"]:
            lines.extend(self._last_round(last, names, lives, lang))
        for entry in view["history"]:
            lines.append(f"  {names[entry['seat']]}: "
                         f"{self.told_action(entry['action'], lang)}")
        if view["bid"] is not None and view["bidder"] is not None:
            lines.append(spoken(lang, "Bid: {bid} by {name}", bid=view["bid"],
                                name=names[view["bidder"]]))
        if view.get("open_dice"):
            lines.append(spoken(lang, "Open on the table: {dice}",
                                dice=" ".join(map(str, view["open_dice"]))))
        if "your_dice" in view:
            lines.append(spoken(lang, "Your dice: {value}",
                                value=" ".join(map(str, view["your_dice"]))))
        if "outcome" in view:
            lines.extend(self._sheet(view, names))
            ranking = [s for group in view["outcome"]["ranking"] for s in group]
            lines.append(spoken(lang, "{names} won.", names=names[ranking[0]]) + " "
                         + "  ".join(f"{i + 1}. {names[s]}" for i, s in enumerate(ranking)))
        return "\n".join(lines)

    @staticmethod
    def _sheet(view: LiarsView, names: Sequence[str]) -> list[str]:
        """The score sheet: a cell per round (+1 a loss, -1 won back, blank once out)."""
        lang = view.get("lang")
        shown = view["shown"]
        widths = [max(3, len(names[s])) for s in shown]
        def row(label: str, cells: Sequence[str]) -> str:
            return f"{label:>6} " + " ".join(f"{c:>{w}}" for c, w in zip(cells, widths,
                                                                            strict=True))
        lines = [row(spoken(lang, "round"), [names[s] for s in shown])]
        for number, cells in enumerate(view["sheet"], start=1):
            lines.append(row(str(number), ["" if cells[s] is None else str(cells[s])
                                           for s in shown]))
        lines.append(row(spoken(lang, "left"), [str(view["stock"][s]) for s in shown]))
        return lines

    @staticmethod
    def _standing(view: LiarsView, seat: int, names: Sequence[str]) -> str:
        if view["alive"][seat]:
            return f"{names[seat]} ({view['stock'][seat]})"
        return spoken(view.get("lang"), "{name} out (round {round})", name=names[seat],
                      round=(view["out_round"][seat] or 0) + 1)

    @staticmethod
    def _last_round(last: LiarsRound, names: Sequence[str], lives: bool,
                    lang: str | None = None) -> list[str]:
        bidder, caller = names[last["bidder"]], names[last["caller"]]
        if "actual" in last:
            count = last["actual"]
            found = (spoken(lang, "there was 1") if count == 1
                     else spoken(lang, "there were {count}", count=count))
        else:
            found = (spoken(lang, "it was there") if last["holds"]
                     else spoken(lang, "it was not there"))
        what = spoken(lang, "{caller} called {call} on {bidder}'s {bid}: {found}",
                      caller=caller, call=last["call"], bidder=bidder, bid=last["bid"],
                      found=found)
        change, loser = last["change"], names[last["seat"]]
        if change > 0:
            if lives:
                units = spoken(lang, "1 life") if change == 1 else spoken(
                    lang, "{count} lives", count=change)
            else:
                units = spoken(lang, "1 die") if change == 1 else spoken(
                    lang, "{count} dice", count=change)
            what += spoken(lang, " — {name} lost {what}", name=loser, what=units)
        elif last.get("come_back"):
            back = 1 - change
            units = (spoken(lang, "{count} lives", count=back) if lives
                     else spoken(lang, "{count} dice", count=back))
            what += spoken(lang, " — {name} comes back to {what}", name=loser, what=units)
        elif change < 0:
            what += (spoken(lang, " — {name} won a life back", name=loser) if lives
                     else spoken(lang, " — {name} won a die back", name=loser))
        else:
            what += spoken(lang, " — right, at a full hand {name} keeps what they have",
                           name=loser)
        lines = [spoken(lang, "Last round: {what}.", what=what)]
        if "cup" in last:
            lines.append(spoken(lang, "  The cup: {dice}",
                                dice=" ".join(map(str, sorted(last["cup"])))))
        else:
            lines.append(spoken(lang, "  Cups: {cups}", cups=" · ".join(
                f"{names[s]}: {' '.join(map(str, sorted(c)))}"
                for s, c in enumerate(last["cups"]) if c)))
        return lines


"""Slosch (Mia, Mäxchen): two dice in a cup with a lid, and a claim passed around the table.

The rules, in the order Tärningsspel tells them:

1. A roll reads high die × 10 + low die. The order, best first, is
   ``21 (Slosch), 11, 22, 33, 44, 55, 66, 65, 64, … , 32, 31`` — 11 is the best double.
   (House rule ``order=classic``: 66 > 55 > … > 11, as most Mia tables play it.)
2. Everyone starts with three lives (``lives``). The roller looks at the dice, keeps them
   hidden and announces any value — the truth, higher or lower — and passes the cup on.
3. The receiver **believes** (``roll``: rolls anew and must announce strictly higher),
   **calls** (``call``: the cup is lifted; dice lower than the claim cost the announcer, equal
   or higher cost the caller) or **passes** without looking (``pass``: hands the cup on with
   the same claim and takes over responsibility for it; the previous player is freed).
4. If Slosch is rolled or claimed in the decisive exchange, the loser loses two lives
   (``slosch_double``). The loser starts the next round with a fresh roll (``loser_starts``).
5. Everyone pays ``stake`` into the pot; the last player with a life wins it.

The Mäxchen bot-competition servers play the same family (preset ``maexchen``): classic
order, no passing, announcing Mia reveals at once (true: everyone else loses; false: the
announcer loses), and instead of lives every player scores +1 per round played and −1 per
round lost (``scoring=points`` over ``rounds`` rounds).

Decisions where the seed is silent, as players decide them:

- The first announcement of a round may be any value; later ones must be strictly higher.
- Believing a claim that nothing beats (Slosch) is not possible: call or pass.
- A claim can go round the table unseen only once: a player who has already answered for
  the claim in the cup (its announcer, or a player who passed it) may not pass it again, and
  must roll or call when it comes back. Without this, a cup could be passed back and forth
  for ever at a table of two.
- When Mia is revealed and several players lose at once, the player after the announcer
  starts the next round; players who go out in the same exchange share their place.
- An odd unit of a split pot goes to the first winner clockwise from seat 0.

Usage::

    >>> from kastkopp.games import load
    >>> game = load("mia", players=3)
    >>> state = game.new_state().resolve((2, 1)).apply("announce 21")
    >>> [str(a) for a in state.legal_actions()]
    ['call', 'pass']
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal, TypedDict

from kastkopp.dice import Faces
from kastkopp.engine import (
    ZERO_SUM_SHARE,
    Action,
    Bounds,
    Chance,
    Game,
    IllegalAction,
    Outcome,
    OutcomeJSON,
    Parts,
    Rules,
    Said,
    State,
    ranking_by,
    register,
    rule,
    winner_takes_all,
)
from kastkopp.games.stakes import Ledger
from kastkopp.locale import marked, minus, spoken

# --------------------------------------------------------------------------- values

MIA = 21
SLOSCH_ORDER = (21, 11, 22, 33, 44, 55, 66, 65, 64, 63, 62, 61,
                54, 53, 52, 51, 43, 42, 41, 32, 31)
CLASSIC_ORDER = (21, 66, 55, 44, 33, 22, 11, 65, 64, 63, 62, 61,
                 54, 53, 52, 51, 43, 42, 41, 32, 31)
ORDERS = {"slosch": SLOSCH_ORDER, "classic": CLASSIC_ORDER}


def read(faces: Faces) -> int:
    """The value of two dice: high die × 10 + low die (``(3, 5)`` reads 53)."""
    high, low = max(faces), min(faces)
    return high * 10 + low


def chance_of(value: int) -> Fraction:
    """The chance that two dice read ``value``: 1/36 for a double, 2/36 otherwise."""
    return Fraction(1 if value // 10 == value % 10 else 2, 36)


def parse_value(text: str) -> int:
    """Read a value as players write it: ``54``, ``45`` (same), ``5-4``, ``slosch``, ``mia``."""
    word = text.strip().lower()
    if word in {"slosch", "mia", "mäxchen", "maexchen"}:
        return MIA
    digits = [c for c in word if c.isdigit()]
    if len(digits) != 2 or any(c not in "123456" for c in digits) or len(word) > 3:
        raise IllegalAction("'{text}' is not a roll of two dice (write it like 54)", text=text)
    return read((int(digits[0]), int(digits[1])))


def value_name(value: int) -> str:
    return "Slosch" if value == MIA else str(value)


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class MiaRules(Rules):
    lives: int = rule(3, "lives each player starts with", min=1, max=9)
    order: str = rule("slosch", "value order: slosch (11 best double) or classic (66 best)",
                      choices=tuple(ORDERS))
    slosch_double: bool = rule(True, "Slosch rolled or claimed in the decisive exchange "
                               "costs two lives")
    passing: bool = rule(True, "a player may pass the cup on without looking")
    loser_starts: bool = rule(True, "the loser starts the next round (else the next player)")
    mia_reveals: bool = rule(False, "announcing Slosch lifts the cup at once (Mäxchen)")
    scoring: str = rule("lives", "lives: last player with lives wins; points: +1 per round "
                        "played, -1 per round lost", choices=("lives", "points"))
    rounds: int = rule(10, "rounds played when scoring is points", min=1, max=1000)
    stake: int = rule(1, "what each player pays into the pot (0: no pot)", min=0,
                      max=1_000_000)

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "slosch": {},
        "classic": {"order": "classic"},
        "maexchen": {"order": "classic", "passing": False, "mia_reveals": True,
                     "slosch_double": False, "scoring": "points", "stake": 0},
    }
    PRESET_HELP: ClassVar[dict[str, str]] = {
        "slosch": marked("Slosch as Tärningsspel plays it: 11 the best double, Slosch costs "
                         "two lives"),
        "classic": marked("Mia with the classic order, 66 the best double"),
        "maexchen": marked("the Mäxchen bot-competition rules: +1 per round, -1 per loss"),
    }

    @functools.cached_property
    def values(self) -> tuple[int, ...]:
        """Every value, worst first."""
        return tuple(reversed(ORDERS[self.order]))

    @functools.cached_property
    def _ranks(self) -> dict[int, int]:
        return {value: index for index, value in enumerate(self.values)}

    def rank(self, value: int) -> int:
        """0 for the worst value (31) up to 20 for Slosch."""
        return self._ranks[value]

    @functools.cached_property
    def announcements(self) -> dict[int | None, tuple[Announce, ...]]:
        """The announcements allowed over each claim (``None``: the first of a round),
        worst first: made once, as every position asks for them."""
        return {claim: tuple(_ANNOUNCE[v] for v in
                             (self.values if claim is None else
                              self.values[self._ranks[claim] + 1:]))
                for claim in (None, *self.values)}

    @functools.cached_property
    def announcement_notations(self) -> dict[int | None, list[str]]:
        """:attr:`announcements` as their notation."""
        return {claim: [str(a) for a in actions]
                for claim, actions in self.announcements.items()}

    def beaten(self, value: int) -> Fraction:
        """The chance that one fresh roll beats ``value`` (strictly)."""
        return sum((chance_of(v) for v in self.values[self.rank(value) + 1:]), Fraction(0))


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Announce(Action):
    value: int

    def __str__(self) -> str:
        # written once per value: every frame lists the legal announcements as text
        text = _ANNOUNCE_TEXT.get(self.value)
        return f"announce {self.value}" if text is None else text


@dataclass(frozen=True)
class Roll(Action):
    """Believe the claim: roll the dice anew (and then announce higher)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Call(Action):
    """Lift the cup."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True)
class Pass(Action):
    """Hand the cup on unseen with the same claim, answering for it."""

    def __str__(self) -> str:
        return "pass"


# One action object per value: they are values, and legal_actions() lists them often.
_ANNOUNCE = {value: Announce(value) for value in SLOSCH_ORDER}
_ANNOUNCE_TEXT = {value: f"announce {value}" for value in SLOSCH_ORDER}
_ROLL, _CALL, _PASS = Roll(), Call(), Pass()

_WORDS: dict[str, Action] = {}
for _word in ("roll", "believe", "tro", "rulla", "slå", "kast", "ryst"):
    _WORDS[_word] = Roll()
for _word in ("call", "lift", "lyft", "syna", "løft", "see"):
    _WORDS[_word] = Call()
for _word in ("pass", "passa", "videre", "vidare"):
    _WORDS[_word] = Pass()
_ANNOUNCE_WORDS = ("announce", "say", "säg", "sig", "meld")


_PARSED: dict[str, Action] = {}  # notations read before (play sends the same few dozen)
_PARSED_KEPT = 1024


def parse_action(text: str) -> Action:
    """Read ``announce 54`` (or just ``54``), ``roll``, ``call`` or ``pass``."""
    action = _PARSED.get(text)
    if action is None:
        action = _parse_action(text)
        if len(_PARSED) < _PARSED_KEPT:
            _PARSED[text] = action
    return action


def _parse_action(text: str) -> Action:
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _WORDS:
        return _WORDS[words[0]]
    if len(words) == 2 and words[0] in _ANNOUNCE_WORDS:
        return _ANNOUNCE[parse_value(words[1])]
    if len(words) == 1 and (words[0][:1].isdigit() or words[0] in {"mia", "slosch"}):
        return _ANNOUNCE[parse_value(words[0])]
    raise IllegalAction("cannot read '{text}': say 'announce 54', 'roll', 'call' or 'pass'",
                        text=text.strip())


# --------------------------------------------------------------------------- state

ROLL, ANNOUNCE, RESPOND, OVER = "roll", "announce", "respond", "over"


def replace(state: MiaState, **changes: Any) -> MiaState:
    """``dataclasses.replace`` for states without its per-field work: every move makes
    a few new states, and a server plays thousands of moves a second."""
    if not _FIELDS.issuperset(changes):
        unknown = changes.keys() - _FIELDS
        raise TypeError(f"MiaState has no field {', '.join(sorted(unknown))}")
    new = object.__new__(MiaState)
    new.__dict__.update(state.__dict__, **changes)
    return new


class _MiaRound(TypedDict):
    round: int
    dice: str | None  # what the cup showed, None when it was not lifted
    claim: str | None
    caller: int | None
    responsible: int | None
    losers: list[int]
    cost: int
    actions: list[list[int | str]]  # [seat, action] as the round's history said them


class MiaRound(_MiaRound, total=False):
    """How a round ended, as the next round's view shows it."""

    penalty: str  # the reason a seat was penalised outside the rules of play


class _MiaView(TypedDict):
    game: Literal["mia"]
    seat: int | None
    phase: str
    to_move: int | None
    round: int
    lives: list[int]
    alive: list[bool]
    claim: str | None
    responsible: int | None
    roller: int | None
    history: list[Said]
    last_round: MiaRound | None
    pot: int
    balances: list[int]


class MiaView(_MiaView, total=False):
    """What a seat of a Slosch table sees (:meth:`MiaState.view`)."""

    points: list[int]  # scoring by points
    your_dice: str  # the roller's own dice
    outcome: OutcomeJSON
    lang: str  # the reader's language, added by the terminal for :meth:`Mia.render`


@dataclass(frozen=True)
class MiaState(State[MiaView]):
    game: Mia
    lives: tuple[int, ...]
    losses: tuple[int, ...]
    ledger: Ledger
    player: int = 0
    phase: str = ROLL
    round: int = 0  # rounds finished
    dice: Faces | None = None
    roller: int | None = None  # who rolled (and saw) the dice in the cup
    claim: int | None = None
    responsible: int | None = None  # who answers for the claim
    answered: frozenset[int] = frozenset()  # who has answered for this claim (may not pass)
    out_round: tuple[int | None, ...] = ()  # the round in which each player went out
    history: tuple[tuple[int, str], ...] = ()  # this round's public actions
    last_round: MiaRound | None = field(default=None, compare=True, hash=False)

    @property
    def rules(self) -> MiaRules:
        return self.game.rules

    def alive(self, seat: int) -> bool:
        return self.rules.scoring == "points" or self.lives[seat] > 0

    def next_alive(self, seat: int) -> int:
        n = self.game.players
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self.alive(other):
                return other
        return seat

    # -- protocol ------------------------------------------------------------------
    def to_move(self) -> int | None:
        return self.player if self.phase in (ANNOUNCE, RESPOND) else None

    def chance(self) -> Chance | None:
        if self.phase == ROLL:
            return _ROLLS[self.player]
        return None

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_announcements(self) -> list[int]:
        values = self.rules.values
        if self.claim is None:
            return list(values)
        return list(values[self.rules.rank(self.claim) + 1:])

    def legal_actions(self) -> list[Action]:
        if self.phase == ANNOUNCE:
            return list(self.rules.announcements[self.claim])
        if self.phase == RESPOND:
            actions: list[Action] = []
            if self.claim != self.rules.values[-1]:  # something beats the claim
                actions.append(_ROLL)
            actions.append(_CALL)
            if self.rules.passing and self.player not in self.answered:
                actions.append(_PASS)
            return actions
        return []

    def legal_notations(self) -> list[str]:
        if self.phase == ANNOUNCE:
            return list(self.rules.announcement_notations[self.claim])
        return [str(action) for action in self.legal_actions()]

    def default_action(self) -> Action:
        """A player out of time calls; a roller announces the lowest value he may. Never
        the truth: a move made for a player tells everyone its reason, so it must not
        depend on dice only he has seen."""
        if self.phase == RESPOND:
            return Call()
        if self.phase == ANNOUNCE:
            return _ANNOUNCE[self.legal_announcements()[0]]
        return super().default_action()

    def _apply(self, action: Action) -> MiaState:
        seat = self.player
        if self.phase == ANNOUNCE:
            if not isinstance(action, Announce):
                raise IllegalAction("you have rolled; now announce a value (e.g. 'announce "
                                    "{value}')", value=self.legal_announcements()[0])
            return self._announce(seat, action.value)
        if isinstance(action, Announce):
            raise IllegalAction("roll the dice before you announce (or call, or pass)")
        if isinstance(action, Roll):
            if self.claim == self.rules.values[-1]:  # nothing beats it
                raise IllegalAction("nothing beats {claim}: call or pass",
                                    claim=value_name(self.claim or MIA))
            return replace(self, phase=ROLL, history=(*self.history, (seat, "roll")))
        if isinstance(action, Pass):
            if not self.rules.passing:
                raise IllegalAction("passing is not allowed at this table")
            if seat in self.answered:
                raise IllegalAction("you have answered for this claim already: roll or call")
            return replace(self, responsible=seat, player=self.next_alive(seat),
                           answered=self.answered | {seat},
                           history=(*self.history, (seat, "pass")))
        if isinstance(action, Call):
            return self._lift(caller=seat)
        raise IllegalAction("'{action}' is not a Slosch action", action=str(action))

    def _resolve(self, faces: Faces) -> MiaState:
        return replace(self, dice=faces, roller=self.player, phase=ANNOUNCE)

    def _announce(self, seat: int, value: int) -> MiaState:
        ranks = self.rules._ranks
        rank = ranks.get(value)
        if rank is None or (self.claim is not None and rank <= ranks[self.claim]):
            raise IllegalAction("{value} is not higher than the claim {claim}; the lowest "
                                "announcement is {lowest}", value=value_name(value),
                                claim=value_name(self.claim or MIA),
                                lowest=self.legal_announcements()[0])
        changes: dict[str, Any] = {
            "claim": value, "responsible": seat, "answered": frozenset((seat,)),
            "history": (*self.history, (seat, _ANNOUNCE_TEXT[value]))}
        if value == MIA and self.rules.mia_reveals:
            return replace(self, **changes)._reveal_mia(seat)
        return replace(self, phase=RESPOND, player=self.next_alive(seat), **changes)

    def _lift(self, caller: int) -> MiaState:
        assert self.dice is not None and self.claim is not None and self.responsible is not None
        actual = read(self.dice)
        claim_holds = self.rules.rank(actual) >= self.rules.rank(self.claim)
        loser = caller if claim_holds else self.responsible
        double = self.rules.slosch_double and MIA in (actual, self.claim)
        return self._end_round((loser,), 2 if double else 1, caller, actual)

    def _reveal_mia(self, announcer: int) -> MiaState:
        assert self.dice is not None
        actual = read(self.dice)
        if actual == MIA:
            losers = tuple(s for s in range(self.game.players)
                           if s != announcer and self.alive(s))
        else:
            losers = (announcer,)
        cost = 2 if self.rules.slosch_double else 1
        return self._end_round(losers, cost, None, actual)

    def penalty(self, seat: int, reason: str) -> MiaState:
        """``seat`` loses the round without the cup being lifted (on a Mäxchen server: no
        answer in time, or an answer the rules refuse). It costs what a lost round costs;
        the dice stay hidden, and the reason is shown with the round."""
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if not 0 <= seat < self.game.players or not self.alive(seat):
            raise IllegalAction("seat {seat} is not playing this round", seat=seat)
        return self._end_round((seat,), 1, None, None, penalty=reason)

    def _end_round(self, losers: tuple[int, ...], cost: int, caller: int | None,
                   actual: int | None, penalty: str | None = None) -> MiaState:
        lives, losses, out_round = list(self.lives), list(self.losses), list(self.out_round)
        for seat in losers:
            losses[seat] += 1
            if self.rules.scoring == "lives":
                lives[seat] = max(0, lives[seat] - cost)
                if lives[seat] == 0:
                    out_round[seat] = self.round
        last: MiaRound = {
            "round": self.round + 1, "dice": None if actual is None else str(actual),
            "claim": None if self.claim is None else str(self.claim),
            "caller": caller, "responsible": self.responsible, "losers": list(losers),
            "cost": cost, "actions": [list(h) for h in self.history]}
        if penalty is not None:
            last["penalty"] = penalty
        state = replace(self, lives=tuple(lives), losses=tuple(losses),
                        out_round=tuple(out_round), round=self.round + 1, dice=None,
                        roller=None, claim=None, responsible=None, answered=frozenset(),
                        history=(), last_round=last)
        if state._finished():
            winners = state.outcome().winners
            return replace(state, phase=OVER, ledger=state.ledger.award(winners)
                           if state.ledger.pot else state.ledger)
        if len(losers) == 1:
            loser = losers[0]
            starts = loser if self.rules.loser_starts and state.alive(loser) \
                else state.next_alive(loser)
        else:
            announcer = self.responsible if self.responsible is not None else self.player
            starts = state.next_alive(announcer)
        # the new state is nobody's yet: finished here rather than copied once more
        state.__dict__.update(phase=ROLL, player=starts)
        return state

    def _finished(self) -> bool:
        if self.rules.scoring == "points":
            return self.round >= self.rules.rounds
        return sum(1 for s in range(self.game.players) if self.alive(s)) <= 1

    def points(self) -> tuple[int, ...]:
        return tuple(self.round - lost for lost in self.losses)

    def outcome(self) -> Outcome:
        n = self.game.players
        if self.rules.scoring == "points":
            points = self.points()
            ranking = ranking_by(points)
            mean = sum(points) / n
            payoffs = tuple(float(p - mean) for p in points)
            scores = tuple(float(p) for p in points)
        else:
            # survivors by lives, then the eliminated by when they went out (later is better)
            keys = [(1, self.lives[s], 0) if self.lives[s] > 0
                    else (0, 0, self.out_round[s] or 0) for s in range(n)]
            ranking = ranking_by(keys)
            scores = tuple(float(v) for v in self.lives)
            payoffs = winner_takes_all(n, ranking[0][0]) if len(ranking[0]) == 1 \
                else tuple(0.0 for _ in range(n))
        if self.rules.stake:
            payoffs = tuple(float(b) for b in self.ledger.balances())
        return Outcome(ranking=ranking, scores=scores, payoffs=payoffs)

    def view(self, seat: int | None) -> MiaView:
        points = self.rules.scoring == "points"
        phase = self.phase
        ledger = self.ledger
        view: MiaView = {
            "game": "mia",
            "seat": seat,
            "phase": phase,
            "to_move": self.player if phase in (ANNOUNCE, RESPOND) else None,
            "round": self.round + 1,
            "lives": list(self.lives),
            "alive": [True] * len(self.lives) if points else [n > 0 for n in self.lives],
            "claim": None if self.claim is None else str(self.claim),
            "responsible": self.responsible,
            "roller": self.roller,
            "history": [{"seat": s, "action": a} for s, a in self.history],
            "last_round": self.last_round,
            "pot": ledger.pot if ledger.movements else 0,
            "balances": list(ledger.balances()) if ledger.movements
            else [0] * ledger.players,
        }
        if points:
            view["points"] = [self.round - lost for lost in self.losses]
        if seat is not None and seat == self.roller and self.dice is not None:
            view["your_dice"] = str(read(self.dice))
        if self.phase == OVER:
            view["outcome"] = self.outcome().to_json()
        return view

    def resample_hidden(self, seat: int | None, rng: random.Random) -> MiaState:
        if self.dice is None or seat == self.roller:
            return self
        return replace(self, dice=(rng.randint(1, 6), rng.randint(1, 6)))


_FIELDS = frozenset(f.name for f in dataclasses.fields(MiaState))


# --------------------------------------------------------------------------- the game


@register
@dataclass(frozen=True)
class Mia(Game[MiaView]):
    """Slosch / Mia / Mäxchen for 2 to 10 players."""
    action_words: ClassVar[dict[str, dict[str, str]]] = {
        "sv": {"roll": "rulla", "call": "lyft", "pass": "passa", "announce": "säg"},
        "da": {"roll": "ryst", "call": "løft", "pass": "videre", "announce": "sig"},
    }

    rules: MiaRules
    name: ClassVar[str] = "mia"
    title: ClassVar[str] = "Slosch (Mia)"
    summary: ClassVar[str] = marked("two hidden dice, a claim passed on: believe, call or pass; "
                                    "Slosch (21) beats everything")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    default_players: ClassVar[int] = 3
    rules_class: ClassVar[type[Rules]] = MiaRules
    parts: ClassVar[Parts] = Parts(
        strategy=("kastkopp.strategy.mia", "kastkopp.strategy.mia_odds",
                  "kastkopp.interop.ismcts"),
        review=("kastkopp.strategy.mia_review",), sheet=("kastkopp.sheets.slosch",),
        commands=("kastkopp.cli.solvers.mia",), about="about:mia",
        renderer="games/mia.js", default_for=("play",))

    def new_state(self) -> MiaState:
        ledger = Ledger(self.players)
        if self.rules.stake:
            ledger = ledger.ante_all(self.rules.stake)
        n = self.players
        return MiaState(game=self, lives=(self.rules.lives,) * n, losses=(0,) * n,
                        ledger=ledger, out_round=(None,) * n)

    def bounds(self) -> Bounds:
        # played for lives alone, one winner takes all; points and stakes have no fixed range
        points = self.rules.scoring == "points"
        utility = None if points or self.rules.stake else ZERO_SUM_SHARE.utility
        # every round costs a life (the game ends with one player left) or counts to the
        # rounds played for points; in a round every claim beats the last, and each claim is
        # answered by a pass from each other seat at most, a roll and the announcement
        n = self.players
        rounds = self.rules.rounds if points else n * self.rules.lives - 1
        per_round = len(self.rules.values) * (n + 2) + 1
        return Bounds(utility=utility, length=rounds * per_round)

    def world(self, view: dict[str, Any], rng: random.Random) -> MiaState | None:
        if view["phase"] not in (ANNOUNCE, RESPOND):
            return None
        n = self.players
        start = self.new_state()  # the antes are all the pot holds until the game ends
        # who may no longer pass: the announcer, and whoever passed the claim on since
        answered: set[int] = set()
        for entry in view["history"]:
            if entry["action"] == "pass":
                answered.add(entry["seat"])
            elif entry["action"] != "roll":
                answered = {entry["seat"]}
        told = view.get("your_dice")
        dice = (int(told) // 10, int(told) % 10) if told else (rng.randint(1, 6),
                                                                rng.randint(1, 6))
        # points show each seat's losses; for lives the view keeps neither losses nor when
        # a seat went out, and no payoff of a game for lives depends on them
        losses = tuple(view["round"] - 1 - p for p in view["points"]) if "points" in view \
            else (0,) * n
        return replace(
            start, lives=tuple(view["lives"]), losses=losses, player=view["to_move"],
            phase=view["phase"], round=view["round"] - 1, dice=dice, roller=view["roller"],
            claim=None if view["claim"] is None else int(view["claim"]),
            responsible=view["responsible"], answered=frozenset(answered),
            out_round=tuple(None if alive else 0 for alive in view["alive"]),
            history=tuple((h["seat"], h["action"]) for h in view["history"]),
            last_round=view["last_round"])

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def all_actions(self) -> list[Action]:
        return [*(Announce(v) for v in self.rules.values), Roll(), Call(), Pass()]

    def render(self, view: MiaView, names: Sequence[str]) -> str:
        lang = view.get("lang")
        lines = [spoken(lang, "Round {round}", round=view["round"])
                 + (spoken(lang, " · pot {pot}", pot=view["pot"]) if view["pot"] else "")]
        if "points" in view:
            lines.append(spoken(lang, "Points: {points}", points=", ".join(
                f"{names[s]} {minus(p)}" for s, p in enumerate(view["points"]))))
        else:
            out = spoken(lang, "out")
            lines.append(spoken(lang, "Lives: {lives}", lives=", ".join(
                f"{names[s]} {'♥' * lives if lives else out}"
                for s, lives in enumerate(view["lives"]))))
        last = view.get("last_round")
        if last and not view["history"]:
            lines.append(spoken(lang, "Last round: {what}.",
                                what=_last_round(last, names, "points" in view, lang)))
        for entry in view["history"]:
            lines.append(f"  {names[entry['seat']]}: "
                         f"{self.told_action(entry['action'], lang)}")
        responsible = view["responsible"]  # set with every claim
        if view["claim"] is not None and responsible is not None:
            lines.append(spoken(lang, "Claim: {value} ({name} answers for it)",
                                value=value_name(int(view["claim"])), name=names[responsible]))
        if "your_dice" in view:
            lines.append(spoken(lang, "Your dice: {value}",
                                value=value_name(int(view["your_dice"]))))
        if "outcome" in view:
            winners = " & ".join(names[s] for s in view["outcome"]["ranking"][0])
            lines.append(spoken(lang, "{names} won.", names=winners))
        return "\n".join(lines)


# the dice each seat waits for, one value per seat (a state asks for them at every move)
_ROLLS = tuple(Chance(seat=seat, count=2, private=True) for seat in range(Mia.max_players))


def _last_round(last: MiaRound, names: Sequence[str], points: bool,
                lang: str | None = None) -> str:
    """How a round ended, in words: who called whom, what the dice showed, who lost what."""
    losers = " & ".join(names[s] for s in last["losers"])
    cost = last["cost"]
    if points:
        lost = spoken(lang, "1 point") if cost == 1 else spoken(lang, "{count} points",
                                                                  count=cost)
    else:
        lost = spoken(lang, "1 life") if cost == 1 else spoken(lang, "{count} lives",
                                                                 count=cost)
    if "penalty" in last:
        return spoken(lang, "{losers} lost {lost} ({reason})", losers=losers, lost=lost,
                      reason=last["penalty"])
    nothing = spoken(lang, "nothing")
    claim = value_name(int(last["claim"])) if last["claim"] else nothing
    dice = value_name(int(last["dice"])) if last["dice"] else nothing
    why = spoken(lang, " — Slosch counts double") if cost == 2 else ""
    responsible = last["responsible"]
    who = names[responsible] if responsible is not None else spoken(lang, "the roller")
    if last["caller"] is None:  # a Slosch claim is shown, never called
        return spoken(lang, "{who} claimed {claim} and showed {dice}: {losers} lost {lost}",
                      who=who, claim=claim, dice=dice, losers=losers, lost=lost) + why
    return spoken(lang, "{caller} lifted the cup on {who}'s {claim}: it was {dice} — "
                  "{losers} lost {lost}", caller=names[last["caller"]], who=who, claim=claim,
                  dice=dice, losers=losers, lost=lost) + why

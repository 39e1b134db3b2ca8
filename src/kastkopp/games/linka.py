"""Linka: two shared dice on the table, two own dice each — one open, one hidden in the cup.

The rules, in the order Tärningsspel tells them:

1. Everyone pays the ante (``ante``) into the pot.
2. One player (seat 0, the dealer) throws the two shared *linka* dice, A ≥ B, sum S = A + B.
3. The aim is to make A, B and/or S with one's own two dice x and y; their sum x + y
   counts as a third number.
4. Each player throws one die, open for all to see, then a second one hidden in the cup.
5. Betting starts left of the dealer. Each player may raise once (``raise N``, at most the
   pot), ``call`` what is owed (``check`` when nothing is), or ``fold``, forfeiting what he
   has paid in. Betting ends when everyone still in has matched the highest bet.
6. The hidden dice are shown. Best is to have the linka dice exactly ({x, y} = {A, B});
   then to make both A and B (each with a different one of x, y, x + y); then S; then A;
   then B. With none of these, the higher own sum wins.
7. Equal best hands play again among themselves, with new dice and without new bets.

Decisions where the seed is silent, as players decide them:

- A game is one pot; the dealer is seat 0 (seat the players so that the dealer comes first).
- A raise is at most the pot as it stands after the raiser has called what he owes
  (Tärningsspel's example: Rejd raises 4 on a pot of 10, Vikos calls 4 and raises 2).
- Hands of the same class are equal, except "nothing", which the higher own sum breaks;
  equal hands replay. In a replay there is nothing to bet, so both own dice are thrown open.
- A linka double (A = B) is made "both" only by two of x, y, x + y showing it, which only
  the exact pair can do.
- Folded players do not show their hidden die. A player alone in the pot wins it unseen.
- A player short of money may go all-in if the others agree (house rule ``all_in``: ``ask``
  them at the table, each answers ``accept`` or ``refuse``, and a refusal leaves him to
  fold; or ``yes``, agreed before play). The pot is then paid out in layers, each to the
  best hand among those who paid into it; replays settle who is best among equals.

Usage::

    >>> from kastkopp.games import load
    >>> game = load("linka", players=2, ante=5)
    >>> state = game.new_state().resolve((5, 4))          # the linka dice
    >>> state = state.resolve((6,)).resolve((4,))         # Rejd's open die, then Vikos's
    >>> state = state.resolve((3,)).resolve((1,))         # the hidden dice
    >>> state.view(1)["dice"], state.view(1)["your_hand"]
    ([[4], [6, 3]], 'the linka sum')
    >>> [str(a) for a in state.legal_actions()][:3]
    ['check', 'raise 1', 'raise 2']
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypedDict

from kastkopp.dice import Faces
from kastkopp.engine import (
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
    either,
    ranking_by,
    register,
    term,
)
from kastkopp.games.stakes import (
    Accept,
    AllIn,
    Call,
    Check,
    Fold,
    Ledger,
    MovementJSON,
    PotRules,
    Raise,
    Refuse,
    parse_bet,
)
from kastkopp.locale import marked, signed, spoken

# --------------------------------------------------------------------------- hands

EXACT, BOTH, SUM, HIGH, LOW, NOTHING = 6, 5, 4, 3, 2, 1
HAND_NAMES = {EXACT: "the linka dice exactly", BOTH: "both linka dice",
              SUM: "the linka sum", HIGH: "the high linka die", LOW: "the low linka die",
              NOTHING: "nothing"}
HAND_KEYS = {EXACT: "exact", BOTH: "both", SUM: "sum", HIGH: "high", LOW: "low",
             NOTHING: "nothing"}

# What the table's page says (static/games/linka.js, its words translated on the server):
# the hands, the deal and the betting told
PAGE_WORDS = (marked("nothing (sum {n})"), marked("the linka dice exactly"),
              marked("both linka dice"), marked("the linka sum"), marked("the high linka die"),
              marked("the low linka die"), marked("A hidden die under the cup"),
              marked("Your hidden die: only you see it"), marked("Your hidden die: {face}"),
              marked("The linka dice are thrown"), marked("Everyone throws their dice"),
              marked("{name} checks, raises (at most {n}) or folds"),
              marked("{name} checks or folds"),
              marked("{name} must call {owed}, raise (at most {n}) or fold"),
              marked("{name} wins the pot of {n} with {hand}"),
              marked("{name} shares the pot of {n} with {hand}"),
              marked("The linka dice: {a} and {b} (sum {s})"),
              marked("{name} throws {a} and {b}"), marked("{name} throws {face} open"),
              marked("You throw {dice}"), marked("The cups are lifted"),
              marked("Equal hands play again: {names}"), marked("dealer"),
              marked("has raised"), marked("Linka dice"), marked("Linka sum"),
              marked("Deal {n}: equal hands play again"), marked("Your hand"))


@dataclass(frozen=True, order=True)
class Hand:
    """A hand's class (6 = the linka dice exactly … 1 = nothing) and, for nothing, the sum."""

    rank: int
    own_sum: int = 0

    @property
    def name(self) -> str:
        if self.rank == NOTHING:
            return f"nothing (sum {self.own_sum})"
        return HAND_NAMES[self.rank]


def hand(linka: Faces, dice: Faces) -> Hand:
    """The hand that own dice ``dice`` make against the ``linka`` dice.

    >>> hand((5, 4), (4, 1)).name, hand((5, 4), (6, 3)).name, hand((2, 1), (5, 5)).name
    ('both linka dice', 'the linka sum', 'nothing (sum 10)')
    """
    high, low = max(linka), min(linka)
    x, y = dice
    numbers = (x, y, x + y)
    if sorted(dice) == sorted(linka):
        return Hand(EXACT)
    if any(numbers[i] == high and numbers[j] == low
           for i, j in itertools.permutations(range(3), 2)):
        return Hand(BOTH)
    if high + low in numbers:
        return Hand(SUM)
    if high in numbers:
        return Hand(HIGH)
    if low in numbers:
        return Hand(LOW)
    return Hand(NOTHING, x + y)


def equity(linka: Faces, mine: Faces, others_open: Sequence[int]) -> float:
    """My expected share of the pot at the showdown, the others' hidden dice unknown.

    Equal best hands replay with fresh dice, where every player is equally likely to win.

    Seed example 2: Rejd (4 and 1 against 2-1) loses only to Vikos's hidden 2 or 3, "a
    chance of 1/3", and ties on a 1, which replays:

    >>> equity((2, 1), (4, 1), [5]) == 1 / 2 + 1 / 12
    True
    """
    own = hand(linka, mine)
    total = 0.0
    combos = itertools.product(range(1, 7), repeat=len(others_open))
    count = 0
    for hidden in combos:
        count += 1
        hands = [hand(linka, (o, h)) for o, h in zip(others_open, hidden, strict=True)]
        best = max(hands, default=own)
        if own > best:
            total += 1.0
        elif own == best:
            total += 1.0 / (1 + sum(1 for h in hands if h == own))
    return total / count


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class LinkaRules(PotRules):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "linka": {},
        "short": {"purses": "12,5,30", "all_in": "ask"},
    }
    PRESET_HELP: ClassVar[dict[str, str]] = {
        "linka": marked("Linka as Tärningsspel plays it: one raise each, at most the pot"),
        "short": marked("uneven purses (12, 5, 30 koppar), all-in if the others agree"),
    }


def parse_action(text: str) -> Action:
    """Read ``raise 4``, ``call``, ``check``, ``fold``, ``all-in``, ``accept`` or ``refuse``."""
    words = text.strip().lower().split()
    bet = parse_bet(words)
    if bet is None:
        raise IllegalAction("cannot read '{text}': say 'raise 4', 'call', 'check', 'fold' or "
                            "'all-in' (or 'accept' or 'refuse' an all-in)", text=text.strip())
    return bet


# --------------------------------------------------------------------------- state

LINKA, OPEN, HIDDEN, BET, AGREE, REPLAY_LINKA, REPLAY_DICE, OVER = (
    "linka", "open", "hidden", "bet", "agree", "replay linka", "replay dice", "over")

Deal = tuple[Faces, tuple[tuple[int, Faces], ...]]  # linka dice, (seat, own dice) shown


class LinkaDeal(TypedDict):
    """A finished deal as the table showed it: the linka and the hands shown, by seat."""

    linka: list[int]
    dice: dict[str, list[int]]
    hands: dict[str, str]


class _LinkaView(TypedDict):
    game: Literal["linka"]
    seat: int | None
    phase: str
    to_move: int | None
    deal: int
    dealer: int
    linka: list[int]
    contenders: list[int]
    dice: list[list[int]]  # each seat's dice as this seat may see them
    hands: dict[str, str]  # the hands shown, by seat
    folded: list[int]
    raised: list[int]
    pot: int
    won: int
    winners: list[int]
    balances: list[int]
    paid_in: list[int]
    purses: list[int | None]  # None: no limit
    deals: list[LinkaDeal]
    movements: list[MovementJSON]
    history: list[Said]
    asker: int | None


class LinkaView(_LinkaView, total=False):
    """What a seat of a Linka table sees (:meth:`LinkaState.view`)."""

    your_hand: str
    to_call: int  # while betting: what the seat to move owes
    max_raise: int
    outcome: OutcomeJSON
    lang: str  # the reader's language, added by the terminal for :meth:`Linka.render`


@dataclass(frozen=True)
class LinkaState(State[LinkaView]):
    game: Linka
    ledger: Ledger
    phase: str = LINKA
    deal: int = 1  # 1 is the deal that is bet on; later deals are replays of equal hands
    linka: Faces = ()
    own: tuple[Faces, ...] = ()  # each player's own dice: (open,) then (open, hidden)
    queue: tuple[int, ...] = ()  # who throws next, or who still has to bet
    contenders: tuple[int, ...] = ()  # who plays this deal
    revealed: frozenset[int] = frozenset()  # whose own dice of this deal all may see
    standing: tuple[tuple[int, ...], ...] = ()  # the ranking so far, best group first
    deals: tuple[Deal, ...] = ()  # finished deals, as shown at the table
    won: int = 0  # the pot, once it is won
    asker: int | None = None  # who asks to go all-in
    resume: tuple[int, ...] = ()  # who still has to bet once the all-in is answered
    history: tuple[tuple[int, str], ...] = ()

    @property
    def rules(self) -> LinkaRules:
        return self.game.rules

    def active(self) -> list[int]:
        return [s for s in range(self.game.players) if s not in self.ledger.folded]

    def order(self, seats: Sequence[int], after: int = 0) -> tuple[int, ...]:
        """``seats`` in playing order, starting left of ``after`` (the dealer by default)."""
        n = self.game.players
        return tuple(sorted(seats, key=lambda s: (s - after - 1) % n))

    # -- protocol ------------------------------------------------------------------
    def sitting_out(self, seat: int) -> Message | None:
        return term("has folded and is out of this pot") if seat in self.ledger.folded \
            else None

    def to_move(self) -> int | None:
        return self.queue[0] if self.phase in (BET, AGREE) else None

    def chance(self) -> Chance | None:
        if self.phase in (LINKA, REPLAY_LINKA):
            return Chance(seat=None, count=2)
        if self.phase == OPEN:
            return Chance(seat=self.queue[0], count=1)
        if self.phase == HIDDEN:
            return Chance(seat=self.queue[0], count=1, private=True)
        if self.phase == REPLAY_DICE:
            return Chance(seat=self.queue[0], count=2)
        return None

    def is_over(self) -> bool:
        return self.phase == OVER

    def raise_cap(self, seat: int) -> int:
        """The largest raise ``seat`` may make now; 0 if he has raised or nobody could answer."""
        if seat in self.ledger.raised:
            return 0
        if not any(s != seat and not self.ledger.all_in(s) for s in self.active()):
            return 0
        return self.ledger.max_raise(seat)

    def legal_actions(self) -> list[Action]:
        seat = self.to_move()
        if seat is None:
            return []
        if self.phase == AGREE:
            return [Accept(), Refuse()]
        owed = self.ledger.to_call(seat)
        actions: list[Action] = []
        if owed == 0:
            actions.append(Check())
        elif self.ledger.can_pay(seat, owed):
            actions.append(Call())
        elif self.rules.all_in != "no":
            actions.append(AllIn())
        actions.extend(Raise(n) for n in range(1, self.raise_cap(seat) + 1))
        actions.append(Fold())
        return actions

    def default_action(self) -> Action:
        """Out of time: check when that is free, else fold; agree to nothing."""
        legal = self.legal_actions()
        for kind in (Check, Fold, Refuse):
            passive = next((a for a in legal if isinstance(a, kind)), None)
            if passive is not None:
                return passive
        return super().default_action()

    def _apply(self, action: Action) -> LinkaState:
        seat = self.to_move()
        assert seat is not None
        if action not in self.legal_actions():
            raise IllegalAction(self._why_not(seat, action))
        said = (*self.history, (seat, str(action)))
        if self.phase == AGREE:
            return self._all_in_answered(action, said)
        if isinstance(action, AllIn) and self.rules.all_in == "ask":
            others = [s for s in self.active() if s != seat]
            return changed(self, phase=AGREE, asker=seat, queue=self.order(others, after=seat),
                           resume=self.queue[1:], history=said)
        if isinstance(action, Raise):
            ledger = self.ledger.raise_bet(seat, action.amount)
            answer = [s for s in self.active() if s != seat and not ledger.all_in(s)]
            state = changed(self, ledger=ledger, queue=self.order(answer, after=seat),
                            history=said)
        elif isinstance(action, Fold):
            state = changed(self, ledger=self.ledger.fold(seat), queue=self.queue[1:],
                            history=said)
            if len(state.active()) == 1:
                return state._finish(((state.active()[0],),))
        elif isinstance(action, Call):
            state = changed(self, ledger=self.ledger.call(seat), queue=self.queue[1:],
                            history=said)
        elif isinstance(action, AllIn):
            state = changed(self, ledger=self.ledger.go_all_in(seat), queue=self.queue[1:],
                            history=said)
        else:
            state = changed(self, queue=self.queue[1:], history=said)
        return state if state.queue else state._showdown()

    def _all_in_answered(self, action: Action, said: tuple[tuple[int, str], ...]) -> LinkaState:
        """Everyone accepts: the short player goes all-in. One refusal: he folds."""
        assert self.asker is not None
        if isinstance(action, Accept) and self.queue[1:]:
            return changed(self, queue=self.queue[1:], history=said)
        if isinstance(action, Accept):
            ledger = self.ledger.go_all_in(self.asker)
        else:
            ledger = self.ledger.fold(self.asker)
            said = (*said, (self.asker, "fold"))
        state = changed(self, ledger=ledger, phase=BET, queue=self.resume, resume=(),
                        asker=None, history=said)
        if len(state.active()) == 1:
            return state._finish(((state.active()[0],),))
        return state if state.queue else state._showdown()

    def _why_not(self, seat: int, action: Action) -> Message:
        """A player's reason why ``action`` is not legal now, naming what is."""
        if self.phase == AGREE:
            return Message("a player short of money asks to go all-in for {purse}: accept or "
                           "refuse", {"purse": self.ledger.purse(self.asker or 0)})
        owed = self.ledger.to_call(seat)
        cap = self.raise_cap(seat)
        choices: list[Message] = [Message("call {owed}", {"owed": owed}) if owed
                                  else term("check")]
        if owed and not self.ledger.can_pay(seat, owed):
            choices = [term("go all-in")] if self.rules.all_in != "no" else []
        if cap:
            choices.append(Message("raise 1 to {cap}", {"cap": cap}))
        options = either([*choices, term("fold")])
        if isinstance(action, Raise):
            if seat in self.ledger.raised:
                return Message("everyone raises only once and you have raised; {options}",
                               {"options": options})
            if cap and action.amount > cap:
                return Message("a raise is at most the pot: {options}", {"options": options})
            if not cap:
                return Message("you cannot raise now; {options}", {"options": options})
        if isinstance(action, Call):
            if not owed:
                return Message("there is nothing to call; {options}", {"options": options})
            return Message("calling costs {owed} and you have {purse}; {options}",
                           {"owed": owed, "purse": self.ledger.purse(seat),
                            "options": options})
        if isinstance(action, Check):
            return Message("you owe {owed}; {options}", {"owed": owed, "options": options})
        if isinstance(action, AllIn):
            if self.rules.all_in == "no":
                return Message("this table does not allow all-in; {options}",
                               {"options": options})
            return Message("all-in is for a player who cannot pay the call; {options}",
                           {"options": options})
        return Message("'{action}' is not a Linka action now; {options}",
                       {"action": str(action), "options": options})

    def _resolve(self, faces: Faces) -> LinkaState:
        if self.phase in (LINKA, REPLAY_LINKA):
            linka = tuple(sorted(faces, reverse=True))
            phase = OPEN if self.phase == LINKA else REPLAY_DICE
            return changed(self, linka=linka, phase=phase, queue=self.order(self.contenders))
        seat, rest = self.queue[0], self.queue[1:]
        own = list(self.own)
        own[seat] = self.own[seat] + faces if self.phase == HIDDEN else faces
        revealed = self.revealed | {seat} if self.phase == REPLAY_DICE else self.revealed
        state = changed(self, own=tuple(own), queue=rest, revealed=revealed)
        if rest:
            return state
        if self.phase == OPEN:
            return changed(state, phase=HIDDEN, queue=self.order(self.contenders))
        if self.phase == HIDDEN:
            return state._betting()
        return state._showdown()

    def _betting(self) -> LinkaState:
        ledger = self.ledger.new_round()
        queue = self.order([s for s in self.active() if not ledger.all_in(s)])
        state = changed(self, phase=BET, ledger=ledger, queue=queue)
        return state if queue else state._showdown()

    def _showdown(self) -> LinkaState:
        """Show the dice; the best hand wins, equal best hands play again."""
        seats = self.order([s for s in self.contenders if s not in self.ledger.folded])
        hands = {s: hand(self.linka, self.own[s]) for s in seats}
        groups = ranking_by([hands.get(s, Hand(0)) for s in range(self.game.players)])
        ranked = tuple(tuple(s for s in self.order(g) if s in hands) for g in groups)
        ranked = tuple(g for g in ranked if g)
        standing = (*ranked, *self.standing[1:]) if self.standing else ranked
        shown: Deal = (self.linka, tuple((s, self.own[s]) for s in seats))
        state = changed(self, standing=standing, deals=(*self.deals, shown),
                        revealed=frozenset(seats), queue=())
        if len(ranked[0]) == 1:
            return state._finish(standing)
        return changed(state, phase=REPLAY_LINKA, deal=self.deal + 1, contenders=ranked[0],
                       linka=(), own=((),) * self.game.players, revealed=frozenset())

    def _finish(self, standing: tuple[tuple[int, ...], ...]) -> LinkaState:
        return changed(self, phase=OVER, queue=(), standing=standing, won=self.ledger.pot,
                       ledger=self.ledger.settle(standing))

    # -- the end ---------------------------------------------------------------------
    def outcome(self) -> Outcome:
        balances = self.ledger.balances()
        return Outcome(ranking=ranking_by(balances),
                       scores=tuple(float(b) for b in balances),
                       payoffs=tuple(float(b) for b in balances))

    def visible(self, seat: int | None, other: int) -> Faces:
        """The dice of ``other`` that ``seat`` may see."""
        dice = self.own[other]
        if other == seat or other in self.revealed:
            return dice
        return dice[:1]

    def view(self, seat: int | None) -> LinkaView:
        mover = self.to_move()
        n = self.game.players
        view: LinkaView = {
            "game": "linka",
            "seat": seat,
            "phase": self.phase,
            "to_move": mover,
            "deal": self.deal,
            "dealer": 0,
            "linka": list(self.linka),
            "contenders": list(self.contenders),
            "dice": [list(self.visible(seat, s)) for s in range(n)],
            "hands": {str(s): hand(self.linka, self.own[s]).name
                      for s in sorted(self.revealed) if len(self.own[s]) == 2},
            "folded": sorted(self.ledger.folded),
            "raised": list(self.ledger.raised),
            "pot": self.ledger.pot,
            "won": self.won,
            "winners": list(self.standing[0]) if self.phase == OVER else [],
            "balances": list(self.ledger.balances()),
            "paid_in": [self.ledger.paid_in(s) for s in range(n)],
            "purses": [self.ledger.purse(s) for s in range(n)],
            "deals": [{"linka": list(linka), "dice": {str(s): list(d) for s, d in shown},
                       "hands": {str(s): hand(linka, d).name for s, d in shown}}
                      for linka, shown in self.deals],
            "movements": [m.to_json() for m in self.ledger.movements],
            "history": [{"seat": s, "action": a} for s, a in self.history],
            "asker": self.asker,
        }
        if seat is not None and len(self.own[seat]) == 2 and self.linka:
            view["your_hand"] = hand(self.linka, self.own[seat]).name
        if mover is not None:
            view["to_call"] = self.ledger.to_call(mover)
            view["max_raise"] = self.raise_cap(mover)
        if self.phase == OVER:
            view["outcome"] = self.outcome().to_json()
        return view

    def resample_hidden(self, seat: int | None, rng: random.Random) -> LinkaState:
        """Every hidden die that ``seat`` has not seen, thrown anew."""
        own = tuple((*d[:1], rng.randint(1, 6))
                    if len(d) == 2 and s != seat and s not in self.revealed else d
                    for s, d in enumerate(self.own))
        return changed(self, own=own)


# --------------------------------------------------------------------------- the game


@register
@dataclass(frozen=True)
class Linka(Game[LinkaView]):
    """Linka for 2 to 6 players."""
    action_words: ClassVar[dict[str, dict[str, str]]] = {
        "sv": {"call": "syna", "check": "passa", "fold": "lägg", "raise": "höj",
               "accept": "godkänn", "refuse": "neka"},
        "da": {"call": "se", "check": "videre", "fold": "læg", "raise": "hæv", "accept": "ja",
               "refuse": "nej"},
    }

    rules: LinkaRules
    name: ClassVar[str] = "linka"
    title: ClassVar[str] = "Linka"
    summary: ClassVar[str] = marked("two shared dice, one open and one hidden die each: make the "
                                    "linka numbers, raise once, show down")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 3
    rules_class: ClassVar[type[Rules]] = LinkaRules
    parts: ClassVar[Parts] = Parts(
        strategy=("kastkopp.strategy.linka", "kastkopp.strategy.linka_odds",
                  "kastkopp.interop.ismcts"),
        review=("kastkopp.strategy.linka_review",), sheet=("kastkopp.sheets.pots",),
        commands=("kastkopp.cli.solvers.linka",), about="about:linka",
        renderer="games/linka.js")

    @classmethod
    def page_words(cls, lang: str) -> dict[str, str]:
        """The words of Linka's table page in ``lang``, by their English text."""
        return {word: spoken(lang, word) for word in PAGE_WORDS}

    def new_state(self) -> LinkaState:
        n = self.players
        ledger = Ledger(n, stacks=self.rules.stacks(n)).ante_all(self.rules.ante)
        return LinkaState(game=self, ledger=ledger, own=((),) * n,
                          contenders=tuple(range(n)))

    def world(self, view: dict[str, Any], rng: random.Random) -> LinkaState | None:
        # bets are made in the first deal only: it is played again from what the table saw,
        # the hidden dice the seat has not seen thrown anew
        if view["phase"] not in (BET, AGREE) or view["deal"] != 1:
            return None
        state = self.new_state().resolve(tuple(view["linka"]))
        while state.phase in (OPEN, HIDDEN):
            chance = state.chance()
            assert chance is not None and chance.seat is not None
            seen = view["dice"][chance.seat]
            face = seen[0] if state.phase == OPEN else seen[1] if len(seen) == 2 \
                else rng.randint(1, 6)
            state = state.resolve((face,))
        told = view["history"]
        while len(state.history) < len(told):  # a refused all-in adds its fold itself
            state = state.apply(self.parse_action(told[len(state.history)]["action"]))
        return state

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def bounds(self) -> Bounds:
        # the stakes are the players' money, and equal best hands replay with fresh dice as
        # often as they tie: no bound on either
        return Bounds()

    def all_actions(self) -> list[Action]:
        raises = (Raise(n) for n in range(1, self.rules.largest_purse + 1))
        return [Check(), Call(), AllIn(), *raises, Fold(), Accept(), Refuse()]

    def render(self, view: LinkaView, names: Sequence[str]) -> str:
        lang = view.get("lang")
        linka = " ".join(map(str, view["linka"])) or "-"
        replay = (spoken(lang, " · replay {number}", number=view["deal"] - 1)
                  if view["deal"] > 1 else "")
        if view["winners"]:
            who = " & ".join(names[s] for s in view["winners"])
            lines = [spoken(lang, "Linka {linka} · {who} won the pot of {won}", linka=linka,
                            who=who, won=view["won"]) + replay]
        else:
            lines = [spoken(lang, "Linka {linka} · pot {pot}", linka=linka, pot=view["pot"])
                     + replay]
        for seat, name in enumerate(names):
            dice = view["dice"][seat]
            shown = " ".join(map(str, dice)) if dice else "-"
            if len(dice) == 1 and seat != view["seat"] and view["phase"] not in (LINKA, OPEN):
                shown += " ?"
            status = (spoken(lang, "folded") if seat in view["folded"]
                      else _hand_told(lang, view["hands"].get(str(seat), "")))
            extra = f", {status}" if status else ""
            lines.append(spoken(lang, "  {name}: {dice}  (paid {paid}, {left} left{extra})",
                                name=name, dice=shown, paid=view["paid_in"][seat],
                                left=view["purses"][seat], extra=extra))
        for entry in view["history"][-6:]:
            lines.append(f"  {names[entry['seat']]}: "
                         f"{self.told_action(entry['action'], lang)}")
        if "your_hand" in view:
            lines.append(spoken(lang, "Your hand: {hand}",
                                hand=_hand_told(lang, view["your_hand"])))
        mover = view["to_move"]
        if view["phase"] == AGREE and mover is not None and view["asker"] is not None:
            lines.append(spoken(lang, "{asker} asks to go all-in: {name}, accept or refuse",
                                asker=names[view["asker"]], name=names[mover]))
        elif mover is not None:
            owed = view["to_call"]
            answer = spoken(lang, "call {owed}", owed=owed) if owed else spoken(lang, "check")
            raise_text = (spoken(lang, ", raise up to {most}", most=view["max_raise"])
                          if view["max_raise"] else "")
            lines.append(spoken(lang, "{name} to bet: {answer}{raises} or fold",
                                name=names[mover], answer=answer, raises=raise_text))
        if "outcome" in view:
            lines.append(spoken(lang, "Balances: {balances}", balances=", ".join(
                f"{names[s]} {signed(b)}" for s, b in enumerate(view["balances"]))))
        return "\n".join(lines)


def _hand_told(lang: str | None, name: str) -> str:
    """A hand's name of the view (English data) as the terminal says it in ``lang``."""
    if not lang or lang == "en" or not name:
        return name
    if name.startswith("nothing (sum "):
        return spoken(lang, "nothing (sum {sum})", sum=name[len("nothing (sum "):-1])
    words = {"the linka dice exactly": spoken(lang, "the linka dice exactly"),
             "both linka dice": spoken(lang, "both linka dice"),
             "the linka sum": spoken(lang, "the linka sum"),
             "the high linka die": spoken(lang, "the high linka die"),
             "the low linka die": spoken(lang, "the low linka die"),
             "nothing": spoken(lang, "nothing")}
    return words.get(name, name)


def read_die(text: str, what: str) -> int:
    if text.strip() not in ("1", "2", "3", "4", "5", "6"):
        raise RuleError("{what} is a die from 1 to 6, not '{text}'", what=what, text=text)
    return int(text)

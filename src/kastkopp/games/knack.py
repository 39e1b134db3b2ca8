"""Knack: three dice each, thrown all at once, and a pot that the worst-placed player bets on.

The rules, in the order Tärningsspel tells them:

1. Everyone pays the ante (``ante``, usually one koppar) into the pot.
2. All players throw all three dice at once (``roll`` events, one per player, in seat
   order). Three of a kind wins the pot; if several players have it, the higher triple wins.
3. A pair stays on the table and the player throws one die; a player without a pair keeps
   one die (``keep 6``) or picks all three up again (``reroll``).
4. The player in the worst position — no pair (rerolling all is worse than keeping a die,
   and a lower kept die is worse), else the lowest pair — chooses: ``knock`` (no raise, the
   next throw follows at once) or ``raise N``, at most the current pot. The others ``call``
   or ``fold``; folding forfeits what they have paid in. Only the worst-placed player raises.
5. A player short of money may go ``all-in`` if the others agree (house rule ``all_in``:
   ``ask`` them at the table, each answers ``accept`` or ``refuse``; or ``yes``, agreed
   before play); otherwise nobody pays more than they have (``purse``).
6. The double knock (``double_knock``): a player who has just lost the pot may ask
   (``double``) to win back his share, the pot divided by the number of players. The winner
   ``accept``\\s or ``refuse``\\s. Accepted, the loser throws three dice: a sum of 12 or more
   (81/216 = 0.375) takes the share back from the winner, otherwise he pays the same again.
   A loser who does not ask says ``pass``.

Decisions where the seed is silent, as players decide them:

- A game is one pot. The next pot is a new game (the CLI's ``simulate`` plays many).
- A raise is at most the pot as it stands after the raiser has matched any bet he owes
  (the worst-placed player never owes anything, so for him it is simply the pot).
- Several players equally worst placed: the first of them in seat order chooses.
- Equal highest triples share the pot; an odd koppar goes to the first of them in seat order.
  A shared pot cannot be double-knocked (there is no single winner to ask).
- Only players still in the pot when it was won may double-knock; a player who folded gave
  it up. Both players must be able to pay the share from their purse. The share is rounded
  down to whole koppar.
- A pair must stay on the table. Keeping decisions are made in seat order, in the open.
- A refused all-in leaves the short player nothing but to fold, so he folds.
- With all-in, the pot is paid out in layers: a player who went all-in for less wins from
  each other player at most what he put in himself, and what nobody matched goes back.

Usage::

    >>> from kastkopp.games import load
    >>> game = load("knack", players=2, ante=2)
    >>> state = game.new_state().resolve((4, 4, 2)).resolve((2, 1, 4))
    >>> [str(a) for a in state.legal_actions()]
    ['keep 1', 'keep 2', 'keep 4', 'reroll']
    >>> state = state.apply("reroll")
    >>> [str(a) for a in state.legal_actions()][:3]
    ['knock', 'raise 1', 'raise 2']
"""

from __future__ import annotations

import re
from collections import Counter
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
    Rules,
    State,
    changed,
    either,
    ranking_by,
    register,
    rule,
    term,
)
from kastkopp.games.stakes import (
    BET_TERMS,
    Accept,
    AllIn,
    Call,
    Fold,
    Ledger,
    MovementJSON,
    PotRules,
    Raise,
    Refuse,
    parse_bet,
)
from kastkopp.locale import marked, signed, spoken

DOUBLE_KNOCK_SUM = 12

# --------------------------------------------------------------------------- positions


def triple(dice: Faces) -> int | None:
    """The face of three of a kind, or ``None``."""
    return dice[0] if len(dice) == 3 and len(set(dice)) == 1 else None


def pair(dice: Faces) -> int | None:
    """The face of a pair among three dice (that are not three of a kind), or ``None``."""
    counts = Counter(dice)
    faces = [face for face, n in counts.items() if n == 2]
    return faces[0] if faces else None


def position(kept: Faces) -> tuple[int, int]:
    """How well placed the dice left on the table are; higher is better.

    A pair beats a single kept die, which beats nothing kept; higher faces are better.
    """
    if len(kept) == 2:
        return (2, kept[0])
    if len(kept) == 1:
        return (1, kept[0])
    return (0, 0)


def describe(kept: Faces, dice: Faces = ()) -> str:
    face = triple(dice)
    if face is not None:
        return f"three {face}s"
    if len(kept) == 2:
        return f"pair of {kept[0]}s"
    if len(kept) == 1:
        return f"keeps a {kept[0]}"
    return "rerolls all"


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class KnackRules(PotRules):
    double_knock: bool = rule(True, "a loser may ask to win back his share: 12 or more on "
                              "three dice")

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "knack": {},
        "short": {"purses": "12,5,30", "all_in": "ask"},
    }
    PRESET_HELP: ClassVar[dict[str, str]] = {
        "knack": marked("Knack as Tärningsspel plays it: ante 1, raises up to the pot, "
                        "double knock"),
        "short": marked("uneven purses (12, 5, 30 koppar), all-in if the others agree"),
    }


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Keep(Action):
    """Leave one die showing ``face`` on the table and throw the other two."""

    face: int

    def __str__(self) -> str:
        return f"keep {self.face}"


@dataclass(frozen=True)
class Reroll(Action):
    """Pick up all three dice."""

    def __str__(self) -> str:
        return "reroll"


@dataclass(frozen=True)
class Knock(Action):
    """No raise: the next throw follows at once."""

    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True)
class DoubleKnock(Action):
    """Ask the winner for a chance to win back one's share."""

    def __str__(self) -> str:
        return "double"


@dataclass(frozen=True)
class Pass(Action):
    """Do not double-knock."""

    def __str__(self) -> str:
        return "pass"


_WORDS: dict[str, Action] = {}
for _word in ("reroll", "rulla", "slå", "om", "alla"):
    _WORDS[_word] = Reroll()
for _word in ("knock", "knacka", "knack", "bank"):
    _WORDS[_word] = Knock()
for _word in ("double", "dubbelknack", "dobbeltbank", "dubbel"):
    _WORDS[_word] = DoubleKnock()
for _word in ("pass", "passa", "nej-tack"):
    _WORDS[_word] = Pass()
_KEEP_WORDS = ("keep", "spara", "behold", "behåll")


def parse_action(text: str) -> Action:
    """Read ``keep 6``, ``reroll``, ``knock``, ``raise 3``, ``call``, ``fold``, ``all-in``,
    ``double``, ``pass``, ``accept`` or ``refuse``."""
    words = text.strip().lower().split()
    if words == ["double", "knock"]:
        return DoubleKnock()
    if len(words) == 1 and words[0] in _WORDS:
        return _WORDS[words[0]]
    if words and words[0] in _KEEP_WORDS:
        if len(words) == 2 and words[1] in ("1", "2", "3", "4", "5", "6"):
            return Keep(int(words[1]))
        raise IllegalAction("say which die to keep: 'keep 6'")
    bet = parse_bet(words)
    if bet is not None:
        return bet
    raise IllegalAction("cannot read '{text}': say 'keep 6', 'reroll', 'knock', 'raise 3', "
                        "'call', 'fold' or 'double'", text=text.strip())


# --------------------------------------------------------------------------- state

ROLL, KEEP, BET, RESPOND, AGREE, DOUBLE, ANSWER, DOUBLE_ROLL, OVER = (
    "roll", "keep", "bet", "respond", "agree", "double", "answer", "double roll", "over")


class KnackSaid(TypedDict):
    """An entry of the history: a seat's action or position, or the table's (seat None)."""

    seat: int | None
    action: str


class _KnackView(TypedDict):
    game: Literal["knack"]
    seat: int | None
    phase: str
    to_move: int | None
    throw: int
    dice: list[list[int]]
    kept: list[list[int]]
    positions: list[str]
    folded: list[int]
    worst: int | None
    pot: int
    balances: list[int]
    paid_in: list[int]
    purses: list[int | None]  # None: no limit
    winners: list[int]
    won: int
    share: int
    asker: int | None
    movements: list[MovementJSON]
    history: list[KnackSaid]


class KnackView(_KnackView, total=False):
    """What a seat of a Knack table sees (:meth:`KnackState.view`)."""

    to_call: int  # while betting: what the seat to move owes
    max_raise: int
    outcome: OutcomeJSON
    lang: str  # the reader's language, added by the terminal for :meth:`Knack.render`


@dataclass(frozen=True)
class KnackState(State[KnackView]):
    game: Knack
    ledger: Ledger
    phase: str = ROLL
    throw: int = 1
    dice: tuple[Faces, ...] = ()  # each player's three dice after the last throw
    kept: tuple[Faces, ...] = ()  # the dice each player leaves on the table for the next
    queue: tuple[int, ...] = ()  # who still rolls, keeps, answers or double-knocks, in order
    worst: int | None = None  # the worst-placed player of this throw
    winners: tuple[int, ...] = ()
    won: int = 0  # the pot that was won
    share: int = 0  # what a double knock is about
    asker: int | None = None  # who asked to go all-in, or for a double knock
    resume: tuple[int, ...] = ()  # who still answers the raise once an all-in is agreed
    history: tuple[tuple[int | None, str], ...] = ()

    @property
    def rules(self) -> KnackRules:
        return self.game.rules

    def active(self) -> list[int]:
        """The players still in the pot."""
        return [s for s in range(self.game.players) if s not in self.ledger.folded]

    def after(self, seat: int, seats: Sequence[int]) -> tuple[int, ...]:
        """``seats`` in playing order starting after ``seat``."""
        n = self.game.players
        return tuple(sorted(seats, key=lambda s: (s - seat - 1) % n))

    def said(self, seat: int | None, text: str) -> tuple[tuple[int | None, str], ...]:
        return (*self.history, (seat, text))

    # -- protocol ------------------------------------------------------------------
    def sitting_out(self, seat: int) -> Message | None:
        return term("has folded and is out of this pot") if seat in self.ledger.folded \
            else None

    def to_move(self) -> int | None:
        if self.phase in (KEEP, RESPOND, AGREE, DOUBLE):
            return self.queue[0]
        if self.phase == BET:
            return self.worst
        if self.phase == ANSWER:
            return self.winners[0]
        return None

    def chance(self) -> Chance | None:
        if self.phase == ROLL:
            seat = self.queue[0]
            return Chance(seat=seat, count=3 - len(self.kept[seat]))
        if self.phase == DOUBLE_ROLL:
            return Chance(seat=self.asker, count=3)
        return None

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        seat = self.to_move()
        if seat is None:
            return []
        if self.phase == KEEP:
            return [*(Keep(f) for f in sorted(set(self.dice[seat]))), Reroll()]
        if self.phase == BET:
            top = self.raise_cap(seat)
            return [Knock(), *(Raise(n) for n in range(1, top + 1))]
        if self.phase == RESPOND:
            owed = self.ledger.to_call(seat)
            actions: list[Action] = []
            if self.ledger.can_pay(seat, owed):
                actions.append(Call())
            elif self.rules.all_in != "no":
                actions.append(AllIn())
            return [*actions, Fold()]
        if self.phase == DOUBLE:
            return [DoubleKnock(), Pass()]
        if self.phase in (AGREE, ANSWER):
            return [Accept(), Refuse()]
        return []

    def default_action(self) -> Action:
        """Out of time: fold rather than pay, knock rather than raise, ask and agree to
        nothing; keep the highest die when no pair is showing."""
        legal = self.legal_actions()
        for kind in (Fold, Knock, Pass, Refuse):
            passive = next((a for a in legal if isinstance(a, kind)), None)
            if passive is not None:
                return passive
        keeps = [a for a in legal if isinstance(a, Keep)]
        if keeps:
            return max(keeps, key=lambda a: a.face)
        return super().default_action()

    def _apply(self, action: Action) -> KnackState:
        seat = self.to_move()
        assert seat is not None
        legal = self.legal_actions()
        if action in legal:
            return self._take(seat, action)
        raise IllegalAction(self._why_not(seat, action, legal))

    def raise_cap(self, seat: int) -> int:
        """The largest raise ``seat`` may make; 0 when nobody could answer it."""
        answerable = any(s != seat and not self.ledger.all_in(s) for s in self.active())
        return self.ledger.max_raise(seat) if answerable else 0

    def _why_not(self, seat: int, action: Action, legal: list[Action]) -> Message:
        """A player's reason why ``action`` is not legal, naming what is."""
        if self.phase == KEEP:
            dice = " ".join(map(str, self.dice[seat]))
            if isinstance(action, Keep):
                return Message("there is no {face} among your dice {dice}; keep one of them "
                               "or reroll", {"face": action.face, "dice": dice})
            return Message("first keep one of your dice {dice} ('keep {face}') or pick all "
                           "three up ('reroll')", {"dice": dice, "face": self.dice[seat][0]})
        if self.phase == BET:
            top = self.raise_cap(seat)
            if isinstance(action, Raise):
                if top == 0:
                    return Message("you have no money left to raise with; knock")
                return Message("a raise is at most the pot: raise 1 to {top}, or knock",
                               {"top": top})
            if top:
                return Message("you are worst placed and choose: knock or raise 1 to {top}",
                               {"top": top})
            return Message("you are worst placed and choose: knock (you cannot raise)")
        if self.phase == RESPOND:
            owed = self.ledger.to_call(seat)
            options = either([BET_TERMS.get(str(a), str(a)) for a in legal])
            if isinstance(action, Raise):
                return Message("only the worst-placed player raises; you {options} (calling "
                               "costs {owed})", {"options": options, "owed": owed})
            if isinstance(action, AllIn):
                if self.ledger.can_pay(seat, owed):
                    return Message("you can pay the {owed} to call; call or fold",
                                   {"owed": owed})
                return Message("this table does not allow all-in; fold")
            if isinstance(action, Call):
                return Message("calling costs {owed} and you have {purse}; {options}",
                               {"owed": owed, "purse": self.ledger.purse(seat),
                                "options": options})
            return Message("the worst-placed player raised {owed}: {options}",
                           {"owed": owed, "options": options})
        if self.phase == AGREE:
            return Message("a player short of money asks to go all-in for {purse}: accept or "
                           "refuse", {"purse": self.ledger.purse(self.asker or 0)})
        if self.phase == DOUBLE:
            return Message("the pot is won; ask for a double knock ('double') to win back "
                           "{share}, or 'pass'", {"share": self.share})
        if self.phase == ANSWER:
            return Message("a double knock for {share} is asked of you, the winner: accept or "
                           "refuse", {"share": self.share})
        return Message("nothing can be done now")

    # -- the rules, step by step -----------------------------------------------------
    def _resolve(self, faces: Faces) -> KnackState:
        if self.phase == DOUBLE_ROLL:
            return self._double_knock_rolled(faces)
        seat = self.queue[0]
        dice = tuple(sorted(self.kept[seat] + faces, reverse=True))
        state = changed(self, dice=_set(self.dice, seat, dice), queue=self.queue[1:],
                        history=self.said(seat, f"throws {' '.join(map(str, faces))}"))
        return state._thrown() if not state.queue else state

    def _thrown(self) -> KnackState:
        """Everyone has thrown: a triple wins, pairs stay, the others choose what to keep."""
        active = self.active()
        triples = {s: triple(self.dice[s]) for s in active}
        best = max((f for f in triples.values() if f is not None), default=None)
        if best is not None:
            return self._win(tuple(s for s in active if triples[s] == best))
        kept = list(self.kept)
        choosing = []
        for seat in active:
            face = pair(self.dice[seat])
            if face is None:
                choosing.append(seat)
            else:
                kept[seat] = (face, face)
        state = changed(self, kept=tuple(kept))
        if choosing:
            return changed(state, phase=KEEP, queue=tuple(choosing))
        return state._betting()

    def _betting(self) -> KnackState:
        active = self.active()
        worst = min(active, key=lambda s: (position(self.kept[s]), s))
        return changed(self, phase=BET, worst=worst, queue=(),
                       ledger=self.ledger.new_round())

    def _next_throw(self) -> KnackState:
        return changed(self, phase=ROLL, throw=self.throw + 1, queue=tuple(self.active()),
                       worst=None)

    def _take(self, seat: int, action: Action) -> KnackState:
        said = self.said(seat, str(action))
        if isinstance(action, (Keep, Reroll)):
            kept = (action.face,) if isinstance(action, Keep) else ()
            state = changed(self, kept=_set(self.kept, seat, kept), queue=self.queue[1:],
                            history=said)
            return state._betting() if not state.queue else state
        if isinstance(action, Knock):
            return changed(self, history=said)._next_throw()
        if isinstance(action, Raise):
            ledger = self.ledger.raise_bet(seat, action.amount)
            others = [s for s in self.active() if s != seat and not ledger.all_in(s)]
            state = changed(self, ledger=ledger, history=said)
            if not others:
                return state._next_throw()
            return changed(state, phase=RESPOND, queue=self.after(seat, others))
        if isinstance(action, AllIn) and self.rules.all_in == "ask":
            others = [s for s in self.active() if s != seat]
            return changed(self, phase=AGREE, asker=seat, queue=self.after(seat, others),
                           resume=self.queue[1:], history=said)
        if self.phase == AGREE:
            return self._all_in_answered(seat, action, said)
        if isinstance(action, (Call, AllIn, Fold)):
            if isinstance(action, Call):
                ledger = self.ledger.call(seat)
            elif isinstance(action, AllIn):
                ledger = self.ledger.go_all_in(seat)
            else:
                ledger = self.ledger.fold(seat)
            state = changed(self, ledger=ledger, queue=self.queue[1:], history=said)
            still_in = state.active()
            if len(still_in) == 1:
                return state._win((still_in[0],))
            return state._next_throw() if not state.queue else state
        if isinstance(action, DoubleKnock):
            return changed(self, phase=ANSWER, asker=seat, queue=self.queue[1:],
                           history=said)
        if isinstance(action, Pass):
            return changed(self, queue=self.queue[1:], history=said)._doubles_done()
        if isinstance(action, Accept):
            return changed(self, phase=DOUBLE_ROLL, history=said)
        if isinstance(action, Refuse):
            return changed(self, phase=DOUBLE, asker=None, history=said)._doubles_done()
        raise IllegalAction("'{action}' is not a Knack action",  # pragma: no cover
                            action=str(action))

    def _all_in_answered(self, seat: int, action: Action,
                         said: tuple[tuple[int | None, str], ...]) -> KnackState:
        """Everyone accepts: the short player goes all-in. One refusal: he folds."""
        assert self.asker is not None
        if isinstance(action, Accept) and self.queue[1:]:
            return changed(self, queue=self.queue[1:], history=said)
        if isinstance(action, Accept):
            ledger = self.ledger.go_all_in(self.asker)
        else:
            ledger = self.ledger.fold(self.asker)
            said = (*said, (self.asker, "fold"))
        state = changed(self, ledger=ledger, phase=RESPOND, queue=self.resume, resume=(),
                        asker=None, history=said)
        if len(state.active()) == 1:
            return state._win((state.active()[0],))
        return state._next_throw() if not state.queue else state

    def _win(self, winners: tuple[int, ...]) -> KnackState:
        """The pot goes to ``winners``; then the losers may double-knock."""
        active = self.active()
        rest = [s for s in active if s not in winners]
        by_triple = sorted(rest, key=lambda s: -(triple(self.dice[s]) or 0))
        ranking = [winners, *([s] for s in by_triple if triple(self.dice[s])),
                   [s for s in by_triple if not triple(self.dice[s])]]
        share = self.ledger.pot // self.game.players
        ledger = self.ledger.settle([g for g in ranking if g])
        verb = "wins" if len(winners) == 1 else "shares"
        history = (*self.history, *((s, f"{verb} the pot of {self.ledger.pot}") for s in winners))
        state = changed(self, ledger=ledger, winners=winners, won=self.ledger.pot,
                        share=share, worst=None, history=history)
        askers: tuple[int, ...] = ()
        if self.rules.double_knock and len(winners) == 1 and share > 0 \
                and ledger.can_pay(winners[0], share):
            askers = tuple(s for s in self.after(winners[0], rest)
                           if ledger.can_pay(s, share))
        return changed(state, phase=DOUBLE, queue=askers)._doubles_done()

    def _double_knock_rolled(self, faces: Faces) -> KnackState:
        assert self.asker is not None
        winner = self.winners[0]
        won = sum(faces) >= DOUBLE_KNOCK_SUM
        ledger = self.ledger.transfer(winner, self.asker, self.share) if won \
            else self.ledger.transfer(self.asker, winner, self.share)
        text = (f"throws {' '.join(map(str, faces))} = {sum(faces)}: "
                + ("wins back" if won else "pays") + f" {self.share}")
        return changed(self, ledger=ledger, phase=DOUBLE, asker=None,
                       history=self.said(self.asker, text))._doubles_done()

    def _doubles_done(self) -> KnackState:
        return self if self.queue else changed(self, phase=OVER)

    # -- the end ---------------------------------------------------------------------
    def outcome(self) -> Outcome:
        balances = self.ledger.balances()
        return Outcome(ranking=ranking_by(balances),
                       scores=tuple(float(b) for b in balances),
                       payoffs=tuple(float(b) for b in balances))

    def view(self, seat: int | None) -> KnackView:
        mover = self.to_move()
        view: KnackView = {
            "game": "knack",
            "seat": seat,
            "phase": self.phase,
            "to_move": mover,
            "throw": self.throw,
            "dice": [list(d) for d in self.dice],
            "kept": [list(k) for k in self.kept],
            "positions": [describe(k, d) for k, d in zip(self.kept, self.dice, strict=True)],
            "folded": sorted(self.ledger.folded),
            "worst": self.worst,
            "pot": self.ledger.pot,
            "balances": list(self.ledger.balances()),
            "paid_in": [self.ledger.paid_in(s) for s in range(self.game.players)],
            "purses": [self.ledger.purse(s) for s in range(self.game.players)],
            "winners": list(self.winners),
            "won": self.won,
            "share": self.share,
            "asker": self.asker,
            "movements": [m.to_json() for m in self.ledger.movements],
            "history": [{"seat": s, "action": a} for s, a in self.history],
        }
        if mover is not None and self.phase in (BET, RESPOND):
            view["to_call"] = self.ledger.to_call(mover)
            view["max_raise"] = self.raise_cap(mover) if self.phase == BET else 0
        if self.phase == OVER:
            view["outcome"] = self.outcome().to_json()
        return view


def _set(values: tuple[Faces, ...], seat: int, value: Faces) -> tuple[Faces, ...]:
    return (*values[:seat], value, *values[seat + 1:])


# --------------------------------------------------------------------------- the game


@register
@dataclass(frozen=True)
class Knack(Game[KnackView]):
    """Knack for 2 to 8 players."""
    action_words: ClassVar[dict[str, dict[str, str]]] = {
        "sv": {"knock": "knacka", "reroll": "rulla", "double": "dubbelknack", "pass": "passa",
               "keep": "spara", "call": "syna", "fold": "lägg", "raise": "höj",
               "accept": "godkänn", "refuse": "neka"},
        "da": {"knock": "bank", "reroll": "slå", "double": "dobbeltbank", "keep": "behold",
               "call": "se", "fold": "læg", "raise": "hæv", "accept": "ja", "refuse": "nej"},
    }

    rules: KnackRules
    name: ClassVar[str] = "knack"
    title: ClassVar[str] = "Knack"
    summary: ClassVar[str] = marked("three dice each, thrown at once: first to three of a kind "
                                    "takes the pot; the worst placed knocks or raises")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 3
    rules_class: ClassVar[type[Rules]] = KnackRules
    parts: ClassVar[Parts] = Parts(
        strategy=("kastkopp.strategy.knack", "kastkopp.strategy.knack_odds"),
        review=("kastkopp.strategy.knack_review",), sheet=("kastkopp.sheets.pots",),
        commands=("kastkopp.cli.solvers.knack",), about="about:knack",
        renderer="games/knack.js")
    hidden_information: ClassVar[bool] = False

    def new_state(self) -> KnackState:
        n = self.players
        ledger = Ledger(n, stacks=self.rules.stacks(n)).ante_all(self.rules.ante)
        return KnackState(game=self, ledger=ledger, dice=((),) * n, kept=((),) * n,
                          queue=tuple(range(n)))

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def bounds(self) -> Bounds:
        # the stakes are the players' money, and the dice are thrown again until someone
        # has three of a kind, however many throws that takes: no bound on either
        return Bounds()

    def all_actions(self) -> list[Action]:
        raises = (Raise(n) for n in range(1, self.rules.largest_purse + 1))
        return [*(Keep(f) for f in range(1, 7)), Reroll(), Knock(), *raises, Call(), AllIn(),
                Fold(), DoubleKnock(), Pass(), Accept(), Refuse()]

    def render(self, view: KnackView, names: Sequence[str]) -> str:
        lang = view.get("lang")
        if view["winners"]:
            who = " & ".join(names[s] for s in view["winners"])
            lines = [spoken(lang, "Throw {throw} · {who} won the pot of {won}",
                            throw=view["throw"], who=who, won=view["won"])]
        else:
            lines = [spoken(lang, "Throw {throw} · pot {pot}", throw=view["throw"],
                            pot=view["pot"])]
        for seat, name in enumerate(names):
            dice = " ".join(map(str, view["dice"][seat])) or "-"
            status = (spoken(lang, "folded") if seat in view["folded"]
                      else _told(lang, view["positions"][seat]))
            lines.append(spoken(lang, "  {name}: {dice}  ({status}; paid {paid}, {left} left)",
                                name=name, dice=dice, status=status,
                                paid=view["paid_in"][seat], left=view["purses"][seat]))
        for entry in view["history"][-6:]:
            who = names[entry["seat"]] if entry["seat"] is not None else spoken(lang, "Table")
            event = _told(lang, entry["action"])  # a position or event, else an action
            if event == entry["action"]:
                event = self.told_action(event, lang)
            lines.append(f"  {who}: {event}")
        mover = view["to_move"]
        if view["phase"] == BET and mover is not None:
            lines.append(spoken(lang, "{name} is worst placed: knock or raise up to {most}",
                                name=names[mover], most=view["max_raise"]))
        elif view["phase"] == RESPOND and mover is not None:
            lines.append(spoken(lang, "{name}: call {owed} or fold", name=names[mover],
                                owed=view["to_call"]))
        elif view["phase"] == AGREE and mover is not None and view["asker"] is not None:
            lines.append(spoken(lang, "{asker} asks to go all-in: {name}, accept or refuse",
                                asker=names[view["asker"]], name=names[mover]))
        elif view["phase"] == DOUBLE and mover is not None:
            lines.append(spoken(lang, "{name} may double-knock for {share}",
                                name=names[mover], share=view["share"]))
        if "outcome" in view:
            lines.append(spoken(lang, "Balances: {balances}", balances=", ".join(
                f"{names[s]} {signed(b)}" for s, b in enumerate(view["balances"]))))
        return "\n".join(lines)


_FACES = r"([1-6](?: [1-6])*)"


def _told(lang: str | None, text: str) -> str:
    """A position or an event of the view (English data) as the terminal says it in ``lang``.

    The actions themselves (``knock``, ``raise 2``) stay as they are typed.
    """
    if not lang or lang == "en":
        return text
    if m := re.fullmatch(r"three ([1-6])s", text):
        return spoken(lang, "three {face}s", face=m[1])
    if m := re.fullmatch(r"pair of ([1-6])s", text):
        return spoken(lang, "pair of {face}s", face=m[1])
    if m := re.fullmatch(r"keeps a ([1-6])", text):
        return spoken(lang, "keeps a {face}", face=m[1])
    if text == "rerolls all":
        return spoken(lang, "rerolls all")
    if m := re.fullmatch(r"(wins|shares) the pot of (\d+)", text):
        return (spoken(lang, "wins the pot of {pot}", pot=m[2]) if m[1] == "wins"
                else spoken(lang, "shares the pot of {pot}", pot=m[2]))
    if m := re.fullmatch(r"throws " + _FACES + r" = (\d+): (wins back|pays) (\d+)", text):
        if m[3] == "wins back":
            return spoken(lang, "throws {dice} = {sum}: wins back {share}", dice=m[1], sum=m[2],
                          share=m[4])
        return spoken(lang, "throws {dice} = {sum}: pays {share}", dice=m[1], sum=m[2],
                      share=m[4])
    if m := re.fullmatch(r"throws " + _FACES, text):
        return spoken(lang, "throws {dice}", dice=m[1])
    return text

"""The game protocol every kastkopp game speaks, and the table that drives it from a log.

A game is a pure function of its log. :class:`Game` holds the house rules and the number of
players; :meth:`Game.new_state` gives the first :class:`State`; a state answers whose turn
it is, what is legal, and returns a *new* state for each action or roll::

    >>> from kastkopp.games import load
    >>> game = load("mia", players=2)
    >>> state = game.new_state()
    >>> state.chance()            # the first player must roll two hidden dice
    Chance(seat=0, count=2, sides=6, private=True)
    >>> state = state.resolve((5, 4))
    >>> [str(a) for a in state.legal_actions()][:3]
    ['announce 31', 'announce 32', 'announce 41']
    >>> state = state.apply("announce 54")
    >>> state.view(1)["claim"], state.view(1).get("your_dice")
    ('54', None)

Rules never roll: a state that waits for dice returns a :class:`Chance` from
:meth:`State.chance`, and the driver (a :class:`Table`, a solver, the score keeper) answers
with :meth:`State.resolve`. Only :meth:`State.view` crosses a trust boundary.

The module is longer than 600 lines because it is the one contract a game is written
against: the errors and messages it raises, its house rules, the protocol it implements and
the table that drives it from a log are read together, and every game imports them from here.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

from kastkopp.dice import (
    Contribution,
    DiceSource,
    Faces,
    SeededDice,
    check_faces,
    source_from_description,
)

LOG_FORMAT = "kastkopp-log"
LOG_VERSION = 1


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class Message:
    """A text for a person: an English template and its parameters, translatable as a whole.

    The template is a :meth:`str.format` pattern when there are parameters (literal text
    otherwise). A parameter is shown as it is (numbers, dice, notation, names) unless it is
    itself a :class:`Message` — a word such as an action (:func:`term`), or a clause — or
    a list of them, which are translated too; a game that names things in its own words in
    each language (a Yatzy row, a poker hand such as "three tens, an ace and a queen")
    passes :class:`Words`.
    ``context`` tells apart words spelt alike in English but not elsewhere (``pgettext``).

    >>> str(Message("{cost}; {choices}", {"cost": "calling costs 3",
    ...                                    "choices": either([term("call"), term("fold")])}))
    'calling costs 3; call or fold'
    """

    template: str
    params: dict[str, Any] = field(default_factory=dict)
    context: str | None = None

    def __str__(self) -> str:
        return self.render()

    def render(self, translations: Any = None, lang: str = "en") -> str:
        """The text in ``lang``, translated by a gettext ``translations`` object if given."""
        text = self.template
        if translations is not None:
            text = (translations.pgettext(self.context, text) if self.context
                    else translations.gettext(text))
        if not self.params:
            return str(text)
        return str(text).format(**{k: _shown(v, translations, lang)
                                   for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        """The template and its parameters, nested messages as objects of the same shape."""
        data: dict[str, Any] = {"template": self.template,
                                "params": {k: _json(v) for k, v in self.params.items()}}
        if self.context:
            data["context"] = self.context
        return data


@dataclass(frozen=True)
class Words:
    """A message parameter a game words itself in each language: ``{"en": ..., "sv": ...}``."""

    text: dict[str, str]

    def __str__(self) -> str:
        return self.text["en"]


def _shown(value: Any, translations: Any, lang: str) -> str:
    if isinstance(value, Message):
        return value.render(translations, lang)
    if isinstance(value, Words):
        return value.text.get(lang, value.text["en"])
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v, translations, lang) for v in value)
    return str(value)


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, Words):
        return {"words": dict(value.text)}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value if isinstance(value, int | float | bool | None) else str(value)


def term(word: str) -> Message:
    """A word used inside another message (a face, an action), marked for the catalogs."""
    return Message(word)


def pterm(context: str, word: str) -> Message:
    """A word with a context, for words that other languages spell differently by use."""
    return Message(word, context=context)


def either(choices: Sequence[Any]) -> Any:
    """``a, b or c``: one of several choices, each shown as a message parameter is."""
    if len(choices) == 1:
        return choices[0]
    return Message("{choices} or {last}", {"choices": list(choices[:-1]), "last": choices[-1]})


class KastkoppError(Exception):
    """An error whose message is meant for a person, not a traceback.

    Raise it with a template and its parameters, ``IllegalAction("{row} is already filled",
    row=...)``, or with a :class:`Message`: ``str(error)`` is the English text, and
    ``error.message`` (``template``, ``params``) lets a caller show it in another language.
    ``code`` says what kind of refusal it is, for programs (the server's HTTP status).
    """

    code: ClassVar[str] = "refused"

    def __init__(self, template: str | Message = "", /, **params: Any) -> None:
        self.message = template if isinstance(template, Message) else Message(template, params)
        super().__init__(str(self.message))

    @property
    def template(self) -> str:
        return self.message.template

    @property
    def params(self) -> dict[str, Any]:
        return self.message.params


class IllegalAction(KastkoppError):
    """An action that the rules do not allow now. The state it was tried on is unchanged."""

    code = "illegal"


class Unreadable(IllegalAction):
    """An action that cannot be read at all (not text, no sequence number)."""

    code = "unreadable"


class NotYourTurn(IllegalAction):
    """An action from a seat that is not the one to move (or from no seat)."""

    code = "not_your_turn"


class StaleAction(IllegalAction):
    """An action sent for a position that is no longer the table's (seen too late, or twice)."""

    code = "stale"


class GameOver(IllegalAction):
    """An action at a table whose game has ended."""

    code = "game_over"


class NotFound(KastkoppError):
    """Something asked for by name or number that does not exist."""

    code = "not_found"


class RuleError(KastkoppError):
    """An unknown game, preset or house rule, or a rule value out of range."""

    code = "rules"


class LogError(KastkoppError):
    """A log that cannot be read or replayed (malformed, corrupted or tampered)."""

    code = "log"


# --------------------------------------------------------------------------- house rules


def rule(default: Any, help: str, *, choices: Sequence[Any] | None = None,
         min: int | None = None, max: int | None = None) -> Any:
    """Declare a house rule: a dataclass field with a default, a one-line help and limits."""
    meta = {"help": help, "choices": tuple(choices) if choices else None, "min": min, "max": max}
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class RuleSpec:
    """What ``kastkopp games`` shows about one house rule."""

    name: str
    type: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        if self.choices is not None:
            data["choices"] = list(self.choices)
        return data


R = TypeVar("R", bound="Rules")

_TRUE = {"1", "true", "yes", "on", "ja", "y"}
_FALSE = {"0", "false", "no", "off", "nej", "n"}


@dataclass(frozen=True)
class Rules:
    """Base of every game's house rules: a frozen dataclass validated on creation.

    Subclasses declare fields with :func:`rule` and name presets in ``PRESETS`` (each a
    dict of values that differ from the defaults). Cross-field checks go in :meth:`check`.
    """

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    PRESET_HELP: ClassVar[dict[str, str]] = {}

    def __post_init__(self) -> None:
        for spec in self.specs():
            value = getattr(self, spec.name)
            expected = type(spec.default)
            if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise RuleError("rule '{name}' must be a whole number, not {value}",
                                name=spec.name, value=repr(value))
            if expected is not int and not isinstance(value, expected):
                raise RuleError("rule '{name}' must be a {type}, not {value}", name=spec.name,
                                type=spec.type, value=repr(value))
            if spec.choices and value not in spec.choices:
                options = ", ".join(map(str, spec.choices))
                raise RuleError("rule '{name}' must be one of {options}, not {value}",
                                name=spec.name, options=options, value=repr(value))
            if spec.min is not None and value < spec.min:
                raise RuleError("rule '{name}' must be at least {min}, not {value}",
                                name=spec.name, min=spec.min, value=value)
            if spec.max is not None and value > spec.max:
                raise RuleError("rule '{name}' must be at most {max}, not {value}",
                                name=spec.name, max=spec.max, value=value)
        self.check()

    def check(self) -> None:
        """Cross-field validation; raise :class:`RuleError`."""

    @classmethod
    def specs(cls) -> list[RuleSpec]:
        specs = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            specs.append(RuleSpec(f.name, type(f.default).__name__, f.default,
                                  meta.get("help", ""), meta.get("choices"),
                                  meta.get("min"), meta.get("max")))
        return specs

    @classmethod
    def parse_value(cls, name: str, text: str) -> Any:
        """Read a rule value typed as text (``lives=5``, ``ones_wild=off``)."""
        spec = next((s for s in cls.specs() if s.name == name), None)
        if spec is None:
            known = ", ".join(s.name for s in cls.specs())
            raise RuleError("unknown rule '{name}' (rules: {known})", name=name, known=known)
        text = text.strip()
        if isinstance(spec.default, bool):
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise RuleError("rule '{name}' is on or off, not '{text}'", name=name, text=text)
        if isinstance(spec.default, int):
            try:
                return int(text)
            except ValueError:
                raise RuleError("rule '{name}' must be a whole number, not '{text}'",
                                name=name, text=text) from None
        return text

    @classmethod
    def make(cls: type[R], preset: str | None = None, **overrides: Any) -> R:
        """The rules of a preset (or the defaults) with some rules changed."""
        values: dict[str, Any] = {}
        if preset is not None:
            if preset not in cls.PRESETS:
                known = ", ".join(cls.PRESETS) or "none"
                raise RuleError("unknown preset '{preset}' (presets: {known})", preset=preset,
                                known=known)
            values.update(cls.PRESETS[preset])
        names = {s.name for s in cls.specs()}
        for name, value in overrides.items():
            if name not in names:
                raise RuleError("unknown rule '{name}' (rules: {known})", name=name,
                                known=", ".join(sorted(names)))
            if isinstance(value, str):
                value = cls.parse_value(name, value)
            values[name] = value
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def changed(self) -> dict[str, Any]:
        """The rules that differ from the defaults."""
        return {s.name: getattr(self, s.name) for s in self.specs()
                if getattr(self, s.name) != s.default}


# --------------------------------------------------------------------------- values


class Action(ABC):
    """Base of every game's actions. ``str(action)`` is its notation."""

    @abstractmethod
    def __str__(self) -> str:
        """The action in the game's notation (``announce 54``, ``bid 4x5``)."""

    def public(self) -> str:
        """How the action reads to every seat but the one that took it, while the game is
        on: its notation, unless that names dice the others cannot see (Poker Menteur's
        ``reroll J 9 9`` reads ``reroll 3 dice``). Views, logs, streams and narration all
        tell other seats' actions this way."""
        return str(self)


@dataclass(frozen=True)
class Chance:
    """A state waiting for dice: ``seat`` rolls ``count`` dice with ``sides`` faces.

    ``private`` dice are seen by the rolling seat only (until revealed); ``seat`` is
    ``None`` for dice rolled for the table (Linka's shared dice).
    """

    seat: int | None
    count: int
    sides: int = 6
    private: bool = False


class OutcomeJSON(TypedDict):
    """:meth:`Outcome.to_json`, as views and logs carry it."""

    ranking: list[list[int]]
    scores: list[float]
    payoffs: list[float]
    reason: str


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranking`` lists groups of seats, best first (a group of several is a true tie).
    ``scores`` are the game's own numbers per seat (lives, points, dice left).
    ``payoffs`` are what each seat won or lost (money in pot games, else a zero-sum share).
    ``reason`` says how it ended: ``"played"`` to the end under the rules, or ``"forfeit"``
    (a seat lost by its time running out).
    """

    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[float, ...]
    payoffs: tuple[float, ...]
    reason: str = "played"

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def place(self, seat: int) -> int:
        """1 for the winners, then counting seats ahead (two tied seconds are both 2)."""
        ahead = 0
        for group in self.ranking:
            if seat in group:
                return ahead + 1
            ahead += len(group)
        raise ValueError(f"seat {seat} is not in the ranking")

    def to_json(self) -> OutcomeJSON:
        return {"ranking": [list(g) for g in self.ranking], "scores": list(self.scores),
                "payoffs": list(self.payoffs), "reason": self.reason}


def ranking_by(keys: Sequence[Any]) -> tuple[tuple[int, ...], ...]:
    """Group seats by descending key: equal keys share a place."""
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(g) for g in groups)


def forfeit_outcome(players: int, seat: int) -> Outcome:
    """A game lost by one seat's forfeit: the others share first place and its loss."""
    others = tuple(s for s in range(players) if s != seat)
    if not others:
        return Outcome(ranking=((seat,),), scores=(0.0,), payoffs=(0.0,), reason="forfeit")
    return Outcome(ranking=(others, (seat,)), scores=(0.0,) * players,
                   payoffs=tuple(-1.0 if s == seat else 1.0 / len(others)
                                 for s in range(players)), reason="forfeit")


def winner_takes_all(players: int, winner: int) -> tuple[float, ...]:
    """Zero-sum payoffs for a game with a single winner: +1 shared out of the others' -1s."""
    return tuple(1.0 if s == winner else -1.0 / (players - 1) for s in range(players))


# --------------------------------------------------------------------------- game and state


S = TypeVar("S", bound="State")
# A game's view: each game declares it as a TypedDict beside its state, so that mypy checks
# the keys its ``view`` writes and its ``render`` reads.
V = TypeVar("V", bound=Mapping[str, Any])


class Said(TypedDict):
    """An entry of a view's ``history``: who did what, in notation."""

    seat: int
    action: str


@dataclass(frozen=True)
class Bounds:
    """What a game under its rules can never exceed, for adapters that declare it before
    play (OpenSpiel): the range of any seat's payoff, and the most actions the seats take in
    one game (the dice rolled are not counted). ``None``: the rules set no such bound (pot
    games' stakes, points against the average; dice thrown again as often as they tie)."""

    utility: tuple[float, float] | None = None
    length: int | None = None


ZERO_SUM_SHARE = Bounds(utility=(-1.0, 1.0))  # winner_takes_all and its ties


@dataclass(frozen=True)
class Parts:
    """Where a game's pieces above its rules live, by module name.

    The rules sit below strategy, sheets and the server, so a game names these modules and
    never imports them; each registers its pieces with its own package's decorator when
    :meth:`load` imports it (bots, advisor, odds and warm-up work in ``strategy``, a grader
    in ``review``, a score-sheet kind in ``sheet``, ``solve``, ``advise`` and ``score``
    subcommands in ``commands``). ``about`` is the message id of a few lines for players.
    ``renderer`` is the browser module that draws the game's view, a path under the server's
    static folder (``games/mia.js``); empty, the page draws it with the generic one.
    ``default_for`` names where the game is offered first when none is named: ``play`` (the
    terminal's picker, the lobby's form) and ``match`` (``match``, ``chouette``,
    ``knockout``); one game names each, so the command line and the server name none.
    """

    strategy: tuple[str, ...] = ()
    review: tuple[str, ...] = ()
    sheet: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    about: str = ""
    renderer: str = ""
    default_for: tuple[str, ...] = ()

    def load(self, part: str) -> bool:
        """Import the modules of ``part`` (their pieces register); False if the game has none."""
        modules: tuple[str, ...] = getattr(self, part)
        for module in modules:
            importlib.import_module(module)
        return bool(modules)


@dataclass(frozen=True)
class Game(ABC, Generic[V]):
    """A game with its house rules and number of players. Subclasses register themselves,
    each with its view's TypedDict as ``V`` (``class Mia(Game[MiaView])``)."""

    rules: Rules
    players: int
    preset: str | None = None

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    default_players: ClassVar[int] = 3
    rules_class: ClassVar[type[Rules]] = Rules
    # The verbs of the notation in Swedish and Danish ({"sv": {"knock": "knacka"}}): words
    # parse_action reads as the English ones, so an action told back can be typed again.
    action_words: ClassVar[dict[str, dict[str, str]]] = {}
    hidden_information: ClassVar[bool] = True
    parts: ClassVar[Parts] = Parts()

    def __post_init__(self) -> None:
        if not isinstance(self.rules, self.rules_class):
            raise RuleError("{game} is played with its own rules, not {rules}",
                            game=self.title or self.name, rules=type(self.rules).__name__)
        if not self.min_players <= self.players <= self.max_players:
            raise RuleError("{game} is for {least} to {most} players, not {players}",
                            game=self.title or self.name, least=self.min_players,
                            most=self.max_players, players=self.players)
        self.check_players()

    def check_players(self) -> None:  # an optional hook
        """Extra checks on the player count under these rules; raise :class:`RuleError`."""

    @abstractmethod
    def new_state(self) -> State:
        """The state before anything has happened."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read the notation of an action; raise :class:`IllegalAction` if unreadable."""

    @abstractmethod
    def all_actions(self) -> list[Action]:
        """Every action that can ever be legal under these rules, in a fixed order.

        The PettingZoo and OpenSpiel adapters number actions by their place in this list.
        """

    @abstractmethod
    def render(self, view: V, names: Sequence[str]) -> str:
        """A view as text for the terminal."""

    def told_action(self, text: str, lang: str | None) -> str:
        """An action's notation (``knock``, ``bid 3x5``) in ``lang``'s words, which
        :meth:`parse_action` reads back as the same action; English as it is."""
        words = self.action_words.get(lang or "en")
        if not words:
            return text
        return " ".join(words.get(word, word) for word in text.split(" "))

    def bounds(self) -> Bounds:
        """The static bounds of this game under its rules (none known by default)."""
        return Bounds()

    def world(self, view: dict[str, Any], rng: random.Random) -> State | None:
        """A state in which ``view``'s seat sees exactly ``view``, every die that seat cannot
        see drawn by ``rng`` as the game rolls it; None if this game cannot rebuild one.

        A search that may know only what its seat knows (a bot's) starts from such a state.
        """
        return None

    @classmethod
    def page_words(cls, lang: str) -> dict[str, str]:
        """Words the game's page needs beyond the catalogs, by key, in ``lang`` (Yatzy's
        rows as each of its sheets names them); none by default."""
        return {}

    def opened_by(self, seat: int) -> Game | None:
        """This game with ``seat`` opening it, for a game whose rules say who opens
        (Poker Menteur); ``None``: the seating decides who opens."""
        return None

    @classmethod
    def conformance_configs(cls) -> list[tuple[str | None, int]]:
        """(preset, players) pairs that the conformance suite plays."""
        presets: list[str | None] = [None, *cls.rules_class.PRESETS]
        counts = sorted({cls.min_players, min(cls.min_players + 1, cls.max_players)})
        return [(p, n) for p in presets for n in counts]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.name, "preset": self.preset, "players": self.players,
                "rules": self.rules.to_json()}


D = TypeVar("D")
_PLAIN: dict[type, tuple[tuple[str, ...], frozenset[str]] | None] = {}


def _plain_fields(cls: type) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """A dataclass's fields if its ``__init__`` only stores them, else ``None``."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__ or \
            any(not f.init for f in fields):
        return None
    names = tuple(f.name for f in fields)
    return names, frozenset(names)


def changed(obj: D, /, **changes: Any) -> D:
    """:func:`dataclasses.replace` for the frozen states and ledgers that every move and
    every roll copies (a solver or a search copies millions): the fields are copied as
    they are instead of passing through ``__init__`` again, which costs several times the
    copy. A class that checks or computes anything on creation (``__post_init__``, fields
    not given to ``__init__``) still goes through :func:`dataclasses.replace`.

    >>> from kastkopp.games.stakes import Ledger
    >>> changed(Ledger(2), round_start=3)
    Ledger(players=2, movements=(), stacks=None, folded=frozenset(), round_start=3, raised=())
    >>> changed(Ledger(2), pot=3)
    Traceback (most recent call last):
    ...
    TypeError: Ledger.__init__() got an unexpected keyword argument 'pot'
    """
    cls = type(obj)
    try:
        plain = _PLAIN[cls]
    except KeyError:
        plain = _PLAIN[cls] = _plain_fields(cls)
    if plain is None or not changes.keys() <= plain[1]:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    old = obj.__dict__
    new = object.__new__(cls)
    # only the fields: a functools.cached_property keeps its value in __dict__ too
    new.__dict__.update({name: old[name] for name in plain[0]}, **changes)
    return new


@dataclass(frozen=True)
class State(ABC, Generic[V]):
    """A position of a game. Immutable: :meth:`apply` and :meth:`resolve` return new states.
    ``V`` is the TypedDict its :meth:`view` returns."""

    game: Game

    # -- whose turn ------------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must act, or ``None`` when waiting for dice or when over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take (empty when none can act)."""

    def legal_notations(self) -> list[str]:
        """:meth:`legal_actions` in their notation, as a client is sent them (a game may
        keep these lists ready: every frame carries one)."""
        return [str(action) for action in self.legal_actions()]

    def chance(self) -> Chance | None:
        """The dice this state waits for, if any."""
        return None

    def default_action(self) -> Action:
        """What is played for the seat to move when its time is up: the game's passive
        choice (a call, a fold, the row that costs least). Games say which; this base
        takes the first legal action."""
        legal = self.legal_actions()
        if not legal:
            raise IllegalAction("nobody can act now")
        return legal[0]

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome:
        """How the game ended; only when :meth:`is_over`."""

    # -- moving ----------------------------------------------------------------------
    def apply(self: S, action: Action | str) -> S:
        """The state after the seat to move takes ``action`` (an object or its notation)."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if self.is_over():
            raise IllegalAction("the game is over")
        if self.chance() is not None:
            raise IllegalAction("the dice must be rolled first")
        return self._apply(action)

    @abstractmethod
    def _apply(self: S, action: Action) -> S:
        """Validate and apply an action; raise :class:`IllegalAction` with the reason."""

    def resolve(self: S, faces: Faces) -> S:
        """The state after the awaited dice came up ``faces``."""
        chance = self.chance()
        if chance is None:
            raise IllegalAction("no dice are to be rolled now")
        faces = tuple(faces)
        if len(faces) != chance.count:
            raise IllegalAction("expected {count} dice, got {got}", count=chance.count,
                                got=len(faces))
        try:
            check_faces(faces, chance.count, chance.sides)
        except ValueError:
            wrong = next(f for f in faces if not isinstance(f, int) or isinstance(f, bool)
                         or not 1 <= f <= chance.sides)
            raise IllegalAction("a die shows 1 to {sides}, not {face}", sides=chance.sides,
                                face=repr(wrong)) from None
        return self._resolve(faces)

    def _resolve(self: S, faces: Faces) -> S:
        raise IllegalAction("no dice are to be rolled now")

    # -- knowing ---------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> V:
        """Exactly what ``seat`` may know, JSON-ready; ``None`` is a spectator."""

    def penalty(self: S, seat: int, reason: str) -> S:
        """The state after ``seat`` is penalised outside the rules of play: by an answer the
        table could not take, or none in time (``reason`` says which, in the words of whoever
        drove the table). Unlike a forfeit, the game goes on if its rules say it does.

        Tables driven from outside (a Mäxchen server) need this; a game that can say what
        such a loss costs overrides it (Mia: the round), the others refuse.
        """
        raise IllegalAction("{game} has no rule for a player who is penalised",
                            game=self.game.title or self.game.name)

    def sitting_out(self, seat: int) -> Message | None:
        """Why ``seat`` takes no part now (``"has folded"``), said when it acts out of turn."""
        return None

    def resample_hidden(self: S, seat: int | None, rng: random.Random) -> S:
        """This state with every die that ``seat`` cannot see replaced at random.

        The conformance suite checks that ``view(seat)`` does not change. Games without
        hidden dice return ``self``.
        """
        return self


# --------------------------------------------------------------------------- registry

# Filled by :func:`register` as each game's module is imported; :mod:`kastkopp.games` imports
# them all (the engine never names where the games live) and offers ``load`` and ``registered``.
_REGISTRY: dict[str, type[Game]] = {}

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a game loadable by name."""
    if not cls.name:
        raise ValueError("a registered game needs a name")
    _REGISTRY[cls.name] = cls
    return cls


def games_registered() -> dict[str, type[Game]]:
    """The games registered so far (every game, once :mod:`kastkopp.games` is imported)."""
    return dict(_REGISTRY)


def game_from_json(data: dict[str, Any]) -> Game:
    """Rebuild a game from :meth:`Game.to_json`."""
    try:
        name = str(data["game"])
        players = int(data["players"])
        rules = dict(data.get("rules") or {})
        preset = data.get("preset")
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError(f"the log does not say which game it is ({exc})") from None
    if name not in _REGISTRY:
        raise LogError(f"unknown game '{name}' in the log")
    cls = _REGISTRY[name]
    try:
        rules_obj = cls.rules_class(**rules)
    except TypeError as exc:
        raise LogError(f"the log's rules are not {name}'s: {exc}") from None
    return cls(rules=rules_obj, players=players, preset=preset)


# --------------------------------------------------------------------------- the table


@dataclass
class Preview:
    """What a play would do to a table, not yet part of it: the new events and position."""

    events: list[dict[str, Any]]
    state: State
    nonce: int
    forfeited: int | None = None


@dataclass
class Table:
    """A game being played: seats, a dice source and the log of what happened.

    The log is the truth; :attr:`state` is its fold. Dice are rolled by the table whenever
    the state waits for them, and every roll is logged with its nonce so it can be verified.
    """

    game: Game
    seats: list[str] = field(default_factory=list)
    dice: DiceSource = field(default_factory=SeededDice)
    events: list[dict[str, Any]] = field(default_factory=list)
    state: State = field(init=False)
    # The seat that lost the game by a forfeit event (its time ran out), if any.
    forfeited: int | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [f"Player {i + 1}" for i in range(self.game.players)]
        if len(self.seats) != self.game.players:
            raise RuleError("{names} seat names for {players} players", names=len(self.seats),
                            players=self.game.players)
        self.state = self.game.new_state()
        self.roll_pending()

    @classmethod
    def _from_parts(cls, game: Game, seats: list[str], dice: DiceSource,
                    events: list[dict[str, Any]], state: State) -> Table:
        """A table put together as it is, rolling nothing (replays and copies)."""
        table = cls.__new__(cls)
        table.game, table.seats, table.dice, table.events, table.state = (
            game, seats, dice, events, state)
        table.forfeited = None
        return table

    def copy(self) -> Table:
        """A table that can move on without changing this one (its dice source included)."""
        table = Table._from_parts(self.game, list(self.seats), dataclasses.replace(self.dice),
                                  list(self.events), self.state)
        table.forfeited = self.forfeited
        return table

    def is_over(self) -> bool:
        """Whether the game has ended: played out, or lost by a seat's forfeit."""
        return self.forfeited is not None or self.state.is_over()

    def outcome(self) -> Outcome:
        """How the game ended (a forfeit ranks the seat that forfeited last)."""
        if self.forfeited is not None:
            return forfeit_outcome(self.game.players, self.forfeited)
        return self.state.outcome()

    def forfeit(self, seat: int) -> None:
        """Seat ``seat`` loses the game where it stands (its time ran out): a logged event."""
        if self.is_over():
            raise GameOver("the game is over")
        if not 0 <= seat < self.game.players:
            raise IllegalAction("there is no seat {seat}", seat=seat)
        self.events.append({"seq": len(self.events), "type": "forfeit", "seat": seat})
        self.forfeited = seat

    def roll_pending(self) -> None:
        """Roll every die the state is waiting for, logging each roll."""
        while (chance := self.state.chance()) is not None:
            nonce = self.dice.nonce
            faces = self.dice.roll(chance.count, chance.sides)
            self.state = self.state.resolve(faces)
            self.events.append({"seq": len(self.events), "type": "roll", "seat": chance.seat,
                                "nonce": nonce, "faces": list(faces)})

    def act(self, seat: int, action: Action | str) -> State:
        """Seat ``seat`` takes an action; the log grows only if it was legal."""
        if self.is_over():
            raise GameOver("the game is over")
        to_move = self.state.to_move()
        if seat != to_move:
            who = self.seats[to_move] if to_move is not None else term("nobody")
            note = self.state.sitting_out(seat) if 0 <= seat < len(self.seats) else None
            if note:
                raise NotYourTurn("{name} {note}; it is {who}'s turn", name=self.seats[seat],
                                  note=note, who=who)
            raise NotYourTurn("it is not {name}'s turn; it is {who}'s",
                              name=self.seats[seat], who=who)
        if isinstance(action, str):
            action = self.game.parse_action(action)
        self.state = self.state.apply(action)
        self.events.append({"seq": len(self.events), "type": "action", "seat": seat,
                            "action": str(action)})
        self.roll_pending()
        return self.state

    def penalize(self, seat: int, reason: str) -> State:
        """Seat ``seat`` loses outside the rules of play (see :meth:`State.penalty`); logged."""
        if self.is_over():
            raise GameOver("the game is over")
        if not 0 <= seat < len(self.seats):
            raise IllegalAction("there is no seat {seat}", seat=seat)
        self.state = self.state.penalty(seat, reason)
        self.events.append({"seq": len(self.events), "type": "penalty", "seat": seat,
                            "reason": reason})
        self.roll_pending()
        return self.state

    def preview(self, play: Callable[[Table], object]) -> Preview:
        """What ``play`` would do to the table, without doing it: the table is as before.

        Unlike a copy of the table this costs nothing for the length of the log, and it
        runs without a pause, so nobody can see the table in between. The server writes
        the preview's events down and only then makes them the table's (:meth:`accept`).
        """
        before, state, nonce = len(self.events), self.state, self.dice.nonce
        forfeited = self.forfeited
        try:
            play(self)
            return Preview(self.events[before:], self.state, self.dice.nonce, self.forfeited)
        finally:
            del self.events[before:]
            self.state, self.dice.nonce, self.forfeited = state, nonce, forfeited

    def accept(self, preview: Preview) -> None:
        """Make a :meth:`preview` of this table's present position part of the table."""
        self.events.extend(preview.events)
        self.state = preview.state
        self.dice.nonce = preview.nonce
        self.forfeited = preview.forfeited

    # -- the log ---------------------------------------------------------------------
    def to_json(self, reveal: bool | None = None) -> dict[str, Any]:
        """The log. Secrets of the dice source are included once the game is over."""
        reveal = self.is_over() if reveal is None else reveal
        return {"format": LOG_FORMAT, "version": LOG_VERSION, **self.game.to_json(),
                "seats": list(self.seats), "dice": self.dice.describe(reveal=reveal),
                "events": list(self.events)}

    def dumps(self) -> str:
        """The log as text: the header indented, then one event per line."""
        data = self.to_json()
        events = data.pop("events")
        head = json.dumps(data, ensure_ascii=False, indent=1)[:-2]
        body = ",\n".join("  " + json.dumps(e, ensure_ascii=False) for e in events)
        return f'{head},\n "events": [\n{body}\n ]\n}}\n' if events else \
            f'{head},\n "events": []\n}}\n'


    def events_seen_by(self, viewer: int | None) -> list[dict[str, Any]]:
        """The log's events as ``viewer`` (a seat, or ``None`` for anyone) may see them while
        the game is on: rolls private to another seat without faces, other seats' actions in
        their public notation (:meth:`Action.public`). Once the game is over every event is
        as it happened."""
        if self.is_over():
            return [dict(event) for event in self.events]
        return seen_by(self.game, self.events, viewer)

    @classmethod
    def from_json(cls, data: Any, dice: DiceSource | None = None) -> Table:
        """Replay a log. Raises :class:`LogError` naming the first event that fails."""
        if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
            raise LogError("this is not a kastkopp log")
        if data.get("version") != LOG_VERSION:
            raise LogError(f"unsupported log version {data.get('version')!r}")
        game = game_from_json(data)
        events = data.get("events")
        if not isinstance(events, list):
            raise LogError("the log has no list of events")
        if dice is None:
            try:
                dice = source_from_description(dict(data.get("dice") or {}))
            except ValueError as exc:
                raise LogError(str(exc)) from None
        seats = [str(s) for s in data.get("seats") or []] or [
            f"Player {i + 1}" for i in range(game.players)]
        table = cls._from_parts(game, seats, dice if dice is not None else SeededDice(), [],
                                game.new_state())
        for index, event in enumerate(events):
            try:
                table._replay_event(event)
            except (KastkoppError, KeyError, TypeError, ValueError) as exc:
                raise LogError(f"event {index}: {exc}") from None
        table.dice.nonce = 1 + max((e["nonce"] for e in table.events if e["type"] == "roll"),
                                   default=-1)
        return table

    def _replay_event(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if self.forfeited is not None:
            raise LogError("an event after a forfeit ended the game")
        if kind == "forfeit":
            if self.state.is_over():
                raise LogError("a forfeit after the game was over")
            seat = int(event["seat"])
            if not 0 <= seat < self.game.players:
                raise LogError(f"a forfeit by seat {seat}, who is not at the table")
            self.forfeit(seat)
        elif kind == "roll":
            chance = self.state.chance()
            if chance is None:
                raise LogError("a roll where no dice were to be rolled")
            faces = tuple(int(f) for f in event["faces"])
            self.state = self.state.resolve(faces)
            self.events.append({"seq": len(self.events), "type": "roll", "seat": chance.seat,
                                "nonce": int(event["nonce"]), "faces": list(faces)})
        elif kind == "action":
            seat = int(event["seat"])
            if self.state.chance() is not None:
                raise LogError("an action while dice were still to be rolled")
            if seat != self.state.to_move():
                raise IllegalAction("seat {seat} acted out of turn", seat=seat)
            action = self.game.parse_action(str(event["action"]))
            self.state = self.state.apply(action)
            self.events.append({"seq": len(self.events), "type": "action", "seat": seat,
                                "action": str(action)})
        elif kind == "penalty":
            seat, reason = int(event["seat"]), str(event["reason"])
            if self.state.chance() is not None:
                raise LogError("a penalty while dice were still to be rolled")
            self.state = self.state.penalty(seat, reason)
            self.events.append({"seq": len(self.events), "type": "penalty", "seat": seat,
                                "reason": reason})
        else:
            raise LogError(f"unknown event type {kind!r}")

    @classmethod
    def loads(cls, text: str) -> Table:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LogError(f"the log is not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_json(data)


def seen_by(game: Game, events: Iterable[dict[str, Any]],
            viewer: int | None) -> list[dict[str, Any]]:
    """``events`` (a log's, from its start) as ``viewer`` may see them: the one redaction
    that every place showing a game in progress uses (see :meth:`Table.events_seen_by`)."""
    state = game.new_state()
    out = []
    for event in events:
        kind = event["type"]
        if kind == "roll":
            chance = state.chance()
            state = state.resolve(tuple(event["faces"]))
            if chance is not None and chance.private and chance.seat != viewer:
                event = {**event, "faces": None}
        elif kind == "penalty":
            state = state.penalty(event["seat"], event["reason"])
        elif kind == "action":
            action = game.parse_action(str(event["action"]))
            state = state.apply(action)
            if event["seat"] != viewer:
                event = {**event, "action": action.public()}
        out.append(dict(event))
    return out


@dataclass(frozen=True)
class Verification:
    """What :func:`check_log` found: the problems (none: every roll is what the seeds give),
    how many rolls were checked, whose seeds made the dice, and whether the log goes to the
    game's end — a log cut short can be honest as far as it goes and still not be the game."""

    problems: tuple[str, ...]
    rolls: int = 0
    contributions: tuple[Contribution, ...] = ()
    complete: bool = False
    unfinished: str = ""  # why the log is not complete (empty when it is)

    @property
    def verified(self) -> bool:
        """Every roll checked and the game played to its end."""
        return not self.problems and self.complete


def verify_log(data: dict[str, Any]) -> list[str]:
    """Check every roll of a log against its dice source. Returns problems (empty = fair
    as far as the log goes; :func:`check_log` also says whether it goes to the end)."""
    return list(check_log(data).problems)


def check_log(data: dict[str, Any]) -> Verification:
    """Check a log's contributions and every roll, and whether the log reaches the game's end."""
    description = dict(data.get("dice") or {})
    try:
        source = source_from_description(description)
    except ValueError as exc:
        return Verification((str(exc),))
    if source is None:
        kind = description.get("source")
        if kind == "commit-reveal":
            return Verification(("the server seed has not been revealed yet, so the rolls "
                                 "cannot be checked",))
        return Verification((f"rolls from a '{kind}' source cannot be checked afterwards",))
    contributions = getattr(source, "contributions", ())
    problems = _contribution_problems(data, contributions)
    rolls, expected_nonce = 0, 0
    events = data.get("events")
    sides = _sides_of_rolls(data)
    for index, event in enumerate(events if isinstance(events, list) else []):
        if not isinstance(event, dict) or event.get("type") != "roll":
            continue
        try:
            nonce, faces = int(event["nonce"]), tuple(int(f) for f in event["faces"])
        except (KeyError, TypeError, ValueError):
            problems.append(f"event {index}: a roll without a nonce and faces")
            continue
        rolls += 1
        if nonce != expected_nonce:
            problems.append(f"event {index}: roll number {nonce} where {expected_nonce} "
                            "was expected")
        if not source.verify(nonce, len(faces), sides.get(index, 6), faces):
            problems.append(f"event {index}: the dice {list(faces)} are not what the seed gives")
        expected_nonce = nonce + 1
    if problems:
        return Verification(tuple(problems), rolls, contributions)
    try:
        table = Table.from_json(data, dice=source)
    except LogError as exc:
        return Verification((str(exc),), rolls, contributions)
    return Verification((), rolls, contributions, table.is_over(), _unfinished(table))


def _contribution_problems(data: dict[str, Any],
                           contributions: Sequence[Contribution]) -> list[str]:
    """Each contribution must be a seat of the table, under that seat's name."""
    given = data.get("seats")
    seats: list[Any] = given if isinstance(given, list) else []
    problems = []
    for c in contributions:
        if not 0 <= c.seat < len(seats):
            problems.append(f"a seed contributed by seat {c.seat}, who is not at the table")
        elif str(seats[c.seat]) != c.name:
            problems.append(f"the seed of seat {c.seat} is {c.name!r}'s, but seat {c.seat} "
                            f"is {seats[c.seat]!r}")
    return problems


def _unfinished(table: Table) -> str:
    """Why a replayed log does not reach the end of its game ('' if it does)."""
    if table.is_over():
        return ""
    chance = table.state.chance()
    if chance is not None:
        return "the log stops before a roll: the game went on after it"
    to_move = table.state.to_move()
    if to_move is None:
        return "the log stops before the game's end"
    return f"the log stops before the game's end, with {table.seats[to_move]} to move"


def _sides_of_rolls(data: dict[str, Any]) -> dict[int, int]:
    """The sides of the dice of each roll of a log (by event index), as far as it replays;
    a log that does not replay is reported by :func:`verify_log` anyway."""
    sides: dict[int, int] = {}
    try:
        state = game_from_json(data).new_state()
        for index, event in enumerate(data.get("events") or []):
            if event["type"] == "roll":
                chance = state.chance()
                if chance is None:
                    break
                sides[index] = chance.sides
                state = state.resolve(tuple(int(f) for f in event["faces"]))
            elif event["type"] == "forfeit":
                break  # the game ended there
            elif event["type"] == "penalty":
                state = state.penalty(int(event["seat"]), str(event["reason"]))
            else:
                state = state.apply(str(event["action"]))
    except (KastkoppError, KeyError, TypeError, ValueError, AttributeError):
        pass
    return sides


# --------------------------------------------------------------------------- driving bots


class Player(ABC):
    """Anything that picks actions from what its seat may see: a bot or a person.

    ``thinks`` is True for a bot whose move is a search of tens of milliseconds or more
    (IS-MCTS, the liar's-dice search): a server has it choose in a thread, so that its event
    loop answers everyone else meanwhile.
    """

    thinks: ClassVar[bool] = False

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action: ...


def play_out(table: Table, players: Sequence[Player], rng: random.Random,
             max_actions: int = 100_000,
             on_action: Callable[[int, Action], None] | None = None) -> Outcome:
    """Play a table to its end, each seat's :class:`Player` seeing only its view."""
    for _ in range(max_actions):
        state = table.state
        if state.is_over():
            return state.outcome()
        seat = state.to_move()
        if seat is None:
            raise RuntimeError("no seat to move in an unfinished game")
        action = players[seat].choose(state.view(seat), state.legal_actions(), rng)
        table.act(seat, action)
        if on_action is not None:
            on_action(seat, action)
    raise RuntimeError(f"the game did not end within {max_actions} actions")


def notations(actions: Iterable[Action]) -> list[str]:
    return [str(a) for a in actions]

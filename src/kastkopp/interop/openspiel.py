"""Every kastkopp game as an OpenSpiel game (``pip install kastkopp[openspiel]``).

Importing this module registers each game of :func:`kastkopp.engine.registered` with
``pyspiel`` as ``kastkopp_<name>``, with the parameters ``players``, ``preset`` and
``rules`` (house rules as ``name:value`` pairs separated by ``;``)::

    >>> import pyspiel
    >>> import kastkopp.interop.openspiel
    >>> game = pyspiel.load_game("kastkopp_mia", {"players": 2, "preset": "maexchen",
    ...                                           "rules": "rounds:1"})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 6)

How the protocol maps onto OpenSpiel's:

- **Actions** are numbered by their place in :meth:`Game.all_actions`; the action strings
  are the game's notation (``announce 54``).
- **Chance**: a state waiting for ``count`` dice is ``count`` chance nodes in a row, one die
  each with its faces equally likely (chance action ``f - 1`` is face ``f``). Only when the
  last die is in does the kastkopp state ``resolve`` them, so a node never has more than
  six outcomes, however many dice are rolled at once.
- **Observations** come from ``state.view(seat)`` only: the observation string is the
  canonical JSON of the view (the spectator's view for a public observation); the
  information-state string is the seat's view now plus a digest of the sequence of its
  distinct views before (perfect recall in a string of bounded length); the tensors hash
  the view, and for the information state every view so far tagged with its step, with
  :class:`ViewEncoder`.
- **Resampling** (``resample_from_infostate``, which OpenSpiel's information-set MCTS
  calls): the dice a seat cannot see are drawn again by the game's ``resample_hidden``
  with the numbers of OpenSpiel's sampler; the seat's information state stays the same.
- **Utilities** are ``Outcome.payoffs``, zero-sum by the protocol. The declared range is the
  game's own :meth:`~kastkopp.engine.Game.bounds` where its rules give one (a single winner
  takes all), else a wide one (stakes, points).

OpenSpiel's algorithms then run unchanged, e.g. outcome-sampling MCCFR::

    >>> solver = pyspiel.OutcomeSamplingMCCFRSolver(game)
    >>> solver.run_iteration()
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from kastkopp.engine import Action, Game, KastkoppError, RuleError, State
from kastkopp.games import load, registered
from kastkopp.interop.encoding import DEFAULT_SIZE, ViewEncoder, canonical

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("the OpenSpiel games need the 'openspiel' extra: "
                      "pip install 'kastkopp[openspiel]'") from exc

__all__ = ["KastkoppGame", "KastkoppState", "SamplerRandom", "from_game", "register_all",
           "spiel_name", "to_efg"]

MAX_SIDES = 6
# The protocol bounds neither payoffs nor game length; these are declared wide so that
# nothing real is ever out of range.
UTILITY_BOUND = 1e9
MAX_GAME_LENGTH = 1_000_000


def spiel_name(name: str) -> str:
    """The pyspiel short name of a kastkopp game."""
    return f"kastkopp_{name}"


def parse_rules(text: str) -> dict[str, str]:
    """Read the ``rules`` parameter: ``lives:1;order:classic`` (``=`` and ``,`` work too).

    Inside an OpenSpiel game string (``kastkopp_mia(players=2,rules=lives:1)``) only the
    ``:``/``;`` spelling survives, so that is the one :func:`game_params` writes.
    """
    rules: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in re.split(r"[;,\s]+", text))):
        name, sep, value = item.replace("=", ":", 1).partition(":")
        if not sep or not name.strip():
            raise RuleError(f"cannot read the house rule '{item}' (write it like lives:1)")
        rules[name.strip()] = value.strip()
    return rules


@functools.cache
def numbering(game: Game) -> tuple[list[Action], dict[Action, int]]:
    """Every action of a game in its fixed order, and each action's number."""
    actions = game.all_actions()
    return actions, {action: i for i, action in enumerate(actions)}


def game_params(game: Game) -> dict[str, Any]:
    """The pyspiel parameters that load ``game``: players, preset and the rules it changes."""
    preset_rules = game.rules_class.make(game.preset)
    changed = {name: value for name, value in game.rules.to_json().items()
               if getattr(preset_rules, name) != value}
    rules = ";".join(f"{name}:{str(value).lower() if isinstance(value, bool) else value}"
                     for name, value in changed.items())
    return {"players": game.players, "preset": game.preset or "", "rules": rules}


def _game_type(cls: type[Game]) -> Any:
    information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if cls.hidden_information
                   else pyspiel.GameType.Information.PERFECT_INFORMATION)
    return pyspiel.GameType(
        short_name=spiel_name(cls.name),
        long_name=f"kastkopp {cls.title or cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.default_players, "preset": "", "rules": ""},
    )


class KastkoppGame(pyspiel.Game):
    """A kastkopp game (with its preset, players and house rules) seen by OpenSpiel."""

    def __init__(self, game: Game, params: dict[str, Any] | None = None) -> None:
        # the game's own bound where its rules give one, else a range wide enough for any
        low, high = game.bounds().utility or (-UTILITY_BOUND, UTILITY_BOUND)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(numbering(game)[0]),
            max_chance_outcomes=MAX_SIDES,
            num_players=game.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=game.bounds().length or MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(type(game)), info, params or game_params(game))
        self._setup(game)

    def _setup(self, game: Game) -> None:
        self.game = game
        self.actions, self.index = numbering(game)
        self.encoder = ViewEncoder(DEFAULT_SIZE)

    def __getattr__(self, name: str) -> Any:
        # pyspiel rebuilds an unpickled game from its string without calling __init__
        if name in {"game", "actions", "index", "encoder"}:
            short_name = self.get_type().short_name
            self._setup(game_from_params(short_name.removeprefix("kastkopp_"),
                                         self.get_parameters()))
            return self.__dict__[name]
        raise AttributeError(name)

    def new_initial_state(self) -> KastkoppState:
        return KastkoppState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return ViewObserver(self, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False))


@dataclass(frozen=True)
class Position:
    """Everything a :class:`KastkoppState` knows, immutable so that clones share it.

    ``seen`` holds each seat's distinct views so far, in order; ``earlier`` a digest of all
    of them but the last, so an information-state string stays short in a long game.
    """

    state: State
    faces: tuple[int, ...] = ()  # the dice of a roll that are in so far
    seen: tuple[tuple[str, ...], ...] = ()
    earlier: tuple[str, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self  # pyspiel clones states by deep copy; nothing here ever changes

    def remember(self) -> Position:
        """This position with each seat's current view added to what it has seen."""
        seen, earlier = list(self.seen), list(self.earlier)
        for seat in range(self.state.game.players):
            text = canonical(self.state.view(seat))
            if seat == len(seen):
                seen.append((text,))
                earlier.append("")
            elif seen[seat][-1] != text:
                chain = f"{earlier[seat]}\n{seen[seat][-1]}".encode()
                earlier[seat] = hashlib.blake2b(chain, digest_size=16).hexdigest()
                seen[seat] = (*seen[seat], text)
        return replace(self, seen=tuple(seen), earlier=tuple(earlier))


class SamplerRandom(random.Random):
    """A :class:`random.Random` drawing from a callable that gives numbers in [0, 1), as
    OpenSpiel's probability samplers do: ``randint`` and ``choice`` work on it."""

    def __init__(self, sampler: Callable[[], float]) -> None:
        self.sampler = sampler
        super().__init__(0)

    def random(self) -> float:
        return float(self.sampler())


class KastkoppState(pyspiel.State):
    """A kastkopp state seen by OpenSpiel (see :class:`Position` for what it holds)."""

    def __init__(self, game: KastkoppGame, state: State | None = None) -> None:
        super().__init__(game)
        self.position = Position(state or game.game.new_state()).remember()

    @classmethod
    def at(cls, game: KastkoppGame, state: State) -> KastkoppState:
        """An OpenSpiel state starting at ``state`` (a bot's rebuilt world, say), remembering
        each seat's view there and nothing before."""
        return cls(game, state)

    @property
    def state(self) -> State:
        return self.position.state

    @state.setter
    def state(self, state: State) -> None:
        self.position = replace(self.position, state=state)

    @property
    def game(self) -> Game:
        return self.position.state.game

    # -- whose turn ----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.state.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.state.chance() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.state.to_move()
        assert seat is not None, "an unfinished game with nobody to move and no dice"
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        index = numbering(self.game)[1]
        return sorted(index[action] for action in self.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        chance = self.state.chance()
        assert chance is not None
        if chance.sides > MAX_SIDES:
            raise RuleError(f"dice with {chance.sides} sides are more than the "
                            f"{MAX_SIDES} the OpenSpiel adapter declares")
        return [(face - 1, 1.0 / chance.sides) for face in range(1, chance.sides + 1)]

    # -- moving ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        position = self.position
        chance = position.state.chance()
        if chance is not None:
            faces = (*position.faces, action + 1)
            if len(faces) < chance.count:
                self.position = replace(position, faces=faces)
                return
            position = replace(position, state=position.state.resolve(faces), faces=())
        else:
            action_object = numbering(self.game)[0][action]
            position = replace(position, state=position.state.apply(action_object))
        self.position = position.remember()

    # -- imagining ---------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> KastkoppState:
        """A state ``player_id`` cannot tell from this one (OpenSpiel's IS-MCTS draws them).

        The dice the seat cannot see are drawn again by the game's ``resample_hidden``, from
        the game's own dice, with numbers from ``probability_sampler``; so are the dice of a
        roll still coming in. The seat's own views, and so its information state, are kept.
        The other seats' earlier views would carry the dice they had, so each other seat
        remembers only its view now, tagged with a digest of what ``player_id`` has seen.
        (OpenSpiel's ``history()``, kept by its base class, is not redrawn.)
        """
        rng = SamplerRandom(probability_sampler)
        position = self.position
        state = position.state.resample_hidden(player_id, rng)
        chance = state.chance()
        faces = tuple(rng.randint(1, chance.sides) for _ in position.faces) if chance else ()
        twin = self.clone()
        if state == position.state and faces == position.faces:
            return twin  # nothing hidden from this seat
        mine = f"{position.earlier[player_id]}\n{position.seen[player_id][-1]}".encode()
        digest = "resampled " + hashlib.blake2b(mine, digest_size=16).hexdigest()
        seen = tuple(views if seat == player_id else (canonical(state.view(seat)),)
                     for seat, views in enumerate(position.seen))
        earlier = tuple(text if seat == player_id else digest
                        for seat, text in enumerate(position.earlier))
        twin.position = replace(position, state=state, faces=faces, seen=seen,
                                earlier=earlier)
        return twin

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"die {action + 1}"
        return str(numbering(self.game)[0][action])

    # -- ending ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.state.is_over()

    def returns(self) -> list[float]:
        if not self.state.is_over():
            return [0.0] * self.game.players
        return [float(p) for p in self.state.outcome().payoffs]

    def __str__(self) -> str:
        game = self.game
        names = [f"Player {seat + 1}" for seat in range(game.players)]
        text = game.render(self.state.view(None), names)
        if self.position.faces:
            text += "\nDice so far: " + " ".join(map(str, self.position.faces))
        return text + "\nHistory: " + " ".join(map(str, self.history()))


class ViewObserver:
    """OpenSpiel's observer built from views: strings and tensors of what a seat knows.

    ``private_info`` NONE observes the spectator's view; SINGLE_PLAYER the seat's own view.
    With ``perfect_recall`` the seat's whole sequence of views is observed.
    """

    def __init__(self, game: KastkoppGame, iig_obs_type: Any) -> None:
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("kastkopp's views show one seat's knowledge, not all players'")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def _views(self, state: KastkoppState, player: int) -> list[str]:
        if self.public_only:
            # a spectator remembers nothing a seat does not; the current view suffices
            return [canonical(state.state.view(None))]
        if self.perfect_recall:
            return list(state.position.seen[player])
        return [canonical(state.state.view(player))]

    def set_from(self, state: KastkoppState, player: int) -> None:
        views = self._views(state, player)
        self.tensor.fill(0.0)
        history = self.perfect_recall and not self.public_only
        for step, text in enumerate(views):
            slots, values = self._sparse(text, step if history else None)
            np.add.at(self.tensor, slots, values)

    @functools.lru_cache(maxsize=1 << 16)  # noqa: B019 - one observer per game, kept alive
    def _sparse(self, text: str, step: int | None) -> tuple[np.ndarray, np.ndarray]:
        return self.encoder.sparse(json.loads(text), step)

    def string_from(self, state: KastkoppState, player: int) -> str:
        if self.perfect_recall and not self.public_only:
            # the seat's view now, and a digest of every view it had before
            position = state.position
            return f"{position.seen[player][-1]}\nbefore: {position.earlier[player] or '-'}"
        return self._views(state, player)[0]


def from_game(game: Game) -> KastkoppGame:
    """An OpenSpiel game for a kastkopp game object."""
    return KastkoppGame(game)


def _factory(name: str) -> type[KastkoppGame]:
    """A pyspiel game class for one kastkopp game, loadable by name with parameters."""

    def init(self: KastkoppGame, params: dict[str, Any] | None = None) -> None:
        try:
            game = game_from_params(name, dict(params or {}))
        except KastkoppError as exc:
            # pyspiel reports a game it cannot load with its own error, and its callers
            # (and OpenSpiel's own tools) catch that one
            raise pyspiel.SpielError(f"{spiel_name(name)}: {exc}") from exc
        KastkoppGame.__init__(self, game)

    cls = type(f"Kastkopp_{name}", (KastkoppGame,), {"__init__": init})
    cls.__module__ = __name__
    globals()[cls.__name__] = cls  # pickle finds classes by their module and name
    return cls


def game_from_params(name: str, params: dict[str, Any]) -> Game:
    """The kastkopp game that pyspiel parameters describe (:class:`RuleError` if none does;
    loaded through ``pyspiel.load_game`` that is a ``pyspiel.SpielError``)."""
    cls = registered()[name]
    players = int(params.get("players", cls.default_players))
    preset = str(params.get("preset", "")) or None
    return load(name, preset=preset, players=players,
                **parse_rules(str(params.get("rules", ""))))


def to_efg(game: Any, name: str = "", max_nodes: int = 5_000_000) -> str:
    """The whole tree of a (small) pyspiel game in Gambit's extensive form (EFG) text.

    Python games are slow for algorithms that walk the whole tree again and again; walked
    once and loaded back with ``pyspiel.load_efg_game``, the same tree is a C++ game that
    OpenSpiel's CFR, best responses and LP solvers run on at native speed::

        >>> kuhn = pyspiel.load_efg_game(to_efg(pyspiel.load_game("kuhn_poker")))
        >>> kuhn.num_players(), kuhn.max_chance_outcomes()
        (2, 3)

    Information sets are numbered by their information-state strings, so the EFG game has
    exactly the information structure of the original. Raises ``ValueError`` for a tree of
    more than ``max_nodes`` nodes.
    """
    players = game.num_players()
    infosets: list[dict[str, int]] = [{} for _ in range(players)]
    lines: list[str] = []
    counts = {"chance": 0, "terminal": 0, "nodes": 0}

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def walk(state: Any, depth: int) -> None:
        counts["nodes"] += 1
        if counts["nodes"] > max_nodes:
            raise ValueError(f"the game tree has more than {max_nodes} nodes")
        indent = "  " * depth
        if state.is_terminal():
            counts["terminal"] += 1
            payoffs = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f'{indent}t "" {counts["terminal"]} "" {{ {payoffs} }}')
            return
        if state.is_chance_node():
            counts["chance"] += 1
            outcomes = state.chance_outcomes()
            labels = " ".join(f"{quoted(state.action_to_string(a))} "
                              f"{Fraction(p).limit_denominator(1_000_000)}"
                              for a, p in outcomes)
            lines.append(f'{indent}c "" {counts["chance"]} "" {{ {labels} }} 0')
            for action, _ in outcomes:
                walk(state.child(action), depth + 1)
            return
        player = state.current_player()
        key = state.information_state_string(player)
        number = infosets[player].setdefault(key, len(infosets[player]) + 1)
        actions = state.legal_actions()
        labels = " ".join(quoted(state.action_to_string(a)) for a in actions)
        lines.append(f'{indent}p "" {player + 1} {number} "" {{ {labels} }} 0')
        for action in actions:
            walk(state.child(action), depth + 1)

    walk(game.new_initial_state(), 0)
    names = " ".join(quoted(f"Player {p + 1}") for p in range(players))
    title = quoted(name or str(game))
    return f"EFG 2 R {title} {{ {names} }}\n" + "\n".join(lines) + "\n"


_REGISTERED: set[str] = set()


def register_all() -> list[str]:
    """Register every kastkopp game with pyspiel (again safe); returns the short names."""
    for name, cls in sorted(registered().items()):
        if name not in _REGISTERED:
            pyspiel.register_game(_game_type(cls), _factory(name))
            _REGISTERED.add(name)
    return [spiel_name(name) for name in sorted(_REGISTERED)]


register_all()

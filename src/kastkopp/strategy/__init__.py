"""Bots, odds and solvers. Each game's strategy module registers its bots here.

A game's bots live in the module named after the game (``kastkopp.strategy.mia`` for
``mia``), imported the first time that game's bots are asked for.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import bot_names, make_bot
>>> "sensible" in bot_names("mia")
True
>>> bot = make_bot(load("mia", players=2), "random")
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Sequence
from typing import Any

from kastkopp.engine import Action, Game, Player, RuleError

BotFactory = Callable[[Game], Player]

_BOTS: dict[str, dict[str, BotFactory]] = {}
_BOT_HELP: dict[tuple[str, str], str] = {}



class RandomBot(Player):
    """Picks uniformly among the legal actions. Every game has it."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        return rng.choice(list(legal))


def register_bot(game: str, name: str, help: str) -> Callable[[BotFactory], BotFactory]:
    """Decorator for a factory ``(game) -> Player`` that plays ``game`` as ``name``."""

    def decorate(factory: BotFactory) -> BotFactory:
        _BOTS.setdefault(game, {})[name] = factory
        _BOT_HELP[(game, name)] = help
        return factory

    return decorate


def _load_bots(game: str) -> None:
    """Import the strategy module named after ``game``, if there is one."""
    _load_module(game)


def _load_module(name: str) -> None:
    """Import ``kastkopp.strategy.<name>``, if there is one."""
    module = f"{__name__}.{name}"
    if name.isidentifier() and importlib.util.find_spec(module) is not None:
        importlib.import_module(module)


def bot_names(game: str) -> list[str]:
    """The bots that play ``game``, ``random`` first."""
    _load_bots(game)
    return ["random", *sorted(_BOTS.get(game, {}))]


def bot_help(game: str, name: str) -> str:
    _load_bots(game)
    if name == "random":
        return "picks any legal action at random"
    return _BOT_HELP.get((game, name), "")


def make_bot(game: Game, name: str) -> Player:
    """A bot by name for ``game``; raises :class:`RuleError` for an unknown name."""
    _load_bots(game.name)
    if name == "random":
        return RandomBot()
    factories = _BOTS.get(game.name, {})
    if name not in factories:
        known = ", ".join(bot_names(game.name))
        raise RuleError(f"no bot '{name}' for {game.name} (bots: {known})")
    return factories[name](game)

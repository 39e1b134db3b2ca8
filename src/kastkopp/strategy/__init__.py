"""Bots, odds and solvers. Each game's strategy module registers its bots here.

A game names its strategy modules in its :class:`~kastkopp.engine.Parts`; they are imported
the first time that game's bots are asked for.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import bot_names, make_bot
>>> "sensible" in bot_names("mia")
True
>>> bot = make_bot(load("mia", players=2), "random")
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from kastkopp.engine import Action, Game, Player, RuleError
from kastkopp.games import load_part

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


def load_strategy(game: str) -> None:
    """Import the strategy modules ``game`` names, so its bots, advisor and odds register."""
    load_part(game, "strategy")


def bot_names(game: str) -> list[str]:
    """The bots that play ``game``, ``random`` first."""
    load_strategy(game)
    return ["random", *sorted(_BOTS.get(game, {}))]


def bot_help(game: str, name: str) -> str:
    load_strategy(game)
    if name == "random":
        return "picks any legal action at random"
    return _BOT_HELP.get((game, name), "")


def make_bot(game: Game, name: str) -> Player:
    """A bot by name for ``game``; raises :class:`RuleError` for an unknown name."""
    load_strategy(game.name)
    if name == "random":
        return RandomBot()
    factories = _BOTS.get(game.name, {})
    if name not in factories:
        known = ", ".join(bot_names(game.name))
        raise RuleError(f"no bot '{name}' for {game.name} (bots: {known})")
    return factories[name](game)

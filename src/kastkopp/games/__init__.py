"""The games, one module per family, and their registry: importing this package registers them.

A new game joins by adding its module here and decorating its class with
:func:`kastkopp.engine.register`; its pieces above the rules (bots, sheet, grader, about text)
are named by its :class:`~kastkopp.engine.Parts`. Nothing else names it, and the engine never
imports this package: it only keeps what registered.

>>> from kastkopp.games import load
>>> load("mia", preset="maexchen", players=4).rules.order
'classic'
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from kastkopp.engine import Game, RuleError, games_registered

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")


def registered() -> dict[str, type[Game]]:
    """Every game by name."""
    return games_registered()


def game_class(name: str) -> type[Game]:
    """The game registered as ``name``; raises :class:`RuleError` naming the games there are."""
    games = games_registered()
    if name not in games:
        raise RuleError("unknown game '{name}' (games: {known})", name=name,
                        known=", ".join(sorted(games)))
    return games[name]


def load(name: str, preset: str | None = None, players: int | None = None,
         **rules: Any) -> Game:
    """A game by name, with a preset, a player count and house rules changed.

    Rule values may be given as text (``lives="5"``) as the command line does.
    """
    cls = game_class(name)
    rules_obj = cls.rules_class.make(preset, **rules)
    count = cls.default_players if players is None else players
    return cls(rules=rules_obj, players=count, preset=preset)


def default_game(place: str) -> str:
    """The game offered first at ``place`` when none is named (the one whose parts name it in
    ``default_for``; else the first by name)."""
    games = games_registered()
    named = [name for name, cls in sorted(games.items()) if place in cls.parts.default_for]
    return (named or sorted(games))[0]


def load_part(name: str, part: str) -> bool:
    """Import the module of one of game ``name``'s parts (see :class:`~kastkopp.engine.Parts`),
    so its pieces are registered; False if the game has no such part or no such game."""
    cls = games_registered().get(name)
    return cls is not None and cls.parts.load(part)


__all__ = ["default_game", "game_class", "load", "load_part", "registered"]

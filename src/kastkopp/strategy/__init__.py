"""Bots, odds and solvers. Each game's strategy module registers its bots here.

A game names its strategy modules in its :class:`~kastkopp.engine.Parts`; they are imported
the first time that game's bots are asked for.

A bot is named ``NAME``, or ``NAME:KEY=VALUE`` with settings of the bot's own (whole
numbers, each ``:``-separated), e.g. ``ismcts:sims=2000``; the command line, the server and
the ladder read these names with :func:`parse_bot`. The grammar has no spaces, commas,
brackets or quotes, so a name passes unchanged through a shell, a URL and a list like
``--players Anna,bot:ismcts:sims=500``.

>>> from kastkopp.games import load
>>> from kastkopp.strategy import bot_names, make_bot
>>> "sensible" in bot_names("mia")
True
>>> bot = make_bot(load("mia", players=2), "random")
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kastkopp.engine import Action, Game, Player, RuleError
from kastkopp.locale import marked, spoken

# ``(game, **settings) -> Player``: a factory is called with the settings its name gives
BotFactory = Callable[..., Player]


@dataclass(frozen=True)
class BotSetting:
    """A setting of a bot (``bot:NAME:KEY=VALUE``): a whole number from ``low`` to
    ``high``; a server seats the bot with at most ``cap``, so no guest's budget stalls it.
    Unset, the factory is not given it and uses its own default. ``label`` says a value to
    players (``"{value} simulations a move"``, marked for the catalogs)."""

    key: str
    help: str
    low: int
    high: int
    cap: int
    label: str = ""


@dataclass(frozen=True)
class BotSpec:
    """A bot's name and the settings it was given, in the order the bot declares them."""

    name: str
    settings: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{key}={value}" for key, value in self.settings)])


_BOTS: dict[str, dict[str, BotFactory]] = {}
_BOT_HELP: dict[tuple[str, str], str] = {}
_BOT_SETTINGS: dict[tuple[str, str], tuple[BotSetting, ...]] = {}

# What players call a bot in a menu. A name plays the same way in every game that has it
# ("strong" reckons exact odds, "equilibrium" plays the solved game), so one word serves all.
BOT_LABELS = {
    "random": marked("Random"),
    "naive": marked("Naive"),
    "simple": marked("Simple"),
    "sensible": marked("Sensible"),
    "greedy": marked("Greedy"),
    "strong": marked("Strong"),
    "equilibrium": marked("Equilibrium"),
    "optimal": marked("Optimal (highest average score)"),
    "towin": marked("Plays to win"),
    "search": marked("Reads the bids (one move ahead)"),
    "ismcts": marked("Searching (IS-MCTS)"),
}


class RandomBot(Player):
    """Picks uniformly among the legal actions. Every game has it."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        return rng.choice(list(legal))


def register_bot(game: str, name: str, help: str,
                 settings: Sequence[BotSetting] = ()) -> Callable[[BotFactory], BotFactory]:
    """Decorator for a factory ``(game, **settings) -> Player`` that plays ``game`` as
    ``name``; ``settings`` are the ones its name may give (``ismcts:sims=500``)."""

    def decorate(factory: BotFactory) -> BotFactory:
        _BOTS.setdefault(game, {})[name] = factory
        _BOT_HELP[(game, name)] = help
        _BOT_SETTINGS[(game, name)] = tuple(settings)
        return factory

    return decorate


def load_strategy(game: str) -> None:
    """Import the strategy modules ``game`` names, so its bots, advisor and odds register."""
    from kastkopp.games import load_part  # not at import: the command line's help loads no game

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


def bot_offers(game: str) -> dict[str, str]:
    """The bots a server offers for ``game``, each with its help: every bot, and a bot with
    settings also at each setting's cap (``ismcts:sims=200``), the most a server allows."""
    offers = {}
    for name in bot_names(game):
        offers[name] = bot_help(game, name)
        for setting in bot_settings(game, name):
            offers[f"{name}:{setting.key}={setting.cap}"] = (
                f"bot:{name} with {setting.help}: {setting.cap}, the most a server allows")
    return offers


def bot_label(game: str, offer: str, lang: str | None = None) -> str:
    """What a menu shows for a bot name, in ``lang``: the bot's label and the value of each
    setting the name gives; ``bot:NAME`` for a bot without a label.

    >>> bot_label("mia", "random", "sv")
    'Slumpvis'
    """
    spec = parse_bot(game, offer)
    label = BOT_LABELS.get(spec.name)
    words = [spoken(lang, label) if label else f"bot:{spec.name}"]
    settings = {setting.key: setting for setting in bot_settings(game, spec.name)}
    for key, value in spec.settings:
        setting = settings[key]
        words.append(spoken(lang, setting.label, value=value) if setting.label
                     else f"{key}={value}")
    return ", ".join(words)


def bot_settings(game: str, name: str) -> tuple[BotSetting, ...]:
    """The settings bot ``name`` of ``game`` takes in its name (none for most bots)."""
    load_strategy(game)
    return _BOT_SETTINGS.get((game, name), ())


def parse_bot(game: str, text: str, *, capped: bool = False) -> BotSpec:
    """Read a bot's name, ``NAME`` or ``NAME:KEY=VALUE:...`` (``bot:`` in front or not).

    Raises :class:`RuleError` for an unknown bot or setting, a value that is not a whole
    number, out of range, or given twice; with ``capped`` (the server) also for a value
    above the setting's cap."""
    name, *given = text.strip().removeprefix("bot:").split(":")
    known = bot_names(game)
    if name not in known:
        raise RuleError("no bot '{name}' for {game} (bots: {bots})", name=name, game=game,
                        bots=", ".join(known))
    settings = {setting.key: setting for setting in bot_settings(game, name)}
    values: dict[str, int] = {}
    for item in given:
        key, equals, number = item.partition("=")
        if key not in settings:
            if not settings:
                raise RuleError("bot:{bot} takes no settings, not '{item}'", bot=name,
                                item=item)
            raise RuleError("bot:{bot} has no setting '{key}' (settings: {keys})", bot=name,
                            key=key, keys=", ".join(settings))
        if key in values:
            raise RuleError("bot:{bot}: {key} is given twice", bot=name, key=key)
        setting = settings[key]
        digits = equals and number.isascii() and number.isdigit() and len(number) <= 18
        if not digits or not setting.low <= int(number) <= setting.high:
            raise RuleError("bot:{bot}: {key} is a whole number from {low} to {high}, not "
                            "'{value}'", bot=name, key=key, low=setting.low,
                            high=setting.high, value=number)
        value = int(number)
        if capped and value > setting.cap:
            raise RuleError("on this server bot:{bot} plays with {key} up to {cap}, not "
                            "{value}", bot=name, key=key, cap=setting.cap, value=value)
        values[key] = value
    return BotSpec(name, tuple((key, values[key]) for key in settings if key in values))


def check_bot(game: str, text: str, *, capped: bool = False) -> str:
    """A bot's name as :func:`parse_bot` reads it, written the one way (``ismcts:sims=500``)."""
    return str(parse_bot(game, text, capped=capped))


def make_bot(game: Game, name: str) -> Player:
    """A bot by name (with its settings, ``ismcts:sims=500``) for ``game``; raises
    :class:`RuleError` for a name :func:`parse_bot` refuses."""
    spec = parse_bot(game.name, name)
    if spec.name == "random":
        return RandomBot()
    return _BOTS[game.name][spec.name](game, **dict(spec.settings))

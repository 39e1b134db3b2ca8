"""Who sits at a table: ``--players`` read into people and bots, shared by play, simulate and
the match formats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kastkopp.cli.support import parse_rules

if TYPE_CHECKING:
    from kastkopp.engine import Game


@dataclass(frozen=True)
class Seat:
    """One entry of ``--players``: a person's name, or ``bot`` / ``bot:NAME`` (with the
    bot's settings, ``bot:ismcts:sims=500``)."""

    label: str
    bot: str | None

    @classmethod
    def parse(cls, text: str, game_name: str) -> Seat:
        from kastkopp.engine import RuleError
        from kastkopp.strategy import check_bot

        text = text.strip()
        if not text:
            raise RuleError("a player's name cannot be empty")
        if text.lower() == "bot" or text.lower().startswith("bot:"):
            name = check_bot(game_name, text[4:] if ":" in text else default_bot(game_name))
            return cls(f"bot:{name}", name)
        return cls(text, None)


def default_bot(game_name: str) -> str:
    """The bot a bare ``bot`` means: the game's strongest (its only non-random one first)."""
    from kastkopp.strategy import bot_names

    names = bot_names(game_name)
    for preferred in ("optimal", "strong", "sensible", "greedy"):
        if preferred in names:
            return preferred
    return names[-1]


def parse_seats(spec: str, game_name: str) -> list[Seat]:
    from kastkopp.engine import RuleError

    seats = [Seat.parse(part, game_name) for part in spec.split(",")]
    people = [s.label.casefold() for s in seats if s.bot is None]
    twice = next((s.label for s in seats if s.bot is None
                  and people.count(s.label.casefold()) > 1), None)
    if twice is not None:
        raise RuleError("two players are called '{name}': give each person a name of "
                        "their own", name=twice)
    return seats


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """Display names, numbering repeated bots (``bot:random``, ``bot:random 2``)."""
    names: list[str] = []
    for seat in seats:
        name = seat.label
        count = sum(1 for n in names if n == name or n.startswith(name + " "))
        names.append(name if count == 0 else f"{name} {count + 1}")
    return names


def make_game(name: str, preset: str | None, rules: Sequence[str] | None, players: int) -> Game:
    from kastkopp.games import load

    return load(name, preset=preset, players=players, **parse_rules(rules))

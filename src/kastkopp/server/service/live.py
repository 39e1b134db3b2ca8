"""A table as the server holds it: seats, dice seeds, clock, the engine's table, watchers.

:class:`LiveTable` is what every part of the table service reads and changes (under its
lock); it also makes what clients are sent: the lobby's summary, each seat's frame and
the public log.
"""

from __future__ import annotations

import asyncio
import functools
import time
from dataclasses import dataclass, field
from typing import Any

from kastkopp.dice import CommitRevealDice, Contribution, is_client_seed, seed_commitment
from kastkopp.engine import Game, KastkoppError, NotFound, Player, RuleError, Table, seen_by
from kastkopp.games import load
from kastkopp.server.wire import dumps
from kastkopp.strategy import make_bot

CLOCKS = ("none", "live", "correspondence")
TIMEOUT_RULES = ("move", "lose")
KEEPALIVE = 7.0  # seconds between keep-alive lines on NDJSON streams


class TableError(KastkoppError):
    """A table operation that cannot be done now (full, started, not yours...)."""


class TableNotFound(TableError, NotFound):
    """No table (or series) by that id."""


@dataclass
class SeatInfo:
    account_id: int | None = None
    name: str | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        # a name without an account is a player from outside (a hosted table's seat)
        return self.account_id is None and self.bot is None and self.name is None

    def label(self, seat: int) -> str:
        if self.bot is not None:
            return f"bot:{self.bot}"
        return self.name or f"seat {seat + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "account": self.account_id}


@dataclass(eq=False)
class Watcher:
    """A WebSocket or NDJSON stream that receives one seat's frames (``None``: spectator)."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def send(self, text: str | None) -> None:
        self.queue.put_nowait(text)


@dataclass(eq=False)
class LiveTable:
    id: str
    game: Game
    owner_id: int | None
    seats: list[SeatInfo]
    status: str
    seed: bytes
    client_seed: str
    clock: str = "none"
    seconds_per_move: int | None = None
    on_timeout: str = "move"
    pace: float | None = None  # seconds before each bot's move (None: the server's)
    forfeit_seat: int | None = None
    outcome: dict[str, Any] | None = None
    table: Table | None = None
    last_move_at: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    bots: dict[int, Player] = field(default_factory=dict)
    bot_thought: float = 0.0  # processor seconds the last bot move took (for the pace)
    # who drives a hosted table (e.g. "Mäxchen"); None for the server's own tables
    source: str | None = None
    # The seed each seated person added to the dice after the commitment, by seat.
    seeds: dict[int, str] = field(default_factory=dict)
    # Frames as sent, per seat, for the position they were made in (see frame_text).
    _frames: dict[int | None, str] = field(default_factory=dict, repr=False)
    _frames_of: tuple[Any, ...] = field(default=(), repr=False)

    @property
    def seq(self) -> int:
        return 0 if self.table is None else len(self.table.events)

    @functools.cached_property
    def commitment(self) -> str:
        """The SHA-256 of the dice seed, public from the start."""
        return seed_commitment(self.seed)

    # -- the dice ------------------------------------------------------------------------
    # The server's seed is committed when the table is made; the client seed is made of
    # the seeds the seated people add afterwards (bots add none: the server plays them).
    # A hosted table's driver gives its client seed whole, and tables made before
    # contributions keep the one client seed they were made with.
    @property
    def shared_dice(self) -> bool:
        return self.source is None and not self.client_seed

    def contributions(self) -> list[Contribution]:
        return [Contribution(seat, self.seats[seat].label(seat), seed)
                for seat, seed in sorted(self.seeds.items())]

    def seeds_missing(self) -> list[int]:
        """The seats of people who have not yet added their seed (the game waits for them)."""
        if not self.shared_dice:
            return []
        return [i for i, s in enumerate(self.seats)
                if s.account_id is not None and i not in self.seeds]

    def dice(self) -> CommitRevealDice:
        if not self.shared_dice:
            return CommitRevealDice(server_seed=self.seed, client_seed=self.client_seed)
        return CommitRevealDice.shared(self.seed, self.contributions())

    def seat_of(self, account_id: int | None) -> int | None:
        if account_id is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.account_id == account_id:
                return index
        return None

    def to_move(self) -> int | None:
        if self.status != "playing" or self.table is None:
            return None
        return self.table.state.to_move()

    @property
    def deadline(self) -> float | None:
        if self.seconds_per_move is None:  # most tables: no clock, nothing to work out
            return None
        seat = self.to_move()
        if seat is None or self.seats[seat].bot:
            return None
        return self.last_move_at + self.seconds_per_move

    def bot(self, seat: int) -> Player:
        if seat not in self.bots:
            self.bots[seat] = make_bot(self.game, self.seats[seat].bot or "random")
        return self.bots[seat]

    @property
    def bots_only(self) -> bool:
        """Nobody but bots sits here (nobody waits for their moves either)."""
        return all(info.bot is not None for info in self.seats)

    # -- what clients see --------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it: public to everybody."""
        data: dict[str, Any] = {
            "id": self.id, "game": self.game.name, "title": self.game.title,
            "preset": self.game.preset, "players": self.game.players,
            "rules": self.game.rules.changed(), "status": self.status,
            "seats": [s.to_json() for s in self.seats], "seq": self.seq,
            "to_move": self.to_move(), "clock": self.clock,
            "seconds_per_move": self.seconds_per_move, "on_timeout": self.on_timeout,
            "deadline": self.deadline, "seed_sha256": self.commitment,
            "client_seed": self.client_seed, "invite": f"/play/{self.id}",
            "source": self.source, "pace": self.pace,
        }
        if self.shared_dice:
            data["contributions"] = [c.to_json() for c in self.contributions()]
            data["seeds_missing"] = self.seeds_missing()
        if self.status == "over":
            data["server_seed"] = self.seed.hex()
            data["outcome"] = self.outcome
            data["forfeit_seat"] = self.forfeit_seat
        return data

    def frame(self, seat: int | None) -> dict[str, Any]:
        """What one seat is sent after every change: its view and the public table facts."""
        frame: dict[str, Any] = {
            "type": "state", "table": self.id, "seq": self.seq, "status": self.status,
            "seat": seat, "seats": [s.label(i) for i, s in enumerate(self.seats)],
            "seed_sha256": self.commitment, "deadline": self.deadline,
            "to_move": None, "legal": [],
        }
        if self.source is not None:
            frame["source"] = self.source  # a hosted table: its moves come from outside
        if self.table is not None:
            state = self.table.state
            frame["to_move"] = state.to_move() if self.status == "playing" else None
            frame["view"] = state.view(seat)
            frame["legal"] = (state.legal_notations()
                              if seat is not None and frame["to_move"] == seat else [])
        if self.status == "over":
            frame["server_seed"] = self.seed.hex()
            frame["outcome"] = self.outcome
            frame["forfeit_seat"] = self.forfeit_seat
        return frame

    def frame_text(self, seat: int | None) -> str:
        """:meth:`frame` as JSON text, made once per position and seat however many
        watch it (spectators, a player on two devices, reconnects)."""
        key = (self.seq, self.status, self.deadline, self.forfeit_seat,
               tuple(s.label(i) for i, s in enumerate(self.seats)))
        if key != self._frames_of:
            self._frames, self._frames_of = {}, key
        text = self._frames.get(seat)
        if text is None:
            text = self._frames[seat] = dumps(self.frame(seat))
        return text

    def public_log(self) -> dict[str, Any]:
        """The log for anyone: complete with the seed once over; while playing, as a
        stranger sees it (:meth:`Table.events_seen_by`: no private faces, other seats'
        actions in their public notation)."""
        if self.table is None:
            raise TableError("the table has not started; there is no log yet")
        over = self.status == "over"
        data = self.table.to_json(reveal=over)
        data["table"] = self.id
        if self.forfeit_seat is not None:
            data["forfeit_seat"] = self.forfeit_seat
        if not over:
            data["events"] = seen_by(self.game, self.table.events, None)
        return data


def check_seed(seed: Any, required: bool = False) -> None:
    """Refuse a seed that is not 1 to 64 printable characters (or a missing one)."""
    if seed is None and not required:
        return
    if not is_client_seed(seed):
        raise TableError("a seed is 1 to 64 letters, digits or punctuation marks, without "
                         "spaces, not {seed}", seed=repr(seed)[:80])


def check_rules(game_name: str, preset: str | None, rules: dict[str, Any],
                players: int | None) -> Game:
    """Load a game for a table, turning every bad value into a :class:`RuleError`."""
    try:
        return load(game_name, preset=preset, players=players, **rules)
    except KastkoppError:
        raise
    except (TypeError, ValueError) as exc:
        raise RuleError("the rules cannot be read: {error}", error=str(exc)) from None

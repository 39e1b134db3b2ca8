"""The Mäxchen protocol: kastkopp's Mia as a bot-competition server, and a client for it.

Mäxchen servers (the public conradthukral/maexchen and its descendants, such as the widely
used signed/maexchen fork) let Mia bots play each other over UDP. One UTF-8 message per
datagram, fields separated by ``;``, dice written high die first (``6,5``).

======================  ==================================================================
client → server         ``REGISTER;name`` or ``REGISTER_SPECTATOR;name``; ``UNREGISTER``;
                        ``ECHO;text``
server → client         ``REGISTERED``, ``REJECTED;INVALID_NAME``, ``REJECTED;NAME_ALREADY_TAKEN``,
                        ``UNREGISTERED``, ``ECHOING;text``, ``HEARTBEAT`` (every 2 s)
each round              ``ROUND STARTING;token`` → ``JOIN;token``, then
                        ``ROUND STARTED;n;p1,p2,...`` or ``ROUND CANCELED;NO_PLAYERS``
a turn                  ``YOUR TURN;token`` → ``ROLL;token`` or ``SEE;token``
after a roll            ``PLAYER ROLLS;name``, to the roller ``ROLLED;d1,d2;token`` →
                        ``ANNOUNCE;d1,d2;token``, then ``ANNOUNCED;name;d1,d2``
after a see             ``PLAYER WANTS TO SEE;name``, ``ACTUAL DICE;d1,d2``
end of round            ``PLAYER LOST;name[,name...];REASON``, ``SCORE;name:points,...``
a lone player           ``ROUND STARTED;n;name``, ``ROUND CANCELED;ONLY_ONE_PLAYER``, ``SCORE``
======================  ==================================================================

The rules are the Mia module's ``maexchen`` preset, played one Mäxchen round per kastkopp
game (``rounds=1``): the server drives a :class:`~kastkopp.engine.Table`, so the order of
values, "strictly higher", Mia revealing at once and who loses a see all come from
:mod:`kastkopp.games.mia`. What the protocol adds is only what a network needs: a player who
does not answer in time (``answer_timeout``, 250 ms by default) or announces dice that are
not higher loses the round, with a reason:

``SEE_BEFORE_FIRST_ROLL, LIED_ABOUT_MIA, ANNOUNCED_LOSING_DICE, DID_NOT_ANNOUNCE,
DID_NOT_TAKE_TURN, INVALID_TURN, SEE_FAILED, CAUGHT_BLUFFING, MIA``.

Every player in a round scores +1, every loser −1 (the preset's points scoring).

Where bots can tell, the server does what the original does:

- A message that is not the answer asked for (another command, another token, an
  announcement that is no dice) is ignored, so a bot may still answer correctly in time;
  a player who does not loses with ``DID_NOT_TAKE_TURN`` or ``DID_NOT_ANNOUNCE``.
  (``INVALID_TURN`` is among the original's reasons but neither server ever gives it.)
- An announcement is read from the leading numbers of its first two comma-separated parts
  (:func:`read_announcement`): ``6,5,4`` is 6,5, ``5,6`` is 6,5.
- A round only one player joins is started, scores that player and is canceled; a canceled
  round is followed by ``SCORE`` when there are players.
- ``SEE`` before the first roll is broadcast as ``PLAYER WANTS TO SEE`` before the loss.
- From the signed fork: ``HEARTBEAT`` to every client every two seconds (``heartbeat``;
  ``None`` sends none), ``UNREGISTER`` answered with ``UNREGISTERED`` (no more rounds for
  that client; a question it was asked goes unanswered at once), ``ECHO;text`` answered with
  ``ECHOING;text`` (``ECHOING;42`` without text) to anyone.

Decisions of kastkopp's own, where bots do not notice or the original cannot be followed:

- A round starts as soon as every registered player has joined, else when the answer
  timeout has passed; players who did not join sit the round out (no points, no loss).
- Rounds are numbered by the rounds started (a lone player's too); a round nobody joined
  gets no number.
- With no players registered, spectators are told ``ROUND CANCELED;NO_PLAYERS``.
- ``SCORE`` lists every registered player; a spectator's name is taken like a player's.
- Announced numbers that are not faces of a die (``7,1``) are ignored like any malformed
  answer (the original takes them for dice and compares 7,1 as 71).
- Whitespace around a message (a bot's trailing newline) is ignored.

The client counts as played only the rounds it was in from ``ROUND STARTED`` to
``SCORE``: canceled rounds and a round under way when it came do not count.

Usage::

    server = MaexchenServer(answer_timeout=0.25)
    await server.start("0.0.0.0", 9000)
    await server.run()                       # rounds until server.close()

    client = MaexchenClient("kastkopp", strategy="sensible")
    await client.connect("127.0.0.1", 9000)
    await client.run(rounds=100)

Every round the server plays is kept as a kastkopp :class:`~kastkopp.engine.Table`
(:attr:`MaexchenServer.table` while it runs, :attr:`MaexchenServer.tables` after); a loss
outside the rules is a ``penalty`` event of its log with the reason. :meth:`MaexchenServer.watch`
calls back with each message broadcast, :meth:`MaexchenServer.watch_rounds` with each round
played and :meth:`MaexchenServer.watch_tables` with each change to a round's table, so a web
server can show the rounds as they are played (:mod:`kastkopp.interop.maexchen_web`).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kastkopp.dice import DiceSource, SecureDice
from kastkopp.engine import Action, Game, IllegalAction, KastkoppError, Player, State, Table
from kastkopp.games import load
from kastkopp.games.mia import Announce, Call, Roll, read

GAME = "mia"  # the game a Mäxchen server plays (Mia under its maexchen preset)
DEFAULT_PORT = 9000
DEFAULT_ANSWER_TIMEOUT = 0.25
DEFAULT_HEARTBEAT = 2.0  # seconds between HEARTBEATs, as the signed/maexchen fork sends them
MAX_NAME_LENGTH = 20

# Why a player lost a round.
SEE_BEFORE_FIRST_ROLL = "SEE_BEFORE_FIRST_ROLL"
LIED_ABOUT_MIA = "LIED_ABOUT_MIA"
ANNOUNCED_LOSING_DICE = "ANNOUNCED_LOSING_DICE"
DID_NOT_ANNOUNCE = "DID_NOT_ANNOUNCE"
DID_NOT_TAKE_TURN = "DID_NOT_TAKE_TURN"
INVALID_TURN = "INVALID_TURN"
SEE_FAILED = "SEE_FAILED"
CAUGHT_BLUFFING = "CAUGHT_BLUFFING"
MIA_REASON = "MIA"
REASONS = (SEE_BEFORE_FIRST_ROLL, LIED_ABOUT_MIA, ANNOUNCED_LOSING_DICE, DID_NOT_ANNOUNCE,
           DID_NOT_TAKE_TURN, INVALID_TURN, SEE_FAILED, CAUGHT_BLUFFING, MIA_REASON)

Address = tuple[str, int]
Answer = TypeVar("Answer")


def valid_name(name: str) -> bool:
    """1 to 20 characters, none of them ``,`` ``;`` ``:`` or whitespace."""
    return 0 < len(name) <= MAX_NAME_LENGTH and not any(
        c in ",;:" or c.isspace() for c in name)


def dice_text(value: int) -> str:
    """A Mia value as the protocol writes dice, high die first: 65 → ``6,5``."""
    return f"{value // 10},{value % 10}"


def read_dice(text: str) -> int:
    """The value of dice written ``6,5`` (either order); ``ValueError`` if unreadable."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip() in {"1", "2", "3", "4", "5", "6"} for p in parts):
        raise ValueError(f"'{text}' is not two dice written like 6,5")
    return read((int(parts[0]), int(parts[1])))


_LEADING_INTEGER = re.compile(r"\s*([+-]?[0-9]+)")


def _leading_integer(text: str) -> int | None:
    """The number ``text`` begins with, read as JavaScript's ``parseInt`` reads it."""
    found = _LEADING_INTEGER.match(text)
    return int(found.group(1)) if found else None


def read_announcement(text: str) -> int | None:
    """Announced dice as the original server reads them, or ``None`` if they are no dice.

    The original takes the number each of the first two comma-separated parts begins with:
    ``6,5,4`` is 6,5 and ``6x,5`` is 6,5; either order. Numbers that are not faces of a die
    (``7,1``, ``0,5``) are no dice here: such an answer is ignored like any malformed one.
    """
    parts = text.split(",")
    if len(parts) < 2:
        return None
    high, low = _leading_integer(parts[0]), _leading_integer(parts[1])
    if high is None or low is None or not (1 <= high <= 6 and 1 <= low <= 6):
        return None
    return read((high, low))


def mia_game(players: int) -> Game:
    """One Mäxchen round: the Mia module's ``maexchen`` preset, a single round."""
    return load(GAME, preset="maexchen", players=players, rounds=1)


# --------------------------------------------------------------------------- the server


@dataclass
class Registration:
    name: str
    address: Address
    spectator: bool = False


@dataclass
class RoundResult:
    """How one round on the server ended."""

    number: int
    players: list[str]
    losers: list[str]
    reason: str
    table: Table


@dataclass(frozen=True)
class TableEvent:
    """A change to the table of round ``number``: ``kind`` is ``start`` (seated, first dice
    rolled), ``action`` (``seat`` took ``text``, in the Mia notation), ``penalty`` (``seat``
    lost outside the rules; ``text`` is the protocol's reason) or ``end``."""

    number: int
    table: Table
    kind: str
    seat: int | None = None
    text: str = ""


@dataclass
class _Question:
    """A question the server waits on: ``read`` turns a message into its answer, or
    ``None`` for a message that is not one (ignored, as the original ignores it)."""

    read: Callable[[str, list[str]], Any]
    future: asyncio.Future[Any]


def _turn(token: str) -> Callable[[str, list[str]], str | None]:
    """``ROLL;token`` or ``SEE;token``: the command."""
    return lambda command, args: command if command in ("ROLL", "SEE") \
        and args[:1] == [token] else None


def _announcement(token: str) -> Callable[[str, list[str]], int | None]:
    """``ANNOUNCE;dice;token``: the value of the dice (see :func:`read_announcement`)."""
    return lambda command, args: read_announcement(args[0]) if command == "ANNOUNCE" \
        and len(args) >= 2 and args[1] == token else None


class _Closed(Exception):
    """The server was closed while it waited on a player's answer."""


class MaexchenServer(asyncio.DatagramProtocol):
    """A Mäxchen server playing the Mia module's ``maexchen`` preset, round after round."""

    def __init__(self, *, answer_timeout: float = DEFAULT_ANSWER_TIMEOUT,
                 dice: DiceSource | None = None, rng: random.Random | None = None,
                 round_pause: float = 0.0, idle_pause: float = 1.0,
                 keep_tables: int = 100,
                 round_dice: Callable[[], DiceSource] | None = None,
                 heartbeat: float | None = DEFAULT_HEARTBEAT) -> None:
        self.answer_timeout = answer_timeout
        self.dice = dice if dice is not None else SecureDice()
        # a fresh dice source for each round (e.g. commit-reveal, so rounds can be verified)
        self.round_dice = round_dice
        self.rng = rng if rng is not None else random.SystemRandom()
        self.round_pause = round_pause
        self.idle_pause = idle_pause
        self.heartbeat = heartbeat
        self.registrations: dict[str, Registration] = {}
        self.scores: dict[str, int] = {}
        self.rounds_started = 0
        self.table: Table | None = None
        self.tables: deque[RoundResult] = deque(maxlen=keep_tables)
        self.transport: asyncio.DatagramTransport | None = None
        self._questions: dict[str, _Question] = {}  # by the name of the player asked
        self._joining: tuple[str, set[str], asyncio.Event] | None = None
        self._watchers: list[Callable[[str], None]] = []
        self._round_watchers: list[Callable[[RoundResult], None]] = []
        self._table_watchers: list[Callable[[TableEvent], None]] = []
        self._closed = asyncio.Event()
        self._beating: asyncio.Task[None] | None = None

    # -- the network ---------------------------------------------------------------------
    async def start(self, host: str = "0.0.0.0", port: int = DEFAULT_PORT) -> Address:
        """Listen on ``host:port`` (port 0: any free port); returns the address bound."""
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_datagram_endpoint(lambda: self,
                                                           local_addr=(host, port))
        self.transport = transport
        if self.heartbeat:
            self._beating = loop.create_task(self._beat(self.heartbeat))
        address = transport.get_extra_info("sockname")
        return str(address[0]), int(address[1])

    def close(self) -> None:
        self._closed.set()
        if self._beating is not None:
            self._beating.cancel()
        if self.transport is not None:
            self.transport.close()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def send(self, address: Address, message: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.sendto(message.encode(), address)

    def broadcast(self, message: str) -> None:
        """To every registered player and spectator, and to everyone watching."""
        for registration in list(self.registrations.values()):
            self.send(registration.address, message)
        for watcher in list(self._watchers):
            watcher(message)

    def watch(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback`` with every broadcast message; returns a function to stop."""
        self._watchers.append(callback)
        return lambda: self._watchers.remove(callback)

    def watch_rounds(self, callback: Callable[[RoundResult], None]) -> Callable[[], None]:
        """Call ``callback`` with every round played; returns a function to stop."""
        self._round_watchers.append(callback)
        return lambda: self._round_watchers.remove(callback)

    def watch_tables(self, callback: Callable[[TableEvent], None]) -> Callable[[], None]:
        """Call ``callback`` with every change to a round's table; returns a function to stop.

        Each round's log can so be followed move by move (a web server shows the rounds).
        """
        self._table_watchers.append(callback)
        return lambda: self._table_watchers.remove(callback)

    def _tell(self, event: TableEvent) -> None:
        for watcher in list(self._table_watchers):
            watcher(event)

    async def _beat(self, interval: float) -> None:
        """``HEARTBEAT`` to every client now and then, so a bot can tell the server is up."""
        while not self.closed:
            await self._sleep(interval)
            for registration in list(self.registrations.values()):
                self.send(registration.address, "HEARTBEAT")

    def datagram_received(self, data: bytes, addr: tuple[Any, ...]) -> None:
        address: Address = (str(addr[0]), int(addr[1]))
        try:
            command, *args = data.decode("utf-8").strip().split(";")
        except UnicodeDecodeError:
            return
        if command == "ECHO":  # anyone may test the line, registered or not
            self.send(address, "ECHOING;" + ("".join(args) if args else "42"))
            return
        if command in ("REGISTER", "REGISTER_SPECTATOR"):
            self.register(args[0] if args else "", address,
                          spectator=command == "REGISTER_SPECTATOR")
            return
        sender = self._name_at(address)
        if sender is None:
            return
        if command == "UNREGISTER":
            self.unregister(sender)
            return
        if self._joining is not None and command == "JOIN" and args[:1] == [self._joining[0]]:
            if not self.registrations[sender].spectator:
                self._joining[1].add(sender)
                self._check_joined()
            return
        # anything else answers the question the sender was asked, or is ignored
        question = self._questions.get(sender)
        if question is not None and not question.future.done():
            answer = question.read(command, args)
            if answer is not None:
                question.future.set_result(answer)

    def _name_at(self, address: Address) -> str | None:
        for name, registration in self.registrations.items():
            if registration.address == address:
                return name
        return None

    # -- registering ---------------------------------------------------------------------
    def register(self, name: str, address: Address, spectator: bool = False) -> bool:
        """Register a player (or spectator); answers the client and returns whether it worked."""
        if not valid_name(name):
            self.send(address, "REJECTED;INVALID_NAME")
            return False
        existing = self.registrations.get(name)
        if existing is not None and existing.address[0] != address[0]:
            self.send(address, "REJECTED;NAME_ALREADY_TAKEN")
            return False
        # a known name from the same host (any port) registers anew at its new address
        self.registrations[name] = Registration(name, address, spectator)
        if not spectator:
            self.scores.setdefault(name, 0)
        self.send(address, "REGISTERED")
        return True

    def unregister(self, name: str) -> None:
        """A client leaves: no more messages, no more rounds (its score is kept should it
        register again). A question it was asked goes unanswered at once."""
        registration = self.registrations.pop(name, None)
        if registration is None:
            return
        question = self._questions.get(name)
        if question is not None and not question.future.done():
            question.future.set_result(None)
        if self._joining is not None:
            self._joining[1].discard(name)
            self._check_joined()
        self.send(registration.address, "UNREGISTERED")

    def _check_joined(self) -> None:
        """Start the round at once when every registered player has joined."""
        if self._joining is not None:
            _, joined, everyone = self._joining
            if joined >= set(self.players):
                everyone.set()

    @property
    def players(self) -> list[str]:
        return [name for name, r in self.registrations.items() if not r.spectator]

    # -- rounds --------------------------------------------------------------------------
    async def run(self, rounds: int | None = None) -> None:
        """Play rounds (``rounds`` played ones — canceled rounds do not count — or forever).

        Stops early when :meth:`close` is called.
        """
        played = 0
        while not self.closed and (rounds is None or played < rounds):
            result = await self.play_round()
            played += result is not None
            # after a canceled round: a pause, so a lone bot is not invited without end
            pause = self.round_pause if result is not None else self.idle_pause
            if pause:
                await self._sleep(pause)

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._closed.wait(), seconds)

    async def play_round(self) -> RoundResult | None:
        """One round: invite, play, score. ``None`` if it was canceled."""
        joined = await self._invite()
        if not joined:
            self._cancel("NO_PLAYERS")
            return None
        order = sorted(joined)
        self.rng.shuffle(order)
        self.rounds_started += 1
        number = self.rounds_started
        if len(order) == 1:
            # as the original: the round starts, the lone player scores, and it is canceled
            self.broadcast(f"ROUND STARTED;{number};{order[0]}")
            self.scores[order[0]] = self.scores.get(order[0], 0) + 1
            self._cancel("ONLY_ONE_PLAYER")
            return None
        dice = self.round_dice() if self.round_dice is not None else self.dice
        table = Table(mia_game(len(order)), seats=order, dice=dice)
        self.table = table
        self._tell(TableEvent(number, table, "start"))
        self.broadcast(f"ROUND STARTED;{number};{','.join(order)}")
        try:
            losers, reason = await self._play(number, table)
        except _Closed:
            # closed in the middle of the round: it ends unplayed and unscored, at once
            # rather than each question left waiting out its timeout (a web server's sweep
            # closes the table it showed, as for any server that stopped)
            self.table = None
            return None
        # kept before anybody hears that the round is over, so a player who stops at the
        # score finds every round it played among the server's tables
        result = RoundResult(number, order, losers, reason, table)
        self.tables.append(result)
        self.broadcast(f"PLAYER LOST;{','.join(losers)};{reason}")
        for name in order:
            self.scores[name] = self.scores.get(name, 0) + 1 - (name in losers)
        self._broadcast_score()
        self.table = None
        self._tell(TableEvent(number, table, "end"))
        for watcher in list(self._round_watchers):
            watcher(result)
        return result

    def _cancel(self, reason: str) -> None:
        self.broadcast(f"ROUND CANCELED;{reason}")
        if self.players:  # the original scores only when it has players to tell
            self._broadcast_score()

    def _broadcast_score(self) -> None:
        self.broadcast("SCORE;" + ",".join(f"{name}:{self.scores.get(name, 0)}"
                                           for name in self.players))

    async def _invite(self) -> list[str]:
        token = uuid.uuid4().hex
        joined: set[str] = set()
        everyone = asyncio.Event()
        self._joining = (token, joined, everyone)
        try:
            for name in self.players:
                self.send(self.registrations[name].address, f"ROUND STARTING;{token}")
            if self.players:
                await self._until(everyone, self.answer_timeout)
        finally:
            self._joining = None
        if self.closed:  # a round nobody began ends with the server, not after its wait
            return []
        return [name for name in joined if name in self.registrations]

    async def _until(self, event: asyncio.Event, seconds: float) -> None:
        """Wait for ``event`` at most ``seconds``, and not past :meth:`close`."""
        waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(self._closed.wait())]
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def _ask(self, name: str, message: str,
                   read: Callable[[str], Callable[[str, list[str]], Answer | None]]
                   ) -> Answer | None:
        """Send ``message;token`` to a player; the first message of theirs that ``read``
        takes for an answer, or ``None`` if none came in time (others are ignored).
        Raises :class:`_Closed` as soon as the server is closed."""
        registration = self.registrations.get(name)
        if registration is None:
            return None
        token = uuid.uuid4().hex
        question = _Question(read(token), asyncio.get_running_loop().create_future())
        self._questions[name] = question
        closing = asyncio.ensure_future(self._closed.wait())
        try:
            self.send(registration.address, f"{message};{token}")
            await asyncio.wait([question.future, closing], timeout=self.answer_timeout,
                               return_when=asyncio.FIRST_COMPLETED)
            if self.closed:
                raise _Closed
            answer: Answer | None = question.future.result() if question.future.done() \
                else None
            return answer
        finally:
            closing.cancel()
            question.future.cancel()  # unanswered in time: a late answer is ignored
            if self._questions.get(name) is question:
                del self._questions[name]

    async def _play(self, number: int, table: Table) -> tuple[list[str], str]:
        """Play a round's turns on the table; returns the losers and the reason."""
        while True:
            state = table.state
            seat = state.to_move()
            assert seat is not None
            name = table.seats[seat]
            first = state.view(seat)["claim"] is None
            turn = await self._ask(name, "YOUR TURN", _turn)
            if turn is None:
                return self._penalize(number, table, seat, DID_NOT_TAKE_TURN)
            if turn == "SEE":
                self.broadcast(f"PLAYER WANTS TO SEE;{name}")
                if first:
                    return self._penalize(number, table, seat, SEE_BEFORE_FIRST_ROLL)
                self._act(number, table, seat, Call())
                losers = self._ended(table)
                return losers, SEE_FAILED if losers == [name] else CAUGHT_BLUFFING
            if not first:
                # believing the claim: the table rolls the dice
                self._act(number, table, seat, Roll())
            self.broadcast(f"PLAYER ROLLS;{name}")
            rolled = int(table.state.view(seat)["your_dice"])
            announced = await self._ask(name, f"ROLLED;{dice_text(rolled)}", _announcement)
            if announced is None:
                return self._penalize(number, table, seat, DID_NOT_ANNOUNCE)
            self.broadcast(f"ANNOUNCED;{name};{dice_text(announced)}")
            try:
                self._act(number, table, seat, Announce(announced))
            except IllegalAction:
                return self._penalize(number, table, seat, ANNOUNCED_LOSING_DICE)
            if table.state.is_over():  # Mia announced: the cup was lifted at once
                losers = self._ended(table)
                return losers, LIED_ABOUT_MIA if losers == [name] else MIA_REASON

    def _act(self, number: int, table: Table, seat: int, action: Action) -> None:
        table.act(seat, action)
        self._tell(TableEvent(number, table, "action", seat, str(action)))

    def _penalize(self, number: int, table: Table, seat: int,
                 reason: str) -> tuple[list[str], str]:
        """The seat loses the round outside the rules; logged with the protocol's reason."""
        table.penalize(seat, reason)
        self._tell(TableEvent(number, table, "penalty", seat, reason))
        return [table.seats[seat]], reason

    def _ended(self, table: Table) -> list[str]:
        """Show the dice of a round the rules ended; the losers' names."""
        last = table.state.view(None)["last_round"]
        self.broadcast(f"ACTUAL DICE;{dice_text(int(last['dice']))}")
        return [table.seats[seat] for seat in last["losers"]]


async def serve(host: str = "0.0.0.0", port: int = DEFAULT_PORT, *,
                answer_timeout: float = DEFAULT_ANSWER_TIMEOUT,
                **options: Any) -> tuple[MaexchenServer, asyncio.Task[None]]:
    """Start a Mäxchen server playing rounds in the background of the running loop.

    This is what a web server starts alongside itself; stop it with ``server.close()``::

        server, task = await serve(port=9000)
    """
    server = MaexchenServer(answer_timeout=answer_timeout, **options)
    await server.start(host, port)
    return server, asyncio.create_task(server.run())


@contextlib.asynccontextmanager
async def running(host: str = "0.0.0.0", port: int = DEFAULT_PORT, *,
                  answer_timeout: float = DEFAULT_ANSWER_TIMEOUT,
                  **options: Any) -> AsyncIterator[MaexchenServer]:
    """A Mäxchen server for the length of a ``with`` block (e.g. a web app's lifespan)::

        async with running(port=9000) as server:
            ...                                  # rounds are played meanwhile
    """
    server, task = await serve(host, port, answer_timeout=answer_timeout, **options)
    try:
        yield server
    finally:
        server.close()
        await task


# --------------------------------------------------------------------------- the client


@dataclass
class MaexchenClient(asyncio.DatagramProtocol):
    """A kastkopp bot playing on a Mäxchen server.

    The client follows each round on its own kastkopp table (other players' dice are unknown
    to it and stay so: its view never depends on them), and asks the bot for a decision
    from that view whenever the server asks it. ``strategy`` names a bot of
    :mod:`kastkopp.strategy` for Mia.
    """

    name: str
    strategy: str = "sensible"
    seed: int | None = None
    spectator: bool = False
    log: Callable[[str], None] | None = None
    # rounds this client played from their start to their score (a spectator: watched): a
    # canceled round (alone, or nobody joined) and one begun before it came do not count
    rounds_played: int = 0
    scores: dict[str, int] = field(default_factory=dict)
    losses: list[tuple[list[str], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        from kastkopp.strategy import make_bot

        if not valid_name(self.name):
            raise KastkoppError("'{name}' is not a Mäxchen name: 1 to {most} characters "
                                "without , ; : or spaces", name=self.name,
                                most=MAX_NAME_LENGTH)
        self.bot: Player = make_bot(mia_game(2), self.strategy)
        self.rng = random.Random(self.seed)
        self.transport: asyncio.DatagramTransport | None = None
        self.state: State | None = None
        self.seat: int | None = None
        self._registered: asyncio.Future[str] | None = None
        self.order: list[str] = []
        self._playing = False  # in a round since its start
        self._played = False   # ... and that round is over: its score counts
        self._target: int | None = None
        self._finished = asyncio.Event()

    async def connect(self, host: str, port: int = DEFAULT_PORT, timeout: float = 2.0) -> None:
        """Register with the server; raises :class:`KastkoppError` if it refuses or is silent."""
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_datagram_endpoint(lambda: self,
                                                           remote_addr=(host, port))
        self.transport = transport
        self._registered = loop.create_future()
        kind = "REGISTER_SPECTATOR" if self.spectator else "REGISTER"
        self.send(f"{kind};{self.name}")
        try:
            answer = await asyncio.wait_for(self._registered, timeout)
        except TimeoutError:
            self.close()
            address = f"{host}:{port}"
            raise KastkoppError("no answer from a Mäxchen server at {address}",
                                address=address) from None
        if answer != "REGISTERED":
            self.close()
            reason = answer.partition(";")[2]
            if reason == "NAME_ALREADY_TAKEN":
                raise KastkoppError("the server refused the name '{name}': it is already taken",
                                    name=self.name)
            if reason == "INVALID_NAME":
                raise KastkoppError("the server refused the name '{name}' as invalid",
                                    name=self.name)
            raise KastkoppError("the server refused the name '{name}' ({reason})",
                                name=self.name, reason=reason or "-")

    async def run(self, rounds: int | None = None) -> None:
        """Play until ``rounds`` rounds have been played (:attr:`rounds_played`; watched,
        for a spectator), or until :meth:`close`."""
        self._target = rounds
        if rounds is not None and self.rounds_played >= rounds:
            return
        await self._finished.wait()

    def close(self) -> None:
        self._finished.set()
        if self.transport is not None:
            self.transport.close()

    def leave(self) -> None:
        """Unregister and close: servers that know ``UNREGISTER`` (the signed fork's, and
        kastkopp's) stop inviting this client; the original ignores it."""
        self.send("UNREGISTER")
        self.close()

    def send(self, message: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.sendto(message.encode())

    def connection_lost(self, exc: Exception | None) -> None:
        self._finished.set()

    # -- following the round -------------------------------------------------------------
    def datagram_received(self, data: bytes, addr: tuple[Any, ...]) -> None:
        try:
            message = data.decode("utf-8").strip()
        except UnicodeDecodeError:
            return
        if self.log is not None:
            self.log(message)
        fields = message.split(";")
        command, args = fields[0], fields[1:]
        if self._registered is not None and not self._registered.done() and \
                command in ("REGISTERED", "REJECTED"):
            self._registered.set_result(message)
            return
        handler = getattr(self, "_on_" + command.lower().replace(" ", "_"), None)
        if handler is not None:
            try:
                handler(*args)
            except (KastkoppError, ValueError, TypeError, IndexError):
                # a message this client cannot follow: stop following the round, the server
                # will still ask for whatever it needs and get a safe answer
                self.state = None

    def _on_round_starting(self, token: str) -> None:
        if not self.spectator:
            self.send(f"JOIN;{token}")

    def _on_round_started(self, number: str, names: str) -> None:
        order = names.split(",")
        self.state, self.seat = None, None
        # a spectator counts the rounds it watched from their start
        self._playing = len(order) > 1 and (self.spectator or self.name in order)
        self._played = False
        if self._playing and self.name in order:
            self.state = mia_game(len(order)).new_state()
            self.seat = order.index(self.name)
            self.order = order

    def _on_round_canceled(self, *reason: str) -> None:
        self.state, self._playing, self._played = None, False, False

    def _on_your_turn(self, token: str) -> None:
        state = self.state
        if state is None or state.chance() is not None or state.to_move() != self.seat:
            self.send(f"ROLL;{token}")  # the first turn of a round: the cup must be rolled
            return
        action = self.bot.choose(state.view(self.seat), state.legal_actions(), self.rng)
        self.send(f"{'SEE' if isinstance(action, Call) else 'ROLL'};{token}")

    def _on_player_rolls(self, name: str) -> None:
        if self.state is None:
            return
        if self.state.chance() is None:
            self.state = self.state.apply(Roll())
        if name != self.name:
            # somebody else's dice: unknown here, and the view does not depend on them
            self.state = self.state.resolve((3, 1))

    def _on_rolled(self, dice: str, token: str) -> None:
        value = read_dice(dice)
        announce = value
        if self.state is not None and self.state.chance() is not None:
            self.state = self.state.resolve((value // 10, value % 10))
            action = self.bot.choose(self.state.view(self.seat), self.state.legal_actions(),
                                     self.rng)
            if isinstance(action, Announce):
                announce = action.value
        self.send(f"ANNOUNCE;{dice_text(announce)};{token}")

    def _on_announced(self, name: str, dice: str) -> None:
        if self.state is not None:
            self.state = self.state.apply(Announce(read_dice(dice)))

    def _on_player_lost(self, names: str, reason: str) -> None:
        self.losses.append((names.split(","), reason))
        self.state = None
        self._played = self._playing

    def _on_score(self, *entries: str) -> None:
        for entry in ",".join(entries).split(","):
            name, _, points = entry.rpartition(":")
            if name:
                self.scores[name] = int(points)
        if not self._played:
            return
        self._playing = self._played = False
        self.rounds_played += 1
        if self._target is not None and self.rounds_played >= self._target:
            self._finished.set()


def parse_server(text: str) -> tuple[str, int]:
    """Read ``HOST:PORT`` (or just ``HOST``, port 9000)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise KastkoppError("'{text}' is not HOST:PORT (e.g. localhost:9000)", text=text)
    return host or "127.0.0.1", int(port)


__all__ = ["REASONS", "MaexchenClient", "MaexchenServer", "RoundResult", "TableEvent",
           "dice_text", "parse_server", "read_announcement", "read_dice", "running", "serve",
           "valid_name"]

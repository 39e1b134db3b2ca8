"""A program playing one seat over the WebSocket, which resumes exactly after a lost socket.

::

    player = Player("ws://127.0.0.1:8080", table_id, token,
                    choose=lambda frame: random.choice(frame["legal"]))
    played = asyncio.run(player.play())   # until the game is over (or player.stop())

Behind a proxy the socket may reach any server process, and a process may stop (SIGTERM:
close code 1012) or die (the connection breaks). Either way the player connects again at
once, through the same URL (after a failed attempt, a random wait of up to 50 ms that
doubles with each failure up to a second), and carries on from the frame it is sent then:

- a move sent but not acknowledged is sent again, the same action for the same ``seq``,
  once, on the new socket: if the new frame is still that position, it had not been
  committed and is made now; if the frame is later, it was committed (by a process that
  died before answering) or the table moved on without it, and the answer says which:
  the server acknowledges an action that is already the log's at that ``seq`` as made,
  with the answer the first sending would have had, and refuses anything else there as
  stale. No move is made twice either way;
- a frame older than one already seen (a process that has not yet caught up with the
  log) is not acted on: the newer one follows.

Every acknowledged move is recorded with the ``seq`` it was made at, so a caller can check
each of them against the log.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SERVICE_RESTART = 1012
BACKOFF_FIRST = 0.05  # seconds: the most the first retry waits
BACKOFF_MOST = 1.0  # seconds: the most any retry waits
# seconds between pings, and to wait for the answer: a socket whose far end went without
# closing it (a host that died, a cable) is given up after twice this at most
PING_EVERY = 10.0


@dataclass
class Played:
    """What a player saw: acknowledged moves, refusals, and how long each return took."""

    acked: list[tuple[int, str]] = field(default_factory=list)  # (seq, action)
    refused: list[dict[str, Any]] = field(default_factory=list)
    ack_seconds: list[float] = field(default_factory=list)  # from send to ack
    # (when the socket was lost, seconds until a frame came on a new one)
    returns: list[tuple[float, float]] = field(default_factory=list)
    last: dict[str, Any] | None = None


@dataclass
class Player:
    url: str  # ws://host:port of the site (its proxy)
    table: str
    token: str
    choose: Callable[[dict[str, Any]], str]
    think: float = 0.0  # seconds to wait before each move
    played: Played = field(default_factory=Played)
    _stopped: asyncio.Event = field(default_factory=asyncio.Event)
    _random: random.Random = field(default_factory=random.Random)
    _next_id: int = 0

    def stop(self) -> None:
        self._stopped.set()

    async def play(self) -> Played:
        """Play until the game is over or :meth:`stop`; reconnect whenever the socket goes."""
        import websockets
        from websockets.exceptions import ConnectionClosed

        address = f"{self.url}/api/tables/{self.table}/ws"
        headers = {"Authorization": f"Bearer {self.token}"}
        sent: dict[int, dict[str, Any]] = {}  # moves sent and not yet answered, by id
        seen = -1  # the latest position seen
        lost_at: float | None = None
        tries = 0  # failed connections since a frame last came
        while not self._stopped.is_set():
            again = lost_at is not None  # unanswered moves may be sent again, once
            try:
                async with websockets.connect(address, additional_headers=headers,
                                              open_timeout=5, max_size=2**20,
                                              ping_interval=PING_EVERY,
                                              ping_timeout=PING_EVERY) as socket:
                    while not self._stopped.is_set():
                        frame = json.loads(await self._receive(socket))
                        tries = 0
                        kind = frame.get("type")
                        move = sent.pop(frame.get("id"), None) if kind != "state" else None
                        if kind == "ack" and move is not None:
                            self.played.acked.append((move["seq"], move["action"]))
                            self.played.ack_seconds.append(time.monotonic() - move["at"])
                        elif kind == "error" and move is not None:
                            self.played.refused.append(frame)
                        elif kind == "state" and frame["seq"] >= seen:
                            if lost_at is not None:
                                self.played.returns.append((lost_at,
                                                            time.monotonic() - lost_at))
                                lost_at = None
                            seen = frame["seq"]
                            self.played.last = frame
                            if frame["status"] == "over":
                                return self.played
                            await self._act(socket, frame, sent, again)
                            again = False
            except ConnectionClosed as exc:
                lost_at = lost_at or time.monotonic()
                if exc.rcvd is None or exc.rcvd.code != SERVICE_RESTART:
                    await asyncio.sleep(self._backoff(tries))  # broken: a moment first
                    tries += 1
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                lost_at = lost_at or time.monotonic()
                await asyncio.sleep(self._backoff(tries))
                tries += 1
        return self.played

    def _backoff(self, tries: int) -> float:
        """Seconds before connecting again after ``tries`` failures in a row: small at
        first (behind the proxy another process is usually there at once), doubling up to
        :data:`BACKOFF_MOST`, each a random part of that so a crowd does not come back in
        step."""
        return self._random.uniform(0, min(BACKOFF_MOST, BACKOFF_FIRST * 2 ** tries))

    async def _receive(self, socket: Any) -> str:
        stop = asyncio.ensure_future(self._stopped.wait())
        receive = asyncio.ensure_future(socket.recv())
        done, _ = await asyncio.wait({stop, receive}, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        if receive not in done:
            receive.cancel()
            return json.dumps({"type": "stopped"})
        return str(receive.result())

    async def _act(self, socket: Any, frame: dict[str, Any], sent: dict[int, dict[str, Any]],
                   again: bool) -> None:
        """Answer a new position: the moves in flight again (on a new socket), wait for
        their answer (on the same one), or a new move."""
        waiting = [m for m in sent.values() if m["seq"] == frame["seq"]]
        if again:  # what the lost socket never answered is answered here, or never
            asked = [m for m in sent.values() if m["seq"] < frame["seq"] or frame["legal"]]
            sent.clear()
            sent.update((m["id"], m) for m in asked)
            for move in asked:  # made already, or not: the answer says
                await socket.send(_wire(move))
            if waiting and frame["legal"]:
                return
        if waiting or not frame["legal"]:
            return
        if self.think:
            await asyncio.sleep(self.think)
        self._next_id += 1
        move = {"action": self.choose(frame), "seq": frame["seq"], "id": self._next_id,
                "at": time.monotonic()}
        sent[move["id"]] = move
        await socket.send(_wire(move))


def _wire(move: dict[str, Any]) -> str:
    return json.dumps({"action": move["action"], "seq": move["seq"], "id": move["id"]})

"""Play sockets shared out again when a server process joins the others.

nginx's ``least_conn`` gives a process that has just started (a restart, one more process)
the new sockets only: the players already connected stay where they are. A process that
was killed comes back with no socket, the one left holds every player, and its next kill
cuts all of them off at once, for the process just started to take together. So:

- each process tells the others over Redis, once a second, how many play sockets it holds
  (``{"sockets": n}`` on the tables' channel); the first time 0.2 s after it starts;
- a process that hears of one it did not know (one that has just started) tells it the
  tables its sockets are at (``{"shown": [ids], "first": n, "to": origin}``), which the
  new one reads in the background: first the ``n`` tables of the players it is about to be
  sent, then those of the players that would come to it if this process died. It says
  when it has read the first (``{"read": n, "to": origin}``);
- and if it holds more than its share (the sockets of all the processes heard from
  lately, shared out evenly), it closes the surplus once the new one has read their
  tables (or after ``READ_WAIT``, said or not), a few at a time over a second, with
  close code 1012 ("service restart": come back now). The table page and
  :class:`kastkopp.server.client.Player` reconnect at once, through the proxy, which
  sends them to the process with the fewest sockets: the new one. Then a kill cuts off
  only that process's share.

A socket is closed as a graceful stop closes it: a frame that comes after the socket was
chosen is dropped unread (its client sends it again on its new socket, for the same
``seq``: nothing was done with it), and a move already read is committed and answered
before the close goes out, after the answer, on the same queue.

>>> surplus(200, [0])      # one process holds all 200; the other has just started
100
>>> surplus(101, [99])     # even enough: a reconnect costs more than one socket's place
0
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kastkopp.server.service.live import Watcher

log = logging.getLogger("kastkopp.server")

HELLO_AFTER = 0.2  # seconds after start-up before the first count: the port is open by then
EVERY = 1.0  # seconds between a process's counts
FORGOTTEN_AFTER = 3.0  # seconds without a count after which a process is taken to be gone
SPREAD = 1.0  # seconds over which a surplus is closed
STEPS = 10  # ... in this many equal parts
SLACK = 2  # sockets over its share a process keeps: not worth their players' reconnects
# seconds a surplus waits at most for the new process to have read its players' tables:
# sent before, they wait there for those reads (a log replayed each), which grow with the
# games
READ_WAIT = 3.0


def surplus(mine: int, others: list[int], slack: int = SLACK) -> int:
    """How many of its ``mine`` sockets a process closes, the others holding ``others``:
    those above an even share, if more than ``slack``."""
    share = math.ceil((mine + sum(others)) / (1 + len(others)))
    over = mine - share
    return over if over > slack else 0


@dataclass(eq=False)
class PlaySocket:
    """One open play socket, as :func:`kastkopp.server.routes.play.play` serves it."""

    watcher: Watcher
    table: str = ""  # the table's id
    leaving: bool = False  # chosen to go: frames from now on are dropped unread
    in_hand: bool = False  # a frame read and not yet answered

    def leave(self) -> None:
        """Close the socket with 1012 once what was read is answered (see the module)."""
        if self.leaving:
            return
        self.leaving = True
        if not self.in_hand:  # else the reader queues the close after its answer
            self.watcher.send(None)


class Balance:
    """This process's play sockets, and the counts the others announce.

    ``publish`` announces to the other processes (:meth:`RedisBridge.publish`); without
    it (one process) the sockets are only counted. What it hears from them is given to
    :meth:`hear`::

        balance = Balance(bridge.publish)
        bridge.on_sockets = balance.hear
        hub.spawn(balance.run())
    """

    def __init__(self, publish: Callable[[dict[str, Any]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, spread: float = SPREAD,
                 read_wait: float = READ_WAIT) -> None:
        self.publish = publish
        self.clock = clock
        self.spread = spread  # seconds over which a surplus is closed
        self.read_wait = read_wait
        # a process told the tables here: set once it says it has read them
        self._read: dict[str, asyncio.Event] = {}
        self.sockets: set[PlaySocket] = set()
        self.heard: dict[str, tuple[int, float]] = {}  # process: (its sockets, when heard)
        self.stopped = False  # a stop has begun: its sockets are all going anyway
        self.closed = 0  # sockets closed to share them out, so far
        self._task: asyncio.Task[None] | None = None

    def others(self) -> list[int]:
        """The sockets each other process heard from lately holds."""
        self._forget()
        return [count for count, _ in self.heard.values()]

    def _forget(self) -> None:
        now = self.clock()
        for origin, (_, at) in list(self.heard.items()):
            if now - at > FORGOTTEN_AFTER:
                del self.heard[origin]  # killed or stopped

    def hear(self, origin: str, sockets: int) -> None:
        """Another process's count; one not known (it has just started) is given its
        share."""
        self._forget()
        known = origin in self.heard
        self.heard[origin] = (sockets, self.clock())
        if known or self.stopped:
            return
        staying = [s for s in self.sockets if not s.leaving]
        excess = 0 if self._task is not None else surplus(len(staying), self.others())
        chosen = random.sample(staying, excess)
        if self.publish is not None:  # the tables of the players it is sent first
            first = list(dict.fromkeys(s.table for s in chosen))
            rest = sorted({s.table for s in self.sockets}.difference(first))
            self.publish({"shown": first + rest, "first": len(first), "to": origin})
        if chosen:
            log.info("a process joined: closing %d of %d play sockets over %.1f s, for "
                     "their players to reconnect there", excess, len(staying), self.spread)
            read = None if self.publish is None else self._read.setdefault(
                origin, asyncio.Event())
            self._task = asyncio.get_running_loop().create_task(
                self._share_out(chosen, origin, read))
            self._task.add_done_callback(self._done)

    def read(self, origin: str) -> None:
        """Process ``origin`` has read the tables of the players about to be sent to it."""
        ready = self._read.pop(origin, None)
        if ready is not None:
            ready.set()

    def _done(self, task: asyncio.Task[None]) -> None:
        self._task = None
        if not task.cancelled() and task.exception() is not None:
            log.error("could not share the sockets out", exc_info=task.exception())

    async def _share_out(self, chosen: list[PlaySocket], origin: str,
                         read: asyncio.Event | None) -> None:
        if read is not None:
            try:
                await asyncio.wait_for(read.wait(), self.read_wait)
            except TimeoutError:
                pass  # it said nothing (an older version, or Redis lost it): they go anyway
            finally:
                self._read.pop(origin, None)
        step = math.ceil(len(chosen) / STEPS)
        for start in range(0, len(chosen), step):
            if self.stopped:
                return
            for socket in chosen[start:start + step]:
                if socket in self.sockets:  # not gone by itself meanwhile
                    socket.leave()
                    self.closed += 1
            await asyncio.sleep(self.spread / STEPS)

    async def run(self) -> None:
        """Tell the others this process's count, until a stop begins."""
        if self.publish is None:
            return
        await asyncio.sleep(HELLO_AFTER)
        while not self.stopped:
            self.publish({"sockets": sum(not s.leaving for s in self.sockets)})
            await asyncio.sleep(EVERY)

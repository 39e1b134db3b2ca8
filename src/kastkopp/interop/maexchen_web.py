"""Mäxchen rounds as watch-only tables of the web server.

Attached to a :class:`~kastkopp.interop.maexchen.MaexchenServer` and the web server's
hosted tables (:class:`~kastkopp.server.hosted.Hosted`, part of the hub), every round the
Mäxchen server plays becomes a hosted table (game ``mia``, preset ``maexchen``, one
round): listed in the lobby while it is played, streamed to spectators over the table's
WebSocket and NDJSON stream like any table, and stored, so that its replay and
``kastkopp verify`` work once it is over.

How the two stay the same game:

- The Mäxchen server rolls each round with commit–reveal dice whose seed the bridge makes
  (:meth:`MaexchenTables.round_dice`); the hosted table gets the same seed, so the hub's
  engine, rolling for itself, gets the dice the Mäxchen server rolled.
- Every move of the round (announcements and sees, in the Mia notation) is sent to the
  hub as it happens, which checks it against the rules and stores it before it is shown.
- A loss outside the rules (no answer in time, an answer the server refused) is a
  ``penalty`` event of the log carrying the protocol's reason (``DID_NOT_TAKE_TURN``).

The Mäxchen server never waits for the web server: each round's changes are queued and
forwarded in order by a task of the round's own, so a slow database delays the tables, not
the bots' rounds::

    async with running("0.0.0.0", 9000) as server, MaexchenTables(hub, server) as tables:
        ...                                  # tables.table_id(round_number) while shown
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from types import TracebackType

from kastkopp.dice import CommitRevealDice
from kastkopp.engine import KastkoppError
from kastkopp.interop.maexchen import MaexchenServer, TableEvent
from kastkopp.server.hosted import Hosted

log = logging.getLogger("kastkopp.maexchen")

SOURCE = "Mäxchen"
KEEP_IDS = 1000  # round numbers remembered with their table ids
# A round is at most 21 announcements, each answered within the answer timeout: a table
# without a move for this long (or this many timeouts) was left by a stopped server.
STALE_AFTER = 60.0
STALE_TIMEOUTS = 100


class MaexchenTables:
    """Shows the rounds of a Mäxchen server as hosted tables of a hub."""

    def __init__(self, hub: Hosted, server: MaexchenServer) -> None:
        self.hub = hub
        self.server = server
        self.ids: OrderedDict[int, str] = OrderedDict()
        # each round's changes in order, forwarded by a task of its own: rounds are
        # independent, so a round still being stored never holds up the next one
        self._rounds: dict[int, asyncio.Queue[TableEvent]] = {}
        self._forwarding: set[asyncio.Task[None]] = set()
        self._stop: list[Callable[[], None]] = []
        self._sweeping: asyncio.Task[None] | None = None
        self.stale_after = max(STALE_AFTER, STALE_TIMEOUTS * server.answer_timeout)

    @staticmethod
    def round_dice() -> CommitRevealDice:
        """Fresh commit–reveal dice for one round."""
        return CommitRevealDice(server_seed=secrets.token_bytes(32),
                                client_seed=f"maexchen-{secrets.token_hex(6)}")

    def table_id(self, number: int) -> str | None:
        """The hosted table of Mäxchen round ``number`` (while remembered)."""
        return self.ids.get(number)

    # -- attaching -----------------------------------------------------------------------
    async def __aenter__(self) -> MaexchenTables:
        self.server.round_dice = self.round_dice
        self._stop = [self.server.watch_tables(self._receive)]
        self._sweeping = asyncio.get_running_loop().create_task(self._sweep())
        return self

    async def __aexit__(self, kind: type[BaseException] | None,
                        error: BaseException | None, trace: TracebackType | None) -> None:
        for stop in self._stop:
            stop()
        self._stop = []
        self.server.round_dice = None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), 5)
        for task in [*self._forwarding, *filter(None, [self._sweeping])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def idle(self) -> None:
        """Wait until every change so far has reached the hub."""
        for queue in list(self._rounds.values()):
            await queue.join()

    async def close_stale(self, idle: float | None = None) -> list[str]:
        """Close the Mäxchen tables left playing by a stopped server (no move for ``idle``
        seconds, :attr:`stale_after` by default): such rounds will never end."""
        return await self.hub.end_hosted(SOURCE, self.stale_after if idle is None else idle)

    async def _sweep(self) -> None:
        while True:
            try:
                await self.close_stale()
            except Exception as exc:  # the database away for a while: try again next time
                log.warning("stale Mäxchen tables could not be closed: %s", exc)
            await asyncio.sleep(self.stale_after)

    # -- forwarding ----------------------------------------------------------------------
    def _receive(self, event: TableEvent) -> None:
        queue = self._rounds.get(event.number)
        if queue is None:
            if event.kind != "start":
                return  # a round begun before this bridge, or one that could not be shown
            queue = self._rounds[event.number] = asyncio.Queue()
            task = asyncio.get_running_loop().create_task(
                self._forward_round(event.number, queue))
            self._forwarding.add(task)
            task.add_done_callback(self._forwarding.discard)
        queue.put_nowait(event)

    async def _forward_round(self, number: int, queue: asyncio.Queue[TableEvent]) -> None:
        try:
            while True:
                event = await queue.get()
                try:
                    await self._forward(event)
                except (KastkoppError, OSError) as exc:
                    log.warning("Mäxchen round %s could not be shown: %s", number, exc)
                    return
                except Exception:
                    log.exception("Mäxchen round %s could not be shown", number)
                    return
                finally:
                    queue.task_done()
                if event.kind == "end":
                    return
        finally:
            del self._rounds[number]
            while not queue.empty():  # what is left of a round that cannot be shown
                queue.get_nowait()
                queue.task_done()

    async def _forward(self, event: TableEvent) -> None:
        if event.kind == "start":
            dice = event.table.dice
            if not isinstance(dice, CommitRevealDice):
                raise KastkoppError("the round's dice cannot be verified, so it is not shown")
            live = await self.hub.host(event.table.game, list(event.table.seats), SOURCE,
                                       dice)
            self.ids[event.number] = live.id
            while len(self.ids) > KEEP_IDS:
                self.ids.popitem(last=False)
            return
        table_id = self.ids[event.number]
        if event.kind == "action" and event.seat is not None:
            await self.hub.hosted_act(table_id, event.seat, event.text)
        elif event.kind == "penalty" and event.seat is not None:
            await self.hub.hosted_penalty(table_id, event.seat, event.text)
        elif event.kind == "end":
            live = await self.hub.get(table_id)
            if live.table is None or live.table.events != event.table.events:
                log.warning("Mäxchen round %s: the shown table %s differs from the round",
                            event.number, table_id)


__all__ = ["SOURCE", "MaexchenTables"]

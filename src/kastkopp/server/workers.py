"""Slow work (solves for bots and hints) in worker processes, off the event loop.

A solve of a Yatzy rule set takes seconds of processor time and a liar's-dice round up to
one; run where the server answers its sockets, every table of the process would wait for
it. So it runs in a pool of worker processes, at a lower priority than the server, and:

- the same work (one rule set, one round) asked for twice at once is done once: both
  callers wait for the same future;
- at most ``queue`` works are waiting or running; one more is refused with :class:`Busy`
  (a hint answers 503, a bot plays its cheap choice meanwhile) and nothing waits;
- the standard presets' tables are solved into the disk cache in the background at start
  (:meth:`Workers.warm_up`), one at a time, so a fresh server starts at once.

A work's result is kept by the server's process in a thread (``Work.keep``: a solved table
loaded from the disk cache), never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from kastkopp.engine import KastkoppError, Message
from kastkopp.server import children
from kastkopp.strategy.work import Work

log = logging.getLogger("kastkopp.server")

WORKER_NICENESS = 19  # below the server: its sockets first, solves with what is left


class Busy(KastkoppError):
    """Too much slow work is waiting already; ask again later."""

    code = "busy"
    retry_after = 30  # seconds


BUSY = Message("the server is busy solving; ask again in a minute")


class Workers:
    """A pool of ``processes`` worker processes with at most ``queue`` works pending."""

    def __init__(self, processes: int = 1, queue: int = 8) -> None:
        self.processes = max(1, processes)
        self.queue = max(1, queue)
        self.pending: dict[Hashable, asyncio.Task[None]] = {}
        self.started = 0  # works handed to the pool (each key once while it is pending)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = children.pool(self.processes, WORKER_NICENESS)
        return self._pool

    def submit(self, work: Work) -> asyncio.Task[None]:
        """The task doing ``work``: the one already pending for its key, else a new one.

        Raises :class:`Busy` when ``queue`` works are pending (and then nothing starts)."""
        task = self.pending.get(work.key)
        if task is not None:
            return task
        if len(self.pending) >= self.queue:
            raise Busy(BUSY)
        task = asyncio.get_running_loop().create_task(self._run(work))
        self.pending[work.key] = task
        self.started += 1

        def done(finished: asyncio.Task[None]) -> None:
            if self.pending.get(work.key) is finished:
                del self.pending[work.key]
            if not finished.cancelled() and finished.exception() is not None:
                log.warning("work %r failed: %s", work.key, finished.exception())

        task.add_done_callback(done)
        return task

    async def run(self, work: Work) -> None:
        """Do ``work`` (or wait for the same work already pending); raises :class:`Busy`.

        A caller that stops waiting does not stop the work: others may wait for it too."""
        await asyncio.shield(self.submit(work))

    async def _run(self, work: Work) -> None:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(self._executor(), work.run, *work.args)
        except BrokenProcessPool:
            self._pool = None  # a worker died (killed, out of memory): a new pool next time
            raise
        await asyncio.to_thread(work.keep, result)

    async def warm_up(self, works: Iterable[Work]) -> None:
        """Do ``works`` one after the other, each waiting while the queue is full."""
        for work in works:
            while True:
                try:
                    await self.run(work)
                    break
                except Busy:
                    await asyncio.sleep(5)
                except Exception:
                    break  # logged by submit; the next one may still be done

    def close(self) -> None:
        """Stop the workers now, in the middle of a solve if need be."""
        for task in self.pending.values():
            task.cancel()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in list(pool._processes.values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

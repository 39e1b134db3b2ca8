"""Lookups asked for at the same moment, answered by one database call for all of them.

When a server process dies, its players all come back at once to the ones left: a
hundred tables to load and two hundred tokens to check within a second. One query per
table and per token would each cost a pooled connection, a transaction and a round trip;
:class:`Batched` gathers the keys asked for while a call is under way and answers them
all with the next call, so a crowd costs a few queries and a lone player no more than
before (it waits for nothing: a call starts as soon as nothing is under way).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Batched(Generic[K, V]):
    """``await batched.get(key)``: ``lookup(keys)`` run in a thread for every key waiting.

    ``lookup`` returns what it found by key; a key it leaves out is answered ``None``, and
    an exception found for one key is raised to its callers only. An error of the whole
    call is raised to every caller whose key was in it.
    """

    def __init__(self, lookup: Callable[[list[K]], Mapping[K, V | Exception]],
                 most: int = 500) -> None:
        self.lookup = lookup
        self.most = most  # keys in one call at most (a query's IN list stays bounded)
        self.calls = 0  # calls made so far (what the batching saved shows against this)
        self._waiting: dict[K, asyncio.Future[V | None]] = {}
        self._runner: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V | None:
        future = self._waiting.get(key)
        if future is None:
            future = self._waiting[key] = asyncio.get_running_loop().create_future()
            if self._runner is None:
                self._runner = asyncio.get_running_loop().create_task(self._run())
        # shielded: one caller that gives up must not cancel the answer for the others
        return await asyncio.shield(future)

    async def _run(self) -> None:
        try:
            while self._waiting:
                await asyncio.sleep(0)  # the others asking at this moment join in
                keys = list(self._waiting)[:self.most]
                batch = {key: self._waiting.pop(key) for key in keys}
                self.calls += 1
                try:
                    found = await asyncio.to_thread(self.lookup, keys)
                except Exception as exc:  # every caller hears of it
                    _answer(batch.items(), None, exc)
                else:
                    _answer(batch.items(), found, None)
        finally:
            self._runner = None


def _answer(batch: Iterable[tuple[K, asyncio.Future[V | None]]],
            found: Mapping[K, V | Exception] | None, error: Exception | None) -> None:
    for key, future in batch:
        if future.done():
            continue
        value = error if error is not None else (found or {}).get(key)
        if isinstance(value, Exception):
            future.set_exception(value)
            future.exception()  # retrieved here: callers that gave up leave no warning
        else:
            future.set_result(value)

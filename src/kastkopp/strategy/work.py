"""Slow work a bot or an advisor needs before it answers at once, and the bounded caches
that keep its results.

A bot whose choice needs a solved table (a Yatzy rule set, a liar's-dice round) says so
with ``work(view)``: a :class:`Work` that a server runs in a worker process (``run(*args)``
there, so it must be a module-level function of picklable arguments), then keeps in its
own process (``keep(result)``). Until the work is done such a bot can still play at once
by its ``cheap(view, legal, rng)`` choice. Played by the library (the CLI, simulations) a
bot simply does the work itself when it first chooses.

Solved tables are kept in a :class:`LRU` of a bounded number, and on disk in a directory
pruned to a bounded size (:func:`prune`), least recently used first.

>>> cache = LRU(2)
>>> cache.put("a", 1); cache.put("b", 2); _ = cache.get("a"); cache.put("c", 3)
>>> sorted(cache.keys())
['a', 'c']
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from kastkopp.engine import Action, Player

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class Work:
    """One piece of slow work: ``run(*args)`` in a worker, ``keep(result)`` here.

    Works with the same ``key`` are the same work (one solve of one rule set). A ``fresh``
    one has never been done here (a house rule set nobody has solved, nothing on disk): the
    server limits how many of those one guest asks for."""

    key: Hashable
    run: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    keep: Callable[[Any], None] = field(compare=False)
    fresh: bool = field(default=False, compare=False)


def work_for(player: Player, view: dict[str, Any]) -> Work | None:
    """The work ``player`` needs before it chooses at ``view`` at once (``None``: none)."""
    method = getattr(player, "work", None)
    return None if method is None else method(view)


def cheap_choice(player: Player, view: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random) -> Action:
    """The choice ``player`` makes without its slow work (its own choice if it has none)."""
    method = getattr(player, "cheap", None)
    if method is None:
        return player.choose(view, legal, rng)
    return method(view, legal, rng)


_WARM_UPS: list[Callable[[], list[Work]]] = []


def register_warm_up(source: Callable[[], list[Work]]) -> Callable[[], list[Work]]:
    """Decorator for a function giving the work a server does at start (the standard
    presets' solved tables), so they are ready before anybody needs them."""
    _WARM_UPS.append(source)
    return source


def warm_up_works() -> list[Work]:
    """Every game's start-up work (each game's strategy module is imported first)."""
    _import_strategies()
    return [work for source in _WARM_UPS for work in source()]


_KERNELS: list[Callable[[], None]] = []


def register_kernels(load: Callable[[], None]) -> Callable[[], None]:
    """Decorator for a function that loads the compiled code a bot's choice runs in a
    server's own process (numba's, from its disk cache), by running it once on nothing.

    The first call of a compiled function in a process loads it, holding the interpreter's
    lock for a third of a second: done when the first bot chooses, it stalls every table
    of the server; done at start (:func:`load_kernels`), nobody is playing yet."""
    _KERNELS.append(load)
    return load


@functools.cache
def load_kernels() -> None:
    """Load every game's compiled code now (see :func:`register_kernels`), once a process."""
    _import_strategies()
    for load in _KERNELS:
        load()


def _import_strategies() -> None:
    from kastkopp.games import load_part, registered

    for name in registered():
        load_part(name, "strategy")


class LRU(Generic[K, V]):
    """A mapping of at most ``size`` entries; the least recently used goes first.

    Safe to share between threads (a server keeps a solved table from a thread)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an LRU cache keeps at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._entries:
                return None
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    __setitem__ = put

    def kept(self, key: K, make: Callable[[K], V]) -> V:
        """The entry of ``key``; when there is none, ``make(key)``, kept. (Two threads
        missing at once may both make it; the last one made is kept.)"""
        found = self.get(key)
        if found is None:
            found = make(key)
            self.put(key, found)
        return found

    def __getitem__(self, key: K) -> V:
        with self._lock:
            if key not in self._entries:
                raise KeyError(key)
            self._entries.move_to_end(key)
            return self._entries[key]

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[K]:
        return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def env_int(name: str, default: int) -> int:
    """A positive whole number from the environment (the default if unset or not one)."""
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def partial(path: Path, suffix: str) -> Path:
    """Where a cache file is written before it is renamed into place: a name of this
    process's own, so two processes filling the same cache at once never write into one
    file (each rename is whole; the last one stays)."""
    return path.with_suffix(f".{os.getpid()}.tmp{suffix}")


def touch(path: Path) -> None:
    """Mark a cached file as just used (its modification time orders :func:`prune`)."""
    with contextlib.suppress(OSError):  # a read-only cache is still a cache
        os.utime(path)


def prune(directory: Path, pattern: str, max_bytes: int, keep: Iterable[Path] = ()) -> None:
    """Delete the least recently used files matching ``pattern`` until those left take at
    most ``max_bytes``; the files in ``keep`` stay whatever their age."""
    kept = {Path(p).name for p in keep}
    files = []
    for path in directory.glob(pattern):
        try:
            stat = path.stat()
        except OSError:
            continue  # removed meanwhile by another process
        files.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= max_bytes:
            return
        if path.name in kept:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        total -= size

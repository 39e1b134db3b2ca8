"""Views as strings and fixed-size tensors, the same way for every game.

A view (``state.view(seat)``) is JSON: nested dicts, lists, strings, numbers, booleans and
``None``. Learning tools want two things from it:

- a **string** that is equal exactly when the views are equal: :func:`canonical` (JSON with
  sorted keys), used as an observation string and, joined over a seat's history, as an
  information-state string;
- a **tensor** of a size fixed per game: :class:`ViewEncoder` flattens the view into
  *features* — one per leaf, named by its path (``claim=54``, ``history.0.action=roll``,
  ``lives.1`` with the number as value) — and hashes each feature name into one of ``size``
  slots (the "hashing trick"). No game has to describe its views; a new game gets tensors
  the day it is registered. Collisions are rare at the default size and only ever merge
  two features, they never leak anything that is not in the view::

    >>> encoder = ViewEncoder(size=64)
    >>> a = encoder.encode({"claim": "54", "lives": [3, 2]})
    >>> b = encoder.encode({"claim": "54", "lives": [3, 2]})
    >>> a.shape, bool((a == b).all())
    ((64,), True)
    >>> sorted(features({"claim": "54", "lives": [3, 2]}))[:2]
    [('claim=54', 1.0), ('lives.0', 3.0)]

Numbers are kept as they are (a learner may rescale them); a whole number also sets a
one-hot feature (``lives.0=3``), since most numbers in views are seats, counts or faces.

The encoder reads no key by name: it takes any game's view (the TypedDict each game declares
beside its state is a ``Mapping[str, Any]``) and walks whatever is there.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

DEFAULT_SIZE = 512


def canonical(view: Mapping[str, Any]) -> str:
    """The view as compact JSON with sorted keys: equal strings exactly for equal views."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def features(view: Any, prefix: str = "") -> Iterator[tuple[str, float]]:
    """Every leaf of a view as ``(feature name, value)``."""
    if isinstance(view, dict):
        for key in sorted(view):
            yield from features(view[key], f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(view, list | tuple):
        for index, item in enumerate(view):
            yield from features(item, f"{prefix}.{index}" if prefix else str(index))
    elif isinstance(view, bool) or view is None:
        yield f"{prefix}={json.dumps(view)}", 1.0
    elif isinstance(view, int):
        yield prefix, float(view)
        yield f"{prefix}={view}", 1.0
    elif isinstance(view, float):
        yield prefix, view
    else:
        yield f"{prefix}={view}", 1.0


def _slot(name: str, size: int) -> int:
    # crc32 rather than hash(): the same slot in every process and on every machine
    return zlib.crc32(name.encode()) % size


class ViewEncoder:
    """Hash a view's features into a float32 vector of ``size`` slots."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 8:
            raise ValueError(f"an encoding needs at least 8 slots, not {size}")
        self.size = size
        self._slots: dict[str, int] = {}

    def slot(self, name: str) -> int:
        slot = self._slots.get(name)
        if slot is None:
            slot = self._slots[name] = _slot(name, self.size)
        return slot

    def encode(self, view: Mapping[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The tensor of one view (written into ``out`` when given)."""
        return self.encode_features(features(view), out)

    def encode_history(self, views: Iterable[Mapping[str, Any]],
                       out: np.ndarray | None = None) -> np.ndarray:
        """The tensor of a sequence of views, each feature tagged with its step."""
        tagged = ((f"{step}/{name}", value) for step, view in enumerate(views)
                  for name, value in features(view))
        return self.encode_features(tagged, out)

    def sparse(self, view: Mapping[str, Any],
               step: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The slots and values of one view (tagged with ``step`` if given), for adding up.

        ``encode_history(views)`` is the sum over ``sparse(view, step)``; callers that see
        the same views again (a game tree shares every prefix) cache these.
        """
        tag = "" if step is None else f"{step}/"
        items = [(self.slot(tag + name), value) for name, value in features(view)]
        return (np.fromiter((i for i, _ in items), np.intp, len(items)),
                np.fromiter((v for _, v in items), np.float32, len(items)))

    def encode_features(self, items: Iterable[tuple[str, float]],
                        out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        for name, value in items:
            out[self.slot(name)] += value
        return out

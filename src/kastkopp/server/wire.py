"""The text of the frames the server sends: JSON written once per frame with orjson.

Frames are encoded on the hot path (every move sends one to each watcher), so the fast
encoder is used there; its output is the same JSON a browser or bot reads with any parser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """Compact JSON text (UTF-8 characters kept as they are)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """Parse a frame; raises ``ValueError`` (``orjson.JSONDecodeError``) on bad JSON."""
    return orjson.loads(text)


class FrameBudget:
    """How many refused frames one socket may send: ``rate`` a second on average, ``burst``
    at once (a token bucket). Moves that are played cost nothing, so a fast bot plays on;
    a socket that keeps sending what is refused (junk, stale or repeated actions) finds
    its frames refused unread until the budget fills again."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()

    def _fill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def allows(self) -> bool:
        """Whether the next frame is read at all."""
        self._fill()
        return self.tokens >= 1

    def spend(self) -> None:
        """A frame was refused."""
        self._fill()
        self.tokens = max(0.0, self.tokens - 1)

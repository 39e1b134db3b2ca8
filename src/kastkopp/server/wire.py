"""The text of the frames the server sends: JSON written once per frame with orjson.

Frames are encoded on the hot path (every move sends one to each watcher), so the fast
encoder is used there; its output is the same JSON a browser or bot reads with any parser.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """Compact JSON text (UTF-8 characters kept as they are)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """Parse a frame; raises ``ValueError`` (``orjson.JSONDecodeError``) on bad JSON."""
    return orjson.loads(text)

"""The gettext catalogs: ``messages`` for the pages, ``errors`` for the engine's errors and
the terminal's texts."""

from __future__ import annotations

from typing import Any


def spoken(lang: str | None, template: str, **params: Any) -> str:
    """A game's text for the terminal in ``lang`` (English when none is given).

    Games word their boards with it (``spoken(view.get("lang"), "Round {round}", round=2)``);
    ``scripts/error-catalogs.sh`` extracts the templates (keyword ``spoken:2``) into the
    ``errors`` catalogs, where the engine's messages are.
    """
    from kastkopp.engine import Message

    message = Message(template, params)
    if not lang or lang == "en":
        return str(message)
    from kastkopp.locale.messages import translate

    return translate(message, lang)

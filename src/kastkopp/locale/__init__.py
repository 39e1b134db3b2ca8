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


def marked(text: str) -> str:
    """A text the terminal shows translated (a game's title, a rule's help), left as it is.

    ``scripts/error-catalogs.sh`` extracts it (keyword ``marked``) so that the terminal can
    look it up in the ``errors`` catalogs when it prints it; the data stays English.
    """
    return text


def signed(number: float) -> str:
    """``+3``, ``−3``, ``+1.5``: a balance with the true minus sign the sheets write."""
    text = f"{number:+d}" if isinstance(number, int) else f"{number:+g}"
    return text.replace("-", "−")


def minus(number: float | str) -> str:
    """``3``, ``−3``: a number of points, money or dice (or its text) with the true minus sign."""
    return str(number).replace("-", "−")

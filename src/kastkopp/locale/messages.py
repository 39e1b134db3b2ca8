"""Engine errors in the player's language.

Every :class:`~kastkopp.engine.KastkoppError` carries a :class:`~kastkopp.engine.Message`:
an English template and its parameters. This module shows it in Swedish, Danish or English
from the ``errors`` catalogs next to this file (``scripts/error-catalogs.sh`` re-extracts
them), and gives programs the template and parameters to translate themselves::

    >>> from kastkopp.engine import IllegalAction
    >>> error = IllegalAction("a die shows 1 to 6, not {face}", face=9)
    >>> translate(error, "sv")
    'en tärning visar 1 till 6, inte 9'
    >>> translate(error, "da"), translate(error, "en")
    ('en terning viser 1 til 6, ikke 9', 'a die shows 1 to 6, not 9')
    >>> error_json(error)["template"], error_json(error)["params"]
    ('a die shows 1 to 6, not {face}', {'face': 9})

A message missing from a catalog is shown in English; so is an unknown language.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations

from kastkopp.engine import KastkoppError, Message

LOCALES = Path(__file__).parent
LANGUAGES = ("sv", "da", "en")
DOMAIN = "errors"


@cache
def catalog(lang: str) -> NullTranslations:
    """The error catalog of a language (English, the templates themselves, for any other)."""
    if lang not in LANGUAGES or lang == "en":
        return NullTranslations()
    return Translations.load(str(LOCALES), [lang], domain=DOMAIN)


def translate(error: KastkoppError | Message, lang: str = "en") -> str:
    """The error's text in ``lang``, its word parameters translated with it."""
    message = error.message if isinstance(error, KastkoppError) else error
    if lang not in LANGUAGES or lang == "en":
        return message.render()
    try:
        return message.render(catalog(lang), lang)
    except (KeyError, IndexError, ValueError):
        # a translation whose fields do not fit its template: better English than nothing
        return message.render()


def error_json(error: KastkoppError) -> dict[str, Any]:
    """English text plus the template and parameters, for programs that translate."""
    return {"error": str(error), **error.message.to_json()}

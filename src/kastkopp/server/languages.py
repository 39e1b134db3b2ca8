"""Which of the site's languages a request reads: the one chosen (``?lang=`` or the
cookie the language menu sets), else the first the browser's ``Accept-Language`` names.

>>> negotiate("da-DK,da;q=0.9,en;q=0.8")
'da'
>>> negotiate("fr-FR")
'en'
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations
from starlette.requests import HTTPConnection

LANGUAGES = {"sv": "Svenska", "da": "Dansk", "en": "English"}
LANG_COOKIE = "kastkopp_lang"


def negotiate(accept: str) -> str:
    """The first of our languages an ``Accept-Language`` header names (else English)."""
    ranked = []
    for index, part in enumerate(accept.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, index, tag.strip().lower()[:2]))
    for _, _, lang in sorted(ranked):
        if lang in LANGUAGES:
            return lang
        if lang == "nb" or lang == "no":  # Norwegian readers get Danish, the closest text
            return "da"
    return "en"


def language(request: HTTPConnection) -> str:
    """The language of the page or answer ``request`` asks for."""
    chosen = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(request.headers.get("accept-language", ""))


LOCALES = Path(__file__).parent.parent / "locale"


@cache
def translations(lang: str) -> NullTranslations:
    """The page's words (the ``messages`` catalog) in ``lang``."""
    return Translations.load(str(LOCALES), [lang], domain="messages")


def gettext(lang: str, message: str) -> str:
    """One of the page's words in ``lang``."""
    return str(translations(lang).gettext(message))

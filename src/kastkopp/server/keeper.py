"""What the score keeper's page (``/keep``) is told: each sheet kind with its presets and
house rules, the words it shows, and the derived grid in the player's language.

Every text comes from the catalogs: the kinds' titles, entry help, rule help and presets
from the ``errors`` catalogs where the games mark them, the page's own words and the rule
choices (``choice:top-down``) from ``messages``. The page builds its house-rule controls
from :func:`kinds_info`; the server checks what they send (:func:`kastkopp.sheets.Sheet.new`)
and refuses a bad value in the page's language.
"""

from __future__ import annotations

import re
from typing import Any

from kastkopp.engine import Rules
from kastkopp.locale import spoken
from kastkopp.locale.messages import catalog
from kastkopp.server.languages import gettext
from kastkopp.sheets import Sheet, SheetKind, kinds


def N_(message: str) -> str:
    """Marks a text for the ``messages`` catalogs (``pybabel extract -F babel.cfg -k N_``)."""
    return message


# The keeper's own words, shown by keeper.js.
WORDS = [N_("House rules"), N_("Preset"), N_("the game's own rules"), N_("Rules: {rules}"),
         N_("Sums and places are worked out when the network returns"), N_("on"), N_("off"),
         N_("What happened")]

# Every choice a sheet's house rule offers, as a player reads it (tests check none is missing).
CHOICES = [N_("choice:no"), N_("choice:ask"), N_("choice:yes"), N_("choice:common"),
           N_("choice:single"), N_("choice:counts"), N_("choice:hands"), N_("choice:on"),
           N_("choice:three_plus"), N_("choice:off"), N_("choice:die"), N_("choice:life"),
           N_("choice:one"), N_("choice:difference"), N_("choice:slosch"),
           N_("choice:classic"), N_("choice:lives"), N_("choice:points"), N_("choice:poker"),
           N_("choice:ordinary"), N_("choice:yatzy"), N_("choice:yahtzee"),
           N_("choice:terningspoker"), N_("choice:free"), N_("choice:parts"),
           N_("choice:top-down"), N_("choice:sum"), N_("choice:three"), N_("choice:matching"),
           N_("choice:all"), N_("choice:zero"), N_("choice:dash"), N_("choice:total"),
           N_("choice:average"), N_("choice:en"), N_("choice:sv"), N_("choice:da")]


# The server's refusals the page repeats word for word when it checks offline, and the
# grid's words (as :func:`told` words them) for a stand-in's grid.
REFUSALS = ("entry {number} ({entry}): {reason}", "Round", "Game", "Pot", "dice", "lives",
            "points", "wins", "balance", "total", "won", "lost")


def page_word(lang: str, text: str) -> str:
    return gettext(lang, text)


def choice(lang: str, value: Any) -> str:
    """A rule's choice as the page shows it (``top-down`` → ``uppifrån och ned``)."""
    key = f"choice:{value}"
    shown = page_word(lang, key)
    return str(value) if shown == key else shown


def said(lang: str, text: str) -> str:
    return spoken(lang, text) if text else text


def preset_help(kind: SheetKind, preset: str, lang: str) -> str:
    """A preset in words: its help, or else the rules it sets."""
    rules = kind.rules_class()
    helped = rules.PRESET_HELP.get(preset, "")
    if helped:
        return said(lang, helped)
    specs = {s.name: s for s in rules.specs()}
    return "; ".join(f"{said(lang, specs[name].help)}: {value}"
                     for name, value in rules.PRESETS[preset].items())


def rule_info(rules: type[Rules], lang: str) -> list[dict[str, Any]]:
    return [{**s.to_json(), "help": rule_help(lang, s.help, s.choices or ()),
             "choices": None if s.choices is None else
             [{"value": c, "text": choice(lang, c)} for c in s.choices]}
            for s in rules.specs()]


def rule_help(lang: str, help: str, choices: tuple[Any, ...]) -> str:
    """A rule's help in ``lang``, its choices named as the page's control names them (the
    catalogs keep the keys a terminal types: ``free: any open row``)."""
    text = said(lang, help)
    if lang == "en":
        return text
    for value in choices:
        if isinstance(value, str) and (shown := choice(lang, value)) != value:
            text = re.sub(rf"(?<![\w-]){re.escape(value)}(?![\w-])", shown, text)
    return text


def capital(title: str) -> str:
    """A title as a list shows it: ``liar's dice`` → ``Liar's dice``."""
    return title[:1].upper() + title[1:]


def kinds_info(lang: str) -> list[dict[str, Any]]:
    """Each sheet kind for the page: title, entry help, presets and house rules, worded."""
    found = []
    for kind in kinds().values():
        rules = kind.rules_class()
        found.append({
            "game": kind.game, "title": capital(said(lang, kind.title)),
            "help": said(lang, kind.entry_help),
            "presets": {p: preset_help(kind, p, lang) for p in rules.PRESETS},
            "preset_rules": rules.PRESETS,
            "rules": rule_info(rules, lang),
            "offline": kind.offline(rules()) is not None,
            "stand_in": stand_in(kind),
            "players": [kind.min_players, kind.max_players]})
    return found


def stand_in(kind: SheetKind) -> str:
    """Where the browser imports the kind's offline stand-in from ("" if it has none)."""
    return f"/static/{kind.stand_in}" if kind.stand_in else ""


def stand_ins() -> list[str]:
    """Every kind's stand-in, for the offline worker to keep."""
    return [path for path in map(stand_in, kinds().values()) if path]


def words(lang: str) -> dict[str, str]:
    """The keeper's words, the rule choices, and the refusals the page's offline checks
    repeat (each kind's ``offline_texts``), in ``lang``."""
    texts = {text: page_word(lang, text) for text in WORDS}
    texts.update({f"choice:{value}": choice(lang, value) for value in
                  (c.removeprefix("choice:") for c in CHOICES)})
    errors = catalog(lang)
    texts.update({t: str(errors.gettext(t)) for t in REFUSALS})
    for kind in kinds().values():
        texts.update({t: str(errors.gettext(t)) for t in kind.offline_texts})
    return texts


def told(sheet: Sheet, data: dict[str, Any], lang: str) -> dict[str, Any]:
    """A derived sheet (:meth:`Sheet.to_json`) with its grid's words in ``lang``: the
    headers, the units, the row labels and the word cells (``won``)."""
    if lang == "en":
        return data
    header, *rows = data["table"]
    unit = said(lang, data["count"])
    names = {f"{name} {data['count']}": f"{name} {unit}" for name in sheet.names}
    players = set(sheet.names)
    labels = sheet.kind.row_labels(sheet, lang)

    def word(cell: str | None) -> str | None:
        return said(lang, cell) if cell and cell.isalpha() and cell not in players else cell

    head = [names.get(c or "", c if c in players else word(c)) for c in header]
    body = [[labels.get(first or "", word(first)), *map(word, rest)] for first, *rest in rows]
    return {**data, "table": [head, *body]}

"""Score sheets for games played with real dice: enter what happened, the rest is derived.

>>> from kastkopp.sheets import Sheet
>>> sheet = Sheet.new("liars_dice", ["Anna", "Ben"]).add("Ben").add("0 1")
>>> [(s.name, s.count) for s in sheet.derive().standings]
[('Anna', 5), ('Ben', 3)]

One kind of sheet per game family: :mod:`~kastkopp.sheets.liars` (liar's dice),
:mod:`~kastkopp.sheets.slosch` (Slosch), :mod:`~kastkopp.sheets.yatzy` (the Yatzy family) and
:mod:`~kastkopp.sheets.pots` (Knack and Linka) and :mod:`~kastkopp.sheets.poker_dice` (Liar Dice
matches and chouettes). :mod:`~kastkopp.sheets.history` keeps the
changes for undo and redo, :mod:`~kastkopp.sheets.sheetfile` reads and writes the file.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kastkopp.sheets import liars, poker_dice, pots, slosch, yatzy
    from kastkopp.sheets.core import (
        Derivation,
        Flag,
        Sheet,
        SheetKind,
        Standing,
        kind_for,
        kinds,
    )

__all__ = ["Derivation", "Flag", "Sheet", "SheetKind", "Standing", "kind_for", "kinds",
           "liars", "poker_dice", "pots", "slosch",
           "yatzy"]


def __getattr__(name: str) -> Any:
    """Load on first use: the kinds load the games, which ``kastkopp --help`` never needs."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name[0].islower() and name not in ("kind_for", "kinds"):
        return import_module(f"{__name__}.{name}")
    return getattr(import_module(f"{__name__}.core"), name)

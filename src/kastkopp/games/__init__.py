"""The games, one module per family. Importing this package registers them all.

A new game joins by adding its module here and decorating its class with
:func:`kastkopp.engine.register`; nothing else names it.

>>> from kastkopp.games import load
>>> load("mia", preset="maexchen", players=4).rules.order
'classic'
"""

import importlib
import pkgutil

from kastkopp.engine import load, registered

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["load", "registered"]

"""The games, one module per family. Importing this package registers them all.

>>> from kastkopp.games import load
>>> load("mia", preset="maexchen", players=4).rules.order
'classic'
"""

from kastkopp.engine import load, registered
from kastkopp.games import mia, yatzy

__all__ = ["load", "mia", "registered", "yatzy"]

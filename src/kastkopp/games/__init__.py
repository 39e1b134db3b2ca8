"""The games, one module per family. Importing this package registers them all.

>>> from kastkopp.games import load
>>> load("mia", preset="maexchen", players=4).rules.order
'classic'
"""

from kastkopp.engine import load, registered
from kastkopp.games import liars_dice, mia, yatzy

__all__ = ["liars_dice", "load", "mia", "registered", "yatzy"]

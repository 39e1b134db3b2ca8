"""kastkopp's games for the tools game-AI people already use.

- :mod:`kastkopp.interop.pettingzoo` — an AEC environment for every game and preset
  (``pip install kastkopp[rl]``).
- :mod:`kastkopp.interop.openspiel` — every game registered as a ``pyspiel`` game
  (``pip install kastkopp[openspiel]``).
- :mod:`kastkopp.interop.maexchen` — the UDP text protocol of the Mäxchen (Mia)
  bot-competition servers: a server playing the Mia module's ``maexchen`` preset and a
  client that lets kastkopp's bots play on any such server.

The adapters are written once against the game protocol of :mod:`kastkopp.engine`: actions
are numbered by their place in :meth:`Game.all_actions`, everything a seat observes is built
from ``state.view(seat)`` alone (see :mod:`kastkopp.interop.encoding`), and dice come from
``state.chance()``.
"""

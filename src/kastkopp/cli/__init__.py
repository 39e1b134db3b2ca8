"""The ``kastkopp`` command line: one module per area, each adding its commands to one app.

==========================  ===========================================================
``app``                     the root, ``--version`` and ``--lang``
``play``                    ``games``, ``play`` (``terminal``: the board, the narrator,
                            the person at the keyboard; ``seats``: ``--players``)
``simulate``                ``simulate``
``ladder``                  ``ladder`` (every bot of a game against every other, rated)
``logs``                    ``replay``, ``verify``
``odds``                    ``odds``
``serve``                   ``serve``
``maexchen``                ``maexchen-server``, ``bot maexchen``
``matches``                 ``match``, ``chouette``, ``knockout``
``review``                  ``review``
``score``                   ``score ...`` (a row of a paper sheet, checked)
``sheets``                  ``sheet ...``
``solve``                   ``solve ...``, ``advise ...`` (``solvers``: each game's own
                            ``solve``, ``advise`` and ``score`` commands, loaded only
                            when used)
``options``, ``support``    shared option types; consoles, language, one-line errors
==========================  ===========================================================

The command modules import typer and each other's light parts only; the games, the engine,
numpy and rich load inside the command that needs them, so ``kastkopp --help`` starts fast.
"""

from __future__ import annotations

from kastkopp.cli import (
    ladder,
    logs,
    maexchen,
    matches,
    odds,
    play,
    review,
    score,
    serve,
    sheets,
    simulate,
    solve,
)
from kastkopp.cli.app import app

# the command groups, listed after the commands in this order
app.add_typer(score.score_app, name="score")
app.add_typer(sheets.sheet_app, name="sheet")
app.add_typer(solve.solve_app, name="solve")
app.add_typer(solve.advise_app, name="advise")
app.add_typer(maexchen.bot_app, name="bot")

__all__ = ["app", "ladder", "logs", "main", "matches", "odds", "play", "review", "score", "serve",
           "simulate"]


def main() -> None:
    app()

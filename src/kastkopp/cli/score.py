"""``kastkopp score``: what a row of a paper sheet scores, to check it.

The group holds no command of its own: a game whose sheet has rows to check adds one per
rule set from the module its ``Parts.commands`` names (:mod:`kastkopp.cli.solvers`), loaded
the first time the group lists or looks up a command, as ``solve`` and ``advise`` do.

    kastkopp score yatzy full-house 3 3 5 5 5
"""

from __future__ import annotations

import typer

from kastkopp.cli.solve import GameCommands


class _ScoreCommands(GameCommands):
    pass


score_app = typer.Typer(cls=_ScoreCommands, no_args_is_help=True, rich_markup_mode=None,
                        add_completion=False,
                        help="What a row of a paper sheet scores for some dice, to check it "
                        "(a command for each rule set).")
_ScoreCommands.typer_app = score_app

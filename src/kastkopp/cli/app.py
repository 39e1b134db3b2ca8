"""The root of the ``kastkopp`` command line: the app every command module adds itself to.

It imports only typer, :mod:`kastkopp.cli.support` and :mod:`kastkopp.cli.usage`, so the
command modules can import it without importing each other.
"""

from __future__ import annotations

from typing import Any

import typer
import typer.core

from kastkopp.cli.support import console, friendly, pick_language, set_language
from kastkopp.cli.usage import RootGroup

# The order ``kastkopp --help`` lists the commands in: playing first, then keeping score and
# the solvers, whatever order their modules are imported in.
ORDER = ("games", "play", "simulate", "ladder", "replay", "verify", "odds", "serve",
         "maexchen-server", "match", "chouette", "knockout", "review", "score", "sheet", "solve",
         "advise", "bot")


class Commands(RootGroup):
    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        return sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))


# Plain help (no rich panels): it starts faster and shows no Python type labels; options
# name what they take with their own metavars.
app = typer.Typer(cls=Commands, no_args_is_help=True, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]})


def _version(value: bool) -> None:
    if value:
        from kastkopp import __version__

        console.print(f"kastkopp {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
@friendly
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print kastkopp's version and exit."),
          lang: str = typer.Option(None, "--lang", metavar="LANG",
                                   help="sv, da or en: the language of prompts, tables and "
                                   "errors (default: the locale, LC_ALL or LANG)")) -> None:
    """kastkopp — the Scandinavian dice games: play them in the terminal, keep score of
    games played with real dice, and ask for odds, solutions and advice.

    Every command has its own --help. Shell completion: kastkopp --install-completion
    (bash, zsh, fish or PowerShell), then open a new shell.
    """
    set_language(pick_language(lang))

"""``kastkopp solve`` and ``kastkopp advise``: the solvers and the advisor on the command line.

The commands take their rules the way the rest of the command line does (``--preset``,
``--rule name=value``) and print a table, or JSON with ``--json``. Anything slow shows a
progress bar on the terminal (never in the JSON on standard output).

Each game's commands live in the modules its ``Parts.commands`` names (in
:mod:`kastkopp.cli.solvers`), which add them to :data:`solve_app` and :data:`advise_app`.
They load the first time either group lists or looks up a command, so ``kastkopp --help``
loads no game.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import typer
import typer.core
import typer.main

from kastkopp.cli.support import errors, parse_rules
from kastkopp.cli.usage import ToldGroup


def load_commands() -> None:
    """Import the command modules of every game that names some (their commands register)."""
    from kastkopp.games import load_part, registered

    for name in registered():
        load_part(name, "commands")


class GameCommands(ToldGroup):
    """A group whose commands are the games' own, added from ``typer_app`` once they load."""

    typer_app: ClassVar[typer.Typer]

    def _add_loaded(self) -> None:
        load_commands()
        for info in self.typer_app.registered_commands:
            if info.name not in self.commands:
                self.add_command(typer.main.get_command_from_info(
                    info, pretty_exceptions_short=self.typer_app.pretty_exceptions_short,
                    rich_markup_mode=self.typer_app.rich_markup_mode))

    # typer's own click types (``Any`` as in :mod:`kastkopp.cli.app`: typer keeps them private)
    def list_commands(self, ctx: Any) -> list[str]:
        self._add_loaded()
        return super().list_commands(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        self._add_loaded()
        return super().get_command(ctx, cmd_name)


class _SolveCommands(GameCommands):
    pass


class _AdviseCommands(GameCommands):
    pass


solve_app = typer.Typer(cls=_SolveCommands, no_args_is_help=True, rich_markup_mode=None,
                        add_completion=False, help="Solve a game: its value and how to play it.")
advise_app = typer.Typer(cls=_AdviseCommands, no_args_is_help=True, rich_markup_mode=None,
                         add_completion=False,
                         help="What to do now, in numbers, from a solved table.")
_SolveCommands.typer_app = solve_app
_AdviseCommands.typer_app = advise_app


def rules_of(rule_class: Any, preset: str | None, pairs: list[str] | None) -> Any:
    """The rules of ``--preset`` and ``--rule name=value`` pairs."""
    return rule_class.make(preset, **parse_rules(pairs))


@contextmanager
def progress(label: str, total: float) -> Iterator[Callable[[float], None]]:
    """A progress bar on the terminal; yields ``update(done)``."""
    from rich.progress import Progress

    with Progress(console=errors, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def percent(p: Any) -> str:
    return "" if p is None else f"{p:.1%}"

"""The command line's usage errors in the player's language.

The parser under typer words its own errors in English ("Missing option '--players'.").
The root command catches each one and raises it again told in the language asked for
(``--lang``, read before the parser runs, else the locale), from what the error carries —
the option, the parameter, the command — not from its English text. A wrong value is told
from the kind of its validation error (not a whole number, not a number, out of range); an
error the parser words some other way keeps its own text inside the translated frame.

>>> from typer.testing import CliRunner
>>> from kastkopp.cli import app
>>> print(CliRunner().invoke(app, ["--lang", "sv", "nonsense"]).output.splitlines()[-1])
fel: det finns inget kommando 'nonsense' här (kommandon: games, play, simulate, ...
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import IO, Any

import typer.core

# typer's own click, whose error classes typer keeps private
from typer._click import exceptions as click_errors
from typer._click.utils import echo

from kastkopp.cli.support import LANGUAGES, errors, escape, pick_language, say, set_language


def asked_language(args: Sequence[str]) -> str:
    """The language a command line asks for, read before the parser runs (its errors come
    before ``--lang`` is an option): ``--lang X`` or ``--lang=X`` when X is one of ours, else
    the locale; a wrong ``--lang`` is refused later, by the option itself."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--lang=") else (
            args[i + 1] if arg == "--lang" and i + 1 < len(args) else None)
        if value is not None and value.strip().lower() in LANGUAGES:
            return value.strip().lower()
    return pick_language()


class ToldUsageError(click_errors.UsageError):
    """A usage error already in the player's language, shown with the usage and the hint."""

    def show(self, file: IO[Any] | None = None) -> None:
        ctx = self.ctx
        if ctx is not None:
            usage = ctx.get_usage()
            lines = [say("Usage:") + usage.removeprefix("Usage:")]
            if ctx.command.get_help_option(ctx) is not None:
                lines.append(say("Try '{command} {option}' for help.",
                                 command=ctx.command_path, option=ctx.help_option_names[0]))
            echo("\n".join(lines) + "\n", file=file, err=file is None)
        # the one-line form of every other error of the command line (see ``friendly``)
        errors.print(f"[bold red]{escape(say('error:'))}[/] {escape(self.message)}",
                     highlight=False)


def told(error: click_errors.UsageError) -> ToldUsageError:
    """``error`` in the player's language."""
    if isinstance(error, ToldUsageError):
        return error
    told_error = ToldUsageError(_message(error), error.ctx)
    told_error.exit_code = error.exit_code
    return told_error


def _message(error: click_errors.UsageError) -> str:
    if isinstance(error, click_errors.MissingParameter):
        param = error.param
        name = param.get_error_hint() if param is not None else _hints(error.param_hint)
        kind = error.param_type or (param.param_type_name if param is not None else "")
        if kind == "option":
            return say("the option {name} is missing", name=name)
        if kind == "argument":
            return say("the argument {name} is missing", name=name)
        return say("{name} is missing", name=name)
    if isinstance(error, click_errors.NoSuchOption):
        text = say("there is no option {name}", name=error.option_name)
        if error.possibilities:
            text += " " + say("(did you mean {options}?)",
                              options=", ".join(sorted(error.possibilities)))
        return text
    if isinstance(error, click_errors.BadParameter):
        name = error.param.get_error_hint() if error.param is not None else \
            _hints(error.param_hint)
        if name:
            return say("wrong value for {name}: {message}", name=name,
                       message=_value_problem(error) or error.message)
    return error.message


def _value_problem(error: click_errors.BadParameter) -> str | None:
    """What is wrong with a value, told from the validation error the parser raised it from
    (pydantic's, whose text is English only); ``None`` for a kind not worded here."""
    from pydantic import ValidationError  # the parser's own validation, installed with it

    cause = error.__cause__
    if not isinstance(cause, ValidationError) or cause.error_count() != 1:
        return None
    problem = cause.errors(include_url=False)[0]
    kind, value, limits = problem["type"], str(problem.get("input", "")), problem.get("ctx", {})
    if kind == "int_parsing":
        return say("'{value}' is not a whole number", value=value)
    if kind == "float_parsing":
        return say("'{value}' is not a number", value=value)
    if kind == "greater_than_equal":
        return say("{value} is less than {low}, the least allowed", value=value,
                   low=_number(limits["ge"]))
    if kind == "less_than_equal":
        return say("{value} is more than {high}, the most allowed", value=value,
                   high=_number(limits["le"]))
    return None


def _number(limit: object) -> str:
    """A limit as the user would type it: ``10``, not ``10.0``."""
    return f"{limit:g}" if isinstance(limit, float) else str(limit)


def _hints(hint: Sequence[str] | str | None) -> str:
    if hint is None or isinstance(hint, str):
        return hint or ""
    return " / ".join(repr(h) for h in hint)


@contextlib.contextmanager
def told_usage() -> Iterator[None]:
    """Usage errors raised inside, told again in the player's language."""
    try:
        yield
    except click_errors.UsageError as error:
        raise told(error) from None


class ToldGroup(typer.core.TyperGroup):
    """A command group whose unknown commands are refused in the player's language."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and not ctx.resilient_parsing \
                and self.get_command(ctx, args[0]) is None:
            raise ToldUsageError(say(
                "there is no command '{name}' here (commands: {known})", name=args[0],
                known=", ".join(self.list_commands(ctx))), ctx)
        return super().resolve_command(ctx, args)


class RootGroup(ToldGroup):
    """The root command: chooses the language first, and tells every usage error in it."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        if parent is None:
            set_language(asked_language(args))
        with told_usage():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with told_usage():
            return super().invoke(ctx)

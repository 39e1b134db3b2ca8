"""What every part of the command line shares: the consoles, one-line errors, rule pairs.

It imports nothing else of the command line, and nothing of the games or the engine until a
command runs: every command module imports it, and ``kastkopp --help`` loads them all.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import typer
import typer.core

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from kastkopp.engine import KastkoppError, Message


class LazyConsole:
    """A rich console made when first used: ``kastkopp --help`` never waits for rich."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        # rich fixes the size a console is made with when COLUMNS or LINES is set, and else
        # reads them at each print: as at start-up, whenever the console is made
        self._follows = {"COLUMNS", "LINES"} - set(os.environ)
        self._console: Console | None = None

    def made(self) -> Console:
        if self._console is None:
            from rich.console import Console

            console = Console(**self._options)
            if "COLUMNS" in self._follows:
                console._width = None
            if "LINES" in self._follows:
                console._height = None
            self._console = console
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)

    def __enter__(self) -> Console:  # rich's live displays hold their console this way
        return self.made().__enter__()

    def __exit__(self, *exc: object) -> None:
        self.made().__exit__(*exc)


def lazy_console(**options: Any) -> Console:
    return cast("Console", LazyConsole(**options))


console = lazy_console()
errors = lazy_console(stderr=True, soft_wrap=True)


def print_json(data: Any) -> None:
    console.print_json(json.dumps(data, ensure_ascii=False))


def printed(data: Any, as_json: bool) -> bool:
    """Print ``data`` as JSON if the command was asked for JSON (``--json``); whether it was,
    so the command ends there instead of printing its tables."""
    if as_json:
        print_json(data)
    return as_json


def escape(text: str) -> str:
    """Text shown as it is, not read as rich markup."""
    from rich.markup import escape as escaped

    return escaped(text)


def rich_table(*columns: str, **options: Any) -> Table:
    """A rich table (rich is loaded by the commands that print one)."""
    from rich.table import Table

    return Table(*columns, **options)

F = TypeVar("F", bound=Callable[..., Any])

# What the help shows after an option that takes a value when it has no metavar of its own:
# words a player reads (N, TEXT, FILE), never Python's type names ("<list[str]>", "<bool>").
TYPE_WORDS = {"str": "TEXT", "int": "N", "float": "NUMBER", "path": "FILE", "file": "FILE",
              "bool": "", "int range": "N", "float range": "NUMBER"}


def _help_type(param: Any, ctx: Any) -> str:
    label = str(_typer_display_type(param, ctx)).strip("<>")
    if label.startswith("list[") and label.endswith("]"):
        label = label[5:-1]  # repeatable: the option's help says so
    return TYPE_WORDS.get(label, f"[{label}]" if "|" in label else label.upper())


_typer_display_type = typer.core.TyperOption.display_type
typer.core.TyperOption.display_type = _help_type  # type: ignore[method-assign,assignment]
# An argument's metavar (GAME, LOG.json) already says what it takes.
typer.core.TyperArgument.display_type_rich = lambda self, ctx: ""  # type: ignore[method-assign]

# Erase the scrollback too (xterm's "ED 3"): after a plain clear the next player at the
# keyboard could scroll back to the previous player's dice.
CLEAR_SCROLLBACK = "\x1b[3J"


def clear_for_hand_over() -> None:
    """Clear the terminal's screen and its scrollback (nothing to clear off a pipe)."""
    if not console.is_terminal or console.is_dumb_terminal:
        return
    console.clear()  # some terminals keep the cleared screen in the scrollback: erase next
    console.file.write(CLEAR_SCROLLBACK)
    console.file.flush()


# --------------------------------------------------------------------------- language

LANGUAGES = ("sv", "da", "en")
_chosen = {"lang": "en"}


def pick_language(option: str | None = None) -> str:
    """``--lang``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English otherwise."""
    if option is not None:
        code = option.strip().lower()
        if code not in LANGUAGES:
            from kastkopp.engine import RuleError

            raise RuleError("unknown language '{lang}' (languages: {known})", lang=option,
                            known=", ".join(LANGUAGES))
        return code
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            code = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def set_language(lang: str) -> None:
    _chosen["lang"] = lang


def language() -> str:
    return _chosen["lang"]


def say(template: str, **params: Any) -> str:
    """A text of the terminal in the player's language.

    The templates are extracted (``say`` is a keyword of ``scripts/error-catalogs.sh``) into
    the ``errors`` catalogs next to the pages' ones, with the engine's messages.
    """
    from kastkopp.engine import Message

    return tell(Message(template, params))


def confirm(question: str) -> bool:
    """A yes-or-no question, no by default, answered in the player's language or English."""
    yes, no = {"y", "yes", "j", "ja"}, {"", "n", "no", "nej"}
    choices = say("y/N")
    while True:
        answer = typer.prompt(f"{question} [{choices}]", default="",
                              show_default=False).strip().lower()
        if answer in yes | no:
            return answer in yes
        console.print(say("answer yes or no"), highlight=False)


def tell(message: Message | KastkoppError) -> str:
    """A message of the engine or a game in the player's language."""
    lang = language()
    if lang == "en":  # the templates are English: no catalog to load
        return str(message)
    from kastkopp.locale.messages import translate

    return translate(message, lang)


# --------------------------------------------------------------------------- errors


def friendly(func: F) -> F:
    """Turn the project's errors into one clear line and exit code 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from kastkopp.engine import KastkoppError

        try:
            return func(*args, **kwargs)
        except KastkoppError as exc:
            label = escape(say("error:"))
            errors.print(f"[bold red]{label}[/] {escape(tell(exc))}", highlight=False)
            raise typer.Exit(2) from None
        except OSError as exc:
            label = escape(say("error:"))
            errors.print(f"[bold red]{label}[/] {escape(str(exc.strerror or exc))}: "
                         f"{escape(str(exc.filename or ''))}", highlight=False)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def parse_rules(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["lives=5", "passing=off"]`` → ``{"lives": "5", "passing": "off"}``."""
    rules: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            from kastkopp.engine import RuleError

            raise RuleError("write a house rule as name=value, not '{pair}'", pair=pair)
        rules[name.strip()] = value.strip()
    return rules

"""The layers hold: the engine knows no game, the rules load no numerical library, and the
modules every game shares name none of them."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kastkopp.games import default_game, registered

SRC = Path(__file__).resolve().parent.parent / "src" / "kastkopp"


def imported_after(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after ``statement``."""
    code = f"{statement}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, env={"PYTHONPATH": str(SRC.parent)})
    return set(result.stdout.split())


def test_importing_the_games_loads_no_numpy():
    modules = imported_after("import kastkopp.games")
    assert "kastkopp.games.poker_dice" in modules
    assert "numpy" not in modules


def test_the_engine_imports_no_game():
    modules = imported_after("import kastkopp.engine")
    assert "kastkopp.engine" in modules
    assert not [m for m in modules if m.startswith("kastkopp.games")]
    # nor later, by name: the only mention of the games package is in its docstrings
    assert "kastkopp.games" not in code_words(SRC / "engine.py")


def code_words(path: Path) -> set[str]:
    """The strings and names of a module's code, its docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    words = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and id(node) not in docstrings}
    words |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    words |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    words |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
              for alias in node.names}
    words |= {node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    return words


SHARED = ["engine.py", "matches.py", "sheets/core.py", "strategy/__init__.py",
          "strategy/advice.py", "interop/ismcts.py", "strategy/odds.py", "strategy/review.py",
          "strategy/work.py",
          *sorted(str(p.relative_to(SRC)) for folder in ("cli", "server")
                  for p in (SRC / folder).rglob("*.py"))]
# Where a game may be named: the command modules the games' Parts.commands register.
REGISTRATIONS = {"cli/solvers"}
# The Mäxchen protocol (kastkopp.interop.maexchen, its command and the server's option) shares
# its name with Mia's preset: naming the protocol is not naming the game.
PROTOCOLS = {"maexchen"}


def game_words() -> set[str]:
    """Every game's name and the names of its presets."""
    return {word for name, cls in registered().items()
            for word in (name, *cls.rules_class.PRESETS)} - PROTOCOLS


@pytest.mark.parametrize("path", [p for p in SHARED
                                  if not any(p.startswith(r) for r in REGISTRATIONS)])
def test_shared_modules_name_no_game(path):
    words = code_words(SRC / path)
    named = {name for name in game_words() for word in words if name in word.split(".")}
    assert not named, f"{path} names {named}"


@pytest.mark.parametrize("path", sorted(
    str(p.relative_to(SRC)) for p in [*(SRC / "server" / "static").glob("*.js"),
                                      *(SRC / "server" / "templates").glob("*.html")]))
def test_the_pages_scripts_name_no_game(path):
    # the renderers and sheet stand-ins (static/games/, static/sheets/) are the games' own,
    # found through their registrations (Parts.renderer, SheetKind.stand_in)
    words = set(re.findall(r"[A-Za-z_]+", (SRC / path).read_text(encoding="utf-8")))
    assert not words & game_words(), f"{path} names {words & game_words()}"


def test_the_pages_words_name_no_game():
    # a game's own sentences come with its registration (Game.page_words), not in the
    # words every page is given
    from kastkopp.server.pages import UI

    names = set(registered())
    named = [text for text in UI
             if {word.lower() for word in re.findall(r"[A-Za-z_]+", text)} & names]
    assert not named, f"the pages' words name games: {named}"


def test_the_game_check_reads_the_command_line_and_the_server():
    # it sees a game named in code, and leaves the registrations alone
    assert {"cli/play.py", "cli/score.py", "server/pages.py", "server/routes/tables.py"} \
        <= set(SHARED)
    assert "mia" in code_words(SRC / "cli/solvers/mia.py")
    assert "yatzy" in game_words() and "terningspoker" in game_words()


def test_every_game_naming_commands_gets_them():
    """``solve`` lists exactly the games whose parts name command modules, each by its name,
    and ``advise`` only such games."""
    from typer.testing import CliRunner

    from kastkopp.cli import app

    def listed(group: str) -> set[str]:
        result = CliRunner().invoke(app, [group, "--help"])
        assert result.exit_code == 0, result.output
        block = result.output.split("Commands:", 1)[1]
        return {line.split()[0] for line in block.splitlines() if line.strip()}

    declaring = {name for name, cls in registered().items() if cls.parts.commands}
    assert declaring and listed("solve") == declaring
    assert listed("advise") and listed("advise") <= declaring


@pytest.mark.parametrize(("place", "before"), [("play", "mia"), ("match", "poker_dice")])
def test_each_default_game_is_the_one_game_registered_for_it(place, before):
    naming = [name for name, cls in registered().items() if place in cls.parts.default_for]
    assert naming == [default_game(place)] == [before]  # the defaults the commands had

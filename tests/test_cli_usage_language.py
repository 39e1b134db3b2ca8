"""The command line's usage errors — an unknown command or option, a missing or wrong value —
in the player's language, before ``--lang`` is even parsed, and without changing anything."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from test_cli_language import english_only, words

runner = CliRunner()


def told(*args: str, env: dict[str, str | None] | None = None) -> str:
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 2, result.output
    return result.output  # standard output and errors, as the terminal shows them


def test_an_unknown_command_is_refused_in_swedish_with_the_commands_there_are():
    out = told("--lang", "sv", "score", "generala", "1", "2", "3", "4", "5")
    assert "fel: det finns inget kommando 'generala' här (kommandon: yatzy, maxi, yahtzee" in out
    assert "Användning:" in out and "för hjälp." in out


def test_the_locale_chooses_the_language_when_no_lang_is_given():
    out = told("simulate", "mia", env={"LC_ALL": None, "LC_MESSAGES": None,
                                       "LANG": "da_DK.UTF-8"})
    assert "fejl: tilvalget '--players' mangler" in out
    assert "Brug:" in out


def test_an_unknown_option_is_refused_with_the_likely_one():
    out = told("--lang", "sv", "simulate", "mia", "--players", "bot:random,bot:random",
               "--game", "3")
    assert "det finns inget alternativ --game (menade du --games?)" in out


def test_a_wrong_value_names_its_option():
    out = told("--lang", "da", "simulate", "mia", "--players", "bot:random,bot:random",
               "--games", "x")
    assert "ugyldig værdi for '--games'" in out


@pytest.mark.parametrize(("lang", "args", "said"), [
    ("sv", ["simulate", "mia", "--players", "bot:random,bot:random", "--games", "x"],
     "fel: ogiltigt värde för '--games': 'x' är inget heltal"),
    ("da", ["ladder", "mia", "--games", "1.5"],
     "fejl: ugyldig værdi for '--games': '1.5' er ikke et helt tal"),
    ("da", ["serve", "--bot-delay", "soon"],
     "fejl: ugyldig værdi for '--bot-delay': 'soon' er ikke et tal"),
    ("sv", ["serve", "--port", "0"],
     "fel: ogiltigt värde för '--port': 0 är mindre än 1, det minsta som tillåts"),
    ("da", ["serve", "--bot-delay", "11"],
     "fejl: ugyldig værdi for '--bot-delay': 11 er større end 10, det største tilladte"),
    ("en", ["serve", "--abandoned-after", "0"],
     "error: wrong value for '--abandoned-after': 0 is less than 0.01, the least allowed"),
])
def test_a_wrong_value_is_told_by_what_is_wrong_with_it(lang, args, said):
    # the parser validates with pydantic, whose text is English only ("Input should be a
    # valid integer"): the kind of its error is told instead
    out = told("--lang", lang, *args)
    assert said in out and "Input should" not in out


def test_english_after_swedish_in_one_process():
    told("--lang", "sv", "nonsense")
    out = told("--lang", "en", "nonsense")
    assert "error: there is no command 'nonsense' here (commands: games, play," in out
    assert out.startswith("Usage:")


@pytest.mark.parametrize("lang", ["sv", "da"])
@pytest.mark.parametrize("args", [["nonsense"], ["sheet", "nothing"], ["solve", "nogame"],
                                  ["simulate", "mia"], ["play", "mia", "--bogus"]])
def test_no_english_word_is_left_in_a_usage_error(lang, args):
    out = told("--lang", lang, *args).splitlines()
    # the usage line is the command's syntax; options and the commands listed are names
    said = [re.sub(r"--[\w-]+|\(\w+: [^)]*\)", "", line) for line in out[1:]]
    assert words("\n".join(said)) & english_only(lang) - words(" ".join(args)) == set()


def test_a_refused_sheet_command_writes_no_file(tmp_path: Path):
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        told("--lang", "sv", "sheet", "new", "--bogus")
    finally:
        os.chdir(before)
    assert list(tmp_path.iterdir()) == []

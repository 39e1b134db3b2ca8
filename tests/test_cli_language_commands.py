"""Every command of the terminal in Swedish and Danish, checked against the catalogs.

Each command is run with ``--lang sv`` and ``--lang da``; its output (standard output and
errors) may hold no word that the ``errors`` catalogs have only on their English side (the
check of :mod:`test_cli_language`). Names, bots, files and what is typed are left as they are.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.games import registered
from kastkopp.strategy import bot_names
from test_cli_language import english_only, words

runner = CliRunner()
LANGS = ["sv", "da"]
BOTS = set().union(*(words(b) for game in registered() for b in bot_names(game)))


def english_left(lang: str, *args: str, code: int = 0, keep: str = "") -> set[str]:
    """The words of the command's output that only the English side of the catalogs has."""
    result = runner.invoke(app, ["--lang", lang, *args])
    assert result.exit_code == code, result.output
    out = result.output + (result.stderr or "")
    assert out.strip()
    return (words(out) & english_only(lang)) - BOTS - {"bot"} - words(keep)


@pytest.mark.parametrize("lang", LANGS)
def test_match_speaks_the_players_language(lang):
    assert english_left(lang, "match", "poker_dice", "--players", "bot:strong,bot:random",
                        "--seed", "1") == set()


@pytest.mark.parametrize("lang", LANGS)
def test_chouette_speaks_the_players_language(lang):
    assert english_left(lang, "chouette", "poker_dice", "--players",
                        "bot:strong,bot:random,bot:strong", "--games", "3",
                        "--seed", "1") == set()


@pytest.mark.parametrize("lang", LANGS)
def test_knockout_and_its_bracket_speak_the_players_language(lang):
    # three players: a bye, a semi-final and a final
    assert english_left(lang, "knockout", "--players", "bot:strong,bot:random,bot:strong",
                        "--seed", "1") == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("args", [("mia",), ("linka",), ("linka", "linka=6,3"),
                                  ("liars_dice",), ("yatzy",), ("knack",), ("poker_dice",)])
def test_odds_tables_speak_the_players_language(lang, args):
    assert english_left(lang, "odds", *args) == set()


def test_odds_as_json_stay_english_whatever_the_language():
    english = runner.invoke(app, ["odds", "yatzy", "--json"]).output
    assert json.loads(runner.invoke(app, ["--lang", "sv", "odds", "yatzy", "--json"]).output) \
        == json.loads(english)


@pytest.mark.parametrize("lang", LANGS)
def test_solve_mia_and_its_legend_speak_the_players_language(lang):
    assert english_left(lang, "solve", "mia", "--target", "0.05") == set()


@pytest.mark.parametrize("lang", LANGS)
def test_simulate_speaks_the_players_language(lang):
    assert english_left(lang, "simulate", "mia", "--players", "bot:sensible,bot:random",
                        "--games", "20") == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("args", [("yatzy", "full-house", "3", "3", "5", "5", "5"),
                                  ("yatzy", "yatzy", "2", "2", "2", "2", "2", "--first-throw"),
                                  ("yatzy", "pair", "1", "2", "3", "4", "6")])
def test_score_speaks_the_players_language(lang, args):
    assert english_left(lang, "score", *args) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_replay_and_verify_speak_the_players_language(tmp_path, lang):
    log = tmp_path / "game.json"
    played = runner.invoke(app, ["play", "mia", "--players", "bot,bot:random", "--seed", "4",
                                 "--log", str(log)])
    assert played.exit_code == 0, played.output
    assert english_left(lang, "replay", str(log), keep=log.name) == set()
    assert english_left(lang, "verify", str(log), keep=log.name) == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "entry"), [
    ("liars_dice", ("Anna", "7")),            # cells for the wrong number of players
    ("liars_dice", ("loss", "Dora")),         # nobody called Dora
    ("knack", ("Anna", "x", "won", "Anna")),  # not an amount
    ("mia", ("who", "knows")),                # unreadable
    ("yatzy", ("Anna", "pair", "1", "2", "3", "4", "6", "6")),  # six dice
    ("yatzy", ("Anna", "full-house", "1", "2", "3", "4", "6")),  # not a full house
    ("liars_dice", ("loss", "Ben", "2")),      # one die a loss under the default rules
])
def test_sheet_errors_reach_the_player_translated(tmp_path, lang, game, entry):
    path = tmp_path / "game.sheet"
    made = runner.invoke(app, ["--lang", lang, "sheet", "new", game, "--players", "Anna,Ben,Cara"
                               if game != "knack" else "Anna,Ben", str(path)])
    assert made.exit_code == 0, made.output
    assert english_left(lang, "sheet", "add", str(path), *entry, code=2,
                        keep=f"{path} Anna Ben Cara " + " ".join(entry)) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_a_broken_sheet_file_is_named_in_the_players_language(tmp_path, lang):
    path = tmp_path / "broken.sheet"
    path.write_text("kastkopp-sheet 1\ngame liars_dice\nplayer Anna\nplayer Ben\nadd loss Cara\n",
                    encoding="utf-8")
    result = runner.invoke(app, ["--lang", lang, "sheet", "show", str(path)])
    assert result.exit_code == 2
    told = re.sub(r"\s+", " ", result.stderr)
    assert str(path.name) in told and (" rad 5" in told if lang == "sv" else " linje 5" in told)
    assert (words(told) & english_only(lang)) - words(f"{path} Anna Ben Cara") == set()

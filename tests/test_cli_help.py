"""The command line's help, its start-up and its small words, as a new user meets them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kastkopp import __version__
from kastkopp.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ["games", "play", "simulate", "ladder", "replay", "verify", "odds", "serve",
            "maexchen-server", "match", "chouette", "knockout", "score", "sheet", "solve",
            "advise", "bot"]


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "80"})


def leaf_commands() -> list[list[str]]:
    """Every command and sub-command, as the words that open its help."""
    found = []
    for command in COMMANDS:
        listing = run(command, "--help").output
        if "Commands:" in listing:
            part = listing.split("Commands:", 1)[1]
            found += [[command, line.split()[0]] for line in part.splitlines()
                      if line.startswith("  ") and line.split()]
        else:
            found.append([command])
    return found


def test_version_and_short_help():
    assert run("--version").output.strip() == f"kastkopp {__version__}"
    short = run("-h")
    assert short.exit_code == 0 and short.output == run("--help").output
    assert "--install-completion" in short.output
    assert run("play", "-h").output == run("play", "--help").output


@pytest.mark.parametrize("words", leaf_commands(), ids=" ".join)
def test_every_option_and_argument_has_a_description_and_no_type_label(words):
    result = run(*words, "--help")
    assert result.exit_code == 0, result.output
    text = result.output
    assert not re.search(r"<(bool|str|int|float|path|list\[[^]]*\])>", text)
    for part in ("Arguments:", "Options:"):
        if part not in text:
            continue
        block = text.split(part, 1)[1].split("\n\n", 1)[0]
        entries = [line for line in block.splitlines() if re.match(r"  \S", line)]
        for entry in entries:
            # a name, two spaces or more, then its description (or a description on the
            # next line when the name is long)
            described = re.match(r"  \S.*?\s{2,}\S", entry) or entry == block.splitlines()[-1]
            following = block.splitlines()[block.splitlines().index(entry) + 1:][:1]
            assert described or (following and following[0].startswith(" " * 6)), \
                f"{' '.join(words)}: {entry!r} has no description"


def test_play_help_tells_the_prompt_words():
    text = run("play", "--help").output
    assert '"?"' in text and '"quit"' in text


def test_the_readme_lists_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = [line for line in readme.splitlines() if line.startswith("| `kastkopp ")]
    listed = {re.match(r"\| `kastkopp ([\w-]+)", line).group(1) for line in table}
    assert set(COMMANDS) <= listed


def test_the_help_loads_neither_numpy_nor_the_games():
    code = ("import sys; from kastkopp.cli import app; "
            "print(sorted(m for m in sys.modules if m in ('numpy', 'asyncio', 'rich', "
            "'kastkopp.engine', 'kastkopp.dice') "
            "or m.startswith(('kastkopp.games', 'kastkopp.sheets', 'kastkopp.strategy', "
            "'kastkopp.interop', 'kastkopp.locale.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "src")}).stdout
    assert out.strip() == "[]"


def test_odds_take_a_house_rule_among_what_is_known():
    classic = json.loads(run("odds", "mia", "order=classic", "--json").output)
    assert classic == json.loads(run("odds", "mia", "--rule", "order=classic", "--json").output)
    assert classic[-2]["value"] == "66"


def test_odds_titles_and_simulate_tables_fit_80_columns():
    for args in (("odds", "mia"), ("odds", "knack"),
                 ("simulate", "mia", "--players", "bot:sensible,bot:random,bot:sensible",
                  "--games", "20")):
        lines = run(*args).output.splitlines()
        assert all(len(line) <= 80 for line in lines)
        assert not any("…" in line for line in lines), args
    assert run("odds", "mia").output.startswith("Odds — Slosch (Mia)\n")


def test_the_same_name_twice_is_refused():
    result = run("play", "mia", "--players", "Anna,anna")
    assert result.exit_code == 2 and "two players are called 'Anna'" in result.stderr


def test_replay_json_reports_errors_as_json(tmp_path):
    missing = run("replay", str(tmp_path / "none.json"), "--json")
    assert missing.exit_code == 2 and "No such file" in json.loads(missing.output)["error"]
    (tmp_path / "x.json").write_text('{"x": 1}')
    wrong = json.loads(run("replay", str(tmp_path / "x.json"), "--json").output)
    assert wrong["template"] and wrong["error"]


def test_verify_says_a_terminal_game_needs_a_seed(tmp_path):
    log = tmp_path / "game.json"
    run("play", "mia", "--players", "Anna,bot:random", "--log", str(log),
        input="21\ncall\n" * 300)
    result = run("verify", str(log))
    assert result.exit_code == 1 and "--seed N" in result.stderr


def test_words_in_the_singular_and_plural(tmp_path):
    games = run("games").output
    assert "2–2 players" not in games and "poker_dice — Liar Dice" in games
    assert re.search(r"poker_dice — .*?, 2 players:", games)
    log = tmp_path / "one.json"
    log.write_text(json.dumps({"format": "kastkopp-log"}))
    result = run("simulate", "mia", "--players", "bot,bot", "--games", "1")
    assert "1 game of" in result.output


def test_sheet_export_needs_no_format_flag(tmp_path):
    sheet = tmp_path / "s.sheet"
    assert run("sheet", "new", "liars_dice", str(sheet), "--players", "Anna,Ben").exit_code == 0
    exported = run("sheet", "export", str(sheet))
    assert exported.exit_code == 0 and exported.output == run("sheet", "export", str(sheet),
                                                              "--csv").output


def test_rule_sources_are_named_by_their_titles():
    listing = run("games").output + run("games", "--json").output
    assert not re.search(r"seed 0\d\d", listing)
    assert "Perudo as Løgneterninger regler plays it" in listing
    assert "Knack as Tärningsspel plays it" in listing
    sources = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    assert "Tärningsspel" in sources and "Vikos & Rejd" in sources
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                 *(ROOT / "src" / "kastkopp" / "games").glob("*.py")]:
        assert not re.search(r"seeds? 0\d\d", path.read_text(encoding="utf-8")), path


def test_the_terminal_speaks_swedish_and_danish():
    swedish = runner.invoke(app, ["--lang", "sv", "play", "mia", "--players", "Anna,anna"])
    assert swedish.exit_code == 2
    assert swedish.stderr.strip() == "fel: två spelare heter 'Anna': ge varje person ett eget namn"
    # the locale decides when --lang is not given; the engine's refusals follow it
    danish = runner.invoke(app, ["play", "mia", "--players", "Anna,bot", "--seed", "1"],
                           input="flyv\nquit\n", env={"LANG": "da_DK.UTF-8", "LC_ALL": ""})
    assert "Annas tur" in danish.output and "tilladt:" in danish.output
    assert "'flyv'" in danish.output and "tilladt:" in danish.output
    english = runner.invoke(app, ["play", "mia", "--players", "Anna,bot", "--seed", "1"],
                            input="quit\n", env={"LANG": "C.UTF-8", "LC_ALL": ""})
    assert "Anna's turn" in english.output
    unknown = runner.invoke(app, ["--lang", "fi", "games"])
    assert unknown.exit_code == 2 and "unknown language 'fi'" in unknown.stderr


def test_a_sheet_speaks_danish(tmp_path):
    sheet = tmp_path / "s.sheet"
    run("sheet", "new", "liars_dice", str(sheet), "--players", "Anna,Ben")
    for _ in range(5):
        shown = runner.invoke(app, ["--lang", "da", "sheet", "add", str(sheet), "Ben"],
                              env={"COLUMNS": "80"}).output
    flat = re.sub(r"\s+", " ", shown)
    assert "1. Anna (5 terninger) · 2. Ben (0 terninger, ude i runde 5) — færdigt: Anna vinder" \
        in flat
    again = runner.invoke(app, ["--lang", "da", "sheet", "new", "liars_dice", str(sheet),
                                "--players", "Anna,Ben"])
    assert "findes allerede" in again.stderr


def test_a_sheet_writes_minus_one_way(tmp_path):
    sheet = tmp_path / "k.sheet"
    run("sheet", "new", "knack", str(sheet), "--players", "Anna,Ben")
    shown = run("sheet", "add", str(sheet), "Anna", "3", "Ben", "3", "won", "Ben").output
    numbers = re.findall(r"[−-]\d+", shown)
    assert numbers and all(n.startswith("−") for n in numbers), shown

"""The points of the terminal's list that had no test of their own: what a player sees at the
end of a Linka pot, two-player Yatzy without colours, and the legend under ``solve mia``."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from kastkopp.cli import app

runner = CliRunner()


def test_linka_shows_your_own_dice_at_the_end_not_a_question_mark():
    answers = "check\ncall\n" * 6
    result = runner.invoke(app, ["play", "linka", "--players", "Anna,bot", "--seed", "1"],
                           input=answers)
    assert result.exit_code == 0, result.output
    final = result.output.split("Game over", 1)[1]
    anna = next(line for line in final.splitlines() if line.strip().startswith("Anna:"))
    assert "?" not in anna and re.search(r"Anna: [1-6] [1-6]", anna), final


def test_two_player_yatzy_names_the_players_without_colours():
    result = runner.invoke(app, ["play", "yatzy", "--players", "Anna,bot", "--seed", "1"],
                           input="quit\n")
    assert "Anna" in result.output
    assert "(white)" not in result.output and "(black)" not in result.output


def test_solve_mia_explains_every_column_under_the_table():
    result = runner.invoke(app, ["solve", "mia", "--target", "0.05"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "truth" in line)
    columns = re.findall(r"[a-z]+", header)
    assert columns == ["value", "truth", "bluff", "claimed", "true", "call", "roll", "pass"]
    legend = [line.split()[0] for line in result.output.splitlines()
              if re.match(r"[a-z]+ {2,}\S", line)]
    assert legend == columns
    assert all(len(line) <= 80 for line in result.output.splitlines())

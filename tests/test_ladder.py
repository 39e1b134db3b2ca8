"""``kastkopp ladder``: every bot of a game against every other, through the command line."""

from __future__ import annotations

import importlib.util
import json

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.ladder import (
    Chunk,
    Result,
    places_by,
    play_chunk,
    rankings,
    table_rows,
    tables_of,
)
from kastkopp.cli.simulate import mean_interval
from kastkopp.games import registered
from kastkopp.strategy import bot_names

runner = CliRunner()
NO_RAY = importlib.util.find_spec("ray") is None


def run(*args: str):
    return runner.invoke(app, list(args))


def one_line_error(result, fragment: str) -> None:
    assert result.exit_code == 2
    assert "Traceback" not in result.output + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and fragment in lines[0], result.stderr


@pytest.mark.skipif(not NO_RAY, reason="Ray is installed: auto plays on it")
def test_a_yatzy_ladder_rates_optimal_above_random_on_processes_and_writes_its_file(tmp_path):
    out = tmp_path / "yatzy.json"
    result = run("ladder", "yatzy", "--bots", "optimal,random,greedy", "--games", "6",
                 "--seed", "4", "--workers", "2", "--out", str(out), "--json")
    assert result.exit_code == 0, result.output + result.stderr
    data = json.loads(result.output)
    assert json.loads(out.read_text(encoding="utf-8")) == data
    assert data["backend"] == "processes"  # Ray is not installed
    # the bots chosen, in the game's own order
    assert data["bots"] == [b for b in bot_names("yatzy") if b in ("random", "greedy", "optimal")]
    assert data["bots"] == ["random", "greedy", "optimal"]
    order = [row["bot"] for row in data["ratings"]]
    assert order.index("optimal") < order.index("random") and order[-1] == "random"
    # three pairs heads-up and the three together: each bot at three tables of six games
    assert [t["bots"] for t in data["tables"]] == [
        ["random", "greedy"], ["random", "optimal"], ["greedy", "optimal"],
        ["random", "greedy", "optimal"]]
    for row in data["ratings"]:
        assert row["games"] == 18 and row["events"] == 18
        low, high = row["mu_2sigma"]
        assert low < row["mu"] < high and row["rating"] == pytest.approx(
            row["mu"] - 3 * row["sigma"])
    for table in data["tables"]:
        assert table["games"] == 6
        assert sum(entry["wins"] for entry in table["results"]) == pytest.approx(6)
        for entry in table["results"]:
            low, high = entry["win_rate_ci95"]
            assert 0 <= low <= entry["win_rate"] + 1e-9
            assert entry["win_rate"] <= high + 1e-9 and high <= 1
            assert entry["mean_payoff_ci95"][0] <= entry["mean_payoff"]
    assert data["command"] == \
        "kastkopp ladder yatzy --bots random,greedy,optimal --games 6 --seed 4"


def test_the_same_seed_gives_the_same_ladder_on_any_number_of_workers():
    args = ("ladder", "poker_dice", "--bots", "random,simple,strong", "--games", "5",
            "--seed", "11", "--json")
    alone = json.loads(run(*args, "--workers", "1").output)
    shared = json.loads(run(*args, "--workers", "2").output)
    assert alone == shared
    other = json.loads(run(*args[:6], "--seed", "12", "--json", "--workers", "1").output)
    assert other["tables"] != alone["tables"]


def test_a_two_player_game_is_laddered_heads_up_only():
    data = json.loads(run("ladder", "poker_dice", "--bots", "random,simple,strong", "--games",
                          "2", "--json", "--workers", "1").output)
    assert registered()["poker_dice"].max_players == 2
    assert {t["players"] for t in data["tables"]} == {2} and len(data["tables"]) == 3


def test_the_bots_chosen_must_be_two_or_more_of_the_games_own():
    for bots in ("random", "random,nosuch", ""):
        result = run("ladder", "poker_dice", "--bots", bots, "--games", "1", "--workers", "1")
        assert result.exit_code != 0
        assert "needs two or more of its bots" in result.output + result.stderr
    sv = run("--lang", "sv", "ladder", "poker_dice", "--bots", "nosuch,random")
    assert "behöver två eller fler av dess bottar" in sv.output + sv.stderr


def test_matches_are_ranked_by_what_each_bot_won_in_them():
    assert places_by([3.0, -1.0, 3.0]) == (1, 3, 1)
    results = [Result(0, 0, (1, 2), (1.0, -1.0)), Result(0, 1, (1, 2), (1.0, -1.0)),
               Result(0, 2, (2, 1), (-5.0, 5.0)), Result(0, 3, (1, 2), (1.0, -1.0))]
    # each game by its winner: the first bot won three of four
    assert [places for _, places in rankings(results, 1)] == [(1, 2), (1, 2), (2, 1), (1, 2)]
    # in matches of two: the second match goes to the one who won the big pot
    assert rankings(results, 2) == [(0, (1, 2)), (0, (2, 1))]
    data = json.loads(run("ladder", "knack", "--players", "2", "--games", "4", "--match",
                          "2", "--json", "--workers", "1").output)
    assert data["match"] == 2 and all(row["events"] == 4 for row in data["ratings"])
    assert data["command"].endswith("--games 4 --players 2 --match 2 --seed 0")


def test_a_bot_paired_against_itself_wins_exactly_nothing():
    # the two games of a pair throw the same dice with the seats swapped: the same bot in
    # both seats plays the second game as the first, so what one seat won the other gives back
    chunk = Chunk("knack", None, (), 0, ("strong", "strong"), 0, 20, 5, paired=True)
    results = play_chunk(chunk)
    assert [r.payoffs for r in results[1::2]] == [r.payoffs[::-1] for r in results[::2]]
    assert any(r.payoffs != (0.0, 0.0) for r in results)
    for entry in table_rows([("strong", "strong")], results, paired=True)[0]["results"]:
        assert entry["mean_payoff"] == 0.0 and entry["mean_payoff_ci95"] == [0.0, 0.0]
        assert entry["win_rate"] == 0.5
    # unpaired, the same games are twenty different deals
    unpaired = play_chunk(Chunk("knack", None, (), 0, ("strong", "strong"), 0, 20, 5))
    assert table_rows([("strong", "strong")], unpaired)[0]["results"][0][
        "mean_payoff_ci95"] != [0.0, 0.0]


def test_paired_intervals_are_over_the_pairs():
    data = json.loads(run("ladder", "knack", "--bots", "equilibrium,strong", "--players", "2",
                          "--games", "30", "--seed", "3", "--paired", "--json",
                          "--workers", "1").output)
    assert data["paired"] is True
    assert data["command"] == ("kastkopp ladder knack --bots equilibrium,strong --games 30 "
                               "--players 2 --paired --seed 3")
    results = play_chunk(Chunk("knack", None, (), 0, ("equilibrium", "strong"), 0, 25, 3,
                               paired=True))
    results += play_chunk(Chunk("knack", None, (), 0, ("equilibrium", "strong"), 25, 5, 3,
                                paired=True))
    pairs = [(a.payoffs[0] + b.payoffs[0]) / 2 for a, b in zip(results[::2], results[1::2],
                                                                strict=True)]
    mean, low, high = mean_interval(pairs)
    entry = data["tables"][0]["results"][0]
    assert entry["bot"] == "equilibrium"
    assert entry["mean_payoff"] == pytest.approx(mean)
    assert entry["mean_payoff_ci95"] == pytest.approx([low, high])


def test_paired_games_are_whole_rounds_of_seatings():
    one_line_error(run("ladder", "knack", "--players", "2", "--games", "7", "--paired"),
                   "must be a multiple of 2, not 7")
    # heads-up and three at a table: rounds of 2 and of 3
    one_line_error(run("ladder", "knack", "--games", "8", "--paired"),
                   "must be a multiple of 6, not 8")
    one_line_error(run("--lang", "sv", "ladder", "knack", "--games", "8", "--paired"),
                   "6, inte 8")


def test_tables_are_every_pair_then_every_mix():
    assert tables_of(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert tables_of(["a", "b", "c"], 3)[-1] == ("a", "b", "c")


@pytest.mark.parametrize(("lang", "heading", "column"), [
    ("sv", "Bottarnas stege i ", "vinstandel"),
    ("da", "Botternes stige i ", "vinderandel"),
    ("en", "Bot ladder of Liar Dice", "win rate")])
def test_the_ladder_speaks_the_players_language(lang, heading, column):
    result = run("--lang", lang, "ladder", "poker_dice", "--bots", "random,simple,strong",
                 "--games", "2", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    assert heading in result.output and column in result.output
    assert "bot:strong" in result.output


@pytest.mark.parametrize(("args", "fragment"), [
    (("ladder", "yatzy", "--bots", "random,greedy,optimal", "--players", "4"),
     "2 to 3 bots at a table, not 4"),
    (("ladder", "poker_dice", "--players", "3"), "2 to 2 bots at a table, not 3"),
    (("ladder", "nosuchgame"), "unknown game 'nosuchgame'"),
    (("ladder", "mia", "--backend", "spark"), "unknown backend 'spark'"),
    (("ladder", "mia", "--rule", "lives=zero"), "lives"),
])
def test_bad_input_is_one_clear_line(args, fragment):
    one_line_error(run(*args), fragment)


@pytest.mark.skipif(not NO_RAY, reason="Ray is installed")
def test_asking_for_ray_without_it_says_how_to_install_it():
    one_line_error(run("ladder", "mia", "--backend", "ray"), "pip install kastkopp[ray]")


def test_a_ladder_in_swedish_refuses_in_swedish():
    one_line_error(run("--lang", "sv", "ladder", "yatzy", "--bots", "random,greedy,optimal",
                       "--players", "4"),
                   "bottar vid ett bord, inte 4")

"""The command line, as a person uses it: clear output, one-line errors, never a traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.simulate import wilson

runner = CliRunner()

# Answers that always end a Slosch game: claim Slosch when announcing, call when responding
# (the other one is refused with a reason and the prompt asks again).
ALWAYS = "21\ncall\n" * 300


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def assert_one_line_error(result, fragment):
    assert result.exit_code != 0
    assert "Traceback" not in result.output + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]


def test_games_lists_games_presets_rules_and_bots_as_json():
    result = run("games", "--json")
    assert result.exit_code == 0
    games = {g["name"]: g for g in json.loads(result.output)}
    mia = games["mia"]
    assert {p["name"] for p in mia["presets"]} >= {"slosch", "classic", "maexchen"}
    lives = next(r for r in mia["rules"] if r["name"] == "lives")
    assert lives["default"] == 3 and lives["help"]
    assert {"random", "sensible"} <= {b["name"] for b in mia["bots"]}


def test_games_prints_a_table_for_people():
    result = run("games")
    assert result.exit_code == 0
    assert "slosch_double" in result.output and "maexchen" in result.output


def test_odds_mia_as_json_and_as_a_table():
    result = run("odds", "mia", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert {"value": "54", "beaten": 0.5} in rows
    assert rows[0]["value"] == "31" and rows[-1] == {"value": "21", "beaten": 0.0}
    table = run("odds", "mia")
    assert "94.4%" in table.output and "50.0%" in table.output
    classic = json.loads(run("odds", "mia", "--preset", "classic", "--json").output)
    assert classic[-2]["value"] == "66"


def test_play_a_whole_game_against_a_bot_and_replay_and_verify_its_log(tmp_path):
    log = tmp_path / "game.json"
    result = run("play", "mia", "--players", "Anna,bot:random", "--seed", "3",
                 "--log", str(log), input=ALWAYS)
    assert result.exit_code == 0, result.output
    assert "Anna's turn" in result.output and "Game over" in result.output
    assert "is not higher than the claim" in result.output or "announce" in result.output
    replayed = run("replay", str(log), "--json")
    assert replayed.exit_code == 0
    assert json.loads(replayed.output)["over"] is True
    assert run("replay", str(log)).exit_code == 0
    verified = run("verify", str(log))
    assert verified.exit_code == 0 and "rolls match" in verified.output


def test_play_without_arguments_asks_for_game_preset_and_players():
    answers = "mia\nclassic\nAnna,bot\n" + ALWAYS
    result = run("play", "--seed", "4", input=answers)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output


def test_hot_seat_hands_the_dice_over_between_people():
    answers = ("\n21\n\ncall\n") * 200
    result = run("play", "mia", "--players", "Anna,Ben", "--seed", "1", input=answers)
    assert result.exit_code == 0, result.output
    assert "Pass the dice to Ben" in result.output


def test_tampered_log_fails_verification(tmp_path):
    log = tmp_path / "game.json"
    run("play", "mia", "--players", "Anna,bot:random", "--seed", "3", "--log", str(log),
        input=ALWAYS)
    data = json.loads(log.read_text())
    roll = next(e for e in data["events"] if e["type"] == "roll")
    roll["faces"] = [7 - f for f in roll["faces"]]
    log.write_text(json.dumps(data))
    result = run("verify", str(log))
    assert result.exit_code == 1 and "not what the seed gives" in result.stderr


def test_simulate_shows_the_sensible_bot_beating_random_with_confidence():
    result = run("simulate", "mia", "--players", "bot:sensible,bot:random", "--games", "600",
                 "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    sensible, rand = json.loads(result.output)["results"]
    assert sensible["win_rate_ci95"][0] > 0.5 > rand["win_rate_ci95"][1]
    assert sensible["wins"] + rand["wins"] == 600


def test_wilson_interval_contains_the_estimate():
    low, high = wilson(80, 100)
    assert low < 0.8 < high and low > 0.7 and high < 0.9


@pytest.mark.parametrize(("args", "fragment"), [
    (("play", "chess"), "unknown game 'chess'"),
    (("play", "mia", "--preset", "poker"), "unknown preset 'poker'"),
    (("play", "mia", "--rule", "colour=red"), "unknown rule 'colour'"),
    (("play", "mia", "--rule", "lives=0"), "at least 1"),
    (("play", "mia", "--rule", "lives"), "name=value"),
    (("play", "mia", "--players", "Anna,bot:genius"), "no bot 'genius'"),
    (("play", "mia", "--players", "Anna"), "2 to 10 players"),
    (("simulate", "mia", "--players", "Anna,bot"), "simulate plays bots only"),
    (("odds", "chess"), "unknown game"),
    (("replay", "/nonexistent/log.json"), "No such file"),
])
def test_bad_input_gives_one_clear_line(args, fragment):
    assert_one_line_error(run(*args), fragment)


def write_log(tmp_path, mutate):
    log = tmp_path / "game.json"
    run("play", "mia", "--players", "Anna,bot:random", "--seed", "3", "--log", str(log),
        input=ALWAYS)
    data = json.loads(log.read_text())
    mutate(data)
    log.write_text(json.dumps(data))
    return log


def test_replay_names_a_malformed_action(tmp_path):
    log = write_log(tmp_path, lambda d: d["events"][1].update(action="announce seven"))
    assert_one_line_error(run("replay", str(log)), "event 1: 'seven' is not a roll")


def test_replay_names_an_action_out_of_turn(tmp_path):
    log = write_log(tmp_path, lambda d: d["events"][1].update(seat=1))
    assert_one_line_error(run("replay", str(log)), "event 1: seat 1 acted out of turn")


def test_replay_refuses_a_corrupted_file(tmp_path):
    log = tmp_path / "broken.json"
    log.write_text('{"format": "kastkopp-log", "events": [')
    assert_one_line_error(run("replay", str(log)), "not valid JSON")


def test_an_error_with_brackets_is_printed_whole(tmp_path):
    log = tmp_path / "[draft] game.json"
    result = run("replay", str(log))
    assert_one_line_error(result, "[draft] game.json")

"""``kastkopp sheet``: whole games kept through the command line, as a table and as JSON."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app

# slow: fills whole sheets through the command line (seconds each)
pytestmark = pytest.mark.slow

runner = CliRunner()

# seed 003's worked example, typed as a player would: cells, names, or what happened
SEED_ROUNDS = [["0", "1", "0"], ["Anna"], ["loss", "Ben"], ["0", "0", "1"], ["-1", "0", "0"],
               ["Ben"], ["Cara"], ["0", "1", "0"], ["0", "1", "0"], ["0", "-", "1"],
               ["1", "—", "0"], ["Cara"], ["0", "-", "1"]]


def sheet(*args):
    return runner.invoke(app, ["sheet", *map(str, args)])


def ok(*args):
    result = sheet(*args)
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args, fragment):
    result = sheet(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and fragment in lines[0], result.stderr
    return lines[0]


def shown(path):
    return json.loads(ok("show", path, "--json"))


@pytest.fixture
def seed_file(tmp_path):
    path = tmp_path / "logne.sheet"
    ok("new", "liars_dice", "--players", "Anna,Ben,Cara", path)
    for entry in SEED_ROUNDS:
        ok("add", path, *entry)
    return path


def test_seed_worked_example_through_the_command_line_table_and_json(seed_file):
    table = ok("show", seed_file)
    assert "│ 5     │   −1 │   0 │    0 │         5 │        3 │         4 │" in table
    assert "│ 13    │    0 │   — │    1 │         4 │        — │         0 │" in table
    assert "1st Anna (4 dice)" in table and "finished: Anna wins" in table
    data = shown(seed_file)
    assert data["finished"] is True
    assert [{k: p[k] for k in ("name", "place", "dice")} for p in data["players"]] == [
        {"name": "Anna", "place": 1, "dice": 4}, {"name": "Ben", "place": 3, "dice": 0},
        {"name": "Cara", "place": 2, "dice": 0}]
    assert data["table"][10] == ["10", "0", None, "1", "5", None, "2"]


def test_set_start_dice_mid_game_recomputes_and_flags_through_the_command_line(seed_file):
    output = ok("set", seed_file, "dice=3")
    assert "! entry 8 (loss Ben): Ben is out since round 6" in output
    data = shown(seed_file)
    assert [(p["name"], p["place"], p["dice"]) for p in data["players"]] == [
        ("Anna", 1, 3), ("Ben", 3, 0), ("Cara", 2, 0)]
    assert [f["entry"] for f in data["flags"]] == [8, 9, 11, 12, 13]
    ok("undo", seed_file)
    assert shown(seed_file)["flags"] == [] and shown(seed_file)["redo"] == 1


def test_undo_and_redo_many_steps_and_an_empty_sheet_at_the_bottom(seed_file):
    ok("undo", seed_file, "--steps", "13")
    data = shown(seed_file)
    assert data["entries"] == [] and data["redo"] == 13 and data["finished"] is False
    refused("undo", seed_file, fragment="nothing to undo")
    ok("redo", seed_file, "--steps", "13")
    assert shown(seed_file)["finished"] is True
    refused("redo", seed_file, fragment="nothing to redo")


def test_players_can_be_inserted_renamed_and_moved(tmp_path):
    path = tmp_path / "s.sheet"
    ok("new", "liars_dice", "--players", "Anna,Ben", path)
    ok("add", path, "Ben")
    ok("insert", path, "Dora", "--at", "1")
    ok("rename", path, "Ben", "Bengt")
    ok("move", path, "Anna", "1")
    ok("add", path, "0", "1", "0")
    data = shown(path)
    assert [(p["name"], p["dice"]) for p in data["players"]] == [
        ("Anna", 5), ("Dora", 4), ("Bengt", 4)]
    assert data["table"][1] == ["1", "0", None, "1", "5", None, "4"]


def test_an_impossible_entry_is_one_clear_line_and_the_file_is_unchanged(seed_file):
    before = seed_file.read_bytes()
    refused("add", seed_file, "Anna", fragment="the game ended in round 13")
    refused("add", seed_file, "loss", "Bob", fragment="'Bob' is not a player here")
    refused("set", seed_file, "dice=9", fragment="must be at most 6")
    refused("set", seed_file, "colour=red", fragment="unknown rule 'colour'")
    assert seed_file.read_bytes() == before


def test_a_hand_edited_file_is_refused_naming_the_line_and_not_overwritten(seed_file):
    text = seed_file.read_text(encoding="utf-8").replace("add loss Cara", "add loss Carla", 1)
    seed_file.write_text(text, encoding="utf-8")
    refused("add", seed_file, "Anna", fragment="line 23: 'Carla' is not a player")
    refused("show", seed_file, fragment="line 23")
    assert seed_file.read_text(encoding="utf-8") == text


def test_new_refuses_to_overwrite_and_bad_games(tmp_path, seed_file):
    refused("new", "liars_dice", "--players", "Anna,Ben", seed_file, fragment="already exists")
    refused("new", "chess", "--players", "Anna,Ben", tmp_path / "x.sheet",
            fragment="no score sheet for 'chess'")
    refused("show", tmp_path / "missing.sheet", fragment="there is no sheet")


def test_export_csv_keeps_empty_cells_empty(seed_file):
    output = ok("export", seed_file, "--csv")
    lines = output.splitlines()
    assert lines[0] == "Round,Anna,Ben,Cara,Anna dice,Ben dice,Cara dice"
    assert lines[5] == "5,-1,0,0,5,3,4"
    assert lines[10] == "10,0,,1,5,,2"
    assert "1,Anna,4" in lines


def test_slosch_sheet_through_the_command_line(tmp_path):
    path = tmp_path / "slosch.sheet"
    ok("new", "mia", "--players", "Anna,Ben,Cara", "--rule", "lives=2", path)
    ok("add", path, "loss", "Ben", "slosch")
    ok("add", path, "Cara")
    output = ok("add", path, "0", "1")
    assert "finished: Anna wins" in output
    assert [(p["name"], p["place"], p["lives"]) for p in shown(path)["players"]] == [
        ("Anna", 1, 2), ("Ben", 3, 0), ("Cara", 2, 0)]


# Seed 004's Terningspoker, two players, every row, to the result against the average.
TERNINGSPOKER = [
    "Anna ones 1 1 1 1 2", "Ben ones 2 3 4 5 6", "Anna twos 2 2 3 4 5", "Ben twos 2 2 2 1 3",
    "Anna threes 3 3 3 1 2", "Ben threes 3 1 2 4 5", "Anna fours 44444", "Ben fours 4 4 1 2 3",
    "Anna fives 5 5 1 2 3", "Ben fives 5 5 5 5 1", "Anna sixes 6 6 6 6 1", "Ben sixes 6 6 1 2 3",
    "Anna pair 3 3 1 2 5 first", "Ben pair 6 6 1 2 3", "Anna to par 2 2 6 6 1", "Ben to par -",
    "Anna tre 5 5 5 2 1", "Ben tre 12", "Anna lille lige 1 2 3 4 5", "Ben lille lige -",
    "Anna stor lige 2 3 4 5 6 first", "Ben stor lige 2 3 4 5 6", "Anna full house 3 3 3 6 6",
    "Ben full house 2 2 2 5 5", "Anna four-kind -", "Ben four-kind 3 3 3 3 1",
    "Anna poker 6 6 6 6 6", "Ben poker -", "Anna chance 6 6 5 5 4", "Ben chance 16",
]


def test_a_terningspoker_sheet_filled_through_the_command_line_to_the_result(tmp_path):
    path = tmp_path / "terningspoker.sheet"
    ok("new", "yatzy", "--preset", "terningspoker", "--players", "Anna,Ben", path)
    refused("add", path, "Anna", "pair", "3", "3", "1", "2", "5",
            fragment="the upper part is filled first")
    for entry in TERNINGSPOKER:
        ok("add", path, *entry.split())
    table = ok("show", path)
    assert "Result" in table and "+104.5" in table and "-104.5" in table
    assert "–" in table  # the dashes: a combination not made
    data = shown(path)
    assert data["finished"] is True
    assert [(p["name"], p["place"], p["total"], p["result"]) for p in data["players"]] == [
        ("Anna", 1, 283, 104.5), ("Ben", 2, 74, -104.5)]
    rows = {row[0]: row[1:] for row in data["table"]}
    assert rows["Sum"] == ["8", "-14"] and rows["Bonus"] == ["50", None]
    assert rows["Poker"] == ["80", "–"] and rows["One pair"] == ["12", "12"]


YATZY = [
    "Anna ones 1 1 1 2 3", "Ben ones 2", "Anna twos 2 2 2 4 5", "Ben twos 4",
    "Anna threes 3 3 3 3 1", "Ben threes 9", "Anna fours 4 4 4 1 2", "Ben fours 8",
    "Anna fives 5 5 5 1 2", "Ben fives 10", "Anna sixes 6 6 6 1 2", "Ben sixes 12",
    "Anna pair 6 6 5 4 1", "Ben pair 10", "Anna two pairs 5 5 6 6 1", "Ben two pairs 14",
    "Anna three-kind 4 4 4 2 1", "Ben three-kind 9", "Anna four-kind 2 2 2 2 6",
    "Ben four-kind 0", "Anna small 1 2 3 4 5", "Ben small -", "Anna large 2 3 4 5 6",
    "Ben large 20", "Anna kåk 3 3 3 6 6", "Ben kåk 0", "Anna chance 6 6 5 5 4",
    "Ben chance 20", "Anna yatzy 4 4 4 4 4", "Ben yatzy 0",
]


def test_a_yatzy_sheet_filled_through_the_command_line_to_the_final_result(tmp_path):
    path = tmp_path / "yatzy.sheet"
    ok("new", "yatzy", "--players", "Anna,Ben", path)
    for entry in YATZY:
        ok("add", path, *entry.split())
    data = shown(path)
    assert data["finished"] is True and data["winner"] == "Anna"
    assert [(p["name"], p["place"], p["total"]) for p in data["players"]] == [
        ("Anna", 1, 302), ("Ben", 2, 118)]
    assert "finished: Anna wins" in ok("show", path)


def test_impossible_yatzy_entries_are_refused_with_the_reason(tmp_path):
    path = tmp_path / "yatzy.sheet"
    ok("new", "yatzy", "--players", "Anna,Ben", path)
    refused("add", path, "Anna", "fours", "31",
            fragment="31 is not a possible score in Fours (4, 8, 12, 16, 20)")
    refused("add", path, "Anna", "full", "house", "3", "3", "4", "4", "5",
            fragment="3 3 4 4 5 is not Full house: to cross the row out write 'Anna "
                     "full-house 0'")
    refused("add", path, "Anna", "full-house", "25", fragment="25 is not a possible score")
    ok("add", path, "Anna", "fours", "4", "4", "4", "1", "2")
    refused("add", path, "Anna", "fours", "16",
            fragment="Anna has already written 12 in Fours (entry 1)")
    refused("add", path, "Anna", "chance", "-", fragment="Chance is always made")


def test_a_knack_sheet_through_the_command_line(tmp_path):
    path = tmp_path / "knack.sheet"
    ok("new", "knack", "--players", "Anna,Ben,Cara", path)
    ok("add", path, "Anna", "3", "Ben", "3", "Cara", "6", "won", "Cara")
    output = ok("add", path, "double", "Ben", "won")
    assert "Ben balance" in output
    players = shown(path)["players"]
    assert [(p["name"], p["place"], p["balance"]) for p in players] == [
        ("Anna", 3, -3), ("Ben", 2, 1), ("Cara", 1, 2)]


def test_names_with_spaces_and_brackets_are_kept_as_typed(tmp_path):
    path = tmp_path / "s.sheet"
    ok("new", "liars_dice", "--players", "Anna Lisa,[Ben]", path)
    output = ok("add", path, "loss", "Anna Lisa")
    assert "Anna Lisa dice" in output and "[Ben] dice" in output
    refused("add", path, "loss", "[Bob]", fragment="'[Bob]' is not a player here")
    assert [p["dice"] for p in shown(path)["players"]] == [4, 5]


def test_edit_fixes_an_entry_that_a_rule_change_flagged(tmp_path):
    path = tmp_path / "s.sheet"
    ok("new", "liars_dice", "--players", "Anna,Ben,Cara", "--rule", "dice=2", path)
    ok("add", path, "Ben")
    ok("add", path, "Ben")
    assert "Ben is out since round 1" in ok("set", path, "dice=1")
    refused("edit", path, "2", "loss", "Ben", fragment="Ben is out since round 1")
    output = ok("edit", path, "2", "0", "-", "1")
    assert "!" not in output and "finished: Anna wins" in output
    assert shown(path)["entries"] == ["loss Ben", "loss Cara"]
    refused("edit", path, "3", "Anna", fragment="there is no entry 3")


def test_a_liar_dice_match_best_of_five_through_the_command_line(tmp_path):
    path = tmp_path / "menteur.sheet"
    ok("new", "poker_dice", "--preset", "best_of_5", "--players", "Anna,Bo", path)
    for winner in ["Anna", "Bo", "draw", "Bo", "Anna"]:
        ok("add", path, winner)
    assert shown(path)["finished"] is False
    output = ok("add", path, "won", "Anna")
    assert "finished: Anna wins" in output
    assert [(p["name"], p["place"], p["wins"]) for p in shown(path)["players"]] == [
        ("Anna", 1, 3), ("Bo", 2, 2)]
    refused("add", path, "Bo", fragment="the match is over: Anna 3, Bo 2")

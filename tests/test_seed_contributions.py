"""Dice nobody can choose: the client seed is made of every seated person's seed, and
``verify`` checks each contribution, every roll, and whether the log reaches the end."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import (
    CommitRevealDice,
    Contribution,
    combined_client_seed,
    faces_from_seed,
    is_client_seed,
)
from kastkopp.engine import Table, check_log, play_out, verify_log
from kastkopp.games import load
from kastkopp.strategy import make_bot

SERVER_SEED = bytes(range(32))
SEEDS = [Contribution(0, "Anna", "anna-1"), Contribution(1, "Ben", "b"),
         Contribution(2, "Cara", "c4f1")]


def finished_log(contributions: list[Contribution] = SEEDS) -> dict:
    """A whole game of Mia for three, its dice from the server seed and these seeds."""
    game = load("mia", players=3)
    table = Table(game, seats=["Anna", "Ben", "Cara"],
                  dice=CommitRevealDice.shared(SERVER_SEED, contributions))
    play_out(table, [make_bot(game, "random")] * 3, random.Random(5))
    return json.loads(table.dumps())


def first_rolls(contributions: list[Contribution], count: int = 8) -> list[tuple[int, ...]]:
    dice = CommitRevealDice.shared(SERVER_SEED, contributions)
    return [dice.roll(5) for _ in range(count)]


def test_the_dice_depend_on_every_contribution():
    rolls = first_rolls(SEEDS)
    for index in range(len(SEEDS)):
        changed = list(SEEDS)
        changed[index] = Contribution(SEEDS[index].seat, SEEDS[index].name,
                                      SEEDS[index].seed + "x")
        assert first_rolls(changed) != rolls, f"seat {index}'s seed made no difference"


def test_the_order_of_contributing_does_not_matter_but_the_seat_does():
    assert first_rolls(list(reversed(SEEDS))) == first_rolls(SEEDS)
    swapped = [Contribution(0, "Anna", "b"), Contribution(1, "Ben", "anna-1"), SEEDS[2]]
    assert first_rolls(swapped) != first_rolls(SEEDS)


def test_the_combination_is_unambiguous_where_plain_joining_would_not_be():
    # "a,1:1:b" as one seed against "a" and "b" for two seats: same characters, other text
    one = combined_client_seed([Contribution(0, "A", "a,1:1:b")])
    two = combined_client_seed([Contribution(0, "A", "a"), Contribution(1, "B", "b")])
    assert one == "0:7:a,1:1:b" and two == "0:1:a,1:1:b" and one != two
    with pytest.raises(ValueError, match="twice"):
        combined_client_seed([Contribution(0, "A", "a"), Contribution(0, "A", "b")])


def test_the_rolls_are_the_hmac_of_the_combined_seed_as_the_docs_say():
    dice = CommitRevealDice.shared(SERVER_SEED, SEEDS)
    assert dice.client_seed == "0:6:anna-1,1:1:b,2:4:c4f1"
    assert dice.roll(5) == faces_from_seed(SERVER_SEED, "0:6:anna-1,1:1:b,2:4:c4f1", 0, 5)


@pytest.mark.parametrize("text", ["", "has space", "x" * 65, "tab\t", "å", None, 7])
def test_a_seed_must_be_1_to_64_printable_characters(text):
    assert not is_client_seed(text)
    assert is_client_seed("x" * 64) and is_client_seed("3f9a-0c27_d1e8!")


def test_the_log_records_the_commitment_and_each_contribution():
    log = finished_log()
    assert log["dice"]["server_seed_sha256"] == CommitRevealDice(SERVER_SEED).commitment
    assert log["dice"]["contributions"] == [c.to_json() for c in SEEDS]
    result = check_log(log)
    assert result.verified and result.complete and result.contributions == tuple(SEEDS)
    assert result.rolls == sum(1 for e in log["events"] if e["type"] == "roll")


def test_verify_rejects_an_altered_contribution():
    log = finished_log()
    altered = copy.deepcopy(log)
    altered["dice"]["contributions"][1]["seed"] = "B"
    assert "not the combination" in verify_log(altered)[0]
    # altered together with the client seed, the rolls give it away
    altered["dice"]["client_seed"] = combined_client_seed(
        [Contribution.from_json(c) for c in altered["dice"]["contributions"]])
    assert any("not what the seed gives" in p for p in verify_log(altered))
    renamed = copy.deepcopy(log)
    renamed["dice"]["contributions"][0]["name"] = "Mallory"
    assert "is 'Mallory''s, but seat 0 is 'Anna'" in verify_log(renamed)[0]
    strange = copy.deepcopy(log)
    strange["dice"]["contributions"][2]["seat"] = 5
    strange["dice"]["client_seed"] = "0:6:anna-1,1:1:b,5:4:c4f1"
    assert any("not at the table" in p for p in verify_log(strange))
    removed = copy.deepcopy(log)
    del removed["dice"]["contributions"][0]
    assert verify_log(removed)


def test_verify_rejects_an_altered_roll():
    log = finished_log()
    roll = next(e for e in log["events"][3:] if e["type"] == "roll")
    roll["faces"] = [7 - f for f in roll["faces"]]
    result = check_log(log)
    assert not result.verified and "not what the seed gives" in result.problems[0]


def test_verify_reports_a_log_cut_before_its_last_roll_as_incomplete():
    log = finished_log()
    last_roll = max(i for i, e in enumerate(log["events"]) if e["type"] == "roll")
    cut = {**log, "events": log["events"][:last_roll]}
    result = check_log(cut)
    assert result.problems == () and not result.complete and not result.verified
    assert "before a roll" in result.unfinished
    before_end = check_log({**log, "events": log["events"][:last_roll + 1]})
    assert not before_end.complete and "to move" in before_end.unfinished


def test_kastkopp_verify_says_verified_incomplete_or_not_verified(tmp_path):
    log = finished_log()
    path = tmp_path / "log.json"
    runner = CliRunner()
    path.write_text(json.dumps(log))
    whole = runner.invoke(app, ["verify", str(path)])
    assert whole.exit_code == 0 and "Verified" in whole.output
    assert "Seat 2 (Ben) contributed the seed b." in whole.output
    path.write_text(json.dumps({**log, "events": log["events"][:-1]}))
    cut = runner.invoke(app, ["verify", str(path)])
    assert cut.exit_code == 3 and "incomplete" in cut.stderr
    assert "not a whole game" in cut.stderr and "Verified" not in cut.output
    altered = copy.deepcopy(log)
    altered["dice"]["contributions"][0]["seed"] = "anna-2"
    path.write_text(json.dumps(altered))
    refused = runner.invoke(app, ["verify", str(path)])
    assert refused.exit_code == 1 and "not verified" in refused.stderr


def test_an_old_log_with_one_client_seed_still_replays_and_verifies():
    game = load("mia", players=2)
    table = Table(game, seats=["Anna", "bot:random"],
                  dice=CommitRevealDice(server_seed=SERVER_SEED, client_seed="table-7"))
    play_out(table, [make_bot(game, "random")] * 2, random.Random(2))
    log = json.loads(table.dumps())
    assert "contributions" not in log["dice"] and log["version"] == 1
    assert check_log(log).verified
    assert Table.from_json(log).is_over()


def by_hand_check(log_path) -> None:
    """The standard-library recipe of docs/log-format.md, run as written."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "log-format.md").read_text()
    code = re.findall(r"```python\n(.*?)```", doc, re.S)[-1]
    exec(code.replace('open("log.json")', f"open({str(log_path)!r})"), {})


def test_the_by_hand_check_in_the_docs_verifies_a_log_and_catches_an_altered_seed(tmp_path):
    path = tmp_path / "log.json"
    log = finished_log()
    path.write_text(json.dumps(log))
    by_hand_check(path)
    log["dice"]["contributions"][2]["seed"] = "c4f2"
    path.write_text(json.dumps(log))
    with pytest.raises(AssertionError):
        by_hand_check(path)


def test_the_worked_example_in_the_docs_is_what_the_dice_give():
    dice = CommitRevealDice.shared(bytes(range(32)), [Contribution(0, "Anna", "anna-1"),
                                                      Contribution(1, "Ben", "b7")])
    doc = (Path(__file__).resolve().parent.parent / "docs" / "log-format.md").read_text()
    assert dice.commitment in doc and f"`{dice.client_seed}`" in doc
    assert (dice.roll(2), dice.roll(2)) == ((4, 1), (1, 3))

"""A forfeit (a player out of time at a table that plays 'lose') is an event of the log,
so replaying and verifying the log reproduce the result."""

from __future__ import annotations

import json
import random

import pytest

from kastkopp.dice import CommitRevealDice, SeededDice
from kastkopp.engine import IllegalAction, LogError, Table, play_out, verify_log
from kastkopp.games import load
from kastkopp.strategy import RandomBot


def forfeited_table() -> Table:
    table = Table(load("mia", players=3), dice=CommitRevealDice(client_seed="anna"))
    table.act(0, "announce 54")
    table.forfeit(1)
    return table


def test_a_forfeit_ends_the_game_with_that_seat_last():
    table = forfeited_table()
    assert table.events[-1] == {"seq": 2, "type": "forfeit", "seat": 1}
    assert table.is_over() and not table.state.is_over()
    outcome = table.outcome()
    assert outcome.ranking == ((0, 2), (1,)) and outcome.payoffs == (0.5, -1.0, 0.5)
    assert outcome.reason == "forfeit" and outcome.to_json()["reason"] == "forfeit"
    with pytest.raises(IllegalAction, match="over"):
        table.act(1, "call")
    with pytest.raises(IllegalAction, match="over"):
        table.forfeit(0)


def test_replay_and_verify_reproduce_a_forfeit():
    log = json.loads(json.dumps(forfeited_table().to_json()))
    assert "server_seed" in log["dice"]  # a forfeit ends the game: the seed is revealed
    replayed = Table.from_json(log)
    assert replayed.forfeited == 1 and replayed.outcome().ranking == ((0, 2), (1,))
    assert replayed.outcome().reason == "forfeit"
    assert verify_log(log) == []


def test_a_log_with_events_after_a_forfeit_is_refused():
    log = forfeited_table().to_json()
    log["events"].append({"seq": 3, "type": "action", "seat": 1, "action": "call"})
    with pytest.raises(LogError, match="event 3: an event after a forfeit"):
        Table.from_json(log)
    log["events"][-1] = {"seq": 3, "type": "forfeit", "seat": 0}
    with pytest.raises(LogError, match="event 3"):
        Table.from_json(log)
    log["events"][-2:] = [{"seq": 2, "type": "forfeit", "seat": 7}]
    with pytest.raises(LogError, match="event 2: a forfeit by seat 7"):
        Table.from_json(log)


def test_a_game_played_to_its_end_says_so():
    game = load("mia", players=2, lives=1)
    table = Table(game, dice=SeededDice(3))
    play_out(table, [RandomBot(), RandomBot()], random.Random(3))
    assert table.outcome().reason == "played"

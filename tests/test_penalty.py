"""A loss outside the rules (a table driven from outside: no answer in time, a refused
answer) is a ``penalty`` event of the log; games that cannot say what it costs refuse it."""

from __future__ import annotations

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import IllegalAction, LogError, Table
from kastkopp.games import load


def mia_round() -> Table:
    return Table(load("mia", preset="maexchen", players=3, rounds=2), seats=["a", "b", "c"],
                 dice=SeededDice(7))


def test_a_penalty_costs_a_round_and_play_goes_on_with_a_fresh_roll() -> None:
    table = mia_round()
    table.act(0, "announce 54")
    state = table.penalize(1, "DID_NOT_TAKE_TURN")
    last = state.view(None)["last_round"]
    assert last["losers"] == [1] and last["penalty"] == "DID_NOT_TAKE_TURN"
    assert last["dice"] is None  # nobody lifted the cup
    assert table.events[-2] == {"seq": 2, "type": "penalty", "seat": 1,
                                "reason": "DID_NOT_TAKE_TURN"}
    assert table.events[-1]["type"] == "roll" and state.to_move() == 1  # the loser starts
    replayed = Table.from_json(table.to_json())
    assert replayed.state == table.state and replayed.events == table.events


def test_a_penalty_in_the_last_round_ends_the_game_with_its_points() -> None:
    table = mia_round()
    table.penalize(0, "INVALID_TURN")
    table.penalize(0, "DID_NOT_ANNOUNCE")
    assert table.state.is_over()
    assert table.state.outcome().scores == (0.0, 2.0, 2.0)
    with pytest.raises(IllegalAction, match="over"):
        table.penalize(1, "DID_NOT_TAKE_TURN")
    shown = table.game.render(table.state.view(None), table.seats)
    assert "lost 1 point (DID_NOT_ANNOUNCE)" in shown


def test_a_game_without_a_rule_for_it_refuses_a_penalty_and_changes_nothing() -> None:
    table = Table(load("yatzy", players=2), dice=SeededDice(1))
    before = list(table.events)
    with pytest.raises(IllegalAction, match="no rule for a player who is penalised"):
        table.penalize(0, "left")
    assert table.events == before
    log = table.to_json()
    log["events"].append({"seq": len(before), "type": "penalty", "seat": 0, "reason": "x"})
    with pytest.raises(LogError, match=f"event {len(before)}: .*penalised"):
        Table.from_json(log)


def test_a_penalty_names_a_seat_at_the_table() -> None:
    table = mia_round()
    with pytest.raises(IllegalAction, match="no seat 5"):
        table.penalize(5, "DID_NOT_TAKE_TURN")

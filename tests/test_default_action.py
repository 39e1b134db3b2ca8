"""The move a table plays for a player whose time is up (``State.default_action``).

Every game, preset and position: the default is one of the legal actions, so a clock can
always play it. Then, game by game, that it is the passive choice the game's docstring says.
"""

from __future__ import annotations

import random

import pytest

from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.engine import Table
from kastkopp.games import load, registered

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_the_default_is_always_legal_and_a_game_ends_by_it(name, preset, players):
    game = load(name, preset=preset, players=players)
    for seed in range(2):
        table, rng = Table(game, dice=SeededDice(seed)), random.Random(seed)
        for step in range(3000):
            state = table.state
            if state.is_over():
                break
            seat, legal = state.to_move(), state.legal_actions()
            default = state.default_action()
            assert str(default) in {str(a) for a in legal}
            # half the moves by default, half at random, to reach every kind of position
            table.act(seat, default if step % 2 else rng.choice(legal))


def play(game_name: str, rolls: list[tuple[int, ...]], actions: list[str], players: int = 2,
         **rules):
    table = Table(load(game_name, players=players, **rules),
                  dice=ScriptedDice(rolls=rolls))
    for text in actions:
        table.act(table.state.to_move(), text)
    return table.state


def test_slosch_calls_and_a_roller_announces_the_lowest_value_whatever_the_dice():
    # the move is seen by everyone, so it must not tell them the roller's dice
    assert str(play("mia", [(5, 4)], []).default_action()) == "announce 31"
    assert str(play("mia", [(2, 1)], []).default_action()) == "announce 31"
    state = play("mia", [(5, 4)], []).apply("announce 65")
    assert str(state.default_action()) == "call"
    state = play("mia", [(6, 5), (3, 1)], ["announce 65", "roll"])
    assert str(state.default_action()) == "announce 66"  # 66 is next above 65


def test_liars_dice_challenges_and_opens_with_the_smallest_bid():
    state = load("liars_dice", players=2).new_state()
    table = Table(state.game, dice=SeededDice(1))
    assert str(table.state.default_action()) == str(table.state.legal_actions()[0])
    table.act(table.state.to_move(), str(table.state.legal_actions()[0]))
    assert str(table.state.default_action()) == "dudo"


def test_betting_games_fold_or_check_rather_than_pay():
    for name in ("knack", "linka"):
        table = Table(load(name, players=3), dice=SeededDice(4))
        seen = set()
        for _ in range(400):
            state = table.state
            if state.is_over():
                break
            legal = {str(a) for a in state.legal_actions()}
            default = str(state.default_action())
            if "fold" in legal:
                assert default in {"fold", "check"}, (legal, default)
                seen.add(default)
            if "knock" in legal:
                assert default == "knock"
            table.act(state.to_move(), random.Random(len(table.events)).choice(
                state.legal_actions()))
        assert "fold" in seen


def test_yatzy_scores_the_row_that_loses_least():
    # 1 1 2 3 5: the ones (2 of at most 5) lose least; chance (12 of 30) and Yatzy lose more
    state = play("yatzy", [(1, 1, 2, 3, 5)], [], players=1)
    assert str(state.default_action()) == "score ones"
    # a Yatzy of sixes goes in the Yatzy row
    state = play("yatzy", [(6, 6, 6, 6, 6)], [], players=1)
    assert str(state.default_action()) == "score yatzy"


def test_poker_dice_doubts_when_it_may():
    table = Table(load("poker_dice", players=2), dice=SeededDice(3))
    while "doubt" not in {str(a) for a in table.state.legal_actions()}:
        table.act(table.state.to_move(), table.state.default_action())
    assert str(table.state.default_action()) == "doubt"

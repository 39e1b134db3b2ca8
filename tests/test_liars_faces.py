"""Liar's dice with dice of fewer faces (the ``faces`` rule): small games for solvers."""

from __future__ import annotations

import random

import pytest

from kastkopp.dice import CommitRevealDice
from kastkopp.engine import IllegalAction, RuleError, Table, play_out, verify_log
from kastkopp.games import load
from kastkopp.strategy import make_bot


def four_faced(players: int = 2):
    return load("liars_dice", preset="lognare", players=players, dice=2, faces=4)


def test_dice_of_four_faces_roll_and_bid_one_to_four() -> None:
    game = four_faced()
    state = game.new_state()
    assert state.chance().sides == 4
    assert {str(a) for a in game.all_actions()} == {
        f"bid {q}x{f}" for q in range(1, 5) for f in range(1, 5)} | {"dudo"}
    state = state.resolve((4, 1)).resolve((2, 2))
    assert max(b.face for b in state.legal_bids()) == 4
    with pytest.raises(IllegalAction, match="a die shows 1 to 4, not 5"):
        state.apply("bid 1x5")
    with pytest.raises(IllegalAction):
        state.resolve((5, 1))


def test_a_game_on_four_faced_dice_is_played_by_bots_and_its_log_verifies() -> None:
    game = four_faced(players=3)
    table = Table(game, dice=CommitRevealDice(client_seed="faces"))
    play_out(table, [make_bot(game, "random") for _ in range(3)], random.Random(3))
    rolls = [e for e in table.events if e["type"] == "roll"]
    assert rolls and all(1 <= f <= 4 for e in rolls for f in e["faces"])
    log = table.to_json()
    assert verify_log(log) == []
    changed = next(e for e in log["events"] if e["type"] == "roll" and e["faces"][0] != 4)
    changed["faces"][0] = 4
    assert any("not what the seed gives" in p for p in verify_log(log))


def test_fewer_faces_go_only_with_bids_on_a_face_from_a_cup_each() -> None:
    with pytest.raises(RuleError, match="set faces=6"):
        load("liars_dice", preset="common_hand", faces=4)
    with pytest.raises(RuleError, match="'faces' must be at least 2"):
        load("liars_dice", faces=1)

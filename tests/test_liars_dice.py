"""Liar's dice: every rule of seeds 000 and 003 and the house rules, each test named after it.

The conformance suite already plays every preset at random, replays logs and checks that
views hide other cups; these tests pin down the rules with chosen dice.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import ScriptedDice, SeededDice, multisets
from kastkopp.engine import IllegalAction, RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.liars_dice import (
    HANDS,
    Bid,
    Calza,
    CommonHandState,
    Dudo,
    Hand,
    HandBid,
    LiarsRules,
    LiarsState,
    SingleHandState,
    best_hand,
    parse_hand,
)
from kastkopp.sheets import Sheet
from kastkopp.strategy import bot_names, make_bot
from kastkopp.strategy.liars_odds import bid_chance, exact_chance, hand_chance
from kastkopp.strategy.odds import odds_for

runner = CliRunner()


def game(preset: str | None = "perudo", players: int = 3, **rules):
    return load("liars_dice", preset=preset, players=players, **rules)


def rolled(start, *cups) -> LiarsState:
    """Roll the cups of a round: ``cups[seat]`` for every seat still in."""
    state = start.new_state() if hasattr(start, "new_state") else start
    while (chance := state.chance()) is not None:
        state = state.resolve(cups[chance.seat])
    return state


def play(state: LiarsState, *actions: str) -> LiarsState:
    for action in actions:
        state = state.apply(action)
    return state


def bids(state: LiarsState) -> list[str]:
    return [a.short for a in state.legal_bids()]


FIVES = (5, 5, 2, 3, 4)
ONES = (1, 1, 2, 3, 6)
NOTHING = (2, 3, 4, 6, 6)


# --------------------------------------------------------------------------- bidding


def test_the_first_bid_of_a_round_may_be_any_count_and_face_without_wilds():
    state = rolled(game("lognare", 2), FIVES, NOTHING)
    assert state.to_move() == 0
    assert bids(state)[:7] == ["1x1", "1x2", "1x3", "1x4", "1x5", "1x6", "2x1"]
    assert len(bids(state)) == 10 * 6
    assert Dudo() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no bid to challenge yet"):
        state.apply("dudo")


def test_a_raise_is_more_of_any_face_or_the_same_count_of_a_higher_face():
    state = play(rolled(game("lognare", 2), FIVES, NOTHING), "bid 3x4")
    for legal in ("bid 3x5", "bid 3x6", "bid 4x1", "bid 4x2", "bid 9x3"):
        state.apply(legal)
    for illegal in ("bid 3x4", "bid 3x3", "bid 2x6", "bid 1x1"):
        with pytest.raises(IllegalAction, match="not higher than 3x4"):
            state.apply(illegal)


def test_an_illegal_bid_says_what_the_smallest_legal_bid_is():
    state = play(rolled(game("perudo", 2), FIVES, NOTHING), "bid 4x6")
    with pytest.raises(IllegalAction) as refused:
        state.apply("bid 4x5")
    assert str(refused.value) == ("4x5 is not higher than 4x6; the smallest legal bid is 2x1 "
                                  "(not on ones: 5x2)")
    state = play(rolled(game("perudo", 2), FIVES, NOTHING), "bid 4x5")
    with pytest.raises(IllegalAction, match=r"the smallest legal bid is 4x6 \(on ones: 2x1\)$"):
        state.apply("bid 3x6")
    with pytest.raises(IllegalAction, match=r"the smallest legal bid is 4x5$"):
        play(rolled(game("lognare", 2), FIVES, NOTHING), "bid 4x4").apply("bid 2x2")


def test_an_opening_bid_on_ones_is_illegal_when_ones_are_wild():
    state = rolled(game("perudo", 2), FIVES, NOTHING)
    assert not any(b.endswith("x1") for b in bids(state))
    with pytest.raises(IllegalAction, match="cannot open on ones; the smallest legal bid is 1x2"):
        state.apply("bid 2x1")
    # without wild ones, ones are an ordinary face and may open
    play(rolled(game("lognare", 2), FIVES, NOTHING), "bid 2x1")


def test_moving_to_ones_needs_half_the_count_rounded_up():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 5x4")
    with pytest.raises(IllegalAction, match="on ones: 3x1"):
        state.apply("bid 2x1")
    state.apply("bid 3x1")
    play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 4x4", "bid 2x1")


def test_leaving_ones_needs_twice_the_ones_count_plus_one():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 5x4", "bid 3x1")
    for illegal in ("bid 6x6", "bid 5x2", "bid 3x6"):
        with pytest.raises(IllegalAction, match=r"smallest legal bid is 7x2 \(on ones: 4x1\)"):
            state.apply(illegal)
    state.apply("bid 7x2")
    state.apply("bid 4x1")


def test_the_maximum_count_is_every_die_on_the_table():
    state = play(rolled(game("lognare", 2), FIVES, NOTHING), "bid 10x6")
    assert [str(a) for a in state.legal_actions()] == ["dudo"]
    with pytest.raises(IllegalAction, match="only 10 dice on the table; nothing is higher"):
        state.apply("bid 11x6")
    # with wild ones, ten sixes can still go to ones (half, rounded up), and no further
    state = play(rolled(game("perudo", 2), FIVES, NOTHING), "bid 10x6")
    assert bids(state) == [f"{k}x1" for k in range(5, 11)]
    state = state.apply("bid 10x1")
    assert [str(a) for a in state.legal_actions()] == ["dudo", "calza"]


# --------------------------------------------------------------------------- challenges


def test_a_challenge_counts_the_face_plus_all_ones_when_ones_are_wild():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 4x5", "dudo")
    last = state.view(None)["last_round"]
    assert last["actual"] == 4  # two fives and two ones
    assert last["seat"] == 1 and state.stock == (5, 4, 5)  # the bid held: the challenger lost


def test_a_challenge_counts_only_the_face_without_wilds():
    state = play(rolled(game("lognare", 3), FIVES, NOTHING, ONES), "bid 4x5", "dudo")
    assert state.view(None)["last_round"]["actual"] == 2
    assert state.stock == (4, 5, 5)  # fewer than bid: the bidder lost a die


def test_exactly_the_bid_count_means_the_challenger_loses():
    state = play(rolled(game("lognare", 2), FIVES, NOTHING), "bid 2x5", "dudo")
    assert state.stock == (5, 4)


def test_the_bid_on_ones_counts_only_ones():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 2x3", "bid 3x1", "dudo")
    assert state.view(None)["last_round"]["actual"] == 2
    assert state.stock == (5, 4, 5)  # seat 1 bid three ones and there were two


def test_the_loser_starts_the_next_round():
    state = play(rolled(game("lognare", 3), FIVES, NOTHING, ONES), "bid 4x5", "dudo")
    assert state.chance().seat == 0  # the loser rolls first and opens
    state = rolled(state, FIVES[:4], NOTHING, ONES)
    assert state.to_move() == 0


def test_when_the_loser_is_out_the_next_player_starts():
    state = play(rolled(game("lognare", 3, dice=1), (5,), (2,), (3,)), "bid 1x6", "dudo")
    assert state.stock == (0, 1, 1)
    assert state.chance().seat == 1 and rolled(state, None, (4,), (4,)).to_move() == 1


def test_a_loss_that_eliminates_takes_the_player_out_of_the_game():
    state = play(rolled(game("lognare", 3, dice=1), (5,), (2,), (3,)), "bid 1x6", "dudo")
    view = state.view(None)
    assert view["alive"] == [False, True, True] and view["dice_counts"] == [0, 1, 1]
    state = rolled(state, None, (4,), (6,))
    assert state.cups[0] is None and state.total_dice() == 2
    state = play(state, "bid 1x4")
    assert state.to_move() == 2  # the player who is out is skipped
    assert state.view(None)["sheet"] == [[1, 0, 0]]
    state = state.apply("dudo")
    assert state.view(None)["sheet"][-1] == [None, 0, 1]  # an eliminated player's cell is empty


def test_the_last_two_players_play_on_and_the_game_ends_with_one():
    state = play(rolled(game("lognare", 3, dice=1), (5,), (2,), (3,)), "bid 1x6", "dudo")
    state = play(rolled(state, None, (4,), (6,)), "bid 1x4", "dudo")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.ranking == ((1,), (2,), (0,))  # seat 0 went out first, so it is last
    assert outcome.payoffs == (-0.5, 1.0, -0.5)
    assert state.legal_actions() == []


def test_final_ranking_is_by_time_of_elimination():
    g = game("lognare", 4, dice=1)
    state = play(rolled(g, (5,), (2,), (3,), (4,)), "bid 1x6", "dudo")  # seat 0 out
    state = play(rolled(state, None, (2,), (3,), (4,)), "bid 1x2", "bid 1x6", "dudo")  # seat 2
    state = play(rolled(state, None, (2,), None, (4,)), "bid 1x5", "dudo")  # seat 3 out
    assert state.is_over()
    assert state.outcome().ranking == ((1,), (3,), (2,), (0,))
    assert state.view(None)["out_round"] == [0, None, 1, 2]


def test_the_score_sheet_changes_one_player_per_round_and_dice_are_derived():
    state = rolled(game("perudo", 3), FIVES, NOTHING, ONES)
    state = play(state, "bid 4x5", "dudo")
    state = play(rolled(state, FIVES, NOTHING[:4], ONES), "bid 9x6", "dudo")
    sheet = state.view(None)["sheet"]
    assert sheet == [[0, 1, 0], [0, 1, 0]]
    assert all(sum(1 for cell in row if cell) == 1 for row in sheet)
    assert state.stock == tuple(5 - sum(row[s] for row in sheet) for s in range(3))


# --------------------------------------------------------------------------- exact calls


def lost_one(preset="perudo", **rules) -> LiarsState:
    """Round two of three players, seat 1 down to four dice and opening."""
    state = play(rolled(game(preset, 3, **rules), FIVES, NOTHING, ONES), "bid 4x5", "dudo")
    return rolled(state, FIVES, NOTHING[:4], ONES)


def test_an_exact_call_at_a_full_hand_is_written_0_and_the_caller_starts():
    state = play(lost_one(), "bid 4x6", "calza")
    assert state.view(None)["last_round"]["actual"] == 4
    assert state.stock == (5, 4, 5)
    assert state.view(None)["sheet"][-1] == [0, 0, 0]
    assert state.chance().seat == 2


def test_an_exact_call_below_a_full_hand_wins_one_die_never_above_the_start():
    state = play(lost_one(), "bid 2x3", "bid 3x3", "bid 5x2")  # seat 0 bids five twos
    # twos: one each in seats 0 and 1, one and two wild ones in seat 2; seat 1 calls it
    state = state.apply("calza")
    assert state.view(None)["last_round"]["actual"] == 5
    assert state.stock == (5, 5, 5)
    assert state.view(None)["sheet"][-1] == [0, -1, 0]


def test_a_wrong_exact_call_costs_the_caller_a_die():
    state = play(lost_one(), "bid 4x6", "bid 5x6", "calza")
    assert state.stock == (4, 4, 5)
    assert state.view(None)["last_round"]["holds"] is False


def test_exact_gain_off_makes_a_right_exact_call_cost_the_bidder():
    state = play(lost_one(exact_gain="off"), "bid 4x6", "calza")
    assert state.stock == (5, 3, 5)  # seat 1 bid exactly right and still lost a die
    assert state.chance().seat == 1


def test_no_exact_calls_variant_refuses_calza():
    state = play(rolled(game("perudo", 3, exact_call="off"), FIVES, NOTHING, ONES), "bid 4x6")
    assert Calza() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="exact calls are not played at this table"):
        state.apply("calza")


def test_exact_calls_only_while_three_or_more_players_remain():
    state = play(rolled(game("perudo", 3, exact_call="three_plus"), FIVES, NOTHING, ONES),
                 "bid 4x6")
    assert Calza() in state.legal_actions()
    state = play(rolled(game("perudo", 2, exact_call="three_plus"), FIVES, NOTHING), "bid 4x6")
    assert Calza() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="three or more players remain"):
        state.apply("calza")


# --------------------------------------------------------------------------- come-back

# Anna (seat 0) loses two rounds and falls to one die; in the palifico round she calls the
# exact count. Three dice each, so a come-back (back to three) differs from winning one die.
TO_ONE = [(2, 3, 4), (5, 5, 6), (6, 6, 2),  # 5x6 by Anna is called: three sixes
          (2, 3), (5, 5, 6), (6, 6, 2)]  # again: Anna is down to one die
PALIFICO_FOURS = [(4,), (4, 4, 2), (6, 6, 3)]  # three fours, ones not wild
TO_ONE_ACTIONS = [(0, "bid 5x6"), (1, "dudo"), (0, "bid 5x6"), (1, "dudo")]
EXACT_ACTIONS = [(0, "bid 1x4"), (1, "bid 2x4"), (2, "bid 3x4"), (0, "calza")]
# a table rolls the next round as soon as one ends: the cups after Anna is back at three,
# after she won one die, and after she is out
NEXT = {3: [(1, 2, 3)] * 3, 2: [(1, 2), (1, 2, 3), (1, 2, 3)], 0: [(1, 2, 3)] * 2}


def scripted(rolls, actions, **rules) -> Table:
    g = game("come_back", 3, dice=3, **rules)
    table = Table(g, seats=["Anna", "Ben", "Cara"], dice=ScriptedDice(rolls=list(rolls)))
    for seat, action in actions:
        table.act(seat, action)
    return table


def test_come_back_a_player_on_one_die_who_wins_an_exact_call_returns_to_the_start():
    table = scripted([*TO_ONE, *PALIFICO_FOURS, *NEXT[3]],
                     [*TO_ONE_ACTIONS, *EXACT_ACTIONS[:3]])
    assert table.state.stock == (1, 3, 3) and table.state.palifico == 0
    table.act(0, "calza")
    state = table.state
    assert state.stock == (3, 3, 3)
    view = state.view(1)
    assert view["sheet"] == [[1, 0, 0], [1, 0, 0], [-2, 0, 0]]  # the cell that brings her back
    assert view["came_back"] == [0]
    assert view["last_round"]["come_back"] is True and view["last_round"]["change"] == -2
    assert "Anna comes back to 3 dice" in state.game.render(view, ["Anna", "Ben", "Cara"])
    assert state.to_move() == 0  # the caller, whose count changed, opens the next round
    assert state.palifico is None


def test_come_back_happens_once_a_game_the_second_exact_call_on_one_die_wins_one():
    once = [*TO_ONE_ACTIONS, *EXACT_ACTIONS]
    table = scripted([*TO_ONE, *PALIFICO_FOURS] * 2 + NEXT[2], once * 2)
    state = table.state
    assert state.stock == (2, 3, 3)
    assert [row[0] for row in state.sheet] == [1, 1, -2, 1, 1, -1]
    assert state.view(None)["came_back"] == [0]
    assert "come_back" not in state.last_round
    # the log replays to the same state, the come-back included
    assert Table.loads(table.dumps()).state == state
    # a score sheet kept at the table agrees
    sheet = Sheet.new("liars_dice", ["Anna", "Ben", "Cara"], preset="come_back", dice=3)
    for row in state.sheet:
        sheet = sheet.add("exact Anna" if row[0] < 0 else "Anna")  # every round is hers
    derived = sheet.derive()
    assert [s.count for s in derived.standings] == list(state.stock)
    assert [r[1] for r in derived.grid[1:]] == ["1", "1", "−2", "1", "1", "−1"]


def test_come_back_off_a_right_exact_call_on_one_die_wins_one_die():
    table = scripted([*TO_ONE, *PALIFICO_FOURS, *NEXT[2]], [*TO_ONE_ACTIONS, *EXACT_ACTIONS],
                     come_back="off")
    assert table.state.stock == (2, 3, 3) and table.state.sheet[-1] == (-1, 0, 0)
    assert table.state.came_back == ()


def test_come_back_a_wrong_exact_call_on_one_die_is_out_and_nobody_comes_back_from_zero():
    actions = [*TO_ONE_ACTIONS, (0, "bid 1x4"), (1, "bid 2x4"), (2, "bid 4x4"), (0, "calza")]
    state = scripted([*TO_ONE, *PALIFICO_FOURS, *NEXT[0]], actions).state
    assert state.stock == (0, 3, 3) and state.sheet[-1] == (1, 0, 0)
    assert state.came_back == ()
    assert state.cups[0] is None and state.to_move() == 1  # out: no cup, no turn


def test_come_back_in_lives_mode_returns_to_the_start_lives():
    # hands stay at three dice; Anna loses two of three lives, then calls three fours right
    rolls = [*TO_ONE[:3], *TO_ONE[:3], (4, 5, 5), (4, 4, 2), (6, 6, 3), *NEXT[3]]
    table = scripted(rolls, [*TO_ONE_ACTIONS, *EXACT_ACTIONS], loss="life", lives=3,
                     palifico="off")
    assert table.state.stock == (3, 3, 3) and table.state.sheet[-1] == (-2, 0, 0)
    assert "Anna comes back to 3 lives" in table.game.render(table.state.view(0),
                                                             ["Anna", "Ben", "Cara"])


def test_come_back_is_refused_where_it_could_never_happen():
    with pytest.raises(RuleError, match="set exact_call=on, or come_back=off"):
        game("come_back", exact_call="off")
    with pytest.raises(RuleError, match="set exact_gain=on, or come_back=off"):
        game("perudo", come_back="on", exact_gain="off")
    with pytest.raises(RuleError, match="exact_call=on, or come_back=off"):
        game("common_hand", come_back="on")
    with pytest.raises(RuleError, match="set dice=2 or more, or come_back=off"):
        game("come_back", dice=1)
    with pytest.raises(RuleError, match="set lives=2 or more, or come_back=off"):
        game("come_back", loss="life", lives=1)
    assert game("come_back", exact_call="three_plus").rules.come_back is True
    assert game().rules.come_back is False  # a house rule, off by default


# --------------------------------------------------------------------------- palifico


def palifico() -> LiarsState:
    """Three players with two dice; seat 0 loses its first die and falls to one."""
    state = rolled(game("perudo", 3, dice=2), (2, 3), (4, 4), (5, 6))
    return play(state, "bid 5x6", "dudo")


def test_palifico_the_player_on_one_die_opens():
    state = palifico()
    assert state.stock == (1, 2, 2) and state.palifico == 0
    state = rolled(state, (1,), (1, 4), (4, 6))
    assert state.to_move() == 0
    assert state.view(1)["palifico"] == 0


def test_palifico_ones_are_not_wild_and_may_open():
    state = rolled(palifico(), (1,), (1, 4), (4, 6))
    assert bids(state)[0] == "1x1"  # ones are an ordinary face in palifico
    state = play(state, "bid 2x4", "dudo")
    assert state.view(None)["last_round"]["actual"] == 2  # two fours; the ones do not count
    assert state.view(None)["last_round"]["wild"] is False


def test_palifico_locks_the_opening_face_and_only_the_count_rises():
    state = play(rolled(palifico(), (1,), (1, 4), (4, 6)), "bid 1x4")
    assert bids(state) == ["2x4", "3x4", "4x4", "5x4"]
    with pytest.raises(IllegalAction, match="locked to 4s and only the count rises; the "
                                            "smallest legal bid is 2x4"):
        state.apply("bid 2x5")


def test_palifico_is_the_round_after_a_fall_to_one_die_and_only_then():
    round_two = rolled(palifico(), (1,), (1, 4), (4, 6))
    state = play(round_two, "bid 1x4", "dudo")  # seat 1 doubts one four and falls to one
    assert state.stock == (1, 1, 2) and state.palifico == 1
    state = play(round_two, "bid 3x4", "dudo")  # seat 0 goes from one die to none
    assert state.stock == (0, 2, 2) and state.palifico is None
    assert rolled(state, None, (1, 4), (4, 6)).view(None)["ones_wild"] is True


def test_palifico_off_keeps_ones_wild_in_the_round_after_a_fall():
    state = rolled(game("perudo", 3, dice=2, palifico="off"), (2, 3), (4, 4), (5, 6))
    state = rolled(play(state, "bid 5x6", "dudo"), (1,), (1, 4), (4, 6))
    assert state.palifico is None and state.view(None)["ones_wild"]
    assert "1x1" not in bids(state)


# --------------------------------------------------------------------------- costs of a loss


def test_lives_mode_keeps_the_hand_size_and_costs_a_life():
    g = game("perudo", 2, loss="life", lives=3)
    state = play(rolled(g, FIVES, NOTHING), "bid 9x5", "dudo")
    assert state.stock == (2, 3)
    assert state.chance().count == 5  # still five dice to roll
    state = rolled(state, FIVES, NOTHING)
    assert state.view(None)["dice_counts"] == [5, 5] and state.total_dice() == 10


def test_lives_mode_loses_the_game_at_zero_lives():
    state = rolled(game("perudo", 2, loss="life", lives=1), FIVES, NOTHING)
    state = play(state, "bid 9x5", "dudo")
    assert state.is_over() and state.outcome().winners == (1,)


def test_dudo_difference_costs_the_difference_between_bid_and_count():
    state = play(rolled(game("dudo", 3), FIVES, NOTHING, ONES), "bid 2x5", "dudo")
    assert state.view(None)["last_round"]["actual"] == 4
    assert state.stock == (5, 3, 5)  # four where two were bid: the challenger loses two
    state = play(rolled(game("dudo", 3), FIVES, NOTHING, ONES), "bid 8x5", "dudo")
    assert state.stock == (1, 5, 5)  # four where eight were bid: the bidder loses four
    state = play(rolled(game("dudo", 3), FIVES, NOTHING, ONES), "bid 4x5", "dudo")
    assert state.stock == (5, 4, 5)  # exactly right: still one die


def test_dudo_difference_is_told_in_dice():
    state = play(rolled(game("dudo", 3), FIVES, NOTHING, ONES), "bid 2x5", "dudo")
    text = state.game.render(state.view(0), ["Anna", "Ben", "Cara"])
    assert "there were 4 — Ben lost 2 dice." in text


def test_dudo_difference_never_costs_more_than_a_player_has():
    state = play(rolled(game("dudo", 2, dice=2), (5, 5), (6, 6)), "bid 4x2", "dudo")
    assert state.stock == (0, 2) and state.is_over()


# --------------------------------------------------------------------------- the table


def test_two_to_ten_players():
    for players in (2, 10):
        assert game(players=players).new_state().chance().count == 5
    for players in (1, 11):
        with pytest.raises(RuleError, match="2 to 10 players"):
            game(players=players)


def test_dice_per_player_are_1_to_6():
    assert rolled(game(dice=6), *[(6,) * 6] * 3).total_dice() == 18
    for dice in (0, 7):
        with pytest.raises(RuleError, match="rule 'dice'"):
            game(dice=dice)


def test_every_house_rule_is_settable_with_help():
    names = {spec.name: spec for spec in LiarsRules.specs()}
    for rule_name in ("dice", "ones_wild", "palifico", "exact_call", "exact_gain", "loss",
                      "lives", "keep_eliminated", "penalty", "hand", "bids", "come_back"):
        assert names[rule_name].help
    assert names["exact_call"].choices == ("on", "three_plus", "off")
    assert set(LiarsRules.PRESETS) == {"lognare", "perudo", "dudo", "common_hand",
                                       "single_hand", "come_back"}
    assert set(LiarsRules.PRESET_HELP) == set(LiarsRules.PRESETS)
    assert game("perudo").rules == LiarsRules()  # Perudo is seed 003's defaults


def test_rules_that_do_not_go_together_are_refused_with_a_reason():
    with pytest.raises(RuleError, match="poker-hand bids do not go with 'ones_wild'"):
        game("common_hand", ones_wild="on")
    with pytest.raises(RuleError, match="set loss=life"):
        game("single_hand", loss="die")
    with pytest.raises(RuleError, match="one die in the shared cup makes no poker hand"):
        game("single_hand", dice=1)
    with pytest.raises(RuleError, match="unknown rule"):
        game(wilds="on")


def test_views_show_own_dice_all_bids_and_everyones_dice_counts():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 2x5", "bid 3x6")
    view = state.view(2)
    assert view["your_dice"] == sorted(ONES)
    assert view["dice_counts"] == [5, 5, 5]
    assert [h["action"] for h in view["history"]] == ["bid 2x5", "bid 3x6"]
    assert view["bid"] == "3x6" and view["bidder"] == 1
    assert "your_dice" not in state.view(None)
    assert view["last_round"] is None and "cups" not in view


def test_every_cup_is_shown_to_everyone_after_a_challenge():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 2x5", "dudo")
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["last_round"]["cups"] == [list(FIVES), list(NOTHING),
                                                          list(ONES)]


def test_keep_eliminated_off_leaves_players_who_are_out_off_the_table_shown():
    state = play(rolled(game("lognare", 3, dice=1), (5,), (2,), (3,)), "bid 1x6", "dudo")
    names = ["Anna", "Ben", "Cara"]
    assert "Anna out" in state.game.render(state.view(1), names)
    g = game("lognare", 3, dice=1, keep_eliminated="off")
    state = play(rolled(g, (5,), (2,), (3,)), "bid 1x6", "dudo")
    assert state.view(1)["shown"] == [1, 2]
    assert "Anna" not in state.game.render(state.view(1), names).split("\n")[1]


def test_render_shows_the_table_the_bid_and_your_dice():
    state = play(rolled(game("perudo", 3), FIVES, NOTHING, ONES), "bid 2x5", "dudo")
    state = play(rolled(state, FIVES, NOTHING[:4], ONES), "bid 3x3")
    text = state.game.render(state.view(0), ["Anna", "Ben", "Cara"])
    assert "ones wild" in text and "Dice: Anna (5), Ben (4), Cara (5)" in text
    assert "Ben: bid 3x3" in text and "Bid: 3x3 by Ben" in text
    assert "Your dice: 2 3 4 5 5" in text
    text = state.apply("dudo").game.render(state.apply("dudo").view(0), ["Anna", "Ben", "Cara"])
    assert "Cara called dudo on Ben's 3x3: there were 5 — Cara lost 1 die." in text


def test_notation_reads_the_words_players_use():
    g = game("perudo")
    for text in ("dudo", "call", "Lögnare", "liar", "LIAR"):
        assert g.parse_action(text) == Dudo()
    assert g.parse_action("calza") == Calza() == g.parse_action("exact")
    for text in ("bid 4x5", "4x5", "bid 4 5", "  BID 4X5 ", "bid 4x5s"):
        assert g.parse_action(text) == Bid(4, 5)
    for nonsense in ("", "bid", "bid 0x5", "bid 4x7", "bid x5", "raise 3", "keep 6"):
        with pytest.raises(IllegalAction) as refused:
            g.parse_action(nonsense)
        assert "\n" not in str(refused.value)


def test_bad_input_changes_nothing():
    state = rolled(game("perudo", 3), FIVES, NOTHING, ONES)
    before = repr(state)
    for text in ("bid 99x5", "bid 1x1", "dudo", "calza"):
        with pytest.raises(IllegalAction):
            state.apply(text)
    assert repr(state) == before


def test_a_whole_game_replays_from_its_log():
    g = game("perudo", 4)
    table = Table(g, seats=["Anna", "Ben", "Cara", "Dan"], dice=SeededDice(3))
    bots = [make_bot(g, "strong"), make_bot(g, "naive"), make_bot(g, "random"),
            make_bot(g, "strong")]
    outcome = play_out(table, bots, random.Random(3))
    replayed = Table.loads(table.dumps())
    assert replayed.state == table.state and replayed.state.outcome() == outcome


# --------------------------------------------------------------------------- poker hands


def test_common_hand_bids_are_poker_hands_made_from_all_dice_on_the_table():
    state = rolled(game("common_hand", 2), (6, 6, 2, 3, 4), (6, 2, 5, 1, 1))
    assert state.legal_bids()[0] == HandBid(Hand("pair", 2))
    state = play(state, "bid full house 6 2", "dudo")  # three sixes over two twos
    assert state.view(None)["last_round"]["holds"] is True and state.stock == (5, 4)
    state = play(rolled(game("common_hand", 2), (6, 6, 2, 3, 4), (6, 2, 5, 1, 1)),
                 "bid four 6", "dudo")
    assert state.stock == (4, 5)


def test_poker_hands_rank_pair_two_pair_three_straights_full_four_five_ace_high():
    kinds = [h.kind for h in HANDS]
    assert kinds.index("pair") < kinds.index("two pair") < kinds.index("three") \
        < kinds.index("low straight") < kinds.index("high straight") \
        < kinds.index("full house") < kinds.index("four") < kinds.index("five")
    assert [str(h) for h in HANDS[:6]] == ["pair 2", "pair 3", "pair 4", "pair 5", "pair 6",
                                          "pair 1"]
    assert parse_hand("two pair 3 6") == Hand("two pair", 6, 3)
    assert parse_hand("two pair 1 6").key > parse_hand("two pair 6 5").key  # aces high
    assert parse_hand("3x4") == Hand("three", 4) and parse_hand("full 1 2").size == 5
    state = play(rolled(game("common_hand", 2), FIVES, NOTHING), "bid three 6")
    with pytest.raises(IllegalAction, match="not higher than three 6; the smallest legal bid "
                                            "is three 1"):
        state.apply("bid two pair 1 6")


def test_the_best_hand_of_dice_is_the_highest_hand_they_make():
    for faces, _ in multisets(5):
        made = [h for h in HANDS if h.made_by(faces)]
        assert best_hand(faces) == (made[-1] if made else None), faces


def test_a_poker_hand_bid_never_needs_more_dice_than_the_table_holds():
    state = rolled(game("common_hand", 2, dice=2), (1, 1), (3, 4))
    assert max(len(h.hand.needs()) for h in state.legal_bids()) <= 2
    assert all(h.hand.size <= 4 for h in state.legal_bids())
    with pytest.raises(IllegalAction, match="only 4 dice"):
        state.apply("bid five 1")


# --------------------------------------------------------------------------- single hand


def single() -> LiarsState:
    return rolled(game("single_hand", 3), (6, 6, 2, 3, 4))


def test_single_hand_the_active_player_rolls_the_shared_cup_and_bids_about_it():
    state = single()
    assert state.to_move() == 0 and state.view(0)["your_dice"] == [2, 3, 4, 6, 6]
    assert "your_dice" not in state.view(1)
    state = state.apply("bid pair 6")
    assert state.to_move() == 1
    assert [str(a) for a in state.legal_actions()] == ["accept", "dudo"]
    assert "your_dice" in state.view(0) and "your_dice" not in state.view(1)


def test_single_hand_accepting_shows_the_cup_keeps_dice_openly_and_rerolls_the_rest():
    state = play(single(), "bid pair 6", "accept")
    assert state.view(1)["your_dice"] == [2, 3, 4, 6, 6]
    assert "keep 6 6" in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalAction, match="keep some of those dice"):
        state.apply("keep 5 5")
    state = state.apply("keep 6 6")
    assert state.chance().seat == 1 and state.chance().count == 3
    state = state.resolve((6, 1, 1))
    assert state.view(2)["open_dice"] == [6, 6] and "your_dice" not in state.view(2)
    assert state.view(1)["your_dice"] == [1, 1, 6, 6, 6]
    with pytest.raises(IllegalAction, match="now bid higher"):
        state.apply("dudo")
    with pytest.raises(IllegalAction, match="smallest legal bid is pair 1"):
        state.apply("bid pair 5")
    state = play(state, "bid full house 6 1", "dudo")
    assert state.stock == (5, 5, 4)  # it was there: the challenger loses a life
    assert state.view(None)["last_round"]["cup"] == [6, 6, 6, 1, 1]
    assert state.chance().seat == 2 and state.chance().count == 5


def test_single_hand_a_false_claim_costs_the_bidder_a_life():
    state = play(single(), "bid three 6", "dudo")
    assert state.stock == (4, 5, 5)


def test_single_hand_the_highest_claim_cannot_be_accepted():
    state = play(single(), "bid five 1")
    assert [str(a) for a in state.legal_actions()] == ["dudo"]
    with pytest.raises(IllegalAction, match="nothing beats five 1"):
        state.apply("accept")


def test_single_hand_out_of_turn_actions_say_what_is_possible():
    with pytest.raises(IllegalAction, match="no cup passed to you to accept; the smallest "
                                            "legal bid is pair 2"):
        single().apply("accept")
    with pytest.raises(IllegalAction, match="after accepting the cup; 'accept' the cup or "
                                            "challenge with 'dudo'"):
        single().apply("bid pair 6").apply("keep 6 6")


def test_single_hand_keeping_every_die_bids_without_a_roll():
    state = play(single(), "bid pair 6", "accept", "keep 6 6 4 3 2")
    assert state.chance() is None and state.to_move() == 1


# --------------------------------------------------------------------------- odds and bots


def exact_over(unseen: int, holds) -> Fraction:
    return sum((p for faces, p in multisets(unseen) if holds(faces)), Fraction(0))


def test_bid_chances_are_the_exact_binomial_given_own_dice():
    own = (1, 5, 2)
    for bid in (Bid(2, 5), Bid(4, 5), Bid(3, 1), Bid(6, 6)):
        for wild in (True, False):
            def count(faces, bid=bid, wild=wild):
                dice = (*own, *faces)
                return sum(1 for d in dice if d == bid.face or (wild and d == 1 and
                                                                 bid.face != 1))
            at_least = exact_over(4, lambda f, b=bid, c=count: c(f) >= b.count)
            exactly = exact_over(4, lambda f, b=bid, c=count: c(f) == b.count)
            assert bid_chance(bid, own, 4, wild) == pytest.approx(float(at_least))
            assert exact_chance(bid, own, 4, wild) == pytest.approx(float(exactly))


def test_hand_chances_are_exact_over_the_unseen_dice():
    own = (6, 2)
    for hand in HANDS:
        expected = exact_over(4, lambda faces, h=hand: h.made_by((*own, *faces)))
        assert hand_chance(hand, own, 4) == pytest.approx(float(expected), abs=1e-12), hand


def test_odds_list_the_chance_of_every_count():
    rows = odds_for(game("perudo"), unseen="10", have="2", face="5")
    assert rows[0] == {"bid": "1x5", "at_least": 1.0, "exactly": 0.0}
    assert rows[2]["at_least"] == pytest.approx(1 - (2 / 3) ** 10)
    assert len(odds_for(game("common_hand"), unseen="5")) == len(HANDS)
    with pytest.raises(RuleError, match="unknown odds parameter"):
        odds_for(game(), dice="3")


def test_the_bots_are_search_strong_naive_and_random():
    # and bot:ismcts where the openspiel extra is installed (tests/test_interop_ismcts.py)
    assert [b for b in bot_names("liars_dice") if b != "ismcts"] == [
        "random", "naive", "search", "strong"]


def test_the_strong_bot_challenges_an_impossible_bid_and_believes_one_it_can_see():
    g = game("lognare", 2)
    bot = make_bot(g, "strong")
    start = rolled(g, (2, 2, 3, 3, 4), (6, 6, 6, 5, 5))
    state = start.apply("bid 9x4")  # nine fours, and seat 1 holds none of ten dice
    assert bot.choose(state.view(1), state.legal_actions(), random.Random(0)) == Dudo()
    state = start.apply("bid 3x6")  # seat 1 holds the three sixes itself
    assert bot.choose(state.view(1), state.legal_actions(), random.Random(0)) != Dudo()


@pytest.mark.parametrize("preset", ["lognare", "perudo", "common_hand", "single_hand"])
def test_the_strong_bot_beats_the_random_bot(preset):
    g = game(preset, 2)
    wins = 0
    for seed in range(12):
        seats = ["strong", "random"] if seed % 2 == 0 else ["random", "strong"]
        table = Table(g, dice=SeededDice(seed))
        outcome = play_out(table, [make_bot(g, s) for s in seats], random.Random(seed))
        wins += seats[outcome.winners[0]] == "strong"
    assert wins >= 10


# --------------------------------------------------------------------------- seed 003


def test_raising_follows_the_digest_ladder_for_every_pair_of_bids_when_ones_are_wild():
    state = rolled(game("perudo", 2), FIVES, NOTHING)
    every = [Bid(q, f) for q in range(1, 11) for f in range(1, 7)]
    for current in every:
        after = replace_bid(state, current)
        legal = set(after.legal_bids())
        for bid in every:
            q, f, k = current.count, current.face, bid.count
            if f != 1 and bid.face == 1:
                expected = k >= -(-q // 2)  # half the count, rounded up
            elif f == 1 and bid.face != 1:
                expected = k >= 2 * q + 1  # twice the ones plus one
            elif f == 1:
                expected = k > q
            else:
                expected = k > q or (k == q and bid.face > f)
            assert (bid in legal) == expected, (current, bid)


def replace_bid(state: LiarsState, bid: Bid) -> LiarsState:
    """The same table with ``bid`` standing, however it was reached."""
    return replace(state, bid=bid, bidder=0, player=1)


def test_palifico_in_lives_mode_starts_when_a_player_falls_to_one_life():
    state = rolled(game("perudo", 2, loss="life", lives=2), FIVES, NOTHING)
    state = play(state, "bid 9x5", "dudo")
    assert state.stock == (1, 2) and state.palifico == 0
    assert state.chance().count == 5  # the hand stays five dice
    state = rolled(state, ONES, NOTHING)
    assert state.view(None)["ones_wild"] is False and bids(state)[0] == "1x1"


def play_rounds(g, losers: str, exact: set[int]):
    """Play the rounds of a score sheet: in round ``r`` seat ``losers[r]`` loses, or wins
    its die back with an exact call when ``r`` is in ``exact``. Every die shows four."""
    state = g.new_state()
    for number, loser in enumerate(int(c) for c in losers):
        while (chance := state.chance()) is not None:
            state = state.resolve((4,) * chance.count)
        opener, total = state.to_move(), state.total_dice()
        second = state.next_alive(opener)
        if number in exact:
            assert second == loser
            state = play(state, f"bid {total}x4", "calza")  # every die is a four: exactly
        elif loser == opener:
            state = play(state, "bid 1x2", "dudo")  # no twos and no ones anywhere
        elif loser == second:
            state = play(state, "bid 1x4", "dudo")
        else:
            state = play(state, "bid 1x4", "bid 2x4", "dudo")
    return state


def test_the_worked_example_of_seed_003_plays_out_on_the_table():
    """Anna, Ben and Cara, thirteen rounds: Anna wins with four dice, Cara second, Ben third."""
    g = game("perudo", 3)
    state = play_rounds(g, "1012012112022", exact={4})
    view = state.view(None)
    cells = [[0, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, 1, 0], [0, 0, 1],
             [0, 1, 0], [0, 1, 0], [0, None, 1], [1, None, 0], [0, None, 1], [0, None, 1]]
    assert view["sheet"] == cells
    dice_left = [5 - sum(row[s] or 0 for row in cells) for s in range(3)]
    assert view["stock"] == dice_left == [4, 0, 0]
    assert state.is_over() and state.outcome().ranking == ((0,), (2,), (1,))
    sheet = state.game.render(state.view(None), ["Anna", "Ben", "Cara"]).splitlines()
    assert "     5   -1   0    0" in sheet and "    10    0        1" in sheet
    assert "  left    4   0    0" in sheet


# --------------------------------------------------------------------------- the command line


def test_play_perudo_in_the_terminal_against_two_bots_and_replay_the_log(tmp_path):
    log = tmp_path / "perudo.json"
    # open with one two; when a bid stands that is refused with the smallest legal bid,
    # and the next answer challenges
    answers = "bid 1x2\ndudo\n" * 200
    result = runner.invoke(app, ["play", "liars_dice", "--preset", "perudo", "--players",
                                 "Anna,bot,bot", "--seed", "2", "--log", str(log)],
                           input=answers)
    assert result.exit_code == 0, result.output
    assert "Anna's turn" in result.output and "Game over" in result.output
    assert "Dice: Anna (5), bot:strong (5), bot:strong 2 (5)" in result.output
    assert "the smallest legal bid is" in result.output
    assert "Traceback" not in result.output
    replayed = runner.invoke(app, ["replay", str(log), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.output)["over"] is True


@pytest.mark.parametrize("other", ["random", "naive"])
def test_simulate_shows_the_strong_bot_beating_another_with_confidence(other):
    result = runner.invoke(app, ["simulate", "liars_dice", "--preset", "perudo",
                                      "--players", f"bot:strong,bot:{other}", "--games",
                                      "100", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    strong, weaker = json.loads(result.output)["results"]
    assert strong["win_rate_ci95"][0] > 0.5 > weaker["win_rate_ci95"][1]


# --------------------------------------------------------------------------- any table


# a single die makes no poker hand, so the shared cup of Single Hand needs two, and a player
# on one of one has nothing to come back to
TABLES = st.tuples(st.sampled_from([None, *LiarsRules.PRESETS]), st.integers(2, 10),
                   st.integers(1, 6), st.integers(0, 2**32)).filter(
                       lambda t: t[0] not in ("single_hand", "come_back") or t[2] >= 2)


@settings(max_examples=10, deadline=None)
@given(table=TABLES)
def test_a_seat_sees_its_own_cup_and_never_another_at_any_table(table):
    preset, players, dice, seed = table
    g = game(preset, players, dice=dice)
    t = Table(g, dice=SeededDice(seed))
    rng = random.Random(seed)
    for _ in range(30):
        if t.state.is_over():
            break
        state = t.state
        for seat in range(players):
            view = state.view(seat)
            if not state.single and state.cups[seat] is not None:
                assert view["your_dice"] == sorted(state.cups[seat])
            assert state.resample_hidden(seat, rng).view(seat) == view
        t.act(state.to_move(), rng.choice(state.legal_actions()))


@settings(max_examples=10, deadline=None)
@given(table=TABLES)
def test_a_whole_game_at_any_table_replays_from_its_log_to_the_same_ranking(table):
    preset, players, dice, seed = table
    g = game(preset, players, dice=dice)
    t = Table(g, dice=SeededDice(seed))
    outcome = play_out(t, [make_bot(g, "random")] * players, random.Random(seed))
    replayed = Table.loads(t.dumps())
    assert replayed.state == t.state and replayed.state.outcome() == outcome
    assert sorted(s for group in outcome.ranking for s in group) == list(range(players))
    assert all(len(group) == 1 for group in outcome.ranking)  # one player goes out at a time
    sheet = replayed.state.view(None)["sheet"]
    assert all(sum(1 for cell in row if cell) <= 1 for row in sheet)


def test_kastkopp_games_shows_every_house_rule_preset_and_bot():
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    liars = next(g for g in json.loads(result.output) if g["name"] == "liars_dice")
    assert {r["name"] for r in liars["rules"]} == {s.name for s in LiarsRules.specs()}
    assert [p["name"] for p in liars["presets"]] == list(LiarsRules.PRESETS)
    # and bot:ismcts where the openspiel extra is installed (tests/test_interop_ismcts.py)
    assert [b["name"] for b in liars["bots"] if b["name"] != "ismcts"] == \
        ["random", "naive", "search", "strong"]
    assert liars["players"] == {"min": 2, "max": 10, "default": 3}


def test_kastkopp_odds_for_a_bid_and_a_one_line_error_for_a_bad_parameter():
    result = runner.invoke(app, ["odds", "liars_dice", "unseen=10", "have=2", "face=5",
                                 "--json"])
    rows = json.loads(result.output)
    assert rows[3]["bid"] == "4x5" and rows[3]["exactly"] == pytest.approx(
        math.comb(10, 2) * (1 / 3) ** 2 * (2 / 3) ** 8)
    bad = runner.invoke(app, ["odds", "liars_dice", "unseen=ten"])
    assert bad.exit_code == 2 and "whole numbers" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("preset", "rules", "kind"), [
    ("single_hand", {}, SingleHandState), ("perudo", {}, CommonHandState),
    ("common_hand", {}, CommonHandState), ("lognare", {"hand": "single", "loss": "life"},
                                          SingleHandState)])
def test_the_hand_rule_picks_the_state_class_and_it_stays_through_play(preset, rules, kind):
    table = Table(game(preset, 3, **rules), dice=SeededDice(4))
    rng = random.Random(4)
    while not table.state.is_over():
        assert type(table.state) is kind
        seat = table.state.to_move()
        assert seat is not None
        table.act(seat, rng.choice(table.state.legal_actions()))
    assert type(table.state) is kind and type(Table.loads(table.dumps()).state) is kind

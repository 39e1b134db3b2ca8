"""Slosch (Mia): every rule of seed 000, and the Mäxchen preset."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from kastkopp.engine import IllegalAction, RuleError, Table
from kastkopp.games import load
from kastkopp.games.mia import (
    CLASSIC_ORDER,
    SLOSCH_ORDER,
    Announce,
    Call,
    Pass,
    Roll,
    parse_action,
    parse_value,
    read,
)
from kastkopp.strategy.odds import odds_for

# The seed's table: the chance that a following roll beats each value, in percent.
SEED_ODDS = {21: 0, 11: 5.6, 22: 8.3, 33: 11.1, 44: 13.9, 55: 16.7, 66: 19.4, 65: 22.2,
             64: 27.8, 63: 33.3, 62: 38.9, 61: 44.4, 54: 50, 53: 55.6, 52: 61.1, 51: 66.7,
             43: 72.2, 42: 77.8, 41: 83.3, 32: 88.9, 31: 94.4}


def start(players=2, **rules):
    return load("mia", players=players, **rules).new_state()


def test_a_roll_reads_high_die_times_ten_plus_low_die():
    assert read((2, 1)) == 21
    assert read((5, 6)) == 65
    assert read((3, 3)) == 33
    assert parse_value("45") == 54
    assert parse_value("slosch") == 21


def test_value_order_is_the_seeds_best_first():
    rules = load("mia").rules
    assert tuple(reversed(rules.values)) == SLOSCH_ORDER
    assert rules.rank(11) > rules.rank(66) > rules.rank(65)


def test_classic_order_puts_66_above_the_other_doubles():
    rules = load("mia", order="classic").rules
    assert tuple(reversed(rules.values)) == CLASSIC_ORDER
    assert rules.rank(66) > rules.rank(11) > rules.rank(65)


def test_odds_table_equals_the_seeds_to_the_printed_precision():
    rows = odds_for(load("mia"))
    assert [int(r["value"]) for r in rows] == list(reversed(SLOSCH_ORDER))
    for row in rows:
        assert round(100 * row["beaten"], 1) == pytest.approx(SEED_ODDS[int(row["value"])])


def test_54_is_the_even_odds_throw_not_52():
    rules = load("mia").rules
    assert rules.beaten(54) == Fraction(1, 2)
    assert rules.beaten(52) != Fraction(1, 2)


def test_odds_follow_the_active_order():
    classic = {r["value"]: r["beaten"] for r in odds_for(load("mia", order="classic"))}
    assert classic["66"] == pytest.approx(2 / 36)
    assert classic["11"] == pytest.approx(7 / 36)


def test_everyone_starts_with_three_lives_and_pays_the_stake():
    state = start(players=4)
    assert state.lives == (3, 3, 3, 3)
    assert state.ledger.pot == 4
    assert start(players=3, lives=5, stake=2).lives == (5, 5, 5)
    assert start(players=3, stake=2).ledger.pot == 6


def test_the_roller_sees_the_dice_and_the_others_do_not():
    state = start(players=3).resolve((6, 5))
    assert state.view(0)["your_dice"] == "65"
    assert "your_dice" not in state.view(1)
    assert "your_dice" not in state.view(None)


def test_the_first_announcement_may_be_anything_truth_higher_or_lower():
    state = start().resolve((6, 5))
    assert len(state.legal_actions()) == 21
    for value in (31, 65, 21):
        assert state.apply(f"announce {value}").claim == value


def test_the_receiver_may_believe_call_or_pass():
    state = start().resolve((6, 5)).apply("announce 54")
    assert state.to_move() == 1
    assert state.legal_actions() == [Roll(), Call(), Pass()]


def test_believing_means_rolling_and_announcing_strictly_higher():
    state = start().resolve((6, 5)).apply("announce 54").apply("roll")
    assert state.chance().seat == 1
    state = state.resolve((3, 1))
    assert state.view(1)["your_dice"] == "31"
    assert "your_dice" not in state.view(0)
    with pytest.raises(IllegalAction, match="lowest announcement is 61"):
        state.apply("announce 54")
    with pytest.raises(IllegalAction, match="not higher"):
        state.apply("announce 43")
    assert state.apply("announce 61").claim == 61


def test_calling_a_lie_costs_the_announcer_a_life():
    state = start().resolve((4, 3)).apply("announce 54").apply("call")
    assert state.lives == (2, 3)
    assert state.last_round["losers"] == [0]


@pytest.mark.parametrize("dice", [(5, 4), (6, 5)])
def test_calling_a_claim_that_holds_equal_or_higher_costs_the_caller(dice):
    state = start().resolve(dice).apply("announce 54").apply("call")
    assert state.lives == (3, 2)


def test_passing_moves_the_responsibility_and_frees_the_previous_player():
    state = start(players=3).resolve((4, 3)).apply("announce 54").apply("pass")
    assert state.responsible == 1 and state.to_move() == 2 and state.claim == 54
    state = state.apply("call")  # 43 < 54: the one who passed answers for it
    assert state.lives == (3, 2, 3)


def test_a_claim_goes_round_unseen_only_once():
    state = start(players=3).resolve((4, 3)).apply("announce 54").apply("pass").apply("pass")
    assert state.to_move() == 0  # back to the announcer, who answered for it already
    assert Pass() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="answered for this claim already"):
        state.apply("pass")
    heads_up = start(players=2).resolve((4, 3)).apply("announce 54").apply("pass")
    assert heads_up.legal_actions() == [Roll(), Call()]


def test_a_passer_does_not_see_the_dice():
    state = start(players=3).resolve((4, 3)).apply("announce 54").apply("pass")
    assert "your_dice" not in state.view(1)
    assert state.view(0)["your_dice"] == "43"


def test_passing_can_be_switched_off():
    state = start(passing=False).resolve((4, 3)).apply("announce 54")
    assert Pass() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="passing is not allowed"):
        state.apply("pass")


def test_slosch_claimed_costs_two_lives():
    state = start().resolve((4, 3)).apply("announce 21").apply("call")
    assert state.lives == (1, 3)


def test_slosch_rolled_costs_two_lives_even_when_claimed_lower():
    state = start().resolve((2, 1)).apply("announce 54").apply("call")
    assert state.lives == (3, 1)


def test_slosch_double_is_a_house_rule():
    state = start(slosch_double=False).resolve((4, 3)).apply("announce 21").apply("call")
    assert state.lives == (2, 3)


def test_nothing_beats_slosch_so_it_cannot_be_believed():
    state = start().resolve((2, 1)).apply("announce 21")
    assert Roll() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="nothing beats Slosch"):
        state.apply("roll")


def test_the_loser_starts_the_next_round_with_a_fresh_roll():
    state = start(players=3).resolve((4, 3)).apply("announce 54").apply("roll")
    state = state.resolve((6, 1)).apply("announce 61").apply("call")  # 61 holds: seat 2 loses
    assert state.lives == (3, 3, 2)
    assert state.chance().seat == 2 and state.claim is None


def test_loser_starts_can_hand_the_start_to_the_next_player():
    state = start(players=3, loser_starts=False).resolve((4, 3)).apply("announce 54")
    state = state.apply("call")  # seat 0 lied and loses
    assert state.chance().seat == 1


def test_an_eliminated_player_is_skipped_and_the_last_one_with_lives_wins_the_pot():
    state = start(players=3, lives=1)
    state = state.resolve((4, 3)).apply("announce 54").apply("call")  # seat 0 out
    assert state.lives == (0, 1, 1)
    assert state.chance().seat == 1  # the loser is out: the next player starts
    state = state.resolve((4, 3)).apply("announce 54")
    assert state.to_move() == 2
    state = state.apply("call")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.ranking == ((2,), (1,), (0,))  # later out ranks higher
    assert state.ledger.balances() == (-1, -1, 2)
    assert outcome.payoffs == (-1.0, -1.0, 2.0)


def test_actions_out_of_phase_are_refused_with_a_reason():
    state = start().resolve((4, 3))
    with pytest.raises(IllegalAction, match="announce"):
        state.apply("call")
    state = state.apply("announce 43")
    with pytest.raises(IllegalAction, match="roll the dice before"):
        state.apply("announce 65")
    with pytest.raises(IllegalAction, match="dice must be rolled"):
        state.apply("roll").apply("announce 65")


def test_notation_reads_words_in_three_languages():
    assert parse_action("announce 54") == Announce(54)
    assert parse_action("45") == Announce(54)
    assert parse_action("säg 65") == Announce(65)
    assert parse_action("lyft") == Call()
    assert parse_action("tro") == Roll()
    assert parse_action("videre") == Pass()
    for bad in ("announce 77", "announce", "shout 54", "70"):
        with pytest.raises(IllegalAction):
            parse_action(bad)


def test_rule_values_are_validated():
    with pytest.raises(RuleError, match="at least 1"):
        load("mia", lives=0)
    with pytest.raises(RuleError, match="one of slosch, classic"):
        load("mia", order="backwards")
    with pytest.raises(RuleError, match="unknown rule"):
        load("mia", wilds="on")
    with pytest.raises(RuleError, match="2 to 10 players"):
        load("mia", players=1)


# --------------------------------------------------------------------------- Mäxchen


def maexchen(players=3):
    return load("mia", preset="maexchen", players=players).new_state()


def test_maexchen_uses_the_classic_order_without_passing():
    state = maexchen().resolve((6, 6)).apply("announce 66")
    assert Pass() not in state.legal_actions()
    assert state.rules.rank(66) > state.rules.rank(11)


def test_maexchen_true_mia_costs_everyone_else():
    state = maexchen().resolve((2, 1)).apply("announce 21")
    assert state.last_round["losers"] == [1, 2]
    assert state.points() == (1, 0, 0)
    assert state.chance().seat == 1  # the player after the announcer starts


def test_maexchen_false_mia_costs_the_announcer():
    state = maexchen().resolve((3, 1)).apply("announce 21")
    assert state.last_round["losers"] == [0]
    assert state.points() == (0, 1, 1)


def test_maexchen_scores_plus_one_per_round_and_minus_one_per_loss():
    state = load("mia", preset="maexchen", players=2, rounds=2).new_state()
    state = state.resolve((4, 3)).apply("announce 54").apply("call")  # seat 0 lied
    state = state.resolve((6, 5)).apply("announce 65").apply("call")  # seat 0 truthful
    assert state.is_over()
    assert state.points() == (1, 1)
    assert state.outcome().ranking == ((0, 1),)
    state = load("mia", preset="maexchen", players=2, rounds=2).new_state()
    state = state.resolve((4, 3)).apply("announce 54").apply("call")
    state = state.resolve((4, 3)).apply("announce 65").apply("call")
    assert state.points() == (0, 2)
    assert state.outcome().ranking == ((1,), (0,))


@pytest.mark.parametrize("preset", ["slosch", "classic", "maexchen"])
def test_the_kept_legal_lists_are_the_legal_actions_in_every_position(preset):
    rng = random.Random(7)
    for players in (2, 4):
        table = Table(load("mia", preset=preset, players=players, rounds=3, lives=2))
        while not table.is_over():
            state = table.state
            legal = state.legal_actions()
            assert state.legal_notations() == [str(a) for a in legal]
            assert [state.game.parse_action(str(a)) for a in legal] == legal
            table.act(state.to_move(), rng.choice(legal))


def test_a_notation_read_twice_reads_the_same_and_a_bad_one_is_refused_each_time():
    assert parse_action(" Announce 45 ") == parse_action(" Announce 45 ") == Announce(54)
    for _ in range(2):
        with pytest.raises(IllegalAction):
            parse_action("announce 77")

"""The stakes ledger: every movement an event, balances derived, always zero-sum."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kastkopp.engine import IllegalAction, RuleError
from kastkopp.games import load
from kastkopp.games.stakes import Ledger, PotRules


def betting(players=2, ante=5, stacks=None) -> Ledger:
    return Ledger(players, stacks=stacks).ante_all(ante).new_round()


# --------------------------------------------------------------------------- what Slosch uses


def test_antes_and_award_as_slosch_uses_them():
    ledger = Ledger(players=3).ante_all(2)
    assert ledger.pot == 6 and ledger.balances() == (-2, -2, -2)
    ledger = ledger.award((1,))
    assert ledger.pot == 0 and ledger.balances() == (-2, 4, -2)
    assert ledger.to_json()["paid_in"] == [2, 2, 2]


def test_a_split_award_gives_the_odd_unit_to_the_first_winner():
    assert Ledger(3).ante_all(1).award((2, 0)).balances() == (0, -1, 1)


# --------------------------------------------------------------------------- raising and calling


def test_a_raise_is_at_most_the_pot_after_the_raisers_call():
    ledger = betting()
    assert ledger.max_raise(1) == 10
    with pytest.raises(IllegalAction, match="1 to 10 koppar"):
        ledger.raise_bet(1, 11)
    ledger = ledger.raise_bet(1, 4)
    assert ledger.to_call(0) == 4 and ledger.max_raise(0) == 18


def test_raising_calls_first_then_raises():
    ledger = betting().raise_bet(1, 4).raise_bet(0, 2)
    assert [(m.kind, m.seat, m.amount) for m in ledger.movements[2:]] == [
        ("raise", 1, 4), ("call", 0, 4), ("raise", 0, 2)]
    assert ledger.to_call(1) == 2


def test_a_second_raise_in_the_same_round_is_refused():
    ledger = betting().raise_bet(1, 4).raise_bet(0, 2)
    with pytest.raises(IllegalAction, match="already raised this round; call 2 or fold"):
        ledger.raise_bet(1, 1)
    assert ledger.new_round().raise_bet(1, 1).pot == 21


def test_calling_nothing_is_refused():
    with pytest.raises(IllegalAction, match="nothing to call"):
        betting().call(0)


def test_bets_are_whole_koppar():
    with pytest.raises(IllegalAction, match="whole koppar"):
        betting().raise_bet(0, 2.5)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="at least 1"):
        Ledger(2).ante(0, 0)


def test_a_fold_forfeits_what_was_paid_and_ends_that_players_betting():
    ledger = betting(players=3).raise_bet(1, 3).fold(2)
    assert ledger.pot == 18 and ledger.paid_in(2) == 5
    with pytest.raises(IllegalAction, match="folded"):
        ledger.call(2)
    ledger = ledger.call(0).settle([(0,), (1,)])
    assert ledger.balances() == (13, -8, -5)


# --------------------------------------------------------------------------- purses


def test_nobody_pays_more_than_he_has():
    ledger = betting(stacks=(20, 8))
    assert ledger.purse(1) == 3 and ledger.max_raise(1) == 3
    with pytest.raises(IllegalAction, match="1 to 3 koppar"):
        ledger.raise_bet(1, 4)
    ledger = ledger.raise_bet(0, 10)
    with pytest.raises(IllegalAction, match="calling costs 10 and you have 3 left; fold or go "
                                            "all-in"):
        ledger.call(1)
    with pytest.raises(IllegalAction, match="more than the 3 left"):
        ledger.bet(1, 4)


def test_all_in_only_for_a_player_short_of_the_call():
    ledger = betting(stacks=(20, 8)).raise_bet(0, 10)
    with pytest.raises(IllegalAction, match="only for a player who cannot pay"):
        ledger.go_all_in(0)
    ledger = ledger.go_all_in(1)
    assert ledger.all_in(1) and ledger.purse(1) == 0
    with pytest.raises(IllegalAction, match="more than the 0 left"):
        ledger.bet(1, 1)


def test_the_pot_is_paid_in_layers_when_someone_is_all_in():
    # A is all-in for 3, B and C put in 10 each; A has the best hand, then B
    ledger = Ledger(3, stacks=(3, 50, 50)).ante_all(1).new_round()
    ledger = ledger.raise_bet(1, 3).go_all_in(0).raise_bet(2, 5).call(1)
    assert [ledger.paid_in(s) for s in range(3)] == [3, 9, 9]
    settled = ledger.settle([(0,), (1,), (2,)])
    assert settled.balances() == (6, 3, -9) and settled.pot == 0


def test_a_bet_nobody_matched_is_returned():
    ledger = Ledger(2, stacks=(2, 50)).ante_all(1).new_round().raise_bet(1, 2).go_all_in(0)
    settled = ledger.settle([(0,), (1,)])
    assert settled.balances() == (2, -2)
    assert [m.kind for m in settled.movements[-2:]] == ["win", "return"]


def test_equal_hands_split_every_layer_between_them():
    ledger = Ledger(3).ante_all(3).new_round().raise_bet(0, 1).call(1).fold(2)
    settled = ledger.settle([(1, 0)])
    assert settled.balances() == (1, 2, -3) and settled.pot == 0  # 11 split, odd to seat 1


def test_a_transfer_between_players_leaves_the_pot_alone():
    ledger = Ledger(2).ante_all(2).award((0,)).transfer(1, 0, 2)
    assert ledger.pot == 0 and ledger.balances() == (4, -4)
    assert ledger.paid_in(1) == 2


def test_pot_rules_give_each_seat_its_purse():
    assert PotRules(purses="30, 4").stacks(3) == (30, 4, 30)
    assert PotRules(purse=7).stacks(2) == (7, 7)
    with pytest.raises(RuleError, match="1 to 1000"):
        PotRules(purses="2000")


# --------------------------------------------------------------------------- zero-sum, always

POT_GAMES = [(name, preset, players)
             for name, presets in (("knack", (None, "short")), ("linka", (None, "short")))
             for preset in presets for players in (2, 3, 4)]


def check_money(ledger: Ledger) -> None:
    balances = ledger.balances()
    assert sum(balances) + ledger.pot == 0
    assert ledger.pot >= 0
    for seat in range(ledger.players):
        left = ledger.purse(seat)
        assert left is None or left >= 0, f"seat {seat} paid more than it had"


@pytest.mark.parametrize(("name", "preset", "players"), POT_GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_balances_sum_to_zero_after_every_event(name, preset, players, seed):
    rng = random.Random(seed)
    state = load(name, preset=preset, players=players).new_state()
    for _ in range(2000):
        check_money(state.ledger)
        if state.is_over():
            break
        chance = state.chance()
        if chance is not None:
            state = state.resolve(tuple(rng.randint(1, 6) for _ in range(chance.count)))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert state.is_over()
    assert state.ledger.pot == 0, "the pot was not paid out"
    payoffs = state.outcome().payoffs
    assert sum(payoffs) == 0 and payoffs == tuple(float(b) for b in state.ledger.balances())


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(st.tuples(st.sampled_from(["raise", "call", "fold", "all-in", "round"]),
                              st.integers(0, 2), st.integers(1, 40)), max_size=30),
       stacks=st.tuples(st.integers(1, 40), st.integers(1, 40), st.integers(1, 40)))
def test_no_sequence_of_bets_breaks_the_ledger(ops, stacks):
    ledger = Ledger(3, stacks=stacks).ante_all(1).new_round()
    for op, seat, amount in ops:
        before = ledger
        try:
            if op == "raise":
                ledger = ledger.raise_bet(seat, amount)
            elif op == "call":
                ledger = ledger.call(seat)
            elif op == "fold":
                ledger = ledger.fold(seat)
            elif op == "all-in":
                ledger = ledger.go_all_in(seat)
            else:
                ledger = ledger.new_round()
        except IllegalAction:
            assert ledger == before  # a refused bet changes nothing
        check_money(ledger)
    ranking = [(s,) for s in random.Random(len(ops)).sample(range(3), 3)]
    settled = ledger.settle(ranking)
    assert settled.pot == 0 and sum(settled.balances()) == 0
    paid = [ledger.paid_in(s) for s in range(3)]
    for seat in range(3):
        assert settled.purse(seat) >= 0
        # the layers: one wins from each player at most what one put in oneself, except
        # from a player who folded, who forfeits everything he paid
        received = -sum(m.amount for m in settled.movements[len(ledger.movements):]
                        if m.seat == seat)
        assert received <= sum(p if other in ledger.folded else min(p, paid[seat])
                               for other, p in enumerate(paid))

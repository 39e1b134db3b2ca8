"""Linka: seed 000's two worked examples, then every rule on its own."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.engine import IllegalAction, RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.linka import (
    BOTH,
    EXACT,
    HIGH,
    LOW,
    NOTHING,
    SUM,
    Hand,
    LinkaState,
    equity,
    hand,
)
from kastkopp.strategy import make_bot
from kastkopp.strategy.linka_odds import hand_chances
from kastkopp.strategy.odds import odds_for


def table(names, rolls, **rules) -> Table:
    game = load("linka", players=len(names), **rules)
    return Table(game, seats=list(names), dice=ScriptedDice(rolls=[tuple(r) for r in rolls]))


def deal(players=2, linka=(5, 4), dice=((6, 3), (4, 1)), **rules) -> LinkaState:
    """A state at the betting: ``dice[s]`` is seat s's (open, hidden) die."""
    state = load("linka", players=players, **rules).new_state().resolve(linka)
    order = [*range(1, players), 0]  # left of the dealer first
    for seat in order:
        state = state.resolve((dice[seat][0],))
    for seat in order:
        state = state.resolve((dice[seat][1],))
    return state


# --------------------------------------------------------------------------- the seed's examples


def test_example_1_vikos_makes_both_linka_dice_and_takes_the_pot_of_22():
    vikos, rejd = 0, 1  # Vikos throws the linka dice, so Rejd bets first
    t = table(["Vikos", "Rejd"], [(5, 4), (6,), (4,), (3,), (1,)], ante=5)
    state = t.state
    assert state.linka == (5, 4) and state.to_move() == rejd
    assert state.view(rejd)["dice"] == [[4], [6, 3]]  # Rejd sees Vikos's open 4 only
    assert state.view(rejd)["your_hand"] == "the linka sum"
    assert state.view(vikos)["your_hand"] == "both linka dice"
    t.act(rejd, "raise 4")
    t.act(vikos, "raise 2")  # calls Rejd's 4 and raises 2
    with pytest.raises(IllegalAction, match="raises only once and you have raised; call 2"):
        t.act(rejd, "raise 1")
    t.act(rejd, "call")
    state = t.state
    assert state.is_over()
    assert state.deals[0][1] == ((1, (6, 3)), (0, (4, 1)))  # both hidden dice shown
    assert state.ledger.paid_in(vikos) == state.ledger.paid_in(rejd) == 11
    assert state.ledger.balances() == (11, -11)  # the pot of 22 to Vikos
    assert state.outcome().winners == (vikos,)


def test_example_2_rejd_with_the_low_linka_die_takes_the_pot_of_20():
    rejd, vikos = 0, 1  # now Rejd throws the linka dice and Vikos bets first
    t = table(["Rejd", "Vikos"], [(2, 1), (5,), (4,), (5,), (1,)], ante=5)
    assert t.state.to_move() == vikos
    t.act(vikos, "raise 5")  # a bluff with nothing
    assert [str(a) for a in t.state.legal_actions()][:2] == ["call", "raise 1"]
    t.act(rejd, "call")      # and passes on the chance to raise further
    state = t.state
    assert state.is_over() and state.ledger.balances() == (10, -10)
    assert hand(state.linka, state.own[rejd]).rank == LOW
    assert hand(state.linka, state.own[vikos]) == Hand(NOTHING, 10)


def test_the_examples_replay_from_their_logs():
    t = table(["Vikos", "Rejd"], [(5, 4), (6,), (4,), (3,), (1,)], ante=5)
    for seat, text in [(1, "raise 4"), (0, "raise 2"), (1, "call")]:
        t.act(seat, text)
    replayed = Table.loads(json.dumps(t.to_json()))
    assert replayed.state == t.state
    assert replayed.state.outcome().payoffs == (11.0, -11.0)


# --------------------------------------------------------------------------- the hands


@pytest.mark.parametrize(("linka", "dice", "rank"), [
    ((5, 4), (4, 5), EXACT),
    ((5, 4), (4, 1), BOTH),     # 4 and 4 + 1 = 5
    ((6, 2), (2, 4), BOTH),     # 2 and 2 + 4 = 6
    ((5, 4), (6, 3), SUM),      # 6 + 3 = 9
    ((2, 1), (3, 6), SUM),      # the sum 3 shown by one die
    ((6, 3), (2, 4), HIGH),     # 2 + 4 = 6
    ((6, 3), (1, 2), LOW),      # 1 + 2 = 3
    ((2, 1), (5, 5), NOTHING),
])
def test_the_six_hands(linka, dice, rank):
    assert hand(linka, dice).rank == rank


def test_the_hands_rank_in_the_seeds_order():
    ranks = [hand((5, 4), d) for d in [(5, 4), (4, 1), (6, 3), (5, 6), (4, 6), (6, 6)]]
    assert ranks == sorted(ranks, reverse=True)
    assert len({h.rank for h in ranks}) == 6


def test_a_linka_double_is_made_both_only_by_the_exact_pair():
    assert hand((3, 3), (3, 3)).rank == EXACT
    assert hand((3, 3), (3, 5)).rank == HIGH  # one three is not both
    assert hand((3, 3), (1, 2)).rank == HIGH  # nor is a sum of three


def test_with_nothing_the_higher_own_sum_wins():
    assert hand((2, 1), (6, 5)) > hand((2, 1), (6, 4))
    assert hand((5, 4), (6, 6)) < hand((5, 4), (2, 2))  # a low die beats any sum


die = st.integers(1, 6)


@given(a=die, b=die, x=die, y=die)
def test_a_hand_does_not_depend_on_the_order_of_the_dice(a, b, x, y):
    assert hand((a, b), (x, y)) == hand((b, a), (y, x))


@given(a=die, b=die, x=die, y=die)
def test_each_hand_makes_what_its_name_says(a, b, x, y):
    made = {x, y, x + y}
    rank = hand((a, b), (x, y)).rank
    high, low = max(a, b), min(a, b)
    if rank >= SUM:
        assert a + b in made or rank >= BOTH
    if rank == HIGH:
        assert high in made and a + b not in made
    if rank == LOW:
        assert low in made and high not in made and a + b not in made
    if rank == NOTHING:
        assert not made & {high, low, a + b}


# --------------------------------------------------------------------------- betting


def test_betting_starts_left_of_the_linka_roller():
    assert deal(players=3, dice=((6, 3), (4, 1), (2, 2))).to_move() == 1


def test_a_raise_over_the_pot_is_refused_and_changes_nothing():
    state = deal(ante=5)
    before = repr(state)
    with pytest.raises(IllegalAction, match="at most the pot: check, raise 1 to 10 or fold"):
        state.apply("raise 11")
    assert repr(state) == before
    state = state.apply("raise 10")
    assert state.ledger.max_raise(0) == 30  # the pot of 20 plus the 10 Vikos must call


def test_each_player_raises_only_once():
    state = deal(players=3, dice=((6, 3), (4, 1), (2, 2))).apply("raise 1").apply("raise 1")
    state = state.apply("raise 1")
    with pytest.raises(IllegalAction, match="raises only once and you have raised; call 2 "
                                            "or fold"):
        state.apply("raise 1")
    assert state.apply("call").to_move() == 2


def test_calling_when_nothing_is_owed_names_the_choices():
    with pytest.raises(IllegalAction, match="nothing to call; check, raise 1 to 2 or fold"):
        deal().apply("call")
    with pytest.raises(IllegalAction, match="you owe 1; call 1, raise 1 to 4 or fold"):
        deal().apply("raise 1").apply("check")


def test_everyone_checking_goes_to_the_showdown():
    state = deal().apply("check").apply("check")  # Rejd's 4 and 1 make both linka dice
    assert state.is_over() and state.ledger.balances() == (-1, 1)


def test_folding_forfeits_and_the_last_player_wins_unseen():
    state = deal(ante=3).apply("raise 2").apply("fold")
    assert state.is_over() and state.ledger.balances() == (-3, 3)
    assert state.view(None)["dice"] == [[6], [4]]  # nobody has to show
    assert state.deals == ()


def test_a_folded_player_cannot_act_and_does_not_show():
    t = table(["Vikos", "Rejd", "Cara"], [(5, 4), (6,), (1,), (4,), (3,), (1,), (1,)])
    t.act(1, "raise 1")
    t.act(2, "fold")
    with pytest.raises(IllegalAction, match="Cara has folded and is out of this pot; "
                                            "it is Vikos's turn"):
        t.act(2, "call")
    t.act(0, "call")
    state = t.state
    assert state.is_over()
    assert state.view(None)["dice"] == [[4, 1], [6, 3], [1]]
    assert state.ledger.balances() == (3, -2, -1)  # the pot of 5 to Vikos


def test_all_in_pays_the_pot_in_layers():
    # Rejd brings only 3; he has the linka dice exactly, Vikos both, Cara nothing
    t = table(["Vikos", "Rejd", "Cara"], [(5, 4), (5,), (1,), (4,), (4,), (1,), (1,)],
              ante=1, purses="30,3,30", all_in="yes")
    t.act(1, "check")
    t.act(2, "raise 3")
    t.act(0, "call")
    assert [str(a) for a in t.state.legal_actions()] == ["all-in", "fold"]
    t.act(1, "all-in")
    state = t.state
    assert state.is_over()
    # Rejd wins 3 from each (9); the 2 he could not match go to Vikos, the better of the rest
    assert state.ledger.balances() == (-2, 6, -4)


def test_one_refusal_and_the_short_player_folds():
    t = table(["Vikos", "Rejd", "Cara"], [(5, 4), (5,), (1,), (4,), (4,), (1,), (1,)],
              ante=1, purses="30,3,30", all_in="ask")
    for seat, text in [(1, "check"), (2, "raise 3"), (0, "call"), (1, "all-in")]:
        t.act(seat, text)
    assert t.state.phase == "agree" and t.state.to_move() == 2
    assert "Rejd asks to go all-in: Cara, accept or refuse" in t.game.render(
        t.state.view(2), t.seats)
    t.act(2, "accept")
    t.act(0, "refuse")
    state = t.state
    assert 1 in state.ledger.folded and state.is_over()
    assert state.ledger.balances() == (5, -1, -4)  # Vikos's both beat Cara's nothing


def test_no_player_pays_more_than_his_purse():
    state = deal(ante=2, purses="5,40")
    assert state.ledger.max_raise(1) == 4  # the pot is 4 and Rejd has plenty
    state = state.apply("raise 4")
    assert state.ledger.max_raise(0) == 0  # Vikos has 3 left and owes 4
    assert [str(a) for a in state.legal_actions()] == ["fold"]


# --------------------------------------------------------------------------- equal hands replay


def test_equal_best_hands_replay_without_new_bets():
    state = deal(linka=(2, 1), dice=((5, 5), (6, 4))).apply("raise 2").apply("call")
    assert state.phase == "replay linka" and state.deal == 2 and state.ledger.pot == 6
    assert state.to_move() is None and state.chance().seat is None
    state = state.resolve((6, 3))
    assert state.chance().count == 2 and not state.chance().private
    state = state.resolve((6, 3)).resolve((1, 1))
    assert state.is_over() and state.ledger.balances() == (-3, 3)
    assert [linka for linka, _ in state.deals] == [(2, 1), (6, 3)]


def test_only_the_tied_players_replay():
    state = deal(players=3, linka=(2, 1), dice=((5, 5), (6, 4), (4, 4)))
    state = state.apply("check").apply("check").apply("check")
    assert state.contenders == (1, 0)  # in playing order, Cara out
    state = state.resolve((4, 4)).resolve((4, 4)).resolve((6, 6))  # Rejd throws first
    assert state.is_over() and state.outcome().winners == (1,)


# --------------------------------------------------------------------------- knowing


def test_the_hidden_die_is_seen_only_by_its_owner_until_the_showdown():
    state = deal()
    assert state.view(0)["dice"] == [[6, 3], [4]]
    assert state.view(None)["dice"] == [[6], [4]]
    assert "your_hand" not in state.view(None)
    other = state.resample_hidden(0, random.Random(1))
    assert other.view(0) == state.view(0) and other.own[0] == state.own[0]
    assert state.apply("check").apply("check").view(None)["dice"] == [[6, 3], [4, 1]]


# --------------------------------------------------------------------------- odds


def test_odds_for_given_linka_dice_and_open_die():
    rows = odds_for(load("linka"), linka="6,3", open="2")
    assert rows[0]["hand"] == "the linka dice exactly"
    assert sum(Fraction(r["exact"]) for r in rows) == 1
    by_hand = {r["hand"]: r for r in rows}
    assert by_hand["the high linka die"]["hidden die"] == "4 6"


def test_odds_with_no_die_thrown_yet():
    chances = hand_chances((5, 4))
    assert chances[EXACT] == Fraction(2, 36)
    assert sum(chances.values()) == 1
    assert len(odds_for(load("linka"))) == 21


@pytest.mark.parametrize(("params", "message"), [
    ({"linka": "7,3"}, "a die from 1 to 6"),
    ({"linka": "6"}, "two dice like 6,3"),
    ({"open": "2"}, "give the linka dice too"),
    ({"hidden": "2"}, "not hidden"),
])
def test_bad_odds_settings_are_explained(params, message):
    with pytest.raises(RuleError, match=message):
        odds_for(load("linka"), **params)


def test_equity_counts_ties_as_replays():
    assert equity((5, 4), (4, 1), [6]) == 1.0  # seed example 1: Rejd's 6 cannot beat both
    # 6 and 6 make nothing against 2-1; the open 6 wins with a hidden 1, 2 or 3, loses
    # with a 4 or 5 and ties with a 6
    assert equity((2, 1), (6, 6), [6]) == pytest.approx((2 + 1 / 2) / 6)


def test_render_shows_the_table():
    t = table(["Vikos", "Rejd"], [(5, 4), (6,), (4,), (3,), (1,)], ante=5)
    text = t.game.render(t.state.view(1), t.seats)
    assert "Linka 5 4 · pot 10" in text and "Vikos: 4 ?" in text and "Rejd: 6 3" in text
    assert "Rejd to bet: check, raise up to 10 or fold" in text
    for seat, action in [(1, "raise 4"), (0, "raise 2"), (1, "call")]:
        t.act(seat, action)
    text = t.game.render(t.state.view(None), t.seats)
    assert "Vikos won the pot of 22" in text and "Rejd: 6 3" in text
    assert "Balances: Vikos +11, Rejd −11" in text


# --------------------------------------------------------------------------- bots


def strong_choice(state: LinkaState) -> str:
    bot = make_bot(state.game, "strong")
    seat = state.to_move()
    return str(bot.choose(state.view(seat), state.legal_actions(), random.Random(0)))


def test_the_strong_bot_raises_the_pot_with_a_hand_that_cannot_lose():
    state = deal(ante=5, dice=((6, 3), (4, 1)))
    assert strong_choice(state) == "raise 10"  # both linka dice against an open 6
    # the linka sum wins unless the open 4 hides a 1 or a 5: a favourite re-raises
    assert strong_choice(state.apply("raise 10")) == "raise 30"


def test_the_strong_bot_calls_or_folds_by_the_pot_odds():
    # nothing (sum 10) against an open 4 wins 2.5 times in 6: worth 10 to win 30
    state = deal(linka=(2, 1), dice=((4, 1), (5, 5)), ante=5)
    assert strong_choice(state) == "check"
    assert strong_choice(state.apply("check").apply("raise 10")) == "call"
    # 1 and 2 make nothing against 6-5 and lose to anything an open 3 can make
    state = deal(linka=(6, 5), dice=((1, 2), (3, 3)), ante=5).apply("raise 10")
    assert strong_choice(state) == "fold"


@pytest.mark.parametrize("preset", [None, "short"])
def test_the_strong_bot_wins_money_from_random(preset):
    game = load("linka", preset=preset, players=2)
    won = 0.0
    for seed in range(300):
        t = Table(game, dice=SeededDice(seed))
        seats = ("strong", "random") if seed % 2 == 0 else ("random", "strong")
        outcome = play_out(t, [make_bot(game, n) for n in seats], random.Random(seed))
        assert sum(outcome.payoffs) == 0
        won += outcome.payoffs[seed % 2]
    assert won > 0

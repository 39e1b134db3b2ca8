"""Knack: seed 000's two worked examples, then every rule on its own."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.engine import IllegalAction, RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.knack import KnackState
from kastkopp.strategy import make_bot
from kastkopp.strategy.knack_odds import equities, triple_chances
from kastkopp.strategy.odds import odds_for

VIKOS, REJD = 0, 1


def table(rolls, players=2, **rules) -> Table:
    game = load("knack", players=players, **rules)
    names = ["Vikos", "Rejd", "Cara", "Dag"][:players]
    return Table(game, seats=names, dice=ScriptedDice(rolls=[tuple(r) for r in rolls]))


def act(t: Table, *moves: tuple[int, str]) -> KnackState:
    for seat, text in moves:
        t.act(seat, text)
    state = t.state
    assert isinstance(state, KnackState)
    return state


# --------------------------------------------------------------------------- the seed's examples


def test_example_1_rejd_throws_three_twos_and_takes_the_pot_of_4():
    t = table([(4, 4, 2), (2, 1, 4), (2,), (2, 2, 2)], ante=2)
    assert t.state.ledger.pot == 4
    # Vikos keeps his fours without being asked; Rejd, with no pair, picks up all three
    assert t.state.to_move() == REJD
    assert t.state.kept[VIKOS] == (4, 4)
    state = act(t, (REJD, "reroll"))
    assert state.worst == REJD  # no pair against a pair
    state = act(t, (REJD, "knock"))
    assert state.phase == "double" and state.winners == (REJD,)
    assert state.dice[REJD] == (2, 2, 2)
    state = act(t, (VIKOS, "pass"))
    assert state.is_over()
    assert state.ledger.balances() == (-2, 2)
    assert state.outcome().winners == (REJD,)
    assert [e["faces"] for e in t.events if e["type"] == "roll"][2] == [2]  # one die thrown


def test_example_2_vikos_wins_30_and_rejd_pays_15_more_after_his_double_knock():
    rolls = [(3, 6, 2), (5, 5, 1),  # Rejd has a pair of fives
             (6, 3), (2,),          # Vikos makes a pair of sixes, Rejd no help
             (5,), (2,),
             (2,), (6,),
             (6,), (5,),            # both make three of a kind; sixes beat fives
             (5, 3, 2)]             # the double knock: a sum of 10
    t = table(rolls, ante=2)
    state = act(t, (VIKOS, "keep 6"))
    assert state.worst == VIKOS  # a single six against a pair of fives
    state = act(t, (VIKOS, "raise 3"), (REJD, "call"))
    assert state.ledger.pot == 10
    assert state.kept == ((6, 6), (5, 5)) and state.worst == REJD
    assert state.ledger.max_raise(REJD) == 10  # the maximal raise: the pot of 10
    state = act(t, (REJD, "raise 10"), (VIKOS, "call"))
    assert state.ledger.pot == 30
    assert state.ledger.paid_in(VIKOS) == state.ledger.paid_in(REJD) == 15
    state = act(t, (REJD, "knock"))
    assert state.worst == REJD
    state = act(t, (REJD, "knock"))
    assert state.winners == (VIKOS,) and state.share == 15
    assert state.ledger.balances() == (15, -15)
    state = act(t, (REJD, "double"), (VIKOS, "accept"))
    assert state.is_over()
    assert state.ledger.balances() == (30, -30)
    assert state.ledger.pot == 0


def test_example_2_replays_from_its_log():
    t = table([(3, 6, 2), (5, 5, 1), (6, 3), (2,), (5,), (2,), (2,), (6,), (6,), (5,),
               (5, 3, 2)], ante=2)
    act(t, (VIKOS, "keep 6"), (VIKOS, "raise 3"), (REJD, "call"), (REJD, "raise 10"),
        (VIKOS, "call"), (REJD, "knock"), (REJD, "knock"), (REJD, "double"),
        (VIKOS, "accept"))
    replayed = Table.loads(json.dumps(t.to_json()))
    assert replayed.state == t.state
    assert replayed.state.outcome().payoffs == (30.0, -30.0)


# --------------------------------------------------------------------------- throwing and keeping


def test_a_pair_stays_on_the_table_and_one_die_is_thrown():
    state = load("knack", players=2).new_state().resolve((5, 1, 5)).resolve((1, 2, 3))
    state = state.apply("keep 3").apply("knock")
    assert state.chance().count == 1 and state.chance().seat == VIKOS
    assert state.resolve((2,)).chance().count == 2  # Rejd kept one die and throws two


def test_rerolling_all_throws_three_dice_again():
    state = load("knack", players=2).new_state().resolve((6, 6, 1)).resolve((1, 2, 3))
    state = state.apply("reroll").apply("knock").resolve((4,))
    assert state.chance().count == 3


def test_a_pair_made_from_the_new_dice_replaces_the_kept_die():
    state = load("knack", players=2).new_state()
    state = state.resolve((1, 2, 6)).resolve((4, 4, 1)).apply("keep 6").apply("knock")
    state = state.resolve((3, 3)).resolve((2,))
    assert state.kept[VIKOS] == (3, 3)


def test_only_a_die_you_have_can_be_kept():
    state = load("knack", players=2).new_state().resolve((1, 2, 5)).resolve((4, 4, 1))
    with pytest.raises(IllegalAction, match="no 6 among your dice 5 2 1"):
        state.apply("keep 6")
    with pytest.raises(IllegalAction, match=r"keep one of your dice 5 2 1 \('keep 5'\) or pick"):
        state.apply("knock")


def test_three_of_a_kind_on_the_first_throw_wins_at_once():
    state = load("knack", players=3, ante=1).new_state()
    state = state.resolve((2, 3, 4)).resolve((1, 1, 1)).resolve((6, 6, 5))
    assert state.winners == (1,)
    assert state.ledger.balances()[1] == 2


def test_the_higher_triple_wins_when_several_are_made():
    state = load("knack", players=3).new_state()
    state = state.resolve((3, 3, 3)).resolve((5, 5, 5)).resolve((1, 2, 4))
    assert state.winners == (1,)


def test_equal_triples_share_the_pot_and_the_odd_koppar_goes_to_the_first():
    state = load("knack", players=3, ante=1).new_state()
    state = state.resolve((4, 4, 4)).resolve((1, 2, 3)).resolve((4, 4, 4))
    assert state.winners == (0, 2)
    assert state.ledger.balances() == (1, -1, 0)
    assert state.is_over()  # a shared pot has no single winner to double-knock


# --------------------------------------------------------------------------- the worst position


@pytest.mark.parametrize(("first", "second", "choice", "worst"), [
    ((1, 2, 3), (4, 5, 6), ("keep 3", "reroll"), REJD),    # nothing kept is worst
    ((1, 2, 3), (4, 5, 6), ("keep 1", "keep 6"), VIKOS),   # the lower kept die
    ((2, 2, 6), (1, 3, 5), (None, "keep 5"), REJD),        # a single die below any pair
])
def test_the_worst_placed_player_chooses(first, second, choice, worst):
    state = load("knack", players=2).new_state().resolve(first).resolve(second)
    for text in choice:
        if text is not None:
            state = state.apply(text)
    assert state.phase == "bet" and state.to_move() == worst


def test_the_lower_pair_is_worse_placed():
    state = load("knack", players=2).new_state().resolve((2, 2, 6)).resolve((3, 3, 1))
    assert state.to_move() == VIKOS


def test_equally_worst_placed_the_first_in_seat_order_chooses():
    state = load("knack", players=2).new_state().resolve((2, 2, 6)).resolve((2, 2, 1))
    assert state.to_move() == VIKOS


# --------------------------------------------------------------------------- betting


def bet_state(players=2, **rules) -> KnackState:
    """Vikos holds a pair of twos against pairs of sixes: he is worst placed."""
    state = load("knack", players=players, **rules).new_state().resolve((2, 2, 1))
    for _ in range(players - 1):
        state = state.resolve((6, 6, 1))
    return state


def test_a_raise_over_the_pot_is_refused_and_changes_nothing():
    state = bet_state(ante=5)
    with pytest.raises(IllegalAction, match="at most the pot: raise 1 to 10, or knock"):
        state.apply("raise 11")
    assert state == bet_state(ante=5)
    assert state.apply("raise 10").ledger.pot == 20


def test_only_the_worst_placed_player_raises():
    state = bet_state(players=3).apply("raise 2")
    assert state.to_move() == 1
    with pytest.raises(IllegalAction, match="only the worst-placed player raises; you call or "
                                            "fold"):
        state.apply("raise 1")
    assert state.apply("call").ledger.pot == 7


def test_calling_when_nobody_raised_is_refused_with_the_choices():
    with pytest.raises(IllegalAction, match="knock or raise 1 to 2"):
        bet_state().apply("call")


def test_knocking_starts_the_next_throw_without_money():
    state = bet_state().apply("knock")
    assert state.chance() is not None and state.ledger.pot == 2 and state.throw == 2


def test_folding_forfeits_what_was_paid_in():
    state = bet_state(players=3, ante=2).apply("raise 6").apply("call").apply("fold")
    assert 2 in state.ledger.folded and state.ledger.pot == 18
    state = state.resolve((2,)).resolve((6,))  # seat 2 no longer throws
    assert state.winners == (1,)
    assert state.ledger.balances() == (-8, 10, -2)


def test_the_last_player_in_the_pot_wins_it_when_the_others_fold():
    state = bet_state(ante=3).apply("raise 4").apply("fold")
    assert state.winners == (VIKOS,)
    assert state.ledger.balances() == (3, -3)


def test_a_folded_player_cannot_act():
    t = table([(2, 2, 1), (6, 6, 1), (6, 6, 1)], players=3)
    act(t, (0, "raise 2"), (1, "fold"))
    with pytest.raises(IllegalAction, match="Rejd has folded and is out of this pot; "
                                            "it is Cara's turn"):
        t.act(1, "call")
    assert len(t.events) == 5


def test_nobody_pays_more_than_his_purse():
    state = bet_state(ante=2, purse=5)
    assert state.ledger.max_raise(VIKOS) == 3  # the pot is 4, but only 3 are left
    with pytest.raises(IllegalAction, match="raise 1 to 3"):
        state.apply("raise 4")


def short_rejd(all_in: str) -> KnackState:
    """Vikos brings 20, Rejd 4. Vikos, worst placed, raises 2 and then 6; Rejd has 1 left."""
    game = load("knack", players=2, ante=1, purses="20,4", all_in=all_in)
    state = game.new_state().resolve((2, 2, 1)).resolve((6, 6, 1))
    state = state.apply("raise 2").apply("call").resolve((3,)).resolve((4,))
    assert state.ledger.purse(REJD) == 1 and state.ledger.max_raise(VIKOS) == 6
    return state.apply("raise 6")


def test_a_player_who_cannot_call_may_only_fold_without_all_in():
    state = short_rejd(all_in="no")
    assert [str(a) for a in state.legal_actions()] == ["fold"]
    with pytest.raises(IllegalAction, match="calling costs 6 and you have 1; fold"):
        state.apply("call")
    with pytest.raises(IllegalAction, match="does not allow all-in; fold"):
        state.apply("all-in")


def test_all_in_wins_from_each_player_only_what_was_put_in():
    state = short_rejd(all_in="yes")
    assert [str(a) for a in state.legal_actions()] == ["all-in", "fold"]
    state = state.apply("all-in")
    assert state.ledger.pot == 13 and state.ledger.all_in(REJD)
    state = state.resolve((1,)).resolve((5,))
    assert [str(a) for a in state.legal_actions()] == ["knock"]  # nobody could answer a raise
    state = state.apply("knock").resolve((1,)).resolve((6,))
    assert state.winners == (REJD,)
    # Rejd wins the 8 he matched; the 5 of the raise that he could not match go back
    assert state.ledger.balances() == (-4, 4)
    assert [m.kind for m in state.ledger.movements[-2:]] == ["win", "return"]


def test_asked_at_the_table_the_others_accept_the_all_in():
    state = short_rejd(all_in="ask").apply("all-in")
    assert state.phase == "agree" and state.to_move() == VIKOS
    assert state.ledger.pot == 12  # nothing is paid until it is agreed
    with pytest.raises(IllegalAction, match="asks to go all-in for 1: accept or refuse"):
        state.apply("call")
    state = state.apply("accept")
    assert state.ledger.all_in(REJD) and state.ledger.pot == 13 and state.chance() is not None


def test_a_refused_all_in_leaves_the_short_player_to_fold():
    state = short_rejd(all_in="ask").apply("all-in").apply("refuse")
    assert REJD in state.ledger.folded and state.winners == (VIKOS,)
    assert state.ledger.balances() == (3, -3)


def test_all_in_needs_every_other_player_in_the_pot_to_accept():
    game = load("knack", players=3, ante=1, purses="20,20,3", all_in="ask")
    state = game.new_state().resolve((2, 2, 1)).resolve((6, 6, 1)).resolve((5, 5, 1))
    state = state.apply("raise 3").apply("call").apply("all-in")
    assert state.to_move() == 0
    state = state.apply("accept")
    assert state.to_move() == 1 and not state.ledger.all_in(2)
    state = state.apply("accept")
    assert state.ledger.all_in(2) and state.chance() is not None


def test_purses_must_each_cover_the_ante():
    with pytest.raises(RuleError, match="purse of 1 cannot pay the ante of 2"):
        load("knack", ante=2, purses="10,1")
    with pytest.raises(RuleError, match="whole koppar separated by commas"):
        load("knack", purses="ten")
    assert load("knack", players=3, purses="7,9").new_state().ledger.stacks == (7, 9, 7)


# --------------------------------------------------------------------------- the double knock


def won_by_vikos(players=2, ante=3) -> KnackState:
    state = load("knack", players=players, ante=ante).new_state().resolve((6, 6, 6))
    for _ in range(players - 1):
        state = state.resolve((1, 2, 3))
    return state


def test_a_double_knock_of_12_or_more_wins_back_the_share():
    state = won_by_vikos(ante=3).apply("double").apply("accept")
    assert state.chance().count == 3 and state.chance().seat == REJD
    state = state.resolve((6, 5, 1))
    assert state.ledger.balances() == (0, 0)
    assert state.outcome().ranking == ((0, 1),)  # a draw, as the seed says


def test_a_double_knock_under_12_pays_the_share_again():
    state = won_by_vikos(ante=3).apply("double").apply("accept").resolve((5, 5, 1))
    assert state.ledger.balances() == (6, -6)


def test_the_winner_may_refuse_a_double_knock():
    state = won_by_vikos().apply("double").apply("refuse")
    assert state.is_over() and state.ledger.balances() == (3, -3)


def test_the_share_is_the_pot_divided_by_the_players():
    state = won_by_vikos(players=3, ante=4)
    assert state.share == 4 and state.to_move() == 1
    state = state.apply("pass").apply("double").apply("accept").resolve((1, 1, 1))
    assert state.ledger.balances() == (12, -4, -8)


def test_a_player_who_folded_cannot_double_knock():
    state = bet_state(players=3, ante=2).apply("raise 1").apply("fold").apply("call")
    state = state.resolve((2,)).resolve((6,))
    assert state.winners == (2,)
    assert state.queue == (VIKOS,)


def test_double_knock_needs_the_house_rule():
    assert won_by_vikos().to_move() == REJD
    state = load("knack", players=2, double_knock=False).new_state().resolve((6, 6, 6))
    assert state.resolve((1, 2, 3)).is_over()


def test_answering_a_double_knock_that_nobody_asked_is_refused():
    with pytest.raises(IllegalAction, match=r"'double'.*or 'pass'"):
        won_by_vikos().apply("accept")


# --------------------------------------------------------------------------- odds and text


def test_the_double_knock_succeeds_with_probability_exactly_0_375():
    rows = {r["event"]: r for r in odds_for(load("knack"))}
    row = rows["double knock: 12 or more on three dice"]
    assert row["chance"] == 0.375 and Fraction(row["exact"]) == Fraction(81, 216)


def test_three_of_a_kind_odds_from_each_position():
    assert sum(triple_chances((), 1)[0].values()) == Fraction(1, 36)
    assert sum(triple_chances((4,), 1)[0].values()) == Fraction(1, 36)
    assert triple_chances((5, 5), 1)[0] == {5: Fraction(1, 6)}
    rows = {r["event"]: r for r in odds_for(load("knack"))}
    assert rows["triple within 3 throws, keeping a pair"]["exact"] == str(1 - Fraction(5, 6) ** 3)


def test_the_higher_pair_wins_the_race_six_times_in_eleven():
    high, low = equities(((6, 6), (5, 5)))
    assert high == pytest.approx(6 / 11) and low == pytest.approx(5 / 11)
    assert sum(equities(((), (3,), (2, 2)))) == pytest.approx(1)


def sampled_race(positions, rng: random.Random) -> list[float]:
    """Throw until someone makes a triple, playing as the rules say; the pot shares."""
    kept = [tuple(p) for p in positions]
    while True:
        dice = [tuple(sorted(k + tuple(rng.randint(1, 6) for _ in range(3 - len(k))),
                             reverse=True)) for k in kept]
        triples = [d[0] if len(set(d)) == 1 else 0 for d in dice]
        if max(triples):
            best = [t == max(triples) for t in triples]
            return [b / sum(best) for b in best]
        for i, d in enumerate(dice):
            pairs = [f for f in d if d.count(f) == 2]
            kept[i] = (pairs[0], pairs[0]) if pairs else (d[0],)


def test_race_shares_agree_with_races_played_out():
    positions = ((), (3,), (2, 2))
    rng = random.Random(5)
    n = 6000
    totals = [0.0, 0.0, 0.0]
    for _ in range(n):
        for i, share in enumerate(sampled_race(positions, rng)):
            totals[i] += share
    for exact, total in zip(equities(positions), totals, strict=True):
        assert total / n == pytest.approx(exact, abs=0.025)


def test_odds_take_no_settings():
    with pytest.raises(RuleError, match="no settings"):
        odds_for(load("knack"), linka="6,3")


def test_a_purse_below_the_ante_is_refused():
    with pytest.raises(RuleError, match="cannot pay the ante"):
        load("knack", ante=10, purse=5)


def test_unreadable_actions_say_what_to_write():
    game = load("knack")
    with pytest.raises(IllegalAction, match="'raise 3'"):
        game.parse_action("raise lots")
    with pytest.raises(IllegalAction, match="'keep 6'"):
        game.parse_action("keep seven")
    assert str(game.parse_action("höj 3")) == "raise 3"
    assert str(game.parse_action("knacka")) == "knock"
    assert str(game.parse_action("double knock")) == "double"


def test_render_shows_dice_pot_and_the_choice():
    t = table([(3, 6, 2), (5, 5, 1)], ante=2)
    act(t, (VIKOS, "keep 6"))
    text = t.game.render(t.state.view(VIKOS), t.seats)
    assert "pot 4" in text and "Vikos: 6 3 2" in text and "pair of 5s" in text
    assert "Vikos is worst placed: knock or raise up to 4" in text


def test_render_names_the_winner_and_the_triple():
    state = won_by_vikos(ante=3)
    text = state.game.render(state.view(None), ["Vikos", "Rejd"])
    assert "Vikos won the pot of 6" in text and "three 6s" in text
    assert "Rejd may double-knock for 3" in text


# --------------------------------------------------------------------------- bots


def strong_choice(state: KnackState) -> str:
    bot = make_bot(state.game, "strong")
    seat = state.to_move()
    return str(bot.choose(state.view(seat), state.legal_actions(), random.Random(0)))


def test_the_strong_bot_folds_a_long_shot_facing_the_full_pot():
    state = load("knack", players=3).new_state()
    state = state.resolve((1, 2, 3)).resolve((1, 4, 5)).resolve((6, 6, 2))
    state = state.apply("reroll").apply("keep 1")
    state = state.apply("raise 3")  # Vikos, worst placed, raises the pot
    assert state.to_move() == 1
    assert strong_choice(state) == "fold"  # a single 1 against a pair of sixes


def test_the_strong_bot_calls_when_ahead_and_knocks_when_behind():
    state = bet_state().apply("raise 2")
    assert strong_choice(state) == "call"  # sixes against twos
    assert strong_choice(bet_state()) == "knock"


def test_the_strong_bot_never_double_knocks_but_accepts():
    state = won_by_vikos()
    assert strong_choice(state) == "pass"
    assert strong_choice(state.apply("double")) == "accept"


@pytest.mark.parametrize("preset", [None, "short"])
def test_the_bots_play_whole_games(preset):
    game = load("knack", preset=preset, players=3)
    for seed in range(15):
        t = Table(game, dice=SeededDice(seed))
        outcome = play_out(t, [make_bot(game, n) for n in ("strong", "random", "strong")],
                           random.Random(seed))
        assert sum(outcome.payoffs) == 0

"""Heads-up Linka solved exactly: values, exploitability, the tables behind them, the bot."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.simulate import mean_interval
from kastkopp.dice import SeededDice
from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.games.linka import LinkaRules
from kastkopp.strategy import bot_names, make_bot
from kastkopp.strategy import linka_equilibrium as le
from kastkopp.strategy.cfr import Solver, build

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow

# A small table: ante 1, purses of 3, so each raise is 1 or 2. The seed's stakes (ante 5)
# are solved the same way, only for longer (``kastkopp solve linka --rule ante=5``).
SMALL = {"purse": 3}


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KASTKOPP_CACHE", str(cache))
        le.equilibrium_for.cache_clear()
        eq = le.equilibrium_for(LinkaRules.make(**SMALL))
        yield eq
    le.equilibrium_for.cache_clear()


def test_the_whole_game_is_unexploitable_and_the_dealer_has_the_edge(solved):
    assert solved.exploitability < 1e-4
    assert solved.value == pytest.approx(-0.028396935632, abs=1e-9)
    # each best response gains nothing against the equilibrium
    assert solved.best_responses["first_bettor"] == pytest.approx(solved.value, abs=1e-9)
    assert solved.best_responses["dealer"] == pytest.approx(-solved.value, abs=1e-9)


def test_the_linear_programme_and_cfr_plus_agree_on_a_deal():
    # the seed's first example: linka 5 4, Rejd (betting first) shows a 6, Vikos a 4
    game, _, _ = le.deal_game(le.Deal((5, 4), 6, 4))
    tree = build(le.DealBetting(le.Betting.of(LinkaRules.make(**SMALL)), game))
    strategy, value = le.sequence_form_lp(tree)
    cfr = Solver(tree)
    cfr.solve(1e-4, max_iterations=20_000)
    assert cfr.game_value() == pytest.approx(value, abs=5e-4)
    assert Solver(tree).exploitability(strategy) < 1e-12


def test_deals_that_rank_alike_are_one_game_and_the_chances_add_up():
    weights = le.deal_weights()
    assert len(weights) == 258
    assert sum(weights.values()) == pytest.approx(1.0)


def test_the_showdown_and_the_folds_are_those_of_the_table():
    rules = LinkaRules.make(**SMALL)
    deal = le.Deal((2, 1), 5, 4)  # the seed's second example: nothing, or a 1, 2 or 3
    game, first_index, dealer_index = le.deal_game(deal)
    betting = le.DealBetting(le.Betting.of(rules), game)
    table = load("linka", players=2, **SMALL)
    for line in (["check", "check"], ["raise 2", "call"], ["check", "raise 1", "fold"]):
        key = betting.expand(tuple(line))
        assert not hasattr(key, "actions")
        payoff = betting.payoff(key.key)
        for first_hidden in range(1, 7):
            for dealer_hidden in range(1, 7):
                state = table.new_state().resolve((2, 1)).resolve((5,)).resolve((4,))
                state = state.resolve((first_hidden,)).resolve((dealer_hidden,))
                for action in line:
                    state = state.apply(action)
                won = payoff[first_index[first_hidden - 1], dealer_index[dealer_hidden - 1]]
                if state.is_over():
                    assert state.outcome().payoffs[1] == won
                else:  # equal hands play again, an even chance: worth nothing
                    assert state.phase == "replay linka" and won == 0


def test_the_cache_gives_back_the_same_strategy(solved, tmp_path):
    path = tmp_path / "linka.npz"
    le.save(solved, path)
    again = le.load(solved.rules, path)
    deal = le.Deal((6, 3), 2, 2)
    for hidden in range(1, 7):
        assert again.policy(deal, [], hidden, 1) == solved.policy(deal, [], hidden, 1)
    assert again.value == solved.value and again.cached


def test_a_certain_winner_never_folds_and_a_certain_loser_never_calls(solved):
    # linka 6 5: the first bettor's 6 and 5 are the linka dice exactly
    deal = le.Deal((6, 5), 6, 1)
    assert solved.policy(deal, ["check", "raise 1"], 5, 1).get("fold", 0) == 0
    # the dealer's 1 and a hidden 1 make nothing (sum 2) against a raise from a 6
    policy = solved.policy(le.Deal((6, 5), 6, 1), ["raise 2"], 1, 0)
    assert policy["call"] + policy.get("raise 1", 0) + policy.get("raise 2", 0) < 1e-9


def test_the_summary_covers_every_hand_and_its_frequencies_add_up(solved):
    rows = solved.rows()
    opening = [r for r in rows if r["situation"] == "opening"]
    assert [r["hand"] for r in opening] == ["exact", "both", "sum", "high", "low", "nothing"]
    assert sum(r["chance"] for r in opening) == pytest.approx(1.0)
    for row in rows:
        total = sum(row.get(k, 0.0) for k in ("check", "call", "raise", "fold"))
        assert total == pytest.approx(1.0)


def test_the_bot_is_listed_and_chooses_from_its_own_view_only(solved):
    assert "equilibrium" in bot_names("linka")
    game = load("linka", players=2, **SMALL)
    bot = make_bot(game, "equilibrium")
    dealt = game.new_state().resolve((5, 4)).resolve((6,)).resolve((4,)).resolve((3,))
    # the dealer's hidden die differs; the first bettor's choices must not
    choices = set()
    for dealer_hidden in range(1, 7):
        state = dealt.resolve((dealer_hidden,))
        choices.add(str(bot.choose(state.view(1), state.legal_actions(), random.Random(7))))
    assert len(choices) == 1
    views = {json.dumps(dealt.resolve((h,)).view(1), sort_keys=True) for h in range(1, 7)}
    assert len(views) == 1


def test_the_bot_mixes_with_the_rng_it_is_given(solved):
    game = load("linka", players=2, **SMALL)
    bot = make_bot(game, "equilibrium")
    # find a mixed decision, then see that the rng decides it
    for deal, _ in le.deals():
        for hidden in range(1, 7):
            policy = solved.policy(deal, [], hidden, 1)
            if sum(1 for p in policy.values() if p > 0.05) < 2:
                continue
            state = game.new_state().resolve(deal.linka).resolve((deal.first_open,))
            state = state.resolve((deal.dealer_open,)).resolve((hidden,)).resolve((1,))
            seen = {str(bot.choose(state.view(1), state.legal_actions(), random.Random(s)))
                    for s in range(40)}
            assert len(seen) >= 2
            return
    pytest.fail("no mixed opening found")


def test_the_equilibrium_bot_beats_the_strong_bot_heads_up(solved):
    game = load("linka", players=2, **SMALL)
    payoffs = []
    for number in range(1500):
        seats = ["equilibrium", "strong"] if number % 2 == 0 else ["strong", "equilibrium"]
        table = Table(game, seats=seats, dice=SeededDice(number))
        outcome = play_out(table, [make_bot(game, s) for s in seats], random.Random(number))
        payoffs.append(outcome.payoffs[seats.index("equilibrium")])
    mean, low, high = mean_interval(payoffs)
    assert low > 0, (mean, low, high)


def test_solve_linka_json(solved, monkeypatch, tmp_path):
    monkeypatch.setenv("KASTKOPP_CACHE", str(tmp_path))
    le.save(solved, le.cache_path(solved.rules))
    result = CliRunner().invoke(app, ["solve", "linka", "--rule", "purse=3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "linka" and data["cached"]
    assert data["first_bettor_value"] == pytest.approx(solved.value)
    assert data["exploitability"] < 1e-4 and data["deal_games"] == 258
    assert np.isclose(sum(r["chance"] for r in data["hands"]
                          if r["situation"] == "opening"), 1.0)


def test_the_solver_refuses_all_in_tables():
    result = CliRunner().invoke(app, ["solve", "linka", "--rule", "all_in=ask"])
    assert result.exit_code != 0 and "all-in" in result.output


@pytest.mark.parametrize("deal", [le.Deal((5, 4), 6, 4), le.Deal((2, 1), 5, 4),
                                  le.Deal((6, 6), 6, 1)])
def test_played_off_exactly_the_equilibrium_gets_at_least_its_value_against_any_bot(
        solved, deal):
    # minimax: whatever the strong bot does, each seat of the equilibrium gets its value;
    # against its own bot (any pure strategy it mixes) exactly its value
    game = load("linka", players=2, **SMALL)
    betting = le.Betting.of(solved.rules)
    dealt = le.deal_game(deal)[0]
    value = solved.games[dealt].value
    first, dealer = le.play_off_game(solved, betting, dealt, make_bot(game, "strong"))
    assert first >= value - 1e-9 and dealer >= -value - 1e-9
    first, dealer = le.play_off_game(solved, betting, dealt, make_bot(game, "equilibrium"))
    assert first == pytest.approx(value, abs=1e-9) and dealer == pytest.approx(-value, abs=1e-9)

"""Heads-up Knack solved by backward induction, checked against the module's own table."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import SeededDice, multisets
from kastkopp.engine import RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.knack import KnackRules, KnackState
from kastkopp.strategy import make_bot
from kastkopp.strategy.knack_equilibrium import KEPT, match_value, solution_for, solve

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow

SMALL = {"purse": 3}  # stakes 1 to 3: raises of 1 or 2, a handful of betting lines


def brute_force(state: KnackState, last_throw: int) -> float:
    """Seat 0's value by expectimax over the table itself: every throw it enumerates, every
    action it allows; a pot nobody has won after ``last_throw`` throws is shared."""

    @cache
    def value(key: Any) -> float:
        return _value(states[key])

    states: dict[Any, KnackState] = {}

    def visit(s: KnackState) -> float:
        ledger = s.ledger
        key = (s.phase, s.throw, s.kept, s.dice, s.queue, s.worst, s.asker, s.winners,
               s.share, ledger.balances(), tuple(ledger.paid_in(p) for p in (0, 1)),
               ledger.folded, ledger.round_start == len(ledger.movements))
        states.setdefault(key, s)
        return value(key)

    def _value(s: KnackState) -> float:
        if s.is_over():
            return s.outcome().payoffs[0]
        chance = s.chance()
        if chance is not None:
            if s.phase == "roll" and s.throw > last_throw:
                return 0.0
            return sum(float(p) * visit(s.resolve(faces)) for faces, p in multisets(chance.count))
        values = [visit(s.apply(a)) for a in s.legal_actions()]
        return max(values) if s.to_move() == 0 else min(values)

    return visit(state)


@pytest.fixture(scope="module")
def small() -> KnackRules:
    return KnackRules.make(**SMALL)


@pytest.mark.parametrize("seat0, seat1", [((6, 6, 1), (5, 5, 2)), ((2, 2, 6), (4, 4, 1)),
                                          ((3, 3, 5), (3, 3, 1))])
def test_pairs_racing_three_throws_match_the_brute_force_expectation(small, seat0, seat1):
    # both pairs stay: from the betting after the first throw, three more throws
    game = load("knack", players=2, **SMALL)
    state = game.new_state().resolve(seat0).resolve(seat1)
    assert state.phase == "bet"
    solved = solve(small, throws_limit=3)
    kept = (state.kept[0], state.kept[1])
    assert solved.bet_value(1, *kept) == pytest.approx(brute_force(state, 4), abs=1e-12)


def test_a_kept_die_against_a_pair_matches_the_brute_force_expectation(small):
    # seat 0 keeps a die or rerolls (four choices), a pair against it: one more throw
    game = load("knack", players=2, **SMALL)
    state = game.new_state().resolve((6, 3, 1)).resolve((4, 4, 2))
    assert state.phase == "keep"
    solved = solve(small, throws_limit=1)
    expected = max(solved.bet_value(1, k, (4, 4)) for k in ((6,), (3,), (1,), ()))
    assert expected == pytest.approx(brute_force(state, 2), abs=1e-12)


def test_the_first_throw_of_the_game_matches_the_brute_force_expectation(small):
    # every first throw of both players, every keep and bet, and the double knock
    game = load("knack", players=2, **SMALL)
    solved = solve(small, throws_limit=1)
    assert solved.value(1, (), ()) == pytest.approx(brute_force(game.new_state(), 1),
                                                    abs=1e-12)


def test_the_whole_game_is_a_fixed_point_and_its_cut_offs_converge_to_it(small):
    whole = solve(small)
    assert whole.residual < 1e-11
    cut = solve(small, throws_limit=200)
    assert abs(cut.first_value - whole.first_value) < 1e-9


def test_the_double_knock_is_never_asked_and_always_granted():
    solution = solution_for(KnackRules.make(**SMALL))
    ask, grant = solution.double_knock(3)
    assert ask == pytest.approx(-0.25 * 3) and grant == pytest.approx(0.25 * 3)
    assert solution.won(3) == 3


def test_a_pair_raises_against_a_player_who_kept_nothing_only_when_worse_placed():
    solution = solution_for(KnackRules.make())
    # (1, 1) against a single 6: the pair is better placed, the 6 bets and knocks
    values = solution.raise_values(1, (1, 1), (6,))
    assert min(values, key=lambda r: (values[r], r)) == 0


def test_the_solver_refuses_all_in_tables():
    with pytest.raises(RuleError, match="all-in"):
        solve(KnackRules.make(all_in="ask"))


def test_the_bot_sees_only_its_view_and_its_randomness_is_the_rng():
    game = load("knack", players=2, **SMALL)
    bot = make_bot(game, "equilibrium")
    state = game.new_state().resolve((6, 3, 1)).resolve((4, 4, 2))
    view = state.view(0)
    assert bot.choose(view, state.legal_actions(), random.Random(1)) == \
        bot.choose(json.loads(json.dumps(view)), state.legal_actions(), random.Random(2))


def test_keeping_second_against_a_kept_one_the_bot_rerolls_and_raises_the_pot():
    # where the solution parts from the strong bot: seat 0 keeps a 1 (from 1 2 3), seat 1
    # rerolls all three to be worst placed, and raises the pot with a 50.7% share
    game = load("knack", players=2)
    bot, strong = make_bot(game, "equilibrium"), make_bot(game, "strong")
    state = game.new_state().resolve((3, 2, 1)).resolve((5, 4, 2)).apply("keep 1")
    rng = random.Random(0)
    assert str(bot.choose(state.view(1), state.legal_actions(), rng)) == "reroll"
    assert str(strong.choose(state.view(1), state.legal_actions(), rng)) == "keep 5"
    state = state.apply("reroll")
    assert state.to_move() == 1
    assert str(bot.choose(state.view(1), state.legal_actions(), rng)) == "raise 2"
    assert str(strong.choose(state.view(1), state.legal_actions(), rng)) == "knock"


def test_played_off_exactly_the_equilibrium_bot_beats_the_strong_bot(small):
    # every choice asked of the bots themselves, every chance weighed: no sampling noise.
    # The edge is small (the strong bot plays Knack well), so it is shown exactly: a
    # simulation would need millions of games to separate it from zero.
    game = load("knack", players=2, **SMALL)
    eq, strong = make_bot(game, "equilibrium"), make_bot(game, "strong")
    as_first = match_value(small, (eq, strong))
    as_second = -match_value(small, (strong, eq))
    assert as_first > 5e-4 and as_second > 5e-4
    # the bot is the solution: against itself it gets the solved value
    assert match_value(small, (eq, eq)) == pytest.approx(solution_for(small).first_value,
                                                         abs=1e-12)


def test_solve_knack_json():
    result = CliRunner().invoke(app, ["solve", "knack", "--rule", "purse=4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "knack" and abs(data["first_value"]) < 1e-9
    assert data["residual"] < 1e-9
    assert data["double_knock"] == {"ask": False, "grant": True,
                                    "asking_costs_per_stake": pytest.approx(0.25)}
    assert len(data["positions"]) == len(KEPT) ** 2


def test_solve_knack_plays_the_bot_off_against_another_and_refuses_random():
    result = CliRunner().invoke(app, ["solve", "knack", "--rule", "purse=3", "--versus",
                                      "strong", "--json"])
    assert result.exit_code == 0, result.output
    versus = json.loads(result.output)["versus"]
    assert versus["bot"] == "strong" and versus["mean"] > 5e-4
    refused = CliRunner().invoke(app, ["solve", "knack", "--rule", "purse=3", "--versus",
                                       "random"])
    assert refused.exit_code != 0 and "without chance" in refused.output


def test_with_uneven_purses_the_bot_plays_whole_games_and_the_richer_forces_folds():
    game = load("knack", players=2, purses="10,3")
    solution = solution_for(game.rules)
    # at a stake of 2 seat 1 has 1 koppar left: a raise of 2 he cannot pay, so he folds,
    # and seat 0, worst placed with nothing kept against a pair, takes the pot by raising
    values = solution.raise_values(2, (), (6, 6))
    assert values[1] < values[0] < values[2] == 2.0
    bots = [make_bot(game, "equilibrium"), make_bot(game, "equilibrium")]
    for number in range(20):
        table = Table(game, seats=["a", "b"], dice=SeededDice(number))
        play_out(table, bots, random.Random(number))
        assert table.is_over()

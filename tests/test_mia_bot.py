"""Slosch played by its solution: the equilibrium bot, heads-up and at a larger table."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.simulate import mean_interval
from kastkopp.dice import SeededDice
from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.games.mia import MiaRules
from kastkopp.strategy import make_bot
from kastkopp.strategy.mia import EquilibriumMiaBot
from kastkopp.strategy.mia_equilibrium import equilibrium_for

# slow: bots play whole series of games (seconds each)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def slosch():
    return equilibrium_for(MiaRules.make("slosch"))


def test_kastkopp_games_lists_the_equilibrium_bot_for_slosch():
    result = CliRunner().invoke(app, ["games", "--json"])
    mia = next(g for g in json.loads(result.output) if g["name"] == "mia")
    assert "equilibrium" in [b["name"] for b in mia["bots"]]


def test_heads_up_it_announces_and_answers_as_the_equilibrium(slosch):
    game = load("mia", players=2)
    bot = make_bot(game, "equilibrium")
    assert isinstance(bot, EquilibriumMiaBot)
    state = game.new_state().resolve((5, 4))
    view = state.view(0)
    expected = slosch.announcement_policy(None)[54]
    assert bot.policy(view) == {f"announce {c}": p for c, p in expected.items()}
    answered = state.apply("announce 63")
    policy = bot.policy(answered.view(1))
    assert policy == pytest.approx(slosch.response_policy(None, 63))
    assert sum(policy.values()) == pytest.approx(1.0)


def test_a_passed_claim_is_answered_from_the_rollers_own_dice(slosch):
    game = load("mia", players=2)
    bot = make_bot(game, "equilibrium")
    holds = game.new_state().resolve((6, 3)).apply("announce 63").apply("pass")
    fails = game.new_state().resolve((3, 1)).apply("announce 63").apply("pass")
    # with the claim true he never lifts his own claim; with it false he must lift or roll
    assert bot.policy(holds.view(0)).get("call", 0.0) < 1e-3
    assert sum(bot.policy(fails.view(0)).values()) == pytest.approx(1.0)
    assert set(bot.policy(fails.view(0))) == {"call", "roll"}


def test_the_choice_depends_on_the_view_only_and_the_rng_decides_mixtures():
    game = load("mia", players=2)
    bot = make_bot(game, "equilibrium")
    # the responder's answer to 63 is mixed (lift or pass); the roller's dice do not matter
    answers = set()
    for cup in ((6, 3), (3, 1), (2, 1)):
        state = game.new_state().resolve(cup).apply("announce 63")
        for seed in range(30):
            answers.add((cup, str(bot.choose(state.view(1), state.legal_actions(),
                                             random.Random(seed)))))
    by_cup = {cup: {a for c, a in answers if c == cup} for cup in ((6, 3), (3, 1), (2, 1))}
    assert by_cup[(6, 3)] == by_cup[(3, 1)] == by_cup[(2, 1)] == {"call", "pass"}


def _mean_payoff(players: list[str], games: int, seat_of_interest: int = 0,
                 **rules: str) -> tuple[float, float, float]:
    n = len(players)
    game = load("mia", players=n, **rules)
    payoffs = []
    for number in range(games):
        shift = number % n
        order = [(i + shift) % n for i in range(n)]
        seats = [players[e] for e in order]
        table = Table(game, seats=[f"{s}{i}" for i, s in enumerate(seats)],
                      dice=SeededDice(number))
        outcome = play_out(table, [make_bot(game, s) for s in seats], random.Random(number))
        payoffs.append(outcome.payoffs[order.index(seat_of_interest)])
    return mean_interval(payoffs)


def test_the_equilibrium_bot_beats_the_sensible_bot_heads_up(slosch):
    mean, low, high = _mean_payoff(["equilibrium", "sensible"], 600)
    assert low > 0, (mean, low, high)


@pytest.mark.parametrize("preset", ["classic", "maexchen"])
def test_every_preset_is_played_to_the_end_heads_up_and_at_four(preset):
    for players in (["equilibrium", "sensible"], ["equilibrium", "random", "sensible",
                                                 "equilibrium"]):
        game = load("mia", preset=preset, players=len(players))
        for number in range(5):
            table = Table(game, seats=[f"{p}{i}" for i, p in enumerate(players)],
                          dice=SeededDice(number))
            play_out(table, [make_bot(game, p) for p in players], random.Random(number))
            assert table.is_over()

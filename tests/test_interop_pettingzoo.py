"""The PettingZoo environments: PettingZoo's own API and seed tests for every game and preset,
and the promises the adapter adds (observations from views only, masks, errors, render)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from kastkopp.engine import IllegalAction
from kastkopp.games import registered

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from kastkopp.interop.pettingzoo import env

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]
# the slower checks play each preset once, with the most players the suite uses for it
ONE_PER_PRESET = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in {p: n for p, n in sorted(cls.conformance_configs(),
                                                     key=lambda c: c[1])}.items()
]


def random_episode(environment, seed: int, check=None):
    """Play one episode with uniformly random legal actions; call ``check`` before each."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            action = None
        else:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(rng.choice(legal))
            if check is not None:
                check(agent, observation)
        environment.step(action)


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_pettingzoo_api_test_passes(name, preset, players):
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation {"observation", "action_mask"},
        # the layout its own classic games use
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name, preset=preset, players=players), num_cycles=60)


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_pettingzoo_seed_test_passes(name, preset, players):
    seed_test(lambda: env(name, preset=preset, players=players), num_cycles=60)


@pytest.mark.parametrize(("name", "preset", "players"), ONE_PER_PRESET)
def test_observation_is_the_encoded_view_and_never_hidden_dice(name, preset, players):
    environment = env(name, preset=preset, players=players, max_steps=200)
    rng = random.Random(5)

    def check(agent, observation):
        seat = environment.seat[agent]
        state = environment.table.state
        # the observation of a state whose other hidden dice were rerolled is the same
        other = state.resample_hidden(seat, rng)
        expected = environment.encoder.encode(other.view(seat))
        assert np.array_equal(observation["observation"], expected)
        legal = {environment.action_number(str(a)) for a in state.legal_actions()}
        assert set(np.flatnonzero(observation["action_mask"])) == legal

    for seed in range(2):
        random_episode(environment, seed, check)


@pytest.mark.parametrize(("name", "preset", "players"), ONE_PER_PRESET)
def test_episode_ends_with_the_outcome_payoffs_as_rewards(name, preset, players):
    environment = env(name, preset=preset, players=players, max_steps=100_000)
    environment.reset(seed=3)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        action = None if termination or truncation else int(
            rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    outcome = environment.table.state.outcome()
    assert [totals[a] for a in environment.possible_agents] == list(outcome.payoffs)
    # zero-sum, as the OpenSpiel adapter declares every game to be
    assert sum(outcome.payoffs) == pytest.approx(0.0, abs=1e-9)


def test_same_seed_same_episode_and_next_reset_differs():
    first, second = env("mia", players=3), env("mia", players=3)
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.table.events == second.table.events
    first.reset()
    second.reset()
    assert first.table.events == second.table.events
    second.reset(seed=12)
    assert first.table.dice.seed != second.table.dice.seed


def test_an_illegal_action_is_refused_with_the_legal_ones_and_changes_nothing():
    environment = env("mia", players=2)
    environment.reset(seed=1)
    before = environment.table.state
    illegal = environment.action_number("call")  # the first player must announce
    with pytest.raises(IllegalAction, match="legal: "):
        environment.step(illegal)
    with pytest.raises(IllegalAction, match="no action 999"):
        environment.step(999)
    assert environment.table.state == before
    assert environment.agent_selection == "player_0"


def test_ansi_render_is_the_games_own_text_of_the_spectator_view():
    environment = env("mia", preset="maexchen", players=2, render_mode="ansi")
    random_episode(environment, seed=4)
    text = environment.render()
    table = environment.table
    assert text == table.game.render(table.state.view(None), table.seats)
    assert "won" in text


def test_unknown_render_mode_is_refused():
    with pytest.raises(ValueError, match="render_mode"):
        env("mia", render_mode="rgb_array")

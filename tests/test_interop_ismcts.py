"""Information-set MCTS on every game: OpenSpiel's own ``ISMCTSBot`` through the adapter's
``resample_from_infostate``, the states rebuilt from a seat's view, and ``bot:ismcts``."""

from __future__ import annotations

import random

import pytest

from kastkopp.engine import Table, play_out
from kastkopp.games import load, registered
from kastkopp.interop.encoding import canonical
from kastkopp.strategy import bot_names, make_bot

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from kastkopp.interop import openspiel as adapter  # noqa: E402
from kastkopp.interop.ismcts import IsmctsBot, searchable  # noqa: E402

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]
HIDDEN = [config for config in CONFIGS if registered()[config.values[0]].hidden_information]
REBUILT = [config for config in CONFIGS if searchable(registered()[config.values[0]])]


def spiel_game(name, preset, players):
    return pyspiel.load_game(adapter.spiel_name(name),
                             {"players": players, "preset": preset or "", "rules": ""})


def decisions(game, seed: int, steps: int = 300):
    """The decision states of one random play through the adapter."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_openspiel_ismcts_plays_every_game_to_the_end(name, preset, players):
    game = spiel_game(name, preset, players)
    if not registered()[name].hidden_information:
        # OpenSpiel's IS-MCTS asserts imperfect information; with nothing hidden the only
        # state a seat cannot tell from this one is this one
        for state in decisions(game, seed=3, steps=60):
            twin = state.resample_from_infostate(state.current_player(), random.random)
            assert twin.state == state.state and twin.history() == state.history()
        return
    rng = np.random.RandomState(7)
    # tiny budgets, and play-outs cut short: the game itself is played to its end
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=20)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes, p=weights))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(("name", "preset", "players"), HIDDEN)
def test_a_resampled_state_is_the_same_to_its_seat_and_redraws_the_others_dice(
        name, preset, players):
    game = spiel_game(name, preset, players)
    sampler = random.Random(5).random
    changed = 0
    for state in decisions(game, seed=11):
        seat = state.current_player()
        for _ in range(4):
            twin = state.resample_from_infostate(seat, sampler)
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert twin.observation_string(seat) == state.observation_string(seat)
            assert twin.legal_actions() == state.legal_actions()
            assert state.state.view(seat) == twin.state.view(seat)  # its own dice too
            # some other seat sees something else: its own hidden dice were drawn again
            others = [s for s in range(players) if s != seat]
            changed += any(twin.state.view(s) != state.state.view(s) for s in others)
    assert changed > 0


@pytest.mark.parametrize(("name", "preset", "players"), HIDDEN)
def test_resampling_draws_its_numbers_from_the_sampler(name, preset, players):
    game = spiel_game(name, preset, players)
    for state in decisions(game, seed=4, steps=100):
        seat = state.current_player()
        one = state.resample_from_infostate(seat, random.Random(1).random)
        two = state.resample_from_infostate(seat, random.Random(1).random)
        assert one.state == two.state


@pytest.mark.parametrize(("name", "preset", "players"), REBUILT)
def test_a_world_rebuilt_from_a_view_shows_that_view(name, preset, players):
    game = load(name, preset=preset, players=players)
    rng = random.Random(8)
    worlds = 0
    differ = 0
    for _ in range(12):
        state = game.new_state()
        while not state.is_over():
            chance = state.chance()
            if chance is not None:
                state = state.resolve(tuple(rng.randint(1, chance.sides)
                                            for _ in range(chance.count)))
                continue
            seat = state.to_move()
            view = state.view(seat)
            world = game.world(view, rng)
            assert world is not None
            assert canonical(world.view(seat)) == canonical(view)
            assert world.legal_actions() == state.legal_actions()
            worlds += 1
            differ += world != state
            state = state.apply(rng.choice(state.legal_actions()))
    assert worlds > 0 and differ > 0


@pytest.mark.parametrize(("name", "preset", "players"), [
    ("liars_dice", "perudo", 2), ("liars_dice", "single_hand", 3),
    ("poker_dice", None, 2), ("mia", "maexchen", 3), ("linka", None, 3)])
def test_bot_ismcts_plays_a_game_to_the_end(name, preset, players):
    game = load(name, preset=preset, players=players, dice=2) if name == "liars_dice" \
        and preset == "perudo" else load(name, preset=preset, players=players)
    assert "ismcts" in bot_names(name)
    assert isinstance(make_bot(game, "ismcts"), IsmctsBot)
    bots = [IsmctsBot(game, simulations=8), make_bot(game, "random")]
    bots += [make_bot(game, "random") for _ in range(players - 2)]
    outcome = play_out(Table(game), bots, random.Random(2))
    assert sum(outcome.payoffs) == pytest.approx(0.0)


def test_bot_ismcts_draws_every_choice_from_the_rng_it_is_given():
    game = load("liars_dice", preset="perudo", players=2, dice=2)
    state = game.new_state().resolve((2, 5)).resolve((3, 3))
    view, legal = state.view(0), state.legal_actions()
    bot = IsmctsBot(game, simulations=30)
    choices = [bot.choose(view, legal, random.Random(seed)) for seed in range(8)]
    again = [bot.choose(view, legal, random.Random(seed)) for seed in range(8)]
    assert choices == again  # nothing but the rng it was given
    assert len(set(choices)) > 1  # and the rng does decide


def test_games_without_hidden_dice_offer_no_bot_ismcts():
    for name, cls in registered().items():
        if not cls.hidden_information:
            assert "ismcts" not in bot_names(name)

"""The OpenSpiel games: OpenSpiel's own random-simulation test (with state serialisation)
for every game and preset, consistency of information states, and its algorithms running."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from kastkopp.engine import RuleError
from kastkopp.games import load, registered
from kastkopp.games.liars_dice import LiarsRules
from kastkopp.strategy import liars_equilibrium as equilibrium
from kastkopp.strategy.liars_bidding import Bidding

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.policy import TabularPolicy  # noqa: E402

from kastkopp.interop import openspiel as adapter  # noqa: E402

# slow: random simulations of every game and preset through the adapter
pytestmark = pytest.mark.slow

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


def spiel_game(name, preset, players, rules=""):
    return pyspiel.load_game(adapter.spiel_name(name),
                             {"players": players, "preset": preset or "", "rules": rules})


def random_states(game, seed: int, steps: int = 200):
    """The states of one random play, with chance outcomes drawn by their probabilities."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state = state.child(rng.choices(outcomes, weights)[0])
        else:
            state = state.child(rng.choice(state.legal_actions()))


def test_every_registered_game_is_a_pyspiel_game():
    names = {game.short_name for game in pyspiel.registered_games()}
    for name in registered():
        assert adapter.spiel_name(name) in names


def test_the_declared_game_length_is_the_games_own_where_its_rules_fix_one():
    declared = load("yatzy", preset="maxi", players=2).bounds().length
    assert declared and spiel_game("yatzy", "maxi", 2).max_game_length() == declared
    assert spiel_game("knack", None, 2).max_game_length() == adapter.MAX_GAME_LENGTH


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_openspiel_random_simulation_test_passes_with_serialisation(name, preset, players):
    pyspiel.random_sim_test(spiel_game(name, preset, players), num_sims=1, serialize=True,
                            verbose=False)


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_states_with_one_information_state_offer_the_same_choice(name, preset, players):
    game = spiel_game(name, preset, players)
    seen: dict[tuple[int, str], tuple[int, tuple[int, ...]]] = {}
    histories: dict[tuple[int, str], set[tuple[int, ...]]] = defaultdict(set)
    for seed in range(12):
        for state in random_states(game, seed, steps=40):
            for player in range(players):
                key = (player, state.information_state_string(player))
                mover = state.current_player()
                choice = (mover, tuple(state.legal_actions()) if mover == player else ())
                assert seen.setdefault(key, choice) == choice, key[1]
                histories[key].add(tuple(state.history()))
    if registered()[name].hidden_information:
        # not vacuous: some information state was reached along different histories
        assert any(len(h) > 1 for h in histories.values())


@pytest.mark.parametrize(("name", "preset", "players"), ONE_PER_PRESET)
def test_information_state_never_shows_another_seats_hidden_dice(name, preset, players):
    game = spiel_game(name, preset, players)
    rng = random.Random(2)
    for state in random_states(game, seed=9, steps=60):
        for seat in range(players):
            twin = state.clone()
            twin.state = state.state.resample_hidden(seat, rng)
            assert twin.observation_string(seat) == state.observation_string(seat)
            assert twin.observation_tensor(seat) == state.observation_tensor(seat)


def test_game_string_round_trips_with_house_rules():
    game = spiel_game("mia", "maexchen", 2, rules="rounds:3")
    again = pyspiel.load_game(str(game))
    assert again.game == game.game == load("mia", preset="maexchen", players=2, rounds=3)
    assert adapter.from_game(game.game).get_parameters() == game.get_parameters()


def test_unreadable_house_rule_is_a_clear_error():
    with pytest.raises(pyspiel.SpielError, match="write it like lives:1"):
        spiel_game("mia", None, 2, rules="lives")


@pytest.mark.parametrize(("game_string", "message"), [
    ("kastkopp_mia(players=1)", "for 2 to 10 players, not 1"),
    ("kastkopp_mia(preset=nope)", "unknown preset 'nope'"),
    ("kastkopp_mia(rules=bogus:1)", "unknown rule 'bogus'"),
    ("kastkopp_mia(rules=lives)", "write it like lives:1"),
    ("kastkopp_liars_dice(players=2,rules=dice:0)", "dice"),
])
def test_bad_parameters_raise_openspiels_own_error(game_string, message):
    """OpenSpiel's callers catch ``pyspiel.SpielError`` for a game that cannot be loaded;
    kastkopp's reason is its message and its cause."""
    with pytest.raises(pyspiel.SpielError, match=message) as raised:
        pyspiel.load_game(game_string)
    assert not isinstance(raised.value, RuleError)
    assert isinstance(raised.value.__cause__, RuleError)
    assert str(raised.value).startswith(game_string.partition("(")[0] + ": ")


def test_a_roll_of_two_dice_is_two_chance_nodes_of_six_faces():
    game = spiel_game("mia", None, 2)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(f, 1 / 6) for f in range(6)]
    state.apply_action(4)
    assert state.is_chance_node()
    state.apply_action(2)
    assert state.current_player() == 0
    assert '"your_dice":"53"' in state.observation_string(0)
    assert "your_dice" not in state.observation_string(1)


def test_outcome_sampling_mccfr_learns_a_policy_for_mia_heads_up():
    # The whole tree of even one Mäxchen round is far too big for full CFR; sampling runs.
    game = spiel_game("mia", "maexchen", 2, rules="rounds:1")
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=1)
    for _ in range(300):
        solver.run_iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(0)  # the first player rolled 2 and 1: Mia
    probabilities = dict(policy.get_state_policy(state))
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_a_tree_written_as_efg_is_the_same_game_for_cfr():
    # Kuhn poker's value for the first player is -1/18; CFR on the EFG copy finds it
    kuhn = pyspiel.load_game("kuhn_poker")
    game = pyspiel.load_efg_game(adapter.to_efg(kuhn))
    # the same information sets
    assert len(TabularPolicy(game).state_lookup) == len(TabularPolicy(kuhn).state_lookup) == 12
    solver = pyspiel.CFRSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), solver.average_policy(), -1,
                                     True)[0]
    assert value == pytest.approx(-1 / 18, abs=2e-3)


def test_a_tree_too_big_to_write_out_is_refused():
    # even one heads-up Mäxchen round has far more nodes than is sensible to write out
    game = spiel_game("mia", "maexchen", 2, rules="rounds:1")
    with pytest.raises(ValueError, match="more than 500 nodes"):
        adapter.to_efg(game, max_nodes=500)


def test_pyspiel_cfr_and_kastkopps_solver_agree_on_one_die_liars_dice():
    # OpenSpiel's liars_dice with one die each and three faces (the highest wild) is small
    # enough to solve both ways here; the tests below run OpenSpiel's CFR on kastkopp's own
    # game, and benchmarks/crosscheck_cfr.py on its six-faced one
    ours = equilibrium.solve(Bidding.openspiel(dice=1, faces=3), target=1e-4)
    game = pyspiel.load_game("liars_dice", {"numdice": 1, "dice_sides": 3})
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(200):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    # a profile's value is within its NashConv (twice the exploitability) of the game's
    bound = 2 * (pyspiel.exploitability(game, policy) + ours.exploitability)
    assert abs(value - ours.game_value) <= bound
    assert bound < 1e-3


def cfr_plus_value(game, iterations: int = 200) -> tuple[float, float]:
    """OpenSpiel's CFR+ on ``game``: the first player's value and the exploitability."""
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    return value, pyspiel.exploitability(game, policy)


def kastkopp_solution(faces: int):
    return equilibrium.solve(Bidding.from_rules(LiarsRules.make("lognare", dice=1,
                                                                faces=faces)), target=1e-4)


def test_pyspiel_cfr_on_kastkopps_own_liars_dice_reaches_kastkopps_value():
    # Lögnare, two players, one die each, dice of three faces: OpenSpiel's CFR+ runs on the
    # registered Python game itself, its tree kept by OpenSpiel's cached_tree wrapper
    game = pyspiel.load_game("cached_tree(game=kastkopp_liars_dice(players=2,"
                             "preset=lognare,rules=dice:1;faces:3))")
    value, gap = cfr_plus_value(game)
    ours = kastkopp_solution(3)
    # a profile's value is within its NashConv (twice the exploitability) of the game's
    assert abs(value - ours.game_value) <= 2 * (gap + ours.exploitability) < 1e-3
    assert value < -0.1  # without wilds, opening is a disadvantage


def test_pyspiel_cfr_on_kastkopps_liars_dice_written_out_as_a_native_game():
    # four faces: 8 000 nodes, walked once through the adapter and solved by C++ CFR+
    ours = spiel_game("liars_dice", "lognare", 2, rules="dice:1;faces:4")
    native = pyspiel.load_efg_game(adapter.to_efg(ours))
    assert native.num_distinct_actions() == ours.num_distinct_actions() == 9  # 8 bids, dudo
    value, gap = cfr_plus_value(native)
    solution = kastkopp_solution(4)
    assert abs(value - solution.game_value) <= 2 * (gap + solution.exploitability) < 1e-3

"""The conformance suite: every registered game, every preset, random play.

A game joins by registering itself (``@register``); nothing here names a game. For each
game and configuration, over random seeds, it checks that

- every legal action applies, and its notation reads back as the same action;
- illegal actions (other states' actions, nonsense) raise ``IllegalAction`` and leave the
  state exactly as it was;
- replaying the log gives the same state, and the log survives JSON;
- views are JSON-ready and never depend on dice the seat may not see: resampling every
  die hidden from a seat leaves that seat's view unchanged (and spectators see no hidden
  dice at all), while the resampling does change something now and then;
- a finished game has an outcome that ranks every seat once.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kastkopp.dice import SeededDice
from kastkopp.engine import IllegalAction, Table
from kastkopp.games import load, registered

# slow: plays every game and preset at random under hypothesis (about 40 s alone)
pytestmark = pytest.mark.slow

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]

NONSENSE = ["", "   ", "xyzzy", "announce", "bid 0x7", "keep 9 9", "score nothing",
            "raise -3", "call call", "1234567", "ä ö å"]

MAX_STEPS = 400


def random_game(name: str, preset: str | None, players: int, seed: int,
                steps: int = MAX_STEPS):
    """Play up to ``steps`` random legal actions.

    Yields ``(table, action)`` before each action is taken, and ``(table, None)`` at the end.
    """
    game = load(name, preset=preset, players=players)
    table = Table(game, dice=SeededDice(seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if table.state.is_over():
            break
        seat = table.state.to_move()
        assert seat is not None, "an unfinished game with nobody to move and no dice"
        legal = table.state.legal_actions()
        assert legal, "a seat to move with no legal action"
        action = rng.choice(legal)
        yield table, action
        table.act(seat, action)
    yield table, None


def fingerprint(state) -> str:
    return repr(state)


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_legal_actions_apply_and_notation_round_trips(name, preset, players, seed):
    seen_actions: set[str] = set()
    every_action = None
    for table, action in random_game(name, preset, players, seed):
        if action is None:
            break
        state = table.state
        if every_action is None:
            every_action = table.game.all_actions()
            assert len(set(every_action)) == len(every_action), "all_actions repeats itself"
        assert set(state.legal_actions()) <= set(every_action), "a legal action not in all_actions"
        text = str(action)
        assert table.game.parse_action(text) == action, text
        assert state.apply(text) == state.apply(action)
        seen_actions.update(str(a) for a in state.legal_actions())
    # the last state: illegal actions are refused and change nothing
    state = table.state
    before = fingerprint(state)
    legal = {str(a) for a in state.legal_actions()}
    for text in sorted(seen_actions - legal)[:40] + NONSENSE:
        try:
            action = table.game.parse_action(text)
        except IllegalAction as exc:
            assert str(exc)
            continue
        if state.is_over() or action in state.legal_actions():
            continue
        with pytest.raises(IllegalAction) as excinfo:
            state.apply(action)
        assert str(excinfo.value)
    assert fingerprint(state) == before


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_illegal_actions_change_nothing(name, preset, players, seed):
    rng = random.Random(seed + 1)
    pool: list[str] = list(NONSENSE)
    for table, action in random_game(name, preset, players, seed, steps=120):
        if action is None:
            break
        state = table.state
        pool.append(str(action))
        snapshot = copy.deepcopy(state)
        legal = state.legal_actions()
        for text in rng.sample(pool, min(6, len(pool))):
            try:
                candidate = table.game.parse_action(text)
            except IllegalAction:
                continue
            if candidate in legal:
                continue
            events_before = len(table.events)
            with pytest.raises(IllegalAction):
                table.act(state.to_move(), candidate)
            assert len(table.events) == events_before
        assert state == snapshot
        assert table.state == snapshot


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_replaying_the_log_gives_the_same_state(name, preset, players, seed):
    *_, (table, _) = random_game(name, preset, players, seed)
    text = json.dumps(table.to_json())
    replayed = Table.loads(text)
    assert replayed.state == table.state
    assert replayed.events == table.events
    if table.state.is_over():
        outcome = table.state.outcome()
        seats = sorted(s for group in outcome.ranking for s in group)
        assert seats == list(range(players))
        assert len(outcome.payoffs) == players


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_views_do_not_depend_on_hidden_dice(name, preset, players, seed):
    rng = random.Random(seed)
    for table, _ in random_game(name, preset, players, seed, steps=150):
        state = table.state
        for seat in [None, *range(players)]:
            view = state.view(seat)
            json.dumps(view)
            for _ in range(2):
                other = state.resample_hidden(seat, rng)
                assert other.view(seat) == view, f"seat {seat} sees hidden dice"


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_resampling_hides_something(name, preset, players):
    """The view test is not vacuous: hidden dice exist and resampling does change them."""
    cls = registered()[name]
    if not cls.hidden_information:
        pytest.skip(f"{name} has no hidden dice")
    rng = random.Random(0)
    changed = 0
    for seed in range(20):
        for table, _ in random_game(name, preset, players, seed, steps=60):
            if table.state.resample_hidden(None, rng) != table.state:
                changed += 1
    assert changed > 0


BOUNDED = [param for param in CONFIGS if load(param.values[0], preset=param.values[1],
                                              players=param.values[2]).bounds().utility]


@pytest.mark.parametrize(("name", "preset", "players"), BOUNDED)
def test_payoffs_stay_within_the_games_declared_bounds(name, preset, players):
    low, high = load(name, preset=preset, players=players).bounds().utility
    finished = 0
    for seed in range(8):
        *_, (table, _) = random_game(name, preset, players, seed, steps=4000)
        if table.state.is_over():
            finished += 1
            assert all(low <= p <= high for p in table.outcome().payoffs)
    assert finished


LENGTH_BOUNDED = [param for param in CONFIGS if load(param.values[0], preset=param.values[1],
                                                     players=param.values[2]).bounds().length]


def test_some_games_declare_a_length():
    """The length test below is not vacuous: games whose rules fix a length declare it."""
    assert {param.values[0] for param in LENGTH_BOUNDED} >= {"yatzy", "liars_dice"}


@pytest.mark.parametrize(("name", "preset", "players"), LENGTH_BOUNDED)
def test_games_end_within_their_declared_length(name, preset, players):
    length = load(name, preset=preset, players=players).bounds().length
    for seed in range(8):
        steps = list(random_game(name, preset, players, seed, steps=length + 1))
        table, actions = steps[-1][0], len(steps) - 1  # the last step takes no action
        assert table.state.is_over(), f"not over after {length} actions, the declared most"
        assert actions <= length

"""Every game's views match the TypedDict its state declares, key for key and type for type.

The TypedDict beside each state (``MiaView``, ``YatzyView`` …) is what mypy checks ``view``
and ``render`` against; this suite checks that the dicts the states really return are of
that shape, for every registered game and every preset, over random games: a key renamed
or added in ``view`` and not in its TypedDict (or the other way round) fails here. Nothing
here names a game.
"""

from __future__ import annotations

import random
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import State, Table
from kastkopp.games import load, registered

SEEDS = range(3)
STEPS = 200


def every_preset() -> list[Any]:
    """Each game's conformance configurations, and every preset at its usual player count."""
    params = []
    for name, cls in sorted(registered().items()):
        configs = dict.fromkeys([*cls.conformance_configs(),
                                 *((p, cls.default_players) for p in
                                   [None, *cls.rules_class.PRESETS])])
        params += [pytest.param(name, preset, players,
                                id=f"{name}-{preset or 'default'}-{players}")
                   for preset, players in configs]
    return params


def view_type(state: State) -> Any:
    """The TypedDict the state's ``view`` is declared to return."""
    return get_type_hints(type(state).view)["return"]


def problems(value: Any, kind: Any, path: str = "view") -> list[str]:
    """How ``value`` (JSON from a view) differs from the type ``kind``; empty if it matches."""
    if kind is Any:
        return []
    if is_typeddict(kind):
        return _typeddict_problems(value, kind, path)
    origin, args = get_origin(kind), get_args(kind)
    if origin in (typing.Union, types.UnionType):
        found = [problems(value, arg, path) for arg in args]
        return [] if any(not p for p in found) else [f"{path}: {value!r} is not {kind}"]
    if origin is Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{path}.{i}")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not an object"]
        return [p for key, item in value.items()
                for p in [*problems(key, args[0], f"{path} key"),
                          *problems(item, args[1], f"{path}.{key}")]]
    if kind is type(None) or kind is None:
        return [] if value is None else [f"{path}: {value!r} is not None"]
    scalar = {bool: (bool,), int: (int,), float: (int, float), str: (str,)}.get(kind)
    if scalar is None:
        return [f"{path}: no check for the declared type {kind}"]
    if isinstance(value, scalar) and (kind is bool or not isinstance(value, bool)):
        return []
    return [f"{path}: {value!r} is not {kind.__name__}"]


def _typeddict_problems(value: Any, kind: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: {value!r} is not an object"]
    hints = get_type_hints(kind)
    required, optional = kind.__required_keys__, kind.__optional_keys__
    found = [f"{path}: no key '{key}' ({kind.__name__} requires it)"
             for key in sorted(required - value.keys())]
    found += [f"{path}: key '{key}' is not in {kind.__name__}"
              for key in sorted(value.keys() - required - optional)]
    for key in sorted(value.keys() & hints.keys()):
        found += problems(value[key], hints[key], f"{path}.{key}")
    return found


def random_states(name: str, preset: str | None, players: int, seed: int):
    """The states of one random game, its end included."""
    table = Table(load(name, preset=preset, players=players), dice=SeededDice(seed))
    rng = random.Random(seed)
    for _ in range(STEPS):
        yield table.state
        if table.state.is_over():
            return
        seat = table.state.to_move()
        assert seat is not None
        table.act(seat, rng.choice(table.state.legal_actions()))


@pytest.mark.parametrize(("name", "preset", "players"), every_preset())
def test_every_view_matches_its_typeddict(name, preset, players):
    seen: set[str] = set()
    for seed in SEEDS:
        for state in random_states(name, preset, players, seed):
            kind = view_type(state)
            assert is_typeddict(kind), f"{type(state).__name__}.view returns no TypedDict"
            for seat in [None, *range(players)]:
                view = state.view(seat)
                assert problems(view, kind) == [], f"seat {seat}"
                seen |= view.keys()
    assert seen >= view_type(state).__required_keys__


def test_the_check_finds_a_renamed_key_and_a_wrong_type():
    """The check above is not vacuous: a key renamed, or a value of another type, fails."""
    for name, cls in sorted(registered().items()):
        state = next(s for s in random_states(name, None, cls.default_players, 0)
                     if s.to_move() is not None)
        view, kind = dict(state.view(0)), view_type(state)
        assert problems(view, kind) == []
        renamed = {("seat_" if key == "seat" else key): value for key, value in view.items()}
        assert problems(renamed, kind) == [
            f"view: no key 'seat' ({kind.__name__} requires it)",
            f"view: key 'seat_' is not in {kind.__name__}"], name
        assert problems({**view, "to_move": "nobody"}, kind), name
        assert problems({**view, "history": [{"seat": 0}]}, kind), name

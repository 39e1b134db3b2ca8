"""What the PettingZoo and OpenSpiel adapters cost over driving the engine directly.

For each game (its default rules, its smallest player count of the conformance suite) the
same number of random actions is played three ways: on a bare :class:`kastkopp.engine.Table`
(the peer), through the PettingZoo environment (observations and masks for the agent to
move), and through the OpenSpiel game (each state transition, plus the information-state
string and tensor of the player to move, as a learning algorithm would ask for them).

    .venv/bin/python benchmarks/bench_interop.py [ACTIONS]

Prints actions per second and each adapter's slowdown against the bare table.
"""

from __future__ import annotations

import random
import sys
import time

from kastkopp.dice import SeededDice
from kastkopp.engine import Table
from kastkopp.games import load, registered


def bare(name: str, players: int, actions: int) -> float:
    rng = random.Random(0)
    done, start = 0, time.perf_counter()
    seed = 0
    while done < actions:
        table = Table(load(name, players=players), dice=SeededDice(seed))
        seed += 1
        while not table.state.is_over() and done < actions:
            seat = table.state.to_move()
            assert seat is not None
            table.act(seat, rng.choice(table.state.legal_actions()))
            done += 1
    return done / (time.perf_counter() - start)


def pettingzoo(name: str, players: int, actions: int) -> float:
    import numpy as np

    from kastkopp.interop.pettingzoo import env

    environment = env(name, players=players)
    rng = np.random.default_rng(0)
    done, start, seed = 0, time.perf_counter(), 0
    while done < actions:
        environment.reset(seed=seed)
        seed += 1
        for _agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
            if done >= actions:
                break
    return done / (time.perf_counter() - start)


def openspiel(name: str, players: int, actions: int) -> float:
    import pyspiel

    from kastkopp.interop import openspiel as adapter

    game = pyspiel.load_game(adapter.spiel_name(name), {"players": players})
    rng = random.Random(0)
    done, start = 0, time.perf_counter()
    while done < actions:
        state = game.new_initial_state()
        while not state.is_terminal() and done < actions:
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            player = state.current_player()
            state.information_state_string(player)
            state.information_state_tensor(player)
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    actions = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(f"{'game':<14}{'bare table':>12}{'pettingzoo':>12}{'ratio':>8}"
          f"{'openspiel':>12}{'ratio':>8}   (random actions per second)")
    for name, cls in sorted(registered().items()):
        players = min(n for _, n in cls.conformance_configs())
        peer = bare(name, players, actions)
        pz = pettingzoo(name, players, actions)
        spiel = openspiel(name, players, actions)
        print(f"{name:<14}{peer:>12.0f}{pz:>12.0f}{peer / pz:>7.1f}x"
              f"{spiel:>12.0f}{peer / spiel:>7.1f}x")


if __name__ == "__main__":
    main()

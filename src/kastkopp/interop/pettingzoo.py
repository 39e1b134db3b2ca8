"""Every kastkopp game as a PettingZoo AEC environment (``pip install kastkopp[rl]``).

::

    >>> from kastkopp.interop.pettingzoo import env
    >>> game = env("mia", preset="maexchen", players=3, render_mode="ansi")
    >>> game.reset(seed=7)
    >>> for agent in game.agent_iter():
    ...     observation, reward, termination, truncation, info = game.last()
    ...     if termination or truncation:
    ...         action = None
    ...     else:
    ...         action = game.action_space(agent).sample(observation["action_mask"])
    ...     game.step(action)
    >>> print(game.render().splitlines()[-1])  # doctest: +SKIP
    Player 2 won.

- Agents are ``player_0`` … ``player_{n-1}``, the game's seats in order.
- Actions are numbered by their place in :meth:`Game.all_actions`;
  :meth:`KastkoppEnv.action_notation` gives an action's text (``announce 54``).
- An observation is ``{"observation": float32 vector, "action_mask": int8 vector}``. The
  vector is the seat's ``state.view(seat)`` hashed by :class:`ViewEncoder` and nothing else,
  so it holds exactly what that seat may know. :meth:`KastkoppEnv.view` gives the view itself.
- Dice are rolled by the environment from a seeded source: ``reset(seed=...)`` makes the whole
  episode reproducible; ``reset()`` without a seed draws the next seed from the last one.
- Rewards are zero until the game ends, then each seat's payoff from ``Outcome.payoffs``.
  A game still running after ``max_steps`` actions is truncated.
- ``render_mode="ansi"`` returns the game's own terminal text of a view (the spectator's
  unless ``render_seat`` names a seat); ``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np

from kastkopp.dice import SeededDice
from kastkopp.engine import Action, Game, IllegalAction, Table
from kastkopp.games import load
from kastkopp.interop.encoding import DEFAULT_SIZE, ViewEncoder

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("the PettingZoo environments need the 'rl' extra: "
                      "pip install 'kastkopp[rl]'") from exc

__all__ = ["KastkoppEnv", "env"]


def env(game: str | Game, preset: str | None = None, players: int | None = None, *,
        render_mode: str | None = None, render_seat: int | None = None,
        observation_size: int = DEFAULT_SIZE, max_steps: int = 10_000,
        **rules: Any) -> KastkoppEnv:
    """An AEC environment for a game by name (with preset, players and house rules)."""
    if not isinstance(game, Game):
        game = load(game, preset=preset, players=players, **rules)
    return KastkoppEnv(game, render_mode=render_mode, render_seat=render_seat,
                       observation_size=observation_size, max_steps=max_steps)


RENDER_MODES = ("ansi", "human")


class KastkoppEnv(AECEnv):
    """One game of a kastkopp table as an agent-environment-cycle environment."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES),
                                          "name": "kastkopp", "is_parallelizable": False}

    def __init__(self, game: Game, *, render_mode: str | None = None,
                 render_seat: int | None = None, observation_size: int = DEFAULT_SIZE,
                 max_steps: int = 10_000) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, "
                             f"not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.max_steps = max_steps
        self.encoder = ViewEncoder(observation_size)
        self.actions: list[Action] = game.all_actions()
        self.index = {action: i for i, action in enumerate(self.actions)}
        self.possible_agents = [f"player_{seat}" for seat in range(game.players)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(len(self.actions))
                               for agent in self.possible_agents}
        self._seeds = random.Random()
        self.table: Table | None = None

    def __str__(self) -> str:
        return f"kastkopp_{self.game.name}"

    # -- spaces (the same objects every time, so seeding a space sticks) ---------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- the cycle ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        names = [f"Player {seat + 1}" for seat in range(self.game.players)]
        self.table = Table(self.game, seats=names, dice=SeededDice(self._seeds.getrandbits(64)))
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        if action is None:
            raise IllegalAction(f"{agent} must act: {self._legal_text()}")
        number = int(action)
        if not 0 <= number < len(self.actions):
            raise IllegalAction(f"there is no action {number}; {self._legal_text()}")
        move = self.actions[number]
        if move not in table.state.legal_actions():
            raise IllegalAction(f"'{move}' is not legal now; {self._legal_text()}")
        table.act(self.seat[agent], move)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if table.state.is_over():
            payoffs = table.state.outcome().payoffs
            for name in self.agents:
                self.rewards[name] = float(payoffs[self.seat[name]])
                self.terminations[name] = True
        elif self.steps >= self.max_steps:
            for name in self.agents:
                self.truncations[name] = True
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        state = self._table().state
        seat = state.to_move()
        if seat is None:  # over: the dead agents step out in seat order
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _legal_text(self) -> str:
        legal = self._table().state.legal_actions()
        return "legal: " + ", ".join(f"{self.index[a]} ({a})" for a in legal)

    # -- what an agent sees ------------------------------------------------------------
    def view(self, agent: str | None) -> dict[str, Any]:
        """The game's view for an agent (``None``: a spectator's)."""
        return self._table().state.view(None if agent is None else self.seat[agent])

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        state = self._table().state
        if state.to_move() == self.seat[agent]:
            for action in state.legal_actions():
                mask[self.index[action]] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self.encoder.encode(self.view(agent)),
                "action_mask": self.action_mask(agent)}

    def action_notation(self, action: int) -> str:
        """The text of an action number (``announce 54``)."""
        return str(self.actions[action])

    def action_number(self, notation: str) -> int:
        """The number of an action written in the game's notation."""
        action = self.game.parse_action(notation)
        if action not in self.index:
            raise IllegalAction(f"'{notation}' can never be played in {self.game.name}")
        return self.index[action]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        table = self._table()
        text = self.game.render(table.state.view(self.render_seat), table.seats)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.table = None

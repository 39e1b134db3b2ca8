"""``bot:ismcts``: OpenSpiel's information-set Monte Carlo tree search on a game's own rules.

The bot sees only its seat's view. From it the game rebuilds a state (:meth:`Game.world`)
with the dice the seat cannot see drawn at random; OpenSpiel's ``ISMCTSBot`` then searches
from that state, drawing those dice again for every simulation through the adapter's
``resample_from_infostate``, and values new positions by playing them out at random (a
kind of move at random, then a move of that kind).
Every random number (the dice imagined, the tree's ties, the play-outs) comes from the
``rng`` the table gives the bot, so nothing it does can be foretold from the game's seed.

Offered for every game with hidden dice whose states can be rebuilt from a view, when the
``openspiel`` extra is installed (``pip install 'kastkopp[openspiel]'``)::

    >>> from kastkopp.games import load
    >>> perudo = load("liars_dice", preset="perudo", players=2)
    >>> bot = IsmctsBot(perudo, simulations=1000)  # bot:ismcts has 200
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from importlib.util import find_spec
from typing import Any

from kastkopp.engine import Action, Game, Player, State
from kastkopp.games import registered
from kastkopp.strategy import register_bot

# simulations per move of bot:ismcts: a move of two-player Perudo takes well under a second
DEFAULT_SIMULATIONS = 200
# no game runs this long at random; a guard against a play-out that never ends
MAX_PLAYOUT = 100_000


def random_playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """The payoffs of ``state`` played to its end by random moves and fair dice."""
    for _ in range(MAX_PLAYOUT):
        if state.is_over():
            return state.outcome().payoffs
        chance = state.chance()
        if chance is not None:
            state = state.resolve(tuple(rng.randint(1, chance.sides)
                                        for _ in range(chance.count)))
        else:
            state = state.apply(random_move(state.legal_actions(), rng))
    raise RuntimeError(f"a random play-out did not end within {MAX_PLAYOUT} actions")


def random_move(legal: Sequence[Action], rng: random.Random) -> Action:
    """A kind of move at random (to challenge, to bid, to fold...), then one of that kind:
    uniform over all moves, a play-out would hardly ever challenge among dozens of bids."""
    kinds: dict[type, list[Action]] = {}
    for action in legal:
        kinds.setdefault(type(action), []).append(action)
    return rng.choice(rng.choice(list(kinds.values())))


def exploration(game: Game) -> float:
    """UCT's exploration constant for ``game``: the spread of its payoffs where the rules
    bound them (OpenSpiel's examples use 2 for payoffs of -1 to 1), else 2."""
    utility = game.bounds().utility
    return 2.0 if utility is None else float(utility[1] - utility[0])


class IsmctsBot(Player):
    """IS-MCTS with ``simulations`` simulations per move, from the seat's view alone."""

    def __init__(self, game: Game, simulations: int = DEFAULT_SIMULATIONS) -> None:
        if simulations < 1:  # set in code, never by a player
            raise ValueError(f"IS-MCTS needs at least one simulation, not {simulations}")
        self.game = game
        self.simulations = simulations

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        from open_spiel.python.algorithms import ismcts

        from kastkopp.interop import openspiel

        world = self.game.world(view, rng)
        if world is None:
            raise RuntimeError(f"{self.game.name} cannot rebuild a state from this view")
        spiel = spiel_game(self.game)
        root = openspiel.KastkoppState.at(spiel, world)
        search = ismcts.ISMCTSBot(
            spiel, Playouts(rng), exploration(self.game), self.simulations,
            random_state=np_random(rng),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        search.set_resampler(lambda state, seat: state.resample_from_infostate(seat, rng.random))
        action = openspiel.numbering(self.game)[0][int(search.step(root))]
        assert action in legal, f"IS-MCTS chose {action}, which is not legal here"
        return action


@functools.cache
def spiel_game(game: Game) -> Any:
    """The OpenSpiel game of ``game`` (built once: its action numbering takes a while)."""
    from kastkopp.interop import openspiel

    return openspiel.from_game(game)


def np_random(rng: random.Random) -> Any:
    """A numpy generator for OpenSpiel's search, seeded from the bot's own ``rng``."""
    import numpy as np

    return np.random.RandomState(rng.getrandbits(32))


class Playouts:
    """OpenSpiel's MCTS evaluator, by one random play-out on the kastkopp state itself (the
    adapter's bookkeeping of every seat's views is not needed to play out, and costs)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        return np.array(random_playout(state.state, self.rng))

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def searchable(cls: type[Game]) -> bool:
    """Whether IS-MCTS fits ``cls``: hidden dice, and states it can rebuild from a view."""
    return cls.hidden_information and cls.world is not Game.world


# without the openspiel extra the games simply have no bot:ismcts
for _name, _cls in sorted(registered().items()) if find_spec("pyspiel") else ():
    if searchable(_cls):
        register_bot(_name, "ismcts", f"information-set Monte Carlo tree search "
                     f"(OpenSpiel's), {DEFAULT_SIMULATIONS} simulations a move")(IsmctsBot)

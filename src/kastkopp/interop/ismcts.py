"""``bot:ismcts``: OpenSpiel's information-set Monte Carlo tree search on a game's own rules.

The bot sees only its seat's view. From it the game rebuilds a state (:meth:`Game.world`)
with the dice the seat cannot see drawn at random; OpenSpiel's ``ISMCTSBot`` then searches
from that state, drawing those dice again for every simulation through the adapter's
``resample_from_infostate``, and values new positions by playing them out at random (a
kind of move at random, then a move of that kind).
Every random number (the dice imagined, the tree's ties, the play-outs) comes from the
``rng`` the table gives the bot, so nothing it does can be foretold from the game's seed.

Offered for every game with hidden dice whose states can be rebuilt from a view, when the
``openspiel`` extra is installed (``pip install 'kastkopp[openspiel]'``). Its budget is in
its name: ``bot:ismcts`` searches 100 simulations a move, ``bot:ismcts:sims=2000`` two
thousand, ``bot:ismcts:ms=500`` as many as half a second allows (at most ``sims``, when it
is given too). A number of simulations plays the same on every machine; a time budget
does not, so simulations are the default. A server seats it with at most 200 simulations
and 250 ms a move::

    >>> from kastkopp.games import load
    >>> perudo = load("liars_dice", preset="perudo", players=2)
    >>> bot = IsmctsBot(perudo, simulations=1000)  # bot:ismcts:sims=1000
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Sequence
from importlib.util import find_spec
from typing import Any

from kastkopp.engine import Action, Game, Player, State
from kastkopp.games import registered
from kastkopp.locale import marked
from kastkopp.strategy import BotSetting, register_bot

# simulations per move of bot:ismcts: a move of two-player Perudo took about a second on a
# busy 2-core machine, and a ladder of the bots plays some thousands of its games
DEFAULT_SIMULATIONS = 100
# the first simulation of a search only values its root: a move needs a second
MIN_SIMULATIONS = 2
# the budgets a name may give (bot:ismcts:sims=N:ms=T), and the caps of a server: it
# searches in a thread, which still shares the process with every table it serves; on a
# busy 2-core machine a move of two-player Perudo took 13 s at 2,000 simulations
SETTINGS = (BotSetting("sims", "simulations a move", MIN_SIMULATIONS, 1_000_000, 200,
                       marked("{value} simulations a move")),
            BotSetting("ms", "milliseconds a move at most (play then depends on the machine)",
                       1, 60_000, 250, marked("at most {value} ms a move")))
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
    """IS-MCTS with ``simulations`` simulations per move, from the seat's view alone; with
    ``ms`` a move also ends after that many milliseconds (and two simulations at least).
    ``searched`` is the number of simulations of each move searched so far."""

    thinks = True

    def __init__(self, game: Game, simulations: int = DEFAULT_SIMULATIONS,
                 ms: int | None = None) -> None:
        if simulations < MIN_SIMULATIONS:  # a name's grammar checks it before it comes here
            raise ValueError(f"IS-MCTS needs {MIN_SIMULATIONS} simulations, not {simulations}")
        self.game = game
        self.simulations = simulations
        self.ms = ms
        self.searched: list[int] = []

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
        search = budgeted_search()(
            spiel, Playouts(rng), exploration(self.game), self.simulations,
            random_state=np_random(rng),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        search.set_resampler(lambda state, seat: state.resample_from_infostate(seat, rng.random))
        if self.ms is not None:
            search.deadline = time.monotonic() + self.ms / 1000
        action = openspiel.numbering(self.game)[0][int(search.step(root))]
        self.searched.append(search.done)
        assert action in legal, f"IS-MCTS chose {action}, which is not legal here"
        return action


def ismcts_bot(game: Game, sims: int | None = None, ms: int | None = None) -> IsmctsBot:
    """``bot:ismcts`` with the budget its name gives (``bot:ismcts:sims=500:ms=300``); a time
    alone lets the search run as many simulations as a name may give."""
    if sims is None:
        sims = DEFAULT_SIMULATIONS if ms is None else SETTINGS[0].high
    return IsmctsBot(game, sims, ms)


class OutOfTime(Exception):
    """The search's time is up: no further simulation starts."""


@functools.cache
def budgeted_search() -> type:
    """OpenSpiel's ``ISMCTSBot``, counting its simulations (``done``) and, when it has a
    ``deadline``, starting none after it. Each simulation begins by sampling the root
    state, so that is where the count is kept and the search cut short."""
    from open_spiel.python.algorithms import ismcts

    class BudgetedSearch(ismcts.ISMCTSBot):
        deadline: float | None = None
        done = 0

        def sample_root_state(self, state: Any) -> Any:
            if (self.done >= MIN_SIMULATIONS and self.deadline is not None
                    and time.monotonic() >= self.deadline):
                raise OutOfTime
            self.done += 1
            return super().sample_root_state(state)

        def run_search(self, state: Any) -> Any:
            try:
                return super().run_search(state)
            except OutOfTime:  # the rest of OpenSpiel's run_search: the root's policy
                return self.get_final_policy(state, self._root_node)

    return BudgetedSearch


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
                     f"(OpenSpiel's), {DEFAULT_SIMULATIONS} simulations a move "
                     f"(ismcts:sims=N, ismcts:ms=T)", SETTINGS)(ismcts_bot)

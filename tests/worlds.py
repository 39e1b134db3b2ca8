"""Two worlds that differ only in what a seat cannot see, built from a log without trusting
any game's own idea of what is hidden.

A *twin* of a log replays it with every private roll of the other seats rolled again and
every action of the other seats swapped for a random legal action that reads the same to the
seat (:meth:`Action.public`: a Poker Menteur pick-up of other dice). Both worlds then hold the
same public history, and anything the seat is shown must be the same in both — until dice
are revealed. When they are is said here from the rules, game by game, not taken from the
game modules under test: a new game without an entry is treated as revealing on every
action, so the check stays sound (if weaker) until its entry is written.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kastkopp.engine import Game, IllegalAction, State


def _words(*words: str) -> Callable[[Game, str, State], bool]:
    return lambda game, action, after: action.split()[0] in words


# After which actions the rules lift cups (or show dice to the seat that acts): private
# rolls made before one of them may be shown afterwards, so a twin re-rolls only later ones.
REVEALS: dict[str, Callable[[Game, str, State], bool]] = {
    # the cup is lifted by a call, and in Mäxchen by announcing Slosch; rolls show nothing
    "mia": lambda game, action, after: action == "call" or (
        action == "announce 21" and bool(getattr(game.rules, "mia_reveals", False))),
    # cups lifted; Single Hand's cup is looked into by whoever accepts it, and the dice
    # kept from it are put on show
    "liars_dice": _words("dudo", "calza", "accept", "keep"),
    "poker_dice": _words("doubt", "accept"),  # the screen is lifted
    # the showdown follows the last bet: hidden dice shown, equal hands throw again openly
    "linka": lambda game, action, after: after.chance() is not None,
    "knack": _words(),  # every die is thrown in the open
    "yatzy": _words(),
}


def revealed(game: Game, event: dict[str, Any], after: State) -> bool:
    """Whether dice rolled before ``event`` may be shown once it has happened."""
    if event["type"] == "penalty" or after.is_over():
        return True
    if event["type"] != "action":
        return False
    reveals = REVEALS.get(game.name)
    return True if reveals is None else reveals(game, str(event["action"]), after)


def states_of(game: Game, events: list[dict[str, Any]]) -> list[State]:
    """The position before each event and after the last (``len(events) + 1`` states)."""
    state = game.new_state()
    out = [state]
    for event in events:
        state = step(state, event)
        out.append(state)
    return out


def step(state: State, event: dict[str, Any]) -> State:
    kind = event["type"]
    if kind == "roll":
        return state.resolve(tuple(event["faces"]))
    if kind == "penalty":
        return state.penalty(event["seat"], event["reason"])
    if kind == "action":
        return state.apply(str(event["action"]))
    raise ValueError(f"no twin for a {kind!r} event")


def segment_start(game: Game, events: list[dict[str, Any]]) -> int:
    """The first event after the last reveal: rolls from here on are still hidden."""
    states = states_of(game, events)
    start = 0
    for index, event in enumerate(events):
        if revealed(game, event, states[index + 1]):
            start = index + 1
    return start


def twin(game: Game, events: list[dict[str, Any]], keep: int | None, rng: random.Random,
         start: int | None = None, tries: int = 20) -> list[dict[str, Any]] | None:
    """A log with the same public history as ``events``, differing in the private rolls of
    every seat but ``keep`` (``None``: every seat) made since ``start`` (default: the last
    reveal) and in those seats' hidden choices. ``None`` when no such log turned up in
    ``tries`` draws (the dice drawn made an action impossible)."""
    if start is None:
        start = segment_start(game, events)
    for _ in range(tries):
        made = _draw(game, events, keep, rng, start)
        if made is not None:
            return made
    return None


def _draw(game: Game, events: list[dict[str, Any]], keep: int | None, rng: random.Random,
          start: int) -> list[dict[str, Any]] | None:
    state = game.new_state()
    out: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        drawn = _drawn(game, state, event, keep, rng, index >= start)
        if drawn is None:
            return None
        event, state = drawn
        out.append(event)
    return out


def _drawn(game: Game, state: State, event: dict[str, Any], keep: int | None,
           rng: random.Random, hidden: bool) -> tuple[dict[str, Any], State] | None:
    """``event`` as the twin has it after ``state`` (drawn again if ``hidden`` and not
    ``keep``'s), and the twin's state after it; ``None`` if the draw made it impossible."""
    event = dict(event)
    if hidden and event["type"] == "roll":
        chance = state.chance()
        if chance is not None and chance.private and chance.seat != keep:
            event["faces"] = [rng.randint(1, chance.sides) for _ in event["faces"]]
    elif hidden and event["type"] == "action" and event["seat"] != keep:
        original = game.parse_action(str(event["action"]))
        alike = [a for a in state.legal_actions() if a.public() == original.public()]
        if not alike:
            return None
        event["action"] = str(rng.choice(alike))
    try:
        return event, step(state, event)
    except IllegalAction:
        return None


class Twins:
    """A twin of each prefix of one log in turn, for a seat (``keep``), grown by an event
    at a time: while no reveal comes between two prefixes, the longer one's twin is the
    shorter one's with the next event drawn, so a log of n events costs n draws, not n²/2.
    Each prefix's twin is still a random one (prefixes of a segment share their draws); a
    reveal, or a draw that cannot go on, starts a fresh one (see :func:`twin`)."""

    def __init__(self, game: Game, keep: int | None, rng: random.Random) -> None:
        self.game, self.keep, self.rng = game, keep, rng
        self.start: int | None = None
        self.events: list[dict[str, Any]] = []
        self.state: State = game.new_state()

    def of(self, events: list[dict[str, Any]], start: int
           ) -> tuple[list[dict[str, Any]], State] | None:
        """A twin of ``events`` (hidden from ``start`` on) and its last state; ``None`` when
        no twin turned up (as :func:`twin`)."""
        if start != self.start or not self._grow(events, start):
            made = twin(self.game, events, self.keep, self.rng, start)
            if made is None:
                self.start = None
                return None
            self.start, self.events = start, made
            self.state = states_of(self.game, made)[-1]
        return self.events, self.state

    def _grow(self, events: list[dict[str, Any]], start: int) -> bool:
        """Draw the events that ``events`` has beyond the twin's (the same log, longer)."""
        if len(events) < len(self.events):
            return False
        grown, state = list(self.events), self.state
        for index in range(len(self.events), len(events)):
            drawn = _drawn(self.game, state, events[index], self.keep, self.rng,
                           index >= start)
            if drawn is None:
                return False
            grown.append(drawn[0])
            state = drawn[1]
        self.events, self.state = grown, state
        return True


def differs(events: list[dict[str, Any]], other: list[dict[str, Any]]) -> bool:
    """Whether a twin differs from its log at all (a hidden die or choice)."""
    return any(a != b for a, b in zip(events, other, strict=True))

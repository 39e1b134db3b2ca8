"""Hidden dice stay hidden, checked without trusting any game's own idea of what is hidden.

For every game and preset, random games are replayed in *twin worlds* (``worlds.py``): the
same public history with other seats' private rolls thrown again and their hidden choices
(which dice a Poker Menteur player picked up) swapped. A seat must be shown the same in both:
its view, the log as it may read it, and any move the table makes for a player whose time is
up — which everyone sees, so it may not depend even on the mover's own dice.
"""

from __future__ import annotations

import json
import random

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import Table, seen_by
from kastkopp.games import load, registered
from worlds import Twins, differs, revealed, step

# slow: replays every game and preset in twin worlds (over a minute alone)
pytestmark = pytest.mark.slow

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]

STEPS = 120


def played(name: str, preset: str | None, players: int, seed: int):
    """A random game's log, and the position after each prefix with where its hidden part
    starts: ``[(prefix, state, start), ...]``."""
    game = load(name, preset=preset, players=players)
    table, rng = Table(game, dice=SeededDice(seed)), random.Random(seed)
    for _ in range(STEPS):
        if table.state.is_over():
            break
        table.act(table.state.to_move(), rng.choice(table.state.legal_actions()))
    state, start, out = game.new_state(), 0, []
    for index, event in enumerate(table.events):
        out.append((table.events[:index], state, start))
        state = step(state, event)
        if revealed(game, event, state):
            start = index + 1
    out.append((table.events, state, start))
    return game, out


def shown(value) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_a_seat_sees_the_same_in_worlds_that_differ_only_in_what_it_cannot_see(
        name, preset, players):
    rng = random.Random(11)
    different = 0
    for seed in range(2):
        game, positions = played(name, preset, players, seed)
        twins = {seat: Twins(game, seat, rng) for seat in [None, *range(players)]}
        for events, state, start in positions:
            if state.is_over():
                continue
            for seat, twinned in twins.items():
                drawn = twinned.of(events, start)
                assert drawn is not None, "no twin world could be drawn"
                other_events, other = drawn
                assert shown(other.view(seat)) == shown(state.view(seat)), (
                    f"seat {seat} sees another seat's hidden dice at event {len(events)}")
                assert shown(seen_by(game, other_events, seat)) == shown(
                    seen_by(game, events, seat)), f"the log shows seat {seat} hidden dice"
                different += differs(events, other_events)
    if registered()[name].hidden_information:
        assert different > 0, "no twin differed: the check would prove nothing"


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_a_move_made_for_a_player_out_of_time_depends_on_public_facts_only(
        name, preset, players):
    """The mover's own dice included: the move is seen by all, so it would tell them."""
    rng = random.Random(5)
    for seed in range(3):
        game, positions = played(name, preset, players, seed)
        twins = [Twins(game, None, rng) for _ in range(3)]
        for events, state, start in positions:
            if state.is_over() or state.chance() is not None:
                continue
            default = str(state.default_action())
            for twinned in twins:
                drawn = twinned.of(events, start)
                assert drawn is not None
                assert str(drawn[1].default_action()) == default, (
                    f"at event {len(events)} the default move differs with other hidden dice")


def test_a_poker_menteur_pick_up_reads_as_a_count_to_the_others():
    game = load("poker_dice", players=2)
    table = Table(game, dice=SeededDice(2))
    while not any(str(a).startswith("reroll") for a in table.state.legal_actions()):
        table.act(table.state.to_move(), table.state.default_action())
    seat = table.state.to_move()
    pick = next(a for a in table.state.legal_actions() if str(a).startswith("reroll"))
    table.act(seat, pick)
    mine = [e["action"] for e in table.events_seen_by(seat) if e["type"] == "action"]
    theirs = [e["action"] for e in table.events_seen_by(1 - seat) if e["type"] == "action"]
    anyone = [e["action"] for e in table.events_seen_by(None) if e["type"] == "action"]
    assert mine[-1] == str(pick)
    count = len(pick.faces)
    assert theirs[-1] == anyone[-1] == f"reroll {count} {'die' if count == 1 else 'dice'}"

"""A hint in every game, from the seat's view only, agreeing with the review.

- Twin worlds (``worlds.py``) that differ only in other seats' hidden dice and hidden choices
  give the seat to move the same hint, byte for byte, for every game and preset.
- Where the review grades a decision, the hint before it names the same best choice and
  prices the choice made at the review's cost (both are one computation); where the review
  only tells odds, the hint tells the same odds.
"""

from __future__ import annotations

import json
import random

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import Game, State, Table, notations
from kastkopp.games import load, registered
from kastkopp.strategy.advice import Advisor, Hint, advisor_for
from kastkopp.strategy.review import review, steps_of
from worlds import differs, revealed, step, twin

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]


def ready(game: Game) -> Advisor:
    advisor = advisor_for(game)
    assert advisor is not None, f"no hint for {game.title} ({game.preset})"
    advisor.prepare()
    return advisor


def random_log(game: Game, seed: int, steps: int = 150) -> list[dict]:
    table, rng = Table(game, dice=SeededDice(seed)), random.Random(seed)
    for _ in range(steps):
        if table.state.is_over():
            break
        table.act(table.state.to_move(), rng.choice(table.state.legal_actions()))
    return table.events


def hint_at(advisor: Advisor, state: State, seat: int) -> Hint:
    return advisor.hint(state.view(seat), notations(state.legal_actions()))


def shown(hint: Hint) -> str:
    return json.dumps(hint.to_json(), sort_keys=True)


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_a_hint_is_the_same_in_worlds_that_differ_only_in_what_the_seat_cannot_see(
        name, preset, players):
    game = load(name, preset=preset, players=players)
    advisor = ready(game)
    hidden = registered()[name].hidden_information
    rng = random.Random(f"{name}{preset}{players}")
    compared = told = varied = 0
    for seed in range(2 if hidden else 1):
        events = random_log(game, seed, steps=150 if hidden else 12)
        state, start = game.new_state(), 0
        for index, event in enumerate(events):
            seat = state.to_move()
            if seat is not None and state.chance() is None:
                hint = hint_at(advisor, state, seat)
                told += bool(hint.choices or hint.facts)
                if hidden:
                    other = twin(game, events[:index], seat, rng, start)
                    assert other is not None, "no twin world could be drawn"
                    varied += differs(events[:index], other)
                    twin_state = game.new_state()
                    for e in other:
                        twin_state = step(twin_state, e)
                    assert shown(hint_at(advisor, twin_state, seat)) == shown(hint), (
                        f"the hint for seat {seat} at event {index} depends on hidden dice")
                    compared += 1
            state = step(state, event)
            if revealed(game, event, state):
                start = index + 1
    assert told > 0, "the hint never said anything"
    if hidden:
        assert compared > 0 and varied > 0, "the worlds never differed: nothing was proved"


@pytest.mark.parametrize(("name", "preset", "players"), [
    p for p in CONFIGS if p.values[0] != "yatzy" or p.values[1] in ("yatzy",)])
def test_the_hint_before_a_decision_prices_it_as_the_review_does(name, preset, players):
    game = load(name, preset=preset, players=players)
    advisor = ready(game)
    table = Table(game, dice=SeededDice(3))
    rng = random.Random(3)
    while not table.state.is_over():
        table.act(table.state.to_move(), rng.choice(table.state.legal_actions()))
    log = table.to_json()
    before = {s.index: s.before for s in steps_of(game, log["events"])}
    graded = odds = 0
    for moment in review(log).moments:
        if moment.kind != "decision":
            continue
        hint = hint_at(advisor, before[moment.index], moment.seat)
        if moment.cost is not None and hint.unit != "chance" and moment.best is not None:
            worth = {c.choice: c.expected for c in hint.choices}
            assert worth[moment.best] == pytest.approx(hint.choices[0].expected, abs=1e-9)
            assert hint.cost(moment.made) == pytest.approx(moment.cost, abs=1e-9)
            graded += 1
        elif hint.unit == "chance" and hint.choices:
            worth = {c.choice: c.expected for c in hint.choices}
            said = [v for k, v in moment.detail.items() if k in ("holds", "right", "beat")]
            if said and moment.made in worth:
                assert worth[moment.made] == pytest.approx(said[0], abs=1e-9)
                odds += 1
        for fact, value in hint.facts.items():
            assert 0.0 <= value <= 1.0 or fact == "share"
            if fact in moment.detail:
                assert value == pytest.approx(moment.detail[fact], abs=1e-9)
                odds += 1
    assert graded + odds > 0, "no decision was compared"


def test_liars_dice_odds_from_own_dice():
    game = load("liars_dice", preset="perudo", players=3)
    state = game.new_state()
    while state.chance() is not None:
        state = state.resolve(tuple(5 for _ in range(state.chance().count)))
    seat = state.to_move()
    hint = hint_at(ready(game), state, seat)
    worth = {c.choice: c.expected for c in hint.choices}
    assert hint.unit == "chance"
    assert worth["bid 5x5"] == pytest.approx(1.0)  # five fives in one's own cup
    assert 0.0 < worth["bid 8x5"] < 1.0
    shown = [round(v, 9) for v in worth.values()]
    assert shown == sorted(shown, reverse=True)
    # among bids as sure as each other, the boldest first
    assert hint.choices[0].expected == pytest.approx(1.0)
    assert hint.choices[0].choice == "bid 5x5"
    assert "holds" not in hint.facts and "bid_holds" not in hint.facts  # no bid stands yet

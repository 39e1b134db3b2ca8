"""A sheet kept of a game agrees with the game itself.

Each test plays whole games on the engine (random bots, seeded dice), writes down what a
player at the table would — who lost, which dice went in which row — and checks that the
sheet derives the same counts, totals and places as the game's own state and outcome.
"""

from __future__ import annotations

import random

import pytest

from kastkopp.dice import SeededDice
from kastkopp.engine import Table
from kastkopp.games import load
from kastkopp.games.yatzy import label, score
from kastkopp.sheets import Sheet
from kastkopp.sheets.core import signed
from kastkopp.strategy import RandomBot

NAMES = ["Anna", "Ben", "Cara", "Dan"]


def places_of(outcome, players):
    return [outcome.place(s) for s in range(players)]


def play(game, seed, before=None, after=None):
    """Play ``game`` with random bots; call ``before(state, action)`` and ``after(state)``."""
    table = Table(game, seats=NAMES[:game.players], dice=SeededDice(seed))
    rng = random.Random(seed)
    bot = RandomBot()
    for _ in range(20_000):
        state = table.state
        if state.is_over():
            return state
        seat = state.to_move()
        action = bot.choose(state.view(seat), state.legal_actions(), rng)
        if before is not None:
            before(state, action)
        table.act(seat, action)
        if after is not None:
            after(table.state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", [None, "lognare", "dudo", "single_hand"])
@pytest.mark.parametrize("seed", range(3))
def test_liars_dice_sheet_of_a_played_game_matches_the_game(preset, seed):
    game = load("liars_dice", preset=preset, players=3, dice=2, lives=2)
    entries: list[str] = []
    rounds = [0]

    def after(state):
        if state.round > rounds[0]:
            rounds[0] = state.round
            last = state.last_round
            name = NAMES[last["seat"]]
            entries.append(f"loss {name} {last['change']}" if last["change"] > 0
                           else f"exact {name}")

    state = play(game, seed, after=after)
    sheet = Sheet.new("liars_dice", NAMES[:3], preset=preset, dice=2, lives=2)
    for entry in entries:
        sheet = sheet.add(entry)
    derived = sheet.derive()
    assert derived.finished and derived.flags == ()
    assert [s.count for s in derived.standings] == list(state.stock)
    assert [s.place for s in derived.standings] == places_of(state.outcome(), 3)
    cells = [row[1:4] for row in derived.grid[1:]]
    assert cells == [tuple(None if c is None else signed(c) for c in row)
                     for row in state.sheet]


# seeds whose random games have a come-back: a player on one die wins an exact call
@pytest.mark.parametrize(("loss", "seed"), [("die", 29), ("die", 30), ("life", 0),
                                            ("life", 12)])
def test_liars_dice_sheet_of_a_played_game_with_the_come_back_matches_the_game(loss, seed):
    rules = {"dice": 3, "lives": 3, "loss": loss}
    game = load("liars_dice", preset="come_back", players=3, **rules)
    entries: list[str] = []
    rounds = [0]

    def after(state):
        if state.round > rounds[0]:
            rounds[0] = state.round
            last = state.last_round
            name = NAMES[last["seat"]]
            entries.append(f"loss {name} {last['change']}" if last["change"] > 0
                           else f"exact {name}")

    state = play(game, seed, after=after)
    assert state.came_back, "no come-back in this game"
    sheet = Sheet.new("liars_dice", NAMES[:3], preset="come_back", **rules)
    for entry in entries:
        sheet = sheet.add(entry)
    derived = sheet.derive()
    assert derived.finished and derived.flags == ()
    assert [s.count for s in derived.standings] == list(state.stock)
    assert [s.place for s in derived.standings] == places_of(state.outcome(), 3)
    cells = [row[1:4] for row in derived.grid[1:]]
    assert cells == [tuple(None if c is None else signed(c) for c in row)
                     for row in state.sheet]
    assert any(c == signed(-2) for row in cells for c in row)


@pytest.mark.parametrize("preset", [None, "classic"])
@pytest.mark.parametrize("seed", range(3))
def test_slosch_sheet_of_a_played_game_matches_the_game(preset, seed):
    game = load("mia", preset=preset, players=3, lives=3)
    entries: list[str] = []
    rounds = [0]

    def after(state):
        if state.round > rounds[0]:
            rounds[0] = state.round
            last = state.last_round
            names = " ".join(NAMES[s] for s in last["losers"])
            entries.append(f"loss {names}" + (" slosch" if last["cost"] == 2 else ""))

    state = play(game, seed, after=after)
    sheet = Sheet.new("mia", NAMES[:3], preset=preset, lives=3)
    for entry in entries:
        sheet = sheet.add(entry)
    derived = sheet.derive()
    assert derived.finished and derived.flags == ()
    assert [s.count for s in derived.standings] == list(state.lives)
    assert [s.place for s in derived.standings] == places_of(state.outcome(), 3)


@pytest.mark.parametrize("preset", ["yatzy", "maxi", "yahtzee", "tarningspoker",
                                    "terningspoker"])
def test_yatzy_sheet_of_a_played_game_matches_the_game(preset):
    game = load("yatzy", preset=preset, players=2)
    entries: list[str] = []

    def before(state, action):
        if str(action).startswith("score "):
            first = state.throw == 1
            name = NAMES[state.player]
            if score(action.row, state.dice, state.rules, first, state.joker()) is None:
                entries.append(f"{name} {action.row} -")  # crossed out, as on paper
            else:
                dice = " ".join(map(str, state.dice))
                entries.append(f"{name} {action.row} {dice}" + (" first" if first else ""))

    state = play(game, seed=11, before=before)
    sheet = Sheet.new("yatzy", NAMES[:2], preset=preset)
    for entry in entries:
        sheet = sheet.add(entry)
    derived = sheet.derive()
    assert derived.finished and derived.flags == ()
    assert [s.count for s in derived.standings] == list(state.totals())
    assert [s.place for s in derived.standings] == places_of(state.outcome(), 2)
    rows = {row[0]: row[1:] for row in derived.grid}
    for seat, column in enumerate(state.sheets):
        for row, cell in zip(game.rules.rows, column, strict=True):
            shown = rows[label(row, game.rules.lang, game.rules.sheet_name)][seat]
            assert shown == ("–" if cell == "-" else str(cell))


@pytest.mark.parametrize("game_name", ["knack", "linka"])
def test_pot_sheet_of_played_games_matches_the_ledgers(game_name):
    game = load(game_name, players=3)
    sheet = Sheet.new(game_name, NAMES[:3])
    expected = [0, 0, 0]
    for seed in range(4):
        state = play(game, seed)
        ledger = state.ledger
        paid = " ".join(f"{NAMES[s]} {ledger.paid_in(s)}" for s in range(3)
                        if ledger.paid_in(s))
        winners = [m.seat for m in ledger.movements if m.kind == "win"]
        sheet = sheet.add(f"{paid} won " + " ".join(NAMES[s] for s in winners))
        for m in ledger.movements:
            if m.kind == "pays":  # a double knock: the loser paid again, or won it back
                asker_won = m.seat == winners[0]
                asker = next(r.seat for r in ledger.movements if r.kind == "receives") \
                    if asker_won else m.seat
                sheet = sheet.add(f"double {NAMES[asker]} " + ("won" if asker_won
                                                               else "lost"))
        expected = [e + b for e, b in zip(expected, ledger.balances(), strict=True)]
    derived = sheet.derive()
    assert derived.flags == ()
    assert [s.count for s in derived.standings] == expected
    assert sum(expected) == 0

"""The Yatzy family: every row of every rule set, the turn, the sheet and the bots."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.engine import IllegalAction, RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.yatzy import (
    DASH,
    Keep,
    Score,
    Throws,
    YatzyRules,
    parse_action,
    parse_row,
    render_sheet,
    score,
)
from kastkopp.strategy import make_bot
from kastkopp.strategy.odds import odds_for
from kastkopp.strategy.yatzy_odds import row_odds

runner = CliRunner()

YATZY = YatzyRules.make("yatzy")
MAXI = YatzyRules.make("maxi")
YAHTZEE = YatzyRules.make("yahtzee")
TARNINGSPOKER = YatzyRules.make("tarningspoker")
TERNINGSPOKER = YatzyRules.make("terningspoker")


def start(preset="yatzy", players=2, **rules):
    return load("yatzy", preset=preset, players=players, **rules).new_state()


def with_sheet(state, seat=0, **cells):
    """The state with some of a seat's rows already written (row names with _ for -)."""
    rows = state.rules.rows
    sheet = list(state.sheets[seat])
    for name, cell in cells.items():
        sheet[rows.index(name.replace("_", "-"))] = cell
    sheets = tuple(tuple(sheet) if s == seat else other for s, other in enumerate(state.sheets))
    return replace(state, sheets=sheets)


def written(state, seat, row):
    return state.cells(seat)[row]


# --------------------------------------------------------------------------- every row

UPPER_5 = {"ones": ((1, 1, 4, 5, 6), 2), "twos": ((2, 2, 2, 5, 6), 6),
           "threes": ((3, 3, 3, 3, 6), 12), "fours": ((4, 1, 2, 3, 5), 4),
           "fives": ((5, 5, 5, 5, 5), 25), "sixes": ((6, 6, 1, 2, 3), 12)}
# One made example of every row of every rule set, with what it scores.
EVERY_ROW = {
    "yatzy": {**UPPER_5, "pair": ((5, 5, 6, 6, 1), 12), "two-pairs": ((1, 1, 6, 6, 6), 14),
              "three-kind": ((2, 2, 2, 6, 6), 6), "four-kind": ((6, 6, 6, 6, 1), 24),
              "small-straight": ((1, 2, 3, 4, 5), 15),
              "large-straight": ((2, 3, 4, 5, 6), 20), "full-house": ((1, 1, 6, 6, 6), 20),
              "chance": ((1, 1, 6, 6, 6), 20), "yatzy": ((1, 1, 1, 1, 1), 50)},
    "maxi": {"ones": ((1, 1, 1, 4, 5, 6), 3), "twos": ((2, 2, 2, 2, 2, 2), 12),
             "threes": ((3, 3, 3, 3, 6, 6), 12), "fours": ((4, 4, 4, 4, 4, 1), 20),
             "fives": ((5, 1, 2, 3, 4, 6), 5), "sixes": ((6, 6, 6, 6, 6, 6), 36),
             "pair": ((1, 1, 2, 2, 3, 4), 4), "two-pairs": ((1, 1, 2, 2, 3, 3), 10),
             "three-pairs": ((1, 1, 2, 2, 3, 3), 12), "three-kind": ((6, 6, 6, 6, 1, 2), 18),
             "four-kind": ((5, 5, 5, 5, 5, 5), 20), "five-kind": ((2, 2, 2, 2, 2, 6), 10),
             "small-straight": ((1, 1, 2, 3, 4, 5), 15),
             "large-straight": ((2, 3, 4, 5, 6, 1), 20),
             "full-straight": ((6, 5, 4, 3, 2, 1), 21), "full-house": ((1, 1, 1, 2, 2, 6), 7),
             "villa": ((6, 6, 6, 1, 1, 1), 21), "tower": ((1, 1, 1, 1, 6, 6), 16),
             "chance": ((1, 2, 3, 4, 5, 6), 21), "yatzy": ((1, 1, 1, 1, 1, 1), 100)},
    "yahtzee": {**UPPER_5, "three-kind": ((2, 2, 2, 6, 6), 18),
                "four-kind": ((6, 6, 6, 6, 1), 25), "full-house": ((1, 1, 6, 6, 6), 25),
                "small-straight": ((6, 5, 4, 3, 3), 30),
                "large-straight": ((1, 2, 3, 4, 5), 40), "yatzy": ((3, 3, 3, 3, 3), 50),
                "chance": ((1, 1, 6, 6, 6), 20)},
    "tarningspoker": {**UPPER_5, "three-kind": ((4, 4, 4, 1, 1), 14),
                      "four-kind": ((3, 3, 3, 3, 3), 15), "full-house": ((4, 4, 4, 1, 1), 25),
                      "small-straight": ((2, 3, 4, 5, 1), 30),
                      "large-straight": ((2, 3, 4, 5, 6), 40),
                      "yatzy": ((6, 6, 6, 6, 6), 50), "chance": ((2, 3, 4, 5, 1), 15)},
    "terningspoker": {"ones": ((1, 1, 4, 5, 6), -1), "twos": ((2, 2, 2, 5, 6), 0),
                      "threes": ((3, 3, 3, 3, 6), 3), "fours": ((4, 1, 2, 3, 5), -8),
                      "fives": ((5, 5, 5, 5, 5), 10), "sixes": ((1, 2, 3, 4, 5), -18),
                      "pair": ((5, 5, 6, 6, 1), 12), "two-pairs": ((1, 1, 6, 6, 6), 14),
                      "three-kind": ((2, 2, 2, 6, 6), 6),
                      "small-straight": ((1, 2, 3, 4, 5), 15),
                      "large-straight": ((2, 3, 4, 5, 6), 20),
                      "full-house": ((1, 1, 6, 6, 6), 20), "four-kind": ((6, 6, 6, 6, 1), 24),
                      "yatzy": ((1, 1, 1, 1, 1), 55), "chance": ((1, 1, 6, 6, 6), 20)},
}


def test_the_examples_cover_every_row_of_every_rule_set():
    assert set(EVERY_ROW) == set(YatzyRules.PRESETS)
    for preset, rows in EVERY_ROW.items():
        assert tuple(rows) == YatzyRules.make(preset).rows, preset


@pytest.mark.parametrize(("preset", "row", "dice", "points"), [
    (preset, row, dice, points) for preset, rows in EVERY_ROW.items()
    for row, (dice, points) in rows.items()])
def test_every_row_of_every_rule_set(preset, row, dice, points):
    assert score(row, dice, YatzyRules.make(preset)) == points


@given(preset=st.sampled_from(sorted(YatzyRules.PRESETS)), data=st.data(),
       first=st.booleans())
def test_a_row_scores_the_same_whatever_order_the_dice_lie_in(preset, data, first):
    rules = YatzyRules.make(preset)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=rules.dice, max_size=rules.dice))
    shuffled = data.draw(st.permutations(dice))
    for row in rules.rows:
        assert score(row, tuple(dice), rules, first) == score(row, tuple(shuffled), rules, first)
    assert score("chance", tuple(dice), rules, first) == sum(dice)


# --------------------------------------------------------------------------- Scandinavian Yatzy


@pytest.mark.parametrize(("row", "dice", "points"), [
    ("ones", (1, 1, 2, 3, 1), 3),
    ("twos", (2, 2, 2, 5, 6), 6),
    ("threes", (3, 1, 2, 4, 5), 3),
    ("fours", (4, 4, 1, 2, 3), 8),
    ("fives", (5, 5, 5, 5, 1), 20),
    ("sixes", (6, 6, 6, 2, 1), 18),
    ("pair", (6, 6, 5, 5, 1), 12),
    ("two-pairs", (3, 3, 5, 5, 1), 16),
    ("two-pairs", (3, 3, 3, 5, 5), 16),
    ("three-kind", (4, 4, 4, 5, 6), 12),
    ("three-kind", (4, 4, 4, 4, 6), 12),
    ("four-kind", (2, 2, 2, 2, 5), 8),
    ("four-kind", (5, 5, 5, 5, 5), 20),
    ("small-straight", (5, 3, 1, 2, 4), 15),
    ("large-straight", (6, 2, 3, 4, 5), 20),
    ("full-house", (3, 3, 5, 5, 5), 21),
    ("chance", (1, 3, 5, 4, 6), 19),
    ("yatzy", (2, 2, 2, 2, 2), 50),
])
def test_scandinavian_yatzy_rows_score_the_matching_dice(row, dice, points):
    assert score(row, dice, YATZY) == points


@pytest.mark.parametrize(("row", "dice"), [
    ("ones", (2, 3, 4, 5, 6)),
    ("pair", (1, 2, 3, 4, 6)),
    ("two-pairs", (4, 4, 4, 4, 2)),  # four alike are not two pairs
    ("three-kind", (4, 4, 5, 5, 6)),
    ("four-kind", (4, 4, 4, 5, 6)),
    ("small-straight", (2, 3, 4, 5, 6)),  # the small straight is exactly 1-5
    ("small-straight", (1, 2, 3, 4, 4)),
    ("large-straight", (1, 2, 3, 4, 5)),
    ("full-house", (5, 5, 5, 5, 5)),  # five alike are not a full house
    ("full-house", (3, 3, 5, 5, 6)),
    ("yatzy", (2, 2, 2, 2, 3)),
])
def test_scandinavian_yatzy_rows_not_made(row, dice):
    assert score(row, dice, YATZY) is None


def test_yatzy_has_fifteen_rows_in_the_familiar_order():
    assert YATZY.rows == ("ones", "twos", "threes", "fours", "fives", "sixes", "pair",
                          "two-pairs", "three-kind", "four-kind", "small-straight",
                          "large-straight", "full-house", "chance", "yatzy")


def test_a_row_not_made_is_written_as_a_zero_in_yatzy():
    state = start().resolve((1, 2, 3, 4, 6)).apply("score yatzy")
    assert written(state, 0, "yatzy") == 0


def test_yatzy_bonus_is_50_at_63_in_the_upper_part():
    state = with_sheet(start(), ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert state.upper_sum(0) == 63 and state.bonus(0) == 50 and state.total(0) == 113
    short = with_sheet(start(), ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert short.bonus(0) == 0


def test_yatzy_bonus_is_earned_as_soon_as_the_upper_sum_reaches_63():
    state = with_sheet(start(), fours=20, fives=25, sixes=18)
    assert state.bonus(0) == 50


# --------------------------------------------------------------------------- Maxi Yatzy


@pytest.mark.parametrize(("row", "dice", "points"), [
    ("pair", (6, 4, 2, 6, 5, 1), 12),
    ("two-pairs", (2, 1, 3, 3, 5, 5), 16),
    ("two-pairs", (2, 2, 5, 5, 6, 6), 22),
    ("three-pairs", (2, 2, 5, 5, 6, 6), 26),
    ("three-kind", (4, 5, 3, 5, 5, 4), 15),
    ("four-kind", (2, 4, 2, 2, 5, 2), 8),
    ("five-kind", (3, 3, 2, 3, 3, 3), 15),
    ("small-straight", (1, 2, 3, 4, 5, 3), 15),  # a pair inside the small straight
    ("large-straight", (2, 3, 4, 5, 6, 6), 20),
    ("full-straight", (1, 2, 3, 4, 5, 6), 21),
    ("full-house", (3, 4, 4, 6, 6, 6), 26),
    ("villa", (2, 2, 2, 5, 5, 5), 21),
    ("tower", (3, 3, 6, 6, 6, 6), 30),
    ("chance", (3, 4, 2, 6, 5, 4), 24),
    ("yatzy", (4, 4, 4, 4, 4, 4), 100),
])
def test_maxi_yatzy_rows_with_six_dice(row, dice, points):
    assert score(row, dice, MAXI) == points


@pytest.mark.parametrize(("row", "dice"), [
    ("three-pairs", (2, 2, 2, 2, 5, 5)),
    ("villa", (5, 5, 5, 5, 5, 5)),
    ("tower", (6, 6, 6, 6, 6, 6)),
    ("full-straight", (1, 2, 3, 4, 5, 5)),
    ("yatzy", (4, 4, 4, 4, 4, 3)),
])
def test_maxi_yatzy_rows_not_made(row, dice):
    assert score(row, dice, MAXI) is None


def test_maxi_is_the_yatzy_sheet_with_six_dice_and_twenty_rows():
    assert MAXI.dice == 6 and len(MAXI.rows) == 20
    state = start("maxi")
    assert state.chance().count == 6
    assert YatzyRules.make("yatzy", dice=6).rows == MAXI.rows


def test_maxi_bonus_is_100_at_84():
    full = with_sheet(start("maxi"), ones=4, twos=8, threes=12, fours=16, fives=20, sixes=24)
    assert full.bonus(0) == 100
    short = with_sheet(start("maxi"), ones=3, twos=8, threes=12, fours=16, fives=20, sixes=24)
    assert short.bonus(0) == 0


def test_maxi_saves_unused_throws_for_the_players_later_turns():
    state = start("maxi").resolve((1, 2, 3, 4, 5, 6)).apply("score full-straight")
    assert state.saved == (2, 0)
    state = state.resolve((1, 1, 2, 2, 3, 3)).apply("score three-pairs")  # Ben saves 2 too
    assert state.throws() == 5
    state = state.resolve((1, 1, 2, 2, 3, 3))
    for _ in range(4):
        state = state.apply("keep").resolve((1, 1, 2, 2, 3, 3))
    assert state.throw == 5 and state.saved == (2, 2)
    with pytest.raises(IllegalAction, match="thrown 5 times"):
        state.apply("keep")
    assert state.apply("score chance").saved == (0, 2)


def test_saved_throws_are_a_house_rule():
    state = start("maxi", saved_throws=False).resolve((1, 2, 3, 4, 5, 6))
    assert state.apply("score full-straight").saved == (0, 0)


# --------------------------------------------------------------------------- Yahtzee


@pytest.mark.parametrize(("row", "dice", "points"), [
    ("three-kind", (3, 3, 3, 4, 5), 18),
    ("four-kind", (2, 2, 2, 2, 6), 14),
    ("full-house", (2, 2, 3, 3, 3), 25),
    ("small-straight", (1, 2, 3, 4, 6), 30),
    ("small-straight", (1, 2, 3, 3, 4), 30),  # a pair inside the small straight
    ("small-straight", (3, 4, 5, 6, 6), 30),
    ("small-straight", (1, 2, 3, 4, 5), 30),
    ("large-straight", (1, 2, 3, 4, 5), 40),
    ("large-straight", (2, 3, 4, 5, 6), 40),
    ("yatzy", (6, 6, 6, 6, 6), 50),
    ("chance", (6, 6, 6, 6, 6), 30),
])
def test_yahtzee_rows(row, dice, points):
    assert score(row, dice, YAHTZEE) == points


@pytest.mark.parametrize(("row", "dice"), [
    ("full-house", (4, 4, 4, 4, 4)),
    ("small-straight", (1, 2, 4, 5, 6)),
    ("large-straight", (1, 2, 3, 4, 6)),
    ("four-kind", (3, 3, 3, 4, 4)),
])
def test_yahtzee_rows_not_made(row, dice):
    assert score(row, dice, YAHTZEE) is None


def test_yahtzee_has_thirteen_rows_and_a_35_bonus_at_63():
    assert len(YAHTZEE.rows) == 13
    state = with_sheet(start("yahtzee"), ones=3, twos=6, threes=9, fours=12, fives=15,
                       sixes=18)
    assert state.bonus(0) == 35


def test_yahtzee_joker_must_take_its_upper_row_while_open():
    state = with_sheet(start("yahtzee"), yatzy=50).resolve((4, 4, 4, 4, 4))
    assert [str(a) for a in state.legal_actions() if isinstance(a, Score)] == ["score fours"]
    with pytest.raises(IllegalAction, match="upper row"):
        state.apply("score chance")


def test_yahtzee_joker_fills_full_house_and_straights_at_full_value():
    state = with_sheet(start("yahtzee"), yatzy=50, fours=16).resolve((4, 4, 4, 4, 4))
    options = state.options()
    assert set(options) == {"three-kind", "four-kind", "full-house", "small-straight",
                            "large-straight", "chance"}
    assert options["full-house"] == 25 and options["small-straight"] == 30
    assert options["large-straight"] == 40 and options["three-kind"] == 20


def test_yahtzee_joker_goes_to_any_upper_row_when_the_lower_part_is_full():
    lower = {r.replace("-", "_"): 0 for r in YAHTZEE.rows if r not in
             ("ones", "twos", "threes", "fours", "fives", "sixes")}
    state = with_sheet(start("yahtzee"), fours=12, **lower).resolve((4, 4, 4, 4, 4))
    assert state.options() == {"ones": 0, "twos": 0, "threes": 0, "fives": 0, "sixes": 0}


def test_yahtzee_bonus_is_100_per_extra_yahtzee_when_the_box_holds_50():
    state = with_sheet(start("yahtzee"), yatzy=50).resolve((2, 2, 2, 2, 2))
    after = state.apply("score twos")
    assert after.extras == (1, 0)
    assert after.total(0) == 50 + 10 + 100


def test_the_yahtzee_bonus_has_its_own_line_on_the_sheet():
    state = with_sheet(start("yahtzee"), yatzy=50).resolve((2, 2, 2, 2, 2)).apply("score twos")
    text = state.game.render(state.view(None), ["Anna", "Ben"])
    line = next(line for line in text.splitlines() if line.startswith("Yahtzee bonus"))
    assert line.split()[2:] == ["100", "."]


def test_no_yahtzee_bonus_when_the_box_holds_zero_but_the_joker_still_applies():
    state = with_sheet(start("yahtzee"), yatzy=0, twos=4).resolve((2, 2, 2, 2, 2))
    assert state.options()["full-house"] == 25
    after = state.apply("score full-house")
    assert after.extras == (0, 0) and after.total(0) == 4 + 25


def test_the_first_yahtzee_in_its_own_box_is_no_bonus():
    after = start("yahtzee").resolve((5, 5, 5, 5, 5)).apply("score yatzy")
    assert after.extras == (0, 0) and after.total(0) == 50


# --------------------------------------------------------------------------- Tärningspoker


def test_tarningspoker_seed_example_1_3_2_4_4():
    dice = (1, 3, 2, 4, 4)
    assert score("ones", dice, TARNINGSPOKER) == 1
    assert score("fours", dice, TARNINGSPOKER) == 8
    assert score("small-straight", dice, TARNINGSPOKER) == 30


@pytest.mark.parametrize(("row", "dice", "points"), [
    ("three-kind", (5, 5, 5, 2, 1), 18),  # the sum of all dice
    ("three-kind", (5, 5, 5, 5, 1), 21),
    ("four-kind", (3, 3, 3, 3, 6), 18),
    ("full-house", (6, 6, 6, 1, 1), 25),
    ("small-straight", (2, 3, 4, 5, 5), 30),
    ("large-straight", (2, 3, 4, 5, 6), 40),
    ("yatzy", (1, 1, 1, 1, 1), 50),
    ("chance", (6, 5, 4, 3, 3), 21),
])
def test_tarningspoker_rows(row, dice, points):
    assert score(row, dice, TARNINGSPOKER) == points


def test_tarningspoker_full_house_needs_two_different_faces():
    assert score("full-house", (3, 3, 3, 3, 3), TARNINGSPOKER) is None


def test_tarningspoker_has_13_rows_and_no_bonus_of_any_kind():
    assert len(TARNINGSPOKER.rows) == 13
    state = with_sheet(start("tarningspoker"), ones=5, twos=10, threes=15, fours=20,
                       fives=25, sixes=30, yatzy=50)
    assert state.bonus(0) == 0
    after = state.resolve((6, 6, 6, 6, 6)).apply("score chance")
    assert after.extras == (0, 0) and after.total(0) == 105 + 50 + 30


def test_tarningspoker_is_exactly_13_turns_per_player():
    game = load("yatzy", preset="tarningspoker", players=2)
    table = Table(game, dice=SeededDice(5))
    play_out(table, [make_bot(game, "random")] * 2, random.Random(5))
    scores = [e for e in table.events if e["type"] == "action" and
              e["action"].startswith("score")]
    assert len(scores) == 26 and table.state.is_over()


# --------------------------------------------------------------------------- Terningspoker


@pytest.mark.parametrize(("row", "dice", "points"), [
    ("fours", (4, 4, 4, 1, 2), 0),  # three of the face is 0
    ("fours", (4, 4, 1, 2, 3), -4),  # two fours
    ("sixes", (6, 6, 6, 6, 1), 6),  # four sixes
    ("fives", (5, 5, 5, 5, 5), 10),  # five fives
    ("sixes", (6, 6, 6, 6, 6), 12),  # five sixes: +12 (the seed's own example says 10)
    ("ones", (2, 3, 4, 5, 6), -3),
])
def test_terningspoker_part_1_scores_count_minus_three_times_face(row, dice, points):
    assert score(row, dice, TERNINGSPOKER) == points
    assert score(row, dice, TERNINGSPOKER, first_throw=True) == points  # never doubled


def test_terningspoker_part_1_bonus_is_50_when_the_sum_is_zero_or_more():
    even = with_sheet(start("terningspoker"), ones=0, twos=-2, threes=3, fours=0, fives=0,
                      sixes=-1)
    assert even.upper_sum(0) == 0 and even.bonus(0) == 50
    below = with_sheet(start("terningspoker"), ones=0, twos=-2, threes=3, fours=0, fives=0,
                       sixes=-2)
    assert below.bonus(0) == 0


def test_terningspoker_part_1_bonus_waits_for_the_whole_part():
    state = with_sheet(start("terningspoker"), sixes=12)
    assert state.bonus(0) == 0  # the other five rows can still take it below zero


@pytest.mark.parametrize(("row", "dice", "points"), [
    ("pair", (3, 3, 1, 2, 5), 6),  # the seed: a pair of threes is 3 + 3
    ("pair", (6, 6, 5, 5, 1), 12),
    ("two-pairs", (2, 2, 6, 6, 1), 16),
    ("three-kind", (5, 5, 5, 1, 2), 15),
    ("small-straight", (1, 2, 3, 4, 5), 15),
    ("large-straight", (2, 3, 4, 5, 6), 20),
    ("full-house", (2, 2, 6, 6, 6), 22),
    ("four-kind", (3, 3, 3, 3, 6), 12),
    ("yatzy", (4, 4, 4, 4, 4), 70),  # poker: the dice and 50 more
    ("chance", (1, 3, 5, 4, 6), 19),  # the seed's example
])
def test_terningspoker_part_2_scores_the_dice_that_form_the_combination(row, dice, points):
    assert score(row, dice, TERNINGSPOKER) == points


def test_terningspoker_first_throw_doubles_every_combination_but_chance():
    assert score("pair", (6, 6, 1, 2, 3), TERNINGSPOKER, first_throw=True) == 24
    assert score("small-straight", (1, 2, 3, 4, 5), TERNINGSPOKER, first_throw=True) == 30
    assert score("chance", (6, 6, 1, 2, 3), TERNINGSPOKER, first_throw=True) == 18


def test_terningspoker_poker_earns_50_on_top_of_the_doubled_dice():
    assert score("yatzy", (6, 6, 6, 6, 6), TERNINGSPOKER) == 80
    assert score("yatzy", (6, 6, 6, 6, 6), TERNINGSPOKER, first_throw=True) == 110


def test_terningspoker_first_throw_is_the_throw_written_without_rerolling():
    upper = dict(ones=0, twos=0, threes=0, fours=0, fives=0, sixes=0)
    first = with_sheet(start("terningspoker"), **upper).resolve((6, 6, 1, 2, 3))
    assert first.apply("score pair").cells(0)["pair"] == 24
    later = first.apply("keep 6 6 1 2").resolve((3,))
    assert later.apply("score pair").cells(0)["pair"] == 12


def test_terningspoker_marks_a_combination_not_made_with_a_dash_not_a_zero():
    upper = dict(ones=0, twos=0, threes=0, fours=0, fives=0, sixes=0)
    state = with_sheet(start("terningspoker"), **upper).resolve((1, 2, 3, 4, 6))
    after = state.apply("score four-kind")
    assert written(after, 0, "four-kind") == DASH
    assert after.total(0) == 50  # a dash counts as nothing
    zero = start("terningspoker").resolve((4, 4, 4, 1, 2)).apply("score fours")
    assert written(zero, 0, "fours") == 0  # three fours: a zero, made


def test_terningspoker_plays_the_six_part_1_rows_first():
    state = start("terningspoker").resolve((6, 6, 1, 2, 3))
    assert {str(a) for a in state.legal_actions() if isinstance(a, Score)} == {
        "score ones", "score twos", "score threes", "score fours", "score fives",
        "score sixes"}
    with pytest.raises(IllegalAction, match="upper part is filled first"):
        state.apply("score pair")


def test_terningspoker_result_is_total_minus_the_average_of_all_players():
    game = load("yatzy", preset="terningspoker", players=3)
    table = Table(game, dice=SeededDice(11))
    outcome = play_out(table, [make_bot(game, "greedy")] * 3, random.Random(11))
    totals = table.state.totals()
    average = sum(totals) / 3
    assert outcome.payoffs == pytest.approx([t - average for t in totals])
    assert sum(outcome.payoffs) == pytest.approx(0)
    assert table.state.view(None)["average"] == pytest.approx(average)


# --------------------------------------------------------------------------- the turn


def test_a_turn_is_a_roll_then_up_to_two_rerolls_of_the_dice_not_kept():
    state = start()
    assert state.chance().count == 5 and state.to_move() is None
    state = state.resolve((1, 3, 3, 5, 6)).apply("keep 3 3")
    assert state.chance().count == 3
    state = state.resolve((3, 2, 6)).apply("keep 3 3 3")
    state = state.resolve((3, 1))
    assert state.dice == (1, 3, 3, 3, 3) and state.throw == 3
    assert all(isinstance(a, Score) for a in state.legal_actions())


def test_keep_with_nothing_rerolls_all_dice():
    state = start().resolve((1, 2, 3, 4, 6)).apply("keep")
    assert state.chance().count == 5


def test_scoring_ends_the_turn_and_passes_the_dice():
    state = start(players=3).resolve((2, 2, 2, 4, 4)).apply("score full-house")
    assert written(state, 0, "full-house") == 14
    assert state.player == 1 and state.chance().count == 5


def test_a_game_ends_when_every_sheet_is_full():
    game = load("yatzy", players=1)
    table = Table(game, dice=SeededDice(2))
    outcome = play_out(table, [make_bot(game, "random")], random.Random(2))
    assert all(c is not None for c in table.state.sheets[0])
    assert outcome.ranking == ((0,),) and outcome.scores == (table.state.total(0),)


@pytest.mark.parametrize("players", [0, 9])
def test_one_to_eight_players(players):
    with pytest.raises(RuleError, match="1 to 8"):
        load("yatzy", players=players)


def test_two_players_read_as_white_and_black():
    game = load("yatzy", players=2)
    assert (game.colour(0), game.colour(1)) == ("white", "black")
    assert game.new_state().view(None)["colours"] == ["white", "black"]
    assert load("yatzy", players=3).colour(0) is None


def test_forced_order_fills_the_rows_top_to_bottom():
    state = start(order="top-down").resolve((6, 6, 6, 6, 6))
    assert [a for a in state.legal_actions() if isinstance(a, Score)] == [Score("ones")]
    with pytest.raises(IllegalAction, match="top to bottom: score ones"):
        state.apply("score yatzy")


def test_house_rule_kinds_all_scores_every_die():
    rules = YatzyRules.make("yatzy", kinds="all")
    assert score("three-kind", (4, 4, 4, 5, 6), rules) == 23


def test_house_rules_for_straights_full_house_and_bonus():
    rules = YatzyRules.make("yatzy", small_straight=25, large_straight=35, full_house=28,
                            bonus=35, bonus_at=60)
    assert score("small-straight", (1, 2, 3, 4, 5), rules) == 25
    assert score("large-straight", (2, 3, 4, 5, 6), rules) == 35
    assert score("full-house", (1, 1, 2, 2, 2), rules) == 28
    assert rules.bonus_earned(60, upper_complete=False)


def test_house_rules_are_validated():
    with pytest.raises(RuleError, match="dice"):
        YatzyRules.make(dice=7)
    with pytest.raises(RuleError, match="unknown rule"):
        YatzyRules.make(bonus_threshold=50)
    with pytest.raises(RuleError, match="unknown preset"):
        YatzyRules.make("generala")


# --------------------------------------------------------------------------- bad input


def test_scoring_a_filled_row_is_refused_and_changes_nothing():
    state = with_sheet(start(), chance=20).resolve((1, 2, 3, 4, 6))
    before = repr(state)
    with pytest.raises(IllegalAction, match=r"chance is already filled.*open"):
        state.apply("score chance")
    assert repr(state) == before


def test_scoring_before_rolling_is_refused():
    with pytest.raises(IllegalAction, match="rolled first"):
        start().apply("score chance")


def test_a_fourth_throw_is_refused():
    state = start().resolve((1, 2, 3, 4, 6)).apply("keep").resolve((1, 2, 3, 4, 6))
    state = state.apply("keep 1").resolve((2, 3, 4, 6))
    with pytest.raises(IllegalAction, match="thrown 3 times; score a row"):
        state.apply("keep 1 2")


def test_keeping_dice_that_were_not_rolled_is_refused():
    state = start().resolve((1, 3, 3, 5, 6))
    with pytest.raises(IllegalAction, match="your dice are 1 3 3 5 6"):
        state.apply("keep 3 3 3")
    with pytest.raises(IllegalAction, match="your dice are"):
        state.apply("keep 2")


def test_keeping_all_the_dice_is_not_a_throw():
    state = start().resolve((1, 3, 3, 5, 6))
    with pytest.raises(IllegalAction, match="rolls nothing"):
        state.apply("keep 1 3 3 5 6")


def test_a_row_of_another_sheet_is_refused():
    state = start().resolve((2, 2, 5, 5, 6))
    with pytest.raises(IllegalAction, match="no villa row"):
        state.apply("score villa")


def test_illegal_moves_at_the_table_leave_the_log_as_it_was():
    table = Table(load("yatzy", players=2), dice=ScriptedDice(rolls=[(1, 3, 3, 5, 6)]))
    events = list(table.events)
    for text in ("keep 6 6", "score three-pairs", "keep 1 3 3 5 6"):
        with pytest.raises(IllegalAction):
            table.act(0, text)
    with pytest.raises(IllegalAction, match="not Player 2's turn"):
        table.act(1, "score chance")
    assert table.events == events


@pytest.mark.parametrize("text", ["", "keep 7", "keep x", "score", "score nothing",
                                  "keep 1 2 3 4 5 6 1", "throw the dice"])
def test_unreadable_actions_say_what_is_expected(text):
    with pytest.raises(IllegalAction) as excinfo:
        parse_action(text, YATZY)
    assert str(excinfo.value)


# --------------------------------------------------------------------------- notation


def test_keep_notation_reads_and_prints_sorted_dice():
    assert parse_action("keep 5 3 3") == Keep((3, 3, 5))
    assert parse_action("keep 533") == Keep((3, 3, 5))
    assert parse_action("behåll 3,3") == Keep((3, 3))
    assert str(Keep((3, 3, 5))) == "keep 3 3 5" and str(Keep()) == "keep"


@pytest.mark.parametrize(("text", "row"), [
    ("score pair", "pair"), ("score two pairs", "two-pairs"), ("score Kåk", "full-house"),
    ("skriv to par", "two-pairs"), ("score fuldt hus", "full-house"),
    ("score liten stege", "small-straight"), ("score tvåor", "twos"),
    ("score seksere", "sixes"), ("score 3 of a kind", "three-kind"),
    ("score yahtzee", "yatzy"), ("score Stor stege", "large-straight"),
    ("score chans", "chance"), ("score fire ens", "four-kind"),
])
def test_rows_are_named_in_english_swedish_and_danish(text, row):
    assert parse_action(text, YATZY) == Score(row)


def test_a_sheets_own_names_come_first():
    assert parse_row("femtal", TARNINGSPOKER) == "yatzy"
    assert parse_row("femtal", MAXI) == "five-kind"
    assert parse_row("lille lige", TERNINGSPOKER) == "small-straight"
    assert parse_row("poker", TERNINGSPOKER) == "yatzy"


def test_all_actions_lists_every_row_and_every_keep_once():
    game = load("yatzy")
    actions = game.all_actions()
    assert len(actions) == 15 + 210 and len(set(actions)) == len(actions)
    assert len(load("yatzy", preset="maxi").all_actions()) == 20 + 462


# --------------------------------------------------------------------------- views and sheet


def test_nobody_sees_dice_before_they_are_rolled():
    waiting = start().resolve((1, 3, 3, 5, 6)).apply("keep 3 3")
    view = waiting.view(None)
    assert view["dice"] is None and view["kept"] == [3, 3]
    outcomes = [waiting.resolve(faces) for faces in ((1, 1, 1), (6, 6, 6))]
    assert outcomes[0].view(None)["dice"] != outcomes[1].view(None)["dice"]
    assert all(waiting.view(s) == {**view, "seat": s} for s in (0, 1))


def test_every_seat_sees_the_same_sheets():
    state = start().resolve((2, 2, 3, 3, 3)).apply("score full-house").resolve((1, 1, 1, 2, 2))
    views = [state.view(s) for s in (None, 0, 1)]
    assert all({**v, "seat": None} == views[0] for v in views)
    json.dumps(views[0])


def test_the_sheet_renders_upper_part_bonus_lower_part_and_total():
    state = with_sheet(start(), fours=20, fives=25, sixes=18, pair=12)
    state = state.resolve((1, 2, 3, 4, 5))
    text = state.game.render(state.view(0), ["Anna", "Ben"])
    lines = text.splitlines()
    labels = [line.split("  ")[0].strip() for line in lines[2:]]
    assert labels[:9] == ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Sum",
                          "Bonus", "One pair"]
    assert "Total" in labels and lines[1].split() == ["Anna", "Ben"]  # names, no colours
    assert "(15)" in text  # what the small straight would score now
    bonus = next(line for line in lines if line.startswith("Bonus"))
    assert bonus.split()[1:] == ["50", "."]


@pytest.mark.parametrize(("lang", "names"), [
    ("sv", ["Ettor", "Summa", "Kåk", "Chans", "Totalt"]),
    ("da", ["Enere", "To par", "Fuldt hus", "I alt"]),
    ("en", ["Ones", "Full house", "Total"]),
])
def test_the_sheet_names_rows_in_swedish_danish_or_english(lang, names):
    state = start(lang=lang)
    text = state.game.render(state.view(None), ["Anna", "Ben"])
    assert all(name in text for name in names)
    assert all(name in render_sheet(start().view(None), ["A", "B"], lang=lang)
               for name in names)


def test_the_terningspoker_sheet_shows_dashes_average_and_result():
    game = load("yatzy", preset="terningspoker", players=3, lang="da")
    table = Table(game, dice=SeededDice(4))
    play_out(table, [make_bot(game, "random")] * 3, random.Random(4))
    text = game.render(table.state.view(None), ["Anna", "Ben", "Cara"])
    assert "Gennemsnit" in text and "Resultat" in text and "–" in text
    assert "Poker" in text and "Lille lige" in text


def test_a_finished_game_replays_from_its_log_to_the_same_sheets():
    game = load("yatzy", preset="yahtzee", players=2)
    table = Table(game, dice=SeededDice(8))
    play_out(table, [make_bot(game, "greedy"), make_bot(game, "random")], random.Random(8))
    replayed = Table.loads(table.dumps())
    assert replayed.state == table.state and replayed.state.is_over()
    names = ["Anna", "Ben"]
    assert game.render(replayed.state.view(None), names) == \
        game.render(table.state.view(None), names)


# --------------------------------------------------------------------------- odds and bots


def test_a_yatzy_within_three_throws_is_4_6_percent():
    odds = row_odds("yatzy", YATZY)
    assert odds["one_throw"] == pytest.approx(6 / 6**5)
    assert odds["within_turn"] == pytest.approx(0.046029, abs=1e-6)


def test_chance_played_alone_expects_23_33():
    assert row_odds("chance", YATZY)["expected"] == pytest.approx(23.3333, abs=1e-3)


def test_odds_table_has_a_row_per_sheet_row():
    rows = odds_for(load("yatzy", preset="yahtzee"))
    assert [r["row"] for r in rows][-2:] == ["Yahtzee", "Chance"]
    with pytest.raises(RuleError):
        odds_for(load("yatzy"), row="pair")


def test_throws_table_probabilities_sum_to_one():
    throws = Throws.of(5)
    assert sum(throws.first) == pytest.approx(1)
    assert all(sum(p for _, p in out) == pytest.approx(1) for out in throws.outcomes)


def test_greedy_bot_stops_on_a_yatzy_and_writes_it():
    game = load("yatzy", players=1)
    state = game.new_state().resolve((6, 6, 6, 6, 6))
    bot = make_bot(game, "greedy")
    assert bot.choose(state.view(0), state.legal_actions(), random.Random(0)) == Score("yatzy")


def test_greedy_bot_gives_up_the_cheapest_row_when_nothing_scores():
    game = load("yatzy", players=1)
    filled = {r.replace("-", "_"): 0 for r in YATZY.rows
              if r not in ("ones", "four-kind", "yatzy")}
    state = with_sheet(game.new_state(), **filled).resolve((2, 3, 4, 6, 6))
    state = state.apply("keep 2 3").resolve((4, 6, 6)).apply("keep 2 3").resolve((4, 6, 6))
    bot = make_bot(game, "greedy")
    assert bot.choose(state.view(0), state.legal_actions(), random.Random(0)) == Score("ones")


def test_greedy_bot_keeps_what_serves_its_open_rows():
    game = load("yatzy", players=1)
    filled = {r.replace("-", "_"): 0 for r in YATZY.rows if r != "sixes"}
    state = with_sheet(game.new_state(), **filled).resolve((1, 2, 6, 6, 3))
    bot = make_bot(game, "greedy")
    assert bot.choose(state.view(0), state.legal_actions(), random.Random(0)) == Keep((6, 6))


@pytest.mark.parametrize("preset", ["yatzy", "terningspoker", "yahtzee"])
def test_greedy_beats_random(preset):
    game = load("yatzy", preset=preset, players=2)
    wins = 0
    for seed in range(4):
        table = Table(game, dice=SeededDice(seed))
        outcome = play_out(table, [make_bot(game, "greedy"), make_bot(game, "random")],
                           random.Random(seed))
        wins += outcome.winners == (0,)
    assert wins == 4


# --------------------------------------------------------------------------- the command line


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_score_command_prints_what_a_row_scores():
    result = run("score", "yatzy", "full-house", "3", "3", "5", "5", "5")
    assert result.exit_code == 0
    assert result.output.strip() == "Yatzy · Full house with 3 3 5 5 5: 21"
    doubled = run("score", "terningspoker", "poker", "66666", "--first-throw")
    assert "110" in doubled.output and "first throw" in doubled.output
    dash = run("score", "terningspoker", "fire ens", "12345")
    assert "a dash (not made)" in dash.output


def test_score_command_json_for_machines():
    result = run("score", "yahtzee", "full house", "22222", "--json")
    assert json.loads(result.output) == {
        "ruleset": "yahtzee", "title": "Yahtzee", "row": "full-house",
        "label": "Full house", "dice": [2, 2, 2, 2, 2], "first_throw": False,
        "made": False, "points": None, "written": 0}


@pytest.mark.parametrize(("args", "fragment"), [
    (("yatzy", "pair", "1", "2", "3"), "played with 5 dice, not 3"),
    (("yatzy", "villa", "12345"), "no villa row"),
    (("yatzy", "kåk", "12349"), "a die shows 1 to 6, not 9"),
    (("maxi", "pear", "123456"), "'pear' is not a row"),
])
def test_score_command_bad_input_is_one_clear_line(args, fragment):
    result = run("score", *args)
    assert result.exit_code != 0 and "Traceback" not in result.output + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and fragment in lines[0], result.stderr


def test_score_command_for_a_rule_set_there_is_none_of_names_none():
    # each rule set is its own command, so an unknown one is a command there is none of
    result = run("score", "generala", "pair", "12345")
    assert result.exit_code != 0 and "Traceback" not in result.output + result.stderr
    assert "there is no command 'generala' here (commands: yatzy, maxi, yahtzee, " \
        "tarningspoker, terningspoker)" in result.stderr
    listed = run("score", "--help").output.split("Commands:", 1)[1]
    assert [line.split()[0] for line in listed.splitlines() if line.strip()] == \
        list(YatzyRules.PRESETS)


def test_play_terningspoker_with_two_people_and_a_bot_to_the_final_table():
    # Anna and Ben press Enter for the hot seat, then write their first throw in the next row
    # and say yes when asked about writing nothing there (else the "y" passes the dice on
    # and the empty line after it is asked again)
    rows = TERNINGSPOKER.rows
    answers = "".join(f"\nscore {row}\ny\n\nscore {row}\ny\n" for row in rows)
    result = run("play", "yatzy", "--preset", "terningspoker", "--players", "Anna,Ben,bot:greedy",
                 "--seed", "7", input=answers)
    assert result.exit_code == 0, result.output
    final = result.output.split("Game over")[1]
    assert "Average" in final and "Result" in final and "Poker" in final
    assert "bot:greedy" in final


def test_simulate_shows_greedy_beating_random():
    result = run("simulate", "yatzy", "--players", "bot:greedy,bot:random", "--games", "12",
                 "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    greedy, rand = json.loads(result.output)["results"]
    assert greedy["win_rate_ci95"][0] > 0.5 > rand["win_rate_ci95"][1]


def test_score_command_names_the_row_in_the_sheets_language():
    result = run("score", "yatzy", "two-pairs", "3 3 5 5 1", "--rule", "lang=sv")
    assert result.output.strip() == "Yatzy · Två par with 1 3 3 5 5: 16"


def test_odds_command_lists_every_row_of_the_rule_set():
    result = run("odds", "yatzy", "--preset", "yahtzee", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["row"] for r in rows] == [
        "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Three of a kind",
        "Four of a kind", "Full house", "Small straight", "Large straight", "Yahtzee", "Chance"]
    yahtzee = rows[-2]
    assert yahtzee["within_turn"] == pytest.approx(0.046029, abs=1e-6)

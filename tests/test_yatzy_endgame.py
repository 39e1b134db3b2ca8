"""The exact heads-up end-game against the expected-score play: against a brute force that
walks every throw and keep with the Yatzy module's own scoring, against ``bot:towin``'s own
exact chances where they must agree, and never below them where they need not.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from kastkopp.dice import multisets
from kastkopp.games.yatzy import YatzyRules, playable_rows, score, sub_multisets
from kastkopp.strategy.yatzy_distribution import DistributionTable
from kastkopp.strategy.yatzy_endgame import EndGame
from kastkopp.strategy.yatzy_towin import distributions_for, outlook, win_choices
from test_yatzy_towin import distribution

# slow: Yahtzee's tables (from the disk cache, else computed once)
pytestmark = pytest.mark.slow

YAHTZEE = YatzyRules.make("yahtzee")
ALL_DICE = [dice for dice, _ in multisets(5)]


@pytest.fixture(scope="module")
def table() -> DistributionTable:
    return distributions_for(YAHTZEE)


def used_but(*open_rows: str) -> list[str]:
    return [r for r in YAHTZEE.rows if r not in open_rows]


def best_turn(open_rows: set[str], worth: Callable[[str, int], np.ndarray]):
    """A turn played for the most ``worth`` (a vector: each entry its own best play) of
    the row written and its points: its value before the first throw, and every choice's
    value with dice in hand."""
    cells = {r: (None if r in open_rows else 0) for r in YAHTZEE.rows}

    @cache
    def holding(dice, throw: int) -> dict[str, np.ndarray]:
        options = {f"score {r}": worth(r, score(r, dice, YAHTZEE) or 0)
                   for r in playable_rows(YAHTZEE, cells, dice)}
        if throw < YAHTZEE.throws:
            for keep in sub_multisets(dice):
                if len(keep) < 5:
                    name = "keep " + " ".join(map(str, keep)) if keep else "keep"
                    options[name] = rolling(keep, throw)
        return options

    @cache
    def rolling(keep, throw: int) -> np.ndarray:
        return sum(p * np.maximum.reduce(list(holding(tuple(sorted(keep + roll)),
                                                      throw + 1).values()))
                   for roll, p in multisets(5 - len(keep)))

    return rolling((), 0), holding


def test_the_joint_end_game_agrees_with_brute_force(table):
    # Three of a kind and Chance open for me (200 points), Chance for the opponent (215),
    # who has played this round: I write one row, they write Chance as the expected score
    # plays it, then my last turn knows the score to beat. The Yahtzee row holds a zero,
    # so no extra Yahtzee is paid.
    mine, theirs = {"three-kind", "chance"}, {"chance"}
    theirs_to_come = distribution(YAHTZEE, frozenset(theirs), 63)
    needs = np.arange(-80, 81)  # the points my last row must beat

    def last_worth(row: str, points: int) -> np.ndarray:
        return np.where(points > needs, 1.0, np.where(points == needs, 0.5, 0.0))

    last = {row: best_turn({row}, last_worth)[0] for row in mine}

    def first_worth(row: str, points: int) -> np.ndarray:
        (other,) = mine - {row}
        return np.array(sum(p * last[other][215 + q - 200 - points - needs[0]]
                            for q, p in theirs_to_come.items()))

    value, holding = best_turn(mine, first_worth)
    me = table.table.position(used_but(*mine), upper=63, yatzy_zero=True)
    opponent = table.table.position(used_but(*theirs), upper=63, yatzy_zero=True)
    end = EndGame(table, me, opponent, 200 - 215)
    assert not end.first
    assert end.value == pytest.approx(float(value), abs=1e-6)
    for dice, throw in [((5, 5, 5, 6, 6), 2), ((1, 2, 3, 4, 6), 1), ((6, 6, 6, 6, 6), 3)]:
        found = end.chances(me, opponent, -15, dice, throw)
        expected = holding(dice, throw)
        assert found.keys() == expected.keys()
        for choice, chance in expected.items():
            assert found[choice] == pytest.approx(float(chance), abs=1e-6), choice


def test_with_my_last_turn_left_it_agrees_with_towin(table):
    # one row each, me first: towin's chance (the opponent's exact distribution, nothing
    # of mine after this turn) is already the best there is
    mine, theirs = used_but("chance"), used_but("yatzy")
    me = table.table.position(mine, upper=63, yatzy_zero=True)
    opponent = table.table.position(theirs, upper=40)
    end = EndGame(table, me, opponent, 230 - 210)
    assert end.first
    against = outlook(table, theirs, 40, 210)
    for dice in ALL_DICE[::17]:
        for rerolls in (0, 2):
            found = end.chances(me, opponent, 20, dice, 3 - rerolls)
            towin = win_choices(table, me, dice, rerolls, 230, against)
            assert {c.choice for c in towin} == found.keys()
            for c in towin:
                assert found[c.choice] == pytest.approx(c.win, abs=1e-6), (dice, c)


def test_with_more_turns_left_no_choice_is_less_likely_to_win_than_towin_says(table):
    # towin values what follows its turn as played for points, one play among those the
    # exact end-game weighs: the exact chance is never lower, and here and there higher
    rows = ("fours", "three-kind", "chance")
    me = table.table.position(used_but(*rows), upper=48, yatzy_zero=True)
    opponent = table.table.position(used_but(*rows), upper=55, yatzy_zero=True)
    end = EndGame(table, me, opponent, 180 - 190)
    against = outlook(table, used_but(*rows), 55, 190, yatzy_zero=True)
    gains = []
    for dice in ALL_DICE[::7]:
        found = end.chances(me, opponent, -10, dice, 1)
        for c in win_choices(table, me, dice, 2, 180, against):
            gains.append(found[c.choice] - c.win)
    assert min(gains) > -1e-6
    assert max(gains) > 1e-3
    assert 0 < end.value < 1


def test_a_later_turn_of_the_same_game_is_covered_and_other_positions_are_refused(table):
    rows = ("three-kind", "chance")
    me = table.table.position(used_but(*rows), upper=63, yatzy_zero=True)
    end = EndGame(table, me, me, 0)
    later = table.table.position(used_but("chance"), upper=63, yatzy_zero=True)
    assert end.covers(later, later)
    assert 0 < end.chances(later, later, 7, (6, 6, 6, 2, 1), 1)["score chance"] < 1
    assert not end.covers(table.table.position(used_but("yatzy"), upper=63), later)
    with pytest.raises(ValueError, match="my turn"):
        EndGame(table, later, me, 0)  # at my turn the opponent has no more rows open than I

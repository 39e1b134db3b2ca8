"""Yatzy played to win: the distribution tables against the solver and brute force, the
choices of ``bot:towin`` in end-games whose answer is plain, and ``advise --against``.

The brute force below knows nothing of the tables: it walks every throw and keep of the
turns left with the Yatzy module's own scoring, takes every decision by the expected score
(as the optimal player does) and carries the whole distribution of the points to come.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache

import numpy as np
import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import SeededDice, multisets
from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.games.yatzy import FACE, YatzyRules, playable_rows, score, sub_multisets
from kastkopp.strategy import bot_names, make_bot
from kastkopp.strategy.yatzy_distribution import DistributionTable, distributions
from kastkopp.strategy.yatzy_towin import (
    Outlook,
    TowinYatzyBot,
    advise,
    distributions_for,
    outlook,
    view_choices,
)
from test_cli_language import english_only, words

# slow: computes a rule set's tables (tens of seconds, once: then from the disk cache)
pytestmark = pytest.mark.slow

YAHTZEE = YatzyRules.make("yahtzee")
runner = CliRunner()


@pytest.fixture(scope="module")
def table() -> DistributionTable:
    """Yahtzee's distribution table, from the disk cache when it is there, kept for the bot,
    the hint and the CLI below."""
    return distributions_for(YAHTZEE)


def chances(d: DistributionTable, p) -> dict[int, float]:
    low, run = d.of(p)
    return {low + i: float(c) for i, c in enumerate(run) if c > 0}


def test_every_distribution_sums_to_one_and_has_the_solvers_mean():
    # Terningspoker: rows that score below zero, the first throw doubled. Computed afresh
    # from a table solved afresh (the disk cache keeps the solver's values in single
    # precision); the chances are stored in single precision, hence the relative 1e-6.
    d = distributions(YatzyRules.make("terningspoker"), cache=False)
    sheet, values = d.table.sheet, d.table.values
    at = np.nonzero(d.length)
    starts, first = np.unique(d.start[at], return_index=True)
    lengths = d.length[at][first]
    assert len(starts) > 1000 and starts[0] == 0
    assert (starts[1:] == starts[:-1] + lengths[:-1]).all()  # the runs lie end to end
    flat = d.flat.astype(np.float64)
    assert len(flat) == starts[-1] + lengths[-1]
    step = np.arange(len(flat)) - np.repeat(starts, lengths)  # i of low + i
    sums = np.add.reduceat(flat, starts)
    means = d.low[at][first] + np.add.reduceat(flat * step, starts) / sums
    assert np.abs(sums - 1).max() < 1e-6
    assert np.allclose(means, values[at][first], rtol=1e-6, atol=1e-6)
    # every reachable position has one
    masks = np.flatnonzero(sheet.reachable_masks[1:]) + 1  # mask 0: the game is over
    held = sheet.reachable_upper[sheet.upper_bits(masks)]
    assert (d.length[masks][held] > 0).all()


def test_a_cached_table_is_mapped_not_read_and_gives_the_same_chances(tmp_path):
    # a server holding tables of several rule sets holds only the pages it reads
    rules = YatzyRules.make("terningspoker")
    made = distributions(rules, directory=tmp_path)
    found = distributions(rules, directory=tmp_path)
    assert found.from_cache and not made.from_cache
    assert isinstance(found.flat.base, np.memmap) and not found.flat.flags.writeable
    assert np.array_equal(found.flat, made.flat)
    assert np.array_equal(found.start, made.start) and np.array_equal(found.low, made.low)
    # a table whose index is lost is made again, not half read
    next(tmp_path.glob("yatzy_distribution-*.index.npz")).unlink()
    again = distributions(rules, directory=tmp_path)
    assert not again.from_cache and np.array_equal(again.flat, made.flat)


def test_yahtzees_distribution_has_the_known_mean_and_spread(table):
    start = table.table.position()
    assert table.mean(start) == pytest.approx(254.5877, abs=1e-3)
    # the published spread of optimal solitaire Yahtzee
    assert table.variance(start) ** 0.5 == pytest.approx(59.61, abs=0.01)
    # the extra Yahtzee bonuses make a long tail: beyond 700 points, but rarely
    low, run = table.of(start)
    assert low + len(run) > 700 and run[700 - low:].sum() < 1e-3


def distribution(rules: YatzyRules, open_rows: frozenset[str], upper: int) -> dict[int, float]:
    """The points still to come under expected-score play, by brute force (at positions
    where no extra Yatzy can be paid)."""

    @cache
    def left(rows: frozenset[str], upper: int) -> tuple[tuple[int, float], ...]:
        if not rows:
            return ((0, 1.0),)
        cells = {r: (None if r in rows else 0) for r in rules.rows}
        upper_rows_left = [r for r in rows if r in FACE]

        def write(row: str, dice) -> Counter:
            points = score(row, dice, rules, False) or 0
            gain = 0
            if row in FACE:
                complete = len(upper_rows_left) == 1
                gain = rules.bonus * (int(rules.bonus_earned(upper + points, complete))
                                      - int(rules.bonus_earned(upper, False)))
            after = left(rows - {row}, upper + points if row in FACE else upper)
            return Counter({points + gain + v: p for v, p in after})

        @cache
        def holding(dice, throw: int) -> tuple[float, tuple[tuple[int, float], ...]]:
            options = [write(r, dice) for r in playable_rows(rules, cells, dice)]
            if throw < rules.throws:
                options += [rolling(keep, throw) for keep in sub_multisets(dice)
                            if len(keep) < 5]
            best = max(options, key=mean)
            return mean(best), tuple(best.items())

        @cache
        def rolling(keep, throw: int) -> Counter:
            out: Counter = Counter()
            for roll, p in multisets(5 - len(keep)):
                _, dist = holding(tuple(sorted(keep + roll)), throw + 1)
                for v, q in dist:
                    out[v] += p * q
            return out

        return tuple(rolling((), 0).items())

    return dict(left(open_rows, upper))


def mean(dist: Counter) -> float:
    return sum(v * p for v, p in dist.items())


@pytest.mark.parametrize(("rows", "upper"), [
    (("yatzy",), 0), (("chance",), 0), (("three-kind", "chance"), 0), (("sixes",), 60),
])
def test_distributions_agree_with_brute_force_in_end_games(table, rows, upper):
    expected = distribution(YAHTZEE, frozenset(rows), upper)
    used = [r for r in YAHTZEE.rows if r not in rows]
    found = chances(table, table.table.position(used, upper=upper,
                                                yatzy_zero="yatzy" in used))
    assert found.keys() <= expected.keys()
    for points, p in expected.items():
        assert found.get(points, 0.0) == pytest.approx(p, abs=1e-6)


LAST_TWO = [r for r in YAHTZEE.rows if r not in ("chance", "yatzy")]


def test_far_behind_it_rolls_for_a_yahtzee_where_the_expected_score_writes(table):
    # 200 now with Chance and Yahtzee open; the opponent has finished with 265, so only a
    # Yahtzee can win. The expected score writes 27 in Chance and hopes later.
    kwargs = dict(used=LAST_TWO, upper=63, dice=(5, 5, 5, 6, 6), rerolls=1, already=200)
    assert table.table.advise(**kwargs)[0].choice == "score chance"
    choices = advise(table, Outlook.certain(265), **kwargs)
    assert choices[0].choice == "keep 5 5 5"
    # the exact chance: a Yahtzee now (1/36), then more than 15 in Chance (a tie at 15
    # counting half); else Chance now (17 or more) and a Yahtzee in the last turn
    now = 1 / 36
    chance = chances(table, table.table.position([*LAST_TWO, "yatzy"], upper=63))
    after = sum(p for x, p in chance.items() if x > 15) + chance.get(15, 0.0) / 2
    later = chances(table, table.table.position([*LAST_TWO, "chance"], upper=63))[50]
    assert choices[0].win == pytest.approx(now * after + (1 - now) * later, abs=1e-6)
    assert next(c.win for c in choices if c.choice == "score chance") == pytest.approx(
        later, abs=1e-6)


def test_just_ahead_it_writes_the_sure_win_where_the_expected_score_rolls(table):
    # 29 in Chance wins outright against 225; rolling the five for a Yahtzee may not.
    kwargs = dict(used=LAST_TWO, upper=63, dice=(6, 6, 6, 6, 5), rerolls=1, already=200)
    assert table.table.advise(**kwargs)[0].choice == "keep 6 6 6 6"
    best = advise(table, Outlook.certain(225), **kwargs)[0]
    assert (best.choice, best.win) == ("score chance", 1.0)


def test_in_a_game_already_won_it_plays_for_points(table):
    kwargs = dict(used=LAST_TWO, upper=63, dice=(6, 6, 6, 6, 5), rerolls=1, already=400)
    choices = advise(table, Outlook.certain(225), **kwargs)
    assert all(c.win == 1.0 for c in choices)
    assert choices[0].choice == table.table.advise(**kwargs)[0].choice == "keep 6 6 6 6"


def test_the_bot_takes_the_long_shot_in_a_game(table):
    # Both at their last two rows; the opponent has finished 265 and towin has 200 with
    # 5 5 5 6 6 and a throw left: the optimal bot writes Chance, towin keeps the fives.
    game = load("yatzy", preset="yahtzee", players=2)
    t = Table(game, dice=SeededDice(1))
    view = t.state.view(0)
    # 63 in the upper rows (the bonus, 35) and 102 below: 200
    cells = [3, 6, 9, 12, 15, 18, 27, 20, 25, 30, 0, None, None]
    finished = [3, 6, 9, 12, 15, 18, 27, 20, 25, 30, 40, 0, 25]  # 265
    view = {**view, "player": 0, "seat": 0, "sheets": [cells, finished],
            "upper": [63, 63], "totals": [200, 265], "dice": [5, 6, 5, 6, 5],
            "throw": 2, "throws": 3}
    legal = [game.parse_action(a) for a in ("keep 5 5 5", "score chance", "keep 6 6")]
    towin = TowinYatzyBot(YAHTZEE)
    assert str(towin.choose(view, legal, random.Random(0))) == "keep 5 5 5"
    optimal = make_bot(game, "optimal")
    assert str(optimal.choose(view, legal, random.Random(0))) == "score chance"


def test_a_turn_is_solved_once_and_its_later_throws_choose_as_a_fresh_solve(table):
    """The opponent does not move during my turn, so the bot solves the turn at its first
    throw and reuses that for the next: the choices are the same as solved afresh."""
    game = load("yatzy", preset="yahtzee", players=2)
    t = Table(game, dice=SeededDice(7))
    towin, optimal = TowinYatzyBot(YAHTZEE), make_bot(game, "optimal")
    rng, solved, reused = random.Random(7), 0, 0
    while not t.state.is_over():
        seat = t.state.to_move()
        view = t.state.view(seat)
        if seat == 0:
            before = list(towin._turn.values())
            mine = {**view, "seat": 0}
            assert view_choices(table, mine, towin._turn) == view_choices(table, mine)
            after = list(towin._turn.values())
            if view["throw"] < view["throws"]:
                reused += view["throw"] > 1 and len(before) == 1 and after[0] is before[0]
                solved += view["throw"] == 1
            t.act(0, towin.choose(view, t.state.legal_actions(), rng))
        else:
            t.act(1, optimal.choose(view, t.state.legal_actions(), rng))
    assert solved == len(YAHTZEE.rows) and reused > 0


def test_an_opponent_sheet_is_their_total_and_their_distribution(table):
    done = outlook(table, list(YAHTZEE.rows), 70, 301)
    assert (done.low, done.mean, done.variance) == (301, 301.0, 0.0)
    start = outlook(table, [], 0, 0)
    assert start.mean == pytest.approx(254.5877, abs=1e-3)
    later = outlook(table, ["ones", "twos"], 5, 40)
    p = table.table.position(["ones", "twos"], 5)
    assert later.mean == pytest.approx(40 + table.mean(p), abs=1e-6)
    beaten = later.beaten()
    assert beaten[0] > 0 and beaten[-1] == 1.0 and (np.diff(beaten) >= 0).all()


def test_towin_is_a_yatzy_bot_and_plays_heads_up_and_alone(table):
    assert "towin" in bot_names("yatzy")
    for players in (2, 1):
        game = load("yatzy", preset="yahtzee", players=players)
        t = Table(game, dice=SeededDice(3))
        bots = [make_bot(game, "towin"), make_bot(game, "optimal")][:players]
        play_out(t, bots, random.Random(3))
        assert t.state.is_over()


def test_the_hint_tells_the_chance_of_winning_with_an_opponent_only(table):
    from kastkopp.strategy.advice import advisor_for

    for players, has in ((2, True), (1, False)):
        game = load("yatzy", preset="yahtzee", players=players)
        t = Table(game, dice=SeededDice(5))
        t.roll_pending()
        view = t.state.view(0)
        hint = advisor_for(game).hint(view, [str(a) for a in t.state.legal_actions()])
        assert ("win" in hint.facts) is has
        if has:
            assert 0.0 < hint.facts["win"] < 1.0


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_advise_against_speaks_the_players_language(table, lang, monkeypatch):
    args = ["--lang", lang, "advise", "yatzy", "--preset", "yahtzee", "--dice", "5 5 5 6 6",
            "--rerolls", "1", "--used", ",".join(LAST_TWO), "--upper", "63", "--score", "200"]
    result = runner.invoke(app, [*args, "--against", f"used={','.join(YAHTZEE.rows)} "
                                 "score=265"])
    assert result.exit_code == 0, result.output
    assert (words(result.output) & english_only(lang)) - words("keep score chance yatzy") \
        == set()
    assert ("chans att vinna" if lang == "sv" else "chance for at vinde") in result.output
    data = json.loads(runner.invoke(app, [*args, "--against", "score=265 used=" +
                                          ",".join(YAHTZEE.rows), "--json"]).stdout)
    assert data["choices"][0]["choice"] == "keep 5 5 5" and data["against"]["sd"] == 0
    bad = runner.invoke(app, [*args, "--against", "score=lots"])
    assert bad.exit_code == 2
    told = bad.output + (bad.stderr or "")
    # what is typed stays as typed: the example and the word refused
    assert "score=lots" in told
    assert words(told) & english_only(lang) <= words("used=ones,pair upper=3 score=40 lots")

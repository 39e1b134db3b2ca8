"""Yatzy played to win: the moment tables against the solver and brute force, the choices
of ``bot:towin`` in end-games whose answer is plain, and ``advise --against``.

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
from kastkopp.strategy.yatzy_moments import moments, normal_win
from kastkopp.strategy.yatzy_towin import Outlook, advise, outlook
from test_cli_language import english_only, words

# slow: computes a rule set's tables (tens of seconds)
pytestmark = pytest.mark.slow

YAHTZEE = YatzyRules.make("yahtzee")
runner = CliRunner()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """Yahtzee's moment table computed afresh, from a table solved afresh: neither kept in
    this process by an earlier test nor read from a disk cache (which stores the solver's
    values in single precision, too coarse for the exact comparisons below)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KASTKOPP_CACHE", str(tmp_path_factory.mktemp("cache")))
        yield moments(YAHTZEE, cache=False)


def test_the_pass_recomputes_the_solvers_expected_values_exactly(table):
    sheet = table.table.sheet
    reachable = sheet.reachable_masks
    assert table.check is not None
    assert np.array_equal(table.check[reachable], table.table.values[reachable])


def test_every_variance_is_non_negative_and_the_whole_game_has_the_known_spread(table):
    sheet = table.table.sheet
    values = table.table.values[sheet.reachable_masks]
    second = table.second[sheet.reachable_masks]
    assert (second - values * values >= -1e-6).all()
    start = table.table.position()
    assert table.mean(start) == pytest.approx(254.5877, abs=1e-4)
    # the published spread of optimal solitaire Yahtzee
    assert table.variance(start) ** 0.5 == pytest.approx(59.61, abs=0.01)


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
def test_mean_and_variance_agree_with_brute_force_in_end_games(table, rows, upper):
    dist = distribution(YAHTZEE, frozenset(rows), upper)
    m = sum(v * p for v, p in dist.items())
    var = sum(v * v * p for v, p in dist.items()) - m * m
    used = [r for r in YAHTZEE.rows if r not in rows]
    p = table.table.position(used, upper=upper, yatzy_zero="yatzy" in used)
    assert table.mean(p) == pytest.approx(m, abs=1e-9)
    assert table.variance(p) == pytest.approx(var, abs=1e-7)
    assert var > 0


LAST_TWO = [r for r in YAHTZEE.rows if r not in ("chance", "yatzy")]


def test_far_behind_it_rolls_for_a_yahtzee_where_the_expected_score_writes(table):
    # 200 now with Chance and Yahtzee open; the opponent has finished with 265, so only a
    # Yahtzee can win. The expected score writes 27 in Chance and hopes later.
    kwargs = dict(used=LAST_TWO, upper=63, dice=(5, 5, 5, 6, 6), rerolls=1, already=200)
    assert table.table.advise(**kwargs)[0].choice == "score chance"
    choices = advise(table, Outlook(265, 0), **kwargs)
    assert choices[0].choice == "keep 5 5 5"
    assert choices[0].win > next(c.win for c in choices if c.choice == "score chance")


def test_just_ahead_it_writes_the_sure_win_where_the_expected_score_rolls(table):
    # 29 in Chance wins outright against 225; rolling the five for a Yahtzee may not.
    kwargs = dict(used=LAST_TWO, upper=63, dice=(6, 6, 6, 6, 5), rerolls=1, already=200)
    assert table.table.advise(**kwargs)[0].choice == "keep 6 6 6 6"
    assert advise(table, Outlook(225, 0), **kwargs)[0].choice == "score chance"


def test_an_opponent_sheet_and_the_normal_chance():
    assert normal_win(0.0, 100.0) == pytest.approx(0.5)
    assert normal_win(10.0, 100.0) == pytest.approx(0.8413, abs=1e-4)
    assert normal_win(3.0, 0.0) == 1.0 and normal_win(0.0, 0.0) == 0.5


def test_an_opponent_who_has_finished_is_their_total(table):
    assert outlook(table, list(YAHTZEE.rows), 70, 301) == Outlook(301.0, 0.0)
    start = outlook(table, [], 0, 0)
    assert start.mean == pytest.approx(254.5877, abs=1e-4)


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

"""The Yatzy solver against brute force, the published optima, and the advisor's answers.

The brute force below knows nothing of the solver: it walks every throw and every keep of
a turn with the Yatzy module's own scoring, exactly as a patient player would.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from kastkopp.dice import multisets
from kastkopp.engine import IllegalAction, RuleError
from kastkopp.games.yatzy import FACE, YatzyRules, playable_rows, score, sub_multisets
from kastkopp.strategy.yatzy_solver import DICE, ROLLS, Sheet, SolvedTable, _states, _turn, solve

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def no_bonus_yahtzee(tmp_path_factory):
    """Official Yahtzee without the Yahtzee bonus and jokers (upper bonus 35 at 63)."""
    rules = YatzyRules.make("yahtzee", yatzy_bonus=0, joker=False)
    return solve(rules, cache=False)


@pytest.fixture(scope="module")
def tarningspoker():
    return solve(YatzyRules.make("tarningspoker"), cache=False)


def brute_force(rules: YatzyRules, open_rows: frozenset[str], upper: int) -> float:
    """Expected points still to come, by walking every throw and keep of every turn."""

    @cache
    def value(rows: frozenset[str], upper: int) -> float:
        if not rows:
            return 0.0
        cells = {r: (None if r in rows else 0) for r in rules.rows}
        upper_rows_left = [r for r in rows if r in FACE]

        def write(row: str, dice, first: bool) -> float:
            points = score(row, dice, rules, first) or 0
            rest = rows - {row}
            if row in FACE:
                complete = len(upper_rows_left) == 1
                before = rules.bonus_earned(upper, False)
                after = rules.bonus_earned(upper + points, complete)
                gain = rules.bonus * (int(after) - int(before))
                return points + gain + value(rest, upper + points)
            return points + value(rest, upper)

        @cache
        def holding(dice, throw: int) -> float:
            best = max(write(r, dice, throw == 1) for r in playable_rows(rules, cells, dice))
            if throw < rules.throws:
                for keep in sub_multisets(dice):
                    if len(keep) < 5:
                        best = max(best, rolling(keep, throw))
            return best

        @cache
        def rolling(keep, throw: int) -> float:
            return sum(float(p) * holding(tuple(sorted(keep + rest)), throw + 1)
                       for rest, p in multisets(5 - len(keep)))

        return sum(float(p) * holding(dice, 1) for dice, p in multisets(5))

    return value(open_rows, upper)


def used_except(rules: YatzyRules, *left: str) -> list[str]:
    return [r for r in rules.rows if r not in left]


# --------------------------------------------------------------------------- one and two rows


def test_chance_alone_is_worth_seventy_thirds(tarningspoker):
    """One die held or rerolled three times averages 14/3; five of them 70/3."""
    rules = tarningspoker.rules
    position = tarningspoker.position(used_except(rules, "chance"))
    assert tarningspoker.value(position) == pytest.approx(70 / 3, abs=1e-9)


@pytest.mark.parametrize("row", ["yatzy", "full-house", "small-straight", "fours"])
def test_one_row_left_matches_brute_force(tarningspoker, row):
    rules = tarningspoker.rules
    upper = 20 if row != "fours" else 30
    position = tarningspoker.position(used_except(rules, row), upper=upper)
    expected = brute_force(rules, frozenset([row]), upper)
    assert tarningspoker.value(position) == pytest.approx(expected, abs=1e-9)


def test_two_rows_left_with_the_upper_bonus_at_stake_match_brute_force(no_bonus_yahtzee):
    """Sixes and chance open, 48 in the upper part: three sixes earn the 35 bonus."""
    rules = no_bonus_yahtzee.rules
    position = no_bonus_yahtzee.position(used_except(rules, "sixes", "chance"), upper=48)
    expected = brute_force(rules, frozenset(["sixes", "chance"]), 48)
    assert no_bonus_yahtzee.value(position) == pytest.approx(expected, abs=1e-9)


def test_terningspoker_two_rows_left_with_first_throw_doubling_match_brute_force():
    """Part 1 scores against three and its bonus waits for the part to be complete; the
    lower rows double on the first throw. (On the shorter Yahtzee sheet, in free order so
    part 1 can be the last, to keep the solve small.)"""
    rules = YatzyRules.make("terningspoker", order="free", sheet="yahtzee")
    table = solve(rules, cache=False)
    for left, upper in ((("three-kind", "full-house"), 0), (("sixes", "chance"), -4),
                        (("twos", "yatzy"), 3)):
        position = table.position(used_except(rules, *left), upper=upper)
        expected = brute_force(rules, frozenset(left), upper)
        assert table.value(position) == pytest.approx(expected, abs=1e-9), left


# --------------------------------------------------------------------------- the optima


def test_yahtzee_without_bonus_and_joker_is_245_8708(no_bonus_yahtzee):
    assert no_bonus_yahtzee.expected_score == pytest.approx(245.8708, abs=5e-5)


def test_official_yahtzee_in_verhoeffs_reading_is_254_5896():
    table = solve(YatzyRules.make("yahtzee", joker_choice=True), cache=False)
    assert table.expected_score == pytest.approx(254.5896, abs=5e-5)


def test_official_yahtzee_with_the_forced_joker_is_254_5877():
    table = solve(YatzyRules.make("yahtzee"), cache=False)
    assert table.expected_score == pytest.approx(254.5877, abs=5e-5)


def test_scandinavian_yatzy_is_248_4400():
    table = solve(YatzyRules.make("yatzy"), cache=False)
    assert table.expected_score == pytest.approx(248.4400, abs=5e-5)


def test_positions_worth_the_same_are_solved_once_and_agree_with_solving_each(
        no_bonus_yahtzee):
    """Upper sums that lead to the same bonus whatever comes are solved once and copied;
    solving every position instead gives the same table to the bit."""
    every = solve(no_bonus_yahtzee.rules, cache=False, classes=False)
    assert (every.values == no_bonus_yahtzee.values).all()
    # and the copies are many: with only sixes open, 0 to 32 in hand all miss the bonus
    sheet = no_bonus_yahtzee.sheet
    sixes_only = no_bonus_yahtzee.position(used_except(sheet.rules, "sixes", "chance"), 32)
    for upper in (0, 10, 31):
        other = no_bonus_yahtzee.position(used_except(sheet.rules, "sixes", "chance"), upper)
        assert no_bonus_yahtzee.value(other) == no_bonus_yahtzee.value(sixes_only)
    assert no_bonus_yahtzee.value(no_bonus_yahtzee.position(
        used_except(sheet.rules, "sixes", "chance"), 33)) > no_bonus_yahtzee.value(sixes_only)


def test_the_table_agrees_with_the_advisors_turn_position_by_position(no_bonus_yahtzee):
    """The solve runs all upper sums of a set of rows at once; the advisor solves one
    position at a time. Both must give the same value everywhere."""
    import numpy as np

    sheet, table = no_bonus_yahtzee.sheet, no_bonus_yahtzee
    masks = np.arange(1 << len(sheet.rows))
    popcount = sum((masks >> j) & 1 for j in range(len(sheet.rows)))
    states = np.concatenate([_states(sheet, k, popcount) for k in range(1, len(sheet.rows))])
    sample = states[np.random.default_rng(8).choice(len(states), 300, replace=False)]
    stages = np.empty((2 * sheet.throws, 462))
    for mask, ui, y in sample:
        current = _turn(mask, ui, y, table.values, sheet.arrays(), sheet.ints(), 0.0,
                        DICE["cls"], DICE["child"], DICE["parents"], stages,
                        np.empty((6, 462)))
        assert float(DICE["prob"] @ current[:len(ROLLS)]) == pytest.approx(
            table.values[mask, ui, y], abs=1e-9)


# --------------------------------------------------------------------------- the advisor


def test_advice_with_one_reroll_left_matches_enumeration(no_bonus_yahtzee):
    rules = no_bonus_yahtzee.rules
    used = used_except(rules, "full-house")
    advice = no_bonus_yahtzee.advise(used=used, upper=40, dice=(3, 3, 5, 5, 1), rerolls=1)
    choices = {c.choice: c.expected for c in advice}
    for keep in sub_multisets((1, 3, 3, 5, 5)):
        if len(keep) == 5:
            continue
        expected = sum(float(p) * (score("full-house", tuple(sorted(keep + rest)), rules) or 0)
                       for rest, p in multisets(5 - len(keep)))
        name = "keep " + " ".join(map(str, keep)) if keep else "keep"
        assert choices[name] == pytest.approx(expected, abs=1e-9)
    assert advice[0].choice == "keep 3 3 5 5"
    assert advice[0].expected == pytest.approx(25 / 3)
    assert choices["score full-house"] == 0.0
    assert [c.expected for c in advice] == sorted(choices.values(), reverse=True)


def test_advice_when_scoring_lists_every_open_row_best_first(no_bonus_yahtzee):
    rules = no_bonus_yahtzee.rules
    advice = no_bonus_yahtzee.advise(used=["ones", "chance"], upper=3, dice=(6, 6, 6, 6, 2),
                                     rerolls=0, already=40)
    assert {c.choice for c in advice} == {f"score {r}" for r in rules.rows
                                          if r not in ("ones", "chance")}
    assert all(c.choice.startswith("score") for c in advice)
    assert advice[0].expected >= advice[-1].expected
    position = no_bonus_yahtzee.position(["ones", "chance"], upper=3)
    assert advice[0].expected < 40 + no_bonus_yahtzee.value(position) + 50


def test_the_first_advice_of_a_game_is_the_solved_value(tarningspoker):
    """Averaged over the first roll, the best choices give the expected score."""
    total = 0.0
    for dice, p in multisets(5):
        total += float(p) * tarningspoker.advise(dice=dice, rerolls=2)[0].expected
    assert total == pytest.approx(tarningspoker.expected_score, abs=1e-9)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"used": ["ones", "ones"]}, "ones is listed twice"),
    ({"used": ["ones"], "upper": 7}, "cannot be made with ones used"),
    ({"used": [], "upper": 3}, "cannot be made with no upper rows"),
    ({"used": ["ones"], "upper": -5}, r"sum of -5 cannot be made with ones used \(possible: 0-5\)"),
    ({"used": ["twos"], "upper": 3}, r"possible: 0, 2, 4, 6, 8, 10\)"),
    ({"used": list(FACE), "upper": 200}, r"sum of 200 cannot be made .*possible: 0-105\)"),
    ({"dice": (1, 2, 3)}, "five values 1 to 6"),
    ({"dice": (1, 2, 3, 4, 7)}, "five values 1 to 6"),
    ({"rerolls": 3}, "rerolls left must be 0 to 2"),
    ({"rerolls": -1}, "rerolls left must be 0 to 2"),
    ({"used": ["sevens"]}, "is not a row"),
])
def test_bad_advice_requests_are_refused_with_the_reason(no_bonus_yahtzee, kwargs, message):
    request = {"dice": (1, 2, 3, 4, 5), "rerolls": 1, **kwargs}
    with pytest.raises(IllegalAction, match=message):
        no_bonus_yahtzee.advise(**request)


def test_maxi_yatzy_is_refused_by_the_solver():
    with pytest.raises(RuleError, match="five dice"):
        Sheet.from_rules(YatzyRules.make("maxi"))


# --------------------------------------------------------------------------- the cache


def test_a_solved_table_is_cached_on_disk_and_reused(tmp_path):
    rules = YatzyRules.make("tarningspoker", order="top-down")
    first = solve(rules, directory=tmp_path)
    again = solve(rules, directory=tmp_path)
    assert not first.from_cache and again.from_cache
    assert again.expected_score == first.expected_score
    question = {"used": ["ones"], "upper": 3, "dice": (2, 2, 4, 5, 6), "rerolls": 1}
    fresh = [(c.choice, round(c.expected, 4)) for c in first.advise(**question)]
    cached = [(c.choice, round(c.expected, 4)) for c in again.advise(**question)]
    assert cached == fresh
    files = list(tmp_path.glob("yatzy-*.npz"))
    assert len(files) == 1 and files[0].stat().st_size < 50_000_000
    # the language of the sheet does not change play: the same table
    solve(YatzyRules.make("tarningspoker", order="top-down", lang="sv"), directory=tmp_path)
    assert len(list(tmp_path.glob("yatzy-*.npz"))) == 1


def test_a_forced_order_is_worth_less_than_a_free_one(tarningspoker, tmp_path):
    forced = solve(YatzyRules.make("tarningspoker", order="top-down"), directory=tmp_path)
    assert forced.expected_score < tarningspoker.expected_score - 10


# --------------------------------------------------------------------------- bot and commands


def test_the_optimal_bot_scores_the_solved_value_on_average(tarningspoker):
    import random
    import statistics

    from kastkopp.dice import SeededDice
    from kastkopp.engine import Table, play_out
    from kastkopp.games import load
    from kastkopp.strategy import make_bot
    from kastkopp.strategy.yatzy_optimal import _TABLES

    game = load("yatzy", preset="tarningspoker", players=1)
    _TABLES[game.rules] = tarningspoker
    scores = []
    for seed in range(30):
        table = Table(game, dice=SeededDice(seed))
        outcome = play_out(table, [make_bot(game, "optimal")], random.Random(seed))
        scores.append(outcome.scores[0])
    spread = statistics.stdev(scores) / len(scores) ** 0.5
    assert abs(statistics.mean(scores) - tarningspoker.expected_score) < 3 * spread


def test_the_optimal_bot_takes_the_advisors_first_choice(tarningspoker):
    import random

    from kastkopp.games import load
    from kastkopp.strategy import make_bot
    from kastkopp.strategy.yatzy_optimal import _TABLES, position_from_view

    game = load("yatzy", preset="tarningspoker", players=1)
    _TABLES[game.rules] = tarningspoker
    state = game.new_state().resolve((2, 2, 2, 5, 6)).apply("keep 2 2 2").resolve((2, 1))
    view = state.view(0)
    choice = make_bot(game, "optimal").choose(view, state.legal_actions(), random.Random(0))
    best = tarningspoker.advise(**position_from_view(view))[0]
    assert str(choice) == best.choice


def test_a_sheet_in_a_view_is_the_position_the_advisor_checks(tarningspoker):
    """The bots take a sheet's position from the game's view without checking it again:
    the same position the advisor finds from the used rows and the upper sum, at every
    move of a few games (with the Yatzy row written, scratched and open)."""
    import random

    from kastkopp.games import load
    from kastkopp.strategy.yatzy_optimal import position_from_view

    for preset, seed in (("yahtzee", 1), ("yahtzee", 2), ("tarningspoker", 3)):
        game = load("yatzy", preset=preset, players=2)
        table = tarningspoker if preset == "tarningspoker" else SolvedTable(
            Sheet.from_rules(game.rules), np.zeros((1, 1, 1)))
        state, rng = game.new_state(), random.Random(seed)
        while not state.is_over():
            if state.chance() is not None:
                chance = state.chance()
                state = state.resolve(tuple(rng.randint(1, 6) for _ in range(chance.count)))
                continue
            seat = state.to_move()
            view = {**state.view(seat), "seat": seat}
            asked = position_from_view(view)
            assert table.seat_position(view, seat) == table.position(
                asked["used"], asked["upper"], asked["yatzy_zero"])
            state = state.apply(rng.choice(state.legal_actions()))
    # a Yatzy row written (the extra-Yatzy bonus held), scratched, and open
    game = load("yatzy", preset="yahtzee", players=1)
    table = SolvedTable(Sheet.from_rules(game.rules), np.zeros((1, 1, 1)))
    yatzy = game.rules.rows.index("yatzy")
    for cell, zero in ((50, False), (0, True), ("-", True)):
        cells = [None] * len(game.rules.rows)
        cells[yatzy] = cell
        view = {"sheets": [cells], "upper": [0]}
        held = table.seat_position(view, 0)
        assert held == table.position(["yatzy"], 0, zero) and held.yatzy_holds == (not zero)
    assert table.seat_position({"sheets": [[0] * len(cells)], "upper": [0]}, 0) is None


def test_solve_yatzy_prints_the_expected_score_and_caches_it(tmp_path, monkeypatch):
    import json

    from typer.testing import CliRunner

    from kastkopp.cli import app

    monkeypatch.setenv("KASTKOPP_CACHE", str(tmp_path))
    runner = CliRunner()
    first = runner.invoke(app, ["solve", "yatzy", "--preset", "tarningspoker", "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["expected_score"] == pytest.approx(229.638500, abs=1e-6)
    assert data["cached"] is False and data["seconds"] > 0
    again = json.loads(runner.invoke(app, ["solve", "yatzy", "--preset", "tarningspoker",
                                           "--json"]).stdout)
    assert again["cached"] is True and again["expected_score"] == data["expected_score"]


@pytest.mark.parametrize(("args", "message"), [
    (["--used", "ones,ones"], "ones is listed twice"),
    (["--used", "ones", "--upper", "9"], "an upper sum of 9 cannot be made"),
    (["--dice", "3 3 5 5"], "five values 1 to 6"),
    (["--dice", "3 3 5 5 9"], "five values 1 to 6"),
    (["--dice", "a b c d e"], "five values 1 to 6"),
    (["--rerolls", "3"], "rerolls left must be 0 to 2"),
])
def test_advise_yatzy_refuses_bad_input_in_one_line(tmp_path, monkeypatch, tarningspoker,
                                                    args, message):
    from typer.testing import CliRunner

    from kastkopp.cli import app
    from kastkopp.strategy.yatzy_optimal import _TABLES

    _TABLES[tarningspoker.rules] = tarningspoker
    base = {"--dice": "3 3 5 5 1", "--rerolls": "1"}
    for name, value in zip(args[::2], args[1::2], strict=True):
        base[name] = value
    argv = ["advise", "yatzy", "--preset", "tarningspoker",
            *[x for pair in base.items() for x in pair]]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in result.output


def test_advise_yatzy_json_lists_every_choice_best_first(tarningspoker):
    import json

    from typer.testing import CliRunner

    from kastkopp.cli import app
    from kastkopp.strategy.yatzy_optimal import _TABLES

    _TABLES[tarningspoker.rules] = tarningspoker
    result = CliRunner().invoke(app, ["advise", "yatzy", "--preset", "tarningspoker",
                                      "--dice", "6 6 6 2 1", "--rerolls", "2",
                                      "--used", "yatzy", "--json"])
    assert result.exit_code == 0, result.output
    choices = json.loads(result.stdout)["choices"]
    values = [c["expected"] for c in choices]
    assert values == sorted(values, reverse=True)
    # 6 6 6 2 1 can keep 0-3 sixes, a two or not, a one or not: 16 keeps less keeping all,
    # and the twelve rows still open
    assert len(choices) == 4 * 2 * 2 - 1 + 12
    assert choices[0]["choice"] == "keep 6 6 6"


# --------------------------------------------------------------------------- the row scores


def scandinavian(row: str, dice) -> int:
    """Scandinavian Yatzy's rows as the rules digest words them, written out afresh."""
    counts = {f: dice.count(f) for f in range(1, 7)}
    pairs = sorted((f for f in counts if counts[f] >= 2), reverse=True)
    upper = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    if row in upper:
        return counts[upper[row]] * upper[row]
    if row == "pair":
        return 2 * pairs[0] if pairs else 0
    if row == "two-pairs":
        return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
    if row in ("three-kind", "four-kind"):
        n = 3 if row == "three-kind" else 4
        faces = [f for f in counts if counts[f] >= n]
        return n * max(faces) if faces else 0
    if row == "small-straight":
        return 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if row == "large-straight":
        return 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if row == "full-house":
        shape = sorted(counts.values())
        return sum(dice) if shape[-2:] == [2, 3] else 0
    if row == "chance":
        return sum(dice)
    return 50 if len(set(dice)) == 1 else 0


def test_scandinavian_row_scores_agree_with_the_rules_written_out_afresh():
    """The solver's figure for Scandinavian Yatzy rests on the module's row scores: check
    every row for every one of the 252 rolls against an independent reading."""
    rules = YatzyRules.make("yatzy")
    for dice, _ in multisets(5):
        for row in rules.rows:
            assert (score(row, dice, rules) or 0) == scandinavian(row, list(dice)), (row, dice)

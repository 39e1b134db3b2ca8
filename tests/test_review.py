"""The review of a finished game: a player of the known best choice loses nothing at every
decision graded exactly, a random player loses, Yatzy's account adds up to the final score,
and the command line prints it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.engine import IllegalAction, LogError, Player, Table, play_out
from kastkopp.games import load
from kastkopp.games.yatzy import YatzyRules
from kastkopp.locale.messages import translate
from kastkopp.strategy import make_bot
from kastkopp.strategy.liars_dice_review import TOLERANCE as LIARS_TOLERANCE
from kastkopp.strategy.liars_dice_review import grade as liars_grade
from kastkopp.strategy.mia_review import TOLERANCE, EquilibriumMiaPlayer
from kastkopp.strategy.review import ReviewError, review, said, seen_at, steps_of, try_again
from kastkopp.strategy.yatzy_solver import cache_dir, cache_key

# slow: grades whole games against solved strategies
pytestmark = pytest.mark.slow

# Every rule set the Yatzy solver handles (five dice, a fixed number of throws).
YATZY_PRESETS = ["yatzy", "yahtzee", "tarningspoker", "terningspoker"]


def played(name: str, who: list[Player] | None, seed: int, bots: list[str] | None = None,
           **load_args: object) -> Table:
    game = load(name, **load_args)  # type: ignore[arg-type]
    seats = who or [make_bot(game, b) for b in bots or []]
    table = Table(game)
    play_out(table, seats, random.Random(seed))
    return table


def solved_in_minutes(preset: str) -> bool:
    """Whether solving the preset's table takes minutes and it is not in the cache yet."""
    rules = YatzyRules.make(preset)
    return rules.bonus > 0 and rules.joker and \
        not (cache_dir() / f"yatzy-{cache_key(rules)}.npz").exists()


@pytest.mark.parametrize("preset", YATZY_PRESETS)
def test_yatzy_start_minus_losses_plus_luck_is_the_final_score(preset: str) -> None:
    if solved_in_minutes(preset):
        pytest.skip(f"the {preset} table takes minutes to solve: run `kastkopp solve yatzy "
                    f"--preset {preset}` once to cache it")
    table = played("yatzy", None, 7, ["optimal", "random"], preset=preset, players=2)
    result = review(table.to_json())
    for seat in result.seats:
        assert seat.start is not None and seat.luck is not None
        assert seat.start - seat.lost + seat.luck == pytest.approx(seat.final, abs=1e-6)
        assert seat.graded == seat.decisions > 0
    optimal, randomly = result.seats
    assert optimal.lost == pytest.approx(0.0, abs=1e-6)
    assert optimal.best == optimal.graded
    assert randomly.lost > 20  # random keeps and rows cost dozens of points
    assert len(randomly.costliest) == 3
    costs = [m.cost or 0.0 for m in randomly.costliest]
    assert costs == sorted(costs, reverse=True)
    assert costs[0] == max(m.cost or 0.0 for m in result.moments if m.seat == 1)


def test_a_yatzy_roll_moves_the_expectation_by_its_luck() -> None:
    table = played("yatzy", None, 3, ["optimal"], preset="tarningspoker", players=1)
    moments = review(table.to_json()).moments
    first_roll = moments[0]
    assert first_roll.kind == "roll" and first_roll.luck is not None
    # The roll's luck is what its best choice expects beyond the start.
    first_choice = moments[1]
    assert first_choice.kind == "decision"
    start = review(table.to_json()).seats[0].start
    assert start is not None
    assert first_choice.detail["best_expected"] - start == pytest.approx(first_roll.luck)


def test_heads_up_slosch_the_equilibrium_loses_nothing_and_random_play_loses() -> None:
    game = load("mia", preset="slosch", players=2)
    lost, random_lost, graded = 0.0, 0.0, 0
    for seed in range(4):
        eq = EquilibriumMiaPlayer(game.rules)
        table = played("mia", [eq, make_bot(game, "random")], seed, preset="slosch",
                       players=2)
        result = review(table.to_json())
        best, worst = result.seats
        assert result.unit == "lives"
        for m in result.moments:
            if m.seat == 0:
                assert m.cost is not None and m.cost <= TOLERANCE, m
        graded += best.graded
        lost += best.lost
        random_lost += worst.lost
    assert graded > 10
    assert random_lost > 0.5


def test_slosch_with_more_players_shows_the_odds_and_grades_nothing() -> None:
    table = played("mia", None, 1, ["random"] * 4, players=4)
    result = review(table.to_json())
    four_alive = [m for m in result.moments[:3]]
    for m in four_alive:
        assert m.cost is None
        assert 0.0 <= m.detail["claim_beaten"] <= 1.0
        assert m.detail["beat_by_rolling"] <= m.detail["claim_beaten"]


def test_liars_dice_tells_the_chance_of_every_bid_and_call_given_own_dice() -> None:
    table = played("liars_dice", None, 5, ["strong", "random", "strong"], preset="perudo",
                   players=3)
    result = review(table.to_json())
    bids = [m for m in result.moments if m.made.startswith("bid")]
    calls = [m for m in result.moments if m.made in ("dudo", "calza")]
    assert bids and calls
    assert all(0.0 <= m.detail["holds"] <= 1.0 for m in bids)
    assert all(0.0 <= m.detail["right"] <= 1.0 for m in calls)
    # A bid of no more dice than the bidder holds of the face always holds.
    data = table.to_json()
    steps = steps_of(table.game, data["events"])
    graded = liars_grade(table.game, steps)
    for m, step in zip(graded.moments, [s for s in steps if s.kind == "action"], strict=True):
        view = step.before.view(step.seat)
        if m.made.startswith("bid ") and "x" in m.made:
            count, face = (int(x) for x in m.made[4:].split("x"))
            own = sum(1 for d in view["your_dice"]
                      if d == face or (view["ones_wild"] and d == 1))
            if own >= count:
                assert m.detail["holds"] == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["knack", "linka"])
def test_pot_games_the_equity_player_loses_nothing_and_random_bets_lose(name: str) -> None:
    strong_lost, random_lost = 0.0, 0.0
    for seed in range(6):
        table = played(name, None, seed, ["strong", "random", "strong"], players=3)
        result = review(table.to_json())
        assert result.unit == "chips"
        # the strong bot bets by the same equities: no graded bet of it costs anything
        assert all((m.cost or 0.0) <= 1e-9 for m in result.moments if m.seat != 1)
        strong_lost += result.seats[0].lost + result.seats[2].lost
        random_lost += result.seats[1].lost
    assert random_lost > 1.0
    assert strong_lost == pytest.approx(0.0, abs=1e-9)


def test_poker_menteur_grades_rerolls_by_the_chance_to_beat_the_announcement() -> None:
    games = [played("poker_dice", None, s, ["strong", "random"], players=2) for s in range(8)]
    moments = [m for t in games for m in review(t.to_json()).moments]
    rerolls = [m for m in moments if m.made.startswith("reroll") and m.cost is not None]
    strong = [m for m in rerolls if m.seat == 0]
    assert strong and all(m.cost is not None and m.cost <= 1e-9 for m in strong)
    assert any((m.cost or 0) > 0.01 for m in rerolls if m.seat == 1)
    assert all(0.0 <= m.detail["make_or_beat"] <= 1.0 for m in moments if m.detail)


def test_a_game_not_over_is_refused_and_a_broken_log_is_named() -> None:
    game = load("mia", players=2)
    table = Table(game)
    with pytest.raises(ReviewError, match="not over"):
        review(table.to_json(reveal=True))
    done = played("mia", None, 2, ["random", "random"], players=2).to_json()
    first = next(i for i, e in enumerate(done["events"]) if e["type"] == "action")
    done["events"][first]["seat"] = 1 - done["events"][first]["seat"]
    with pytest.raises(LogError, match=f"event {first}"):
        review(done)


def test_the_command_line_reviews_a_log(tmp_path: Path) -> None:
    table = played("yatzy", None, 4, ["optimal", "random"], preset="tarningspoker", players=2)
    log = tmp_path / "game.json"
    log.write_text(table.dumps(), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(app, ["review", str(log), "--seat", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [s["seat"] for s in data["summaries"]] == [1]
    assert {m["seat"] for m in data["moments"]} == {1}
    assert data["summaries"][0]["lost"] > 0
    text = runner.invoke(app, ["review", str(log)], env={"COLUMNS": "200"})
    assert text.exit_code == 0
    assert "Player 2" in text.output and "costliest" in text.output
    wrong = runner.invoke(app, ["review", str(log), "--seat", "2"])
    assert wrong.exit_code == 2 and "no seat 2" in wrong.output
    unfinished = tmp_path / "open.json"
    unfinished.write_text(Table(load("mia", players=2)).dumps(), encoding="utf-8")
    refused = runner.invoke(app, ["review", str(unfinished)])
    assert refused.exit_code == 2 and "not over" in refused.output


def test_small_liars_dice_rounds_the_equilibrium_loses_nothing_and_random_bids_lose() -> None:
    game = load("liars_dice", preset="lognare", players=2, dice=1)
    graded, random_lost = 0, 0.0
    for seed in range(6):
        table = played("liars_dice", [make_bot(game, "strong"), make_bot(game, "random")],
                       seed, preset="lognare", players=2, dice=1)
        result = review(table.to_json())
        assert result.unit == "dice"
        for m in result.moments:
            if m.seat == 0 and m.cost is not None:
                assert m.cost <= LIARS_TOLERANCE, m
                graded += 1
        random_lost += result.seats[1].lost
    assert graded >= 6
    assert random_lost > 0.3


def test_two_dice_each_liars_rounds_the_equilibrium_loses_nothing_and_random_bids_lose() -> None:
    # two dice a cup on three faces: every round of the game (two against two, one against
    # two, one against one) is small enough for the CFR solver
    args: dict[str, object] = {"preset": "lognare", "players": 2, "dice": 2, "faces": 3}
    game = load("liars_dice", **args)  # type: ignore[arg-type]
    graded, random_lost, two_each = 0, 0.0, 0
    for seed in range(8):
        table = played("liars_dice", [make_bot(game, "strong"), make_bot(game, "random")],
                       seed, **args)
        data = table.to_json()
        result = review(data)
        steps = {s.index: s for s in steps_of(table.game, data["events"])}
        for m in result.moments:
            if m.seat == 0 and m.cost is not None:
                assert m.cost <= LIARS_TOLERANCE, m
                graded += 1
                view = steps[m.index].before.view(0)
                two_each += view["dice_counts"] == [2, 2]
        random_lost += result.seats[1].lost
    assert graded >= 6 and two_each >= 2
    assert random_lost > 1.0


def test_maxi_yatzy_is_listed_and_the_review_says_why_it_grades_nothing() -> None:
    table = played("yatzy", None, 3, ["greedy", "random"], preset="maxi", players=2)
    result = review(table.to_json())
    assert "six dice or saved throws" in result.method and "not graded" in result.method
    decisions = [m for m in result.moments if m.kind == "decision"]
    assert len(decisions) == sum(1 for e in table.events if e["type"] == "action")
    assert all(m.cost is None and m.situation["dice"] for m in decisions)
    assert all(len(m.situation["dice"].split()) == 6 for m in decisions)
    for seat in result.seats:
        assert seat.graded == 0 and seat.decisions > 0 and seat.costliest == []


# --------------------------------------------------------------------------- try again


def test_trying_again_grades_the_new_choice_with_the_reviews_grader() -> None:
    table = played("yatzy", None, 4, ["optimal", "random"], preset="tarningspoker", players=2)
    data = table.to_json()
    result = review(data)
    worst = result.seats[1].costliest[0]
    seen = seen_at(data, worst.index, 1)
    assert seen.legal and worst.made in seen.legal and worst.best in seen.legal
    assert seen.view["seat"] == 1 and seen.view["dice"]
    best = try_again(data, worst.index, 1, str(worst.best))
    assert best.cost == pytest.approx(0.0, abs=1e-9) and best.to_json()["is_best"]
    assert best.best == worst.best and best.made is not None
    assert best.made.cost == pytest.approx(worst.cost)
    same = try_again(data, worst.index, 1, worst.made)
    assert same.cost == pytest.approx(worst.cost) and not same.to_json()["is_best"]
    # every other legal choice costs what the solver says, never less than nothing
    for action in seen.legal[:6]:
        tried = try_again(data, worst.index, 1, action)
        assert tried.cost is not None and tried.cost >= -1e-9
        assert tried.chosen is not None
        assert tried.chosen.detail["best_expected"] - tried.chosen.detail["expected"] == \
            pytest.approx(tried.cost)
    assert data == table.to_json()  # the log is as it was


def test_trying_again_refuses_what_the_rules_refuse_in_the_players_language() -> None:
    table = played("yatzy", None, 4, ["optimal", "random"], preset="tarningspoker", players=2)
    data = table.to_json()
    worst = review(data).seats[1].costliest[0]
    with pytest.raises(IllegalAction) as unreadable:
        try_again(data, worst.index, 1, "xyzzy")
    assert "xyzzy" in translate(unreadable.value, "sv")
    with pytest.raises(IllegalAction) as illegal:
        try_again(data, worst.index, 1, "keep 6 6 6 6 6 6")
    assert "det finns bara 5 tärningar att spara" in translate(illegal.value, "sv")
    with pytest.raises(ReviewError) as elsewhere:
        try_again(data, worst.index, 0, str(worst.best))
    assert translate(elsewhere.value, "da") != str(elsewhere.value)
    unfinished = Table(load("mia", players=2)).to_json(reveal=True)
    with pytest.raises(ReviewError, match="not over"):
        seen_at(unfinished, 0, 0)


def test_trying_again_in_liars_dice_shows_the_seat_only_its_own_cup() -> None:
    args: dict[str, object] = {"preset": "lognare", "players": 2, "dice": 1}
    game = load("liars_dice", **args)  # type: ignore[arg-type]
    table = played("liars_dice", [make_bot(game, "strong"), make_bot(game, "random")], 1,
                   **args)
    data = table.to_json()
    result = review(data)
    worst = max((m for m in result.moments if m.cost is not None and m.seat == 1),
                key=lambda m: m.cost or 0.0)
    seen = seen_at(data, worst.index, 1)
    assert "your_dice" in seen.view
    steps = steps_of(table.game, data["events"])
    before = next(s for s in steps if s.index == worst.index).before
    assert seen.view == before.view(1) and "dice" not in seen.view  # no other cup
    assert json.dumps(before.view(0)["your_dice"]) not in json.dumps(
        {k: v for k, v in seen.view.items() if k != "your_dice"}) or \
        before.view(0)["your_dice"] == seen.view["your_dice"]
    best = try_again(data, worst.index, 1, str(worst.best))
    assert best.cost is not None and best.cost <= LIARS_TOLERANCE and best.unit == "dice"
    made = try_again(data, worst.index, 1, worst.made)
    assert made.cost == pytest.approx(worst.cost)
    assert made.chosen is not None and made.chosen.detail == worst.detail


def test_trying_again_in_heads_up_slosch_uses_the_equilibrium() -> None:
    game = load("mia", preset="slosch", players=2)
    table = played("mia", [EquilibriumMiaPlayer(game.rules), make_bot(game, "random")], 2,
                   preset="slosch", players=2)
    data = table.to_json()
    result = review(data)
    worst = max((m for m in result.moments if m.cost is not None and m.seat == 1),
                key=lambda m: m.cost or 0.0)
    assert worst.cost and worst.cost > TOLERANCE
    best = try_again(data, worst.index, 1, str(worst.best))
    assert best.cost is not None and best.cost <= TOLERANCE and best.unit == "lives"
    assert try_again(data, worst.index, 1, worst.made).cost == pytest.approx(worst.cost)


def test_choices_are_said_in_the_players_words() -> None:
    yatzy = load("yatzy", preset="tarningspoker", players=2)
    assert said(yatzy, ["score four-kind", "keep 4 4", "keep", None], "sv") == {
        "score four-kind": "skriv i Fyrtal", "keep 4 4": "behåll 4 4", "keep": "slå om alla"}
    assert said(yatzy, ["score small-straight"], "da") == {
        "score small-straight": "skriv i Lille straight"}
    assert said(load("liars_dice"), ["bid 2x3", "dudo"], "da") == {
        "bid 2x3": "bud 2×3", "dudo": "udfordr buddet"}
    assert said(load("mia"), ["announce 43", "call"], "en") == {
        "announce 43": "announce 43", "call": "lift the cup"}
    # a game whose review says nothing of its own keeps its notation
    assert said(load("knack", players=2), ["raise 2"], "sv") == {"raise 2": "raise 2"}

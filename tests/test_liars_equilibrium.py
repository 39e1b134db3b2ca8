"""One round of liar's dice solved by CFR: hand-checkable rounds, OpenSpiel's numbers, the bot."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import SeededDice
from kastkopp.engine import Action, Player, RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.games.liars_dice import LiarsDice, LiarsRules, ordered_bids
from kastkopp.strategy import make_bot
from kastkopp.strategy.cfr import Solver
from kastkopp.strategy.liars_bidding import Bidding
from kastkopp.strategy.liars_dice import StrongLiarsBot
from kastkopp.strategy.liars_equilibrium import _tree, equilibrium_for, solve

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow

runner = CliRunner()


@pytest.fixture(scope="module")
def openspiel_one_die():
    return solve(Bidding.openspiel(dice=1, faces=6), target=1e-3)


def test_two_faces_with_the_highest_wild_is_worth_a_half_to_the_opener():
    """Faces 1 and 2, the 2 wild: "two 1s" always holds, "two 2s" only with two 2s. Open
    "two 1s": a responder with a 1 loses whatever he does; with a 2 he raises to "two 2s",
    which the opener must lift, and that holds exactly when the opener has a 2 too. So the
    opener wins with a 1 (+1) and breaks even with a 2 (0): +1/2."""
    eq = solve(Bidding.openspiel(dice=1, faces=2), target=1e-6)
    assert eq.game_value == pytest.approx(0.5, abs=1e-5)


def test_cfr_plus_matches_openspiels_iterate_for_iterate():
    """OpenSpiel 2.0.2's CFRPlusSolver on liars_dice(numdice=1) has exploitability
    0.0049082812340596 after 100 iterations (measured with pyspiel); the same algorithm on
    the same game must give the same number."""
    _, tree = _tree(Bidding.openspiel(dice=1, faces=6))
    solver = Solver(tree)
    solver.run(100)
    assert solver.exploitability() == pytest.approx(0.0049082812340596, abs=1e-12)


def test_the_first_bidder_is_at_a_small_disadvantage(openspiel_one_die):
    assert openspiel_one_die.exploitability <= 1e-3
    assert openspiel_one_die.game_value == pytest.approx(-0.0276, abs=2e-3)


def test_exploitability_falls_as_cfr_runs():
    _, tree = _tree(Bidding.from_rules(LiarsRules.make("lognare", dice=1)))
    solver = Solver(tree, variant="dcfr")
    gaps = []
    for steps in (1, 10, 100):
        solver.run(steps)
        gaps.append(solver.exploitability())
    assert all(b < a for a, b in itertools.pairwise(gaps))


def test_kastkopp_bids_come_in_the_liars_dice_modules_order():
    rules = LiarsRules.make("perudo", exact_call="off", dice=1)
    bidding = Bidding.from_rules(rules)
    assert bidding.bids == ordered_bids(2, True)[0]
    assert all(b.face != 1 for b in bidding.openings())  # a round never opens on wild ones
    assert bidding.count((1, 5), 5) == 2 and bidding.count((1, 5), 1) == 1
    lognare = Bidding.from_rules(LiarsRules.make("lognare", dice=1))
    assert lognare.count((1, 5), 5) == 1


def test_a_wild_face_helps_the_bidder_here():
    plain = solve(Bidding.from_rules(LiarsRules.make("lognare", dice=1)), target=1e-3)
    wild = solve(Bidding.from_rules(LiarsRules.make("perudo", exact_call="off", dice=1)),
                 target=1e-3)
    assert -1 < plain.game_value < wild.game_value < 1


def test_the_policy_is_a_distribution_over_the_legal_answers(openspiel_one_die):
    policy = openspiel_one_die.policy(("bid 1x3",), (6,))
    assert "bid 1x3" not in policy and "dudo" in policy and "bid 1x4" in policy
    assert sum(policy.values()) == pytest.approx(1.0)
    with pytest.raises(RuleError, match="no such bidding"):
        openspiel_one_die.policy(("bid 1x3", "bid 1x2"), (6,))


@pytest.mark.parametrize(("rules", "message"), [
    ({"preset": "perudo"}, "exact calls make more than one round"),
    ({"preset": "common_hand"}, "not poker-hand bids"),
    ({"preset": "dudo", "exact_call": "off"}, "penalty=one"),
])
def test_rules_that_are_not_one_round_of_bids_are_refused(rules, message):
    with pytest.raises(RuleError, match=message):
        Bidding.from_rules(LiarsRules.make(**rules))


def test_a_round_too_big_to_solve_is_refused_with_the_reason():
    with pytest.raises(RuleError, match="24 possible bids"):
        solve(Bidding.from_rules(LiarsRules.make("lognare", dice=2)))


def test_solve_liars_dice_json_reports_value_exploitability_and_time():
    result = runner.invoke(app, ["solve", "liars_dice", "--dice", "1", "--openspiel",
                                 "--faces", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"game_value", "exploitability", "seconds"} <= set(data)
    assert data["exploitability"] <= 1e-3 and data["faces"] == 4 and data["wild"] == "highest"


def test_solve_liars_dice_with_fewer_faces_plays_kastkopps_rules_on_smaller_dice():
    result = runner.invoke(app, ["solve", "liars_dice", "--dice", "1", "--faces", "3",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["faces"] == 3 and data["wild"] == "none"
    # Lögnare's opening disadvantage survives on three-faced dice
    assert data["game_value"] == pytest.approx(-0.111, abs=2e-3)


@pytest.mark.parametrize(("args", "message"), [
    (["--preset", "perudo"], "exact calls"),
    (["--faces", "7"], "'faces' must be at most 6"),
    (["--openspiel", "--preset", "perudo"], "leave out --preset"),
    (["--dice", "2"], "possible bids"),
    (["--rule", "wilds=on"], "unknown rule 'wilds'"),
])
def test_solve_liars_dice_refuses_bad_input_in_one_line(args, message):
    result = runner.invoke(app, ["solve", "liars_dice", *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0]


def test_the_strong_bot_plays_the_solved_round_heads_up_and_beats_random_play():
    game = load("liars_dice", preset="lognare", players=2, dice=1)
    first = Table(game, dice=SeededDice(0))
    assert make_bot(game, "strong")._round(first.state.view(0)) is not None
    wins = 0
    for seed in range(40):
        table = Table(game, dice=SeededDice(seed))
        bots = [make_bot(game, "strong"), make_bot(game, "random")]
        if seed % 2:
            bots.reverse()
        outcome = play_out(table, bots, random.Random(seed))
        wins += (seed % 2) in outcome.winners
    assert wins >= 28


class OddsWitness(Player):
    """The strong bot, checked at every choice with three cups in play (no solved round)
    against the odds bot choosing from the same view with the same random numbers."""

    def __init__(self, game: LiarsDice) -> None:
        self.strong = make_bot(game, "strong")
        self.odds = StrongLiarsBot(game)
        self.checked: list[str] = []

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        twin = random.Random()
        twin.setstate(rng.getstate())
        chosen = self.strong.choose(view, legal, rng)
        if sum(1 for count in view["dice_counts"] if count) > 2:
            assert chosen == self.odds.choose(view, legal, twin), view
            self.checked.append(str(chosen))
        return chosen


def test_the_strong_bot_plays_by_the_odds_where_nothing_is_solved():
    game = load("liars_dice", preset="perudo", players=3, dice=2)
    assert isinstance(game, LiarsDice)
    witnesses = [OddsWitness(game) for _ in range(3)]
    for seed in range(3):
        play_out(Table(game, dice=SeededDice(seed)), witnesses, random.Random(seed))
    checked = [action for w in witnesses for action in w.checked]
    # bids and challenges alike went by the odds
    assert len(checked) >= 30
    assert any(a.startswith("bid") for a in checked) and "dudo" in checked


def test_the_strong_bot_does_not_keep_its_table_waiting_for_a_long_solve():
    # one die against two is 2^18 bid sequences: about half a minute of solving, so the bot
    # plays it by the odds (a server's tables would all wait for it otherwise)
    game = load("liars_dice", preset="lognare", players=2, dice=2)
    rules = game.rules
    assert equilibrium_for(rules, (1, 2)) is None and equilibrium_for(rules, (2, 1)) is None
    assert equilibrium_for(rules, (1, 1)) is not None

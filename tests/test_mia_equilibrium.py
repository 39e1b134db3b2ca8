"""Heads-up Slosch solved by CFR: hand-checkable subgames, exactness, the shape of play."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.engine import RuleError
from kastkopp.games.mia import MIA, MiaRules, chance_of
from kastkopp.strategy.mia_equilibrium import solve

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def maexchen():
    return solve(MiaRules.make("maexchen"), target=1e-4)


@pytest.fixture(scope="module")
def slosch():
    return solve(MiaRules.make("slosch"), target=3e-4)


def test_beating_the_best_double_means_claiming_slosch(slosch):
    """Above 11 only Slosch is left: the roller claims it, and a Slosch exchange costs two
    lives, so he wins 2 with a real Slosch (1 in 18) and loses 2 otherwise."""
    p = float(chance_of(MIA))
    assert slosch.roller_value(11) == pytest.approx(2 * p - 2 * (1 - p), abs=1e-3)


def test_without_the_double_cost_the_last_claim_costs_one_life():
    rules = MiaRules.make("slosch", slosch_double=False)
    eq = solve(rules, target=3e-4)
    p = float(chance_of(MIA))
    assert eq.roller_value(11) == pytest.approx(p - (1 - p), abs=1.5e-3)


def test_a_claim_that_is_always_true_is_never_called(slosch):
    """Every roll reaches 31, so an opening claim of 31 is believed, never lifted."""
    answer = slosch.response_policy(None, 31)
    assert answer["call"] == pytest.approx(0.0, abs=1e-3)


def test_the_opener_bluffs_a_bad_roll_and_never_overstates_a_good_one(slosch):
    rows = {row["value"]: row for row in slosch.rows(None)}
    assert rows["31"]["bluff"] > 0.99
    for value in ("54", "61", "62", "63", "64", "65", "66", "Slosch"):
        assert rows[value]["bluff"] < 0.01, value
    policy = slosch.announcement_policy(None)
    assert sum(policy[31].values()) == pytest.approx(1.0)


def test_when_the_roller_must_lift_a_passed_claim_passing_pays(slosch):
    """A claim goes round once: passed back, the roller must lift it himself (and loses if
    it holds) or roll, so the responder passes claims that are likely true."""
    passing = [slosch.response_policy(None, v).get("pass", 0.0) for v in (63, 64, 65)]
    assert max(passing) > 0.2
    no_passing = solve(MiaRules.make("slosch", passing=False), target=1e-3)
    assert slosch.value < no_passing.value - 0.05


def test_when_the_responder_is_forced_last_passing_never_pays():
    twice = solve(MiaRules.make("slosch"), passes=2, target=1e-3)
    no_passing = solve(MiaRules.make("slosch", passing=False), target=1e-3)
    assert twice.value == pytest.approx(no_passing.value, abs=3e-3)


def test_the_order_of_the_doubles_does_not_change_the_game(slosch):
    """Classic and Slosch order rank the same chances in the same places (a double is a
    double), so the exchange is the same game under other names."""
    classic = solve(MiaRules.make("classic"), target=1e-3)
    assert classic.value == pytest.approx(slosch.value, abs=3e-3)


def test_the_first_player_has_the_advantage(slosch, maexchen):
    assert 0 < slosch.value < 1
    assert 0 < maexchen.value < 1


def test_the_whole_exchange_is_nearly_unexploitable(slosch, maexchen):
    """The best responses are solved back through every subgame, not just the opening."""
    for eq in (slosch, maexchen):
        assert 0 <= eq.exploitability < 2e-3
        gains = eq.best_responses
        # each side's best response is at least what it gets at the equilibrium
        assert gains["first_player"] >= eq.value - 1e-9
        assert gains["second_player"] >= -eq.value - 1e-9


def test_exploitability_falls_with_a_tighter_target(maexchen):
    rough = solve(MiaRules.make("maexchen"), target=3e-2)
    assert rough.exploitability > maexchen.exploitability


def test_maexchen_reveals_slosch_and_nobody_can_pass(maexchen):
    opening = {row["value"]: row for row in maexchen.to_json()["opening"]}
    assert "pass" not in opening["54"]
    # a revealed Slosch is never answered
    assert "call" not in opening["Slosch"]


def test_solve_mia_json_reports_value_frequencies_and_exploitability():
    result = CliRunner().invoke(app, ["solve", "mia", "--preset", "maexchen",
                                      "--target", "1e-3", "--json"])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.stdout)
    assert data["first_player_value"] == pytest.approx(0.296, abs=0.02)
    assert data["exploitability"] < 0.01
    assert len(data["opening"]) == 21
    assert {"value", "truth", "bluff", "claimed", "call", "roll"} <= set(data["opening"][5])


def test_solve_mia_refuses_an_unknown_rule_in_one_line():
    result = CliRunner().invoke(app, ["solve", "mia", "--rule", "lifes=3"])
    assert result.exit_code == 2
    assert "unknown rule 'lifes'" in result.stderr
    assert "Traceback" not in result.output


def test_unknown_rules_are_refused_by_the_mia_rules():
    with pytest.raises(RuleError):
        MiaRules.make("slosch", order="backwards")

"""``kastkopp play --coach``: after each of the person's decisions, what it cost in the game's
unit and the best choice, in the player's language; the hint it reads is the table's."""

from __future__ import annotations

from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.coach import verdict
from kastkopp.cli.support import set_language
from kastkopp.dice import SeededDice
from kastkopp.engine import Table, notations
from kastkopp.games import load
from kastkopp.strategy.advice import Advice, Hint, advisor_for

runner = CliRunner()


def test_the_verdict_names_the_cost_and_the_best_choice() -> None:
    set_language("en")
    hint = Hint("lives", (Advice("call", 0.25), Advice("roll", -0.5)))
    assert verdict(hint, "call") == "Coach: call was the best choice."
    assert verdict(hint, "roll") == "Coach: roll cost 0.75 lives; the best was call."
    odds = Hint("chance", (Advice("bid 2x3", 0.9), Advice("dudo", 0.1)))
    assert verdict(odds, "dudo") == ("Coach: dudo is right with a chance of 10.0%; bid 2x3 "
                                     "had 90.0%.")
    assert verdict(Hint("chips", (), {"share": 0.5}), "knock") is None


def test_the_verdict_in_swedish_and_danish() -> None:
    hint = Hint("points", (Advice("score chance", 240.0), Advice("score ones", 230.5)))
    try:
        set_language("sv")
        assert verdict(hint, "score ones") == ("Tränaren: score ones kostade 9.50 väntade "
                                               "poäng; bäst var score chance.")
        set_language("da")
        assert verdict(hint, "score ones") == ("Træneren: score ones kostede 9.50 forventede "
                                               "point; bedst var score chance.")
    finally:
        set_language("en")


def test_the_cost_is_the_hints_worth_of_the_choice_against_the_best() -> None:
    game = load("knack", players=2)
    table = Table(game, dice=SeededDice(1))
    advisor = advisor_for(game)
    assert advisor is not None
    while not table.state.is_over():
        seat = table.state.to_move()
        legal = notations(table.state.legal_actions())
        hint = advisor.hint(table.state.view(seat), legal)
        if len(hint.choices) > 1 and hint.choices[0].expected - hint.choices[-1].expected > .01:
            worst = hint.choices[-1]
            cost = hint.choices[0].expected - worst.expected
            said = verdict(hint, worst.choice)
            assert said is not None and f"{cost:.2f} chips" in said
            return
        table.act(seat, legal[0])
    raise AssertionError("no bet with two ranked choices came up")


def test_play_coach_comments_each_decision_in_danish() -> None:
    result = runner.invoke(app, ["--lang", "da", "play", "linka", "--players", "Anna,bot",
                                 "--seed", "4", "--coach"], input="raise 1\nquit\n")
    assert result.exit_code in (0, 1), result.output
    assert "Træneren: raise 1 var det bedste valg." in result.output
    plain = runner.invoke(app, ["--lang", "da", "play", "linka", "--players", "Anna,bot",
                                "--seed", "4"], input="raise 1\nquit\n")
    assert "Træneren" not in plain.output

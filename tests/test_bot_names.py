"""Bot names with settings (``bot:ismcts:sims=500``): one grammar read by the command line,
the server and the ladder; bad names refused in the player's language; the budget a name
gives is the budget the bot searches with."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.ladder import chosen_bots
from kastkopp.cli.seats import Seat
from kastkopp.engine import RuleError, Table, play_out
from kastkopp.games import load
from kastkopp.locale.messages import translate
from kastkopp.strategy import BotSpec, bot_names, check_bot, make_bot, parse_bot

runner = CliRunner()
DEFAULT_SIMULATIONS = 100  # bot:ismcts without a budget, as docs/ladder.md says
pyspiel_missing = pytest.mark.skipif("ismcts" not in bot_names("liars_dice"),
                                     reason="bot:ismcts needs the openspiel extra")


def refusal(game: str, text: str, *, capped: bool = False) -> RuleError:
    with pytest.raises(RuleError) as caught:
        parse_bot(game, text, capped=capped)
    return caught.value


def test_a_bot_without_settings_reads_as_its_name():
    assert parse_bot("mia", "sensible") == BotSpec("sensible")
    assert parse_bot("mia", "bot:random") == BotSpec("random")
    assert check_bot("yatzy", " bot:optimal ") == "optimal"


@pyspiel_missing
def test_settings_are_read_and_written_one_way_in_the_bots_order():
    spec = parse_bot("liars_dice", "bot:ismcts:ms=30:sims=0050")
    assert spec == BotSpec("ismcts", (("sims", 50), ("ms", 30)))
    assert str(spec) == "ismcts:sims=50:ms=30"
    assert check_bot("liars_dice", "ismcts:sims=1000000") == "ismcts:sims=1000000"


@pyspiel_missing
@pytest.mark.parametrize(("text", "english"), [
    ("nosuch", "no bot 'nosuch' for liars_dice"),
    ("strong:sims=5", "bot:strong takes no settings, not 'sims=5'"),
    ("ismcts:depth=3", "bot:ismcts has no setting 'depth' (settings: sims, ms)"),
    ("ismcts:sims=1", "sims is a whole number from 2 to 1000000, not '1'"),
    ("ismcts:sims=1000001", "not '1000001'"),
    ("ismcts:sims=10**9", "not '10**9'"),
    ("ismcts:sims=-5", "not '-5'"),
    ("ismcts:sims=", "not ''"),
    ("ismcts:sims", "not ''"),
    ("ismcts:sims=" + "9" * 5000, "sims is a whole number from 2 to 1000000"),
    ("ismcts:ms=60001", "ms is a whole number from 1 to 60000"),
    ("ismcts:sims=5:sims=6", "bot:ismcts: sims is given twice"),
    ("ismcts:", "has no setting ''"),
])
def test_a_bad_name_is_refused_with_the_reason(text, english):
    assert english in str(refusal("liars_dice", text))


@pyspiel_missing
def test_the_refusals_speak_swedish_and_danish():
    error = refusal("liars_dice", "ismcts:sims=0")
    assert translate(error, "sv") == ("bot:ismcts: sims är ett heltal från 2 till 1000000, "
                                      "inte '0'")
    assert translate(error, "da") == ("bot:ismcts: sims er et helt tal fra 2 til 1000000, "
                                      "ikke '0'")
    assert "ingen inställning 'depth'" in translate(refusal("liars_dice", "ismcts:depth=1"),
                                                    "sv")
    assert "ingen indstillinger" in translate(refusal("mia", "sensible:x=1"), "da")


@pyspiel_missing
def test_a_server_caps_the_budget_and_says_the_cap():
    assert check_bot("liars_dice", "ismcts:sims=200:ms=250", capped=True) == \
        "ismcts:sims=200:ms=250"
    error = refusal("liars_dice", "ismcts:sims=1000000", capped=True)
    assert str(error) == "on this server bot:ismcts plays with sims up to 200, not 1000000"
    assert translate(error, "sv") == ("på den här servern spelar bot:ismcts med sims upp "
                                      "till 200, inte 1000000")
    assert "ms op til 250" in translate(refusal("liars_dice", "ismcts:ms=5000", capped=True),
                                        "da")


@pyspiel_missing
def test_the_simulations_a_name_gives_are_the_simulations_searched():
    perudo = load("liars_dice", preset="perudo", players=2)
    few, more = make_bot(perudo, "ismcts:sims=3"), make_bot(perudo, "bot:ismcts:sims=11")
    for bot in (few, more):
        play_out(Table(perudo, seats=["a", "b"]), [bot, make_bot(perudo, "strong")],
                 random.Random(4))
    assert few.searched and set(few.searched) == {3}
    assert more.searched and set(more.searched) == {11}
    assert make_bot(perudo, "ismcts").simulations == DEFAULT_SIMULATIONS == 100


@pyspiel_missing
def test_a_time_budget_ends_each_search_long_before_its_simulations():
    perudo = load("liars_dice", preset="perudo", players=2)
    bot = make_bot(perudo, "ismcts:ms=1")  # a time alone: simulations up to a million
    assert bot.simulations == 1_000_000
    play_out(Table(perudo, seats=["a", "b"]), [bot, make_bot(perudo, "strong")],
             random.Random(5))
    assert bot.searched and all(1 <= done < 1_000_000 for done in bot.searched)


@pyspiel_missing
def test_the_command_line_seats_and_refuses_bots_by_the_same_grammar():
    assert Seat.parse("bot:ismcts:sims=40", "mia") == Seat("bot:ismcts:sims=40",
                                                           "ismcts:sims=40")
    result = runner.invoke(app, ["simulate", "liars_dice", "--preset", "perudo", "--players",
                                 "bot:ismcts:sims=5,bot:random", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    names = [row["player"] for row in json.loads(result.output)["results"]]
    assert names == ["bot:ismcts:sims=5", "bot:random"]
    bad = runner.invoke(app, ["--lang", "da", "simulate", "mia", "--players",
                              "bot:ismcts:sims=0,bot:random", "--games", "1"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output + bad.stderr
    assert "sims er et helt tal fra 2 til 1000000, ikke '0'" in bad.stderr


@pyspiel_missing
def test_a_ladder_may_rate_two_budgets_of_one_bot():
    assert chosen_bots("poker_dice", "ismcts:sims=9,random,bot:ismcts:sims=3,ismcts:sims=09") \
        == ["random", "ismcts:sims=9", "ismcts:sims=3"]
    result = runner.invoke(app, ["ladder", "poker_dice", "--bots", "ismcts:sims=4,random",
                                 "--games", "2", "--seed", "3", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["bots"] == ["random", "ismcts:sims=4"]
    assert data["command"].startswith("kastkopp ladder poker_dice --bots random,ismcts:sims=4 ")
    bad = runner.invoke(app, ["ladder", "poker_dice", "--bots", "random,ismcts:sims=x"])
    assert bad.exit_code != 0 and "sims is a whole number" in bad.stderr


def test_every_bot_of_every_game_has_a_label_in_each_language():
    from kastkopp.games import registered
    from kastkopp.strategy import bot_label, bot_offers

    for game in registered():
        for offer in bot_offers(game):
            labels = {lang: bot_label(game, offer, lang) for lang in ("en", "sv", "da")}
            assert not any(label.startswith("bot:") for label in labels.values()), offer
            assert labels["sv"] != labels["en"] and labels["da"] != labels["en"], labels


@pyspiel_missing
def test_a_label_says_the_budget_a_name_gives():
    from kastkopp.strategy import bot_label

    assert bot_label("liars_dice", "ismcts:sims=200", "sv") == \
        "Sökande (IS-MCTS), 200 simuleringar per drag"
    assert bot_label("mia", "bot:ismcts:ms=30:sims=50", "da") == \
        "Søgende (IS-MCTS), 50 simuleringer pr. træk, højst 30 ms pr. træk"
    assert bot_label("mia", "ismcts", "en") == "Searching (IS-MCTS)"

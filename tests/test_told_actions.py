"""Actions told back in the player's language, in words the game reads as the same action.

A Swedish or Danish player who types ``knacka`` or ``tvivla`` sees the moves told in those
words, in the legal list and in what the others did; so every action, told in each language,
must read back as itself.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.games import load, registered

runner = CliRunner()


@pytest.mark.parametrize("lang", ["sv", "da"])
@pytest.mark.parametrize("game", sorted(registered()))
def test_every_action_told_in_a_language_reads_back_as_itself(game, lang):
    rules = registered()[game]
    for preset in [None, *rules.rules_class.PRESETS]:
        played = load(game, preset=preset, players=rules.min_players)
        for action in played.all_actions():
            told = played.told_action(str(action), lang)
            assert played.parse_action(told) == action, (preset, str(action), told)


def test_english_actions_are_told_as_they_are_written():
    knack = load("knack", players=2)
    assert all(knack.told_action(str(a), "en") == str(a) for a in knack.all_actions())


@pytest.mark.parametrize(("lang", "knock", "english"), [("sv", "knacka", "knock"),
                                                        ("da", "bank", "knock")])
def test_a_knack_player_sees_the_moves_in_their_own_words(lang, knock, english):
    result = runner.invoke(app, ["--lang", lang, "play", "knack", "--players", "Anna,bot",
                                 "--seed", "2"], input=f"{knock}\n" * 4 + "quit\n")
    legal = [line for line in result.output.splitlines() if "knock" in line or knock in line]
    assert any(knock in line for line in legal), result.output
    assert not any(f" {english}" in line or f":{english}" in line for line in legal), legal


@pytest.mark.parametrize(("lang", "doubt"), [("sv", "tvivla"), ("da", "tvivl")])
def test_a_liar_dice_player_is_told_a_doubt_in_their_own_words(lang, doubt):
    result = runner.invoke(app, ["--lang", lang, "play", "poker_dice", "--players",
                                 "Anna,bot", "--seed", "2"],
                           input="announce 2K 2Q 9\n" + f"{doubt}\n" + "quit\n")
    assert doubt in result.output
    assert "doubt" not in result.output

"""Every round told at the terminal, to every person at the table, in words.

A terminal game is read back as a transcript: each round's call, what the cups showed and
counted, and who lost what, including rounds played only by bots and rounds a person ended.
"""

from __future__ import annotations

import random
import re

from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.cli.support import console
from kastkopp.cli.terminal import Narrator
from kastkopp.dice import SeededDice
from kastkopp.engine import Table, play_out
from kastkopp.games import load
from kastkopp.strategy import make_bot

runner = CliRunner()


def play(*args: str, input: str) -> str:
    result = runner.invoke(app, ["play", *args], input=input)
    assert result.exit_code in (0, 1), result.output
    return result.output


def test_a_perudo_round_a_person_ends_is_told_with_its_count_cups_and_loser():
    out = play("liars_dice", "--preset", "perudo", "--players", "Anna,bot,bot", "--seed", "3",
               input="3x5\ndudo\nquit\n")
    flat = re.sub(r"\s+", " ", out)
    assert ("Last round: Anna called dudo on bot:strong 2's 4x4: there were 3 — bot:strong 2 "
            "lost 1 die.") in flat
    assert "Cups: Anna: 1 3 5 5 6 · bot:strong: 2 2 3 3 6 · bot:strong 2: 3 4 4 5 6" in flat
    # told before the next round's first bid, not only to the first to act in it
    assert out.index("Anna called dudo") < out.index("bot:strong 2: bid 6x5")


def test_every_round_of_a_perudo_game_is_told_even_after_the_person_is_out(tmp_path):
    log = tmp_path / "game.json"
    # Anna calls dudo whenever she may (and bids the least when she must open)
    out = play("liars_dice", "--preset", "perudo", "--players", "Anna,bot,bot", "--seed", "5",
               "--log", str(log), input="dudo\n1x2\n" * 400)
    flat = re.sub(r"\s+", " ", out)
    table = Table.loads(log.read_text())
    final = table.state.view(None)
    rounds = final["round"] - 1
    assert rounds >= 10  # Anna is out early; the bots play on
    # the board at each round's start tells how the round before ended; the final board
    # tells the last one
    opened_with_a_result = set()
    for match in re.finditer(r"Round (\d+) ·", flat):
        board = flat[match.end():].split("Round ", 1)[0]
        if "Last round:" in board:
            opened_with_a_result.add(int(match.group(1)))
    assert opened_with_a_result == set(range(2, rounds + 1))
    assert re.search(rf"After {rounds} rounds .*Last round: ", flat)
    out_round = final["out_round"][0]
    assert out_round is not None and out_round + 1 < rounds  # Anna went out before the end
    bots_only = [m for m in re.findall(r"Last round: (.*?)\.", flat) if "Anna" not in m]
    assert len(bots_only) >= rounds - out_round - 1
    assert all(re.match(r"bot:strong(?: 2)? called (dudo|calza) on bot:strong(?: 2)?'s "
                        r"\d+x\d: there (was|were) \d+ — bot:strong(?: 2)? (lost|won)", m)
               for m in bots_only)


def test_a_mia_double_loss_is_told_with_its_reason():
    out = play("mia", "--players", "Anna,bot,bot", "--seed", "1", input="21\ncall\n" * 300)
    flat = re.sub(r"\s+", " ", out)
    assert "lost 2 lives — Slosch counts double" in flat
    assert re.search(r"bot:sensible(?: 2)? lifted the cup on bot:sensible(?: 2)?'s \w+: "
                     r"it was \w+ — bot:sensible(?: 2)? lost 1 life", flat)


def test_in_the_hot_seat_each_person_is_told_what_happened_since_their_turn():
    out = play("mia", "--players", "Anna,Ben,bot:random", "--seed", "1",
               input="\n21\n\ncall\n" * 200)
    assert "Since your last turn:" in out
    part = out[out.index("Since your last turn:"):]
    assert re.search(r"(Anna|Ben|bot:random): (announce|roll|call|pass)", part)


def test_a_poker_menteur_pick_up_is_told_without_its_dice():
    game = load("poker_dice")
    told = []
    for seed in range(6):
        table = Table(game, seats=["Anna", "bot"], dice=SeededDice(seed))
        narrator = Narrator(table, people=[], hot_seat=False)
        with console.capture() as captured:
            play_out(table, [make_bot(game, "random")] * 2, random.Random(seed),
                     on_action=narrator)
        told += captured.get().splitlines()
    pick_ups = [line for line in told if ": reroll" in line]
    assert pick_ups
    assert all(re.fullmatch(r"(Anna|bot): reroll (1 die|[2-5] dice)", line) for line in pick_ups)


def test_yatzy_asks_before_writing_0_where_another_row_scores():
    # seed 1's first throw; "score yatzy" writes 0 unless it is a yatzy
    out = play("yatzy", "--players", "Anna", "--seed", "1",
               input="score yatzy\nn\nquit\n")
    assert "Write it? [y/N]" in out
    assert re.search(r"score yatzy scores 0 here \(instead: \w[\w-]* \d+", out)
    # refused: the prompt asks again, and nothing was written
    after = out[out.index("Write it?"):]
    assert "Anna:" in after and "scored" not in after


def test_at_the_end_a_lone_person_sees_their_own_linka_die():
    out = play("linka", "--players", "Anna,bot", "--seed", "2", input="fold\n" * 5 + "call\n" * 20)
    end = out[out.index("Game over"):]
    anna = next(line for line in end.splitlines() if line.strip().startswith("Anna:"))
    assert "?" not in anna


def test_a_slosch_round_is_told_in_swedish():
    result = runner.invoke(app, ["--lang", "sv", "play", "mia", "--players", "Anna,bot",
                                 "--seed", "1"], input="21\ncall\n" * 30)
    flat = re.sub(r"\s+", " ", result.output)
    assert ("Förra omgången: bot:sensible lyfte koppen på Annas Slosch: det var 64 — Anna "
            "förlorade 2 liv — Slosch räknas dubbelt.") in flat
    assert "Omgång 2 · pott 2 Liv: Anna ♥, bot:sensible ♥♥♥" in flat
    assert "Spelet är slut" in flat


def test_a_perudo_round_is_told_in_danish():
    result = runner.invoke(app, ["play", "liars_dice", "--preset", "perudo", "--players",
                                 "Anna,bot,bot", "--seed", "3"], input="3x5\ndudo\nquit\n",
                           env={"LANG": "da_DK.UTF-8", "LC_ALL": ""})
    flat = re.sub(r"\s+", " ", result.output)
    assert ("Sidste runde: Anna sagde dudo til bot:strong 2s 4x4: der var 3 — bot:strong 2 "
            "mistede 1 terning.") in flat
    assert "Bægrene: Anna: 1 3 5 5 6 · bot:strong: 2 2 3 3 6" in flat
    assert "Runde 2 · 14 terninger på bordet · ettere er jokere" in flat


def test_knack_and_linka_boards_in_swedish():
    knack = runner.invoke(app, ["--lang", "sv", "play", "knack", "--players", "Anna,bot",
                                "--seed", "2"], input="fold\n" * 6).output
    assert "Kast 5 · bot:strong vann potten på 2" in knack and "betalat 1, 99 kvar" in knack
    linka = runner.invoke(app, ["--lang", "sv", "play", "linka", "--players", "Anna,bot",
                                "--seed", "2"], input="fold\n" * 5).output
    assert re.search(r"Linka [1-6] [1-6] · pott \d+", linka) and "lagt sig" in linka


def test_a_liar_dice_board_in_danish():
    out = runner.invoke(app, ["--lang", "da", "play", "poker_dice", "--players", "Anna,bot",
                              "--seed", "2"], input="quit\n").output
    assert "Løgner terninger · pokerterninger 9-A" in out and "Anna melder først." in out
    assert "Kast: Anna 1/3, bot:strong 1/3" in out

"""The server imports its bots before it plays: a first table of a game's bots, of any
size or preset, then imports nothing while a crowd plays (an import holds the
interpreter for as long as it takes, up to a second for the liar's-dice bots)."""

from __future__ import annotations

import subprocess
import sys

SEAT_EVERY_BOT = """
import sys
from kastkopp.server import load_bots
load_bots()
before = set(sys.modules)
from kastkopp.games import load, registered
from kastkopp.strategy import bot_names, make_bot
for name, cls in registered().items():
    for preset in [None, *cls.rules_class.PRESETS]:
        for players in (2, 3, 6, 10):
            try:
                game = load(name, preset=preset, players=players)
            except Exception:
                continue  # not a size this game is played at
            for bot in bot_names(name):
                make_bot(game, bot)
print(sorted(set(sys.modules) - before))
"""


def test_after_the_start_no_bot_of_any_game_imports_anything():
    done = subprocess.run([sys.executable, "-c", SEAT_EVERY_BOT], capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"

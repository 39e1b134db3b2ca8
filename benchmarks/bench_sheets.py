"""Reading a sheet file: the batched check against checking one change at a time.

    .venv/bin/python benchmarks/bench_sheets.py [REPEATS]

Every ``kastkopp sheet`` command reads its file and checks each line as it was made. The
peer replays the changes one by one, deriving the whole sheet after every entry (what
``apply_change`` does for a single new change); ``loads`` checks a run of entries with one
derivation. Both give the same sheet; the table prints milliseconds per read and the ratio.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable

from kastkopp.games.yatzy import YatzyRules
from kastkopp.sheets import Sheet
from kastkopp.sheets import sheetfile as files
from kastkopp.sheets.history import History, apply_change

SEED_CELLS = ["0 1 0", "1 0 0", "0 1 0", "0 0 1", "-1 0 0", "0 1 0", "0 0 1", "0 1 0",
              "0 1 0", "0 - 1", "1 - 0", "0 - 1", "0 - 1"]


def liars() -> History:
    history = History(Sheet.new("liars_dice", ["Anna", "Ben", "Cara"]))
    for cells in SEED_CELLS:
        history = history.do(f"add {cells}")
    return history


def maxi(players: int = 8) -> History:
    names = [f"P{i + 1}" for i in range(players)]
    history = History(Sheet.new("yatzy", names, preset="maxi"))
    for row in YatzyRules.make("maxi").rows:
        for name in names:
            history = history.do(f"add {name} {row} 1 2 3 4 5 6" if row == "chance"
                                 else f"add {name} {row} -")
    return history


def read(text: str) -> Sheet:
    """A sheet file's text read, its changes applied together."""
    return files.loads(text).sheet


def one_by_one(history: History) -> Sheet:
    sheet = history.start
    for line in history.changes:
        sheet, _ = apply_change(sheet, line)
    return sheet


def timed(func: Callable[[], Sheet], repeats: int) -> tuple[float, Sheet]:
    start = time.perf_counter()
    for _ in range(repeats):
        sheet = func()
    return (time.perf_counter() - start) / repeats * 1000, sheet


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"{'sheet':34} {'entries':>7} {'loads ms':>9} {'one by one ms':>14} {'ratio':>6}")
    for title, history in (("seed 003 (liar's dice, 3 players)", liars()),
                           ("Maxi Yatzy, 8 players", maxi())):
        text = files.dumps(history)
        fast, batched = timed(functools.partial(read, text), repeats)
        slow, single = timed(functools.partial(one_by_one, history), repeats)
        assert batched.derive() == single.derive()
        print(f"{title:34} {len(history.changes):7} {fast:9.1f} {slow:14.1f} "
              f"{slow / fast:6.1f}")


if __name__ == "__main__":
    main()

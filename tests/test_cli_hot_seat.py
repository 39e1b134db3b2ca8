"""Hot seat in a real terminal: at a hand-over the previous player's dice are gone, from the
screen and from the scrollback the next player could scroll back through.

The game runs in tmux (a private server socket, a small window so earlier lines scroll
into its history); the whole transcript, history included, is read after each step.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One tmux window running a command; its transcript with the scrollback."""

    def __init__(self, command: list[str]) -> None:
        self.socket = f"kastkopp-test-{os.getpid()}"
        shell = (f"PYTHONPATH={shlex.quote(str(SRC))} TERM=xterm-256color "
                 + shlex.join(command) + "; sleep 60")
        self.tmux("new-session", "-d", "-x", "100", "-y", "8", shell)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True, timeout=10).stdout

    def transcript(self) -> str:
        return self.tmux("capture-pane", "-p", "-S", "-")

    def wait_for(self, text: str, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in (seen := self.transcript()):
                return seen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{self.transcript()}")

    def type(self, keys: str) -> None:
        self.tmux("send-keys", keys, "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=10)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    screen = Terminal([sys.executable, "-c", "from kastkopp.cli import app; app()",
                       "play", "mia", "--players", "Anna,Ben", "--seed", "1"])
    yield screen
    screen.close()


def test_a_hand_over_clears_the_screen_and_the_scrollback(terminal):
    terminal.wait_for("Pass the dice to Anna")
    terminal.type("")
    seen = terminal.wait_for("Anna:")
    dice = next(line for line in seen.splitlines() if line.startswith("Your dice:"))
    terminal.type("21")
    terminal.wait_for("Pass the dice to Ben")
    assert dice in terminal.transcript()  # still there until Ben takes over
    terminal.type("")
    after = terminal.wait_for("Ben:")
    assert "Ben's turn" in after
    assert dice not in after and "Anna's turn" not in after

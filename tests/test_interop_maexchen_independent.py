"""A Mäxchen client written only from the protocol's description — raw sockets, nothing
from kastkopp — playing against ``kastkopp maexchen-server`` started as a separate process.

If kastkopp's server and this client disagree on the protocol (message shapes, tokens, the
order of values), the client loses rounds for reasons it never deserves, and this fails.
"""

from __future__ import annotations

import itertools
import random
import socket
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

ROUNDS = 4

# The order of the Mäxchen rules, lowest first: 31 < ... < 65 < 11 < 22 < ... < 66 < 21.
ORDER = [f"{h},{low}" for h in range(3, 7) for low in range(1, h)]
ORDER += [f"{d},{d}" for d in range(1, 7)] + ["2,1"]


def rank(dice: str) -> int:
    high, low = sorted((int(d) for d in dice.split(",")), reverse=True)
    return ORDER.index(f"{high},{low}")


class RawClient(threading.Thread):
    """Joins every round; rolls unless the claim is already high; announces honestly when
    the dice beat the claim, else the next value above it."""

    def __init__(self, name: str, server: tuple[str, int], spectator: bool = False) -> None:
        super().__init__(daemon=True)
        self.name, self.server, self.spectator = name, server, spectator
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(10)
        self.messages: list[str] = []
        self.rng = random.Random(name)
        self.error: BaseException | None = None

    def send(self, text: str) -> None:
        self.sock.sendto(text.encode("utf-8"), self.server)

    def run(self) -> None:
        try:
            self.play()
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            self.sock.close()

    def play(self) -> None:
        self.send(("REGISTER_SPECTATOR;" if self.spectator else "REGISTER;") + self.name)
        claim = None
        played = 0  # rounds played to their end: a canceled round is scored too
        ended = False
        while played < ROUNDS:
            data, _ = self.sock.recvfrom(4096)
            message = data.decode("utf-8")
            self.messages.append(message)
            fields = message.split(";")
            kind = fields[0]
            if kind == "ROUND STARTING":
                self.send("JOIN;not-a-token")  # a wrong token must be ignored
                self.send(f"JOIN;{fields[1]}")
            elif kind == "ROUND STARTED":
                claim, ended = None, False
            elif kind == "PLAYER LOST":
                ended = True
            elif kind == "ANNOUNCED":
                claim = fields[2]
            elif kind == "YOUR TURN":
                see = claim is not None and rank(claim) >= ORDER.index("6,1") \
                    and self.rng.random() < 0.7
                self.send(f"{'SEE' if see else 'ROLL'};{fields[1]}")
            elif kind == "ROLLED":
                dice, token = fields[1], fields[2]
                if claim is not None and rank(dice) <= rank(claim):
                    dice = ORDER[rank(claim) + 1] if rank(claim) + 1 < len(ORDER) else dice
                self.send(f"ANNOUNCE;{dice};{token}")
            elif kind == "SCORE" and ended:
                played, ended = played + 1, False


def start_server() -> tuple[subprocess.Popen[str], tuple[str, int]]:
    command = [str(Path(sys.executable).with_name("kastkopp")), "maexchen-server",
               "--host", "127.0.0.1", "--port", "0", "--answer-timeout-ms", "500",
               "--rounds", str(ROUNDS), "--seed", "5"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    assert server.stdout is not None
    first = server.stdout.readline()
    address = first.split("udp://")[1].split()[0]
    host, port = address.rsplit(":", 1)
    return server, (host, int(port))


def test_an_independent_client_plays_rounds_on_the_kastkopp_server():
    server, address = start_server()
    try:
        players = [RawClient("raw-anna", address), RawClient("raw-ben", address)]
        watcher = RawClient("raw-watcher", address, spectator=True)
        for client in (watcher, *players):
            client.start()
            # register one after another so that the first round finds everyone
            while not client.messages and client.is_alive():
                threading.Event().wait(0.01)
        for client in (watcher, *players):
            client.join(30)
            assert client.error is None, client.error
    finally:
        try:
            server.wait(10)  # it stops by itself after its rounds
        except subprocess.TimeoutExpired:
            server.kill()
    for client in (*players, watcher):
        assert client.messages[0] == "REGISTERED"
    messages = watcher.messages
    # rounds a lone player was invited to (had the two registered a moment apart) are
    # started, canceled and scored, not played
    started = [m for m in messages if m.startswith("ROUND STARTED;") and "," in m]
    lost = [m.split(";") for m in messages if m.startswith("PLAYER LOST;")]
    scores = [m for previous, m in itertools.pairwise(messages)
              if m.startswith("SCORE;") and previous.startswith("PLAYER LOST;")]
    assert len(started) == len(lost) == len(scores) == ROUNDS
    numbers = [int(message.split(";")[1]) for message in started]
    assert numbers == sorted(numbers)
    for message in started:
        assert sorted(message.split(";")[2].split(",")) == ["raw-anna", "raw-ben"]
    # this client always answers in time, in turn and higher: only the dice decide
    assert {reason for *_, reason in lost} <= {"MIA", "LIED_ABOUT_MIA", "SEE_FAILED",
                                               "CAUGHT_BLUFFING"}
    final = dict(entry.split(":") for entry in scores[-1].split(";")[1].split(","))
    losses = {name: sum(name in names.split(",") for _, names, _ in lost)
              for name in ("raw-anna", "raw-ben")}
    alone = Counter(m.split(";")[2] for m in messages
                    if m.startswith("ROUND STARTED;") and "," not in m)  # a point each
    assert {name: int(points) for name, points in final.items()} == {
        name: ROUNDS - losses[name] + alone[name] for name in losses}
    # every see is answered with the dice, high die first
    for index, message in enumerate(messages):
        if message.startswith("PLAYER WANTS TO SEE;"):
            dice = messages[index + 1].removeprefix("ACTUAL DICE;")
            high, low = (int(d) for d in dice.split(","))
            assert high >= low

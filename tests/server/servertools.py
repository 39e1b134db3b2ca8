"""Helpers for the server's tests: accounts, tables, WebSocket play, server processes."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def guest(client: Any, nickname: str) -> dict[str, str]:
    """Headers of a new guest account."""
    response = client.post("/api/account/guest", json={"nickname": nickname})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def new_table(client: Any, headers: dict[str, str], game: str, players: int,
              seats: list[str | None] | None = None, **extra: Any) -> dict[str, Any]:
    body = {"game": game, "players": players, "seats": seats or [], **extra}
    response = client.post("/api/tables", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


@dataclass
class Frames:
    """Every raw frame one WebSocket client received, in order."""

    raw: list[str] = field(default_factory=list)

    def add(self, text: str) -> dict[str, Any]:
        self.raw.append(text)
        return json.loads(text)


def play_by_websocket(ws: Any, rng: random.Random, frames: Frames,
                      max_frames: int = 20_000) -> dict[str, Any]:
    """Play one seat with random legal actions until the game is over; the last frame.

    Like any careful client it acts at most once on each position (sequence number).
    """
    acted = -1
    for _ in range(max_frames):
        frame = frames.add(ws.receive_text())
        if frame["type"] == "error":
            raise AssertionError(frame)
        if frame["type"] != "state":
            continue
        if frame["status"] == "over":
            return frame
        if frame["legal"] and frame["seq"] > acted:
            acted = frame["seq"]
            ws.send_text(json.dumps({"action": rng.choice(frame["legal"]),
                                     "seq": frame["seq"]}))
    raise AssertionError("the game did not end")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    """``python -m kastkopp.server`` in a child process, on a free loopback port."""

    db: str
    redis: str | None = None
    port: int = field(default_factory=free_port)
    log_level: str = "warning"
    log: Path | None = None  # where the server's log lines go (else the test's stderr)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        # no warm-up: the standard Yatzy tables are no test's business here
        command = [sys.executable, "-m", "kastkopp.server", "--port", str(self.port),
                   "--db", self.db, "--log-level", self.log_level, "--no-warm-up",
                   "--bot-delay", "0"]
        if self.redis:
            command += ["--redis", self.redis]
        output = None if self.log is None else self.log.open("ab")
        self.process = subprocess.Popen(command, stdout=output, stderr=output)
        if output is not None:
            output.close()  # the child has its own copy
        import httpx

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        raise RuntimeError("the server did not answer within 30 s")

    def kill(self) -> None:
        """kill -9: no shutdown, no flushing, nothing."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

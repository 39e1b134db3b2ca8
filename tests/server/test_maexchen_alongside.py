"""`kastkopp serve --maexchen`: the Mäxchen UDP server runs for the web app's lifetime."""

from __future__ import annotations

import socket
from pathlib import Path

from fastapi.testclient import TestClient

from kastkopp.server.app import create_app


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_maexchen_server_answers_while_the_web_app_runs(tmp_path: Path) -> None:
    port = free_udp_port()
    app = create_app(str(tmp_path / "kastkopp.db"), maexchen=("127.0.0.1", port))
    with TestClient(app) as client, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as bot:
        assert client.get("/api/games").status_code == 200
        bot.settimeout(5)
        bot.sendto(b"REGISTER;webbot", ("127.0.0.1", port))
        answer, _ = bot.recvfrom(1024)
        assert answer.decode() == "REGISTERED"
        bot.sendto(b"REGISTER;not a name", ("127.0.0.1", port))
        assert bot.recvfrom(1024)[0].decode() == "REJECTED;INVALID_NAME"

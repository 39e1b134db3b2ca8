"""Rounds played on the Mäxchen server are watch-only tables of the web server.

Bots play over loopback UDP; a spectator follows the round on the table's WebSocket; the
log the web server stored is the round the Mäxchen server played, and it verifies.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kastkopp.engine import Table, verify_log
from kastkopp.interop.maexchen import MaexchenClient
from kastkopp.interop.maexchen_web import SOURCE
from kastkopp.server.app import create_app


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Bot:
    """A player the test moves by hand, over a raw UDP socket."""

    def __init__(self, name: str, server: tuple[str, int]) -> None:
        self.name, self.server = name, server
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(10)
        self.send(f"REGISTER;{name}")
        assert self.expect("REGISTERED") == ["REGISTERED"]

    def send(self, text: str) -> None:
        self.sock.sendto(text.encode(), self.server)

    def expect(self, command: str) -> list[str]:
        """The fields of the next message with this command (others are skipped)."""
        while True:
            fields = self.sock.recvfrom(4096)[0].decode().split(";")
            if fields[0] == command:
                return fields

    def join(self) -> None:
        self.send(f"JOIN;{self.expect('ROUND STARTING')[1]}")


@pytest.fixture
def answer_timeout() -> float:
    """Short, for the tests where a player stays silent; a test may ask for another."""
    return 0.5


@pytest.fixture
def app_with_maexchen(db_url: str, answer_timeout: float) -> Any:
    """The web server on SQLite and on PostgreSQL, a Mäxchen server alongside."""
    port = free_udp_port()
    app = create_app(db_url, maexchen=("127.0.0.1", port), maexchen_timeout=answer_timeout)
    with TestClient(app) as client:
        # the first page rendered takes seconds on a busy machine: not while a bot's turn
        # runs against the answer timeout
        assert client.get("/lobby").status_code == 200
        yield client, ("127.0.0.1", port)


def hosted_table(client: TestClient, number: int) -> str:
    """The id of the table showing Mäxchen round ``number``, once the hub has it."""
    tables = client.app.state.maexchen_tables  # type: ignore[attr-defined]
    client.portal.call(tables.idle)  # type: ignore[union-attr]
    table_id = tables.table_id(number)
    assert table_id is not None
    return str(table_id)


# The first player's turn runs while the test reads the lobby and the table page: on a busy
# machine that took longer than a short answer timeout, and the round was lost by silence.
@pytest.mark.parametrize("answer_timeout", [15.0])
def test_a_spectator_watches_a_maexchen_round_move_by_move(app_with_maexchen: Any) -> None:
    client, address = app_with_maexchen
    ann, bob = Bot("ann", address), Bot("bob", address)
    ann.join()
    bob.join()
    started = ann.expect("ROUND STARTED")
    number, order = int(started[1]), started[2].split(",")
    first, second = (ann, bob) if order[0] == "ann" else (bob, ann)

    table_id = hosted_table(client, number)
    listed = client.get("/api/tables", params={"status": "playing"}).json()
    summary = next(t for t in listed if t["id"] == table_id)
    assert summary["source"] == SOURCE and summary["game"] == "mia"
    assert summary["preset"] == "maexchen"
    assert [s["name"] for s in summary["seats"]] == order
    assert SOURCE in client.get("/lobby").text
    assert client.get(f"/play/{table_id}").status_code == 200

    with client.websocket_connect(f"/api/tables/{table_id}/ws") as spectator:
        frame = spectator.receive_json()
        assert frame["seat"] is None and frame["legal"] == [] and frame["source"] == SOURCE
        assert "your_dice" not in frame["view"]  # a spectator never sees the cup

        first.send(f"ROLL;{first.expect('YOUR TURN')[1]}")
        token = first.expect("ROLLED")[2]
        first.send(f"ANNOUNCE;5,4;{token}")
        frame = spectator.receive_json()
        assert frame["view"]["claim"] == "54"
        assert frame["view"]["history"] == [{"seat": 0, "action": "announce 54"}]

        # a watcher cannot play a Mäxchen seat
        spectator.send_json({"action": "call", "seq": frame["seq"]})
        assert spectator.receive_json()["type"] == "error"

        second.send(f"SEE;{second.expect('YOUR TURN')[1]}")
        dice = second.expect("ACTUAL DICE")[1]
        lost = second.expect("PLAYER LOST")
        frame = spectator.receive_json()
        assert frame["status"] == "over"
        assert frame["view"]["last_round"]["dice"] == str(int(dice.replace(",", "")))
        loser = order.index(lost[1])
        assert frame["outcome"]["scores"][loser] == 0.0
        assert frame["outcome"]["scores"][1 - loser] == 1.0

    log = client.get(f"/api/tables/{table_id}/log").json()
    assert [e.get("action") for e in log["events"] if e["type"] == "action"] == [
        "announce 54", "call"]
    assert verify_log(log) == []
    played = client.app.state.maexchen.tables[-1].table  # type: ignore[attr-defined]
    assert log["events"] == played.to_json()["events"]
    assert client.get(f"/replay/{table_id}").status_code == 200


def test_a_round_lost_by_silence_is_stored_as_a_penalty(app_with_maexchen: Any) -> None:
    client, address = app_with_maexchen
    ann, bob = Bot("ann", address), Bot("bob", address)
    ann.join()
    bob.join()
    started = ann.expect("ROUND STARTED")
    number, order = int(started[1]), started[2].split(",")
    first, second = (ann, bob) if order[0] == "ann" else (bob, ann)
    first.send(f"ROLL;{first.expect('YOUR TURN')[1]}")
    first.send(f"ANNOUNCE;6,6;{first.expect('ROLLED')[2]}")
    second.expect("YOUR TURN")  # and no answer
    lost = ann.expect("PLAYER LOST")
    assert lost[1:] == [second.name, "DID_NOT_TAKE_TURN"]

    table_id = hosted_table(client, number)
    log = client.get(f"/api/tables/{table_id}/log").json()
    assert log["events"][-1] == {"seq": len(log["events"]) - 1, "type": "penalty",
                                 "seat": 1, "reason": "DID_NOT_TAKE_TURN"}
    assert verify_log(log) == []
    replayed = Table.from_json(log).state
    assert replayed.is_over() and replayed.outcome().scores == (1.0, 0.0)
    assert replayed.view(None)["last_round"]["penalty"] == "DID_NOT_TAKE_TURN"
    assert replayed.view(None)["last_round"]["dice"] is None  # the cup was never lifted
    steps = client.get(f"/api/tables/{table_id}/replay").json()["steps"]
    assert steps[-1]["views"][0]["last_round"]["penalty"] == "DID_NOT_TAKE_TURN"
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "over" and summary["outcome"]["scores"] == [1.0, 0.0]
    # the Mäxchen rounds stay out of the web server's own statistics
    assert client.get("/api/ratings/mia").json() == []


def test_kastkopp_bots_play_rounds_that_are_all_stored_and_verify(
        app_with_maexchen: Any) -> None:
    client, address = app_with_maexchen
    rounds = 6
    errors: list[BaseException] = []

    def play() -> None:
        async def main() -> None:
            bots = [MaexchenClient("sensible", strategy="sensible", seed=1),
                    MaexchenClient("chaos", strategy="random", seed=2)]
            for bot in bots:
                await bot.connect(*address)
            await asyncio.wait_for(asyncio.gather(*(b.run(rounds) for b in bots)), 30)
            for bot in bots:
                bot.close()
        try:
            asyncio.run(main())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=play)
    thread.start()
    thread.join(60)
    assert not errors, errors
    server = client.app.state.maexchen  # type: ignore[attr-defined]
    played = list(server.tables)
    assert len(played) >= rounds
    for result in played[:rounds]:
        table_id = hosted_table(client, result.number)
        log = client.get(f"/api/tables/{table_id}/log").json()
        assert log["events"] == result.table.to_json()["events"]
        assert log["seats"] == result.players
        assert verify_log(log) == [], result.reason


def test_a_round_cut_short_by_a_restart_is_closed_once_it_has_been_idle(
        tmp_path: Any) -> None:
    db = str(tmp_path / "kastkopp.db")
    port = free_udp_port()
    # nobody answers: a long answer time keeps the round in play while it is read (a
    # busy machine took longer than the default quarter second); closing ends it at once
    with TestClient(create_app(db, maexchen=("127.0.0.1", port),
                               maexchen_timeout=30.0)) as client:
        ann, bob = Bot("ann", ("127.0.0.1", port)), Bot("bob", ("127.0.0.1", port))
        ann.join()
        bob.join()
        table_id = hosted_table(client, int(ann.expect("ROUND STARTED")[1]))
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    with TestClient(create_app(db, maexchen=("127.0.0.1", port))) as client:
        tables = client.app.state.maexchen_tables  # type: ignore[attr-defined]
        # a minute without a move: until then it might be another server's live round
        assert client.portal.call(tables.close_stale) == []  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        assert client.portal.call(tables.close_stale, 0.0) == [table_id]  # type: ignore[union-attr]
        summary = client.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "over" and summary["outcome"] is None
        assert table_id not in {t["id"] for t in client.get(
            "/api/tables", params={"status": "playing"}).json()}

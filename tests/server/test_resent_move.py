"""A move committed whose answer was lost (the process that committed it died, the socket
broke) and that its client sends again, the same action for the same ``seq``, is
acknowledged as that move, once; anything else at a passed ``seq`` is still refused.

Two hubs on one database are two server processes: the one that committed the move, and
the one its client reaches next (holding the table from before that commit, or reading it
afresh). The real case, a server process killed with ``kill -9`` between the commit and the
acknowledgement, is played with server processes at the end.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from servertools import ServerProcess, guest, new_table
from sqlalchemy import select

from kastkopp.engine import NotYourTurn, StaleAction
from kastkopp.server import accounts
from kastkopp.server.app import create_app
from kastkopp.server.hub import Hub
from kastkopp.store import Account, LogEvent, Store


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    made = Store(db_url)
    made.migrate()
    yield made
    made.dispose()


def stored(store: Store, table_id: str) -> list[tuple[int, str, int | None, str | None]]:
    """The table's log as the database holds it: (seq, kind, seat, action)."""
    with store.session() as session:
        return [(e.seq, e.kind, e.seat, e.action) for e in session.scalars(
            select(LogEvent).where(LogEvent.table_id == table_id).order_by(LogEvent.seq))]


async def table_against_a_bot(hub: Hub, anna: Account) -> str:
    """A Mia table, Anna against a bot that answers in the same commit as her moves;
    returned once it is Anna's turn."""
    table_id = await asyncio.to_thread(hub.create, anna, "mia", None, {"lives": 9}, 2,
                                       [None, "bot:random"], "none", None, "move", None, True)
    await hub.start(table_id, anna, seed="a")
    live = await hub.get(table_id)
    for _ in range(100):  # the bot may move first, by itself
        if live.to_move() == 0:
            return table_id
        await asyncio.sleep(0.01)
    raise AssertionError("it never became Anna's turn")


def people(store: Store, *names: str) -> list[Account]:
    with store.session() as session:
        return [accounts.guest(session, name) for name in names]


@pytest.mark.parametrize("reached", ["holding the table from before", "reading it afresh"])
def test_a_move_committed_but_not_acknowledged_sent_again_is_acknowledged_once(
        store: Store, reached: str):
    [anna] = people(store, "Anna")

    async def run() -> None:
        died, next_one = Hub(store), Hub(store)  # no announcements: the first "dies"
        try:
            table_id = await table_against_a_bot(died, anna)
            if reached == "holding the table from before":
                await next_one.get(table_id)
            live = await died.get(table_id)
            seq, action = live.seq, live.frame(0)["legal"][0]
            lost = await died.act(table_id, anna.id, action, seq)  # its answer never came
            log = stored(store, table_id)
            assert len(log) == lost > seq + 1  # the bot's answer was in the same commit
            again = await next_one.act(table_id, anna.id, f" {action} ", seq)
            assert again == lost
            assert stored(store, table_id) == log  # nothing written again
            assert log[seq][1:] == ("action", 0, action)
            # the process reached holds the position after the move, and play goes on there
            held = await next_one.get(table_id)
            assert held.seq == lost and held.to_move() == 0
            moved = await next_one.act(table_id, anna.id, held.frame(0)["legal"][0], lost)
            assert moved == len(stored(store, table_id)) > lost
        finally:
            await died.close()
            await next_one.close()

    asyncio.run(run())


def test_a_different_move_or_another_seat_at_that_seq_is_still_refused(store: Store):
    anna, bo, cecilia = people(store, "Anna", "Bo", "Cecilia")

    async def run() -> None:
        died, next_one = Hub(store), Hub(store)
        try:
            table_id = await asyncio.to_thread(died.create, anna, "mia", None, {"lives": 9},
                                               2, [None, None], "none", None, "move", None,
                                               True)
            await died.join(table_id, bo, None, seed="b")
            await died.start(table_id, anna, seed="a")
            live = await died.get(table_id)
            mover, other = (anna, bo) if live.to_move() == 0 else (bo, anna)
            seat = live.to_move()
            assert seat is not None
            seq, legal = live.seq, live.frame(seat)["legal"]
            await next_one.get(table_id)  # holds the position before the move
            await died.act(table_id, mover.id, legal[0], seq)
            log = stored(store, table_id)
            refusals = []
            for hub in (next_one, died):  # after a write that lost, and at once
                for account, action in [(mover, legal[-1]), (mover, "no such move"),
                                        (other, legal[0]), (other, "no such move")]:
                    with pytest.raises(StaleAction) as refused:
                        await hub.act(table_id, account.id, action, seq)
                    refusals.append((hub, account.id, action, str(refused.value)))
                with pytest.raises(NotYourTurn, match="no seat"):  # a spectator's copy
                    await hub.act(table_id, cecilia.id, legal[0], seq)
            assert legal[-1] != legal[0]
            assert stored(store, table_id) == log
            # The other seat sending the mover's very action learns no more than with
            # anything else: the same refusal, word for word.
            said = {(hub, who, action): text for hub, who, action, text in refusals}
            for hub in (next_one, died):
                assert said[(hub, other.id, legal[0])] == said[(hub, other.id, "no such move")]
                assert "the table is at" in said[(hub, other.id, legal[0])]
        finally:
            await died.close()
            await next_one.close()

    asyncio.run(run())


def test_a_move_for_a_position_the_process_has_not_heard_of_yet_is_made_after_it_catches_up(
        store: Store):
    """Bo saw Anna's move on the process that made it; the one his move reaches still holds
    the table from before it (its announcement has not come): it reads the log first."""
    anna, bo = people(store, "Anna", "Bo")

    async def run() -> None:
        here, there = Hub(store), Hub(store)
        try:
            table_id = await asyncio.to_thread(here.create, anna, "mia", None, {"lives": 9},
                                               2, [None, None], "none", None, "move", None,
                                               True)
            await here.join(table_id, bo, None, seed="b")
            await here.start(table_id, anna, seed="a")
            live = await here.get(table_id)
            first, second = (anna, bo) if live.to_move() == 0 else (bo, anna)
            behind = await there.get(table_id)
            await here.act(table_id, first.id, live.frame(live.to_move())["legal"][0],
                           live.seq)
            seen = live.frame(live.to_move())
            assert behind.seq < seen["seq"]
            with pytest.raises(StaleAction, match=f"the table is at {seen['seq']}, not 999"):
                await there.act(table_id, second.id, seen["legal"][0], 999)
            assert behind.seq == seen["seq"]  # it caught up, and refused what is no position
            made = await there.act(table_id, second.id, seen["legal"][0], seen["seq"])
            assert made == len(stored(store, table_id)) > seen["seq"]
            assert stored(store, table_id)[seen["seq"]][1:] == (
                "action", seen["seat"], seen["legal"][0])
        finally:
            await here.close()
            await there.close()

    asyncio.run(run())


def test_the_last_move_of_a_game_sent_again_is_acknowledged_not_refused_as_over(
        store: Store):
    [anna] = people(store, "Anna")

    async def run() -> None:
        hub = Hub(store)
        try:
            table_id = await asyncio.to_thread(hub.create, anna, "mia", None, {"lives": 1},
                                               2, [None, "bot:random"], "none", None, "move",
                                               None, True)
            await hub.start(table_id, anna, seed="a")
            live = await hub.get(table_id)
            last: tuple[int, str, int] | None = None
            for _ in range(1000):
                if live.status == "over":
                    break
                if live.to_move() != 0:
                    await asyncio.sleep(0.01)
                    continue
                seq, action = live.seq, live.frame(0)["legal"][-1]
                last = (seq, action, await hub.act(table_id, anna.id, action, seq))
            assert live.status == "over" and last is not None
            seq, action, answer = last
            # the bot answered in the same commit: that one ended the game
            assert answer == live.seq == len(stored(store, table_id))
            assert await hub.act(table_id, anna.id, action, seq) == answer
            assert len(stored(store, table_id)) == answer
        finally:
            await hub.close()

    asyncio.run(run())


def test_a_repeat_over_http_and_over_the_socket_gets_the_first_answer(tmp_path):
    with TestClient(create_app(str(tmp_path / "kastkopp.db"))) as client:
        anna = guest(client, "Anna")
        table_id = new_table(client, anna, "mia", 2, [None, "bot:random"],
                             rules={"lives": 9})["id"]
        assert client.post(f"/api/tables/{table_id}/start", headers=anna,
                           json={"seed": "a"}).status_code == 200
        frame = mine(client, table_id, anna)
        body = {"action": frame["legal"][0], "seq": frame["seq"]}
        first = client.post(f"/api/tables/{table_id}/action", headers=anna, json=body)
        assert first.status_code == 200, first.text
        again = client.post(f"/api/tables/{table_id}/action", headers=anna, json=body)
        assert again.status_code == 200 and again.json() == first.json()
        other = {**body, "action": frame["legal"][-1]}
        assert frame["legal"][-1] != frame["legal"][0]
        refused = client.post(f"/api/tables/{table_id}/action", headers=anna, json=other)
        assert refused.status_code == 409 and refused.json()["code"] == "stale"
        with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
            state = json.loads(ws.receive_text())
            assert state["seq"] == first.json()["seq"]
            for ref in (1, 2):
                ws.send_text(json.dumps({**body, "id": ref}))
                assert json.loads(ws.receive_text()) == {"type": "ack", "id": ref,
                                                         "seq": first.json()["seq"]}
            ws.send_text(json.dumps({**other, "id": 3}))
            answer = json.loads(ws.receive_text())
            assert answer["type"] == "error" and answer["stale"] and answer["id"] == 3
        log = stored(client.app.state.store, table_id)  # type: ignore[attr-defined]
        assert len(log) == first.json()["seq"]
        assert [e for e in log if e[1:3] == ("action", 0)] == [
            (frame["seq"], "action", 0, body["action"])]


def test_a_flood_of_a_move_sent_again_is_refused_unread_like_any_refusal(tmp_path):
    """A repeat plays nothing: a socket that keeps sending one spends its budget of
    refused frames (wire.FrameBudget), as it would with stale actions."""
    with TestClient(create_app(str(tmp_path / "kastkopp.db"))) as client:
        anna = guest(client, "Anna")
        table_id = new_table(client, anna, "mia", 2, [None, "bot:random"],
                             rules={"lives": 9})["id"]
        assert client.post(f"/api/tables/{table_id}/start", headers=anna,
                           json={"seed": "a"}).status_code == 200
        frame = mine(client, table_id, anna)
        body = {"action": frame["legal"][0], "seq": frame["seq"]}
        first = client.post(f"/api/tables/{table_id}/action", headers=anna, json=body).json()
        log = stored(client.app.state.store, table_id)  # type: ignore[attr-defined]
        with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
            assert json.loads(ws.receive_text())["type"] == "state"
            for ref in range(80):
                ws.send_text(json.dumps({**body, "id": ref}))
            replies = [json.loads(ws.receive_text()) for _ in range(80)]
        assert replies[0] == {"type": "ack", "id": 0, "seq": first["seq"]}
        refused = [r for r in replies if r["type"] == "error"]
        assert len(refused) >= 20
        assert all(r["error"].startswith("too many frames refused") for r in refused)
        assert stored(client.app.state.store, table_id) == log  # type: ignore[attr-defined]


def mine(client: Any, table_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """The seat's frame once it is its turn (the bot may move first)."""
    for _ in range(100):
        frame: dict[str, Any] = client.get(f"/api/tables/{table_id}/state",
                                           headers=headers).json()
        if frame["legal"]:
            return frame
        time.sleep(0.01)
    raise AssertionError("it never became the seat's turn")


def test_a_server_killed_between_commit_and_answer_the_move_is_acknowledged_by_the_next(
        db_url, servers):
    """Two server processes on one database. Anna's move goes to the first, which
    commits it; the first is killed (``kill -9``) before she reads any answer; she
    connects to the second, which held the table from before the move, and sends the
    move again: acknowledged, with the position after it, and in the log once."""
    from websockets.sync.client import connect

    first, second = ServerProcess(db_url).start(), ServerProcess(db_url).start()
    servers.extend([first, second])
    anna = guest(httpx.Client(base_url=first.url), "Anna")
    table_id = new_table(httpx.Client(base_url=first.url), anna, "mia", 2,
                         [None, "bot:random"], rules={"lives": 9})["id"]
    assert httpx.post(f"{first.url}/api/tables/{table_id}/start", headers=anna,
                      json={"seed": "a"}).status_code == 200
    frame = mine(httpx.Client(base_url=first.url), table_id, anna)
    # the second holds the table at that position (nobody watches it there)
    assert httpx.get(f"{second.url}/api/tables/{table_id}/state",
                     headers=anna).json()["seq"] == frame["seq"]
    move = json.dumps({"action": frame["legal"][0], "seq": frame["seq"], "id": 7})
    store = Store(db_url)
    try:
        with connect(f"{first.ws_url}/api/tables/{table_id}/ws", additional_headers=anna,
                     open_timeout=10) as ws:
            ws.send(move)
            deadline = time.monotonic() + 10
            while len(stored(store, table_id)) <= frame["seq"]:  # committed
                assert time.monotonic() < deadline
                time.sleep(0.005)
            first.kill()  # before a single frame of its answer was read
        log = stored(store, table_id)
        with connect(f"{second.ws_url}/api/tables/{table_id}/ws", additional_headers=anna,
                     open_timeout=10) as ws:
            json.loads(ws.recv(timeout=10))  # the position it shows (before the move, or after)
            ws.send(move)
            while (answer := json.loads(ws.recv(timeout=10)))["type"] == "state":
                pass  # (the position after the move, once it has caught up)
            assert answer == {"type": "ack", "id": 7, "seq": len(log)}
            assert stored(store, table_id) == log
            assert log[frame["seq"]][1:] == ("action", 0, frame["legal"][0])
            # and she plays on from the position after it
            now = httpx.get(f"{second.url}/api/tables/{table_id}/state", headers=anna).json()
            assert now["seq"] == len(log) and now["legal"]
            ws.send(json.dumps({"action": now["legal"][0], "seq": now["seq"], "id": 8}))
            while (answer := json.loads(ws.recv(timeout=10)))["type"] == "state":
                pass
            assert answer["type"] == "ack" and answer["id"] == 8
        assert len(stored(store, table_id)) == answer["seq"]
    finally:
        store.dispose()


class Relay:
    """A TCP relay in front of one server process, as a proxy is, held in the test's hand:
    :meth:`hold` drops all that the server sends on the connections open then, and
    ``port`` is where new connections go."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.open: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self.held: set[asyncio.StreamWriter] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    def hold(self) -> None:
        self.held.update(client for client, _ in self.open)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream, up = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            writer.close()
            return
        self.open.append((writer, up))

        async def pipe(source: asyncio.StreamReader, to: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    if to not in self.held:
                        to.write(data)
                        await to.drain()
            except OSError:
                pass
            finally:
                to.close()

        await asyncio.gather(pipe(reader, up), pipe(upstream, writer))


def test_the_bot_client_learns_that_its_move_was_made_by_the_process_that_died(
        tmp_path, servers):
    """:class:`kastkopp.server.client.Player` through a relay: its move reaches the first
    process and is committed, the answer never comes back (the relay drops it) and the
    process is killed. The player connects again, reaches the second process, which reads
    the table afresh and shows the position after the move; the player sends the move
    again, and it is acknowledged: the player's record is the log's, and it plays on."""
    from kastkopp.server.client import Player

    db = str(tmp_path / "kastkopp.db")
    first, second = ServerProcess(db).start(), ServerProcess(db).start()
    servers.extend([first, second])
    http = httpx.Client(base_url=first.url)
    anna = guest(http, "Anna")
    table_id = new_table(http, anna, "mia", 2, [None, "bot:random"],
                         rules={"lives": 9})["id"]
    assert http.post(f"/api/tables/{table_id}/start", headers=anna,
                     json={"seed": "a"}).status_code == 200
    store = Store(db)

    async def run() -> tuple[Player, int, str]:
        relay = Relay(first.port)
        port = await relay.start()
        chosen: list[tuple[int, str]] = []

        def choose(frame: dict[str, Any]) -> str:
            if not chosen:
                relay.hold()  # the answer to this move never reaches the player
            chosen.append((frame["seq"], frame["legal"][0]))
            return str(frame["legal"][0])

        player = Player(f"ws://127.0.0.1:{port}", table_id, anna["Authorization"].split()[1],
                        choose)
        playing = asyncio.create_task(player.play())
        deadline = time.monotonic() + 20
        while not chosen or len(await asyncio.to_thread(stored, store, table_id)) <= \
                chosen[0][0]:  # until the move is committed
            assert time.monotonic() < deadline
            await asyncio.sleep(0.005)
        relay.port = second.port
        await asyncio.to_thread(first.kill)
        while len(player.played.acked) < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        player.stop()
        await playing
        relay.server.close()
        return player, *chosen[0]

    try:
        player, seq, action = asyncio.run(run())
        log = stored(store, table_id)
    finally:
        store.dispose()
    assert player.played.refused == []
    assert player.played.acked[0] == (seq, action)
    assert len(player.played.acked) >= 3
    hers = [(s, a) for s, kind, seat, a in log if (kind, seat) == ("action", 0)]
    assert hers[:len(player.played.acked)] == player.played.acked
    assert len(player.played.returns) == 1  # one socket lost, one return

"""Sharing the play sockets out when a server process joins (kastkopp.server.balance)."""

from __future__ import annotations

import asyncio

from kastkopp.server.balance import Balance, PlaySocket, surplus
from kastkopp.server.service.live import Watcher


def test_a_process_keeps_its_share_and_closes_only_a_surplus_worth_a_reconnect():
    assert surplus(200, [0]) == 100
    assert surplus(100, [0, 0]) == 66  # ceil(100 / 3) = 34 stay
    assert surplus(0, [200]) == 0  # the new one closes nothing
    assert surplus(60, [60, 0]) == 20  # each of the two others gives its part
    assert surplus(103, [99]) == 0  # 2 over: not worth their players' reconnects
    assert surplus(104, [98]) == 3


def closes(socket: PlaySocket) -> list[str | None]:
    return [socket.watcher.queue.get_nowait() for _ in range(socket.watcher.queue.qsize())]


def test_hearing_of_a_new_process_closes_the_surplus_after_what_is_queued():
    async def run() -> tuple[list[PlaySocket], Balance]:
        balance = Balance(spread=0.0)
        sockets = [PlaySocket(Watcher(seat=0)) for _ in range(10)]
        for socket in sockets:
            socket.watcher.send("the frame before")
            balance.sockets.add(socket)
        balance.hear("the other", 0)
        await asyncio.sleep(0.05)
        balance.hear("the other", 5)  # known now: nothing more happens
        await asyncio.sleep(0.05)
        return sockets, balance

    sockets, balance = asyncio.run(run())
    leaving = [s for s in sockets if s.leaving]
    assert len(leaving) == balance.closed == 5
    for socket in leaving:  # the close goes after what was queued for the client
        assert closes(socket) == ["the frame before", None]
    for socket in sockets:
        if not socket.leaving:
            assert closes(socket) == ["the frame before"]


def test_a_new_process_is_told_the_tables_shown_here_once():
    async def run() -> list[dict]:
        told: list[dict] = []
        balance = Balance(told.append, spread=0.0)
        for table in ("t1", "t2", "t1"):
            balance.sockets.add(PlaySocket(Watcher(seat=0), table))
        balance.hear("new", 0)
        balance.hear("new", 0)
        await asyncio.sleep(0.01)
        return told

    assert asyncio.run(run()) == [{"shown": ["t1", "t2"], "first": 0, "to": "new"}]


def test_the_tables_of_the_players_sent_are_told_first():
    async def run() -> tuple[list[str], list[str]]:
        told: list[dict] = []
        balance = Balance(told.append, spread=0.0)
        for index in range(10):
            balance.sockets.add(PlaySocket(Watcher(seat=0), f"t{index}"))
        balance.hear("new", 0)
        balance.read("new")  # it has read them
        await asyncio.sleep(0.05)
        sent = [s.table for s in balance.sockets if s.leaving]
        return told[0]["shown"], told[0]["first"], sent

    shown, first, sent = asyncio.run(run())
    assert len(sent) == 5 and sorted(shown) == [f"t{index}" for index in range(10)]
    assert first == 5 and set(shown[:5]) == set(sent)


def test_the_players_are_sent_once_the_new_process_has_read_their_tables():
    """Sent before, they would wait there for their tables' logs to be replayed; if it
    never says so (an older version, a message lost), they are sent after the wait."""
    async def run(says: bool) -> tuple[int, int]:
        balance = Balance(lambda message: None, spread=0.0, read_wait=0.3)
        for index in range(10):
            balance.sockets.add(PlaySocket(Watcher(seat=0), f"t{index}"))
        balance.hear("new", 0)
        await asyncio.sleep(0.1)
        waiting = balance.closed
        if says:
            balance.read("new")
        await asyncio.sleep(0.05)
        return waiting, balance.closed

    assert asyncio.run(run(True)) == (0, 5)
    assert asyncio.run(run(False)) == (0, 0)  # not yet: it waits up to read_wait

    async def unsaid() -> int:
        balance = Balance(lambda message: None, spread=0.0, read_wait=0.1)
        for index in range(10):
            balance.sockets.add(PlaySocket(Watcher(seat=0), f"t{index}"))
        balance.hear("new", 0)
        await asyncio.sleep(0.3)
        return balance.closed

    assert asyncio.run(unsaid()) == 5


def test_a_socket_with_a_move_in_hand_is_closed_by_its_reader_after_the_answer():
    socket = PlaySocket(Watcher(seat=1), in_hand=True)
    socket.leave()
    assert socket.leaving and socket.watcher.queue.empty()
    socket.leave()  # once only
    assert socket.watcher.queue.empty()


def test_a_process_not_heard_from_lately_is_not_counted_and_comes_back_as_new():
    now = [0.0]

    async def run() -> tuple[list[int], list[int], int]:
        balance = Balance(clock=lambda: now[0], spread=0.0)
        for _ in range(6):
            balance.sockets.add(PlaySocket(Watcher(seat=0)))
        balance.hear("old", 6)
        await asyncio.sleep(0.01)
        counted = balance.others()
        now[0] = 10.0  # "old" was killed: it has said nothing for 10 s
        gone = balance.others()
        balance.hear("old", 0)  # it was started again: as good as new
        await asyncio.sleep(0.01)
        return counted, gone, balance.closed

    counted, gone, closed = asyncio.run(run())
    assert counted == [6] and gone == [] and closed == 3


def test_a_stopping_process_shares_nothing_out():
    async def run() -> int:
        balance = Balance(spread=0.0)
        for _ in range(10):
            balance.sockets.add(PlaySocket(Watcher(seat=0)))
        balance.stopped = True
        balance.hear("new", 0)
        await asyncio.sleep(0.01)
        return balance.closed

    assert asyncio.run(run()) == 0

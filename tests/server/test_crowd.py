"""Players coming back all at once (their process died): what the process they reach reads.

Each table asked for at the same moment is read in one batch of queries, each token in
one query; a move's announcement carries its log events, so the processes that show the
table move on without reading the log.
"""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from kastkopp.server import accounts, operations
from kastkopp.server.batched import Batched
from kastkopp.server.deps import accounts_for
from kastkopp.server.hub import Hub, TableNotFound
from kastkopp.store import Account, Store


def test_keys_asked_for_at_once_are_looked_up_in_one_call():
    calls: list[list[int]] = []

    def squares(keys: list[int]) -> dict[int, int]:
        calls.append(sorted(keys))
        return {k: k * k for k in keys if k >= 0}

    async def run() -> list[int | None]:
        batched: Batched[int, int] = Batched(squares)
        return await asyncio.gather(*(batched.get(k) for k in [3, 1, 2, 3, -1]))

    assert asyncio.run(run()) == [9, 1, 4, 9, None]  # a key left out is None
    assert calls == [[-1, 1, 2, 3]]  # one call, each key once


def test_keys_asked_for_during_a_call_make_the_next_one():
    calls: list[list[str]] = []
    inside = threading.Event()
    release = threading.Event()

    def lookup(keys: list[str]) -> dict[str, str]:
        calls.append(sorted(keys))
        if len(calls) == 1:
            inside.set()
            release.wait(10)
        return {k: k.upper() for k in keys}

    async def run() -> list[str | None]:
        batched: Batched[str, str] = Batched(lookup)
        first = asyncio.ensure_future(batched.get("a"))
        await asyncio.to_thread(inside.wait, 10)  # the first call is under way
        later = [asyncio.ensure_future(batched.get(k)) for k in "bcd"]
        await asyncio.sleep(0.05)
        release.set()
        return await asyncio.gather(first, *later)

    assert asyncio.run(run()) == ["A", "B", "C", "D"]
    assert calls == [["a"], ["b", "c", "d"]]


def test_an_error_reaches_every_caller_and_one_giving_up_leaves_the_others_their_answer():
    def failing(keys: list[str]) -> dict[str, str]:
        raise RuntimeError("the database is away")

    def slow(keys: list[str]) -> dict[str, str]:
        threading.Event().wait(0.1)
        return {k: k for k in keys}

    async def run() -> None:
        broken: Batched[str, str] = Batched(failing)
        results = await asyncio.gather(broken.get("a"), broken.get("b"),
                                       return_exceptions=True)
        assert [str(r) for r in results] == ["the database is away"] * 2
        batched: Batched[str, str] = Batched(slow)
        impatient = asyncio.ensure_future(batched.get("x"))
        patient = asyncio.ensure_future(batched.get("x"))
        await asyncio.sleep(0.01)
        impatient.cancel()
        assert await patient == "x"

    asyncio.run(run())


# --------------------------------------------------------------------------- with a hub


def people(store: Store) -> list[tuple[Account, str]]:
    """Two guests and their tokens."""
    with store.session() as session:
        made = [accounts.guest(session, name) for name in ("Anna", "Bo")]
        return [(a, accounts.issue_token(session, a, "api")) for a in made]


async def tables_in_play(hub: Hub, two: list[Account], count: int, moves: int) -> list[str]:
    """``count`` tables of Mia between the two, each a few random moves in."""
    rng = random.Random(5)
    ids = []
    for index in range(count):
        table_id = await asyncio.to_thread(hub.create, two[0], "mia", None, {}, 2,
                                           [None, None], "none", None, "move", None, True)
        await hub.join(table_id, two[1], None, seed=f"b{index}")
        await hub.start(table_id, two[0], seed=f"a{index}")
        for _ in range(moves):
            live = await hub.get(table_id)
            seat = live.to_move()
            if seat is None:
                break
            legal = live.frame(seat)["legal"]
            await hub.act(table_id, two[seat].id, rng.choice(legal), live.seq)
        ids.append(table_id)
    return ids


def frames(live: Any) -> list[dict[str, Any]]:
    return [live.frame(seat) for seat in (0, 1, None)]


@pytest.fixture
def store(tmp_path: Path) -> Any:
    made = Store(str(tmp_path / "kastkopp.db"))
    made.migrate()
    yield made
    made.dispose()


def test_a_crowd_of_tables_and_tokens_is_read_in_one_batch_each(store):
    (anna, anna_token), (bo, bo_token) = people(store)

    async def run() -> None:
        playing, fresh = Hub(store), Hub(store)  # fresh: a process that has just started
        try:
            ids = await tables_in_play(playing, [anna, bo], 12, moves=9)
            loaded = await asyncio.gather(*(fresh.get(t) for t in [*ids, *ids]),
                                          return_exceptions=True)
            assert fresh._loads.calls == 1
            assert all(loaded[i] is loaded[i + len(ids)] for i in range(len(ids)))  # once
            for table_id, live in zip(ids, loaded, strict=False):
                held = await playing.get(table_id)  # (a finished one is read again)
                assert frames(live) == frames(held)
                assert live.last_move_at == pytest.approx(held.last_move_at, abs=1.0)
            with pytest.raises(TableNotFound):
                await fresh.get("nosuchtable")
            tokens: Batched[str, Account] = Batched(lambda t: accounts_for(store, t))
            found = await asyncio.gather(*(tokens.get(t) for t in
                                           [anna_token, bo_token, "not-a-token", ""]))
            assert [a.id if a else None for a in found] == [anna.id, bo.id, None, None]
            assert tokens.calls == 1
        finally:
            playing.writer.close()
            fresh.writer.close()

    asyncio.run(run())


def test_an_announced_move_is_followed_without_the_log_and_a_gap_is_not(store):
    (anna, _), (bo, _) = people(store)

    async def run() -> None:
        told: list[dict[str, Any]] = []
        here, there = Hub(store, publish=told.append), Hub(store)
        try:
            [table_id] = await tables_in_play(here, [anna, bo], 1, moves=2)
            shown = await there.get(table_id)
            before = frames(shown)
            told.clear()
            rng = random.Random(2)
            for _ in range(3):
                live = here.tables[table_id]
                seat = live.to_move()
                await here.act(table_id, [anna, bo][seat].id,
                               rng.choice(live.frame(seat)["legal"]), live.seq)
            announced = [m["events"] for m in told if m["table"] == table_id]
            assert len(announced) == 3 and all(announced)
            # the first announcement missed: the second does not follow on, nothing changes
            assert not operations.follow_announced(shown, announced[1])
            assert frames(shown) == before
            for events in announced:
                assert operations.follow_announced(shown, events)
            assert frames(shown) == frames(here.tables[table_id])
            assert operations.follow_announced(shown, announced[0])  # held already: kept
            assert frames(shown) == frames(here.tables[table_id])
        finally:
            here.writer.close()
            there.writer.close()

    asyncio.run(run())


def test_a_process_told_of_a_move_with_its_events_shows_the_position_it_led_to(store):
    (anna, _), (bo, _) = people(store)

    async def run() -> None:
        told: list[dict[str, Any]] = []
        here, there = Hub(store, publish=told.append), Hub(store)
        try:
            [table_id] = await tables_in_play(here, [anna, bo], 1, moves=1)
            shown = await there.get(table_id)
            watcher = there.watch(shown, 0)
            watcher.queue.get_nowait()  # the frame it starts with
            live = here.tables[table_id]
            seat = live.to_move()
            told.clear()
            await here.act(table_id, [anna, bo][seat].id, live.frame(seat)["legal"][0],
                           live.seq)
            [message] = told
            await there.remote_change(table_id, events=message["events"])
            assert shown.seq == live.seq == message["seq"]
            assert watcher.queue.get_nowait() == shown.frame_text(0)
            assert frames(shown) == frames(live)
        finally:
            here.writer.close()
            there.writer.close()

    asyncio.run(run())


def test_a_table_whose_log_cannot_be_replayed_fails_alone_in_its_batch(store):
    from sqlalchemy import update

    from kastkopp.engine import LogError
    from kastkopp.store import LogEvent

    (anna, _), (bo, _) = people(store)

    async def run() -> None:
        playing, fresh = Hub(store), Hub(store)
        try:
            broken, sound = await tables_in_play(playing, [anna, bo], 2, moves=3)
            with store.session() as session:  # an action the game cannot read
                session.execute(update(LogEvent).where(LogEvent.table_id == broken,
                                                       LogEvent.kind == "action")
                                .values(action="no such move"))
            found = await asyncio.gather(fresh.get(broken), fresh.get(sound),
                                         return_exceptions=True)
            assert fresh._loads.calls == 1
            assert isinstance(found[0], LogError)
            assert frames(found[1]) == frames(await playing.get(sound))
        finally:
            playing.writer.close()
            fresh.writer.close()

    asyncio.run(run())

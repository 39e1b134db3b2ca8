"""The log writer: many tables' moves in one commit, stored as SQLAlchemy would store them,
and a sequence number written twice refused without losing the rest of the batch."""

from __future__ import annotations

import asyncio
import collections
import inspect
import secrets
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select

from kastkopp.dice import BotRandom, bot_rng
from kastkopp.store import GameTable, LogEvent, Store
from kastkopp.store.log_writer import LogWriter, WriteConflict, WriterClosed, _Write


def store_with_tables(url: str, count: int) -> Store:
    store = Store(url)
    store.migrate()
    with store.session() as session:
        for index in range(count):
            session.add(GameTable(id=f"t{index}", game="mia", preset=None, rules={},
                                  players=2, status="playing", owner_id=None,
                                  server_seed="00", seed_sha256="00", client_seed=""))
    return store


def rows(first: int, count: int) -> list[dict]:
    kinds = [{"kind": "roll", "seat": 0, "action": None, "nonce": 3, "faces": [2, 1]},
             {"kind": "action", "seat": 1, "action": "announce 43", "nonce": None,
              "faces": None},
             {"kind": "penalty", "seat": 0, "action": "DID_NOT_TAKE_TURN", "nonce": None,
              "faces": None}]
    return [{"seq": first + i, **kinds[i % 3]} for i in range(count)]


def stored(store: Store, table_id: str) -> list[tuple]:
    with store.session() as session:
        return [(e.seq, e.kind, e.seat, e.action, e.nonce, e.faces)
                for e in session.scalars(select(LogEvent).where(LogEvent.table_id == table_id)
                                         .order_by(LogEvent.seq))]


def test_a_file_and_an_in_memory_database_store_the_same_rows(tmp_path: Path):
    # the file goes straight through the driver, memory through SQLAlchemy
    stores = [store_with_tables(str(tmp_path / "log.db"), 2),
              store_with_tables("sqlite://", 2)]
    for store, direct in zip(stores, (True, False), strict=True):
        writer = LogWriter(store)
        assert (writer._sqlite is not None) == direct
        writer._commit([_Write("t0", rows(0, 5), None, None, None),  # type: ignore[arg-type]
                        _Write("t1", rows(0, 2), None, None, None)])  # type: ignore[arg-type]
        writer.close()
    assert stored(stores[0], "t0") == stored(stores[1], "t0")
    assert stored(stores[0], "t0")[:2] == [(0, "roll", 0, None, 3, [2, 1]),
                                           (1, "action", 1, "announce 43", None, None)]
    assert len(stored(stores[0], "t1")) == 2
    with stores[0].session() as session:
        assert session.scalars(select(LogEvent.at)).first() is not None


def test_a_batch_is_all_or_nothing_even_over_several_statements(tmp_path: Path):
    store = store_with_tables(str(tmp_path / "log.db"), 2)
    writer = LogWriter(store)
    assert writer._sqlite is not None and 8 * writer.rows_per_statement <= \
        writer._sqlite.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    writer.rows_per_statement = 100  # several statements a batch, as with an older SQLite
    many = 2 * writer.rows_per_statement + 10
    writer._commit([_Write("t0", rows(0, many), None, None, None)])  # type: ignore[arg-type]
    assert len(stored(store, "t0")) == many
    # the second statement meets a row that is there already: the first is undone too
    clash = [_Write("t1", rows(0, 2 * writer.rows_per_statement), None, None, None),
             _Write("t0", rows(many - 1, 5), None, None, None)]
    with pytest.raises(Exception, match="UNIQUE"):
        writer._commit(clash)  # type: ignore[arg-type]
    assert stored(store, "t1") == []
    writer._commit([_Write("t1", rows(0, 3), None, None, None)])  # type: ignore[arg-type]
    assert len(stored(store, "t1")) == 3
    writer.close()


def test_a_sequence_number_written_twice_is_a_conflict_and_the_others_are_kept(
        tmp_path: Path):
    store = store_with_tables(str(tmp_path / "log.db"), 3)

    async def main() -> list[object]:
        writer = LogWriter(store)
        await writer.append("t0", rows(0, 2))
        # three writes at once, most likely in one batch: only the one that clashes fails
        results = await asyncio.gather(writer.append("t1", rows(0, 2)),
                                       writer.append("t0", rows(1, 2)),
                                       writer.append("t2", rows(0, 1)),
                                       return_exceptions=True)
        writer.close()
        return results

    first, clash, third = asyncio.run(main())
    assert first is None and third is None and isinstance(clash, WriteConflict)
    assert [row[0] for row in stored(store, "t0")] == [0, 1]
    assert len(stored(store, "t1")) == 2 and len(stored(store, "t2")) == 1


def test_moves_made_just_after_a_commit_began_share_the_next_commit(tmp_path: Path):
    """A disk flush costs as much for one move as for fifty: the writer starts a commit at
    most every ``min_gap`` seconds, so the moves that come in between go together. A
    move after a quiet spell is written at once."""
    store = store_with_tables(str(tmp_path / "log.db"), 4)
    commits: list[float] = []

    async def main() -> tuple[int, int]:
        writer = LogWriter(store, on_flush=commits.append, min_gap=1.0)
        await writer.append("t0", rows(0, 2))  # quiet until now: committed by itself
        alone = len(commits)
        # three tables' moves, a little apart, while that commit is not a second old: one
        # commit for all (each would have had its own, written at once)
        waiting = []
        for i in (1, 2, 3):
            waiting.append(writer.submit(f"t{i}", rows(0, 2)))
            await asyncio.sleep(0.05)
        await asyncio.gather(*waiting)
        writer.close()
        return alone, len(commits)

    assert asyncio.run(main()) == (1, 2)
    assert all(len(stored(store, f"t{i}")) == 2 for i in range(4))


def test_rows_given_to_a_closed_writer_are_refused_not_waited_for(tmp_path: Path):
    store = store_with_tables(str(tmp_path / "log.db"), 1)
    writer = LogWriter(store)

    async def run() -> None:
        writer.close()  # the server stopping
        with pytest.raises(WriterClosed):
            await asyncio.wait_for(writer.append("t0", rows(0, 2)), 10)

    asyncio.run(run())
    assert stored(store, "t0") == []


def test_a_bots_random_choices_come_from_the_tables_secret_seed_not_from_public_facts():
    """An opponent knows the table's id and the move number; the seed stays on the server
    until the game is over. Tables alike in everything public draw unrelated numbers."""
    seeds = [secrets.token_bytes(32) for _ in range(200)]
    firsts = {bot_rng(seed, 12).random() for seed in seeds}
    assert len(firsts) == len(seeds)
    assert "table_id" not in inspect.signature(bot_rng).parameters


def test_the_bots_dice_are_the_same_for_one_position_and_fair():
    assert [bot_rng(b"abc", 7).random() for _ in range(3)] == [bot_rng(b"abc", 7).random()] * 3
    assert bot_rng(b"abc", 7).random() != bot_rng(b"abc", 8).random()
    rng = bot_rng(b"abc", 7)
    assert 0.0 <= rng.random() < 1.0 and rng.randint(1, 6) in range(1, 7)
    assert sorted(rng.sample(range(10), 10)) == list(range(10))
    assert rng.getrandbits(0) == 0 and rng.getrandbits(200) < 2**200
    state = rng.getstate()
    after = [rng.random() for _ in range(3)]
    rng.setstate(state)
    assert [rng.random() for _ in range(3)] == after
    assert BotRandom().random() != BotRandom().random()  # no seed: the system's
    # one choice per position over many positions, as a table's bot makes them
    counts = collections.Counter(bot_rng(b"table", seq).choice("abcdef")
                                 for seq in range(60_000))
    assert all(abs(n - 10_000) < 450 for n in counts.values()), counts  # > 4.5 sigma
    mean = sum(bot_rng(b"t", s).random() for s in range(20_000)) / 20_000
    assert abs(mean - 0.5) < 0.01

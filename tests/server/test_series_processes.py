"""Two processes moving one series on at the same moment make its next table once."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from kastkopp.server import accounts
from kastkopp.server.hub import Hub
from kastkopp.server.series import SeriesRunner
from kastkopp.store import SeriesTable, Store

# slow: starts and stops server processes
pytestmark = pytest.mark.slow


def advance(runner: SeriesRunner, series_id: str, start: threading.Barrier,
            made: list[list[str]]) -> None:
    start.wait()  # both read the series at once
    made.append(runner._advance(series_id))


def test_two_processes_advancing_one_series_make_one_table(postgres_url):
    stores = [Store(postgres_url) for _ in range(2)]
    stores[0].migrate()
    hubs = [Hub(store) for store in stores]
    runners = [SeriesRunner(hub) for hub in hubs]
    try:
        with stores[0].session() as session:
            owner = accounts.guest(session, "Anna")
        for attempt in range(5):
            series_id = runners[0].create(owner, "match", "mia", None, {},
                                          ["bot:random", "bot:random#2"], 3, None)
            made: list[list[str]] = []
            start = threading.Barrier(2)

            threads = [threading.Thread(target=advance, args=(r, series_id, start, made))
                       for r in runners]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            # one made the table; the other may name it too, to begin it once seeds are in
            assert len({table for m in made for table in m}) == 1, attempt
            with stores[1].session() as session:
                links = session.scalars(select(SeriesTable)
                                        .where(SeriesTable.series_id == series_id))
                assert len(list(links)) == 1
    finally:
        for hub in hubs:
            hub.writer.close()
        for store in stores:
            store.dispose()

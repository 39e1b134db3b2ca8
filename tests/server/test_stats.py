"""Ratings are kept between requests and brought up to date with the games finished since,
and they are the same as ratings folded from scratch — also when a game turns up that ended
before the last one rated (another process's clock)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from kastkopp.server.stats import leaderboard, ratings_of
from kastkopp.store import GameTable, Seat, Store

START = datetime(2026, 1, 1, tzinfo=UTC)
BOTS = ["random", "sensible", "cautious", "bold"]


def finish(store: Store, number: int, at: datetime, rng: random.Random) -> None:
    """A finished two-player game between two of the named bots."""
    a, b = rng.sample(BOTS, 2)
    winner = rng.randrange(2)
    table_id = f"t{number:05d}"
    with store.session() as session:
        session.add(GameTable(id=table_id, game="mia", preset=None, rules={}, players=2,
                              status="over", owner_id=None, server_seed="00" * 32,
                              seed_sha256="00" * 32, client_seed=table_id,
                              outcome={"ranking": [[winner], [1 - winner]],
                                       "scores": [0.0, 0.0], "payoffs": [0.0, 0.0]},
                              finished_at=at))
        session.flush()
        session.add_all([Seat(table_id=table_id, seat=0, bot=a),
                         Seat(table_id=table_id, seat=1, bot=b)])


def test_ratings_are_brought_up_to_date_not_folded_again(db_url):
    store = Store(db_url)
    store.migrate()
    rng = random.Random(9)
    for n in range(30):
        finish(store, n, START + timedelta(minutes=n), rng)
    first = leaderboard(store, "mia")
    board = ratings_of(store, "mia")
    assert board.folded == 30 and sum(e["games"] for e in first) == 60
    for n in range(30, 40):
        finish(store, n, START + timedelta(minutes=n), rng)
    again = ratings_of(store, "mia")
    assert again is board and again.folded == 40  # only the ten new games were rated
    assert leaderboard(store, "mia") == leaderboard(Store(db_url), "mia")  # from scratch
    # a game that ended before the last one rated: everything is folded again, in order
    finish(store, 99, START + timedelta(seconds=30), rng)
    late = ratings_of(store, "mia")
    assert late is not board and late.folded == 41
    assert leaderboard(store, "mia") == leaderboard(Store(db_url), "mia")
    store.dispose()

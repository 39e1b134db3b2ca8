"""A site as it is deployed: two server processes behind nginx, on PostgreSQL and Redis.

``scripts/cluster.sh`` starts it all with deploy/'s nginx config. Players are
:class:`kastkopp.server.client.Player`: two people a table, random moves, each with its
own WebSocket through the proxy, so a table's two sockets are often on different
processes. Then server processes are killed (``kill -9``) or stopped (SIGTERM) under them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Iterator

import pytest
from clustertools import Cluster, logs, pairs

from kastkopp.server.client import Player

pytestmark = pytest.mark.cluster

KILLS = 10
CARRY_ON = 2.0  # seconds within which every client plays again after a kill


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")) and \
            os.environ.get("CI") != "true" and os.geteuid() != 0:
        pytest.skip("nginx is not installed (scripts/install-nginx.sh)")
    started = Cluster(servers=2).start()
    try:
        yield started
    finally:
        started.stop()


def check_logs(cluster: Cluster, players: list[Player]) -> dict[str, list[tuple]]:
    """Every acknowledged move is in the log at its place, and no table forked."""
    tables = {p.table for p in players}
    stored = logs(cluster.db, tables)
    for table_id, events in stored.items():
        # one event per (table, seq), and no gap: a single line of play
        assert [e[0] for e in events] == list(range(len(events))), table_id
    for player in players:
        events = stored[player.table]
        for seq, action in player.played.acked:
            assert seq < len(events), (player.table, seq)
            kind, _, stored_action = events[seq][1:]
            assert (kind, stored_action) == ("action", action), (player.table, seq)
        last = player.played.last
        assert last is not None and last["seq"] <= len(events)
    return stored


def test_kill_9_of_a_server_every_few_seconds_loses_no_move_and_no_player(cluster):
    async def run() -> tuple[list[Player], list[float]]:
        players = await pairs(cluster, 100, seed=1)
        tasks = [asyncio.create_task(p.play()) for p in players]
        killed: list[float] = []
        await asyncio.sleep(3)
        for round_ in range(KILLS):
            which = round_ % 2 + 1
            killed.append(time.monotonic())
            await asyncio.to_thread(cluster.run, "kill", str(which))
            await asyncio.to_thread(cluster.run, "serve", str(which))
            await asyncio.sleep(2)
        moves_before_end = [len(p.played.acked) for p in players]
        await asyncio.sleep(3)
        for player in players:
            player.stop()
        await asyncio.gather(*tasks)
        # every client still plays after the last kill: its moves go on being acknowledged
        went_on = [len(p.played.acked) > before
                   for p, before in zip(players, moves_before_end, strict=True)]
        assert sum(went_on) >= len(players) * 0.9, sum(went_on)
        return players, killed

    players, killed = asyncio.run(run())
    assert len(players) == 200
    check_logs(cluster, players)
    returns = [(at, took) for p in players for at, took in p.played.returns]
    # each kill cut off the sockets of the process killed, and every one came back in time
    for at in killed:
        cut = [took for lost, took in returns if at <= lost < at + CARRY_ON]
        assert cut, "a kill cut off no socket"
    slowest = max(took for _, took in returns)
    assert slowest <= CARRY_ON, f"a client waited {slowest:.2f} s to play again"
    assert sum(len(p.played.acked) for p in players) > 1000


def test_a_rolling_restart_with_sigterm_refuses_and_loses_no_move(cluster):
    async def run() -> list[Player]:
        players = await pairs(cluster, 30, seed=2, think=(0.05, 0.15))
        tasks = [asyncio.create_task(p.play()) for p in players]
        await asyncio.sleep(2)
        for which in ("1", "2"):  # one after the other, the site always up
            await asyncio.to_thread(cluster.run, "term", which)
            await asyncio.to_thread(cluster.run, "serve", which)
            await asyncio.sleep(1)
        await asyncio.sleep(1)
        for player in players:
            player.stop()
        await asyncio.gather(*tasks)
        return players

    players = asyncio.run(run())
    assert [r for p in players for r in p.played.refused] == []
    check_logs(cluster, players)
    returns = [took for p in players for _, took in p.played.returns]
    assert returns, "the restarts closed no socket"
    assert max(returns) <= CARRY_ON
    assert all(p.played.acked for p in players)

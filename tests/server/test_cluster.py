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
from collections.abc import Callable, Iterator

import pytest
from clustertools import Cluster, logs, pairs, waited

from kastkopp.server.client import Player

pytestmark = pytest.mark.cluster

KILLS = 10
CARRY_ON = 2.0  # seconds: a kill counts the sockets cut off within this much of it
TARGET = 2.0  # seconds: the site's target, every client plays again within it of a kill
# The process left sends some of its players to the one started again
# (kastkopp.server.balance), so a kill cuts off about half of the 200 clients, never all of
# them: at most SHARE_CUT of them in all the kills together (before that sharing out: 100 +
# 9 x 200). Every client is back within the target: those a kill cut off, after every
# kill whatever the process left waited for a CPU, and those then sent on to the process
# started again (once it has read their tables: before that handshake they waited there
# for those reads, up to 2.03 s in a fresh clone's CI run). The message gives each kill's
# spread with the time the process left waited for a CPU; docs/deploy.md has the figures,
# and bench_cluster --kills the same measurement.
SHARE_CUT = 0.65 * 200 * KILLS


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


def spread(returns: list[tuple[float, float]]) -> str:
    """How long the clients took to play again: the median, the 99th percentile, the most."""
    took = sorted(t for _, t in returns)
    return (f"{len(took)} returns: p50 {took[len(took) // 2]:.2f} s, "
            f"p99 {took[int(0.99 * (len(took) - 1))]:.2f} s, max {took[-1]:.2f} s "
            f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def test_kill_9_of_a_server_every_few_seconds_loses_no_move_and_no_player(cluster):
    killed: list[float] = []
    served: list[float] = []  # when each process killed was started again
    # after each kill: seconds the process left waited for a CPU, in how many seconds
    starved: list[tuple[float, float]] = []

    async def run() -> list[Player]:
        players = await pairs(cluster, 100, seed=1)
        tasks = [asyncio.create_task(p.play()) for p in players]
        await asyncio.sleep(3)
        for round_ in range(KILLS):
            which = round_ % 2 + 1
            left = cluster.pids()[2 - which]
            killed.append(time.monotonic())
            before = waited(left)
            await asyncio.to_thread(cluster.run, "kill", str(which))
            await asyncio.sleep(CARRY_ON)
            starved.append((waited(left) - before, time.monotonic() - killed[-1]))
            served.append(time.monotonic())
            await asyncio.to_thread(cluster.run, "serve", str(which))
            await asyncio.sleep(2)
        # every client still plays after the last kill: its moves go on being acknowledged
        before = [len(p.played.acked) for p in players]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(
                len(p.played.acked) == n for p, n in zip(players, before, strict=True)):
            await asyncio.sleep(0.2)
        for player in players:
            player.stop()
        await asyncio.gather(*tasks)
        stuck = [p.table for p, n in zip(players, before, strict=True)
                 if len(p.played.acked) == n]
        assert stuck == [], f"{len(stuck)} clients made no move after the last kill"
        return players

    players = asyncio.run(run())
    assert len(players) == 200
    check_logs(cluster, players)
    returns = [(at, took) for p in players for at, took in p.played.returns]
    # each kill cut off the sockets of the process killed, and every one came back in time
    report = [spread(returns)]
    ends = [*killed[1:], float("inf")]
    for at, start, end, (waiting, window) in zip(killed, served, ends, starved, strict=True):
        cut = sorted(took for lost, took in returns if at <= lost < at + CARRY_ON)
        assert cut, "a kill cut off no socket"
        moved = sorted(took for lost, took in returns if start <= lost < end)
        report.append(f"{len(cut)} cut off: p50 {cut[len(cut) // 2]:.2f} s, max {cut[-1]:.2f} "
                      f"s, within {TARGET:.0f} s {sum(t <= TARGET for t in cut)}; the process "
                      f"left waited {waiting:.1f} s for a CPU (its threads together) in the "
                      f"{window:.1f} s after the kill; then {len(moved)} sent to the process "
                      f"started again, max {max(moved or [0]):.2f} s")
    message = "\n".join(report)
    cut = [[took for lost, took in returns if at <= lost < at + CARRY_ON] for at in killed]
    assert sum(map(len, cut)) <= SHARE_CUT, message
    assert max(took for _, took in returns) <= TARGET, message
    print(message)
    assert sum(len(p.played.acked) for p in players) > 1000


def test_a_process_started_again_is_given_its_share_of_the_players(cluster):
    """After a kill the process left holds every socket; once the other is started again
    it closes half of them (1012), a few at a time, and their players come back through
    the proxy to the new process: no move refused or lost on the way. The new process
    reads every table the other shows, whose players would come to it next."""
    async def until(done: Callable[[list[int]], bool],
                    gauge: str = "kastkopp_open_sockets") -> list[int]:
        """The processes' ``gauge`` once ``done`` with it, or after 10 s."""
        deadline = time.monotonic() + 10
        while True:
            counts = await asyncio.to_thread(cluster.gauge, gauge)
            if done(counts) or time.monotonic() > deadline:
                return counts
            await asyncio.sleep(0.2)

    async def run() -> tuple[list[Player], list[int], list[int], float, list[int]]:
        players = await pairs(cluster, 20, seed=3, think=(0.05, 0.15))
        tasks = [asyncio.create_task(p.play()) for p in players]
        await asyncio.sleep(2)
        await asyncio.to_thread(cluster.run, "kill", "1")
        alone = await until(lambda counts: counts[1] == 40)
        refused = sum(len(p.played.refused) for p in players)
        started = time.monotonic()
        await asyncio.to_thread(cluster.run, "serve", "1")
        shared = await until(lambda counts: min(counts) >= 15 and sum(counts) == 40)
        # and it read every table the other shows, not only those of the players sent
        tables = await until(lambda counts: counts[0] >= 20, "kastkopp_tables_in_memory")
        await asyncio.sleep(1)  # they play on where they are
        for player in players:
            player.stop()
        await asyncio.gather(*tasks)
        assert sum(len(p.played.refused) for p in players) == refused
        return players, alone, shared, started, tables

    players, alone, shared, started, tables = asyncio.run(run())
    assert alone == [0, 40]
    assert tables[0] == 20, tables
    assert min(shared) >= 15 and sum(shared) == 40, shared
    check_logs(cluster, players)
    moved = [took for p in players for lost, took in p.played.returns if lost >= started]
    assert 15 <= len(moved) <= 25, len(moved)
    assert max(moved) <= TARGET, spread([(0.0, took) for took in moved])
    assert all(p.played.acked for p in players)


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
    returns = [(at, took) for p in players for at, took in p.played.returns]
    assert returns, "the restarts closed no socket"
    assert max(took for _, took in returns) <= TARGET, spread(returns)
    print(spread(returns))
    assert all(p.played.acked for p in players)


def test_the_table_page_carries_on_through_a_rolling_restart(cluster):
    """A person in Chromium at a Yatzy table while both processes are restarted in turn:
    the page reconnects by itself through the proxy, shows no error, and plays on."""
    from test_web_play import ARGS, CHROMIUM, create_table, sit

    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium: run scripts/install-chromium.sh")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=ARGS)
        try:
            anna = sit(browser, cluster.url, "Anna")
            sockets: list[object] = []
            anna.page.on("websocket", lambda socket: sockets.append(socket))
            create_table(anna, "yatzy", [], players=1)
            anna.page.click("#start")
            anna.wait("document.body.dataset.mine === 'yes'")
            anna.page.click("#roll")
            anna.wait("document.body.dataset.mine === 'yes' && +document.body.dataset.seq > 1")
            sheet = anna.page.locator("#sheet").inner_text()
            opened = len(sockets)
            for which in ("1", "2"):
                cluster.run("term", which)
                cluster.run("serve", which)
            anna.wait("document.body.dataset.connected === 'yes' && "
                      "document.body.dataset.mine === 'yes'")
            assert len(sockets) > opened  # its socket was closed, and it opened another
            assert anna.page.locator("#sheet").inner_text() == sheet
            seq = int(anna.page.evaluate("document.body.dataset.seq"))
            anna.page.click("#sheet button[data-action='score chance']")
            anna.wait("seq => +document.body.dataset.seq > seq", seq)  # the move was made
            assert not [f for f in anna.frames if f.get("type") == "error"]
            assert not anna.errors
        finally:
            browser.close()

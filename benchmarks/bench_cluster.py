"""The site behind nginx with one server process, then with two, side by side in one run.

Each configuration is started fresh by ``scripts/cluster.sh`` (PostgreSQL, Redis, the
server processes, nginx with ``deploy/nginx``). Pairs of players
(:class:`kastkopp.server.client.Player`, two people a table, random moves, each socket
through the proxy) play for a fixed time; each move is timed from sending it to its
acknowledgement, which a server sends only after the move is committed to PostgreSQL.

Printed for each: acknowledged moves per second, p50/p99/max, the CPU each server process
used per acknowledged move (from ``/proc``), the cores and load average before and after;
and the ratio of two processes to one, the peer measured in the same run. The players run
in this process (one event loop) and take CPU from the same cores; so do nginx, PostgreSQL
and Redis.

With ``--kills N``, two processes only: one is killed with ``kill -9`` and started again,
then the other, N times, while the players play; printed for each kill, how long its
clients took to play again (from the socket breaking to the first frame on a new one),
with the CPU the other process used and the time it waited for a CPU meanwhile (from
``/proc``); then all returns against the peer, a move's acknowledgement in the same run,
and the moves refused and those acknowledged as made when sent again.

Usage (bounded: at most 300 tables, 120 s, 20 kills)::

    python benchmarks/bench_cluster.py --tables 50 --seconds 20
    python benchmarks/bench_cluster.py --tables 10 --seconds 5      # a quick look
    python benchmarks/bench_cluster.py --tables 25 --kills 6 --think 0.3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from clustertools import Cluster, cpu_seconds, pairs, waited

# moves sent again, found in the log and acknowledged as made (each process's own count)
AGAIN = "kastkopp_moves_acknowledged_again_total"


@dataclass
class Result:
    servers: int
    moves: int
    seconds: float
    latencies: list[float]
    cpu: list[float]  # per server process, seconds over the measurement
    load: tuple[str, str]

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    def line(self) -> str:
        per_move = "  ".join(f"{1e3 * c / max(1, self.moves):.2f}" for c in self.cpu)
        return (f"{self.servers:>9}  {self.rate:>8.0f}  {1e3 * self.quantile(0.5):>7.1f}  "
                f"{1e3 * self.quantile(0.99):>7.1f}  {1e3 * max(self.latencies or [0]):>7.1f}"
                f"  {per_move:<14}  {self.load[0]} -> {self.load[1]}")


async def measure(cluster: Cluster, tables: int, seconds: float, think: float) -> Result:
    players = await pairs(cluster, tables, seed=7, think=(think, think))
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.sleep(2)  # every socket open and playing
    pids = cluster.pids()
    counted = [len(p.played.acked) for p in players]
    cpu = [cpu_seconds(pid) for pid in pids]
    load = os.getloadavg()[0]
    started = time.monotonic()
    await asyncio.sleep(seconds)
    took = time.monotonic() - started
    used = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
    moves = sum(len(p.played.acked) - n for p, n in zip(players, counted, strict=True))
    latencies = [s for p, n in zip(players, counted, strict=True)
                 for s in p.played.ack_seconds[n:]]
    after = os.getloadavg()[0]
    for player in players:
        player.stop()
    await asyncio.gather(*tasks)
    return Result(len(pids), moves, took, latencies, used, (f"{load:.1f}", f"{after:.1f}"))


async def failover(cluster: Cluster, tables: int, kills: int, think: float) -> str:
    """Kill -9 one server process, start it again, the other next: ``kills`` times. Each
    client's return is timed from its socket breaking to its first frame on a new one.
    The returns a kill caused (sockets lost before the process was started again) are
    told apart from those after the start: the sockets the other process closed for the
    new one's share (:mod:`kastkopp.server.balance`). Moves sent again whose first sending
    had been committed (by a process killed before it answered) are counted from each
    process's ``/metrics``, the killed one's just before its kill."""
    players = await pairs(cluster, tables, seed=11, think=(think, think))
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.sleep(2)
    # (killed at, started again at, what the process left did meanwhile)
    kills_at: list[tuple[float, float, str]] = []
    again = 0
    for round_ in range(kills):
        which = round_ % 2 + 1
        again += (await asyncio.to_thread(cluster.gauge, AGAIN))[which - 1]
        survivor = cluster.pids()[2 - which]
        before, load = (waited(survivor), cpu_seconds(survivor)), os.getloadavg()[0]
        at = time.monotonic()
        await asyncio.to_thread(cluster.run, "kill", str(which))
        await asyncio.sleep(3)
        note = (f"the other process used {cpu_seconds(survivor) - before[1]:.2f} s of CPU "
                f"in 3 s and waited {waited(survivor) - before[0]:.2f} s for one; load "
                f"{load:.1f}")
        restarted = time.monotonic()
        await asyncio.to_thread(cluster.run, "serve", str(which))
        await asyncio.sleep(1)
        kills_at.append((at, restarted, note))
    again += sum(await asyncio.to_thread(cluster.gauge, AGAIN))
    for player in players:
        player.stop()
    await asyncio.gather(*tasks)
    lines = []
    ends = [at for at, _, _ in kills_at[1:]] + [time.monotonic()]
    for index, ((at, restarted, note), end) in enumerate(zip(kills_at, ends, strict=True)):
        took = sorted(t for p in players for lost, t in p.played.returns
                      if at <= lost < restarted)
        moved = sorted(t for p in players for lost, t in p.played.returns
                       if restarted <= lost < end)
        lines.append(f"kill {index + 1}: {len(took)} returns, p50 {quantile(took, 0.5):.2f} s,"
                     f" max {max(took or [0]):.2f} s; {note}; then {len(moved)} sent to the "
                     f"process started again, max {max(moved or [0]):.2f} s")
    took = sorted(t for p in players for _, t in p.played.returns)
    moves = sorted(s for p in players for s in p.played.ack_seconds)
    refused = sum(len(p.played.refused) for p in players)
    lines.append(f"all {len(took)} returns: p50 {quantile(took, 0.5):.2f} s, p99 "
                 f"{quantile(took, 0.99):.2f} s, max {max(took or [0]):.2f} s; a move's "
                 f"acknowledgement (the peer) p99 {quantile(moves, 0.99):.2f} s: returns p99 "
                 f"/ moves p99 {quantile(took, 0.99) / max(quantile(moves, 0.99), 1e-9):.1f}x"
                 f"; {refused} moves refused, {again} sent again and acknowledged as made "
                 f"(found in the log)")
    return "\n".join(lines)


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of two players")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player waits before each move (0: at once)")
    parser.add_argument("--kills", type=int, default=0,
                        help="instead: kill -9 a process this many times (at most 20) and "
                             "time each client's return")
    args = parser.parse_args()
    if not 1 <= args.tables <= 300 or not 1 <= args.seconds <= 120 or \
            not 0 <= args.kills <= 20:
        parser.error("at most 300 tables, 120 seconds and 20 kills")
    if args.kills:
        cluster = Cluster(servers=2).start()
        try:
            report = asyncio.run(failover(cluster, args.tables, args.kills, args.think))
        finally:
            cluster.stop()
        print(f"{2 * args.tables} players at {args.tables} tables through nginx, two "
              f"processes, one killed with kill -9 {args.kills} times; "
              f"{os.cpu_count()} cores")
        print(report)
        return
    results = []
    for servers in (1, 2):
        cluster = Cluster(servers=servers).start()
        try:
            results.append(asyncio.run(measure(cluster, args.tables, args.seconds,
                                               args.think)))
        finally:
            cluster.stop()
    print(f"{2 * args.tables} players at {args.tables} tables through nginx, "
          f"{args.seconds:.0f} s each; {os.cpu_count()} cores")
    print("processes  moves/s  p50 ms   p99 ms   max ms   CPU ms/move each  load avg")
    for result in results:
        print(result.line())
    one, two = results
    print(f"two processes / one: {two.rate / max(one.rate, 1e-9):.2f}x the moves a second, "
          f"p99 {two.quantile(0.99) / max(one.quantile(0.99), 1e-9):.2f}x")


if __name__ == "__main__":
    main()

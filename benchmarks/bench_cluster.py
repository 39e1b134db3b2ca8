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

Usage (bounded: at most 300 tables, 120 s)::

    python benchmarks/bench_cluster.py --tables 50 --seconds 20
    python benchmarks/bench_cluster.py --tables 10 --seconds 5      # a quick look
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

from clustertools import Cluster, pairs

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of two players")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player waits before each move (0: at once)")
    args = parser.parse_args()
    if not 1 <= args.tables <= 300 or not 1 <= args.seconds <= 120:
        parser.error("at most 300 tables and 120 seconds")
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

"""Load benchmark of the game server: many WebSocket clients playing against bots.

It starts ``python -m kastkopp.server`` on a fresh SQLite file (WAL, ``synchronous=FULL``:
every acknowledged move is on disk) on the loopback interface, gives every client a guest
account and a table of its own against a bot, connects them all, and then lets every
client play random legal moves for a fixed time. Each move is timed from sending it to
its acknowledgement (which the server sends only after the move is committed).

Printed: acknowledged client moves per second, p50/p99/max latency, the server's resident
memory, and the ratio against a peer measured in the same run — the same games played
in-process by the engine alone (no network, no database), the ceiling for one core.

Usage (bounded: at most 2000 clients, 120 s; loopback only)::

    python benchmarks/bench_server.py --clients 1000 --seconds 20 --rate 2000
    python benchmarks/bench_server.py --clients 1000 --seconds 20 --rate 0   # saturate
    python benchmarks/bench_server.py --clients 50 --seconds 5      # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from kastkopp.dice import SeededDice
from kastkopp.engine import Table, load
from kastkopp.strategy import make_bot

HOST = "127.0.0.1"  # loopback only
GAME = {"game": "mia", "preset": "maexchen", "players": 2, "rules": {"rounds": 1000},
        "seats": [None, "bot:random"]}
MAX_CLIENTS = 2000
MAX_SECONDS = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16384)), hard))


def rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of a process in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def engine_peer(seconds: float = 2.0) -> float:
    """Moves per second of the same game in-process: engine and bots, nothing else."""
    game = load("mia", preset="maexchen", players=2, rounds=1000)
    bot = make_bot(game, "random")
    rng = random.Random(0)
    moves, start = 0, time.perf_counter()
    table = Table(game, dice=SeededDice(0))
    while time.perf_counter() - start < seconds:
        if table.state.is_over():
            table = Table(game, dice=SeededDice(moves))
        seat = table.state.to_move()
        assert seat is not None
        action = bot.choose(table.state.view(seat), table.state.legal_actions(), rng)
        table.act(seat, action)
        moves += 1
    # a client move in the benchmark brings about one bot move: count pairs
    return moves / 2 / (time.perf_counter() - start)


async def setup_client(http: httpx.AsyncClient, gate: asyncio.Semaphore,
                       index: int) -> tuple[str, str]:
    async with gate:
        response = await http.post("/api/account/guest", json={"nickname": f"load{index}"})
        token = response.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        table = (await http.post("/api/tables", json=GAME, headers=headers)).json()
        await http.post(f"/api/tables/{table['id']}/start", json={}, headers=headers)
        return token, table["id"]


async def play(url: str, connected: asyncio.Event, go: asyncio.Event, stop_at: list[float],
               latencies: list[float], counts: list[int], seed: int,
               interval: float) -> None:
    """One client: on its turn it waits for its next slot (every ``interval`` seconds,
    0 = at once), sends a random legal move with the sequence number it saw, and times
    the acknowledgement."""
    rng = random.Random(seed)
    async with websockets.connect(url, max_queue=None, open_timeout=60,
                                  ping_interval=None) as ws:
        connected.set()
        latest: dict | None = None
        sent_at: float | None = None
        acted_on = -1
        await go.wait()
        slot = time.perf_counter() + rng.random() * interval
        while time.perf_counter() < stop_at[0]:
            if sent_at is None and latest is not None and latest["legal"] and \
                    latest["seq"] != acted_on:
                wait = slot - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                slot = max(slot + interval, time.perf_counter())
                acted_on = latest["seq"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"action": rng.choice(latest["legal"]),
                                          "seq": latest["seq"]}))
            try:
                text = await asyncio.wait_for(ws.recv(), stop_at[0] - time.perf_counter())
            except TimeoutError:
                break
            frame = json.loads(text)
            if frame["type"] == "state":
                latest = frame
                if frame["status"] == "over":
                    break
            elif frame["type"] == "ack":
                if sent_at is not None:
                    latencies.append(time.perf_counter() - sent_at)
                    counts[0] += 1
                sent_at = None
            elif frame["type"] == "error":
                counts[1] += 1
                sent_at = None


async def run(clients: int, seconds: float, rate: float) -> dict:
    port = free_port()
    folder = tempfile.mkdtemp(prefix="kastkopp-bench-")
    db = str(Path(folder) / "bench.db")
    server = subprocess.Popen([sys.executable, "-m", "kastkopp.server", "--host", HOST,
                               "--port", str(port), "--db", db, "--log-level", "error"])
    base = f"http://{HOST}:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(300):
                try:
                    if (await http.get("/api/games")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            gate = asyncio.Semaphore(16)
            started = time.perf_counter()
            seats = await asyncio.gather(*(setup_client(http, gate, i)
                                           for i in range(clients)))
            setup = time.perf_counter() - started
        latencies: list[float] = []
        counts = [0, 0]
        go = asyncio.Event()
        stop_at = [float("inf")]
        events = [asyncio.Event() for _ in seats]
        tasks = [asyncio.create_task(play(
            f"ws://{HOST}:{port}/api/tables/{table}/ws?token={token}", event, go, stop_at,
            latencies, counts, i, clients / rate if rate else 0.0))
            for i, ((token, table), event) in
            enumerate(zip(seats, events, strict=True))]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 120)
        connected_rss = rss_mb(server.pid)
        server_cpu = cpu_seconds(server.pid)
        client_cpu = time.process_time()
        begin = time.perf_counter()
        stop_at[0] = begin + seconds
        go.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - begin
        current, peak = rss_mb(server.pid)
        server_cpu = cpu_seconds(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies.sort()
    return {"clients": clients, "offered_moves_per_second": rate or None,
            "seconds": round(elapsed, 2), "setup_seconds": round(setup, 1),
            "moves": counts[0], "errors": counts[1],
            "moves_per_second": round(counts[0] / elapsed, 1),
            "p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2)
            if latencies else None,
            "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
            "server_cpu_share": round(server_cpu / elapsed, 2),
            "clients_cpu_share": round(client_cpu / elapsed, 2),
            "load_average": round(os.getloadavg()[0], 2),
            "server_rss_mb_connected": round(connected_rss[0], 1),
            "server_rss_mb": round(current, 1), "server_peak_rss_mb": round(peak, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=2000.0,
                        help="moves per second the clients offer together (0: as fast as "
                        "the server answers)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    clients = max(1, min(args.clients, MAX_CLIENTS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    raise_file_limit()
    result = asyncio.run(run(clients, seconds, max(0.0, args.rate)))
    peer = engine_peer()
    result["engine_alone_moves_per_second"] = round(peer, 1)
    result["ratio_to_engine_alone"] = round(result["moves_per_second"] / peer, 3)
    if args.json:
        print(json.dumps(result))
        return
    offered = f"{args.rate:g} moves/s offered" if args.rate else "as fast as answered"
    print(f"{result['clients']} WebSocket clients, each at a table against a bot "
          f"(mia/maexchen), {offered}, SQLite WAL synchronous=FULL, {result['seconds']} s")
    print(f"  acknowledged moves/s: {result['moves_per_second']}  "
          f"({result['moves']} moves, {result['errors']} refused)")
    print(f"  latency send→ack: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
          f"max {result['max_ms']} ms")
    print(f"  CPU: server {result['server_cpu_share']:.0%} of a core, clients "
          f"{result['clients_cpu_share']:.0%}; machine load average {result['load_average']}")
    print(f"  server memory: {result['server_rss_mb_connected']} MB with all connected, "
          f"peak {result['server_peak_rss_mb']} MB")
    print(f"  peer, engine alone in-process (no network, no database): "
          f"{result['engine_alone_moves_per_second']} moves/s — the server reaches "
          f"{result['ratio_to_engine_alone']:.1%} of it")


if __name__ == "__main__":
    main()

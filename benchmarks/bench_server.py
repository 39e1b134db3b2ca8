"""Load benchmark of the game server: many WebSocket clients playing against bots.

It starts ``python -m kastkopp.server`` on a fresh SQLite file (WAL, ``synchronous=FULL``:
every acknowledged move is on disk) on the loopback interface, gives every client a guest
account and a table of its own against a bot, connects them all, and then lets every
client play random legal moves for a fixed time. Each move is timed from sending it to
its acknowledgement (which the server sends only after the move is committed).

The clients run in processes of their own (``--client-processes``), on uvloop, doing as
little per frame as a client can (parse it, pick a legal action), so that the load
generator does not take the server's CPU. The hostile guests (below) run in a process of
their own too. All of them stand for other machines: on the cores they share with the
server here they run at niceness 10 (``--generator-nice``; 0 runs them at the server's
priority, where on two cores they take turns the server would have had).

Printed: acknowledged client moves per second (over the time the clients play),
p50/p99/max latency, the CPU the server and the clients used, the machine's cores and
load average before and after, the time the server's threads waited for a CPU, how many
moves waited over 50 and 250 ms for their commit and how many of the log writer's batches
took that long to write and commit (the server's own ``kastkopp_commit_seconds`` and
``kastkopp_log_flush_seconds``: a slow disk shows in both, a writer kept from its turn in
the first only, a slow event loop in neither), the server's resident memory, and the
ratio against a peer measured in the same run — the same games played in-process by the
engine alone (no network, no database), the ceiling for one core.
With ``--runs 3`` every figure is also given as the median of the runs.

Hostile load during the measurement (each switch alone or together), so that what one
guest can do to everybody else is measured:

- ``--hostile-solve``: a guest keeps asking for a Yatzy house rule set nobody has solved
  (a Tärningspoker table with a new ``yatzy_score``, started with the guest's seed, the
  optimal bot to move first), a new one as soon as that bot has moved (its rule set
  solved, or its cheap choice played while the solve goes on or is refused), and when its
  new rule sets are used up (``--new-rules-limit``) it asks again every 0.2 s;
- ``--hostile-bots``: a table of ten strong liar's-dice bots plays (a new one when it ends);
- ``--hostile-logins``: 40 connections at once keep logging in with a wrong password.

The server's worker processes (the solves) are counted apart from the server.

Usage (bounded: at most 2000 clients, 120 s, 5 runs; loopback only)::

    python benchmarks/bench_server.py --clients 1000 --seconds 20 --rate 2000 --runs 3
    python benchmarks/bench_server.py --clients 1000 --seconds 20 --rate 0   # saturate
    python benchmarks/bench_server.py --clients 50 --seconds 5      # a quick look
    python benchmarks/bench_server.py --clients 1000 --seconds 20 --rate 2000 --runs 3 \
        --hostile-solve                                                # and one guest solving
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

from kastkopp.dice import SeededDice
from kastkopp.engine import Table
from kastkopp.games import load
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


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def waited_for_cpu(pid: int) -> dict[str, float]:
    """Seconds each thread of a process has so far been ready to run and waited for a CPU
    (the run queue): what other work on the same cores cost it."""
    found = {}
    for thread in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found[thread.name] = int((thread / "schedstat").read_text().split()[1]) / 1e9
    return found


def children_cpu(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of each child process of ``pid`` (the workers)."""
    found = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / tick
    return found


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
    """A guest with a started table against a bot; its WebSocket's path and its token. A connection
    the server closed as idle just as it was reused is tried again."""
    for attempt in range(3):
        try:
            return await setup_one(http, gate, index)
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def setup_one(http: httpx.AsyncClient, gate: asyncio.Semaphore,
                    index: int) -> tuple[str, str]:
    async with gate:
        response = await http.post("/api/account/guest", json={"nickname": f"load{index}"})
        if response.status_code != 200:
            raise SystemExit(f"no guest account for a client: {response.text}")
        token = response.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        table = (await http.post("/api/tables", json=GAME, headers=headers)).json()
        await http.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=headers)
        return f"/api/tables/{table['id']}/ws", token


# --------------------------------------------------------------------------- clients


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    lag: float = 0.0  # the longest the clients' own event loop was late, in seconds


async def watch_lag(tally: Tally, every: float = 0.005) -> None:
    """The clients' own stalls: how late a short sleep of theirs wakes (a move's latency
    counts from the client, so a client late to read its answer counts too)."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every)
        tally.lag = max(tally.lag, loop.time() - asked - every)


async def client(url: str, token: str, ready: asyncio.Event, go: asyncio.Event,
                 stop_at: list[float], tally: Tally, seed: int, interval: float) -> None:
    """One client: on its turn it waits for its next slot (every ``interval`` seconds,
    0 = at once), sends a random legal move with the sequence number it saw, and times
    the acknowledgement."""
    rng = random.Random(seed)
    async with websockets.connect(url, max_queue=None, open_timeout=120,
                                  additional_headers={"Authorization": f"Bearer {token}"},
                                  ping_interval=None, compression=None) as ws:
        legal: list[str] = []
        seq = acted_on = -1
        # connected means seated: the table's first frame has come
        while not legal:
            frame = orjson.loads(await ws.recv())
            if frame["type"] == "state":
                seq, legal = frame["seq"], frame["legal"]
        ready.set()
        sent_at: float | None = None
        await go.wait()
        slot = time.perf_counter() + rng.random() * interval
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(stop_at[0]):  # the event loop's clock
                while True:
                    if sent_at is None and legal and seq != acted_on:
                        wait = slot - time.perf_counter()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        slot = max(slot + interval, time.perf_counter())
                        acted_on = seq
                        sent_at = time.perf_counter()
                        await ws.send(orjson.dumps({"action": rng.choice(legal),
                                                    "seq": seq}).decode())
                    frame = orjson.loads(await ws.recv())
                    kind = frame["type"]
                    if kind == "ack":
                        if sent_at is not None:
                            tally.latencies.append(time.perf_counter() - sent_at)
                            tally.moves += 1
                        sent_at = None
                    elif kind == "state":
                        if frame["status"] == "over":
                            return
                        seq, legal = frame["seq"], frame["legal"]
                    elif kind == "error":
                        tally.errors += 1
                        sent_at = None


def client_process(base: str, seats: list[tuple[str, str]], first: int, interval: float,
                   nice: int, pipe: Connection) -> None:
    """A process of clients: connects them all, says so, plays on 'go', sends its tally."""
    os.nice(nice)
    with contextlib.suppress(ImportError):  # uvloop comes with uvicorn[standard]
        import uvloop

        uvloop.install()

    async def play_all() -> None:
        loop = asyncio.get_running_loop()
        tally = Tally()
        readies = [asyncio.Event() for _ in seats]
        go = asyncio.Event()
        stop_at = [float("inf")]
        tasks = [asyncio.create_task(client(base + path, token, ready, go, stop_at, tally,
                                            first + i, interval))
                 for i, ((path, token), ready) in enumerate(zip(seats, readies,
                                                                strict=True))]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        pipe.send("connected")
        seconds = await loop.run_in_executor(None, pipe.recv)
        cpu = time.process_time()
        stop_at[0] = loop.time() + seconds
        go.set()
        lag = asyncio.create_task(watch_lag(tally))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        lag.cancel()
        failures = sum(1 for r in results if isinstance(r, BaseException))
        pipe.send((tally.latencies, tally.moves, tally.errors, failures,
                   time.process_time() - cpu, tally.lag))

    asyncio.run(play_all())


# --------------------------------------------------------------------------- one run


def machine() -> dict[str, Any]:
    one, five, fifteen = os.getloadavg()
    return {"cores": os.cpu_count(), "load_average": [round(one, 2), round(five, 2),
                                                      round(fifteen, 2)]}


SLOW = ("0.05", "0.25")  # seconds: buckets of the server's histograms
# the moves' wait for their commit, and the log writer's write and commit of each batch
HISTOGRAMS = ("kastkopp_commit_seconds", "kastkopp_log_flush_seconds")


async def histograms(http: httpx.AsyncClient) -> dict[tuple[str, str], float]:
    """The server's HISTOGRAMS so far: (name, "all") their count, (name, bound) how many
    took no longer than each of SLOW."""
    found = {}
    for line in (await http.get("/metrics")).text.splitlines():
        key, _, value = line.rpartition(" ")
        for name in HISTOGRAMS:
            if key == f"{name}_count":
                found[name, "all"] = float(value)
            for bound in SLOW:
                if key == f'{name}_bucket{{le="{bound}"}}':
                    found[name, bound] = float(value)
    return found


def over(before: dict[tuple[str, str], float], after: dict[tuple[str, str], float],
         name: str) -> dict[str, int]:
    """How many of histogram ``name``'s observations between the two took longer than
    each of SLOW (in ms)."""
    return {str(round(1000 * float(bound))): round(
        (after[name, "all"] - before[name, "all"]) - (after[name, bound] - before[name, bound]))
        for bound in SLOW}


# --------------------------------------------------------------------------- hostile guests


@dataclass
class Hostile:
    """What the hostile guests did during the measurement."""

    solves_asked: int = 0
    solves_refused: int = 0  # new rule sets past the guest's limit
    first_bot_moves: int = 0
    bot_tables: int = 0
    bot_moves: int = 0
    logins: dict[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"solves_asked": self.solves_asked, "solves_refused": self.solves_refused,
                "first_bot_moves": self.first_bot_moves,
                "bot_tables": self.bot_tables, "bot_moves": self.bot_moves,
                "logins_by_status": {str(k): v for k, v in sorted(self.logins.items())}}


async def hostile_guest(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await http.post("/api/account/guest", json={"nickname": name})
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def started_table(http: httpx.AsyncClient, headers: dict[str, str],
                        body: dict[str, Any], table: dict[str, Any] | None = None
                        ) -> tuple[str, int]:
    """A table made (unless given) and started, and its ``seq`` at the start; the guest adds
    its seed for the dice if it sits."""
    if table is None:
        table = (await http.post("/api/tables", json=body, headers=headers)).json()
    start = {"seed": "hostile"} if body.get("sit", True) else {}
    response = await http.post(f"/api/tables/{table['id']}/start", json=start,
                               headers=headers)
    if response.status_code != 200:  # a guest that does nothing measures nothing
        raise SystemExit(f"a hostile guest's table did not start: {response.text}")
    return str(table["id"]), int(response.json()["seq"])


async def hostile_solves(http: httpx.AsyncClient, tally: Hostile, seed: int) -> None:
    """New Yatzy house rules, one after the other: the next when the last one's bot has
    moved."""
    headers = await hostile_guest(http, "solver")
    scores = random.Random(seed).sample(range(1, 1000), 200)
    for score in scores:
        body = {"game": "yatzy", "preset": "tarningspoker", "players": 2, "sit": True,
                "rules": {"yatzy_score": score}, "seats": ["bot:optimal", None]}
        tally.solves_asked += 1
        asked = await http.post("/api/tables", json=body, headers=headers)
        if asked.status_code == 429:  # its new rule sets used up: it asks again and again
            tally.solves_refused += 1
            await asyncio.sleep(0.2)
            continue
        table_id, started = await started_table(http, headers, body, asked.json())
        while (await http.get(f"/api/tables/{table_id}")).json()["seq"] == started:
            await asyncio.sleep(0.2)
        tally.first_bot_moves += 1


async def hostile_bots(http: httpx.AsyncClient, tally: Hostile) -> None:
    """Ten strong liar's-dice bots at one table, a new table when one ends."""
    headers = await hostile_guest(http, "crowd")
    while True:
        table_id, _ = await started_table(http, headers, {
            "game": "liars_dice", "players": 10, "seats": ["bot:strong"] * 10, "sit": False})
        tally.bot_tables += 1
        seq = 0
        while True:
            await asyncio.sleep(0.5)
            summary = (await http.get(f"/api/tables/{table_id}")).json()
            tally.bot_moves += summary["seq"] - seq
            seq = summary["seq"]
            if summary["status"] == "over":
                break


async def hostile_logins(http: httpx.AsyncClient, tally: Hostile, at_once: int = 40) -> None:
    """``at_once`` connections logging in with a wrong password, again and again."""
    await http.post("/api/account/register", json={"name": "victim",
                                                   "password": "the right one"})

    async def one(index: int) -> None:
        while True:
            response = await http.post("/api/account/login", json={
                "name": "victim" if index % 2 else f"nobody{index}", "password": "wrong one"})
            tally.logins[response.status_code] = tally.logins.get(response.status_code, 0) + 1

    await asyncio.gather(*(one(i) for i in range(at_once)))


async def hostile(base: str, switches: set[str], tally: Hostile) -> None:
    """Every hostile guest asked for, until cancelled."""
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        jobs = []
        if "solve" in switches:
            jobs.append(hostile_solves(http, tally, seed=time.time_ns()))
        if "bots" in switches:
            jobs.append(hostile_bots(http, tally))
        if "logins" in switches:
            jobs.append(hostile_logins(http, tally))
        await asyncio.gather(*jobs)


def hostile_process(base: str, switches: set[str], nice: int, pipe: Connection) -> None:
    """The hostile guests in a process of their own: they start on 'go', and on 'stop'
    send what they did and the CPU they used."""
    os.nice(nice)

    async def attack() -> None:
        loop = asyncio.get_running_loop()
        tally = Hostile()
        pipe.send("ready")
        await loop.run_in_executor(None, pipe.recv)  # go
        cpu = time.process_time()
        task = asyncio.create_task(hostile(base, switches, tally))
        await loop.run_in_executor(None, pipe.recv)  # stop
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
            await task
        pipe.send((tally.to_json(), time.process_time() - cpu))

    asyncio.run(attack())


async def start_server(port: int, db: str, new_rules_limit: str | None = None
                       ) -> subprocess.Popen[bytes]:
    # A cache of solved tables of its own (a house rule set is new to it), no warm-up of
    # the standard tables (nothing here plays them), and room for a thousand guests.
    cache = str(Path(db).parent / "cache")
    server = subprocess.Popen([sys.executable, "-m", "kastkopp.server", "--host", HOST,
                               "--port", str(port), "--db", db, "--log-level", "error",
                               "--no-warm-up", "--guest-limit", "100000/minute",
                               "--bot-delay", "0",
                               *(["--new-rules-limit", new_rules_limit]
                                 if new_rules_limit else [])],
                              env={**os.environ, "KASTKOPP_CACHE": cache})
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise SystemExit("the server did not start")
            try:
                if (await http.get("/api/games")).status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    server.terminate()
    raise SystemExit("the server did not answer within 120 s")


async def run(clients: int, seconds: float, rate: float, processes: int,
              switches: set[str], new_rules_limit: str | None = None,
              nice: int = 0) -> dict[str, Any]:
    port = free_port()
    folder = tempfile.mkdtemp(prefix="kastkopp-bench-")
    db = str(Path(folder) / "bench.db")
    before = machine()
    server = await start_server(port, db, new_rules_limit)
    workers = []
    try:
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
            gate = asyncio.Semaphore(32)
            started = time.perf_counter()
            seats = await asyncio.gather(*(setup_client(http, gate, i)
                                          for i in range(clients)))
            setup = time.perf_counter() - started
        interval = clients / rate if rate else 0.0
        context = multiprocessing.get_context("spawn")
        pipes = []
        share = -(-clients // processes)
        for first in range(0, clients, share):
            ours, theirs = context.Pipe()
            worker = context.Process(target=client_process, args=(
                f"ws://{HOST}:{port}", seats[first:first + share], first, interval, nice,
                theirs))
            worker.start()
            pipes.append(ours)
            workers.append(worker)
        loop = asyncio.get_running_loop()
        for pipe in pipes:
            if await loop.run_in_executor(None, pipe.recv) != "connected":
                raise SystemExit("a client process could not connect")
        attacker = None
        if switches:  # on the same cores as the server, as the clients are
            attacker, theirs = context.Pipe()
            worker = context.Process(target=hostile_process, args=(
                f"http://{HOST}:{port}", switches, nice, theirs))
            worker.start()
            workers.append(worker)
            if await loop.run_in_executor(None, attacker.recv) != "ready":
                raise SystemExit("the hostile guests could not start")
        connected_rss = rss_mb(server.pid)
        cpu_before = cpu_seconds(server.pid)
        wait_before = waited_for_cpu(server.pid)
        workers_before = children_cpu(server.pid)
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
            timings_before = await histograms(http)
        if attacker is not None:
            attacker.send("go")
        begin = time.perf_counter()
        for pipe in pipes:
            pipe.send(seconds)
        tallies = [await loop.run_in_executor(None, pipe.recv) for pipe in pipes]
        elapsed = time.perf_counter() - begin
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
            timings_after = await histograms(http)
        did, attacker_cpu = Hostile().to_json(), 0.0
        if attacker is not None:
            attacker.send("stop")
            did, attacker_cpu = await loop.run_in_executor(None, attacker.recv)
        current, peak = rss_mb(server.pid)
        user, system = (b - a for a, b in zip(cpu_before, cpu_seconds(server.pid),
                                              strict=True))
        server_cpu = user + system
        # the threads there at the end (those ended meanwhile, short-lived, are not counted)
        server_waited = sum(wait - wait_before.get(thread, 0.0)
                            for thread, wait in waited_for_cpu(server.pid).items())
        workers_cpu = sum(cpu - workers_before.get(child, 0.0)
                          for child, cpu in children_cpu(server.pid).items())
    finally:
        for worker in workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.terminate()
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            # it waits for requests in flight (a login's password hash on a busy machine);
            # the figures are taken already
            server.kill()
            server.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    latencies = sorted(x for tally in tallies for x in tally[0])
    moves = sum(t[1] for t in tallies)
    return {"clients": clients, "client_processes": len(pipes),
            "offered_moves_per_second": rate or None,
            "seconds": round(elapsed, 2), "setup_seconds": round(setup, 1),
            "moves": moves, "errors": sum(t[2] for t in tallies),
            "failed_clients": sum(t[3] for t in tallies),
            # acknowledgements count while the clients play, so over that window (the
            # whole run also takes the tallies' way back)
            "moves_per_second": round(moves / seconds, 1),
            "p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2)
            if latencies else None,
            "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
            "server_cpu_share": round(server_cpu / elapsed, 2),
            "server_system_cpu_share": round(system / elapsed, 2),
            "server_waited_for_cpu_ms": round(1000 * server_waited),
            "clients_cpu_share": round(sum(t[4] for t in tallies) / elapsed, 2),
            "clients_lag_ms": round(1000 * max(t[5] for t in tallies), 1),
            "server_cpu_us_per_move": round(1e6 * server_cpu / moves, 1) if moves else None,
            "workers_cpu_share": round(workers_cpu / elapsed, 2),
            # moves whose commit took longer than each bound, and the log writer's
            # batches whose write and commit did (a slow disk shows in both)
            "commits_over_ms": over(timings_before, timings_after, HISTOGRAMS[0]),
            "flushes_over_ms": over(timings_before, timings_after, HISTOGRAMS[1]),
            "generator_nice": nice,
            "hostile": sorted(switches), "hostile_did": did,
            "hostile_cpu_share": round(attacker_cpu / elapsed, 2),
            "machine_before": before, "machine_after": machine(),
            "server_rss_mb_connected": round(connected_rss[0], 1),
            "server_rss_mb": round(current, 1), "server_peak_rss_mb": round(peak, 1)}


def median_of(results: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("moves_per_second", "p50_ms", "p99_ms", "max_ms", "server_cpu_share",
            "server_waited_for_cpu_ms",
            "clients_cpu_share", "clients_lag_ms", "server_cpu_us_per_move",
            "workers_cpu_share",
            "hostile_cpu_share",
            "server_peak_rss_mb",
            "ratio_to_engine_alone")
    return {k: statistics.median(r[k] for r in results) for k in keys
            if all(r.get(k) is not None for r in results)}


def report(result: dict[str, Any], rate: float) -> None:
    offered = f"{rate:g} moves/s offered" if rate else "as fast as answered"
    print(f"{result['clients']} WebSocket clients in {result['client_processes']} "
          f"processes, each at a table against a bot (mia/maexchen), {offered}, "
          f"SQLite WAL synchronous=FULL, {result['seconds']} s")
    print(f"  acknowledged moves/s: {result['moves_per_second']}  "
          f"({result['moves']} moves, {result['errors']} refused, "
          f"{result['failed_clients']} clients failed)")
    print(f"  latency send→ack: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
          f"max {result['max_ms']} ms")
    before, after = result["machine_before"], result["machine_after"]
    print(f"  CPU: server {result['server_cpu_share']:.0%} of a core "
          f"({result['server_system_cpu_share']:.0%} in the kernel; "
          f"{result['server_cpu_us_per_move']} µs a move; its threads waited "
          f"{result['server_waited_for_cpu_ms']} ms for a CPU), clients "
          f"{result['clients_cpu_share']:.0%} at niceness {result['generator_nice']} (their "
          f"own event loop late by up to {result['clients_lag_ms']} ms); "
          f"{before['cores']} cores, load average "
          f"{before['load_average']} before, {after['load_average']} after")
    print(f"  server memory: {result['server_rss_mb_connected']} MB with all connected, "
          f"peak {result['server_peak_rss_mb']} MB; worker processes "
          f"{result['workers_cpu_share']:.0%} of a core")
    print("  moves that waited for their commit over " + ", ".join(
        f"{bound} ms: {count}" for bound, count in result["commits_over_ms"].items())
        + "; the log writer's batches written and committed in over " + ", ".join(
        f"{bound} ms: {count}" for bound, count in result["flushes_over_ms"].items())
        + " (the database and the disk)")
    if result["hostile"]:
        print(f"  hostile ({', '.join(result['hostile'])}): {result['hostile_did']}; the "
              f"hostile guests' own CPU {result['hostile_cpu_share']:.0%} of a core")
    print(f"  peer, engine alone in-process (no network, no database): "
          f"{result['engine_alone_moves_per_second']} moves/s — the server reaches "
          f"{result['ratio_to_engine_alone']:.1%} of it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=2000.0,
                        help="moves per second the clients offer together (0: as fast as "
                        "the server answers)")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1, help="runs, each with a new server "
                        "and database; the median is printed too")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--hostile-solve", action="store_true",
                        help="a guest keeps asking for new Yatzy house rules to be solved")
    parser.add_argument("--hostile-bots", action="store_true",
                        help="a table of ten strong liar's-dice bots plays meanwhile")
    parser.add_argument("--hostile-logins", action="store_true",
                        help="40 connections keep logging in with a wrong password")
    parser.add_argument("--generator-nice", type=int, default=10,
                        help="the niceness the clients and the hostile guests run at: they "
                        "stand for other machines, and on the cores they share with the "
                        "server they would otherwise take its turns (0: the same priority)")
    parser.add_argument("--new-rules-limit", default=None,
                        help="the server's limit of new rule sets per guest and address "
                        "(e.g. 1000/hour: the solving guest unbounded; default the server's)")
    args = parser.parse_args()
    switches = {name for name in ("solve", "bots", "logins")
                if getattr(args, f"hostile_{name}")}
    clients = max(1, min(args.clients, MAX_CLIENTS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    processes = max(1, min(args.client_processes, 8, clients))
    raise_file_limit()
    results = []
    for _ in range(max(1, min(args.runs, 5))):
        result = asyncio.run(run(clients, seconds, max(0.0, args.rate), processes,
                                 switches, args.new_rules_limit,
                                 max(0, min(args.generator_nice, 19))))
        peer = engine_peer()
        result["engine_alone_moves_per_second"] = round(peer, 1)
        result["ratio_to_engine_alone"] = round(result["moves_per_second"] / peer, 3)
        results.append(result)
        if not args.json:
            report(result, args.rate)
    if args.json:
        print(json.dumps({"runs": results, "median": median_of(results)}))
    elif len(results) > 1:
        print(f"median of {len(results)} runs: " + ", ".join(
            f"{k} {v:g}" for k, v in median_of(results).items()))


if __name__ == "__main__":
    main()

"""The server's per-move CPU without the network: the hub, the engine and the log writer.

``bench_server.py`` measures the whole server under 1,000 WebSocket clients; on a machine
shared with other work its latency figures mostly measure the neighbours. This one drives
the same games (Mäxchen against ``bot:random``, 1,000 rounds) through
:meth:`kastkopp.server.hub.Hub.act` in one process: each simulated client reads its
seat's frame from its watcher queue, answers with a random legal action at the sequence
number it saw, and waits for the commit, as a socket would. The log goes to a fresh
SQLite file (WAL, ``synchronous=FULL``) through the real :class:`LogWriter`.

Printed: processor time a move, for the event loop's thread and for the whole process
(the writer thread and SQLite included), and the peer — the same games played by the
engine alone in-process, processor time per client move (the move and the bot's answer,
their views and legal actions) — as a ratio. Processor time, not wall time, so the figures
hold on a busy machine.

Usage (bounded: at most 2,000 tables and 200,000 moves)::

    python benchmarks/bench_hub.py --tables 500 --moves 20000
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import orjson

from kastkopp.dice import CommitRevealDice, bot_rng
from kastkopp.engine import Table
from kastkopp.games import load
from kastkopp.server import accounts
from kastkopp.server.hub import Hub
from kastkopp.store import Account, Store
from kastkopp.strategy import make_bot

GAME = ("mia", "maexchen", {"rounds": 1000}, 2, [None, "bot:random"])
MAX_TABLES = 2000
MAX_MOVES = 200_000


def engine_peer(moves: int) -> float:
    """Processor µs per client move with the engine alone: the move, the bot's answer,
    the bot's view and the client's view and legal actions (what the hub asks of it)."""
    game = load("mia", preset="maexchen", players=2, rounds=1000)
    bot = make_bot(game, "random")
    rng = random.Random(0)
    seed = bytes(32)
    table = Table(game, dice=CommitRevealDice(server_seed=seed, client_seed="0"))
    started = time.process_time()
    for done in range(moves):
        for seat in (0, 1):  # the client, then the bot's answer
            if table.state.is_over():
                table = Table(game, dice=CommitRevealDice(server_seed=seed,
                                                          client_seed=str(done)))
            mover = table.state.to_move()
            assert mover is not None
            view, legal = table.state.view(mover), table.state.legal_actions()
            choice = bot.choose(view, legal, rng if seat == 0 else
                                bot_rng(seed, len(table.events)))
            table.act(mover, choice)
        table.state.view(0)
        table.state.legal_notations()
    return 1e6 * (time.process_time() - started) / moves


async def hub_run(tables: int, moves: int, folder: Path) -> tuple[float, float, int]:
    store = Store(str(folder / "bench.db"))
    store.migrate()
    hub = Hub(store)
    with store.session() as session:
        owners = [accounts.guest(session, f"load{i}") for i in range(tables)]
        session.flush()
        seated = [Account(id=a.id, name=a.name, guest=True) for a in owners]
    ids = []
    game, preset, rules, players, seats = GAME
    for owner in seated:
        table_id = hub.create(owner, game, preset, rules, players, seats, "none", None,
                              "move", None, True)
        await hub.start(table_id, owner, None, "a1")
        ids.append((table_id, owner.id))
    done = 0

    async def client(table_id: str, account_id: int, seed: int) -> None:
        nonlocal done
        live = await hub.get(table_id)
        watcher = hub.watch(live, live.seat_of(account_id))
        rng = random.Random(seed)
        acted_on = -1
        while done < moves:
            frame = orjson.loads(await watcher.queue.get() or "{}")
            if frame.get("type") != "state" or frame["status"] == "over":
                return
            if frame["legal"] and frame["seq"] != acted_on:
                acted_on = frame["seq"]
                await hub.act(table_id, account_id, rng.choice(frame["legal"]), acted_on)
                done += 1

    process, thread = time.process_time(), time.thread_time()
    await asyncio.gather(*(client(t, a, i) for i, (t, a) in enumerate(ids)))
    process, thread = time.process_time() - process, time.thread_time() - thread
    await hub.close()
    store.dispose()
    return 1e6 * process / done, 1e6 * thread / done, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20_000)
    args = parser.parse_args()
    tables = max(1, min(args.tables, MAX_TABLES))
    moves = max(100, min(args.moves, MAX_MOVES))
    folder = Path(tempfile.mkdtemp(prefix="kastkopp-bench-hub-"))
    try:
        process, loop, done = asyncio.run(hub_run(tables, moves, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    peer = engine_peer(min(moves, 20_000))
    print(f"{done} client moves at {tables} tables (mia/maexchen against bot:random), "
          f"SQLite WAL synchronous=FULL")
    print(f"  processor time a move: {process:.1f} µs the process, {loop:.1f} µs the event "
          f"loop's thread, {process - loop:.1f} µs the others (the log writer)")
    print(f"  peer, engine alone in-process: {peer:.1f} µs a client move — the hub takes "
          f"{process / peer:.2f}× the engine's time")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

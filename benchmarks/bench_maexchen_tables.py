"""What showing Mäxchen rounds as web tables costs the Mäxchen server.

Two kastkopp bots (``sensible`` and ``random``) play ROUNDS rounds over loopback UDP on a
Mäxchen server alone (the peer), then on one whose rounds are hosted by a web server's hub
(SQLite in a temporary folder): every move checked by the engine, committed and streamed.
Prints rounds per second both ways, their ratio, and how long after the last round the last
move reached the database.

    .venv/bin/python benchmarks/bench_maexchen_tables.py [ROUNDS]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from kastkopp.interop.maexchen import MaexchenClient, MaexchenServer
from kastkopp.interop.maexchen_web import MaexchenTables
from kastkopp.server.hub import Hub
from kastkopp.store import Store


async def play(rounds: int, hub: Hub | None) -> tuple[float, float]:
    """(rounds per second, seconds from the last round to the last move stored)."""
    server = MaexchenServer(answer_timeout=0.25)
    address = await server.start("127.0.0.1", 0)
    tables = MaexchenTables(hub, server) if hub is not None else None
    if tables is not None:
        await tables.__aenter__()
    bots = [MaexchenClient("sensible", strategy="sensible", seed=1),
            MaexchenClient("chaos", strategy="random", seed=2)]
    for bot in bots:
        await bot.connect(*address)
    serving = asyncio.create_task(server.run(rounds))
    start = time.perf_counter()
    await serving
    played = time.perf_counter()
    lag = 0.0
    if tables is not None:
        await tables.idle()
        lag = time.perf_counter() - played
        await tables.__aexit__(None, None, None)
    for bot in bots:
        bot.close()
    server.close()
    return rounds / (played - start), lag


async def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    alone, _ = await play(rounds, None)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(str(Path(folder) / "kastkopp.db"))
        store.migrate()
        hub = Hub(store)
        shown, lag = await play(rounds, hub)
        await hub.close()
        store.dispose()
    print(f"{rounds} Mäxchen rounds, two kastkopp bots on loopback UDP")
    print(f"  Mäxchen server alone (peer):   {alone:8.1f} rounds/s")
    print(f"  rounds shown as web tables:    {shown:8.1f} rounds/s "
          f"(ratio {alone / shown:.2f}); last move stored {lag * 1000:.0f} ms after "
          "the last round")


if __name__ == "__main__":
    asyncio.run(main())

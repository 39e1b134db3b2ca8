"""kastkopp's game server: every registered game online, with bots and provably fair dice.

Start it with ``kastkopp serve`` (or ``python -m kastkopp.server``)::

    kastkopp serve --host 127.0.0.1 --port 8000 --db ~/kastkopp.db
    kastkopp serve --db postgresql+psycopg://kastkopp@localhost/kastkopp \\
        --redis redis://localhost:6379/0        # several processes on one database

See :mod:`kastkopp.server.app` for the routes, :mod:`kastkopp.server.hub` for the table
service under them, and :mod:`kastkopp.server.service.play` for how a move becomes
durable before it is acknowledged (``docs/architecture.md``: the whole picture).
"""

from __future__ import annotations

PACE = 0.8  # seconds before each bot's move: the others' moves seen one at a time
# the cycle collector's thresholds while serving (see quiet_garbage_collector)
COLLECTOR_THRESHOLDS = (1_000, 0, 4_000)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          redis_url: str | None = None, bot_delay: float = PACE,
          log_level: str = "info", maexchen_port: int | None = None,
          maexchen_timeout: float = 0.25, guest_limit: str | None = None,
          workers: int = 1, warm_up: bool = True,
          abandoned_after: float | None = None, new_rules_limit: str | None = None) -> None:
    """Run the server with uvicorn until interrupted.

    ``bot_delay`` is the pace of a table made without one: the seconds before each of its
    bots' moves; ``abandoned_after`` (seconds) how long a table may go without a move
    before the lobby stops listing it (:mod:`kastkopp.server.lobby`).

    ``guest_limit`` (e.g. ``"30/minute"``) is how many guests one address, and everybody
    together, may make; ``new_rules_limit`` (e.g. ``"10/hour"``) how many rule sets nobody
    has solved one account, and one address, may ask to have solved;
    ``workers`` processes do the solves; ``warm_up`` solves the standard presets' tables
    into the disk cache in the background (the server answers at once meanwhile)."""
    from dataclasses import replace

    import uvicorn

    from kastkopp.server.app import create_app
    from kastkopp.server.limits import RateLimits
    from kastkopp.server.lobby import ABANDONED_AFTER

    limits = RateLimits()
    if guest_limit is not None:
        limits = replace(limits, guest_per_address=guest_limit, guest_everybody=guest_limit)
    if new_rules_limit is not None:
        limits = replace(limits, new_rules_per_account=new_rules_limit,
                         new_rules_per_address=new_rules_limit)
    app = create_app(db, redis_url=redis_url, bot_delay=bot_delay,
                     maexchen=None if maexchen_port is None else (host, maexchen_port),
                     maexchen_timeout=maexchen_timeout, rate_limits=limits, workers=workers,
                     warm_up=warm_up,
                     abandoned_after=abandoned_after or ABANDONED_AFTER)
    quiet_garbage_collector()
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws="websockets-sansio",
                ws_max_size=64 * 1024, ws_per_message_deflate=False, lifespan="on")


def quiet_garbage_collector() -> None:
    """Keep the cycle collector from pausing play.

    What start-up made (modules, routes, the games' tables of values) lives as long as the
    process, so it is frozen out of every collection. Under load a young collection costs
    in proportion to what was made since the last one: a thousand sockets' waiting
    coroutines and the moves' new log events, most of which live as long as their table.
    So the young generation is collected every thousand new objects, and the middle one
    with every other young collection: what survives goes on to the old generation after
    one or two pauses of a millisecond or so, instead of piling up in the middle one for ten
    and being looked at again all together (a pause of 15-30 ms, several times a second,
    with 1,000 clients of ``benchmarks/bench_server.py``). A full collection waits for
    4,000 collections of the middle one, minutes under that load.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)

"""``kastkopp maexchen-server`` and ``kastkopp bot maexchen``: Mia on the Mäxchen
bot-competition protocol.

::

    kastkopp maexchen-server --port 9000 --answer-timeout-ms 250
    kastkopp bot maexchen --server localhost:9000 --strategy sensible --name kastkopp

They raise :class:`~kastkopp.engine.KastkoppError` for anything a user typed wrong.
"""

from __future__ import annotations

import contextlib
import random
import sys
from typing import TYPE_CHECKING

import typer

from kastkopp.cli.app import app
from kastkopp.cli.support import friendly, lazy_console, say
from kastkopp.cli.usage import ToldGroup

if TYPE_CHECKING:
    from kastkopp.dice import DiceSource
    from kastkopp.interop.maexchen import RoundResult

# kastkopp.interop.maexchen.DEFAULT_PORT, repeated: the protocol module loads the games, which
# the command line's start-up (``kastkopp --help``) should not wait for.
DEFAULT_PORT = 9000

console = lazy_console(highlight=False)


bot_app = typer.Typer(cls=ToldGroup, no_args_is_help=True, rich_markup_mode=None,
                      help="Let kastkopp's bots play elsewhere.")


def _say(text: str) -> None:
    console.print(text)
    sys.stdout.flush()  # someone may be reading the address from a pipe


@app.command("maexchen-server")
@friendly
def maexchen_server(
    port: int = typer.Option(DEFAULT_PORT, "--port", help="UDP port (0: any free port)"),
    host: str = typer.Option("0.0.0.0", "--host", help="address to listen on"),
    answer_timeout_ms: int = typer.Option(250, "--answer-timeout-ms",
                                          help="how long a player may take to answer"),
    rounds: int = typer.Option(0, "--rounds", help="stop after this many rounds (0: never)"),
    seed: int = typer.Option(None, "--seed", help="reproducible dice and seating"),
    heartbeat_ms: int = typer.Option(2000, "--heartbeat-ms",
                                     help="HEARTBEAT to every client this often (0: never)"),
) -> None:
    """Run a Mäxchen bot-competition server (UDP) playing Mia's maexchen preset."""
    import asyncio

    from kastkopp.dice import SecureDice, SeededDice
    from kastkopp.engine import KastkoppError
    from kastkopp.interop.maexchen import MaexchenServer

    if not 0 <= port < 65536:
        raise KastkoppError("the port must be 0 to 65535, not {port}", port=port)
    if answer_timeout_ms < 1:
        raise KastkoppError("the answer timeout must be at least 1 ms, not {ms}",
                            ms=answer_timeout_ms)
    if heartbeat_ms < 0:
        raise KastkoppError("the heartbeat must be 0 (none) or more ms, not {ms}",
                            ms=heartbeat_ms)
    dice: DiceSource = SecureDice() if seed is None else SeededDice(seed)
    rng = random.SystemRandom() if seed is None else random.Random(seed)
    server = MaexchenServer(answer_timeout=answer_timeout_ms / 1000, dice=dice, rng=rng,
                            heartbeat=heartbeat_ms / 1000 or None)

    async def run() -> None:
        try:
            bound = await server.start(host, port)
        except OSError as exc:
            raise KastkoppError("cannot listen on {address}: {problem}",
                                address=f"{host}:{port}", problem=exc.strerror) from None
        _say(say("Mäxchen server on {address} (answer timeout {ms} ms); Ctrl-C stops it",
                 address=f"udp://{bound[0]}:{bound[1]}", ms=answer_timeout_ms))
        try:
            await server.run(rounds or None)
        finally:
            server.close()

    def report(result: RoundResult) -> None:
        _say(say("round {number}: {players} — {losers} lost ({reason})", number=result.number,
                 players=", ".join(result.players), losers=", ".join(result.losers),
                 reason=result.reason))

    server.watch_rounds(report)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    if server.scores:
        _say(say("Scores: {scores}", scores=", ".join(
            f"{name} {points}" for name, points in
            sorted(server.scores.items(), key=lambda kv: -kv[1]))))


@bot_app.command("maexchen")
@friendly
def bot_maexchen(
    server: str = typer.Option(f"127.0.0.1:{DEFAULT_PORT}", "--server", metavar="HOST:PORT",
                               help="the Mäxchen server"),
    strategy: str = typer.Option("sensible", "--strategy", metavar="BOT",
                                 help="which bot plays, with its settings if any "
                                 "(ismcts:sims=50)"),
    name: str = typer.Option("kastkopp", "--name", help="the name to register (≤ 20 characters)"),
    rounds: int = typer.Option(0, "--rounds", help="stop after this many rounds (0: never)"),
    seed: int = typer.Option(None, "--seed", help="seed for the bot's own choices"),
    verbose: bool = typer.Option(False, "--verbose", help="print every message received"),
) -> None:
    """Let a kastkopp bot play Mia on a Mäxchen bot-competition server."""
    import asyncio

    from kastkopp.interop.maexchen import GAME, MaexchenClient, parse_server
    from kastkopp.strategy import check_bot

    # read as every bot name is (kastkopp play's seats, the ladder): refused in the user's
    # language before anything is sent
    strategy = check_bot(GAME, strategy)
    host, port = parse_server(server)
    client = MaexchenClient(name, strategy=strategy, seed=seed,
                            log=(lambda m: _say(f"< {m}")) if verbose else None)

    async def run() -> None:
        await client.connect(host, port)
        _say(say("{name} plays as '{bot}' on {address}; Ctrl-C stops", name=name,
                 bot=strategy, address=f"{host}:{port}"))
        try:
            await client.run(rounds or None)
        finally:
            client.leave()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    if client.rounds_played:
        points = client.scores.get(name, 0)
        _say(say("1 round played; {name} has {points} points", name=name, points=points)
             if client.rounds_played == 1 else
             say("{count} rounds played; {name} has {points} points",
                 count=client.rounds_played, name=name, points=points))

"""``kastkopp serve``: the game server, for online tables."""

from __future__ import annotations

import typer

from kastkopp.cli.app import app
from kastkopp.cli.support import console, friendly, say


@app.command("serve")
@friendly
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", min=1, max=65535),
    db: str = typer.Option(None, "--db", help="SQLite file or database URL "
                           "(postgresql+psycopg://...); default: the user data directory"),
    redis: str = typer.Option(None, "--redis", help="Redis URL, for several server "
                              "processes on one PostgreSQL database"),
    bot_delay: float = typer.Option(0.8, "--bot-delay", min=0.0, max=10.0,
                                    help="seconds before each bot's move at tables made "
                                    "without a pace of their own (0: at once)"),
    abandoned_after: float = typer.Option(6.0, "--abandoned-after", min=0.01,
                                          help="hours without a move after which a table "
                                          "being played leaves the lobby's list"),
    maexchen: bool = typer.Option(False, "--maexchen",
                                  help="also run a Mäxchen bot-competition server (UDP)"),
    maexchen_port: int = typer.Option(9000, "--maexchen-port", min=1, max=65535),
    answer_timeout_ms: int = typer.Option(250, "--answer-timeout-ms", min=1,
                                          help="how long a Mäxchen bot may take to answer"),
    guest_limit: str = typer.Option(None, "--guest-limit", help="guests one address (and "
                                    "everybody) may make, e.g. 100/minute"),
    new_rules_limit: str = typer.Option(None, "--new-rules-limit", help="rule sets nobody "
                                        "has solved one account (and one address) may ask "
                                        "to have solved, e.g. 10/hour"),
    workers: int = typer.Option(1, "--workers", min=1, max=16,
                                help="worker processes for solves (bots' tables, hints)"),
    warm_up: bool = typer.Option(True, "--warm-up/--no-warm-up", help="solve the standard "
                                 "presets' tables in the background at start"),
) -> None:
    """Run the game server: online tables, accounts, bots and provably fair dice."""
    from kastkopp.engine import KastkoppError

    try:
        from kastkopp.server import serve
    except ImportError as exc:
        raise KastkoppError("the server needs its extras: pip install 'kastkopp[server]' "
                            "({name} is missing)", name=exc.name) from None
    from kastkopp.server.limits import RateLimits
    from kastkopp.store import default_url

    if guest_limit is not None:
        try:
            RateLimits(guest_per_address=guest_limit)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--guest-limit") from None
    if new_rules_limit is not None:
        try:
            RateLimits(new_rules_per_account=new_rules_limit)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--new-rules-limit") from None
    console.print(say("kastkopp server on {address} · database {db}",
                      address=f"http://{host}:{port}", db=db or default_url()), highlight=False)
    if maexchen:
        console.print(say("Mäxchen server on {address}", address=f"udp://{host}:{maexchen_port}"),
                      highlight=False)
    serve(host=host, port=port, db=db, redis_url=redis, bot_delay=bot_delay,
          maexchen_port=maexchen_port if maexchen else None,
          maexchen_timeout=answer_timeout_ms / 1000, guest_limit=guest_limit,
          workers=workers, warm_up=warm_up, abandoned_after=abandoned_after * 3600,
          new_rules_limit=new_rules_limit)



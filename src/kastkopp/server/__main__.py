"""``python -m kastkopp.server [--host H] [--port P] [--db URL] [--redis URL]``."""

from __future__ import annotations

import argparse

from kastkopp.server import PACE, serve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m kastkopp.server",
                                     description="kastkopp's game server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="database URL or SQLite file")
    parser.add_argument("--redis", default=None, help="Redis URL (several processes)")
    parser.add_argument("--bot-delay", type=float, default=PACE,
                        help="seconds before each bot's move at tables made without a pace "
                        f"of their own (default {PACE}; 0: at once)")
    parser.add_argument("--abandoned-after", type=float, default=None, metavar="HOURS",
                        help="hours without a move after which a table being played leaves "
                        "the lobby's list (default 6)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--guest-limit", default=None,
                        help="guests one address (and everybody together) may make, "
                        "e.g. 30/minute (the default; 600/minute for everybody)")
    parser.add_argument("--new-rules-limit", default=None,
                        help="rule sets nobody has solved one account (and one address) may "
                        "ask to have solved, e.g. 10/hour (default: 10/hour per account, "
                        "20/hour per address)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes for solves (bots' tables, hints)")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="do not solve the standard presets' tables at start")
    args = parser.parse_args()
    serve(args.host, args.port, args.db, args.redis, args.bot_delay, args.log_level,
          guest_limit=args.guest_limit, new_rules_limit=args.new_rules_limit,
          workers=args.workers, warm_up=not args.no_warm_up,
          abandoned_after=None if args.abandoned_after is None else args.abandoned_after * 3600)


if __name__ == "__main__":
    main()

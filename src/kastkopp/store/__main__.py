"""``python -m kastkopp.store upgrade --db URL``: the migrations, once, before the servers.

Every server migrates at start as well (a no-op when the schema is current); a site with
several processes runs this first, once, so that they do not all try at the same moment.
"""

from __future__ import annotations

import argparse

from kastkopp.store import Store


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m kastkopp.store",
                                     description="kastkopp's database schema")
    parser.add_argument("command", choices=["upgrade"])
    parser.add_argument("--db", default=None, help="database URL or SQLite file "
                        "(default: the SQLite file in the user data directory)")
    parser.add_argument("--revision", default="head")
    args = parser.parse_args(argv)
    Store(args.db).migrate(args.revision)


if __name__ == "__main__":
    main()

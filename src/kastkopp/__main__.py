"""``python -m kastkopp``: the same command line as ``kastkopp``."""

from kastkopp.cli import main

main()

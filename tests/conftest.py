"""Fixtures shared by test modules of several folders."""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.yatzy_solver import cache_dir, cache_path, solve

# A worker of ``pytest -n`` starts with COLUMNS and LINES set (80 × 24) where pytest itself
# was started without them, and the command line's console keeps the size it was made with
# when they are set (cli.support): a test that asks it for 200 columns got 80. Each worker
# is given the terminal's variables pytest was started with.
TERMINAL = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    node.workerinput["terminal"] = {name: os.environ.get(name) for name in TERMINAL}


def pytest_configure(config: pytest.Config) -> None:
    given = getattr(config, "workerinput", {}).get("terminal")
    for name, value in (given or {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def solved_tarningspoker() -> Path:
    """Tärningspoker's solved table on disk: solved once (over a minute on a small machine,
    then kept in the user's cache), so no test races a cold solve against its deadline. A
    test that wants an advisor with nothing in memory copies it into an empty cache.

    Under ``pytest -n`` each worker asks for it: the first solves it, holding a lock on the
    cache, and the others wait for it and read it from the disk instead of solving it too."""
    rules = YatzyRules.make("tarningspoker")
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "tarningspoker.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        solve(rules)
    return cache_path(rules)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    # The one Chromium that browser tests run one after the other share (test_web_play) is
    # closed once the next test this process runs needs no browser. Under ``pytest -n``
    # that is not the next test collected (another worker may run it), so it is decided
    # here, where pytest says which test comes next, once the test's fixtures are gone.
    try:
        return (yield)
    finally:
        web = sys.modules.get("test_web_play")
        if web is not None and "browser" not in getattr(nextitem, "fixturenames", ()):
            web.SHARED.close()

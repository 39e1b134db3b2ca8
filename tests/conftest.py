"""Fixtures shared by test modules of several folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy.yatzy_solver import cache_path, solve


@pytest.fixture(scope="session")
def solved_tarningspoker() -> Path:
    """Tärningspoker's solved table on disk: solved once (over a minute on a small machine,
    then kept in the user's cache), so no test races a cold solve against its deadline. A
    test that wants an advisor with nothing in memory copies it into an empty cache."""
    rules = YatzyRules.make("tarningspoker")
    solve(rules)
    return cache_path(rules)

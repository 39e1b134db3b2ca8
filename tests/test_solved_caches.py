"""Solved tables are kept in bounded caches, least recently used out: in memory by count,
on disk by size (the standard presets' tables stay)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kastkopp.games.yatzy import YatzyRules
from kastkopp.strategy import yatzy_optimal
from kastkopp.strategy.work import LRU, prune
from kastkopp.strategy.yatzy_solver import cache_path, standard_rules

# slow: solves games (seconds to minutes each)
pytestmark = pytest.mark.slow


def aged(path: Path, size: int, age: float) -> Path:
    path.write_bytes(b"x" * size)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_the_disk_cache_is_pruned_to_its_size_least_recently_used_first(tmp_path: Path) -> None:
    old, older, oldest = (aged(tmp_path / f"yatzy-{n}.npz", 1000, age)
                          for n, age in (("a", 10), ("b", 20), ("c", 30)))
    kept = aged(tmp_path / "yatzy-kept.npz", 1000, 40)
    other = aged(tmp_path / "notes.txt", 5000, 50)
    prune(tmp_path, "yatzy-*.npz", 2500, keep=[kept])
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "notes.txt", old.name, kept.name]
    assert not older.exists() and not oldest.exists() and other.exists()


def test_a_solve_prunes_the_disk_cache_but_keeps_the_standard_presets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kastkopp.strategy.yatzy_solver import solve

    monkeypatch.setenv("KASTKOPP_CACHE_MB", "1")
    standard = aged(cache_path(standard_rules()[0], tmp_path), 2 << 20, 100)
    stale = aged(tmp_path / "yatzy-0123456789abcdef.npz", 1 << 20, 50)
    rules = YatzyRules.make("tarningspoker", yatzy_score=47)
    solve(rules, directory=tmp_path)
    assert cache_path(rules, tmp_path).exists() and standard.exists()
    assert not stale.exists()


def test_solved_tables_in_memory_are_bounded_least_recently_used_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yatzy_optimal, "_TABLES", LRU(2))
    tables = yatzy_optimal._TABLES
    first, second, third = (YatzyRules.make("tarningspoker", yatzy_score=s)
                            for s in (1, 2, 3))
    tables.put(first, "a")  # type: ignore[arg-type]
    tables.put(second, "b")  # type: ignore[arg-type]
    assert tables.get(first) == "a"  # used: the second is now the oldest
    tables.put(third, "c")  # type: ignore[arg-type]
    assert first in tables and third in tables and second not in tables
    assert yatzy_optimal.solving(first) is None  # kept: nothing to solve
    assert yatzy_optimal.solving(second) is not None


def test_a_table_missing_from_memory_is_made_once_and_then_kept() -> None:
    tables: LRU[str, str] = LRU(2)
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    assert tables.kept("a", make) == "A" and tables.kept("a", make) == "A"
    assert made == ["a"]
    tables.kept("b", make)
    tables.kept("c", make)  # "a" is now the least recently used: out
    assert tables.kept("a", make) == "A" and made == ["a", "b", "c", "a"]

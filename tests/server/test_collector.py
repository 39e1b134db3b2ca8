"""The cycle collector while serving: start-up's objects frozen out of it, the young
generations collected a thousand new objects at a time."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from kastkopp.server import COLLECTOR_THRESHOLDS, quiet_garbage_collector


@pytest.fixture
def collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_what_start_up_made_is_frozen_and_the_young_generations_are_collected_often(
        collector: None) -> None:
    made_at_start = [[n] for n in range(100)]
    quiet_garbage_collector()
    assert gc.get_freeze_count() >= len(made_at_start)
    assert not any(thing is made_at_start for thing in gc.get_objects())
    assert gc.get_threshold() == COLLECTOR_THRESHOLDS
    # young collections every thousand new objects, the middle one with every other
    assert COLLECTOR_THRESHOLDS[:2] == (1_000, 0)

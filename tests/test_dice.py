"""Dice sources: reproducible, unbiased and verifiable."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

from kastkopp.dice import (
    CommitRevealDice,
    ScriptedDice,
    SeededDice,
    _unbiased_faces,
    faces_from_seed,
    hmac_sha256,
    multisets,
    seed_commitment,
    source_from_description,
)


def test_seeded_dice_are_reproducible_and_indexed_by_nonce():
    a, b = SeededDice(seed=42), SeededDice(seed=42)
    assert [a.roll(5) for _ in range(4)] == [b.roll(5) for _ in range(4)]
    resumed = SeededDice(seed=42, nonce=2)
    assert resumed.roll(5) == SeededDice(seed=42)._faces(2, 5, 6)


def test_commit_reveal_faces_are_rejection_sampling_over_the_hmac_stream():
    # the written-out loop of faces_from_seed against the two steps it stands for
    def stream(nonce: int) -> Iterator[int]:
        for block in itertools.count():
            yield from hmac_sha256(b"k" * 32, f"anna:{nonce}:{block}".encode())

    for sides in (2, 6, 7, 200):
        for nonce in range(200):
            assert faces_from_seed(b"k" * 32, "anna", nonce, 40, sides) == \
                _unbiased_faces(stream(nonce), 40, sides)


def test_rejection_sampling_maps_accepted_bytes_exactly_evenly():
    for sides in (2, 6, 7):
        counts = Counter(_unbiased_faces(iter([b]), 1, sides)[0]
                         for b in range(256) if b < 256 - 256 % sides)
        assert set(counts) == set(range(1, sides + 1))
        assert len(set(counts.values())) == 1


def test_rejected_bytes_are_skipped():
    assert _unbiased_faces(iter([255, 253, 252, 0]), 1, 6) == (1,)


def test_commit_reveal_rolls_are_recomputable_from_the_revealed_seed():
    source = CommitRevealDice(server_seed=b"s" * 32, client_seed="table-7")
    rolls = [source.roll(5) for _ in range(30)]
    assert rolls == [faces_from_seed(b"s" * 32, "table-7", n, 5) for n in range(30)]
    public = source.describe()
    assert "server_seed" not in public
    assert public["server_seed_sha256"] == seed_commitment(b"s" * 32)
    rebuilt = source_from_description(source.describe(reveal=True))
    assert rebuilt is not None and rebuilt.verify(3, 5, 6, rolls[3])


def test_commit_reveal_faces_are_close_to_uniform():
    source = CommitRevealDice(server_seed=b"\x01" * 32, client_seed="x")
    counts = Counter(f for _ in range(2000) for f in source.roll(6))
    chi2 = sum((c - 2000) ** 2 / 2000 for c in counts.values())
    assert chi2 < 20.5  # p ≈ 0.001 for 5 degrees of freedom


def test_a_revealed_seed_that_does_not_match_its_hash_is_refused():
    description = CommitRevealDice(server_seed=b"a" * 32).describe(reveal=True)
    description["server_seed"] = (b"b" * 32).hex()
    with pytest.raises(ValueError, match="does not match"):
        source_from_description(description)


def test_scripted_dice_give_what_was_typed_and_check_it():
    source = ScriptedDice(rolls=[(6, 5), (2, 1)])
    assert source.roll(2) == (6, 5)
    assert source.roll(2) == (2, 1)
    with pytest.raises(ValueError, match="no dice given"):
        source.roll(2)
    with pytest.raises(ValueError, match="1 to 6"):
        ScriptedDice(rolls=[(7, 1)]).roll(2)


def test_multisets_enumerate_every_sorted_roll_with_exact_probability():
    rolls = dict(multisets(2))
    assert len(rolls) == 21
    assert rolls[(1, 2)] == Fraction(2, 36) and rolls[(3, 3)] == Fraction(1, 36)
    assert sum(p for _, p in multisets(3)) == 1

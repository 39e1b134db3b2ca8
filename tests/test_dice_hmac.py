"""The commit–reveal dice's HMAC-SHA256 (keyed once per seed) is the standard one."""

from __future__ import annotations

import hmac
import random

from kastkopp.dice import faces_from_seed, hmac_sha256


def test_hmac_sha256_matches_the_standard_library_for_every_key_length():
    rng = random.Random(5)
    for length in (0, 1, 31, 32, 63, 64, 65, 200):
        key = rng.randbytes(length)
        for message in (b"", b"anna:0:0", rng.randbytes(300)):
            assert hmac_sha256(key, message) == hmac.digest(key, message, "sha256")


def test_the_first_rolls_of_a_seed_are_what_the_log_format_says():
    # docs/log-format.md: bytes of HMAC(seed, "client:nonce:block"); below 252 -> byte % 6 + 1
    seed = bytes(range(32))
    for nonce in range(20):
        stream = [b for block in range(4)
                  for b in hmac.digest(seed, f"anna:{nonce}:{block}".encode(), "sha256")]
        expected = tuple(b % 6 + 1 for b in stream if b < 252)[:5]
        assert faces_from_seed(seed, "anna", nonce, 5) == expected

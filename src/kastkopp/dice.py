"""Dice: faces, multisets and the sources that roll them.

Rules never roll dice themselves (see :mod:`kastkopp.engine`); a *dice source* does.
Every source is indexed by a nonce — the number of rolls made so far at the table — so a
table can be resumed from its log and every roll checked afterwards:

>>> dice = SeededDice(7)
>>> dice.roll(2) == SeededDice(7).roll(2)
True

The commit–reveal source is what online tables use. The server picks a secret seed and
publishes its SHA-256 before play; each roll is HMAC-SHA256(server seed, "client:nonce:k")
read byte by byte, with rejection sampling so every face is exactly equally likely. When
the game ends the seed is revealed and anybody can recompute every roll:

>>> source = CommitRevealDice(server_seed=bytes(32), client_seed="anna")
>>> faces = source.roll(5)
>>> faces_from_seed(bytes(32), "anna", 0, 5) == faces
True

At a server table the client seed is not one string somebody chose: every person seated
adds a seed of their own after the commitment is public, and the client seed is the
:func:`combined_client_seed` of those :class:`Contribution` s, so nobody — the server
included — can choose the dice:

>>> shared = CommitRevealDice.shared(bytes(32), [Contribution(1, "Ben", "b7"),
...                                              Contribution(0, "Anna", "anna")])
>>> shared.client_seed
'0:4:anna,1:2:b7'
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import random
import re
import secrets
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

Faces = tuple[int, ...]


def check_faces(faces: Faces, count: int, sides: int = 6) -> None:
    """Raise ``ValueError`` unless ``faces`` is ``count`` values in ``1..sides``."""
    if len(faces) != count:
        raise ValueError(f"expected {count} dice, got {len(faces)}")
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise ValueError(f"a die shows 1 to {sides}, not {face!r}")


def multisets(count: int, sides: int = 6) -> Iterator[tuple[Faces, Fraction]]:
    """Every sorted roll of ``count`` dice with its exact probability.

    >>> sum(p for _, p in multisets(5)) == 1
    True
    >>> len(list(multisets(5)))
    252
    """
    total = sides**count
    for faces in itertools.combinations_with_replacement(range(1, sides + 1), count):
        arrangements = math.factorial(count)
        for n in Counter(faces).values():
            arrangements //= math.factorial(n)
        yield faces, Fraction(arrangements, total)


def _unbiased_faces(byte_stream: Iterator[int], count: int, sides: int) -> Faces:
    """Turn random bytes into faces by rejection sampling (no modulo bias)."""
    limit = 256 - 256 % sides
    faces: list[int] = []
    for byte in byte_stream:
        if byte < limit:
            faces.append(byte % sides + 1)
            if len(faces) == count:
                return tuple(faces)
    raise RuntimeError("byte stream ended")  # pragma: no cover - the streams are endless


@functools.lru_cache(maxsize=1024)
def _keyed_sha256(key: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256's inner and outer hash states for ``key`` (RFC 2104), made once per
    seed: each roll then costs two copies of a hash state, not a new HMAC from the key."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    return (hashlib.sha256(bytes(b ^ 0x36 for b in key)),
            hashlib.sha256(bytes(b ^ 0x5C for b in key)))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under ``key``, the same bytes as ``hmac.digest``."""
    inner, outer = _keyed_sha256(key)
    inner, outer = inner.copy(), outer.copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


def faces_from_seed(server_seed: bytes, client_seed: str, nonce: int, count: int,
                    sides: int = 6) -> Faces:
    """The faces the commit–reveal source produces for roll number ``nonce``: the bytes of
    the HMAC-SHA256 blocks of ``client_seed:nonce:0``, ``:1``... turned into faces by
    rejection sampling, as :func:`_unbiased_faces` does (written out here: a server rolls
    thousands of times a second)."""
    limit = 256 - 256 % sides
    faces: list[int] = []
    block = 0
    while True:
        for byte in hmac_sha256(server_seed, f"{client_seed}:{nonce}:{block}".encode()):
            if byte < limit:
                faces.append(byte % sides + 1)
                if len(faces) == count:
                    return tuple(faces)
        block += 1


def seed_commitment(server_seed: bytes) -> str:
    """The SHA-256 of a server seed, published before play."""
    return hashlib.sha256(server_seed).hexdigest()


# A person's seed: printable ASCII without spaces, so its length in characters is its
# length in bytes and it reads the same in every log, terminal and page.
CLIENT_SEED = re.compile(r"[!-~]{1,64}")


def is_client_seed(text: object) -> bool:
    """Whether ``text`` may be a person's seed: 1 to 64 printable ASCII characters, no spaces."""
    return isinstance(text, str) and CLIENT_SEED.fullmatch(text) is not None


@dataclass(frozen=True)
class Contribution:
    """A seed one seated person added to a table's dice after the server's commitment."""

    seat: int
    name: str
    seed: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "seed": self.seed}

    @classmethod
    def from_json(cls, data: Any) -> Contribution:
        """Read one from a log; ``ValueError`` if it is not a seat, a name and a seed."""
        if not isinstance(data, dict) or isinstance(data.get("seat"), bool) or \
                not isinstance(data.get("seat"), int) or not is_client_seed(data.get("seed")):
            raise ValueError(f"a contribution is a seat and a seed of 1 to 64 printable "
                             f"characters, not {data!r}")
        return cls(data["seat"], str(data.get("name") or ""), data["seed"])


def combined_client_seed(contributions: Iterable[Contribution]) -> str:
    """The client seed made of every contribution: ``seat:length:seed`` for each, by seat,
    joined by commas. The lengths make it unambiguous (no two different lists of seeds give
    the same text) and the seats keep the order the same whoever contributed first."""
    ordered = sorted(contributions, key=lambda c: c.seat)
    seats = [c.seat for c in ordered]
    if len(set(seats)) != len(seats):
        raise ValueError("a seat contributed twice")
    for c in ordered:
        if not is_client_seed(c.seed):
            raise ValueError(f"seat {c.seat}'s seed is not 1 to 64 printable characters")
    return ",".join(f"{c.seat}:{len(c.seed)}:{c.seed}" for c in ordered)


@dataclass
class DiceSource(ABC):
    """Base class: something that rolls dice, counting rolls in :attr:`nonce`."""

    kind: ClassVar[str] = "abstract"
    nonce: int = field(default=0, kw_only=True)

    def roll(self, count: int, sides: int = 6) -> Faces:
        faces = self._faces(self.nonce, count, sides)
        self.nonce += 1
        return faces

    @abstractmethod
    def _faces(self, nonce: int, count: int, sides: int) -> Faces:
        """The faces of roll number ``nonce``."""

    def describe(self, reveal: bool = False) -> dict[str, Any]:
        """What the log records about this source (secrets only when ``reveal``)."""
        return {"source": self.kind}

    def verify(self, nonce: int, count: int, sides: int, faces: Faces) -> bool | None:
        """Whether ``faces`` is what roll ``nonce`` produced; ``None`` if unknowable."""
        return None


@dataclass
class SeededDice(DiceSource):
    """Reproducible dice for tests, simulations and replays."""

    kind: ClassVar[str] = "seeded"
    seed: int = 0

    def _faces(self, nonce: int, count: int, sides: int) -> Faces:
        rng = random.Random(f"{self.seed}:{nonce}")
        return tuple(rng.randint(1, sides) for _ in range(count))

    def describe(self, reveal: bool = False) -> dict[str, Any]:
        return {"source": self.kind, "seed": self.seed}

    def verify(self, nonce: int, count: int, sides: int, faces: Faces) -> bool | None:
        return self._faces(nonce, count, sides) == faces


@dataclass
class SecureDice(DiceSource):
    """Dice from the operating system's cryptographic generator (live play at home)."""

    kind: ClassVar[str] = "secure"

    def _faces(self, nonce: int, count: int, sides: int) -> Faces:
        return _unbiased_faces(iter(lambda: secrets.randbits(8), None), count, sides)


@dataclass
class CommitRevealDice(DiceSource):
    """Provably fair dice: the seed's hash is published first, the seed when play ends."""

    kind: ClassVar[str] = "commit-reveal"
    server_seed: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    client_seed: str = ""
    # Who made the client seed (:meth:`shared`); empty where one party gave it whole (a
    # Mäxchen server's round, logs written before contributions).
    contributions: tuple[Contribution, ...] = ()

    @classmethod
    def shared(cls, server_seed: bytes,
               contributions: Iterable[Contribution]) -> CommitRevealDice:
        """Dice from the server's seed and the seeds every seated person contributed."""
        ordered = tuple(sorted(contributions, key=lambda c: c.seat))
        return cls(server_seed=server_seed, client_seed=combined_client_seed(ordered),
                   contributions=ordered)

    @property
    def commitment(self) -> str:
        return seed_commitment(self.server_seed)

    def _faces(self, nonce: int, count: int, sides: int) -> Faces:
        return faces_from_seed(self.server_seed, self.client_seed, nonce, count, sides)

    def describe(self, reveal: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "source": self.kind,
            "server_seed_sha256": self.commitment,
            "client_seed": self.client_seed,
        }
        if self.contributions:
            data["contributions"] = [c.to_json() for c in self.contributions]
        if reveal:
            data["server_seed"] = self.server_seed.hex()
        return data

    def verify(self, nonce: int, count: int, sides: int, faces: Faces) -> bool | None:
        return self._faces(nonce, count, sides) == faces


@dataclass
class ScriptedDice(DiceSource):
    """Dice typed in by hand (the score keeper, worked examples in tests)."""

    kind: ClassVar[str] = "scripted"
    rolls: list[Faces] = field(default_factory=list)

    def _faces(self, nonce: int, count: int, sides: int) -> Faces:
        if nonce >= len(self.rolls):
            raise ValueError(f"no dice given for roll {nonce + 1}")
        faces = tuple(self.rolls[nonce])
        check_faces(faces, count, sides)
        return faces


def source_from_description(data: dict[str, Any]) -> DiceSource | None:
    """Rebuild a source from a log's description, or ``None`` if it cannot be rebuilt."""
    kind = data.get("source")
    if kind == SeededDice.kind:
        return SeededDice(seed=int(data.get("seed", 0)))
    if kind == CommitRevealDice.kind and "server_seed" in data:
        seed = bytes.fromhex(str(data["server_seed"]))
        if seed_commitment(seed) != data.get("server_seed_sha256"):
            raise ValueError("the revealed server seed does not match its published hash")
        client_seed = str(data.get("client_seed", ""))
        if "contributions" not in data:
            return CommitRevealDice(server_seed=seed, client_seed=client_seed)
        dice = CommitRevealDice.shared(seed, contributions_of(data))
        if dice.client_seed != client_seed:
            raise ValueError("the client seed is not the combination of the contributions")
        return dice
    return None


def contributions_of(data: dict[str, Any]) -> list[Contribution]:
    """The contributions a log's dice description lists (``ValueError`` if malformed)."""
    items = data.get("contributions")
    if not isinstance(items, list):
        raise ValueError("the contributions are not a list")
    return [Contribution.from_json(item) for item in items]


# --------------------------------------------------------------------------- bots' choices
# Not dice of the game: the numbers a bot draws to choose among its moves.

_MASK64 = (1 << 64) - 1


class BotRandom(random.Random):
    """A :class:`random.Random` on SplitMix64: seeded at once, where the Mersenne
    Twister's seeding fills 624 words, for each of the thousands of bot moves a second.

    A bot's choice needs a few numbers of good quality, not a long period. Every method
    of ``random.Random`` (``choice``, ``shuffle``, ``random``, ``gauss``...) works on it.
    """

    def seed(self, a: Any = None, version: int = 2) -> None:
        """An integer seed (``None``: one from the operating system)."""
        self._state = (secrets.randbits(64) if a is None else int(a)) & _MASK64

    def _next64(self) -> int:
        self._state = state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next64() >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        bits, have = 0, 0
        while have < k:
            bits, have = (bits << 64) | self._next64(), have + 64
        return bits >> (have - k)

    def getstate(self) -> Any:
        return self._state

    def setstate(self, state: Any) -> None:
        self._state = int(state) & _MASK64


def bot_rng(server_seed: bytes, seq: int) -> random.Random:
    """The bots' dice of thought at one position of a table.

    Keyed by the table's server seed, which nobody outside the server knows until the game
    is over (when every cup is lifted anyway): an opponent who could compute a bot's random
    choices could read its hidden dice from what it says. The seed is stored with the table,
    so every process driving the bot chooses alike.
    """
    digest = hmac_sha256(server_seed, b"bot-choice:%d" % seq)
    return BotRandom(int.from_bytes(digest[:8], "big"))

"""Explicit, replayable chance.

A `Chance` is an immutable (seed, counter) pair. Every shuffle or die roll
asks it for the next value and gets back a new `Chance`, so a game state
can hold its chance source without sharing a mutable RNG with the states
before it. Values come from SplitMix64 of seed and counter (a counter-based
generator, like JAX keys or Philox): the same seed always gives the same
game, however many states or processes were made along the way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def check_seed(seed: object, what: str = "seed") -> int:
    """Return seed if it is a non-negative int, else raise a clear ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"{what} must be a whole number >= 0, got {seed!r}")
    return seed


def derive(seed: int, *labels: object) -> int:
    """A 63-bit seed for a named sub-stream (game i of a batch, seat k's bot, ...).

    Hashing the labels makes sub-streams independent of how work is split.
    """
    text = repr((check_seed(seed), labels)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def _splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _draws(seed: int, counter: int, n: int) -> list[int]:
    """The 64-bit values at positions counter .. counter+n-1 of stream `seed`."""
    key = _splitmix64(seed & _MASK) ^ (seed >> 64)
    return [_splitmix64(key ^ (c * 0xD1B54A32D192ED03 & _MASK)) for c in range(counter, counter + n)]


@dataclass(frozen=True, slots=True)
class Chance:
    """Where the next random value comes from; immutable."""

    seed: int
    counter: int = 0

    def bits(self) -> tuple[int, "Chance"]:
        """64 random bits and the next Chance."""
        return _draws(self.seed, self.counter, 1)[0], Chance(self.seed, self.counter + 1)

    def below(self, n: int) -> tuple[int, "Chance"]:
        """A uniform int in [0, n) (bias below n / 2**64, i.e. none measurable)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        x, nxt = self.bits()
        return (x * n) >> 64, nxt

    def happens(self, p: float) -> tuple[bool, "Chance"]:
        """True with probability p (one 64-bit draw below p * 2**64) and the next Chance.

        A yes/no event says its probability, so an explicit-chance wrapper
        (OpenSpiel) can show it as a two-outcome chance node."""
        x, nxt = self.bits()
        return x < int(p * 2**64), nxt

    def choice(self, items: Sequence[T]) -> tuple[T, "Chance"]:
        i, nxt = self.below(len(items))
        return items[i], nxt

    def shuffled(self, items: Sequence[T]) -> tuple[list[T], "Chance"]:
        """A uniformly shuffled copy (Fisher-Yates) and the next Chance."""
        out = list(items)
        steps = max(0, len(out) - 1)
        # the values n-1 calls of below() would give, without a Chance per step
        for x, i in zip(_draws(self.seed, self.counter, steps), range(len(out) - 1, 0, -1)):
            j = (x * (i + 1)) >> 64
            out[i], out[j] = out[j], out[i]
        return out, Chance(self.seed, self.counter + steps)

    def sample(self, items: Sequence[T], k: int) -> tuple[list[T], "Chance"]:
        """k distinct items drawn without replacement, in draw order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot draw {k} from {len(pool)} items")
        for i, x in enumerate(_draws(self.seed, self.counter, k)):  # as k calls of below()
            j = (x * (len(pool) - i)) >> 64
            pool[i], pool[i + j] = pool[i + j], pool[i]
        return pool[:k], Chance(self.seed, self.counter + k)

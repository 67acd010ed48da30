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
    if type(seed) is int and seed >= 0 and len(labels) == 2 and type(labels[1]) is int and labels[0] in _LABELS:
        # the common case (game i of a run, seat k's bot) without repr of a nested tuple: the same text
        text = f"({seed}, ({_LABELS[labels[0]]}, {labels[1]}))".encode()
    else:
        text = repr((check_seed(seed), labels)).encode()
    return int.from_bytes(_blake2b(text, digest_size=8).digest(), "big") >> 1


_blake2b = hashlib.blake2b
_LABELS = {label: repr(label) for label in ("game", "bot")}  # labels simulate derives per game


def _splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _draws(seed: int, counter: int, n: int) -> list[int]:
    """The 64-bit values at positions counter .. counter+n-1 of stream `seed`."""
    key = _key(seed)
    return [_splitmix64(key ^ (c * 0xD1B54A32D192ED03 & _MASK)) for c in range(counter, counter + n)]


_KEYS: dict[int, int] = {}  # seed -> its stream key: a game draws many single values from one seed


def _key(seed: int) -> int:
    """The 64-bit key of stream `seed` (any whole number >= 0 is a seed).

    The bits of a seed above 2**64 are folded in by xor, and the key is kept to
    64 bits: every draw uses only the low 64 bits of the key (its first step is
    `(key ^ x) + gamma` mod 2**64), so the draws are those of every seed below
    2**128 as before, and a seed of 2**128 or more plays too (numpy's uint64
    used to refuse its wider key)."""
    key = _KEYS.get(seed)
    if key is None:
        if len(_KEYS) > 4096:  # a long run of games: start afresh rather than grow
            _KEYS.clear()
        key = _KEYS[seed] = (_splitmix64(seed & _MASK) ^ (seed >> 64)) & _MASK
    return key


def _draw(seed: int, counter: int) -> int:
    """_draws(seed, counter, 1)[0], without the list (one die roll, one card)."""
    z = ((_key(seed) ^ (counter * 0xD1B54A32D192ED03 & _MASK)) + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


stream_key = _key  # a game core keeps its stream's key and draws from it in place (below_at)


def below_at(key: int, counter: int, n: int) -> int:
    """Chance(seed, counter).below(n)'s value, for the stream whose key is stream_key(seed),
    without making a Chance: a game core keeps (key, counter) and rolls its dice with this
    (the same values: tests/test_core.py). n >= 1 (the caller's die has faces)."""
    z = ((key ^ (counter * 0xD1B54A32D192ED03 & _MASK)) + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) * n) >> 64


# A whole shuffle's draws at once: numpy's uint64 arithmetic wraps at 2**64 exactly as
# SplitMix64 needs, so the values are the same as _draws gives (tests/test_core.py checks
# it), at about half the cost from ~16 draws up. Without numpy (a bare Pyodide), plain Python.
_VECTOR_FROM = 16
_np = None
_STEPS: dict[range, tuple] = {}  # bounds -> numpy arrays made once per size (see _below_each)



def roll_in_place(c, n: int) -> int:
    """below(n) for a game core `c`, drawn in place: from its seeded stream (`c.key`, `c.counter`,
    which moves on by one) when `c.chance` is None, else from `c.chance` (any Chance lookalike,
    which `c.chance` is then moved on to). Duck's and Piggyback's cores roll their dice with it."""
    ch = c.chance
    if ch is None:
        counter = c.counter
        c.counter = counter + 1
        return below_at(c.key, counter, n)
    i, c.chance = ch.below(n)
    return i

def _numpy():
    global _np
    if _np is None:
        try:
            import numpy
        except ImportError:  # pragma: no cover - numpy is a dependency, but rules/ runs without it
            numpy = False
        _np = numpy
    return _np


def _below_each(seed: int, counter: int, bounds: range) -> list[int]:
    """[(x * b) >> 64 for each draw x from position `counter` on and each bound b]:
    the values successive below(b) calls would give."""
    n = len(bounds)
    # a range's largest bound is at one end (max() would walk it)
    np = _numpy() if n >= _VECTOR_FROM and max(bounds[0], bounds[-1]) < 1 << 32 else None
    if not np:
        return [(x * b) >> 64 for x, b in zip(_draws(seed, counter, n), bounds)]
    u = np.uint64
    k = _consts(np)
    steps = _STEPS.get(bounds)
    if steps is None:
        if len(_STEPS) > 256:  # many sizes: start afresh rather than grow
            _STEPS.clear()
        # counter offsets times the odd constant (wrapping mod 2**64, as & _MASK does), and the bounds
        steps = _STEPS[bounds] = (np.arange(n, dtype=np.uint64) * k.odd, np.array(bounds, dtype=np.uint64))
    # SplitMix64 in place (one new array per shift): the same values as _draws
    z = steps[0] + u((counter * 0xD1B54A32D192ED03) & _MASK)
    z ^= u(_key(seed))
    z += k.gamma
    z ^= z >> k.s30
    z *= k.m1
    z ^= z >> k.s27
    z *= k.m2
    z ^= z >> k.s31
    # (z * b) >> 64 in 64-bit pieces (b < 2**32): high half of z times b, plus the carry of the low half
    b = steps[1]
    low = z & k.low
    low *= b
    low >>= k.s32
    z >>= k.s32
    z *= b
    z += low
    z >>= k.s32
    return z.tolist()


class _Consts:
    """numpy uint64 scalars of SplitMix64's constants, made once (a scalar costs a call each time)."""

    def __init__(self, np):
        u = np.uint64
        self.odd, self.gamma = u(0xD1B54A32D192ED03), u(0x9E3779B97F4A7C15)
        self.m1, self.m2 = u(0xBF58476D1CE4E5B9), u(0x94D049BB133111EB)
        self.s27, self.s30, self.s31, self.s32, self.low = u(27), u(30), u(31), u(32), u(0xFFFFFFFF)


_CONSTS: list = []


def _consts(np) -> _Consts:
    if not _CONSTS:
        _CONSTS.append(_Consts(np))
    return _CONSTS[0]


@dataclass(frozen=True, slots=True)
class Chance:
    """Where the next random value comes from; immutable."""

    seed: int
    counter: int = 0

    def bits(self) -> tuple[int, "Chance"]:
        """64 random bits and the next Chance."""
        seed, counter = self.seed, self.counter
        return _draw(seed, counter), Chance(seed, counter + 1)

    def below(self, n: int) -> tuple[int, "Chance"]:
        """A uniform int in [0, n) (bias below n / 2**64, i.e. none measurable)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        # _draw written out: a die roll is the engines' most frequent call
        seed, counter = self.seed, self.counter
        key = _KEYS.get(seed)
        if key is None:
            key = _key(seed)
        z = ((key ^ (counter * 0xD1B54A32D192ED03 & _MASK)) + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        nxt = _new(Chance)
        _set_seed(nxt, seed)
        _set_counter(nxt, counter + 1)
        return ((z ^ (z >> 31)) * n) >> 64, nxt

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
        n = len(out)
        steps = max(0, n - 1)
        # the values n-1 calls of below(i + 1) would give, without a Chance per step
        for i, j in zip(range(n - 1, 0, -1), _below_each(self.seed, self.counter, range(n, 1, -1))):
            out[i], out[j] = out[j], out[i]
        return out, Chance(self.seed, self.counter + steps)

    def sample(self, items: Sequence[T], k: int) -> tuple[list[T], "Chance"]:
        """k distinct items drawn without replacement, in draw order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot draw {k} from {len(pool)} items")
        n = len(pool)
        for i, j in enumerate(_below_each(self.seed, self.counter, range(n, n - k, -1))):  # as k calls of below()
            pool[i], pool[i + j] = pool[i + j], pool[i]
        return pool[:k], Chance(self.seed, self.counter + k)


# A Chance made without the frozen dataclass's __init__ (two object.__setattr__ calls through
# Python): the slots' own setters, as that __init__ ends up calling.
_new = object.__new__
_set_seed = Chance.__dict__["seed"].__set__
_set_counter = Chance.__dict__["counter"].__set__

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
import random
from struct import unpack as _unpack
from dataclasses import dataclass
from typing import Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1

# The chance version new games are dealt from. Version 1: `Chance` (SplitMix64 of (seed, counter),
# game i of a run seeded by blake2b of its labels). Version 2: `Chance2` (one Mersenne Twister per
# game and purpose, seeded by integer arithmetic; see below): the deal (every shuffle), the dice
# (every other draw) and each seat's bot, so two variants on the same seeds share deals and rolls
# wherever their rules draw the same. A record carries its version and
# replays on it, so every record written before version 2 existed still replays as version 1.
CHANCE = 2
VERSIONS = (1, 2)
_INDEX_BITS = 32  # game i of a run, v2: seed * 2**32 + i (runs are far shorter: sim.MAX_GAMES)
DEAL, DICE, SEAT = 0, 1, 2  # v2 purposes: the deal (shuffles), the dice (every other draw), seat k's bot: SEAT + k
_PURPOSES = 256  # a purpose is below this (seats: far fewer than 254)


def check_version(version: object, what: str = "chance version") -> int:
    """`version` if it is a chance version this meeple can deal from, else a ValueError saying which are."""
    if type(version) is int and version in VERSIONS:
        return version
    raise ValueError(f"{what} must be one of {', '.join(map(str, VERSIONS))}, got {version!r}")


def game_seed(seed: int, index: int, version: int = CHANCE) -> int:
    """The seed of game `index` of a run with `seed`: version 1 `derive(seed, "game", index)`,
    version 2 `seed * 2**32 + index` (integer arithmetic, no hashing; injective below 2**32 games)."""
    if version == 1:
        return derive(seed, "game", index)
    if not 0 <= index < 1 << _INDEX_BITS:
        raise ValueError(f"game index must be from 0 to {(1 << _INDEX_BITS) - 1}, got {index!r}")
    return (seed << _INDEX_BITS) | index


def stream(seed: int, purpose: int) -> random.Random:
    """Version 2's stream for one purpose (DEAL, DICE, SEAT + k) of the game with `seed`: a
    Mersenne Twister seeded with seed * 256 + purpose (its init_by_array takes every bit of it)."""
    return random.Random(seed * _PURPOSES + purpose)


def start(seed: int, version: int = CHANCE):
    """The chance a game with `seed` is dealt from: Chance(seed) (version 1) or Chance2.of(seed)."""
    return Chance(seed) if version == 1 else Chance2.of(seed)


def version_of(chance) -> int | None:
    """1 for a Chance, 2 for a Chance2, None for anything else (a determinized or scripted stream)."""
    return 1 if type(chance) is Chance else 2 if type(chance) is Chance2 else None


def check_seed(seed: object, what: str = "seed") -> int:
    """Return seed if it is a non-negative int, else raise a clear ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        shown = repr(seed)  # a saved setup's megabyte (or a long list) is echoed cut, as rules/files.shown_text does
        raise ValueError(f"{what} must be a whole number >= 0, got {shown if len(shown) <= 60 else shown[:57] + '...'}")
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
    (the same values: tests/rules/test_core.py). n >= 1 (the caller's die has faces)."""
    z = ((key ^ (counter * 0xD1B54A32D192ED03 & _MASK)) + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) * n) >> 64


# A whole shuffle's draws at once: numpy's uint64 arithmetic wraps at 2**64 exactly as
# SplitMix64 needs, so the values are the same as _draws gives (tests/rules/test_core.py checks
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


# --- chance version 2 ----------------------------------------------------------------

class _Streams:
    """One game's version-2 draws: the deal's and the dice's 64-bit values so far (append-only,
    so every state of the game shares them: a state at position p reads value p, drawing more
    from its Mersenne Twister, seeded on first use, when p is past the end)."""

    __slots__ = ("seed", "deal", "dice", "_deal_rng", "_dice_rng")

    def __init__(self, seed: int):
        self.seed = seed
        self.deal: list[int] = []
        self.dice: list[int] = []
        self._deal_rng = self._dice_rng = None

    def more_deal(self, upto: int) -> None:
        """Draw deal values until there are upto + 1."""
        if self._deal_rng is None:
            self._deal_rng = stream(self.seed, DEAL)
        vals = self.deal
        k = upto + 1 - len(vals)
        if k > 0:
            vals += _values(self._deal_rng, k)

    def more_dice(self, upto: int) -> int:
        """Draw dice values until there are at least upto + 1 (a batch of _DICE_BATCH at least: the
        same values, drawn a little ahead, so a core reads most rolls from the list); return value `upto`."""
        if self._dice_rng is None:
            self._dice_rng = stream(self.seed, DICE)
        vals = self.dice
        k = upto + 1 - len(vals)
        if k > 0:
            vals += _values(self._dice_rng, max(k, _DICE_BATCH))
        return vals[upto]


_DICE_BATCH = 16


def _values(rng: random.Random, k: int) -> tuple[int, ...]:
    """The next k getrandbits(64) values of `rng`, in order, from one getrandbits(64 * k) call: CPython
    fills a wide draw with 32-bit words from the least significant up, so its 64-bit pieces, lowest
    first, are the values k calls of getrandbits(64) give (tests/rules/test_chance2.py checks it)."""
    return _unpack(f"<{k}Q", rng.getrandbits(64 * k).to_bytes(8 * k, "little"))


class Chance2:
    """Version 2 of `Chance`: the same methods and values' meaning (below(n) is (x * n) >> 64 of a
    64-bit draw x; a shuffle is Fisher-Yates as Chance's), immutable, but two streams per game:
    shuffles and samples (the deal) from one, every other draw (the dice, a fall) from the other,
    so a variant that rolls differently still deals the same cards from a seed, and one that deals
    differently still rolls the same dice. `deal` and `dice` are the positions in each. Only
    `shuffled` draws from the deal stream; `sample` (a pick during play) draws from the dice."""

    __slots__ = ("streams", "deal", "dice")

    def __init__(self, streams: _Streams, deal: int = 0, dice: int = 0):
        self.streams, self.deal, self.dice = streams, deal, dice

    @classmethod
    def of(cls, seed: int) -> "Chance2":
        """The start of the game with `seed`."""
        return cls(_Streams(check_seed(seed)))

    @property
    def seed(self) -> int:
        return self.streams.seed

    def __eq__(self, other):
        if other.__class__ is not Chance2:
            return NotImplemented
        return (self.streams.seed, self.deal, self.dice) == (other.streams.seed, other.deal, other.dice)

    def __hash__(self):
        return hash((Chance2, self.streams.seed, self.deal, self.dice))

    def __repr__(self):
        return f"Chance2(seed={self.streams.seed}, deal={self.deal}, dice={self.dice})"

    def __reduce__(self):  # a pickle holds the positions; the values are drawn again from the seed
        return _chance2, (self.streams.seed, self.deal, self.dice)

    def _next_dice(self) -> tuple[int, "Chance2"]:
        s, p = self.streams, self.dice
        vals = s.dice
        x = vals[p] if p < len(vals) else s.more_dice(p)
        nxt = _new(Chance2)
        nxt.streams, nxt.deal, nxt.dice = s, self.deal, p + 1
        return x, nxt

    def bits(self) -> tuple[int, "Chance2"]:
        """64 random bits (the dice stream) and the next Chance2."""
        return self._next_dice()

    def below(self, n: int) -> tuple[int, "Chance2"]:
        """A uniform int in [0, n) from the dice stream."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        x, nxt = self._next_dice()
        return (x * n) >> 64, nxt

    def happens(self, p: float) -> tuple[bool, "Chance2"]:
        """True with probability p (the dice stream), as Chance.happens."""
        x, nxt = self._next_dice()
        return x < int(p * 2**64), nxt

    def choice(self, items: Sequence[T]) -> tuple[T, "Chance2"]:
        i, nxt = self.below(len(items))
        return items[i], nxt

    def shuffled(self, items: Sequence[T]) -> tuple[list[T], "Chance2"]:
        """A uniformly shuffled copy (Fisher-Yates, as Chance.shuffled) from the deal stream."""
        out = list(items)
        n = len(out)
        s, p = self.streams, self.deal
        end = p + n - 1
        if end > len(s.deal):
            s.more_deal(end - 1)
        # slot i - 1 swaps with j = (x * i) >> 64, below(i) of the next deal value, in one pass with no
        # list of indices (a deal's shuffle is up to a fifth of a Duck game)
        i = n
        for x in s.deal[p:end]:
            j = (x * i) >> 64
            i -= 1
            out[i], out[j] = out[j], out[i]
        return out, Chance2(s, p + max(0, n - 1), self.dice)

    def sample(self, items: Sequence[T], k: int) -> tuple[list[T], "Chance2"]:
        """k distinct items drawn without replacement, in draw order, as k calls of below() (the
        dice stream: a pick during play, such as Duck's steal from a nest, leaves the deal alone)."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot draw {k} from {len(pool)} items")
        n = len(pool)
        ch = self
        for i in range(k):
            j, ch = ch.below(n - i)
            pool[i], pool[i + j] = pool[i + j], pool[i]
        return pool[:k], ch


def _chance2(seed: int, deal: int, dice: int) -> Chance2:
    return Chance2(_Streams(seed), deal, dice)

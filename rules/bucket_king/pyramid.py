"""Bucket King's pyramid geometry (BK-3, BK-10 to BK-12): pure bitmask maths, no game state.

A pyramid's positions are flat-indexed bottom row first, left to right: position (row, slot),
row 0 the bottom, is bit k of a bitmask. Bucket (r, i) rests on (r-1, i) and (r-1, i+1)
(BK-10); two buckets touch when side by side in a row or when one rests on the other (BK-12).
`rows` are the row lengths bottom first, each one shorter than the row below, e.g. (5, 4, 3, 2, 1).
The helpers on bitmasks are cached by their arguments: a game meets the same few hundred
pyramids over and over. `falling_buckets` and `fall_distribution` are the checked, position-
based versions the lessons call.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ..chance import Chance


class Layout(NamedTuple):
    """Positions of a pyramid, flat-indexed bottom row first, left to right."""

    positions: tuple[tuple[int, int], ...]
    index: dict
    below: tuple[tuple[int, ...], ...]  # the (two) buckets each one rests on
    near: tuple[tuple[int, ...], ...]  # touching buckets: same-row neighbours, below, above
    below_mask: tuple[int, ...]  # `below` as bitmasks (0 on the bottom row)
    near_mask: tuple[int, ...]  # `near` as bitmasks
    full: int  # every position


def mask_of(indices) -> int:
    """The bitmask of these flat indices."""
    m = 0
    for k in indices:
        m |= 1 << k
    return m


@lru_cache(maxsize=1 << 16)
def indices_of(mask: int) -> tuple[int, ...]:
    """The flat indices in a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def standing_of(pyramid: tuple) -> int:
    """Bitmask of the positions of a pyramid that still hold a bucket."""
    m = 0
    for k, c in enumerate(pyramid):
        if c is not None:
            m |= 1 << k
    return m


@lru_cache(maxsize=64)
def layout_of(rows: tuple[int, ...]) -> Layout:
    """The Layout of a pyramid with these row lengths (bottom first; not checked here: falling_buckets checks its arguments)."""
    positions = tuple((r, i) for r, n in enumerate(rows) for i in range(n))
    index = {p: k for k, p in enumerate(positions)}
    below = tuple(() if r == 0 else (index[(r - 1, i)], index[(r - 1, i + 1)]) for r, i in positions)
    near = []
    for r, i in positions:
        cand = [(r, i - 1), (r, i + 1), (r - 1, i), (r - 1, i + 1), (r + 1, i - 1), (r + 1, i)]
        near.append(tuple(index[p] for p in cand if p in index))
    return Layout(
        positions, index, below, tuple(near),
        tuple(map(mask_of, below)), tuple(map(mask_of, near)), (1 << len(positions)) - 1,
    )


@lru_cache(maxsize=1 << 16)
def falling_mask(rows: tuple[int, ...], standing: int, k: int) -> int:
    """BK-10 exact rule: bucket k and every bucket resting on a falling one,
    transitively, as a bitmask (`standing`: bitmask of the buckets there)."""
    below = layout_of(rows).below_mask
    fall = 1 << k
    for j in range(k + 1, len(below)):
        if standing >> j & 1 and below[j] & fall:
            fall |= 1 << j
    return fall


def poke_falls(present, k: int, lay: Layout, p: float, chance: Chance) -> tuple[list[int], Chance]:
    """BK-11 poke model: a bucket that loses one of two supports falls with
    probability p; one with no support left falls for sure. Buckets are
    decided row by row upwards, left to right (so the chance stream is fixed)."""
    fall = {k}
    below = lay.below
    for j in range(k + 1, len(present)):
        b = below[j]
        if not present[j] or not b:
            continue
        lost = (b[0] in fall) + (b[1] in fall)
        if not lost:
            continue
        left = (present[b[0]] and b[0] not in fall) + (present[b[1]] and b[1] not in fall)
        if left == 0:
            fall.add(j)
        else:
            falls, chance = chance.happens(p)
            if falls:
                fall.add(j)
    return sorted(fall), chance


@lru_cache(maxsize=1 << 16)
def split_parts(rows: tuple[int, ...], standing: int) -> tuple[int, ...]:
    """Connected parts of what stands (touching buckets) as bitmasks,
    the part holding the lowest index (leftmost-lowest) first."""
    near = layout_of(rows).near_mask
    parts = []
    rest = standing
    while rest:
        part = edge = rest & -rest
        while edge:
            grow = 0
            for j in indices_of(edge):
                grow |= near[j]
            edge = grow & standing & ~part
            part |= edge
        parts.append(part)
        rest &= ~part
    return tuple(parts)


def _geometry(rows, removed, position) -> tuple[Layout, list[bool], int]:
    """Check the helpers' arguments; (layout, which positions stand, index of `position`)."""
    rows = tuple(rows)
    if not rows or any(b != a - 1 for a, b in zip(rows, rows[1:])) or rows[-1] < 1:
        raise ValueError(f"rows={rows} is not allowed: row lengths bottom first, each one shorter than the last")
    lay = layout_of(rows)
    gone = set(map(tuple, removed))
    bad = gone - set(lay.index)
    if bad:
        raise ValueError(f"removed={sorted(bad)} is not allowed: positions of a {'-'.join(map(str, rows))} pyramid")
    position = tuple(position)
    if position not in lay.index or position in gone:
        raise ValueError(f"position={position} is not allowed: a bucket still standing in the pyramid")
    return lay, [q not in gone for q in lay.positions], lay.index[position]


def falling_buckets(rows, removed, position) -> set[tuple[int, int]]:
    """What leaves a pyramid when the bucket at `position` is taken away (exact rule, BK-10).

    `rows` are row lengths bottom first, e.g. (5, 4, 3, 2, 1); `removed` the
    positions already gone; a position is (row, slot), row 0 the bottom;
    bucket (r, i) rests on (r-1, i) and (r-1, i+1). The result includes
    `position` itself, so its size is the number of buckets lost (before
    any split of what is left, BK-12).
    """
    lay, present, k = _geometry(rows, removed, position)
    standing = mask_of(j for j, here in enumerate(present) if here)
    return {lay.positions[j] for j in indices_of(falling_mask(tuple(rows), standing, k))}


def fall_distribution(rows, removed, position, p) -> dict[int, Fraction]:
    """Exact distribution of the number of buckets lost under the poke model
    (BK-11) with probability `p` (a Fraction, or a float taken exactly), the
    bucket itself included, before any split: {count: probability}."""
    lay, present, k0 = _geometry(rows, removed, position)
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is not allowed: a probability from 0 to 1")

    def walk(j, fall, weight, out):
        if not weight:
            return
        if j == len(present):
            out[len(fall)] = out.get(len(fall), 0) + weight
            return
        b = lay.below[j]
        if not present[j] or not b or not ((b[0] in fall) + (b[1] in fall)):
            return walk(j + 1, fall, weight, out)
        left = (present[b[0]] and b[0] not in fall) + (present[b[1]] and b[1] not in fall)
        if left == 0:
            return walk(j + 1, fall | {j}, weight, out)
        walk(j + 1, fall | {j}, weight * p, out)
        walk(j + 1, fall, weight * (1 - p), out)

    out: dict = {}
    walk(k0 + 1, frozenset({k0}), Fraction(1), out)
    return dict(sorted(out.items()))


@lru_cache(maxsize=1 << 16)
def loss_damage(rows: tuple[int, ...], standing: int, k: int) -> int:
    """Buckets lost by taking away bucket k (exact rule, keeping the larger part)."""
    fall = falling_mask(rows, standing, k)
    parts = split_parts(rows, standing & ~fall)
    lost = fall.bit_count()
    if len(parts) > 1:
        sizes = [part.bit_count() for part in parts]
        lost += sum(sizes) - max(sizes)
    return lost




__all__ = [
    "Layout", "fall_distribution", "falling_buckets", "falling_mask", "indices_of", "layout_of", "loss_damage",
    "mask_of", "poke_falls", "split_parts", "standing_of",
]

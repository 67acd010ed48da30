"""Bucket King's pyramid geometry (meeple.rules.bucket_king.pyramid) against brute force.

Every claim the module's docstrings make is checked over every set of standing buckets of
small pyramids, against a second, slow reading of the rules written here from seeds/bucket_king.md
with sets of (row, slot) positions: a bucket rests on the two below it (BK-10); buckets touch
side by side in a row or when one rests on the other (BK-12); the poke model decides each bucket
that lost a support, row by row upwards (BK-11).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from meeple.rules.bucket_king import pyramid as pm

SMALL = [(1,), (2, 1), (3, 2, 1), (4, 3, 2, 1), (3, 2), (4, 3)]  # whole pyramids and truncated ones


def _positions(rows):
    return [(r, i) for r, n in enumerate(rows) for i in range(n)]


def _supports(q):
    r, i = q
    return set() if r == 0 else {(r - 1, i), (r - 1, i + 1)}


def _touch(a, b):
    (r, i), (s, j) = a, b
    return (r == s and abs(i - j) == 1) or a in _supports(b) or b in _supports(a)


def _standing_sets(rows):
    """Every set of standing positions (as a set and as a bitmask)."""
    pos = _positions(rows)
    for bits in range(1 << len(pos)):
        yield {q for k, q in enumerate(pos) if bits >> k & 1}, bits


def _slow_falls(stand, q0):
    """BK-10: q0 and, transitively, every standing bucket resting on a falling one."""
    fall = {q0}
    grew = True
    while grew:
        more = {q for q in stand - fall if _supports(q) & fall}
        grew = bool(more)
        fall |= more
    return fall


def _slow_parts(stand):
    """BK-12: the connected parts of `stand` (touching buckets), each as a set."""
    left, out = set(stand), []
    while left:
        part = {min(left)}
        while True:
            more = {q for q in left - part if any(_touch(q, x) for x in part)}
            if not more:
                break
            part |= more
        out.append(part)
        left -= part
    return out


def _mask(rows, qs):
    index = {q: k for k, q in enumerate(_positions(rows))}
    return sum(1 << index[q] for q in qs)


@pytest.mark.parametrize("rows", SMALL, ids=str)
def test_the_layout_is_the_pyramid_the_rules_describe(rows):
    lay = pm.layout_of(rows)
    pos = _positions(rows)
    assert list(lay.positions) == pos and lay.full == (1 << len(pos)) - 1
    assert all(lay.index[q] == k for k, q in enumerate(pos))
    for k, q in enumerate(pos):
        assert {pos[j] for j in lay.below[k]} == (_supports(q) if _supports(q) <= set(pos) else set())
        assert lay.below_mask[k] == pm.mask_of(lay.below[k])
        assert {pos[j] for j in lay.near[k]} == {x for x in pos if x != q and _touch(q, x)}
        assert lay.near_mask[k] == pm.mask_of(lay.near[k])


def test_masks_and_indices_are_inverse():
    for mask in range(1 << 10):
        idx = pm.indices_of(mask)
        assert list(idx) == sorted(idx) and pm.mask_of(idx) == mask
    assert pm.standing_of(("red", None, "blue", None)) == 0b101


@pytest.mark.parametrize("rows", SMALL, ids=str)
def test_falling_mask_is_every_bucket_resting_on_a_falling_one(rows):
    pos = _positions(rows)
    for stand, bits in _standing_sets(rows):
        for q in stand:
            k = pos.index(q)
            assert pm.falling_mask(rows, bits, k) == _mask(rows, _slow_falls(stand, q)), (stand, q)


@pytest.mark.parametrize("rows", SMALL, ids=str)
def test_split_parts_are_the_touching_parts_lowest_index_first(rows):
    for stand, bits in _standing_sets(rows):
        want = sorted((_mask(rows, part) for part in _slow_parts(stand)), key=lambda m: m & -m)
        assert list(pm.split_parts(rows, bits)) == want, stand


@pytest.mark.parametrize("rows", SMALL, ids=str)
def test_loss_damage_is_the_fall_plus_all_but_the_largest_part(rows):
    pos = _positions(rows)
    for stand, bits in _standing_sets(rows):
        for q in stand:
            fall = _slow_falls(stand, q)
            sizes = [len(p) for p in _slow_parts(stand - fall)]
            want = len(fall) + (sum(sizes) - max(sizes) if sizes else 0)
            assert pm.loss_damage(rows, bits, pos.index(q)) == want, (stand, q)


def test_falling_buckets_reads_positions_and_refuses_bad_ones():
    assert pm.falling_buckets((3, 2, 1), [], (0, 1)) == {(0, 1), (1, 0), (1, 1), (2, 0)}
    assert pm.falling_buckets((3, 2, 1), [(1, 1), (2, 0)], (0, 0)) == {(0, 0), (1, 0)}
    with pytest.raises(ValueError, match="rows="):
        pm.falling_buckets((3, 3), [], (0, 0))
    with pytest.raises(ValueError, match="removed="):
        pm.falling_buckets((3, 2, 1), [(5, 0)], (0, 0))
    with pytest.raises(ValueError, match="position="):
        pm.falling_buckets((3, 2, 1), [(0, 0)], (0, 0))


class _Scripted:
    """A stand-in for Chance whose `happens` answers from a script and records each question."""

    def __init__(self, answers):
        self.answers, self.asked = list(answers), 0

    def happens(self, p):
        self.asked += 1
        if not self.answers:
            raise LookupError
        return self.answers.pop(0), self


def _poke_by_enumeration(rows, present, k, p):
    """The exact distribution of poke_falls' loss, by running it on every script of answers."""
    lay = pm.layout_of(rows)
    out, todo = {}, [()]
    while todo:
        script = todo.pop()
        ch = _Scripted(script)
        try:
            fall, _ = pm.poke_falls(present, k, lay, p, ch)
        except LookupError:  # the script ran out: both answers to the next question
            todo += [script + (True,), script + (False,)]
            continue
        assert ch.asked == len(script)
        w = Fraction(1)
        for yes in script:
            w *= p if yes else 1 - p
        out[len(fall)] = out.get(len(fall), 0) + w
    return dict(sorted(out.items()))


@pytest.mark.parametrize("rows", [(3, 2, 1), (4, 3, 2, 1)], ids=str)
def test_fall_distribution_is_the_poke_model_played_out(rows):
    """fall_distribution (exact, by its own walk) equals poke_falls (the game's draw) over every answer
    sequence, on every standing set reachable from a full pyramid by exact falls and a few pokes."""
    pos = _positions(rows)
    p = Fraction(1, 3)
    seen = 0
    for stand, _ in _standing_sets(rows):
        if len(stand) < len(pos) - 3:
            continue
        present = [q in stand for q in pos]
        removed = [q for q in pos if q not in stand]
        for q in stand:
            want = pm.fall_distribution(rows, removed, q, p)
            assert sum(want.values()) == 1
            assert _poke_by_enumeration(rows, present, pos.index(q), p) == want, (stand, q)
            seen += 1
    assert seen > 50


@pytest.mark.parametrize("rows", [(3, 2, 1), (4, 3, 2, 1)], ids=str)
def test_the_poke_model_with_certain_falls_is_the_exact_rule(rows):
    """With p = 1 every bucket that lost a support falls: the exact rule's loss, for sure."""
    pos = _positions(rows)
    for stand, _ in _standing_sets(rows):
        removed = [q for q in pos if q not in stand]
        for q in stand:
            if all(_supports(x) <= stand for x in stand if x[0]):  # a standing set the exact rule leaves
                assert pm.fall_distribution(rows, removed, q, 1) == {len(_slow_falls(stand, q)): 1}


def test_every_answer_sequence_is_asked_row_by_row():
    """poke_falls asks about buckets in flat order (row by row upwards): the chance stream is fixed."""
    rows = (3, 2, 1)
    lay = pm.layout_of(rows)
    for script in product((True, False), repeat=3):
        ch = _Scripted(script)
        try:
            fall, _ = pm.poke_falls([True] * 6, 0, lay, 0.5, ch)
        except LookupError:
            continue
        assert fall == sorted(fall) and fall[0] == 0

"""Seeds and draws (rules/chance.py; issue 19 item 3): every seed the checker accepts plays and
replays, and seeds below 2**128 draw exactly what they drew before the key was kept to 64 bits.
"""

from __future__ import annotations

import pytest

from meeple.rules import GAMES, chance, play, replay

HUGE = (2**128, 2**128 + 7, 2**200 + 3, 10**100)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_huge_seed_plays_and_replays(name):
    for seed in HUGE:
        rec = play(name, None, "random", seed)
        assert replay(rec.to_json()) == rec
        assert play(name, None, "random", seed) == rec  # the same seed, the same game


def _old_draw(seed: int, counter: int) -> int:
    """The draw as written before (the key not kept to 64 bits): the reference for seeds below 2**128."""
    mask = (1 << 64) - 1
    key = chance._splitmix64(seed & mask) ^ (seed >> 64)
    return chance._splitmix64(key ^ (counter * 0xD1B54A32D192ED03 & mask))


def test_seeds_below_2_128_draw_what_they_drew_before():
    for seed in (0, 1, 7, 2**63 - 1, 2**64, 2**64 + 5, 2**127 + 12345, 2**128 - 1):
        c = chance.Chance(seed, 3)
        assert [c.bits()[0], chance._draws(seed, 3, 20)] == [_old_draw(seed, 3), [_old_draw(seed, k) for k in range(3, 23)]]
        # the numpy shuffle (from 16 cards) and the plain one agree, above 2**128 too
    for seed in (5, 2**127 + 1, *HUGE):
        bounds = range(60, 1, -1)
        assert chance._below_each(seed, 9, bounds) == [(x * b) >> 64 for x, b in zip(chance._draws(seed, 9, 59), bounds)]

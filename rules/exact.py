"""Exact answers, as Fractions, where the maths allows: what a dealt hand holds.

A shuffled deck dealt into hands (with or without cards set aside) gives
every seat a uniformly random set of `hand` cards from the deck, so the
number of cards of one kind in a hand is hypergeometric and the counts of
several kinds together are multivariate hypergeometric:

    P(k of the K red cards in a hand of n from N) = C(K, k) C(N-K, n-k) / C(N, n)

    colour_in_hand(bucket_brigade.Config(), "red")     # {0: ..., 1: ..., ...}
    colour_at_least(bucket_king.Config(), "red", 4)    # P(>= 4 red in a hand)

The card-game helpers work for any game whose Config has `deck()` and
`hand_size` (Bucket Brigade, Bucket King). Game-specific exact maths lives
in the game modules and is re-exported here when present:
`exact_turn_distance` (Piggyback Brigade), `bust_probability`,
`steal_expectation`, `best_stop` (Duck, Duck, Bruce).
Every function is checked against brute-force enumeration in tests/test_exact.py.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb
from typing import Any, Callable, Hashable, Iterable, Mapping

Dist = dict  # {outcome: Fraction}, probabilities summing to 1


def _check_counts(population: int, successes: int, draws: int) -> None:
    for name, v in (("population", population), ("successes", successes), ("draws", draws)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
    if successes > population:
        raise ValueError(f"successes={successes} is more than the population {population}")
    if draws > population:
        raise ValueError(f"cannot draw {draws} cards from {population}")


def hypergeometric(population: int, successes: int, draws: int) -> dict[int, Fraction]:
    """{k: P(exactly k of the `successes` marked cards among `draws` cards drawn
    without replacement from `population`)}; only possible k are listed."""
    _check_counts(population, successes, draws)
    total = comb(population, draws)
    low, high = max(0, draws - (population - successes)), min(draws, successes)
    return {k: Fraction(comb(successes, k) * comb(population - successes, draws - k), total) for k in range(low, high + 1)}


def at_least(dist: Mapping[int, Fraction], k: int) -> Fraction:
    """P(outcome >= k) of a distribution {outcome: probability}."""
    return sum((p for v, p in dist.items() if v >= k), Fraction(0))


def at_most(dist: Mapping[int, Fraction], k: int) -> Fraction:
    return sum((p for v, p in dist.items() if v <= k), Fraction(0))


def mean(dist: Mapping[Any, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def variance(dist: Mapping[Any, Fraction]) -> Fraction:
    m = mean(dist)
    return sum(((v - m) ** 2 * p for v, p in dist.items()), Fraction(0))


def hand_composition(groups: Mapping[Hashable, int], draws: int) -> dict[tuple[int, ...], Fraction]:
    """Multivariate hypergeometric: {(count of group 1, group 2, ...): P} for a hand of
    `draws` cards from a deck of `groups` ({label: cards}, in the mapping's order)."""
    sizes = list(groups.values())
    for label, v in groups.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"group {label!r} must hold a whole number >= 0 of cards, got {v!r}")
    population = sum(sizes)
    _check_counts(population, 0, draws)
    total = comb(population, draws)
    out: dict[tuple[int, ...], Fraction] = {}

    def fill(i: int, left: int, counts: tuple[int, ...], ways: int) -> None:
        if i == len(sizes) - 1:
            if left <= sizes[i]:
                out[counts + (left,)] = Fraction(ways * comb(sizes[i], left), total)
            return
        rest = sum(sizes[i + 1 :])
        for k in range(max(0, left - rest), min(sizes[i], left) + 1):
            fill(i + 1, left - k, counts + (k,), ways * comb(sizes[i], k))

    if sizes:
        fill(0, draws, (), 1)
    elif draws == 0:
        out[()] = Fraction(1)
    return out


def count_dist(deck: Iterable, hand: int, match: Callable[[Any], bool]) -> dict[int, Fraction]:
    """{k: P(k cards that `match` in a uniformly random hand of `hand` cards from `deck`)}."""
    deck = list(deck)
    return hypergeometric(len(deck), sum(1 for c in deck if match(c)), hand)


# --- card games (any Config with deck() and hand_size) -------------------------

def _deck_and_hand(config) -> tuple[list, int]:
    if not (hasattr(config, "deck") and hasattr(config, "hand_size")):
        raise ValueError(f"{type(config).__module__}.Config has no deck() and hand_size: not a dealt card game")
    return list(config.deck()), config.hand_size


def _check_colour(config, colour) -> None:
    if colour is not None and colour not in config.colours:
        raise ValueError(f"colour {colour!r} is not in this game's colours: {', '.join(config.colours)}")


def colour_in_hand(config, colour: str | None) -> dict[int, Fraction]:
    """How many cards of `colour` the hand dealt to one seat holds ({k: P}).
    `colour=None` counts cards without a colour (Bucket Brigade's jokers)."""
    _check_colour(config, colour)
    deck, hand = _deck_and_hand(config)
    return count_dist(deck, hand, lambda c: c.colour == colour)


def colour_at_least(config, colour: str | None, k: int) -> Fraction:
    """P(a dealt hand holds at least k cards of `colour`)."""
    return at_least(colour_in_hand(config, colour), k)


def colour_split(config) -> dict[tuple[int, ...], Fraction]:
    """Joint distribution of a dealt hand's cards per colour, in `config.colours`
    order (plus a last entry for colourless cards if the deck has any)."""
    deck, hand = _deck_and_hand(config)
    by = Counter(c.colour for c in deck)
    groups = {c: by.get(c, 0) for c in config.colours}
    if by.get(None):
        groups[None] = by[None]
    return hand_composition(groups, hand)


def longest_colour_at_least(config, k: int) -> Fraction:
    """P(a dealt hand holds at least k cards of some one colour)."""
    n = len(config.colours)
    return sum((p for counts, p in colour_split(config).items() if max(counts[:n], default=0) >= k), Fraction(0))


# --- the game modules' own exact maths, gathered here for lessons ----------------

from .duck_duck_bruce import best_stop, bust_probability, steal_expectation  # noqa: E402
from .piggyback_brigade import exact_turn_distance  # noqa: E402

__all__ = [
    "hypergeometric", "at_least", "at_most", "mean", "variance", "hand_composition", "count_dist",
    "colour_in_hand", "colour_at_least", "colour_split", "longest_colour_at_least",
    "exact_turn_distance", "bust_probability", "steal_expectation", "best_stop",
]

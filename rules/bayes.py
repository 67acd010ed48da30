"""Two win rates compared the Bayesian way (lesson 22): exact answers for Beta posteriors with
whole-number parameters, as Fractions.

A rate with a uniform prior after k wins in n games has the posterior Beta(1 + k, 1 + n - k)
(lesson 15). With whole-number parameters every chance below is a finite sum of ratios of
factorials, so it is exact; `beats_by_ranks` checks `beats` by counting arrangements.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb, factorial


def _whole(name: str, value, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
    return value


@lru_cache(maxsize=4096)
def _beta_fn(a: int, b: int) -> Fraction:
    """B(a, b) = (a-1)! (b-1)! / (a+b-1)! for whole a, b >= 1."""
    return Fraction(factorial(a - 1) * factorial(b - 1), factorial(a + b - 1))


def beats(a1: int, b1: int, a2: int, b2: int) -> Fraction:
    """P(X2 > X1) for independent X1 ~ Beta(a1, b1) and X2 ~ Beta(a2, b2), whole parameters >= 1:
    the chance that rate 2 is the higher one. The sum over i < a2 of
    B(a1 + i, b1 + b2) / ((b2 + i) B(1 + i, b2) B(a1, b1))."""
    for name, v in (("a1", a1), ("b1", b1), ("a2", a2), ("b2", b2)):
        _whole(name, v)
    return sum((_beta_fn(a1 + i, b1 + b2) / ((b2 + i) * _beta_fn(1 + i, b2) * _beta_fn(a1, b1))
                for i in range(a2)), Fraction(0))


def beats_by_ranks(a1: int, b1: int, a2: int, b2: int) -> Fraction:
    """`beats` by brute force, for small parameters: Beta(a, b) is the a-th smallest of a + b - 1
    uniform draws, so with every draw of both rates shuffled together each arrangement of which
    draw belongs to which rate is equally likely; count those where rate 2's a2-th is above
    rate 1's a1-th."""
    n1, n2 = a1 + b1 - 1, a2 + b2 - 1
    wins = 0
    for ones in combinations(range(n1 + n2), n1):  # the positions (in rising order) of rate 1's draws
        mine = set(ones)
        twos = [p for p in range(n1 + n2) if p not in mine]
        wins += twos[a2 - 1] > ones[a1 - 1]
    return Fraction(wins, comb(n1 + n2, n1))


def chance_better(won_a: int, games_a: int, won_b: int, games_b: int) -> Fraction:
    """P(B's rate > A's rate | the games), each rate with a uniform prior (lesson 15)."""
    _whole("games_a", games_a)
    _whole("games_b", games_b)
    if not (0 <= won_a <= games_a and 0 <= won_b <= games_b):
        raise ValueError(f"wins must be 0 to the games played, got {won_a} of {games_a} and {won_b} of {games_b}")
    return beats(1 + won_a, 1 + games_a - won_a, 1 + won_b, 1 + games_b - won_b)


def binomial(games: int, p: Fraction) -> list[Fraction]:
    """P(k wins in `games` games), k = 0 to games, each game won with chance p."""
    p = Fraction(p)
    return [comb(games, k) * p ** k * (1 - p) ** (games - k) for k in range(games + 1)]

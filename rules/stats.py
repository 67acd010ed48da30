"""Small, dependency-free statistics used everywhere a sampled number is shown."""

from __future__ import annotations

import math
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (good near 0 and 1, unlike p ± z·se)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): normal-approximation interval for a mean."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(values) / n
    if n == 1:
        return (m, -math.inf, math.inf)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def binomial_two_sided_p(successes: int, trials: int, p0: float) -> float:
    """Exact two-sided binomial test p-value (sum of outcomes no likelier than observed)."""
    if trials == 0:
        return 1.0
    pmf = [math.comb(trials, k) * p0**k * (1 - p0) ** (trials - k) for k in range(trials + 1)]
    obs = pmf[successes]
    return min(1.0, sum(q for q in pmf if q <= obs * (1 + 1e-9)))

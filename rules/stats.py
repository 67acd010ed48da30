"""Small, dependency-free statistics used everywhere a sampled number is shown."""

from __future__ import annotations

import math

# NormalDist().inv_cdf(0.975) on CPython (x86-64, glibc), written out: computing it calls the
# C library's log and sqrt, whose last bit differs between platforms (Pyodide's WebAssembly
# libm gave intervals one bit off), and an interval must have the same digits in the
# reader's browser as in JupyterLab.
Z95 = 1.9599639845400536


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
    # math.fsum: exactly rounded, so the same digits on every Python (3.12 changed sum() of
    # floats to a compensated sum; the course site's browser runs 3.14, JupyterLab may not)
    m = math.fsum(values) / n
    if n == 1:
        return (m, -math.inf, math.inf)
    var = math.fsum([(v - m) ** 2 for v in values]) / (n - 1)  # a list: faster than a generator, the same sum
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def binomial_two_sided_p(successes: int, trials: int, p0: float) -> float:
    """Exact two-sided binomial test p-value (sum of outcomes no likelier than observed)."""
    if trials == 0:
        return 1.0
    try:
        pmf = [math.comb(trials, k) * p0**k * (1 - p0) ** (trials - k) for k in range(trials + 1)]
    except OverflowError:  # about 1,000+ trials: the same sum, in log space
        return _binomial_p_log(successes, trials, p0)
    obs = pmf[successes]
    return min(1.0, sum(q for q in pmf if q <= obs * (1 + 1e-9)))


def _binomial_p_log(successes: int, trials: int, p0: float) -> float:
    """binomial_two_sided_p in log space, for trials too many for float pmfs."""
    if p0 <= 0.0 or p0 >= 1.0:
        return 1.0 if successes == round(p0 * trials) else 0.0
    lp, lq = math.log(p0), math.log1p(-p0)
    top = math.lgamma(trials + 1)

    def logpmf(k: int) -> float:
        return top - math.lgamma(k + 1) - math.lgamma(trials - k + 1) + k * lp + (trials - k) * lq

    cut = logpmf(successes) + math.log1p(1e-9)
    return min(1.0, sum(math.exp(v) for v in map(logpmf, range(trials + 1)) if v <= cut))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with whole `df` degrees of freedom (exact series)."""
    if df < 1 or int(df) != df:
        raise ValueError(f"chi2_sf needs whole df >= 1, got {df!r}")
    if x <= 0:
        return 1.0
    y = x / 2
    if df % 2 == 0:  # Q(k, y) = e^-y * sum_{i<k} y^i / i!
        term = total = 1.0
        for i in range(1, df // 2):
            term *= y / i
            total += term
        return min(1.0, math.exp(-y) * total)
    # Q(m + 1/2, y) = erfc(sqrt y) + e^-y * sum_{j<m} y^(j+1/2) / Gamma(j + 3/2)
    total, term = 0.0, math.sqrt(y) / math.gamma(1.5)
    for j in range(df // 2):
        total += term
        term *= y / (j + 1.5)
    return min(1.0, math.erfc(math.sqrt(y)) + math.exp(-y) * total)


def chi_square_uniform(counts) -> tuple[float, float]:
    """(statistic, p-value) of Pearson's test that `counts` come from equal cell chances."""
    counts = list(counts)
    n, k = sum(counts), len(counts)
    if k < 2 or n <= 0:
        return (0.0, 1.0)
    expected = n / k
    stat = sum((c - expected) ** 2 for c in counts) / expected
    return (stat, chi2_sf(stat, k - 1))


def ratio_ci(numerators, denominators, z: float = Z95) -> tuple[float, float, float]:
    """(ratio, low, high) for sum(numerators) / sum(denominators), one pair per
    independent unit (game), by the delta method. Used for shares such as
    "the part of all points that came from the ender bonus"."""
    num, den = list(numerators), list(denominators)
    n = len(num)
    if n == 0 or sum(den) == 0:
        return (math.nan, math.nan, math.nan)
    r = math.fsum(num) / math.fsum(den)  # fsum: the same digits on every Python (see mean_ci)
    if n == 1:
        return (r, -math.inf, math.inf)
    mean_den = math.fsum(den) / n
    resid = math.fsum((a - r * b) ** 2 for a, b in zip(num, den)) / (n - 1)
    half = z * math.sqrt(resid / n) / abs(mean_den)
    return (r, r - half, r + half)

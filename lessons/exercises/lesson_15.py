"""Lesson 15's exercises, a win rate's posterior: each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction

from meeple.rules import exact

from .checking import exact_answer, exercise, right_is
from .key import answer_of
from .numbers import PARAMS


def posterior_15(params=None) -> tuple[int, int]:
    p = params or PARAMS["15"]

    return exact.beta_posterior(*p["prior"], p["wins"], p["games"])



@exercise("15.posterior_mean", "the posterior mean as an exact Fraction")
def _posterior_mean(answer):
    p = PARAMS["15"]
    a, b = posterior_15()
    right = Fraction(a, a + b)
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, right_is(right, "The posterior mean") + " It lies between the prior's mean and the record's share."
    if got == Fraction(p["wins"], p["games"]):
        return False, "that is the share of games won, the data alone: the prior's a and b join the wins and losses."
    pa, pb = p["prior"]
    if got == Fraction(pa + p["wins"], pa + pb + p["wins"]):
        return False, "the posterior adds the wins to a and the *losses* (games minus wins) to b."
    if got == Fraction(pa, pa + pb):
        return False, "that is the prior's mean: add the record first."
    return False, "the posterior of Beta(a, b) after k wins in n games is Beta(a + k, b + n - k); its mean is a / (a + b)."



@answer_of("15.posterior_mean")
def _posterior_mean_answer():
    a, b = posterior_15()
    return Fraction(a, a + b)



@exercise("15.above_fair", "the posterior chance as an exact Fraction")
def _above_fair(answer):
    p = PARAMS["15"]
    a, b = posterior_15()
    right = 1 - exact.beta_cdf(a, b, p["fair"])
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, right_is(right, f"P(the win rate is above {p['fair']})")
    if got == exact.beta_cdf(a, b, p["fair"]):
        return False, "that is the chance the rate is *below* the fair share: take the complement."
    flat = exact.beta_posterior(1, 1, p["wins"], p["games"])
    if got == 1 - exact.beta_cdf(*flat, p["fair"]):
        return False, "that is the posterior from a flat prior, Beta(1, 1): use the designer's prior."
    return False, "find the posterior Beta(a, b) first, then 1 - exact.beta_cdf(a, b, fair)."



@answer_of("15.above_fair")
def _above_fair_answer():
    return 1 - exact.beta_cdf(*posterior_15(), PARAMS["15"]["fair"])

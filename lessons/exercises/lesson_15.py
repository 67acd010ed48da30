"""Lesson 15's exercises, a win rate's posterior: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction

from meeple.rules import exact

from .checking import exact_answer, exercise, right_is
from .key import answer_of
from .numbers import PARAMS, choices


# lessons 15-18 (numbers.PARAMS reads these; none is a number the lesson shows before asking:
# chance version 2 moved lesson 15's coverage to 0.965, prior (2, 8)'s 15.above_fair, so (2, 9); and lesson
# 17's engine races to 27.4%, 7 players' 17.first_by, so 2)
# record: 15's (wins, games), the lesson's five first, then 16 to 48 games won 25% to 45% of the time, chosen so that
# with the five priors 112 of 150 posterior means differ (15.posterior_mean is (a + wins) / (a + b + games): issue 37)
# and none of the new ones gives, with any prior and fair share, a posterior mean or 15.above_fair chance lesson 15
# shows before asking (as a Fraction or to three digits)
NUMBERS = choices("15", {"prior": ((2, 6), (3, 9), (2, 9), (4, 12), (3, 7)),
                         "record": ((9, 24), (7, 20), (11, 30), (8, 28), (12, 32), (5, 16), (8, 29), (13, 29), (10, 35), (11, 35),
                                    (16, 36), (10, 39), (17, 39), (7, 21), (7, 26), (11, 40), (14, 45), (13, 47), (19, 47), (19, 48),
                                    (15, 37), (8, 31), (11, 33), (10, 38), (16, 38), (13, 40), (12, 42), (15, 46), (10, 25), (9, 31)),
                         "fair": (Fraction(1, 4), Fraction(1, 5), Fraction(1, 3))})


def posterior_15(params=None) -> tuple[int, int]:
    p = params or PARAMS["15"]

    return exact.beta_posterior(*p["prior"], p["wins"], p["games"])


@exercise("15.posterior_mean", "the posterior mean as an exact Fraction", varied=True, sealed=True)
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


@exercise("15.above_fair", "the posterior chance as an exact Fraction", varied=True, sealed=True)
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

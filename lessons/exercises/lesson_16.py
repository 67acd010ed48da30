"""Lesson 16's exercises, sums of turns: each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb

from .checking import exact_answer, exercise, right_is
from .key import answer_of
from .numbers import PARAMS


@exercise("16.at_most", "the exact chance as a Fraction")
def _at_most(answer):
    p = PARAMS["16"]
    dist = exact.distance_after(pb.Config(), p["turns"], p["at_most"])
    right = sum(dist.values(), Fraction(0))
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, right_is(right, f"P(at most {p['at_most']} spaces in {p['turns']} turns)")
    if got == 1 - right:
        return False, "that is the chance of moving *more* than that: the complement."
    if got == dist.get(p["at_most"], 0):
        return False, "that is the chance of exactly that distance: add every distance up to it."
    below = sum((q for d, q in dist.items() if d < p["at_most"]), Fraction(0))
    if got == below:
        return False, "off by one: 'at most' includes the distance itself."
    return False, f"convolve the turn's distribution {p['turns']} times (exact.distance_after) and add the chances up to the distance."



@answer_of("16.at_most")
def _at_most_answer():
    p = PARAMS["16"]
    return sum(exact.distance_after(pb.Config(), p["turns"], p["at_most"]).values(), Fraction(0))



def published_16(p=None) -> pb.Config:
    """16.variance's die: the preset's, with the student's cap on rerolls a turn (None: no cap)."""
    p = p or PARAMS["16"]
    return dataclasses.replace(pb.Config.presets()[p["preset"]], max_rerolls=p["max_rerolls"])



@exercise("16.variance", "the exact variance as a Fraction")
def _variance(answer):
    p = PARAMS["16"]
    cfg = published_16(p)
    m, v = exact.turn_moments(cfg)
    right = p["variance_turns"] * v
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, right_is(right, f"The variance after {p['variance_turns']} turns") + " Variances of independent turns add."
    if got == v:
        return False, "that is one turn's variance: independent turns' variances add."
    if got == p["variance_turns"] ** 2 * v:
        return False, "variances of independent turns add; n squared times is the variance of one turn scaled by n."
    base = exact.turn_moments(dataclasses.replace(pb.Config(), max_rerolls=p["max_rerolls"]))[1]
    if got == p["variance_turns"] * base:
        return False, f"that is the base die's; the exercise asks for the {p['preset']} preset."
    if p["max_rerolls"] is not None and got == p["variance_turns"] * exact.turn_moments(pb.Config.presets()[p["preset"]])[1]:
        return False, f"that is the die without a cap; the exercise's turns reroll at most {p['max_rerolls']} times (max_rerolls)."
    return False, "find one turn's variance for this die (exact.turn_moments) and use that independent turns' variances add."



@answer_of("16.variance")
def _variance_answer():
    p = PARAMS["16"]
    return p["variance_turns"] * exact.turn_moments(published_16(p))[1]

"""Lesson 16's exercises, sums of turns: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb

from .checking import exact_answer, exercise, right_is
from .key import answer_of
from .numbers import PARAMS, choices


# 16: 4 x 15 (turns, at most) pairs, each its own chance, and 2 to 30 turns for the variance (issue 37) but 16 to
# 18 (with some caps a figure the lesson shows: 20, 17.7, 15.5); max_rerolls: 16.variance's cap on the published
# die's rerolls a turn (None: the preset's, no cap), each cap its own turn variance: 104 variances, not 26
NUMBERS = choices("16", {"turns": (2, 3, 4, 5), "at_most": (10, 8, 9, 11, 12, 6, 7, 13, 14, 15, 16, 17, 18, 19, 20),
                         "variance_turns": (3, 2, *range(4, 16), *range(19, 31)), "max_rerolls": (None, 2, 1, 3)})


@exercise("16.at_most", "the exact chance as a Fraction", varied=True, sealed=True)
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


@exercise("16.variance", "the exact variance as a Fraction", varied=True, sealed=True)
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

"""Lesson 4's exercises, a race as a Markov chain (Piggyback Brigade): each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb

from .checking import WrongKind, exact_answer, exercise, need_whole
from .key import answer_of, expected
from .numbers import exercise_numbers

TARGET_TURNS = 5  # the lesson's own target (a student's: exercise_numbers("04")["turns"])



def _trial_mean(spaces: int, _memo={}) -> Fraction:  # noqa: B006 - the default dict is the cache, kept across calls
    if spaces in _memo:
        return _memo[spaces]

    _memo[spaces] = exact.time_trial_mean(pb.Config(), spaces)
    return _memo[spaces]



@exercise("04.track", expects="a whole number of spaces, e.g. 20")
def _four_turn_track(answer):
    spaces = need_whole(answer, "a whole number of spaces")
    if not 1 <= spaces <= 100:  # the targets' tracks reach 90 spaces (numbers.TRACK_TURNS)
        raise WrongKind(f"expected a track of 1 to 100 spaces, got {spaces}")
    turns = exercise_numbers("04")["turns"]
    best = expected("04.track")
    mine = _trial_mean(spaces)
    if spaces == best:
        return True, f"{spaces} spaces: a lone piglet needs {float(mine):.3f} turns on average, the closest to {turns}."
    side = "short" if mine < turns else "long"
    return False, f"with {spaces} spaces the mean is {float(mine):.3f} turns: too {side}. Is there a track closer to {turns}?"



@answer_of("04.track")
def _track_answer():
    turns = Fraction(str(exercise_numbers("04")["turns"]))  # a target in tenths (5, 7.3), exactly
    low, high = 1, 100  # the mean grows with the track (tests/course/test_lessons.py): bisect for the first past the target
    while low < high:
        mid = (low + high) // 2
        low, high = (mid + 1, high) if _trial_mean(mid) <= turns else (low, mid)
    return min((k for k in (low - 1, low) if k >= 1), key=lambda k: abs(_trial_mean(k) - turns))



@exercise("04.slow", expects="an exact Fraction")
def _more_than_three(answer):
    k, spaces = exercise_numbers("04")["more_than"], exercise_numbers("04")["slow_spaces"]
    dist = _trial_turns(spaces)
    want = expected("04.slow")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == exact.at_least(dist, k):
        return False, f"that counts {k} turns too: 'more than {k}' starts at {k + 1}."
    if x == 1 - want:
        return False, f"that is the chance of {k} turns or fewer: the complement."
    if spaces != pb.Config().spaces and x == exact.at_least(_trial_turns(pb.Config().spaces), k + 1):
        return False, f"that is on the base track; exercise 2's track has {spaces} spaces (exact.time_trial_turns(config, {spaces}))."
    return False, f"on {spaces} spaces, add up the chances of every number of turns above {k} (or subtract the rest from 1)."



@answer_of("04.slow")
def _slow_answer():
    return exact.at_least(_trial_turns(exercise_numbers("04")["slow_spaces"]), exercise_numbers("04")["more_than"] + 1)



@lru_cache(maxsize=None)
def _trial_turns(spaces: int) -> dict:
    """exact.time_trial_turns of the base rules on a track of `spaces` spaces (worked out once per track)."""
    return exact.time_trial_turns(pb.Config(), spaces)

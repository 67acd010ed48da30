"""Lesson 4's exercises, a race as a Markov chain (Piggyback Brigade): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb

from .checking import WrongKind, exact_answer, exercise, need_whole
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 04.track's targets after the lesson's 5: for each track of 14 to 94 spaces its mean time-trial turns to a tenth, but
# for 20 and 21 (the slider opens on the base 20, whose mean the lesson shows; 21's is nearest 4 turns), 28 (the
# target 5's) and 36, 43 and 85 (numbers lesson 4 shows before the exercise, as 12 and 13 are): one target a track
# (75), each nearer its own track's mean than any other's by more than 0.04 turns (tests/course/test_student_numbers.py)
TRACK_TURNS = (3.0, 3.1, 3.3, 3.4, 3.6, 3.7, 4.1, 4.3, 4.4, 4.6, 4.7, 4.8, 5.1, 5.3, 5.4, 5.6, 5.7, 5.8, 6.0, 6.3, 6.4,
               6.6, 6.7, 6.8, 7.0, 7.3, 7.4, 7.6, 7.7, 7.8, 8.0, 8.1, 8.3, 8.4, 8.6, 8.7, 8.8, 9.0, 9.1, 9.3, 9.4, 9.6,
               9.7, 9.8, 10.0, 10.1, 10.3, 10.4, 10.6, 10.7, 10.8, 11.0, 11.1, 11.3, 11.4, 11.6, 11.7, 11.8, 12.0, 12.1,
               12.3, 12.4, 12.6, 12.7, 12.8, 13.0, 13.3, 13.4, 13.6, 13.7, 13.8, 14.0, 14.1, 14.3, 14.4)

# slow_spaces: 04.slow's track, the base 20 spaces or 12 to 30 (the slider's range): with more_than 2 to 6, 95
# (track, turns) pairs, each its own chance
# turns: 04.track's target (TRACK_TURNS), the lesson's 5 first (issue 37: 3 targets, 33% of pairs)
NUMBERS = choices("04", {"turns": (5, *TRACK_TURNS), "more_than": (3, 2, 4, 5, 6), "slow_spaces": (20, *range(12, 20), *range(21, 31))})

TARGET_TURNS = 5  # the lesson's own target (a student's: exercise_numbers("04")["turns"])


def _trial_mean(spaces: int, _memo={}) -> Fraction:  # noqa: B006 - the default dict is the cache, kept across calls
    if spaces in _memo:
        return _memo[spaces]

    _memo[spaces] = exact.time_trial_mean(pb.Config(), spaces)
    return _memo[spaces]


@exercise("04.track", expects="a whole number of spaces, e.g. 20", varied=True, sealed=True)
def _four_turn_track(answer):
    spaces = need_whole(answer, "a whole number of spaces")
    if not 1 <= spaces <= 100:  # the targets' tracks reach 90 spaces (lesson_04.TRACK_TURNS)
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


@exercise("04.slow", expects="an exact Fraction", varied=True, sealed=True)
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

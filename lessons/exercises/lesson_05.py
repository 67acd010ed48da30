"""Lesson 5's exercises, how many games?: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from meeple.rules.stats import Z95

from .checking import WrongKind, exercise, need_whole
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


NUMBERS = choices("05", {"edge": (0.03, 0.05, 0.07), "half": (0.02, 0.015, 0.025, 0.01)})

EDGE_FAIR, EDGE = 0.25, 0.03  # the lesson's own seat: winning 28% where a fair share is 25%

HALF = 0.02  # 05.games: the lesson's own half-width (the lesson shows the games for a half-width of EDGE)


def edge_question() -> "tuple[float, float, float]":
    """(fair share, the seat's true rate, half-width asked for) of this student's lesson 5 exercises."""
    mine = exercise_numbers("05")
    return EDGE_FAIR, EDGE_FAIR + mine["edge"], mine["half"]


def games_for_half_width(p: float, half: float, z: float = Z95) -> int:
    """Smallest n with z·sqrt(p(1-p)/n) <= half (95%, the normal approximation)."""
    return math.ceil(z ** 2 * p * (1 - p) / half ** 2)


def games_for_power(p0: float, p1: float, power: float = 0.8) -> int:
    """Smallest n for which a seat whose true rate is p1 has its 95% interval above p0
    with chance `power` (one-sample test of a proportion, normal approximation)."""
    zb = NormalDist().inv_cdf(power)
    return math.ceil(((Z95 * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2)


def need_games(answer) -> int:
    """The reader's answer as a number of games: a whole number, at least 1 (else WrongKind saying so)."""
    n = need_whole(answer, "a whole number of games")
    if n < 1:
        raise WrongKind(f"expected a positive number of games, got {n}")
    return n


def half_width(p: float, n: int, z: float = Z95) -> float:
    """The normal 95% interval's half-width z·sqrt(p(1-p)/n) of n games won with chance p."""
    return z * math.sqrt(p * (1 - p) / n)


def _beside(x: float, target: float) -> str:
    """`x` with the decimals (at least three) that keep it from reading as `target`: a half-width
    of 0.02016 against a target of 0.02 is 0.0202, not 0.020."""
    digits = 3
    while digits < 12 and f"{x:.{digits}f}" == f"{target:.{digits}f}" and x != target:
        digits += 1
    return f"{x:.{digits}f}"


# The prompt asks for the fewest games whose interval has a half-width of at most `half`: that
# number passes, and no other. More games also reach the target, but they are not what it
# takes, so they get a hint saying so; fewer miss "at most" by however little. The lesson writes
# z ≈ 1.96, so the fewest games with z = 1.96 pass too (one game more than with the exact z for
# some students' numbers: 3443 against 3442 at 28% and a half-width of 0.015).
# Shaped like 05.power on purpose: one question, its own wrong-turn hints.
@exercise("05.games", expects="a whole number of games", varied=True, sealed=False)
def _games_for_edge(answer):
    n = need_games(answer)
    _, p, half = edge_question()
    fewest, rounded = games_for_half_width(p, half), games_for_half_width(p, half, 1.96)
    reached = half_width(p, n)
    if n == fewest:
        return True, (f"{n} games, the fewest that give a half-width of at most {half:g}: "
                      f"±{_beside(reached, half)} around {p:.0%}.")
    if n == rounded:
        return True, (f"{n} games, the fewest that give a half-width of at most {half:g} with z = 1.96 "
                      f"(with z = {Z95:.6f}, {fewest} games already do).")
    if abs(n - games_for_half_width(p, half / 2)) <= 0.08 * fewest:
        return False, (f"that makes the interval {half * 100:g} points wide in total; the question asks for "
                       f"{half * 100:g} points either side.")
    if n > rounded:
        return False, (f"{n} games give a half-width of {_beside(reached, half)}, within your {half:g}, but fewer "
                       f"games do too: the question asks for the fewest games. Solve z·√(p(1−p)/n) = {half:g} "
                       f"for n and round up.")
    return False, (f"{n} games give a half-width of {_beside(reached, half)}, more than your {half:g}; "
                   f"solve z·√(p(1−p)/n) = {half:g} for n and round up.")


answer_of("05.games")(lambda: games_for_half_width(*edge_question()[1:]))


# Shaped like 05.games on purpose: one question, its own tolerance and its own wrong-turn hint.
@exercise("05.power", expects="a whole number of games", varied=True, sealed=False)
def _games_for_power(answer):
    n = need_games(answer)
    fair, p, _ = edge_question()
    want = expected("05.power")
    if abs(n - want) <= 0.05 * want:
        return True, f"about {want} games, roughly twice what the half-width alone suggests."
    if abs(n - games_for_half_width(p, p - fair)) <= 0.05 * want:
        return False, (f"with that many games the estimate lands below {p:.0%} about half the time, and then the "
                       f"interval often reaches {fair:.0%}. You need room for the estimate's own wobble.")
    return False, (f"the interval must clear {fair:.0%} (z = 1.96 above it) even when the estimate comes out low "
                   f"(an 80% quantile below {p:.0%}); add the two distances and solve for n.")


answer_of("05.power")(lambda: games_for_power(*edge_question()[:2]))

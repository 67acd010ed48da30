"""Lesson 25's exercises, ratings from play (Bradley-Terry): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from .checking import exact_answer, exercise
from .key import answer_of
from .numbers import choices, lesson_numbers


# strengths and best_of: 25.match's two Bradley-Terry strengths and match length; pairs: 25.implied's
# P(A beats B) and P(B beats C) (the lesson fits ratings and shows one game's chance, never these)
NUMBERS = choices("25", {"strengths": ((3, 2), (5, 3), (4, 1), (7, 5), (2, 1)), "best_of": (3, 5),
                         "pairs": ((Fraction(2, 3), Fraction(3, 5)), (Fraction(3, 4), Fraction(2, 3)), (Fraction(3, 5), Fraction(5, 8)),
                                   (Fraction(5, 8), Fraction(2, 3)), (Fraction(7, 10), Fraction(3, 5)))})


def match_chance(strength_a: int, strength_b: int, best_of: int) -> Fraction:
    """P(A wins a best-of-`best_of` match against B) when each game is won by A with the Bradley-Terry
    chance s_A / (s_A + s_B), games independent (a match is won by the first to a majority)."""
    p = Fraction(strength_a, strength_a + strength_b)
    need = best_of // 2 + 1
    # A wins the match on game need + j, having lost j of the games before it (j < need)
    return sum((comb(need - 1 + j, j) * p ** need * (1 - p) ** j for j in range(need)), Fraction(0))


@exercise("25.match", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _match(answer):
    (s_a, s_b), best_of = lesson_numbers(25)["strengths"], lesson_numbers(25)["best_of"]
    right = match_chance(s_a, s_b, best_of)
    a = exact_answer(answer, right)
    game = Fraction(s_a, s_a + s_b)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}, against {game} for one game: a match stretches the gap between "
                      "the stronger and the weaker player.")
    if a == game:
        return False, "that is one game's chance; the match goes to whoever first wins a majority of the games."
    if a == game ** (best_of // 2 + 1):
        return False, "that counts only matches A wins without losing a game; A may lose some games and still win."
    if a == 1 - right:
        return False, "that is B's chance of winning the match."
    return False, (f"one game: s_A / (s_A + s_B); the match: A needs {best_of // 2 + 1} wins before B gets as many; add up "
                   "the ways, e.g. with a negative binomial count of the games A loses first.")


answer_of("25.match")(lambda: match_chance(*lesson_numbers(25)["strengths"], lesson_numbers(25)["best_of"]))


def implied_third(p_ab: Fraction, p_bc: Fraction) -> Fraction:
    """The chance A beats C that Bradley-Terry implies from P(A beats B) and P(B beats C):
    the odds multiply, s_A/s_C = (s_A/s_B)(s_B/s_C)."""
    odds = p_ab / (1 - p_ab) * p_bc / (1 - p_bc)
    return odds / (1 + odds)


@exercise("25.implied", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _implied(answer):
    p_ab, p_bc = lesson_numbers(25)["pairs"]
    right = implied_third(p_ab, p_bc)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}: a rating can only say 'A beats C' more surely than either step; "
                      "a cycle (C beats A) is exactly what it cannot express.")
    if a == p_ab * p_bc:
        return False, "that multiplies the chances; in Bradley-Terry it is the odds, p / (1 − p), that multiply."
    if a == (p_ab + p_bc) / 2:
        return False, "the average of the two chances is not what the model implies; multiply the odds."
    if a == 1 - right:
        return False, "that is C's chance of beating A."
    return False, "write each chance as odds, s_A/s_B = p_AB / (1 − p_AB); multiply the odds; turn the odds back into a chance."


answer_of("25.implied")(lambda: implied_third(*lesson_numbers(25)["pairs"]))

"""Lesson 2's exercises, one die (Piggyback Brigade): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement

from meeple.rules import exact

from .checking import WrongKind, exact_answer, exercise, need_whole
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 02.moments's practice dice: the lesson's five first, then every six-faced die of faces 1 to 6 with three or more
# different faces whose (mean, variance) is new (a classmate's die rarely shares the student's moments, issue 37), with
# neither its mean nor its variance a figure lesson 2 shows before asking: the piglets' die's and the steady die's
# (7/3, 11/9, 2/9) and 02.die's targets (3/2 to 9/2, 1)
def _practice_dice() -> tuple:
    dice = [(1, 1, 2, 2, 3, 3), (1, 2, 2, 2, 3, 3), (1, 1, 1, 2, 2, 4), (1, 1, 1, 2, 3, 4), (2, 2, 3, 3, 4, 6)]

    def moments(f):
        mean = Fraction(sum(f), len(f))
        return mean, Fraction(sum(x * x for x in f), len(f)) - mean * mean

    shown = {Fraction(7, 3), Fraction(11, 9), Fraction(2, 9), Fraction(3, 2), Fraction(5, 2), Fraction(7, 2),
             Fraction(9, 2), Fraction(1)}
    seen = {moments(f) for f in dice}
    for f in combinations_with_replacement(range(1, 7), 6):
        mean, variance = moments(f)
        if len(set(f)) >= 3 and (mean, variance) not in seen and not {mean, variance} & shown:
            seen.add((mean, variance))
            dice.append(f)
    return tuple(dice)

PRACTICE_DICE = _practice_dice()

NUMBERS = choices("02", {"practice_die": PRACTICE_DICE,
                         "target": ((Fraction(5, 2), 1), (Fraction(7, 2), 1), (Fraction(9, 2), 1), (Fraction(3, 2), 1))})


def _need_faces(answer, what="the die's faces as whole numbers, e.g. (1, 2, 3, 4, 1, 3)") -> tuple[int, ...]:
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__iter__"):
        raise WrongKind(f"expected {what}, got {answer!r}")
    faces = tuple(need_whole(v, what) for v in answer)
    if not 1 <= len(faces) <= 20 or not all(1 <= v <= 9 for v in faces):
        raise WrongKind(f"expected {what}: 1 to 20 faces, each 1 to 9 (the game's limits), got {answer!r}")
    return faces


PRACTICE_DIE = (1, 1, 2, 2, 3, 3)  # the lesson's own practice die (a student's: exercise_numbers("02"))


def can_have(sides: int, mean: Fraction, variance: Fraction) -> bool:
    """Whether a die of `sides` whole-number faces could have this mean and variance at all: the
    faces' sum (sides·mean) and sum of squares (sides·(variance + mean²)) must be whole, and alike
    in parity (x² and x are both odd or both even, so the two sums are too)."""
    total, squares = sides * mean, sides * (variance + mean * mean)
    return total.denominator == 1 and squares.denominator == 1 and (total - squares) % 2 == 0


@exercise("02.moments", expects="a pair (mean, variance) of exact Fractions", varied=True, sealed=True)
def _moments(answer):
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        raise WrongKind(f"expected a pair (mean, variance), got {answer!r}")
    d = exact.die(exercise_numbers("02")["practice_die"])
    want_m, want_v = expected("02.moments")
    m = exact_answer(answer[0], want_m, "an exact mean")
    v = exact_answer(answer[1], want_v, "an exact variance")
    if m != want_m:
        return False, "the mean is each face's value times its chance, added up (a repeated face counts twice)."
    if v == exact.mean({x: p for x, p in ((x * x, p) for x, p in d.items())}):
        return False, "the mean is right; that variance is the mean of the squares: subtract the squared mean."
    if v != want_v:
        return False, "the mean is right; the variance is the mean of (face − mean)², each face with its chance."
    return True, f"mean {m}, variance {v}: a standard deviation of √({v}) ≈ {float(v) ** 0.5:.2f} spaces."


@answer_of("02.moments")
def _moments_answer():
    d = exact.die(exercise_numbers("02")["practice_die"])
    return exact.mean(d), exact.variance(d)


@exercise("02.die", expects="a die's faces, e.g. (1, 2, 3, 4, 1, 3)", varied=True, sealed=False)
def _die_mean_2_5_var_1(answer):
    faces = _need_faces(answer)
    d = exact.die(faces)
    m, v = exact.mean(d), exact.variance(d)
    want_m, want_v = (Fraction(x) for x in exercise_numbers("02")["target"])
    if m == want_m and v == want_v:
        return True, f"{len(faces)} faces {faces}: mean exactly {want_m}, variance exactly {want_v}."
    hint = f"your die has mean {m} and variance {v}; the target is mean {want_m} and variance {want_v}."
    if not can_have(len(faces), want_m, want_v):
        hint += (f" Can any die with {len(faces)} whole-number faces do it? Work out what the sum of "
                 "the faces and the sum of their squares would have to be.")
    return False, hint


@answer_of("02.die")
def _die_answer():
    return die_with(*(Fraction(x) for x in exercise_numbers("02")["target"]))


@lru_cache(maxsize=None)
def die_with(want_m: Fraction, want_v: Fraction) -> "tuple[int, ...] | None":
    """A die of the fewest whole-number faces (1 to 9, at most 20) with this mean and variance."""
    for n in (n for n in range(1, 21) if can_have(n, want_m, want_v)):  # the fewest faces that can
        for faces in combinations_with_replacement(range(1, 10), n):
            d = exact.die(faces)
            if exact.mean(d) == want_m and exact.variance(d) == want_v:
                return faces

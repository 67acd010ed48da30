"""Lesson 24's exercises, cost curves (The Piggyback Brigade's die): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb

from .checking import exact_answer, exercise, fraction_text
from .key import answer_of
from .numbers import choices, lesson_numbers


# face: 24.second_pip's face of the base die (0-based; the lesson prices the first pip of every face);
# option: 24.fair_price's option of lesson_24.DIE_OPTIONS, priced by a curve fitted to the others
NUMBERS = choices("24", {"face": (2, 0, 1, 3, 4, 5), "option": (3, 0, 1, 2, 4, 5)})

# the lesson's options for a new die: (name, the faces; the rest of the base die as it is)
DIE_OPTIONS = (("A: +1 on the white 1", (2, 2, 3, 4, 1, 3)), ("B: +1 on the white 4", (1, 2, 3, 5, 1, 3)),
               ("C: +1 on the black 1", (1, 2, 3, 4, 2, 3)), ("D: +1 on the black 3", (1, 2, 3, 4, 1, 4)),
               ("E: +1 on the white 1 and 2", (2, 3, 3, 4, 1, 3)), ("F: +1 on the white 1 and 3", (2, 2, 4, 4, 1, 3)))


@lru_cache(maxsize=256)
def turns_saved(faces: tuple) -> Fraction:
    """Turns a lone piglet saves on the base track (exact.time_trial_mean) with these faces instead of the base die's."""
    base = pb.Config()
    return exact.time_trial_mean(base) - exact.time_trial_mean(base.with_values({"faces": tuple(faces)}))


def pips(faces: tuple) -> int:
    return sum(faces) - sum(pb.Config().faces)


def second_pip(face: int) -> Fraction:
    """What the second extra pip on face `face` (0-based, base die's order) saves, beyond the first."""
    base = list(pb.Config().faces)
    one, two = list(base), list(base)
    one[face] += 1
    two[face] += 2
    return turns_saved(tuple(two)) - turns_saved(tuple(one))


@exercise("24.second_pip", expects="the turns saved as an exact Fraction", varied=True, sealed=False)
def _second_pip(answer):
    face = lesson_numbers(24)["face"]
    right = second_pip(face)
    a = exact_answer(answer, right)
    base = list(pb.Config().faces)
    first = list(base)
    first[face] += 1
    once = turns_saved(tuple(first))
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.4f} turns, against {float(once):.4f} for the first pip: "
                      + ("a second pip is worth less than the first." if right < once else
                         "a second pip is worth no less than the first here."))
    if a == once:
        return False, "that is the first pip's worth; the question asks what the second adds on top of it."
    if a == once + right:
        return False, "that is what both pips save together; subtract what the first one saves."
    return False, ("raise the face by two, then by one, and take the difference of the turns each die saves "
                   "(exact.time_trial_mean of the base die minus that of the new one).")


answer_of("24.second_pip")(lambda: second_pip(lesson_numbers(24)["face"]))


@lru_cache(maxsize=16)
def loo_price(left_out: int) -> Fraction:
    """The pip cost that would put option `left_out` on a curve through the origin fitted (least squares,
    turns saved against pips) to every other option of DIE_OPTIONS."""
    points = [(pips(f), turns_saved(f)) for i, (_, f) in enumerate(DIE_OPTIONS) if i != left_out]
    slope = sum((c * b for c, b in points), Fraction(0)) / sum(c * c for c, _ in points)
    return turns_saved(DIE_OPTIONS[left_out][1]) / slope


@exercise("24.fair_price", expects="the pip cost as an exact Fraction", varied=True, sealed=False)
def _fair_price(answer):
    k = lesson_numbers(24)["option"]
    right = loo_price(k)
    a = exact_answer(answer, right)
    name = DIE_OPTIONS[k][0]
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f} pips for option {name[0]}, priced by a curve it "
                      f"did not help to draw; it costs {pips(DIE_OPTIONS[k][1])}.")
    points = [(pips(f), turns_saved(f)) for _, f in DIE_OPTIONS]
    slope_all = sum((c * b for c, b in points), Fraction(0)) / sum(c * c for c, _ in points)
    if a == turns_saved(DIE_OPTIONS[k][1]) / slope_all:
        return False, f"that is the price on the curve fitted to every option, option {name[0]} included; leave it out of the fit."
    if a == turns_saved(DIE_OPTIONS[k][1]):
        return False, "that is the turns the option saves; divide by the curve's turns per pip to get a price in pips."
    return False, ("fit slope = Σ cost × benefit / Σ cost² over the other options (a line through the origin), then "
                   "price your option at its benefit / slope.")


answer_of("24.fair_price")(lambda: loo_price(lesson_numbers(24)["option"]))

"""Lesson 18's exercises, the guarded steal: each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact

from .checking import WrongKind, exact_answer, exercise, right_is
from .graded import is_answer
from .key import answer_of
from .numbers import PARAMS


def guarded_matrix_18(lead: int | None = None, die: tuple | None = None):
    """(claims, guards, matrix) of lesson 18's variant with the student's steal die (or `die`): the thief's
    win chance for each claim (rows) against each guard (columns), as the lesson builds it (not an answer: the game)."""
    p = PARAMS["18"]
    table = exact.guarded_steal_matrix(ddb.Config(die=p["die"] if die is None else die), p["lead"] if lead is None else lead)
    claims = sorted({d for d, _ in table})
    guards = sorted({g for _, g in table})
    return claims, guards, [[table[(d, g)] for g in guards] for d in claims]



def guarded_18(lead: int | None = None, die: tuple | None = None):
    """(claims, guards, matrix, (thief mix, victim mix, value)) of lesson 18's variant, the student's die:
    the game solved (18.value's and 18.mix's answers; a graded build leaves this out)."""
    claims, guards, matrix = guarded_matrix_18(lead, die)
    return claims, guards, matrix, exact.solve_zero_sum(matrix)



@exercise("18.value", "the game's exact value (the thief's win chance) as a Fraction")
def _value(answer):
    claims, guards, matrix, (x, y, v) = guarded_18()
    got = exact_answer(answer, v, "an exact Fraction")
    if got == v:
        return True, right_is(v, "The value of the guarded steal")
    if got == max(min(row) for row in matrix):
        return False, "that is the best the thief can guarantee with one fixed claim; a mix guarantees more."
    if got == min(max(r[j] for r in matrix) for j in range(len(guards))):
        return False, "that is the best the victim can hold the thief to with one fixed guard; a mix does better."
    if got == 1 - v:
        return False, "that is the victim's chance; the exercise asks for the thief's."
    die = PARAMS["18"]["die"]
    if die != ddb.Config().die and got == guarded_18(die=ddb.Config().die)[3][2]:
        return False, f"that is the base die's game; yours rolls the die {die} (ddb.Config(die={die}))."
    return False, "solve the matrix (exact.solve_zero_sum) or make every claim in the mix equally good against the victim's mix."



@answer_of("18.value")
def _value_answer():
    return guarded_18()[3][2]



@exercise("18.mix", "the thief's mix as a tuple of exact Fractions, one per claim (0 = decline, 1, 2, 3)")
def _mix(answer):
    claims, guards, matrix = guarded_matrix_18()  # not the solved game: a graded build seals its value
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != len(claims):
        raise WrongKind(f"expected {len(claims)} chances, one per claim {tuple(claims)}, e.g. a tuple of Fractions")
    mix = []
    for a in answer:
        if isinstance(a, bool) or not isinstance(a, (int, Fraction)):
            if isinstance(a, float):
                return False, ("give each chance exactly, as a Fraction: a rounded mix is a little exploitable, "
                               "and the checker tests it exactly.")
            raise WrongKind(f"expected Fractions, got {a!r}")
        mix.append(Fraction(a))
    if min(mix) < 0 or sum(mix) != 1:
        return False, "a mix is chances: none negative, all adding up to 1."
    worst = min(sum(mix[i] * matrix[i][j] for i in range(len(claims))) for j in range(len(guards)))
    if is_answer("18.value", worst):  # it guarantees the game's value: an optimal mix
        return True, f"against every guard this mix wins at least {worst}, the game's value: no guard exploits it."
    best_guard = min(range(len(guards)), key=lambda j: sum(mix[i] * matrix[i][j] for i in range(len(claims))))
    return False, (f"the victim can guard claim {guards[best_guard]} and hold this mix to {worst} "
                   f"(about {float(worst):.3f}); the equilibrium mix leaves every guard the same.")



@answer_of("18.mix")
def _mix_answer():
    return tuple(guarded_18()[3][0])

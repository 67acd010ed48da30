"""Lesson 18's exercises, the guarded steal: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact

from .checking import WrongKind, exact_answer, exact_value, exercise, fraction_text, right_is
from .graded import is_answer
from .key import answer_of
from .numbers import PARAMS, choices
from .lesson_09 import DUEL_DICE


# 18.value's guarded steals (lead, steal die): the lesson's lead -2 with the base die first, then the thief 2 to 4
# cards behind (further than section 1's game) with the base die, lesson 9's duel dice (DUEL_DICE) or 25 of its
# variance dice, but 3 behind with (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3), whose 21/65 to three digits is a figure lesson 18
# shows first, and GUARDED_SHOWN (18.mix): 114 games, 112 values, each game with a mixed equilibrium
GUARDED_DICE = ((-1, 1, 2, 2, 3, 3, 3, 3), (-1, -1, 1, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 2, 2, 2, 3, 3), (-1, 1, 2, 3, 3, 3, 3, 3, 3),
                (-1, -1, 1, 1, 1, 2, 2, 3, 3), (-1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3),
                (-1, -1, -1, 1, 1, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3), (-1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3),
                (-1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3), (-1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3), (-1, -1, 1, 1, 2, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3), (-1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3),
                (-1, -1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, -1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3), (-1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3))

BASE_STEAL_DIE = (-1, 1, 1, 2, 3, 3)  # ddb.Config().die

# 18.mix's answer for these games holds a chance lesson 18 shows before asking (1/2, 1/3 or 11/31 in its matrices)
GUARDED_SHOWN = frozenset({(-2, (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3)), (-3, (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3)), (-3, (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3)),
                           (-4, (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3)), (-3, (-1, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-4, (-1, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-3, (-1, -1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, -1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3)),
                           (-3, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-4, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-3, (-1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3)),
                           (-4, (-1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3)),
                           (-3, (-1, -1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3)),
                           (-4, (-1, -1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3)),
                           (-3, (-1, -1, 1, 1, 1, 2, 2, 3, 3)), (-4, (-1, -1, 1, 1, 1, 2, 2, 3, 3)),
                           (-3, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3))})

GUARDED_STEALS = ((-2, BASE_STEAL_DIE), *((lead, die) for die in (BASE_STEAL_DIE, *DUEL_DICE, *GUARDED_DICE)
                                           for lead in (-2, -3, -4)
                                           if (lead, die) not in {(-2, BASE_STEAL_DIE), (-3, (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3))}
                                           and (lead, die) not in GUARDED_SHOWN))

# steal: 18.value's and 18.mix's (lead, steal die), GUARDED_STEALS (issue 37: three leads, 32% of pairs)
NUMBERS = choices("18", {"steal": GUARDED_STEALS})


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


@exercise("18.value", "the game's exact value (the thief's win chance) as a Fraction", varied=True, sealed=True)
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


# A mix computed in floats passes when each float is an equilibrium mix's chance to float precision (the teacher's
# guide's promise for exact answers); a rounded one is told that rounding leaves it exploitable.
@exercise("18.mix", "the thief's mix as a tuple of exact Fractions, one per claim (0 = decline, 1, 2, 3)", varied=True, sealed=False)
def _mix(answer):
    claims, guards, matrix = guarded_matrix_18()  # not the solved game: a graded build seals its value
    if isinstance(answer, Mapping):
        raise WrongKind(f"expected a tuple of {len(claims)} chances in the order of the claims {tuple(claims)}, not a "
                        f"dict: write tuple(mix[c] for c in {tuple(claims)})")
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != len(claims):
        raise WrongKind(f"expected {len(claims)} chances, one per claim {tuple(claims)}, e.g. a tuple of Fractions")
    mix = [exact_value(a, "chances as Fractions (or floats)") for a in answer]
    if min(mix) < 0 or sum(mix) != 1:
        wrong = ([f"yours add up to {float(sum(mix)):.6g}"] if sum(mix) != 1 else []) + \
                ([f"{fraction_text(min(mix))} is negative"] if min(mix) < 0 else [])
        return False, f"a mix is chances: none negative, all adding up to 1 ({' and '.join(wrong)})."
    worst = min(sum(mix[i] * matrix[i][j] for i in range(len(claims))) for j in range(len(guards)))
    if is_answer("18.value", worst):  # it guarantees the game's value: an optimal mix
        shown = "" if mix == [Fraction(a) for a in answer] else f" (as Fractions: {', '.join(map(str, mix))})"
        return True, f"against every guard this mix{shown} wins at least {worst}, the game's value: no guard exploits it."
    best_guard = min(range(len(guards)), key=lambda j: sum(mix[i] * matrix[i][j] for i in range(len(claims))))
    rounded = any(not isinstance(a, (int, Fraction)) for a in answer)
    return False, (f"the victim can guard claim {guards[best_guard]} and hold this mix to {fraction_text(worst)} "
                   f"(about {float(worst):.3f}); the equilibrium mix leaves every guard the same."
                   + (" A mix rounded to decimals is a little exploitable: compute it with Fractions, e.g. "
                      "Fraction(3, 8)." if rounded else ""))


@answer_of("18.mix")
def _mix_answer():
    return tuple(guarded_18()[3][0])

"""Lesson 11's exercises, cascades (Bucket King): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from itertools import permutations

from meeple.rules import bucket_king as bk
from meeple.rules import exact
from fractions import Fraction

from .checking import WrongKind, exact_answer, exercise
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 11.second_row's poke probabilities (see NUMBERS["11"])
SECOND_ROW_P = (Fraction(1, 2), *sorted({Fraction(a, b) for b in range(3, 19) if 20 % b for a in range(1, b)
                                        if Fraction(a, b).denominator == b}))

# none_players: 11.none_colour's table (BK-3: 2-4 players build 5-4-3-2-1 with three of each colour, 5-6
# players 4-3-2-1 with two). Its answer is a rule (put them at the top), so a classmate's placement for a
# pyramid of the same shape passes too; one for the other shape does not
# p: 11.second_row's poke probability, the lesson's 1/2 first, then every a/b strictly between 0 and 1 with b from 3 to
# 18 but those over 2, 4, 5, 10 or 20 (lesson 11's curves show p = k/20): 91 values, each its own expected loss, so a
# classmate's answer is rarely the student's (issue 37: five values, 21% of pairs)
NUMBERS = choices("11", {"p": SECOND_ROW_P, "none_players": (4, 5, 3, 6)})


def _cost_of_losing(rows, places) -> int:
    """Fewest buckets lost (exact rule, BK-10, before any split) until every bucket at
    `places` is gone, choosing the order of the losses (BK-9)."""
    best = None
    for order in permutations(places):
        gone: set = set()
        for q in order:
            if q not in gone:
                gone |= bk.falling_buckets(rows, tuple(gone), q)
        best = len(gone) if best is None else min(best, len(gone))
    return best


def none_colour_table():
    """The Bucket King rules of this student's 11.none_colour: their number of players (BK-3)."""
    return bk.Config(players=exercise_numbers("11")["none_players"])


@exercise("11.none_colour", "your purple buckets' positions (row, slot), e.g. [(0, 0), (0, 1), (0, 2)]", varied=True, sealed=False)
def _none_colour(answer):
    config = none_colour_table()
    rows = config.rows
    need = config.buckets_per_colour[config.players - 2]
    try:
        places = [tuple(int(v) for v in q) for q in answer]
    except (TypeError, ValueError):
        raise WrongKind(f"expected {need} positions (row, slot), got {answer!r}") from None
    valid = {(r, i) for r, n in enumerate(rows) for i in range(n)}
    if len(places) != need or any(len(q) != 2 for q in places):
        raise WrongKind(f"expected {need} positions (row, slot), got {answer!r}")
    bad = [q for q in places if q not in valid]
    if bad:
        raise WrongKind(f"{bad[0]} is not a place in the pyramid: rows 0 (bottom, {rows[0]} slots) to {len(rows) - 1} (top, 1 slot)")
    if len(set(places)) != need:
        return False, "two of your buckets share a place: each place holds one bucket."
    cost = _cost_of_losing(rows, places)
    if cost == need:
        return True, f"losing all {need} costs only {need} buckets: each goes alone."
    return False, (f"in the best order, losing them takes {cost} buckets with them counted. "
                   "Could every purple bucket have nothing resting on it when you give it up?")


@answer_of("11.none_colour")
def _none_colour_answer():
    config = none_colour_table()
    rows, need = config.rows, config.buckets_per_colour[config.players - 2]
    return [(r, i) for r in reversed(range(len(rows))) for i in range(rows[r])][:need]  # one of several: the top ones


@exercise("11.second_row", "the expected loss as an exact Fraction", varied=True, sealed=True)
def _second_row(answer):
    rows, p = bk.Config().rows, exercise_numbers("11")["p"]
    right = expected("11.second_row")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{right} ≈ {float(right):.3f} buckets, against {len(bk.falling_buckets(rows, (), (1, 1)))} under the exact rule."
    if a == len(bk.falling_buckets(rows, (), (1, 1))):
        return False, f"that is the exact rule (p = 1); use fall_distribution with p = Fraction({p.numerator}, {p.denominator})."
    if a == exact.mean(bk.fall_distribution(rows, (), (1, 1), 1 - p)):
        return False, f"that is p = {1 - p}: p is the chance that a bucket resting on a lost one falls."
    return False, (f"take exact.mean of bk.fall_distribution(rows, (), (1, 1), Fraction({p.numerator}, {p.denominator})); "
                   "row 2 is row 1 in code.")


@answer_of("11.second_row")
def _second_row_answer():
    return exact.mean(bk.fall_distribution(bk.Config().rows, (), (1, 1), exercise_numbers("11")["p"]))

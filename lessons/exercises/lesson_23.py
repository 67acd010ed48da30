"""Lesson 23's exercises, utility and risk (Duck, Duck, Bruce's flips): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import duck_duck_bruce as ddb

from .checking import exact_answer, exercise, fraction_text
from .key import answer_of
from .numbers import choices, lesson_numbers


# weight: 23.mean_variance's penalty on the haul's variance; need: 23.two_turns's ducks over two turns
# (neither is a number the lesson works: it weighs utilities 1 - (1 - r)^x and one turn's needs)
NUMBERS = choices("23", {"weight": (Fraction(1, 4), Fraction(1, 8), Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)),
                         "need": (5, 6, 7, 4, 8)})


@lru_cache(maxsize=64)
def clean_run(flips: int) -> Fraction:
    """P(the first `flips` flips of a fresh shuffle are ducks of `flips` different suits: no double
    (DDB-5), no Bruce (DDB-6)), for the base deck: the same as exact.fresh_flips((), deck, flips),
    written as the product of each next flip's chance, since every unseen suit holds the same ducks."""
    cfg = ddb.Config()
    ducks, suits, cards = len(cfg.numbers), len(cfg.suits), len(cfg.deck())
    p = Fraction(1)
    for i in range(flips):
        p *= Fraction(ducks * (suits - i), cards - i)
    return p


MOST_FLIPS = 10  # a policy flips at most this many (one per suit of the base deck)


@lru_cache(maxsize=16)
def mean_variance_best(weight: Fraction) -> Fraction:
    """max over k of E[X_k] - weight Var[X_k], X_k the ducks taken by "stop after k flips" (k wins with
    chance q_k, else 0): k q_k - weight k^2 q_k (1 - q_k)."""
    return max(k * clean_run(k) - weight * k * k * clean_run(k) * (1 - clean_run(k)) for k in range(MOST_FLIPS + 1))


@exercise("23.mean_variance", expects="the best score as an exact Fraction", varied=True, sealed=False)
def _mean_variance(answer):
    weight = lesson_numbers(23)["weight"]
    right = mean_variance_best(weight)
    a = exact_answer(answer, right)
    scores = {k: k * clean_run(k) - weight * k * k * clean_run(k) * (1 - clean_run(k)) for k in range(MOST_FLIPS + 1)}
    best = max(scores, key=scores.get)
    if a == right:
        greedy = max(range(MOST_FLIPS + 1), key=lambda k: k * clean_run(k))
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f}, stopping after {best} flips, "
                      + ("earlier than" if best < greedy else "the same stop as") + f" the expected-ducks player ({greedy}).")
    if a == max(k * clean_run(k) for k in range(MOST_FLIPS + 1)):
        return False, "that is the best expected haul with no penalty; subtract the weight times the haul's variance."
    if a in {k * clean_run(k) - weight * k * clean_run(k) * (1 - clean_run(k)) for k in range(MOST_FLIPS + 1)}:
        return False, "the haul is k or 0, so its variance is k² q (1 − q), not k q (1 − q)."
    if a in scores.values():
        return False, "that is one policy's score; the question asks for the best score over every number of flips."
    return False, ("the haul X of 'stop after k flips' is k with chance q_k and 0 otherwise: E[X] = k q_k and "
                   "Var[X] = k² q_k (1 − q_k); score every k and take the largest.")


answer_of("23.mean_variance")(lambda: mean_variance_best(lesson_numbers(23)["weight"]))


def one_turn(need: int) -> Fraction:
    """The best chance to take at least `need` ducks in one turn (1 when nothing is needed)."""
    return Fraction(1) if need <= 0 else max((clean_run(k) for k in range(need, MOST_FLIPS + 1)), default=Fraction(0))


@lru_cache(maxsize=16)
def two_turns(need: int) -> Fraction:
    """The best chance to take at least `need` ducks in two turns, each from a fresh shuffle: choose the
    first turn's flips k, then play the last turn for what is still needed (backward induction)."""
    return max(clean_run(k) * one_turn(need - k) + (1 - clean_run(k)) * one_turn(need)
               for k in range(MOST_FLIPS + 1))


@exercise("23.two_turns", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _two_turns(answer):
    need = lesson_numbers(23)["need"]
    right = two_turns(need)
    a = exact_answer(answer, right)
    if a == right:
        first = max(range(MOST_FLIPS + 1), key=lambda k: (clean_run(k) * one_turn(need - k)
                                                          + (1 - clean_run(k)) * one_turn(need)))
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f}, stopping the first turn after {first} flips "
                      f"(one turn alone: {float(one_turn(need)):.3f}); the first stop is chosen for what the last turn "
                      "can still do, not for the ducks it takes.")
    if a == one_turn(need):
        return False, "that is the best chance in one turn; with two turns, the first may take part of what is needed."
    greedy = max(range(MOST_FLIPS + 1), key=lambda k: k * clean_run(k))
    if a == clean_run(greedy) * one_turn(need - greedy) + (1 - clean_run(greedy)) * one_turn(need):
        return False, "that first turn stops where the expected ducks are largest; choose the stop that maximises the chance of winning."
    if a == 1 - (1 - one_turn(need)) ** 2:
        return False, "two independent tries at the whole need ignore that the first turn's ducks count toward it."
    return False, ("work backwards: for the last turn the best chance to take n ducks is the largest q_k with k ≥ n; "
                   "for the first turn, try each k: q_k × (last turn for need − k) + (1 − q_k) × (last turn for need).")


answer_of("23.two_turns")(lambda: two_turns(lesson_numbers(23)["need"]))

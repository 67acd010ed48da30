"""Lesson 22's exercises, two variants compared the Bayesian way: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import bayes

from .checking import exact_answer, exercise, fraction_text
from .key import answer_of
from .numbers import choices, lesson_numbers


# lessons 22-25 (numbers.lesson_numbers reads these; none is a number the lesson shows first).
# record: 22.expected_loss's games ((A's wins, games), (B's wins, games)); rule: 22.power's (games a variant,
# threshold, A's true rate, B's true rate): each its own answer (tests/test_exercises_22_25.py)
NUMBERS = choices("22", {"record": (((30, 120), (41, 120)), ((22, 90), (31, 100)), ((45, 150), (52, 140)), ((12, 60), (20, 64)),
                                    ((50, 200), (63, 190))),
                         "rule": ((12, Fraction(9, 10), Fraction(1, 4), Fraction(1, 2)), (10, Fraction(19, 20), Fraction(1, 5), Fraction(1, 2)),
                                  (15, Fraction(4, 5), Fraction(1, 3), Fraction(1, 2)), (8, Fraction(9, 10), Fraction(1, 4), Fraction(3, 5)),
                                  (14, Fraction(19, 20), Fraction(1, 4), Fraction(1, 2)))})


def _params(won: int, games: int) -> tuple[int, int]:
    """The Beta posterior of a rate after `won` of `games`, from a uniform prior (lesson 15)."""
    return 1 + won, 1 + games - won


@lru_cache(maxsize=64)
def loss_of_adopting(won_a: int, games_a: int, won_b: int, games_b: int) -> Fraction:
    """E[max(p_A - p_B, 0)]: the win rate a designer expects to give up by adopting B, uniform priors.
    E[p_A; p_A > p_B] is A's mean times P(p_A' > p_B) with p_A' ~ Beta(a_A + 1, b_A) (p times the
    Beta(a, b) density is a/(a+b) times the Beta(a+1, b) density); the same for p_B."""
    (a_a, b_a), (a_b, b_b) = _params(won_a, games_a), _params(won_b, games_b)
    mean_a, mean_b = Fraction(a_a, a_a + b_a), Fraction(a_b, a_b + b_b)
    return mean_a * bayes.beats(a_b, b_b, a_a + 1, b_a) - mean_b * bayes.beats(a_b + 1, b_b, a_a, b_a)


@exercise("22.expected_loss", expects="the expected loss as an exact Fraction", varied=True, sealed=False)
def _expected_loss(answer):
    (won_a, games_a), (won_b, games_b) = lesson_numbers(22)["record"]
    right = loss_of_adopting(won_a, games_a, won_b, games_b)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.4f}: adopting B gives up that much win rate on "
                      "average, counting only the worlds where A is really the better one.")
    keep = loss_of_adopting(won_b, games_b, won_a, games_a)
    if a == keep:
        return False, "that is the loss of keeping A (what B's extra win rate is worth when B is better); the question is about adopting B."
    if a == 1 - bayes.chance_better(won_a, games_a, won_b, games_b) or a == bayes.chance_better(won_a, games_a, won_b, games_b):
        return False, "that is a chance that one rate is higher; the loss weighs each such world by how much higher."
    (a_a, b_a), (a_b, b_b) = _params(won_a, games_a), _params(won_b, games_b)
    gap = Fraction(a_a, a_a + b_a) - Fraction(a_b, a_b + b_b)
    if a == max(gap, Fraction(0)) or a == gap:
        return False, "that is the difference of the posterior means: the loss counts only the worlds where A is higher."
    return False, ("split E[max(p_A − p_B, 0)] into E[p_A; p_A > p_B] − E[p_B; p_A > p_B]; p times a Beta(a, b) "
                   "density is a/(a+b) times a Beta(a+1, b) density, so each part is a mean times a `bayes.beats`.")


answer_of("22.expected_loss")(lambda: loss_of_adopting(*(x for pair in lesson_numbers(22)["record"] for x in pair)))


@lru_cache(maxsize=64)
def adoption_chance(games: int, threshold: Fraction, rate_a: Fraction, rate_b: Fraction,
                    strict: bool = False) -> Fraction:
    """P(the rule adopts B) when A wins each game with rate_a and B with rate_b, `games` each, the rule
    being "adopt B when P(B better | the games) is at least `threshold`" (above it, with `strict`)."""
    chances_a, chances_b = bayes.binomial(games, rate_a), bayes.binomial(games, rate_b)
    total = Fraction(0)
    for won_b, q in enumerate(chances_b):
        for won_a, p in enumerate(chances_a):
            better = bayes.chance_better(won_a, games, won_b, games)
            if better > threshold or (better == threshold and not strict):
                total += p * q
    return total


@exercise("22.power", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _power(answer):
    games, threshold, rate_a, rate_b = lesson_numbers(22)["rule"]
    right = adoption_chance(games, threshold, rate_a, rate_b)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f}: with {games} games a variant, the rule "
                      f"misses a B that really is better {float(1 - right):.0%} of the time.")
    if a == 1 - right:
        return False, "that is the chance the rule keeps A (a miss); the question asks how often it adopts B."
    if a == adoption_chance(games, threshold, rate_a, rate_a):
        return False, "that is the chance of adopting B when B is no better than A; here B's true rate is higher."
    if a == adoption_chance(games, threshold, rate_b, rate_a):
        return False, "A and B are swapped: A wins with the lower rate, B with the higher."
    if a == adoption_chance(games, threshold, rate_a, rate_b, strict=True):
        return False, f"the rule adopts B when the chance is at least {threshold}: count the outcomes equal to it too."
    return False, ("sum over every pair of results (k_A, k_B) of their binomial chances, keeping the pairs where "
                   "`bayes.chance_better(k_A, n, k_B, n)` reaches the threshold.")


answer_of("22.power")(lambda: adoption_chance(*lesson_numbers(22)["rule"]))

"""Lesson 9's exercises, risk (Duck, Duck, Bruce's steal): each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact

from .checking import exact_answer, exercise
from .key import answer_of, expected
from .numbers import exercise_numbers

STEAL_DIE = (-1, 1, 1, 2, 2, 3, 3, 3)  # lesson 9's exercises: an eight-sided die (the base die is in its tables)



def _steal_rules():
    return ddb.Config(die=STEAL_DIE)



def _net_cards(claim: int, die) -> dict[int, Fraction]:
    outcome = Counter(claim if face >= claim else -1 if face == -1 else 0 for face in die)
    return {cards: Fraction(n, len(die)) for cards, n in outcome.items()}



def variance_die() -> tuple:
    """The steal die (8 to 14 faces) of this student's 09.claim3_variance (numbers.VARIANCE_DICE)."""
    return exercise_numbers("09")["variance_die"]



@exercise("09.claim3_variance", "the variance as an exact Fraction")
def _claim3_variance(answer):
    dist = _net_cards(3, variance_die())
    right = expected("09.claim3_variance")
    a = exact_answer(answer, right)
    base = exact.variance(_net_cards(3, ddb.Config().die))
    if a == base != right:
        return False, f"that is the base die's; the exercise's die is {variance_die()}."
    if a == right:
        return True, (f"the variance is {right}, a standard deviation of about {float(right) ** 0.5:.2f} cards "
                      f"around a mean of {exact.mean(dist)}.")
    if a == sum(x * x * p for x, p in dist.items()):
        return False, "that is E[X²]; the variance is E[X²] − E[X]² (subtract the squared mean)."
    return False, "list the net cards of each face (3, 0 or −1), then average the squared distance from the mean."



@answer_of("09.claim3_variance")
def _claim3_answer():
    return exact.variance(_net_cards(3, variance_die()))



def duel_rules():
    """The rules of this student's exercise 2 (09.trailer, 09.leader): the base rules with their `duel_die`."""
    return ddb.Config(die=exercise_numbers("09")["duel_die"])



def _last_steal(lead: int, config=None) -> dict[int, Fraction]:
    """{choice: win chance} of the player who takes the game's last steal `lead` cards ahead (0: decline)."""
    config = duel_rules() if config is None else config
    return {c: exact.win_chance(exact.steal_swing(c, config), lead)
            for c in [0, *range(config.min_steal, config.max_steal + 1)]}



def _steal_then_reply(lead: int, config=None) -> dict[int, Fraction]:
    """{choice: win chance} of a player `lead` cards ahead whose steal comes before the opponent's, the
    game's last (the opponent then makes their own best choice, `_last_steal`): 09.leader."""
    config = duel_rules() if config is None else config
    return {c: sum((p * (1 - max(_last_steal(-(lead + swing), config).values()))
                    for swing, p in exact.steal_swing(c, config).items()), Fraction(0))
            for c in [0, *range(config.min_steal, config.max_steal + 1)]}



@exercise("09.trailer", "the best win chance as an exact Fraction")
def _trailer(answer):
    chances = _last_steal(-exercise_numbers("09")["trail"])
    best = expected("09.trailer")
    a = exact_answer(answer, best)
    if a == best:
        return True, f"{best}: only a swing past the leader wins; take the smallest claim that can give one."
    if a in chances.values():
        return False, "that is the win chance of one choice, but not of the best one: compare every claim."
    if a in _last_steal(-exercise_numbers("09")["trail"], _steal_rules()).values():
        return False, "that is with the lesson's steal_die; exercise 2 uses your die, mine['duel_die']."
    return False, (f"use exact.win_chance(exact.steal_swing(claim, duel_rules), -{exercise_numbers('09')['trail']}) for each "
                   "claim and decline (0).")



answer_of("09.trailer")(lambda: max(_last_steal(-exercise_numbers("09")["trail"]).values()))



@exercise("09.leader", "the best win chance as an exact Fraction")
def _leader(answer):
    lead = exercise_numbers("09")["lead"]
    chances = _steal_then_reply(lead)
    best = expected("09.leader")
    a = exact_answer(answer, best)
    if a == best:
        choice = max(chances, key=chances.get)
        return True, (f"{best}, with {'decline' if choice == 0 else f'claim {choice}'}: the lead you take into "
                      "your opponent's steal is what they must overcome.")
    if a in _last_steal(lead).values():
        return False, "that is the last steal's chance; here your opponent steals after you, with their own best choice."
    if a in chances.values():
        return False, "that is the win chance of one choice, but not of the best one: compare decline and every claim."
    return False, ("for each of your choices, weigh every lead change it can make by the chance that your opponent, "
                   "trailing by what is left, does not win with their best last steal.")



answer_of("09.leader")(lambda: max(_steal_then_reply(exercise_numbers("09")["lead"]).values()))

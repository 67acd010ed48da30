"""Lesson 9's exercises, risk (Duck, Duck, Bruce's steal): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact

from .checking import exact_answer, exercise
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 09.claim3_variance's steal dice: the lesson's five first, then dice of 8 to 14 faces, one to three -1s, two or more
# 3s and 1s and 2s between, each with a claim-3 variance of its own (claim 3's net cards depend on the 3s and the -1s
# alone) and none a variance lesson 9 shows (the base die's claims and lead changes), issue 37
def _claim_variance(die, claim: int = 3) -> Fraction:
    """The variance of a claim's net cards with this steal die (lesson_09._net_cards: claim, -1 or 0)."""
    net = [claim if face >= claim else -1 if face == -1 else 0 for face in die]
    mean = Fraction(sum(net), len(die))
    return Fraction(sum(x * x for x in net), len(die)) - mean * mean


def _variance_dice() -> tuple:
    dice = [(-1, 1, 1, 2, 2, 3, 3, 3), (-1, 1, 2, 2, 3, 3, 3, 3), (-1, -1, 1, 2, 3, 3, 3, 3),
            (-1, -1, 1, 1, 2, 3, 3, 3), (-1, 1, 1, 2, 2, 2, 3, 3)]
    base = (-1, 1, 1, 2, 3, 3)  # the base game's die (ddb.Config().die): lesson 9 shows its claims' variances and
    shown = {k * _claim_variance(base, claim) for claim in (1, 2, 3) for k in (1, 4)}  # its lead changes' (twice the cards)
    seen = {_claim_variance(d) for d in dice} | shown
    for faces in range(8, 15):
        for minus in (1, 2, 3):
            for threes in range(2, faces - minus - 1):
                between = faces - minus - threes
                die = (-1,) * minus + (1,) * (between - between // 2) + (2,) * (between // 2) + (3,) * threes
                if _claim_variance(die) not in seen:
                    seen.add(_claim_variance(die))
                    dice.append(die)
    return tuple(dice)

VARIANCE_DICE = _variance_dice()

# lesson 9's duel dice (NUMBERS["09"]["duel_die"]; 18.value's too)
DUEL_DICE = ((-1, 1, 1, 2, 2, 3, 3, 3), (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3),
            (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3), (-1, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
            (-1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3), (-1, -1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3),
            (-1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3),
            (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
            (-1, 0, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, 1, 2, 3, 3, 3, 3, 3, 3, 3),
            (-1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3),
            (-1, -1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, -1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
            (-1, -1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 2, 2, 3, 3, 3, 3),
            (-1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
            (-1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
            (-1, -1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3),
            (-1, -1, 0, 1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3))

# more duel dice for lesson 9 (09.trailer and 09.leader): 7 to 20 faces but 12, one or two -1s, each keeping lesson
# 9's rules at every trail and lead from 1 to 6 (the trailer's best is the smallest claim that can overtake, the last
# steal's leader declines), adding trailer chances of its own, none a twelfth, and giving no trailer's or leader's
# answer lesson 9 shows before asking (as tests/lessons/test_lessons_run.py reads it) nor one the course's texts
# hold to three digits (a graded site's pages, tests/site). Issue 37: 30 trailer chances among DUEL_DICE, 3% of
# pairs; with these 33 dice, 97 chances, about 1.4%. Lesson 9 leaves out DUEL_DICE's
# (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3): its leader six cards ahead wins 19/20, a figure the lesson shows (95%)
TRAILER_DICE = ((-1, 1, 2, 2, 2, 3, 3, 3, 3), (-1, 1, 3, 3, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3),
                (-1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3),
                (-1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                (-1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3))

# exercise 2 (09.trailer, 09.leader): trail, lead and duel_die, the die of both steals (DUEL_DICE and
# TRAILER_DICE: 7 to 20 faces, one or two -1s; the lesson's STEAL_DIE first). Each die keeps the lesson's rule for the trailer at every trail
# (the smallest claim that can overtake is best), gives no answer the lesson's table of win chances shows
# (its six-sided die's twelfths: hence no 6- or 12-faced die) nor, for the second student of
# tests/lessons/test_lessons_run.py, one of its sampled figures, and spreads the answers (issue 37: the leader's answer,
# 0, was the whole class's; now the opponent steals after the leader, so the leader's best is a claim)
NUMBERS = choices("09", {"trail": (4, 3, 5, 2, 1, 6), "lead": (2, 1, 3, 4, 5, 6),
                         "duel_die": (*(d for d in DUEL_DICE if d != (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3)), *TRAILER_DICE),
                         # variance_die: 09.claim3_variance's die, each with a claim-3 variance of its own (VARIANCE_DICE)
                         "variance_die": VARIANCE_DICE})

STEAL_DIE = (-1, 1, 1, 2, 2, 3, 3, 3)  # lesson 9's exercises: an eight-sided die (the base die is in its tables)


def _steal_rules():
    return ddb.Config(die=STEAL_DIE)


def _net_cards(claim: int, die) -> dict[int, Fraction]:
    outcome = Counter(claim if face >= claim else -1 if face == -1 else 0 for face in die)
    return {cards: Fraction(n, len(die)) for cards, n in outcome.items()}


def variance_die() -> tuple:
    """The steal die (8 to 14 faces) of this student's 09.claim3_variance (lesson_09.VARIANCE_DICE)."""
    return exercise_numbers("09")["variance_die"]


@exercise("09.claim3_variance", "the variance as an exact Fraction", varied=True, sealed=True)
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


@exercise("09.trailer", "the best win chance as an exact Fraction", varied=True, sealed=True)
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


@exercise("09.leader", "the best win chance as an exact Fraction", varied=True, sealed=True)
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

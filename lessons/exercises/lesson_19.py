"""Lesson 19's exercises, streaks (Duck, Duck, Bruce): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact

from .checking import exact_answer, exercise
from .key import answer_of
from .numbers import choices, lesson_numbers


# 19.drought's (Bruce cards, run): a round's pile in a game whose deck holds the base 60 ducks and that many Bruce cards
# (ddb.Config(bruce_cards=...): lesson 19's "small bag" lever), and a stretch of at least `run` cards without a Bruce.
# The base six Bruces and 27 first, then 3 to 10 Bruces with every run whose chance lies between 5% and 95% in that
# pile but 9 Bruces and 19 (42.6%, a figure lesson 19 shows first): 158 questions, each its own chance (issue 37: 4
# runs, 26% of pairs)
DROUGHT_RUNS = {3: (22, 47), 4: (19, 42), 5: (17, 38), 6: (16, 35), 7: (15, 32), 8: (14, 30), 9: (13, 28), 10: (12, 27)}

DROUGHTS = ((6, 27), *((b, r) for b, (low, high) in DROUGHT_RUNS.items() for r in range(low, high + 1)
                       if (b, r) not in {(6, 27), (9, 19)}))

# lessons 19-21 (numbers.lesson_numbers reads these). The sampled exercises' answer key
# plays the solution's own games once per choice (cached), so a class costs the choices, not the students.
# flipped and bruces_seen: 19.due's (cards flipped, Bruces among them), 8 to 34 cards and 1 to 4 Bruces: 84 pairs,
# none a chance the lesson shows first (its chart's B/(N - k) for k = 0, 4, ..., 36, 1/5, 1/11, and its rolls' 1/6
# and 15.4%), hence no 11, 21, 22, 30, 31, 33 cards. claims: 19.cold_streak's, 8 to 22 claims a game but 13 (whose
# 5 failures of claim 2 come to 15.4%), with claim and streak 84 questions. Issue 37
NUMBERS = choices("19", {"flipped": (24, 20, 28, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 23, 25, 26, 27, 29, 32, 34),
                         "bruces_seen": (2, 1, 3, 4), "drought": DROUGHTS,
                         "claims": (12, 10, 15, 8, 9, 11, 14, 16, 17, 18, 19, 20, 21, 22), "claim": (3, 2), "streak": (6, 5, 7)})


def _ddb_counts():
    deck = ddb.Config().deck()
    return len(deck), sum(type(c) is ddb.Bruce for c in deck)


def next_bruce(flipped: int, bruces_seen: int) -> Fraction:
    """P(the next card of a round's pile is a Bruce) after `flipped` cards, `bruces_seen` of them Bruces."""
    cards, bruces = _ddb_counts()
    return Fraction(bruces - bruces_seen, cards - flipped)


@exercise("19.due", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _due(answer):
    n = lesson_numbers(19)
    k, b = n["flipped"], n["bruces_seen"]
    cards, bruces = _ddb_counts()
    right = next_bruce(k, b)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}: {bruces - b} Bruces among the {cards - k} cards still face "
                      f"down. Against {Fraction(bruces, cards)} at the start of the round.")
    if a == Fraction(bruces, cards):
        return False, "that is the chance at the start of the round: the pile is not reshuffled after a flip (DDB-2)."
    if a == Fraction(bruces, cards - k):
        return False, f"{b} of the Bruces are already face up: they are not in the pile any more."
    if a == Fraction(bruces - b, cards):
        return False, f"the {k} cards flipped have left the pile too: count the cards still face down."
    return False, "count the Bruces still face down over the cards still face down."


answer_of("19.due")(lambda: next_bruce(lesson_numbers(19)["flipped"], lesson_numbers(19)["bruces_seen"]))


def _drought_pile(bruce_cards: int) -> tuple[int, int]:
    """(cards, Bruces) of a round's pile in a game of `bruce_cards` Bruce cards (the base deck's ducks)."""
    deck = ddb.Config(bruce_cards=bruce_cards).deck()
    return len(deck), sum(type(c) is ddb.Bruce for c in deck)


def drought_chance(bruce_cards: int, run: int) -> Fraction:
    """P(a round's pile, with `bruce_cards` Bruces, has a stretch of at least `run` cards without one)."""
    cards, bruces = _drought_pile(bruce_cards)
    return exact.at_least(exact.longest_gap(cards, bruces), run)


@exercise("19.drought", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _drought(answer):
    n = lesson_numbers(19)
    b, run = n["drought_bruces"], n["drought_run"]
    cards, bruces = _drought_pile(b)
    right = drought_chance(b, run)
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{right} ≈ {float(right):.3f} of the rounds have a stretch of {run} or more cards without Bruce."
    iid = exact.at_least(exact.longest_run(cards, Fraction(cards - bruces, cards)), run)
    if a == iid:
        return False, ("that is the chance with replacement (every flip a Bruce with the same chance): this pile holds "
                       "exactly its Bruces, use longest_gap.")
    if a == exact.longest_gap(cards, bruces).get(run):
        return False, f"that is a longest stretch of exactly {run}; the question says {run} or more."
    if a == 1 - right:
        return False, "that is the chance that every stretch is shorter: the complement."
    if b != ddb.Config().bruce_cards and a == drought_chance(ddb.Config().bruce_cards, run):
        return False, (f"that is the base game's pile ({ddb.Config().bruce_cards} Bruces); yours holds {b} Bruces "
                       f"among {cards} cards (ddb.Config(bruce_cards={b}).deck()).")
    return False, f"take exact.longest_gap({cards}, {bruces}) and add the chances of {run}, {run + 1}, ..."


answer_of("19.drought")(lambda: drought_chance(*lesson_numbers(19)["drought"]))


def cold_streak_chance(claims: int, claim: int, streak: int) -> Fraction:
    die = ddb.Config().die
    fail = Fraction(sum(1 for f in die if f < claim), len(die))  # a -1 fails too (DDB-7, DDB-8)
    return exact.at_least(exact.longest_run(claims, fail), streak)


@exercise("19.cold_streak", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _cold_streak(answer):
    n = lesson_numbers(19)
    right = cold_streak_chance(n["claims"], n["claim"], n["streak"])
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}: a cold streak of {n['streak']} is no sign of a cursed die; "
                      "the die has no memory.")
    die = ddb.Config().die
    fail = Fraction(sum(1 for f in die if f < n["claim"]), len(die))
    if a == fail ** n["streak"]:
        return False, (f"that is the chance that {n['streak']} given claims in a row all fail; a streak may start at "
                       f"any of the {n['claims']} claims.")
    if a == 1 - right:
        return False, "that is the chance that no run of failures is that long: the complement."
    if a == cold_streak_chance(n["claims"], n["claim"], n["streak"]) - cold_streak_chance(n["claims"], n["claim"], n["streak"] + 1):
        return False, f"that is a longest streak of exactly {n['streak']}; the question says at least."
    success = 1 - fail

    if a == exact.at_least(exact.longest_run(n["claims"], success), n["streak"]):
        return False, f"that counts runs of successes: a claim of {n['claim']} fails on every face below {n['claim']}."
    return False, (f"a claim of {n['claim']} fails on every face below {n['claim']} (the −1 too); use "
                   "exact.longest_run(claims, chance of a failure).")


answer_of("19.cold_streak")(lambda: cold_streak_chance(lesson_numbers(19)["claims"], lesson_numbers(19)["claim"], lesson_numbers(19)["streak"]))

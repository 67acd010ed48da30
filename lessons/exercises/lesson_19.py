"""Lesson 19's exercises, streaks (Duck, Duck, Bruce): each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact

from .checking import exact_answer, exercise
from .key import answer_of
from .numbers import lesson_numbers


def _ddb_counts():
    deck = ddb.Config().deck()
    return len(deck), sum(type(c) is ddb.Bruce for c in deck)



def next_bruce(flipped: int, bruces_seen: int) -> Fraction:
    """P(the next card of a round's pile is a Bruce) after `flipped` cards, `bruces_seen` of them Bruces."""
    cards, bruces = _ddb_counts()
    return Fraction(bruces - bruces_seen, cards - flipped)



@exercise("19.due", expects="the chance as an exact Fraction")
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



@exercise("19.drought", expects="the chance as an exact Fraction")
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



@exercise("19.cold_streak", expects="the chance as an exact Fraction")
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

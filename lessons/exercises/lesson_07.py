"""Lesson 7's exercises, without replacement (Duck, Duck, Bruce): the student's numbers it varies (`choices`),
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


# lesson 7's decks (colours, Bruces) with an answer lesson 7 shows before asking
SEVEN_DECKS_SHOWN = frozenset({(9, 1), (9, 2), (9, 3), (9, 5), (9, 20), (8, 3), (8, 10), (10, 15)})

# deck: lesson 7's exercise deck (colours, Bruces), the base deck's ten and six first, then its first 6 to 10
# colours with 1 to 22 Bruces, at most half as many as its ducks (07.third and 07.no_double depend on the deck
# alone: issue 37), but for the decks where some answer of 07.third, 07.no_double or 07.bruces (at any handful)
# is a figure the lesson shows first (SEVEN_DECKS_SHOWN). seen: 07.third's ducks of different suits flipped before
# the flip asked about (2 to 4: with the deck 297 questions, 145 chances). cards: 07.bruces's handful, 6 to 15
NUMBERS = choices("07", {"deck": ((10, 6), *((s, b) for s in (10, 9, 8, 7, 6) for b in range(1, 23)
                                             if b <= 3 * s and (s, b) != (10, 6) and (s, b) not in SEVEN_DECKS_SHOWN)),
                         "cards": (10, 8, 9, 11, 12, 7, 13, 14, 6, 15), "seen": (2, 3, 4)})


def _rules_07():
    """Lesson 7's exercise deck: the base deck's first colours and this student's number of Bruces (their `deck`)."""
    suits, bruces = exercise_numbers("07")["deck"]
    return ddb.Config(suits=ddb.Config().suits[:suits], bruce_cards=bruces)


def _round_start_after_one_duck(ducks: int = 1):
    """(row suits, remaining {suit: ducks, None: Bruces}) after a round's first `ducks` flips
    showed ducks of that many different suits."""
    cfg = _rules_07()
    row = list(cfg.suits[:ducks])  # every suit is alike: take the first ones
    left = Counter(None if type(c) is ddb.Bruce else c.suit for c in cfg.deck())
    for suit in row:
        left[suit] -= 1
    return row, dict(left)


def _third_flip_answer() -> Fraction:
    row, left = _round_start_after_one_duck(exercise_numbers("07")["seen"])
    return Fraction(sum(left[s] for s in row) + left[None], sum(left.values()))


@exercise("07.third", expects="an exact Fraction", varied=True, sealed=True)
def _third_flip(answer):
    seen = exercise_numbers("07")["seen"]
    row, left = _round_start_after_one_duck(seen)
    cards = sum(left.values())
    want = expected("07.third")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want}: the cards that bust it over the cards still face down."
    deck = len(_rules_07().deck())
    if x == Fraction(sum(left[s] for s in row) + len(row) + left[None], deck):
        return False, f"that counts the flipped ducks as if they went back into the pile: this deck has {seen} cards fewer now."
    if x == Fraction(sum(left[s] for s in row) + left[None], cards + seen - 1):
        return False, f"{seen} cards have left the pile, not one: count what is still face down after all {seen} flips."
    if x in (Fraction(left[None], cards), Fraction(sum(left[s] for s in row), cards),
             Fraction(left[row[0]] + left[None], cards)):
        return False, "a Bruce and a duck of any suit in the row end the turn: count all of them."
    return False, "count the cards that would end the turn among those still face down."


answer_of("07.third")(_third_flip_answer)


@exercise("07.no_double", expects="an exact Fraction", varied=True, sealed=True)
def _no_double(answer):
    row, left = _round_start_after_one_duck()
    want = expected("07.no_double")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}: the chain rule, one conditional chance per flip."
    if x == exact.fresh_flips(row, left, 1) ** 3:
        return False, "the three flips are not independent: after each fresh duck the pile is smaller and has one more suit to fear."
    if x == 1 - want:
        return False, "that is the chance the turn ends within three flips: the complement."
    return False, "multiply three conditional chances: each flip must show a duck of a new suit, given the flips before it."


@answer_of("07.no_double")
def _no_double_answer():
    row, left = _round_start_after_one_duck()
    return exact.fresh_flips(row, left, 3)


@exercise("07.bruces", expects="an exact Fraction", varied=True, sealed=True)
def _bruce_in_ten(answer):
    deck = _rules_07().deck()
    cards = exercise_numbers("07")["cards"]
    dist = exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck), cards)
    want = expected("07.bruces")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == dist.get(1):
        return False, "that is exactly one Bruce; the question says at least one."
    return False, f"take 1 minus the chance of no Bruce among {cards} cards drawn without replacement (hypergeometric)."


@answer_of("07.bruces")
def _bruces_answer():
    deck = _rules_07().deck()
    return exact.at_least(exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck),
                                               exercise_numbers("07")["cards"]), 1)

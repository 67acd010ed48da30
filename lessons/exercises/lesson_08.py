"""Lesson 8's exercises, push your luck (Duck, Duck, Bruce): each one's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb

from .checking import exact_answer, exercise
from .key import answer_of, expected
from .numbers import exercise_numbers


def _same(answer: Fraction, right: Fraction, what: str, hint: str) -> tuple[bool, str]:
    if answer == right:
        return True, f"{what} is {right} (about {float(right):.1%})." if 0 <= right <= 1 else f"{what} is {right}."
    return False, hint



def _ddb_unseen(config, *gone) -> list:
    left = Counter(config.deck())
    for cards in gone:
        left.subtract(cards)
    return list(left.elements())



def _ddb_nest_position():
    """08's exercise 2 for this student: (ddb, row, unseen cards, nest) from their `nest` numbers."""
    suits, number, ducks = exercise_numbers("08")["nest"]
    nest = [ddb.Duck(suit, n) for suit, n in ducks]
    row = [ddb.Duck(suit, number) for suit in suits]
    return ddb, row, _ddb_unseen(ddb.Config(), row, nest), nest



def _five_ducks_rules():
    """08.five_ducks's deck: the base deck's first colours with the student's extra Bruces (their `deck`; the base
    deck's five ducks are in the lesson's table)."""
    (suits, extra), base = exercise_numbers("08")["deck"], ddb.Config()
    return ddb.Config(suits=base.suits[:suits], bruce_cards=base.bruce_cards + extra)



@exercise("08.five_ducks", "the exact bust chance as a Fraction")
def _five_ducks(answer):
    config = _five_ducks_rules()
    row = [ddb.Duck(suit, 1) for suit in config.suits[:5]]
    right = expected("08.five_ducks")
    a = exact_answer(answer, right)
    base = ddb.Config()
    if a == ddb.bust_probability(row, _ddb_unseen(base, row)):
        return False, (f"that is the base deck's ({len(base.suits)} colours, {base.bruce_cards} Bruces); this deck has "
                       f"{len(config.suits)} colours and {config.bruce_cards} Bruces.")
    face_down = len(config.deck()) - len(row)
    if a in (ddb.bust_probability(row, config.deck()), right * face_down / (face_down + len(row))):
        return False, ("the five ducks in the row are face up: leave them out of the cards still "
                       "face down, in the count and in the total.")
    return _same(a, right, "The chance",
                 "count the cards that end the turn (every Bruce, and every other duck of the five "
                 "suits in the row) over the cards still face down.")



@answer_of("08.five_ducks")
def _five_ducks_answer():
    config = _five_ducks_rules()
    row = [ddb.Duck(suit, 1) for suit in config.suits[:5]]
    return ddb.bust_probability(row, _ddb_unseen(config, row))



# Same shape as every exact checker (the answer read once, then this exercise's own named mistakes): written out on purpose.
@exercise("08.nest_bust", "the exact bust chance as a Fraction")
def _nest_bust(answer):
    ddb, row, left, nest = _ddb_nest_position()
    right = expected("08.nest_bust")
    a = exact_answer(answer, right)
    if a != right and a == ddb.bust_probability(row, _ddb_unseen(ddb.Config(), row)):
        return False, (f"your nest's {', '.join(map(str, nest))} {'is' if len(nest) == 1 else 'are'} not in the pile: "
                       "take the nest out of the unseen cards as well as the row.")
    return _same(a, right, "The chance",
                 "the cards still face down are the deck less the row and your nest; count the Bruces and the "
                 "ducks of the row's suits among them.")



@answer_of("08.nest_bust")
def _nest_bust_answer():
    ddb, row, left, _nest = _ddb_nest_position()
    return ddb.bust_probability(row, left)



# Same shape as every exact checker (the answer read once, then this exercise's own named mistakes): written out on purpose.
@exercise("08.nest_gain", "flip minus stop, as an exact Fraction")
def _nest_gain(answer):
    ddb, row, left, nest = _ddb_nest_position()
    right = expected("08.nest_gain")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"one more flip gains {a} ≈ {float(a):+.2f} points on average, so {'flip' if a > 0 else 'stop'}."
    if a == -right:
        return False, "check the sign: the gain is the expected score if you flip minus the score if you stop."
    empty_stop, empty_flip = ddb.flip_values(row, left)
    if a == empty_flip - empty_stop:
        return False, "that is the gain with an empty nest: pass the nest as flip_values' third argument."
    return False, "use flip_values(row, unseen cards, nest): it returns (stop, flip); subtract stop from flip."



@answer_of("08.nest_gain")
def _nest_gain_answer():
    ddb, row, left, nest = _ddb_nest_position()
    stop, flip = ddb.flip_values(row, left, nest)
    return flip - stop

"""Lesson 8's exercises, push your luck (Duck, Duck, Bruce): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from meeple.rules import duck_duck_bruce as ddb

from .checking import exact_answer, exercise
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 08.five_ducks's decks (colours, extra Bruces) whose bust chance lesson 8 shows before asking (3/5, 2/3, 41/59, 23/29)
FIVE_DUCKS_SHOWN = frozenset({(10, 14), (9, 5), (9, 17), (9, 18), (8, 5), (8, 6), (8, 10), (7, 15)})

# 08's exercise 2 (08.nest_bust, 08.nest_gain): (the row's suits, the number on each of its ducks, the nest's ducks).
# NEST_SHAPES: (k, x, m, y, w, e, z), a row of k ducks numbered x (NEST_ROW's first k suits) and a nest of a y above x
# in the row's first m suits, a 1 in its first w and a z in the first e other suits (ddb's order). Each is one where the
# empty nest says stop (the lesson's grid) and the nest says flip, the nest outranking a duck of the row (exercise 2 (c)),
# with a bust chance and a gain of its own and neither one a figure lesson 8 shows before it (the lesson's own first;
# tests/course/test_student_numbers.py; issue 37: 6 nests on one row, 5 bust chances)
NEST_ROW = ("red", "green", "yellow", "orange", "teal", "blue", "purple")

NEST_SHAPES = ((3, 2, 1, 4, 0, 0, 1), (3, 2, 1, 3, 0, 1, 1), (3, 2, 1, 3, 1, 0, 1), (3, 2, 1, 3, 1, 1,
               1), (3, 2, 2, 3, 1, 0, 1), (4, 2, 3, 3, 0, 0, 1), (5, 1, 3, 2, 0, 0, 1), (3, 2, 1, 3, 0,
               3, 1), (3, 2, 1, 3, 1, 2, 1), (3, 2, 2, 3, 1, 1, 1), (3, 2, 2, 3, 2, 0, 1), (4, 2, 3, 3,
               0, 1, 1), (4, 2, 3, 3, 1, 0, 1), (5, 1, 3, 2, 0, 1, 1), (5, 1, 3, 2, 1, 0, 1), (3, 2, 1,
               3, 1, 3, 1), (3, 2, 2, 3, 1, 2, 1), (3, 2, 2, 3, 2, 1, 1), (3, 2, 3, 3, 2, 0, 1), (4, 2,
               3, 3, 0, 2, 1), (4, 2, 3, 3, 1, 1, 1), (4, 2, 3, 3, 2, 0, 1), (5, 1, 3, 2, 0, 2, 1), (5,
               1, 3, 2, 1, 1, 1), (5, 1, 3, 2, 2, 0, 1), (6, 1, 5, 2, 0, 0, 1), (3, 2, 2, 3, 1, 3, 1),
               (3, 2, 2, 3, 2, 2, 1), (3, 2, 3, 3, 2, 1, 1), (4, 2, 3, 3, 1, 2, 1), (4, 2, 3, 3, 2, 1,
               1), (4, 2, 3, 3, 3, 0, 1), (5, 1, 3, 2, 1, 2, 1), (5, 1, 3, 2, 2, 1, 1), (5, 1, 3, 2, 3,
               0, 1), (6, 1, 5, 2, 0, 1, 1), (6, 1, 5, 2, 1, 0, 1), (7, 1, 6, 2, 0, 0, 1), (3, 2, 2, 3,
               0, 5, 1), (3, 2, 2, 3, 1, 4, 1), (3, 2, 2, 3, 2, 3, 1), (3, 2, 3, 3, 2, 2, 1), (3, 2, 3,
               3, 3, 1, 1), (4, 2, 3, 3, 0, 4, 1), (4, 2, 3, 3, 1, 3, 1), (4, 2, 3, 3, 2, 2, 1), (4, 2,
               3, 3, 3, 1, 1), (4, 2, 4, 3, 3, 0, 1), (5, 1, 3, 2, 2, 2, 1), (5, 1, 3, 2, 3, 1, 1), (5,
               1, 4, 2, 3, 0, 1), (6, 1, 5, 2, 1, 1, 3), (6, 1, 5, 2, 2, 0, 1), (7, 1, 6, 2, 1, 0, 1),
               (3, 2, 2, 3, 1, 5, 1), (3, 2, 2, 3, 2, 4, 3), (3, 2, 3, 3, 2, 3, 1), (3, 2, 3, 3, 3, 2,
               1), (4, 2, 3, 3, 0, 5, 1), (4, 2, 3, 3, 1, 4, 1), (4, 2, 3, 3, 3, 2, 1), (4, 2, 4, 3, 1,
               3, 1), (4, 2, 4, 3, 3, 1, 1), (5, 1, 3, 2, 3, 2, 1), (5, 1, 4, 2, 0, 4, 1), (5, 1, 4, 2,
               1, 3, 1), (5, 1, 4, 2, 3, 1, 1), (5, 1, 4, 2, 4, 0, 1), (6, 1, 4, 2, 4, 0, 1), (6, 1, 5,
               2, 0, 3, 1), (6, 1, 5, 2, 1, 2, 1), (6, 1, 5, 2, 2, 1, 1), (7, 1, 6, 2, 2, 0, 1), (3, 2,
               2, 3, 2, 5, 1), (3, 2, 3, 3, 2, 4, 1), (3, 2, 3, 3, 3, 3, 1), (4, 2, 3, 3, 2, 4, 1), (4,
               2, 3, 3, 3, 3, 1), (4, 2, 4, 3, 0, 5, 1), (4, 2, 4, 3, 3, 2, 1), (4, 2, 4, 3, 4, 1, 1),
               (5, 1, 3, 2, 3, 3, 1), (5, 1, 4, 2, 0, 5, 1), (5, 1, 4, 2, 3, 2, 1), (5, 1, 4, 2, 4, 1,
               1), (5, 1, 5, 2, 4, 0, 1), (6, 1, 5, 2, 1, 3, 1), (6, 1, 5, 2, 2, 2, 1), (6, 1, 5, 2, 3,
               1, 1), (6, 1, 5, 2, 4, 0, 1), (7, 1, 6, 2, 3, 0, 1), (7, 1, 7, 2, 0, 2, 1), (7, 1, 7, 2,
               1, 1, 1), (3, 2, 3, 3, 1, 6, 1), (3, 2, 3, 3, 3, 4, 1), (4, 2, 3, 3, 2, 5, 1), (4, 2, 3,
               3, 3, 4, 1), (4, 2, 4, 3, 3, 3, 1), (4, 2, 4, 3, 4, 2, 1), (5, 1, 4, 2, 2, 4, 1), (5, 1,
               4, 2, 3, 3, 1), (5, 1, 4, 2, 4, 2, 1), (5, 1, 5, 2, 4, 1, 1), (5, 1, 5, 2, 5, 0, 1), (6,
               1, 5, 2, 2, 3, 1), (6, 1, 5, 2, 3, 2, 1), (6, 1, 5, 2, 4, 1, 1), (6, 1, 5, 2, 5, 0, 1),
               (7, 1, 6, 2, 3, 1, 1), (7, 1, 7, 2, 0, 3, 1), (7, 1, 7, 2, 3, 0, 1), (3, 2, 2, 3, 2, 7,
               1), (3, 2, 3, 3, 2, 6, 1), (3, 2, 3, 3, 3, 5, 1), (4, 2, 3, 3, 3, 5, 1), (4, 2, 4, 3, 3,
               4, 1), (4, 2, 4, 3, 4, 3, 1), (5, 1, 4, 2, 3, 4, 1), (5, 1, 4, 2, 4, 3, 1), (5, 1, 5, 2,
               4, 2, 1), (5, 1, 5, 2, 5, 1, 1), (6, 1, 5, 2, 3, 3, 1), (6, 1, 5, 2, 4, 2, 1), (6, 1, 5,
               2, 5, 1, 1), (6, 1, 6, 2, 1, 4, 1), (7, 1, 6, 2, 4, 1, 1), (7, 1, 6, 2, 5, 0, 1), (7, 1,
               7, 2, 1, 3, 1), (3, 2, 3, 3, 2, 7, 1), (3, 2, 3, 3, 3, 6, 1), (4, 2, 4, 3, 3, 5, 1), (4,
               2, 4, 3, 4, 4, 1), (5, 1, 4, 2, 3, 5, 1), (5, 1, 4, 2, 4, 4, 1), (5, 1, 5, 2, 4, 3, 1),
               (5, 1, 5, 2, 5, 2, 1), (6, 1, 5, 2, 4, 3, 1), (6, 1, 5, 2, 5, 2, 1), (6, 1, 6, 2, 2, 4,
               1), (6, 1, 6, 2, 5, 1, 1), (7, 1, 6, 2, 5, 1, 1), (7, 1, 6, 2, 6, 0, 1), (7, 1, 7, 2, 2,
               3, 1), (7, 1, 7, 2, 3, 2, 1), (4, 2, 4, 3, 3, 6, 1), (4, 2, 4, 3, 4, 5, 1), (5, 1, 5, 2,
               3, 5, 1), (5, 1, 5, 2, 4, 4, 1), (5, 1, 5, 2, 5, 3, 1), (6, 1, 5, 2, 4, 4, 1), (6, 1, 6,
               2, 4, 3, 1), (6, 1, 6, 2, 5, 2, 1), (6, 1, 6, 2, 6, 1, 1), (7, 1, 6, 2, 6, 1, 1), (7, 1,
               7, 2, 4, 2, 1), (7, 1, 7, 2, 6, 0, 1), (5, 1, 5, 2, 4, 5, 1), (5, 1, 5, 2, 5, 4, 1), (6,
               1, 5, 2, 5, 4, 1), (6, 1, 6, 2, 5, 3, 1), (6, 1, 6, 2, 6, 2, 1), (7, 1, 7, 2, 6, 1, 1),
               (5, 1, 5, 2, 5, 5, 1), (6, 1, 6, 2, 6, 3, 1), (7, 1, 7, 2, 5, 3, 1), (7, 1, 7, 2, 6, 2,
               1), (7, 1, 7, 2, 7, 1, 1), (6, 1, 6, 2, 6, 4, 1), (7, 1, 7, 2, 6, 3, 1), (7, 1, 7, 2, 7,
               2, 1), (7, 1, 7, 2, 7, 3, 3))


def _nest(k: int, x: int, m: int, y: int, w: int, e: int, z: int) -> tuple:
    others = [s for s in ddb.Config().suits if s not in NEST_ROW[:k]]
    return NEST_ROW[:k], x, (*((s, y) for s in NEST_ROW[:m]), *((s, 1) for s in NEST_ROW[:w]), *((s, z) for s in others[:e]))

NESTS = tuple(_nest(*shape) for shape in NEST_SHAPES)

# nest: exercise 2's (the row's suits, the number on each, the nest's ducks): NESTS, 171 (row, nest) pairs
# deck: 08.five_ducks's (colours, extra Bruces), the base deck's first 7 to 10 colours and 1 to 20 more Bruces than
# its six, but for the decks whose answer is a figure lesson 8 shows first (FIVE_DUCKS_SHOWN): 72 decks, not 4
NUMBERS = choices("08", {"deck": ((10, 2), *((s, e) for e in range(1, 21) for s in (10, 9, 8, 7)
                                             if (s, e) != (10, 2) and (s, e) not in FIVE_DUCKS_SHOWN)),
                         "nest": NESTS})


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


@exercise("08.five_ducks", "the exact bust chance as a Fraction", varied=True, sealed=True)
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
@exercise("08.nest_bust", "the exact bust chance as a Fraction", varied=True, sealed=True)
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
    ddb, row, left, _ = _ddb_nest_position()
    return ddb.bust_probability(row, left)


# Same shape as every exact checker (the answer read once, then this exercise's own named mistakes): written out on purpose.
@exercise("08.nest_gain", "flip minus stop, as an exact Fraction", varied=True, sealed=True)
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

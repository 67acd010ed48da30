"""Fresh numbers per student: each lesson's exercise numbers, and whose they are.

`student("name or id")` (or the environment variable MEEPLE_STUDENT) makes every varied
exercise's numbers this student's: each name in NUMBERS takes the choice a stable hash of
(normalised id, lesson, name) picks; without an id, the first choice (the lesson's own).
Checkers and the answer key read them through `exercise_numbers(lesson)`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any, Callable

from meeple.course.classroom import same_id
from meeple.rules import duck_duck_bruce as ddb

from .checking import WHOSE, Declared

# 14.luck_alone's (n games, at least k wins): the lesson's own (100, 60) first, then k from 59% to 70% of n
LUCK = ((100, 60), *((n, k) for n in (60, 70, 80, 90, 100, 110, 120, 150)
                     for k in range(round(0.59 * n), round(0.70 * n) + 1) if (n, k) != (100, 60)))

# 02.moments's practice dice: the lesson's five first, then every six-faced die of faces 1 to 6 with three or more
# different faces whose (mean, variance) is new (a classmate's die rarely shares the student's moments, issue 37), with
# neither its mean nor its variance a figure lesson 2 shows before asking: the piglets' die's and the steady die's
# (7/3, 11/9, 2/9) and 02.die's targets (3/2 to 9/2, 1)
def _practice_dice() -> tuple:
    dice = [(1, 1, 2, 2, 3, 3), (1, 2, 2, 2, 3, 3), (1, 1, 1, 2, 2, 4), (1, 1, 1, 2, 3, 4), (2, 2, 3, 3, 4, 6)]

    def moments(f):
        mean = Fraction(sum(f), len(f))
        return mean, Fraction(sum(x * x for x in f), len(f)) - mean * mean

    shown = {Fraction(7, 3), Fraction(11, 9), Fraction(2, 9), Fraction(3, 2), Fraction(5, 2), Fraction(7, 2),
             Fraction(9, 2), Fraction(1)}
    seen = {moments(f) for f in dice}
    for f in combinations_with_replacement(range(1, 7), 6):
        mean, variance = moments(f)
        if len(set(f)) >= 3 and (mean, variance) not in seen and not {mean, variance} & shown:
            seen.add((mean, variance))
            dice.append(f)
    return tuple(dice)


PRACTICE_DICE = _practice_dice()


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

# 21.model_seat's races whose first-seat chance lesson 21 shows before asking (to three digits, in its engine tables)
MODEL_RACE_SHOWN = frozenset({(5, 14), (5, 17), (5, 24), (5, 26), (5, 27), (5, 33), (5, 34), (5, 35), (5, 36), (5, 37),
                              (2, 17), (2, 18), (2, 24), (2, 25), (2, 26), (2, 27), (2, 28), (2, 29)})

# 08.five_ducks's decks (colours, extra Bruces) whose bust chance lesson 8 shows before asking (3/5, 2/3, 41/59, 23/29)
FIVE_DUCKS_SHOWN = frozenset({(10, 14), (9, 5), (9, 17), (9, 18), (8, 5), (8, 6), (8, 10), (7, 15)})

# lesson 7's decks (colours, Bruces) with an answer lesson 7 shows before asking
SEVEN_DECKS_SHOWN = frozenset({(9, 1), (9, 2), (9, 3), (9, 5), (9, 20), (8, 3), (8, 10), (10, 15)})

# 11.second_row's poke probabilities (see NUMBERS["11"])
SECOND_ROW_P = (Fraction(1, 2), *sorted({Fraction(a, b) for b in range(3, 19) if 20 % b for a in range(1, b)
                                        if Fraction(a, b).denominator == b}))

# 19.drought's (Bruce cards, run): a round's pile in a game whose deck holds the base 60 ducks and that many Bruce cards
# (ddb.Config(bruce_cards=...): lesson 19's "small bag" lever), and a stretch of at least `run` cards without a Bruce.
# The base six Bruces and 27 first, then 3 to 10 Bruces with every run whose chance lies between 5% and 95% in that
# pile but 9 Bruces and 19 (42.6%, a figure lesson 19 shows first): 158 questions, each its own chance (issue 37: 4
# runs, 26% of pairs)
DROUGHT_RUNS = {3: (22, 47), 4: (19, 42), 5: (17, 38), 6: (16, 35), 7: (15, 32), 8: (14, 30), 9: (13, 28), 10: (12, 27)}
DROUGHTS = ((6, 27), *((b, r) for b, (low, high) in DROUGHT_RUNS.items() for r in range(low, high + 1)
                       if (b, r) not in {(6, 27), (9, 19)}))

# 20.model_wait's lottery models (see NUMBERS["20"])
WAIT_MODELS = ((6, 4), *((p, lives) for p, most in ((3, 24), (4, 20), (5, 14), (6, 11)) for lives in range(2, most + 1)
                         if (p, lives) not in {(6, 4), (5, 10), (3, 11)}))

# 10.three_red's (hand, least): a Bucket Brigade deal of hands of 4 to 18 cards (four players up to 13, the base
# hand, three players beyond: lesson_10.three_red_rules) and at least `least` reds, every least whose chance lies
# between 1% and 99% (RED_LEAST: least from the first to the second). The base hand with 3 first; not its 4, which the
# lesson shows: 74 questions, each its own chance (issue 37: 3, 33% of pairs)
RED_LEAST = {4: (1, 3), 5: (1, 3), 6: (1, 4), 7: (1, 4), 8: (1, 4), 9: (1, 5), 10: (1, 5), 11: (1, 5), 12: (1, 5),
             13: (1, 6), 14: (1, 6), 15: (1, 6), 16: (1, 6), 17: (1, 7), 18: (2, 7)}
THREE_REDS = ((13, 3), *((h, k) for h, (low, high) in RED_LEAST.items() for k in range(low, high + 1)
                         if (h, k) not in {(13, 3), (13, 4)}))

# 10.led_five's (copies, hand, least): a Bucket King deck of 2 or 3 copies of each card dealing hands of 5 to 20 cards
# (bk.Config(copies=..., hand_size=...)), and a red lead's posterior chance of at least `least` reds, every least whose
# chance lies between 1% and 99% with 2 copies (LEAD_LEAST: least from the first to the second). The base game's deck
# and hand with 5 first; not its 4, which section 4 works out: 109 questions, each its own chance (issue 37: 2, 49%)
LEAD_LEAST = {5: (2, 4), 6: (3, 4), 7: (3, 5), 8: (3, 5), 9: (3, 5), 10: (3, 6), 11: (4, 6), 12: (4, 6), 13: (4, 7),
              14: (4, 7), 15: (5, 7), 16: (5, 8), 17: (5, 8), 18: (5, 8), 19: (5, 8), 20: (6, 9)}
LEADS = ((2, 10, 5), *((c, h, k) for c in (2, 3) for h, (low, high) in LEAD_LEAST.items() for k in range(low, high + 1)
                       if (c, h, k) not in {(2, 10, 5), (2, 10, 4)}))

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


# 04.track's targets after the lesson's 5: for each track of 14 to 94 spaces its mean time-trial turns to a tenth, but
# for 20 and 21 (the slider opens on the base 20, whose mean the lesson shows; 21's is nearest 4 turns), 28 (the
# target 5's) and 36, 43 and 85 (numbers lesson 4 shows before the exercise, as 12 and 13 are): one target a track
# (75), each nearer its own track's mean than any other's by more than 0.04 turns (tests/course/test_student_numbers.py)
TRACK_TURNS = (3.0, 3.1, 3.3, 3.4, 3.6, 3.7, 4.1, 4.3, 4.4, 4.6, 4.7, 4.8, 5.1, 5.3, 5.4, 5.6, 5.7, 5.8, 6.0, 6.3, 6.4,
               6.6, 6.7, 6.8, 7.0, 7.3, 7.4, 7.6, 7.7, 7.8, 8.0, 8.1, 8.3, 8.4, 8.6, 8.7, 8.8, 9.0, 9.1, 9.3, 9.4, 9.6,
               9.7, 9.8, 10.0, 10.1, 10.3, 10.4, 10.6, 10.7, 10.8, 11.0, 11.1, 11.3, 11.4, 11.6, 11.7, 11.8, 12.0, 12.1,
               12.3, 12.4, 12.6, 12.7, 12.8, 13.0, 13.3, 13.4, 13.6, 13.7, 13.8, 14.0, 14.1, 14.3, 14.4)


# 03.chase's and 06.boost's dice: the base die's faces first, then dice whose four white faces (rerolling always) and two
# black ones (rerolling if last) take other numbers, each with a chase of its own (a chase turn's mean depends on the
# faces alone, not their colours, so no two share their faces; at most one gap's mean or boost is another's)
CHASE_DICE = ((1, 2, 3, 4, 1, 3), (1, 1, 2, 3, 2, 3), (1, 1, 2, 4, 2, 3), (1, 1, 2, 5, 2, 3), (1, 1, 2, 5, 2, 4),
              (1, 1, 3, 5, 2, 3), (1, 1, 3, 5, 2, 4), (1, 2, 3, 4, 2, 3), (1, 2, 3, 5, 2, 3))

# 14.die_d's dice D: the lesson's five six-faced dice first (a six-faced D's chance against A = (2, 2, 4, 4, 9, 9) is a
# whole number of 72nds: too few answers for a class, issue 37), then dice of 8, 10 and 12 faces from 0 to 12, each
# with a face it shares with A (a tie) and its own chance against A, from 1/5 to 4/5, none 1/2 nor a figure lesson 14
# shows before asking (4/9 and 5/9 in its payoff table; 1/3, 19/36, 37/60, 5/8 and 3/4 to 2 or 3 digits): made by
# tests/course/test_student_numbers.py's generator (a face count in each band of A's faces, below 2, 2, 3, 4, 5 to 8,
# 9, above 9; per chance, the die with the most different faces): 75 dice
DIE_D_CHOICES = (
    (0, 3, 4, 4, 4, 4), (0, 3, 3, 4, 4, 4), (0, 3, 4, 4, 4, 8), (0, 4, 4, 4, 4, 9), (0, 0, 3, 4, 4, 4),
    (0, 1, 1, 2, 2, 2, 3, 3, 3, 4), (0, 1, 2, 2, 2, 3, 3, 4), (0, 1, 1, 2, 2, 2, 3, 3, 4, 4),
    (0, 1, 1, 2, 2, 3, 4, 5), (0, 1, 1, 2, 2, 2, 3, 3, 4, 5), (0, 1, 2, 2, 2, 3, 4, 5),
    (0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5), (0, 1, 1, 2, 2, 2, 3, 4, 5, 6), (0, 1, 2, 2, 3, 3, 4, 5),
    (0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5, 6), (0, 1, 1, 2, 2, 3, 3, 4, 5, 6), (0, 1, 1, 2, 3, 4, 5, 6),
    (0, 1, 2, 2, 2, 3, 3, 4, 5, 6), (0, 1, 2, 2, 3, 4, 5, 6), (0, 1, 1, 2, 2, 3, 4, 5, 6, 7),
    (0, 1, 1, 2, 2, 3, 3, 3, 4, 5, 6, 7), (0, 1, 1, 2, 2, 2, 3, 4, 5, 6, 7, 9), (0, 1, 2, 2, 3, 3, 4, 5, 6, 7),
    (0, 1, 2, 3, 4, 4, 5, 6), (0, 1, 2, 3, 3, 3, 4, 5, 6, 7), (0, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 9),
    (0, 1, 1, 2, 3, 4, 5, 6, 7, 9), (0, 1, 2, 3, 4, 5, 6, 9), (0, 1, 2, 2, 3, 4, 5, 6, 7, 9),
    (0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 9), (0, 1, 2, 2, 2, 3, 4, 5, 6, 7, 9, 10), (0, 1, 2, 3, 4, 4, 5, 6, 7, 9),
    (0, 1, 2, 4, 5, 6, 7, 9), (0, 1, 2, 3, 4, 4, 5, 6, 7, 10), (0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 9, 10),
    (0, 1, 2, 3, 4, 5, 6, 7, 9, 9), (1, 2, 3, 4, 5, 6, 7, 9), (0, 1, 2, 3, 4, 5, 6, 7, 9, 10),
    (0, 1, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11), (0, 1, 2, 3, 3, 4, 5, 6, 7, 9, 10, 11), (0, 1, 2, 3, 4, 5, 6, 9, 10, 11),
    (1, 2, 3, 4, 5, 6, 9, 10), (0, 1, 2, 3, 5, 6, 7, 9, 10, 11), (0, 1, 2, 3, 4, 4, 5, 6, 7, 10, 11, 12),
    (0, 1, 2, 4, 5, 6, 7, 9, 10, 11), (1, 2, 4, 5, 6, 7, 9, 10), (0, 1, 3, 4, 5, 6, 7, 9, 10, 11),
    (0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12), (1, 2, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12),
    (1, 2, 3, 3, 4, 5, 6, 7, 9, 10, 11, 12), (1, 2, 3, 4, 5, 6, 7, 10, 11, 12), (2, 3, 4, 5, 6, 7, 9, 10),
    (1, 2, 3, 4, 4, 5, 6, 7, 9, 10, 11, 12), (1, 2, 3, 5, 6, 7, 9, 10, 11, 12),
    (1, 2, 3, 4, 5, 6, 7, 9, 9, 10, 11, 12), (2, 3, 4, 5, 6, 9, 10, 11), (1, 2, 4, 5, 6, 7, 9, 10, 11, 12),
    (2, 3, 4, 4, 4, 5, 6, 7, 9, 10, 11, 12), (1, 3, 4, 5, 6, 7, 9, 10, 11, 12),
    (2, 3, 4, 4, 5, 6, 7, 9, 9, 10, 11, 12), (2, 3, 4, 5, 6, 7, 9, 10, 11, 12), (2, 4, 5, 6, 7, 9, 10, 11),
    (1, 3, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (3, 3, 4, 5, 6, 7, 9, 10, 11, 12),
    (2, 3, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (3, 4, 4, 5, 6, 7, 9, 10, 11, 12),
    (3, 3, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (3, 4, 5, 6, 7, 10, 11, 12), (2, 4, 5, 6, 7, 9, 9, 10, 11, 12),
    (3, 4, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (4, 4, 5, 6, 7, 9, 9, 10, 11, 12), (3, 5, 6, 7, 9, 10, 11, 12),
    (3, 5, 6, 7, 9, 9, 9, 10, 11, 12), (4, 5, 6, 7, 9, 10, 11, 12), (4, 5, 6, 7, 9, 9, 9, 10, 11, 12))

# 18.value's guarded steals (lead, steal die): the lesson's lead -2 with the base die first, then the thief 2 to 4
# cards behind (further than section 1's game) with the base die, lesson 9's duel dice (DUEL_DICE) or 25 of its
# variance dice, but 3 behind with (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3), whose 21/65 to three digits is a figure lesson 18
# shows first, and GUARDED_SHOWN (18.mix): 114 games, 112 values, each game with a mixed equilibrium
GUARDED_DICE = ((-1, 1, 2, 2, 3, 3, 3, 3), (-1, -1, 1, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 2, 2, 2, 3, 3), (-1, 1, 2, 3, 3, 3, 3, 3, 3),
                (-1, -1, 1, 1, 1, 2, 2, 3, 3), (-1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3),
                (-1, -1, -1, 1, 1, 2, 3, 3, 3, 3), (-1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3), (-1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3),
                (-1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3), (-1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3),
                (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3), (-1, -1, 1, 1, 2, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3), (-1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3), (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3),
                (-1, -1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3), (-1, -1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3), (-1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3),
                (-1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3), (-1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3))
BASE_STEAL_DIE = (-1, 1, 1, 2, 3, 3)  # ddb.Config().die

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

# 18.mix's answer for these games holds a chance lesson 18 shows before asking (1/2, 1/3 or 11/31 in its matrices)
GUARDED_SHOWN = frozenset({(-2, (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3)), (-3, (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, 0, 1, 1, 2, 2, 2, 3, 3, 3)), (-3, (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3)),
                           (-4, (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3)), (-3, (-1, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-4, (-1, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-3, (-1, -1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, -1, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3)),
                           (-3, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-4, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)),
                           (-3, (-1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3)),
                           (-4, (-1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3)),
                           (-3, (-1, -1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3)),
                           (-4, (-1, -1, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3)),
                           (-3, (-1, -1, 1, 1, 1, 2, 2, 3, 3)), (-4, (-1, -1, 1, 1, 1, 2, 2, 3, 3)),
                           (-3, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3)),
                           (-4, (-1, -1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3))})
GUARDED_STEALS = ((-2, BASE_STEAL_DIE), *((lead, die) for die in (BASE_STEAL_DIE, *DUEL_DICE, *GUARDED_DICE)
                                           for lead in (-2, -3, -4)
                                           if (lead, die) not in {(-2, BASE_STEAL_DIE), (-3, (-1, 1, 1, 2, 3, 3, 3, 3, 3, 3))}
                                           and (lead, die) not in GUARDED_SHOWN))

# lesson 13's positions: {hand dealt: game seeds}. Four heuristic bots, dealt hands of that many cards (BB-2's
# base 13 or fewer: the rest set aside, unseen), play that seed's game to its first timing position (the lesson's
# `timing_position`). Each game here reaches one there, with 0 < q1 < q <= 99/100 (someone else may end the round
# first, and q does not round to certainty), B != E (so b* lies strictly between the two ends the lesson shows),
# every other hand at least 3 cards (exercise 2 asks what two fewer in each would do), and a q and a b* of its own:
# a classmate's answer is another's in under 1% of pairs (issue 37; the base hand alone gives 15 values of q over
# 190 games: its unseen and held cards move together, the set-aside ones do not). Made by scanning seeds 6-699 and,
# for each, hands 13 down to 6 (the lesson's own game, hand 13 seed 8, first) and keeping each game that meets all
# of it with a q and a b* no earlier one has; tests/course/test_student_numbers.py checks every entry.
TIMING_GAMES = {13: (8, 14, 23, 48, 55, 71, 168, 233, 330, 370, 587, 680, 689),
                11: (6, 7, 8, 13, 17, 29, 46, 56, 59, 68, 84, 85, 91, 109, 137, 144, 149, 150, 156, 170, 171, 182,
                     192, 208, 209, 218, 288, 298, 306, 319, 332, 358, 377, 482, 495, 504, 512, 519, 594),
                10: (10, 15, 17, 33, 34, 48, 54, 58, 83, 91, 156, 180, 185, 210, 214, 234, 317, 323, 325, 330, 349,
                     356, 413, 417, 428, 450, 596, 612, 693),
                12: (16, 17, 18, 41, 47, 55, 61, 66, 86, 97, 104, 117, 120, 196, 205, 214, 220, 237, 287, 302, 347,
                     487, 550, 699),
                9: (34, 113, 121, 169, 238, 354, 393, 453, 493, 538, 565, 588),
                8: (70,),
                7: (172,)}
TIMING_POSITIONS = tuple((hand, seed) for hand, seeds in TIMING_GAMES.items() for seed in seeds)

# Each lesson's varied numbers: {lesson: {name: (default, other choices...)}}, drawn from the
# rules' own parameters. Without a student id every lesson uses the defaults (its printed
# numbers); with one, each name takes the choice a stable hash of (id, lesson, name) picks.
NUMBERS: dict[str, dict[str, tuple]] = {
    # lessons 1-6 (the sampled 01.ender asks its own bonus, 03.seat its players, 06.catchup its players and limit)
    "01": {"won_of": ((7, 10), (6, 10), (8, 10), (7, 12), (9, 12), (8, 11)), "bonus": (6, 5, 7, 8)},
    "02": {"practice_die": PRACTICE_DICE,
           "target": ((Fraction(5, 2), 1), (Fraction(7, 2), 1), (Fraction(9, 2), 1), (Fraction(3, 2), 1))},
    # gap not 4: the lesson's reroll toggles show the chase four spaces behind. seat: 03.seat's (players, seat
    # asked about, 1 = Player 1): on the lesson's 2000 games (seed 1) four are favoured, four "cannot tell" and
    # four "no" (tests/course/test_student_numbers.py), so the verdict is the student's own (issue 37)
    # die: 03.chase's die (CHASE_DICE), gap 1 to 15 but 4 and 10 (the toggles show the chase four spaces behind, section
    # 3 ten): 117 chases (issue 37: 5, 23% of pairs)
    "03": {"gap": (5, 1, 2, 3, 6, 7, 8, 9, 11, 12, 13, 14, 15), "die": CHASE_DICE,
           "seat": ((4, 1), (3, 1), (5, 1), (6, 2), (3, 2), (4, 2), (5, 3), (6, 4), (3, 3), (4, 4), (5, 5), (6, 6))},
    # slow_spaces: 04.slow's track, the base 20 spaces or 12 to 30 (the slider's range): with more_than 2 to 6, 95
    # (track, turns) pairs, each its own chance
    # turns: 04.track's target (TRACK_TURNS), the lesson's 5 first (issue 37: 3 targets, 33% of pairs)
    "04": {"turns": (5, *TRACK_TURNS), "more_than": (3, 2, 4, 5, 6), "slow_spaces": (20, *range(12, 20), *range(21, 31))},
    "05": {"edge": (0.03, 0.05, 0.07), "half": (0.02, 0.015, 0.025, 0.01)},  # answers apart by more than 05.games's 2%
    # catchup: (players, low, high): the half-time leader's whole interval between low and high per cent. The
    # base rule fails each, and so does the lesson's strong catch-up (only the last rerolls): some targets want
    # more catch-up than the base rule, some less; each is met by a rule of lesson_06.CATCHUP_RULES
    # (tests/course/test_student_numbers.py; issue 37: the lesson's own example passed for everyone)
    # gap and die: 06.boost's chase, 1 to 15 spaces behind with a die of CHASE_DICE (135 chases; issue 37: 5)
    "06": {"gap": (4, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), "die": CHASE_DICE,
           "catchup": ((4, 15, 25), (3, 35, 45), (4, 35, 45), (5, 19, 29), (5, 28, 38), (6, 25, 35), (6, 10, 18))},
    # deck: lesson 7's exercise deck (colours, Bruces), the base deck's ten and six first, then its first 6 to 10
    # colours with 1 to 22 Bruces, at most half as many as its ducks (07.third and 07.no_double depend on the deck
    # alone: issue 37), but for the decks where some answer of 07.third, 07.no_double or 07.bruces (at any handful)
    # is a figure the lesson shows first (SEVEN_DECKS_SHOWN). seen: 07.third's ducks of different suits flipped before
    # the flip asked about (2 to 4: with the deck 297 questions, 145 chances). cards: 07.bruces's handful, 6 to 15
    "07": {"deck": ((10, 6), *((s, b) for s in (10, 9, 8, 7, 6) for b in range(1, 23)
                               if b <= 3 * s and (s, b) != (10, 6) and (s, b) not in SEVEN_DECKS_SHOWN)),
           "cards": (10, 8, 9, 11, 12, 7, 13, 14, 6, 15), "seen": (2, 3, 4)},
    # nest: exercise 2's (the row's suits, the number on each, the nest's ducks): NESTS, 171 (row, nest) pairs
    # deck: 08.five_ducks's (colours, extra Bruces), the base deck's first 7 to 10 colours and 1 to 20 more Bruces than
    # its six, but for the decks whose answer is a figure lesson 8 shows first (FIVE_DUCKS_SHOWN): 72 decks, not 4
    "08": {"deck": ((10, 2), *((s, e) for e in range(1, 21) for s in (10, 9, 8, 7)
                               if (s, e) != (10, 2) and (s, e) not in FIVE_DUCKS_SHOWN)),
           "nest": NESTS},
    # exercise 2 (09.trailer, 09.leader): trail, lead and duel_die, the die of both steals (DUEL_DICE and
    # TRAILER_DICE: 7 to 20 faces, one or two -1s; the lesson's STEAL_DIE first). Each die keeps the lesson's rule for the trailer at every trail
    # (the smallest claim that can overtake is best), gives no answer the lesson's table of win chances shows
    # (its six-sided die's twelfths: hence no 6- or 12-faced die) nor, for the second student of
    # tests/lessons/test_lessons_run.py, one of its sampled figures, and spreads the answers (issue 37: the leader's answer,
    # 0, was the whole class's; now the opponent steals after the leader, so the leader's best is a claim)
    "09": {"trail": (4, 3, 5, 2, 1, 6), "lead": (2, 1, 3, 4, 5, 6),
           "duel_die": (*(d for d in DUEL_DICE if d != (-1, -1, 0, 1, 1, 1, 2, 2, 3, 3)), *TRAILER_DICE),
           # variance_die: 09.claim3_variance's die, each with a claim-3 variance of its own (VARIANCE_DICE)
           "variance_die": VARIANCE_DICE},
    # reds: 10.three_red's and 10.three_red_sampled's (hand, least), THREE_REDS. led: 10.led_five's (copies, hand, least), LEADS
    "10": {"reds": THREE_REDS, "led": LEADS},
    # none_players: 11.none_colour's table (BK-3: 2-4 players build 5-4-3-2-1 with three of each colour, 5-6
    # players 4-3-2-1 with two). Its answer is a rule (put them at the top), so a classmate's placement for a
    # pyramid of the same shape passes too; one for the other shape does not
    # p: 11.second_row's poke probability, the lesson's 1/2 first, then every a/b strictly between 0 and 1 with b from 3 to
    # 18 but those over 2, 4, 5, 10 or 20 (lesson 11's curves show p = k/20): 91 values, each its own expected loss, so a
    # classmate's answer is rarely the student's (issue 37: five values, 21% of pairs)
    "11": {"p": SECOND_ROW_P, "none_players": (4, 5, 3, 6)},
    # loss not 4: the lesson works that one out; ender_target (per cent of ended rounds the ender wins):
    # each has one clear nearest bonus on the key's seeds (4, 5, 2, 1, 11)
    "12": {"loss": (5, 3, 6, 7), "ender_target": (50, 60, 35, 30, 90)},
    # lesson 13's position: (hand dealt, game seed), TIMING_POSITIONS (the lesson's own game first)
    "13": {"position": TIMING_POSITIONS},
    # luck: 14.luck_alone's (games n, wins k), from 59% to 70% of n games (LUCK): not (100, 58), whose chance
    # rounds to a figure the lesson shows; about 90 pairs, so a classmate's chance is rarely the student's (issue 37).
    # die_d: exercise 2's die D (DIE_D_CHOICES), each with a face it shares with A (a tie, half a win) and its own chance
    # against A, none a figure the lesson shows before.
    # cycle_bruces and cycle_seed: the Bruces in the deck of section 3's round-robin and its seed (and so 14.cycle's
    # evidence), from the base six and the lesson's seed 1; each deck and seed decides some pairings and leaves
    # others open, so the decided pairings 14.cycle asks for are the student's own (issue 37: its answer, [],
    # was the whole class's)
    "14": {"luck": LUCK,
           "die_d": DIE_D_CHOICES,
           "cycle_bruces": (6, 4, 5, 7, 8, 10, 3, 9, 12), "cycle_seed": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)},
    # lessons 15-18 (numbers.PARAMS reads these; none is a number the lesson shows before asking:
    # chance version 2 moved lesson 15's coverage to 0.965, prior (2, 8)'s 15.above_fair, so (2, 9); and lesson
    # 17's engine races to 27.4%, 7 players' 17.first_by, so 2)
    # record: 15's (wins, games), the lesson's five first, then 16 to 48 games won 25% to 45% of the time, chosen so that
    # with the five priors 112 of 150 posterior means differ (15.posterior_mean is (a + wins) / (a + b + games): issue 37)
    # and none of the new ones gives, with any prior and fair share, a posterior mean or 15.above_fair chance lesson 15
    # shows before asking (as a Fraction or to three digits)
    "15": {"prior": ((2, 6), (3, 9), (2, 9), (4, 12), (3, 7)),
           "record": ((9, 24), (7, 20), (11, 30), (8, 28), (12, 32), (5, 16), (8, 29), (13, 29), (10, 35), (11, 35),
                      (16, 36), (10, 39), (17, 39), (7, 21), (7, 26), (11, 40), (14, 45), (13, 47), (19, 47), (19, 48),
                      (15, 37), (8, 31), (11, 33), (10, 38), (16, 38), (13, 40), (12, 42), (15, 46), (10, 25), (9, 31)),
           "fair": (Fraction(1, 4), Fraction(1, 5), Fraction(1, 3))},
    # 16: 4 x 15 (turns, at most) pairs, each its own chance, and 2 to 30 turns for the variance (issue 37) but 16 to
    # 18 (with some caps a figure the lesson shows: 20, 17.7, 15.5); max_rerolls: 16.variance's cap on the published
    # die's rerolls a turn (None: the preset's, no cap), each cap its own turn variance: 104 variances, not 26
    "16": {"turns": (2, 3, 4, 5), "at_most": (10, 8, 9, 11, 12, 6, 7, 13, 14, 15, 16, 17, 18, 19, 20),
           "variance_turns": (3, 2, *range(4, 16), *range(19, 31)), "max_rerolls": (None, 2, 1, 3)},
    # race_players: 17.rounds's race (not 4: section 2 plays that very race, always-reroll, no extensions); at
    # every count the engine's races are clearly shorter than the model's (tests/test_student_numbers.py)
    # first_spaces: 17.first_by's track, the base 20 spaces or 15 to 29 (lesson 4's slider) but 23 (with some players and
    # rounds a figure the lesson shows first; so are 12 to 14 and 30): with players and rounds, 168 races (issue 37)
    "17": {"players": (5, 3, 6, 2), "rounds": (2, 1, 3), "race_players": (5, 3, 6, 2),
           "first_spaces": (20, *range(15, 20), 21, 22, *range(24, 30))},
    # steal: 18.value's and 18.mix's (lead, steal die), GUARDED_STEALS (issue 37: three leads, 32% of pairs)
    "18": {"steal": GUARDED_STEALS},
    # lessons 19-21 (numbers.lesson_numbers reads these). The sampled exercises' answer key
    # plays the solution's own games once per choice (cached), so a class costs the choices, not the students.
    # flipped and bruces_seen: 19.due's (cards flipped, Bruces among them), 8 to 34 cards and 1 to 4 Bruces: 84 pairs,
    # none a chance the lesson shows first (its chart's B/(N - k) for k = 0, 4, ..., 36, 1/5, 1/11, and its rolls' 1/6
    # and 15.4%), hence no 11, 21, 22, 30, 31, 33 cards. claims: 19.cold_streak's, 8 to 22 claims a game but 13 (whose
    # 5 failures of claim 2 come to 15.4%), with claim and streak 84 questions. Issue 37
    "19": {"flipped": (24, 20, 28, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 23, 25, 26, 27, 29, 32, 34),
           "bruces_seen": (2, 1, 3, 4), "drought": DROUGHTS,
           "claims": (12, 10, 15, 8, 9, 11, 14, 16, 17, 18, 19, 20, 21, 22), "claim": (3, 2), "streak": (6, 5, 7)},
    # wait_game: 20.wait's game, (players, bots, the Special One variant, BK-17); not (5, heuristic, base): section 2
    # plays it, nor (6, random, base): section 3's rulebook row measures that wait. In every one the engine's
    # first player out waits clearly less than the lottery model says (tests/test_student_numbers.py)
    # model: 20.model_wait's lottery model (players, lives each), 6 and 4 first, then 3 players of 2 to 24 lives, 4 of 2
    # to 20, 5 of 2 to 14 and 6 of 2 to 11 (the longer chains take seconds to follow), but 5 of 10, which section 1
    # works out, and 3 of 11, whose wait reads 5.00 (a figure of the lesson's text): 63 models, each its own wait
    # (issue 37: 9, 11% of pairs)
    "20": {"model": WAIT_MODELS, "end_rule": ("rulebook",), "min_games": (150,),
           "wait_game": ((6, "heuristic", False), (6, "heuristic", True), (5, "random", False), (5, "random", True),
                         (6, "random", True), (5, "heuristic", True))},
    # players and bots: 21.tuned's search (not 4 players: section 4 tunes that game); at every player count the
    # model's first-seat edge shrinks as the first section grows (tests/test_student_numbers.py), and the key's
    # search is the solution's own (seed 5). model_players not 6 (nor 4, 7): the 6-player model's first seat, 0.261,
    # is a figure the lesson shows (chance version 2's engine runs). model_race: 21.model_seat's (seats, track spaces),
    # the lesson's three on the base 20 spaces first, then 5, 3 or 2 seats on 12 to 40 spaces, each its own chance
    # (issue 37), but for those whose chance is a figure lesson 21 shows before asking (MODEL_RACE_SHOWN)
    "21": {"model_race": ((5, 20), (3, 20), (2, 20), *((p, s) for s in (*range(12, 20), *range(21, 41)) for p in (5, 3, 2)
                                                        if (p, s) not in MODEL_RACE_SHOWN)),
           "players": (5, 3, 6), "bots": ("heuristic", "always-reroll"),
           "tune_field": ("sections[0]",), "tune_values": ((2, 9),), "tune_games": (400,)},
    # lessons 22-25 (numbers.lesson_numbers reads these; none is a number the lesson shows first).
    # record: 22.expected_loss's games ((A's wins, games), (B's wins, games)); rule: 22.power's (games a variant,
    # threshold, A's true rate, B's true rate): each its own answer (tests/test_exercises_22_25.py)
    "22": {"record": (((30, 120), (41, 120)), ((22, 90), (31, 100)), ((45, 150), (52, 140)), ((12, 60), (20, 64)),
                      ((50, 200), (63, 190))),
           "rule": ((12, Fraction(9, 10), Fraction(1, 4), Fraction(1, 2)), (10, Fraction(19, 20), Fraction(1, 5), Fraction(1, 2)),
                    (15, Fraction(4, 5), Fraction(1, 3), Fraction(1, 2)), (8, Fraction(9, 10), Fraction(1, 4), Fraction(3, 5)),
                    (14, Fraction(19, 20), Fraction(1, 4), Fraction(1, 2)))},
    # weight: 23.mean_variance's penalty on the haul's variance; need: 23.two_turns's ducks over two turns
    # (neither is a number the lesson works: it weighs utilities 1 - (1 - r)^x and one turn's needs)
    "23": {"weight": (Fraction(1, 4), Fraction(1, 8), Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)),
           "need": (5, 6, 7, 4, 8)},
    # face: 24.second_pip's face of the base die (0-based; the lesson prices the first pip of every face);
    # option: 24.fair_price's option of lesson_24.DIE_OPTIONS, priced by a curve fitted to the others
    "24": {"face": (2, 0, 1, 3, 4, 5), "option": (3, 0, 1, 2, 4, 5)},
    # strengths and best_of: 25.match's two Bradley-Terry strengths and match length; pairs: 25.implied's
    # P(A beats B) and P(B beats C) (the lesson fits ratings and shows one game's chance, never these)
    "25": {"strengths": ((3, 2), (5, 3), (4, 1), (7, 5), (2, 1)), "best_of": (3, 5),
           "pairs": ((Fraction(2, 3), Fraction(3, 5)), (Fraction(3, 4), Fraction(2, 3)), (Fraction(3, 5), Fraction(5, 8)),
                     (Fraction(5, 8), Fraction(2, 3)), (Fraction(7, 10), Fraction(3, 5)))},
}
# the exercises whose numbers are the student's (the rest use the lessons' own numbers for everyone),
# as each says in its `exercise(..., varied=True)` decorator: a view of the registry, filled as the lessons register
VARIED = Declared("varied")
_student: "str | None" = None


def normalise(name_or_id) -> str:
    """A student id as the hash reads it: case, accents' case and runs of spaces do not matter, nor
    the dashes of a class code (`meeple class new`)."""
    if not isinstance(name_or_id, str) or not name_or_id.strip():
        raise ValueError(f"a student id is a non-empty name or number as text, got {name_or_id!r}")
    return same_id(name_or_id)  # a class code however it was typed (meeple.course.classroom)


def student(name_or_id: "str | None") -> "str | None":
    """Use this student's numbers in every exercise from now on (None: the lesson's own numbers).
    The environment variable MEEPLE_STUDENT sets the same for a whole class's machines.
    Returns the normalised id."""
    global _student
    _student = None if name_or_id is None else normalise(name_or_id)
    return _student


def current_student() -> "str | None":
    """The id in use: `student(...)`'s, else MEEPLE_STUDENT's, else None."""
    if _student is not None:
        return _student
    env = os.environ.get("MEEPLE_STUDENT", "").strip()
    return normalise(env) if env else None


@contextmanager
def as_student(who: "str | None"):
    """Within the block, the current student is `who` (None: the lessons' own numbers), whatever
    `student(...)` or MEEPLE_STUDENT say; both are as they were afterwards."""
    global _student
    saved, env = _student, os.environ.pop("MEEPLE_STUDENT", None)
    try:
        _student = None if who is None else normalise(who)
        yield _student
    finally:
        _student = saved
        if env is not None:
            os.environ["MEEPLE_STUDENT"] = env


def exercise_numbers(lesson: str, who: "str | None" = ...) -> dict:
    """The numbers lesson `lesson` ("07") asks this student about: {name: value}. `who` (an id)
    overrides the current student; None gives the defaults."""
    if lesson not in NUMBERS:
        return {}
    sid = current_student() if who is ... else (None if who is None else normalise(who))
    out = {}
    for name, choices in NUMBERS[lesson].items():
        if sid is None:
            out[name] = choices[0]
        else:
            h = hashlib.sha256(f"{sid}\0{lesson}\0{name}".encode()).digest()
            out[name] = choices[int.from_bytes(h[:8], "big") % len(choices)]
    return out


class LiveNumbers(Mapping):
    """A lesson's numbers as its cells read them: every look-up asks `read()` again, so it gives
    the student in use at that moment (issue 34). A lesson reads its numbers once, at the top,
    and `student("name")` may still come at any point after (first cell, just before an
    exercise, twice): each prompt, solution and hint then shows the numbers the checker reads."""

    def __init__(self, read: Callable[[], dict]):
        self._read = read

    def __getitem__(self, name: str) -> Any:
        return self._read()[name]

    def __iter__(self):
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return repr(self._read())


def _numbers_of(key: str) -> dict:
    return exercise_numbers(key.split(".", 1)[0])


WHOSE.append(current_student)  # a notebook's check() output says whose numbers its answer was worked with


# --- the numbers as a lesson's cells read them (lessons 15-25) -------------------------------------

# What every student is asked the same (17.rounds's race is the student's player count, numbers.NUMBERS).
FIXED = {"15": {}, "16": {"preset": "published-die"}, "17": {"games": 300, "bots": "always-reroll"}, "18": {}}


class _Params(Mapping):
    """PARAMS["15"] ...: each lesson's exercise numbers for the current student (the course's
    `exercise_numbers`, choices in `exercises.NUMBERS`; without a student id, the defaults)."""

    def __getitem__(self, lesson: str) -> dict:
        numbers = dict(FIXED[lesson])
        numbers.update(exercise_numbers(lesson))
        if "record" in numbers:
            numbers["wins"], numbers["games"] = numbers.pop("record")
        if "steal" in numbers:
            numbers["lead"], numbers["die"] = numbers.pop("steal")
        return numbers

    def __iter__(self):
        return iter(FIXED)

    def __len__(self) -> int:
        return len(FIXED)


PARAMS = _Params()


def live_params(lesson: str) -> LiveNumbers:
    """`PARAMS[lesson]` as the lesson's cells read it: for the student in use at each look-up."""
    return LiveNumbers(lambda: PARAMS[lesson])


def lesson_numbers(lesson: int) -> dict:
    """{name: value} for lesson 19 to 25's exercises, for the current student (see
    `meeple.course.exercises.student`; the choices are in `numbers.NUMBERS`). Lesson 20's
    `wait_game` is also given as `players`, `bots` and `special_one` and its `model` as `model_players`
    and `model_lives`, lesson 21's `model_race` as `model_players` and `model_spaces`, lesson 19's
    `drought` as `drought_bruces` and `drought_run`."""
    numbers = exercise_numbers(f"{lesson:02d}")
    if "drought" in numbers:
        numbers["drought_bruces"], numbers["drought_run"] = numbers["drought"]
    if "model" in numbers:
        numbers["model_players"], numbers["model_lives"] = numbers["model"]
    if "model_race" in numbers:
        numbers["model_players"], numbers["model_spaces"] = numbers["model_race"]
    if "wait_game" in numbers:
        numbers["players"], numbers["bots"], numbers["special_one"] = numbers["wait_game"]
    return numbers


def live_numbers(lesson: int) -> LiveNumbers:
    """`lesson_numbers(lesson)` as the lesson's cells read it: for the student in use at each look-up."""
    return LiveNumbers(lambda: lesson_numbers(lesson))

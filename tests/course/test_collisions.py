"""Issue 37's bar for per-student numbers: a classmate's answer passes in at most 2% of pairs.

Measured as tests/bench/collisions.py measures it (ordered pairs of 60 class codes whose exact
answers are equal), with the exercises' own answer functions and a fixed class key, so the test is
seeded and runs in seconds (no games: the exercises below are exact).

Held to 2% here, the exercises widened so far (the numbers the rounds added to 02-04, 06-11, 14-21 were
checked, every combination, against the figures their lesson shows before asking, as
tests/lessons/test_lessons_run.py reads them):
- 02.moments: 176 practice dice, each its own mean and variance;
- 03.chase and 06.boost: a chase 1 to 15 spaces behind (03: but 4 and 10) with one of 9 dice (CHASE_DICE: the
  base die's colours, other faces; a chase's mean depends on its faces alone): 117 and 135 chases;
- 04.track: a target of 5 turns or, for each track of 14 to 94 spaces but 20, 21, 28 and those lesson 4 shows
  (36, 43, 85), its mean time-trial turns to a tenth (lesson_04.TRACK_TURNS: 76 targets, each its own track; the
  checker takes 1 to 100 spaces);
- 04.slow: more than 2 to 6 turns on a track of 12 to 30 spaces (95 pairs);
- 07.third, 07.no_double and 07.bruces: 97 decks of 6 to 10 colours and 1 to 22 Bruces; 07.third asks
  after 2 to 4 ducks (291 questions), 07.bruces about handfuls of 6 to 15 cards;
- 08.five_ducks: 72 decks of 7 to 10 colours and 1 to 20 extra Bruces;
- 08.nest_bust and 08.nest_gain: 171 rows of 3 to 7 ducks and nests (lesson_08.NESTS), each where the empty nest
  says stop and the nest says flip, each its own bust chance (unseen cards less the row and the nest: the row's
  size, the nest's and its ducks of the row's suits) and its own gain;
- 09.claim3_variance: 111 steal dice of 8 to 14 faces, each its own claim-3 variance;
- 09.leader and 09.trailer: a steal before the opponent's last one, or the last one, with one of 51 dice of 7 to 20
  faces (lesson_09.DUEL_DICE and TRAILER_DICE), leads and trails 1 to 6 (97 trailer chances);
- 10.three_red: a Bucket Brigade hand of 4 to 18 cards and a least number of reds whose chance lies between 1% and
  99% (74 questions);
- 10.led_five: a Bucket King deck of 2 or 3 copies dealing hands of 5 to 20 cards, and a least number of reds
  whose posterior chance lies between 1% and 99% (109 questions);
- 11.second_row: 91 poke probabilities a/b (b from 3 to 18, none k/20 as lesson 11's curves draw);
- 13.next_can_end and 13.balance_bonus: 144 positions (lesson_13.TIMING_POSITIONS: a game seed and a hand of 6 to
  13 cards, the cards not dealt set aside), each its own q and its own b*;
- 14.die_d: 75 dice D, the lesson's five six-faced ones and dice of 8, 10 and 12 faces, each its own chance against A
  (a six-faced D's is a whole number of 72nds: too few values for a class);
- 14.luck_alone: about 90 pairs of games and wins;
- 15.posterior_mean: five priors and 30 records (112 posterior means); 15.above_fair (already there);
- 16.at_most: 60 pairs of turns and spaces (1/60 of pairs expected, 1.8% on this key's codes);
- 16.variance: 2 to 30 turns (not 16 to 18) of the published die capped at none, 1, 2 or 3 rerolls a
  turn (104);
- 17.first_by: 2, 3, 5 or 6 piglets within 1 to 3 rounds on a track of 15 to 29 spaces (168 races);
- 18.value: 114 guarded steals, the thief 2 to 4 cards behind with one of 45 steal dice (112 values);
- 19.due: 1 to 4 Bruces among 8 to 34 cards flipped (84 pairs); 19.cold_streak: 8 to 22 claims (84);
- 19.drought: a deck of 3 to 10 Bruce cards and a stretch whose chance lies between 5% and 95% (158 questions);
- 20.model_wait: the lottery model with 3 to 6 players of 2 to 24 lives (63 models);
- 21.model_seat: 69 races of 2, 3 or 5 seats on a track of 12 to 40 spaces.

Every exact exercise is now held to it (tests/bench/collisions.py prints every exercise's figure).
"""

from __future__ import annotations

from collections import Counter

import pytest

from meeple.course import exercises as ex
from meeple.course.classroom import code_of
from meeple.course.exercises import graded

CODES = [code_of(bytes(32), f"student {i}") for i in range(60)]
WIDENED = graded.SEALED  # every exact exercise (the list above says how each was widened)


def _share(key: str) -> float:
    """The share of ordered pairs of CODES whose answers to `key` are equal."""
    counts = Counter(graded.canonical(ex.answer(key, code)) for code in CODES)
    return sum(n * (n - 1) for n in counts.values()) / (len(CODES) * (len(CODES) - 1))


@pytest.mark.parametrize("key", WIDENED)
def test_a_classmates_answer_passes_in_at_most_two_percent_of_pairs(key):
    assert key in graded.SEALED  # an exact answer: it passes exactly when it is equal
    share = _share(key)
    assert share <= 0.02, f"{key}: a classmate's answer passes in {share:.1%} of pairs"


def test_the_reworked_exercises_answers_are_not_the_whole_class(no_student):
    """03.seat, 06.catchup and 09.leader (issue 37: each had one answer for the whole class) now
    give a class several answers; 14.cycle's is tested in tests/course/test_student_numbers.py (it
    plays a round-robin per deck and seed)."""
    for key, least in (("03.seat", 3), ("06.catchup", 4), ("09.leader", 30)):
        answers = {repr(ex.answer(key, code)) for code in CODES}
        assert len(answers) >= least, (key, answers)


@pytest.fixture
def no_student(monkeypatch):
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)
    ex.student(None)
    yield
    ex.student(None)

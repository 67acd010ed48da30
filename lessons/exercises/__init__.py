"""Self-checking exercises and computed prose for the lessons.

    from meeple.course.exercises import say, check

    say(f"Player 1 won {rate:.1%} of the games.")   # a sentence whose numbers a cell computed
    check("07.no_double", answer)                    # ✓ Right: … / ✗ Not yet: <hint>

What lives where (each module imports only the ones above it; importing the package
registers every lesson's checkers, so nothing imports the package from inside a function):

- `checking`: the registry (`exercise`, `check`, `keys`), `say`, the answer readers
  (`need_number`, `need_interval`, ...), and `exact_answer`, the one reader of an exact
  answer (a rounded decimal gets "give the exact value", not a verdict), with `exact_value` for
  a part judged by what it does (18.mix's chances: a float to float precision is its fraction);
- `evidence`: a sampled answer's games (`Evidence`, `need_evidence`, `replay_sample`) and the
  one shape of a sampled checker (`interval_and_run`, `own_interval`);
- `search`: a search by hand (`measured_runs`, `closest`, `undecided`): the {value: games} runs
  12.ender_bonus and 21.tuned take where `tune` (pandas) cannot run;
- `numbers`: fresh numbers per student (`NUMBERS`, filled by each lesson's `choices`; `VARIED`,
  `student`, `exercise_numbers`);
- `key`: the answer key (`answer_of`, `answer`, `expected`, `answer_key`, `read_roster`): a
  checker takes the answer it judges against from `expected(key)`, the function `answer_of`
  registered, so each exact answer is computed in one place;
- `lesson_01` ... `lesson_25`: one module per lesson: the numbers it varies per student
  (`choices("NN", {...})`), then each exercise's checker (`@exercise(key, ..., varied=, sealed=)`)
  with its answer (`@answer_of(key)`) right below it: an exercise is written in one place.

A checker is registered under a key "NN.name" (NN = the lesson number) with the `exercise`
decorator, which also says whether the exercise is varied (the student's numbers: `VARIED`) and
sealed (one exact answer: `graded.SEALED`); it takes the student's answer and returns `(ok, text)`: on success a short
confirmation that may explain, on failure a hint that does not give the answer away.
Checkers compute the right answer with the engine or `meeple.rules.exact`, never from a
typed-in constant. No module here imports altair or pandas: checkers import what they need
when they run.
"""

from __future__ import annotations

from .checking import (EXACT_NOTE, NO_ANSWER, ROUNDED, NoAnswer, Refused, Rounded, WrongKind, agrees_to_digits, check, exact_answer,
                       exercise, fraction_text, keys, need_choice, need_fraction, need_interval, need_number, need_whole,
                       say)
from .evidence import REPLAY, Evidence, interval_and_run, need_evidence, own_interval, replay_sample
from .key import answer, answer_key, answer_of, answers_from, expected, read_roster, shown
from .numbers import (NUMBERS, VARIED, as_student, current_student, exercise_numbers, lesson_numbers, live_numbers,
                      live_params, normalise, student)
# every lesson's checkers and answers, registered in lesson order
from . import (lesson_01, lesson_02, lesson_03, lesson_04, lesson_05, lesson_06, lesson_07, lesson_08,  # noqa: I001 - after the names above, in lesson order
               lesson_09, lesson_10, lesson_11, lesson_12, lesson_13, lesson_14, lesson_15, lesson_16,
               lesson_17, lesson_18, lesson_19, lesson_20, lesson_21, lesson_22, lesson_23, lesson_24, lesson_25)
from .lesson_01 import ENDER_BONUS, ENDER_GAMES, ENDER_LEAST, ENDER_SEED, ender_fair_share, ender_win_rate
from .lesson_02 import PRACTICE_DIE
from .lesson_03 import CHASE_GAP, SEAT_GAMES, SEAT_SEED, seat_one_at_four
from .lesson_04 import TARGET_TURNS
from .lesson_05 import EDGE, EDGE_FAIR, HALF, games_for_half_width, games_for_power
from .lesson_06 import CATCHUP_GAMES, CATCHUP_SEED, halftime_leader

__all__ = [
    "EXACT_NOTE", "NO_ANSWER", "ROUNDED", "NoAnswer", "Refused", "Rounded", "WrongKind", "agrees_to_digits", "check", "exact_answer", "exercise",
    "fraction_text", "keys", "need_choice", "need_fraction", "need_interval", "need_number", "need_whole", "say",
    "REPLAY", "Evidence", "interval_and_run", "need_evidence", "own_interval", "replay_sample",
    "answer", "answer_key", "answer_of", "answers_from", "expected", "read_roster", "shown",
    "NUMBERS", "VARIED", "as_student", "current_student", "exercise_numbers", "lesson_numbers", "live_numbers",
    "live_params", "normalise", "student",
    "lesson_01", "lesson_02", "lesson_03", "lesson_04", "lesson_05", "lesson_06", "lesson_07", "lesson_08", "lesson_09",
    "lesson_10", "lesson_11", "lesson_12", "lesson_13", "lesson_14", "lesson_15", "lesson_16", "lesson_17", "lesson_18",
    "lesson_19", "lesson_20", "lesson_21", "lesson_22", "lesson_23", "lesson_24", "lesson_25",
    "CATCHUP_GAMES", "CATCHUP_SEED", "CHASE_GAP", "EDGE", "EDGE_FAIR", "ENDER_BONUS", "ENDER_GAMES",
    "ENDER_LEAST", "ENDER_SEED", "HALF", "PRACTICE_DIE", "SEAT_GAMES", "SEAT_SEED", "TARGET_TURNS",
    "ender_fair_share", "ender_win_rate", "games_for_half_width", "games_for_power", "halftime_leader",
    "seat_one_at_four",
]

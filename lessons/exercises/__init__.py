"""Self-checking exercises and computed prose for the lessons.

    from meeple.course.exercises import say, check

    say(f"Player 1 won {rate:.1%} of the games.")   # a sentence whose numbers a cell computed
    check("07.no_double", answer)                    # ✓ Right: … / ✗ Not yet: <hint>

What lives where (each module imports only the ones above it; importing the package
registers every lesson's checkers, so nothing imports the package from inside a function):

- `checking`: the registry (`exercise`, `check`, `keys`), `say`, the answer readers
  (`need_number`, `need_interval`, ...), and `exact_answer`, the one reader of an exact
  answer (a rounded decimal gets "give the exact value", not a verdict);
- `evidence`: a sampled answer's games (`Evidence`, `need_evidence`, `replay_sample`) and the
  one shape of a sampled checker (`interval_and_run`, `own_interval`);
- `search`: a search by hand (`measured_runs`, `closest`, `undecided`): the {value: games} runs
  12.ender_bonus and 21.tuned take where `tune` (pandas) cannot run;
- `numbers`: fresh numbers per student (`NUMBERS`, `VARIED`, `student`, `exercise_numbers`);
- `key`: the answer key (`answer_of`, `answer`, `expected`, `answer_key`, `read_roster`): a
  checker takes the answer it judges against from `expected(key)`, the function `answer_of`
  registered, so each exact answer is computed in one place;
- `lessons_01_07`, `lessons_08_14`, `lessons_15_18`, `lessons_19_21`, `lessons_22_25`: the checkers and
  answers, one module per group of lessons.

A checker is registered under a key "NN.name" (NN = the lesson number) with the `exercise`
decorator, which also says whether the exercise is varied (the student's numbers: `VARIED`) and
sealed (one exact answer: `graded.SEALED`); it takes the student's answer and returns `(ok, text)`: on success a short
confirmation that may explain, on failure a hint that does not give the answer away.
Checkers compute the right answer with the engine or `meeple.rules.exact`, never from a
typed-in constant. No module here imports altair or pandas: checkers import what they need
when they run.
"""

from __future__ import annotations

from .checking import (EXACT_NOTE, ROUNDED, Refused, Rounded, WrongKind, agrees_to_digits, check, exact_answer,
                       exercise, fraction_text, keys, need_choice, need_fraction, need_interval, need_number, need_whole,
                       say)
from .evidence import REPLAY, Evidence, interval_and_run, need_evidence, own_interval, replay_sample
from .key import answer, answer_key, answer_of, answers_from, expected, read_roster, shown
from .numbers import NUMBERS, VARIED, as_student, current_student, exercise_numbers, normalise, student
from . import lessons_01_07, lessons_08_14, lessons_15_18, lessons_19_21, lessons_22_25  # registers every lesson's checkers
from .lessons_01_07 import (CATCHUP_GAMES, CATCHUP_SEED, CHASE_GAP, EDGE, EDGE_FAIR, ENDER_BONUS,
                            ENDER_GAMES, ENDER_LEAST, ENDER_SEED, HALF, PRACTICE_DIE, SEAT_GAMES, SEAT_SEED,
                            TARGET_TURNS, ender_fair_share, ender_win_rate, games_for_half_width, games_for_power,
                            halftime_leader, seat_one_at_four)

__all__ = [
    "EXACT_NOTE", "ROUNDED", "Refused", "Rounded", "WrongKind", "agrees_to_digits", "check", "exact_answer", "exercise",
    "fraction_text", "keys", "need_choice", "need_fraction", "need_interval", "need_number", "need_whole", "say",
    "REPLAY", "Evidence", "interval_and_run", "need_evidence", "own_interval", "replay_sample",
    "answer", "answer_key", "answer_of", "answers_from", "expected", "read_roster", "shown",
    "NUMBERS", "VARIED", "as_student", "current_student", "exercise_numbers", "normalise", "student",
    "lessons_01_07", "lessons_08_14", "lessons_15_18", "lessons_19_21", "lessons_22_25",
    "CATCHUP_GAMES", "CATCHUP_SEED", "CHASE_GAP", "EDGE", "EDGE_FAIR", "ENDER_BONUS", "ENDER_GAMES",
    "ENDER_LEAST", "ENDER_SEED", "HALF", "PRACTICE_DIE", "SEAT_GAMES", "SEAT_SEED", "TARGET_TURNS",
    "ender_fair_share", "ender_win_rate", "games_for_half_width", "games_for_power", "halftime_leader",
    "seat_one_at_four",
]

"""Fresh numbers per student in lessons 1-6, 9 (exercise 1), 11 (exercise 2) and 12 (exercise 1),
issue 23: over thirty ids each exercise's numbers are the student's own, drawn from the rules' and
the lesson's own parameters; a neighbour's answer does not pass; and what each lesson states about
its exercises holds for every id (checked through the checkers and the exact helpers, not by
running the notebooks thirty times)."""

from __future__ import annotations

import contextlib
import io
from fractions import Fraction

import pytest

from meeple.rules import exact
from meeple.rules import bucket_king as bk
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import wilson
from meeple.widgets import exercises as ex
from meeple.widgets.exercises import lessons_01_07 as l1

IDS = [f"student {i:02d}" for i in range(30)]
EXACT = ["01.wilson", "02.moments", "02.die", "03.chase", "04.track", "04.slow", "05.games", "05.power", "06.boost",
         "09.claim3_variance", "11.second_row", "12.p_five"]


def _quiet(key, answer):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        ok = ex.check(key, answer)
    return ok, out.getvalue()


@pytest.fixture
def no_student(monkeypatch):
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)
    yield
    ex.student(None)


def test_each_student_passes_with_their_own_numbers_and_not_a_neighbours(no_student):
    answers = {}
    for sid in IDS:
        ex.student(sid)
        for key in EXACT:
            answers[sid, key] = ex.answer(key)
            assert _quiet(key, answers[sid, key])[0], (sid, key)
    for key in EXACT:
        assert key in ex.VARIED
        assert len({repr(answers[s, key]) for s in IDS}) > 2, f"{key}: thirty ids, too few answers"
        for sid in IDS[:2]:  # every other student's answer, where it differs, fails for these two
            ex.student(sid)
            for other in IDS:
                if answers[other, key] != answers[sid, key]:
                    assert not _quiet(key, answers[other, key])[0], (key, sid, other, answers[other, key])
    ex.student(None)
    assert ex.exercise_numbers("01") == {"won_of": (7, 10), "bonus": 6}  # no id: the lesson's own numbers


def test_what_the_lessons_say_holds_for_every_id(no_student):
    """Lesson 1: the class's interval is wide (holds one half, reaches past 0.8). Lesson 2: six faces
    cannot hit the target, and the fewest faces that pass the whole-number and parity tests can.
    Lesson 3: a chaser moves more than a piglet that is not last. Lesson 4: the track is one the
    game allows (1 to 40 spaces). Lesson 5: confirming an edge takes roughly twice the games of an
    interval that narrow. Lesson 6: the catch-up boost is positive. Lesson 9: every exercise die is
    a legal steal die. Lesson 11: the poke model loses fewer buckets than the exact rule. Lesson 12:
    the target lies between the knock's least and greatest expected loss (the bisection's premise)."""
    rows = bk.Config().rows
    middle = (0, rows[0] // 2)
    for sid in IDS:
        ex.student(sid)
        n = {lesson: ex.exercise_numbers(lesson) for lesson in ("01", "02", "03", "04", "05", "06", "09", "11", "12")}
        lo, hi = wilson(*n["01"]["won_of"])
        assert lo < 0.5 and hi > 0.8, (sid, lo, hi)
        m, v = (Fraction(x) for x in n["02"]["target"])
        assert not l1.can_have(6, m, v)
        die = ex.answer("02.die")
        assert die is not None and len(die) == next(k for k in range(1, 21) if l1.can_have(k, m, v)), (sid, die)
        assert ex.answer("03.chase") > exact.turn_mean(pb.Config())
        assert 1 <= ex.answer("04.track") <= 40
        fair, p, _ = l1.edge_question()
        assert 1.7 <= ex.answer("05.power") / l1.games_for_half_width(p, p - fair) <= 2.3, sid
        assert ex.answer("06.boost") > 0
        assert ddb.Config(die=n["09"]["variance_die"]).die == n["09"]["variance_die"]
        assert ex.answer("11.second_row") < len(bk.falling_buckets(rows, (), (1, 1)))
        loss = lambda q: exact.mean(bk.fall_distribution(rows, (), middle, q))  # noqa: E731 - a one-line measure, named for the assertion below
        assert loss(Fraction(0)) < n["12"]["loss"] < loss(Fraction(1))
        assert n["12"]["loss"] != 4  # the lesson works the target 4 out before the exercise


def test_the_ender_is_favoured_at_every_bonus_a_student_gets():
    """Lesson 1, exercise 2 asks whether the ender is favoured at the student's bonus: at every
    bonus a student can get, the engine's own interval lies above the fair share, so every
    student has the same clear answer to find."""
    for bonus in ex.NUMBERS["01"]["bonus"]:
        won, rounds = l1.ender_win_rate(bonus)
        assert wilson(won, rounds)[0] > l1.ender_fair_share(bonus), bonus


def test_the_ender_checker_wants_games_at_the_students_bonus(no_student):
    from meeple.rules import simulate
    from meeple.rules.bucket_brigade import Config

    sid = next(s for s in IDS if ex.exercise_numbers("01", s)["bonus"] != 6)
    ex.student(sid)
    bonus = ex.exercise_numbers("01")["bonus"]
    mine = simulate("bucket-brigade", Config(rounds=1, bonus=bonus), "random", games=300, seed=5, progress=False,
                    workers=1)
    six = simulate("bucket-brigade", Config(rounds=1, bonus=6), "random", games=300, seed=5, progress=False, workers=1)

    def interval(res):
        enders = [r for r in ex.Evidence.of(res).rows() if r.get("rounds_ended") == 1]
        return wilson(sum(r["won"] for r in enders), len(enders))

    ok, said = _quiet("01.ender", (interval(mine), mine))
    assert ok and f"at bonus {bonus}" in said, said
    ok, said = _quiet("01.ender", (interval(six), six))
    assert not ok and "other rules" in said, said

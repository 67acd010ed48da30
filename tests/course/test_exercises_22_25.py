"""Lessons 22-25's exact maths and exercises (issue 40): each checker accepts the answer its own
maths computes and refuses the near misses it names; every student gets their own numbers and a
classmate's answer fails; the maths is checked against brute force or sampling."""

from __future__ import annotations

import contextlib
import io
import itertools
from fractions import Fraction

import pytest

from meeple.rules import bayes
from meeple.course import exercises as ex
from meeple.course.exercises import lessons_22_25 as l22

IDS = [f"student {i:02d}" for i in range(30)]


def _quiet(key, answer):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        ok = ex.check(key, answer)
    return ok, out.getvalue()


@pytest.fixture
def no_student(monkeypatch):
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)
    yield
    ex.student(None)


def test_beats_is_the_count_of_every_arrangement_of_the_draws():
    for a1, b1, a2, b2 in itertools.product(range(1, 4), repeat=4):
        assert bayes.beats(a1, b1, a2, b2) == bayes.beats_by_ranks(a1, b1, a2, b2), (a1, b1, a2, b2)
    assert bayes.beats(1, 1, 1, 1) == Fraction(1, 2)
    assert bayes.chance_better(3, 10, 3, 10) == Fraction(1, 2)  # equal records: either is higher, evenly
    with pytest.raises(ValueError, match="wins must be 0 to the games played"):
        bayes.chance_better(11, 10, 3, 10)


def test_the_expected_loss_matches_a_sampled_one_and_the_power_a_sampled_rule():
    import numpy as np

    rng = np.random.default_rng(40)
    a, b = rng.beta(1 + 12, 1 + 48, 400_000), rng.beta(1 + 20, 1 + 44, 400_000)
    sampled = np.maximum(a - b, 0).mean()
    assert abs(float(l22.loss_of_adopting(12, 60, 20, 64)) - sampled) < 3e-4
    games, t = 8, Fraction(9, 10)
    wins_a, wins_b = rng.binomial(games, 0.25, 200_000), rng.binomial(games, 0.6, 200_000)
    better = {(x, y): bayes.chance_better(x, games, y, games) >= t for x in range(games + 1) for y in range(games + 1)}
    rate = np.mean([better[x, y] for x, y in zip(wins_a.tolist(), wins_b.tolist())])
    assert abs(float(l22.adoption_chance(games, t, Fraction(1, 4), Fraction(3, 5))) - rate) < 4e-3


@pytest.mark.parametrize("key", ["22.expected_loss", "22.power"])
def test_each_student_passes_with_their_own_answer_and_not_a_classmates(key, no_student):
    answers = {sid: ex.answer(key, sid) for sid in IDS}
    assert len(set(answers.values())) > 2 and key in ex.VARIED
    for sid in IDS[:3]:
        ex.student(sid)
        assert _quiet(key, answers[sid])[0]
        assert _quiet(key, float(answers[sid]))[0]  # computed in floats: the same value
        for other in IDS:
            if answers[other] != answers[sid]:
                assert not _quiet(key, answers[other])[0], (sid, other)


def test_22_checkers_name_the_near_misses(no_student):
    (ka, na), (kb, nb) = ex.exercise_numbers("22")["record"]
    ok, said = _quiet("22.expected_loss", l22.loss_of_adopting(kb, nb, ka, na))
    assert not ok and "keeping A" in said
    ok, said = _quiet("22.expected_loss", bayes.chance_better(ka, na, kb, nb))
    assert not ok and "a chance" in said
    games, t, pa, pb = ex.exercise_numbers("22")["rule"]
    right = l22.adoption_chance(games, t, pa, pb)
    ok, said = _quiet("22.power", 1 - right)
    assert not ok and "keeps A" in said
    ok, said = _quiet("22.power", l22.adoption_chance(games, t, pa, pa))
    assert not ok and "no better" in said
    ok, said = _quiet("22.power", round(float(right), 3))
    assert not ok and "exact" in said

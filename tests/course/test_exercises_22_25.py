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
from meeple.course.exercises import lesson_22, lesson_23, lesson_24, lesson_25

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
    assert abs(float(lesson_22.loss_of_adopting(12, 60, 20, 64)) - sampled) < 3e-4
    games, t = 8, Fraction(9, 10)
    wins_a, wins_b = rng.binomial(games, 0.25, 200_000), rng.binomial(games, 0.6, 200_000)
    better = {(x, y): bayes.chance_better(x, games, y, games) >= t for x in range(games + 1) for y in range(games + 1)}
    rate = np.mean([better[x, y] for x, y in zip(wins_a.tolist(), wins_b.tolist())])
    assert abs(float(lesson_22.adoption_chance(games, t, Fraction(1, 4), Fraction(3, 5))) - rate) < 4e-3


@pytest.mark.parametrize("key", ["22.expected_loss", "22.power", "23.mean_variance", "23.two_turns", "24.second_pip",
                                 "24.fair_price", "25.match", "25.implied"])
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
    ok, said = _quiet("22.expected_loss", lesson_22.loss_of_adopting(kb, nb, ka, na))
    assert not ok and "keeping A" in said
    ok, said = _quiet("22.expected_loss", bayes.chance_better(ka, na, kb, nb))
    assert not ok and "a chance" in said
    games, t, pa, pb = ex.exercise_numbers("22")["rule"]
    right = lesson_22.adoption_chance(games, t, pa, pb)
    ok, said = _quiet("22.power", 1 - right)
    assert not ok and "keeps A" in said
    ok, said = _quiet("22.power", lesson_22.adoption_chance(games, t, pa, pa))
    assert not ok and "no better" in said
    ok, said = _quiet("22.power", round(float(right), 3))
    assert not ok and "exact" in said


def test_23_clean_run_is_lesson_7s_fresh_flips_and_the_engines_shuffles():
    from meeple.rules import duck_duck_bruce as ddb
    from meeple.rules import exact
    from meeple.rules.chance import Chance
    from meeple.rules.stats import wilson

    remaining = {}
    for card in ddb.Config().deck():
        key = None if type(card) is ddb.Bruce else card.suit
        remaining[key] = remaining.get(key, 0) + 1
    assert all(lesson_23.clean_run(k) == exact.fresh_flips((), remaining, k) for k in range(4))
    chance, clean, shuffles = Chance(7), 0, 2000
    for _ in range(shuffles):
        pile, chance = chance.shuffled(ddb.Config().deck())
        firsts = pile[:3]
        clean += all(type(c) is not ddb.Bruce for c in firsts) and len({c.suit for c in firsts}) == 3
    low, high = wilson(clean, shuffles)
    assert low <= lesson_23.clean_run(3) <= high


def test_23_two_turns_beat_one_and_the_checkers_name_the_near_misses(no_student):
    need = ex.exercise_numbers("23")["need"]
    assert lesson_23.one_turn(need) < lesson_23.two_turns(need) < 1
    ok, said = _quiet("23.two_turns", lesson_23.one_turn(need))
    assert not ok and "one turn" in said
    best_plain = max(k * lesson_23.clean_run(k) for k in range(11))
    ok, said = _quiet("23.mean_variance", best_plain)
    assert not ok and "no penalty" in said


def test_24_the_second_pip_is_worth_less_and_a_left_out_option_is_priced_by_the_others(no_student):
    from meeple.rules import piggyback_brigade as pb

    for face in range(len(pb.Config().faces)):
        first = list(pb.Config().faces)
        first[face] += 1
        assert 0 < lesson_24.second_pip(face) < lesson_24.turns_saved(tuple(first)), face
    k = ex.exercise_numbers("24")["option"]
    points = [(lesson_24.pips(f), lesson_24.turns_saved(f)) for _, f in lesson_24.DIE_OPTIONS]
    slope_all = sum(c * b for c, b in points) / sum(c * c for c, _ in points)
    with_it = lesson_24.turns_saved(lesson_24.DIE_OPTIONS[k][1]) / slope_all
    assert with_it != lesson_24.loo_price(k)
    ok, said = _quiet("24.fair_price", with_it)
    assert not ok and "leave it out" in said


def test_25_the_match_is_every_sequence_of_games_and_the_implied_chance_multiplies_odds(no_student):
    for s_a, s_b in ((3, 2), (4, 1)):
        p = Fraction(s_a, s_a + s_b)
        for n in (3, 5):
            brute = Fraction(0)
            for games in itertools.product((0, 1), repeat=n):  # every sequence played out to the end
                chance = Fraction(1)
                for g in games:
                    chance *= p if g else 1 - p
                brute += chance if sum(games) > n // 2 else 0
            assert lesson_25.match_chance(s_a, s_b, n) == brute
    # three players with strengths 6, 3, 2: the chances of A-B and B-C imply A-C exactly
    assert lesson_25.implied_third(Fraction(6, 9), Fraction(3, 5)) == Fraction(6, 8)
    p_ab, p_bc = ex.exercise_numbers("25")["pairs"]
    ok, said = _quiet("25.implied", p_ab * p_bc)
    assert not ok and "odds" in said

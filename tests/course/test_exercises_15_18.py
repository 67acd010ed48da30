"""Lessons 15-18's checkers: each accepts the answer computed from its lesson's PARAMS, refuses
near misses (with the hint for the mistake), names the agreeing rounded decimal, and the sampled
exercise refuses a guessed interval, a run of the wrong question and a forged game."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from fractions import Fraction

import pytest

from meeple.rules import exact, simulate
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import mean_ci
from meeple.course import exercises as ex
from meeple.course.exercises import lesson_16, lesson_17, lesson_18, numbers


def _quiet(key, answer):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        ok = ex.check(key, answer)
    return ok, out.getvalue()


def test_the_answer_key_is_what_the_checkers_accept():
    for key in ["15.posterior_mean", "15.above_fair", "16.at_most", "16.variance", "17.first_by", "18.value", "18.mix"]:
        assert _quiet(key, ex.answer(key))[0], key


def _answers():
    p15, p16, p17 = numbers.PARAMS["15"], numbers.PARAMS["16"], numbers.PARAMS["17"]
    a, b = exact.beta_posterior(*p15["prior"], p15["wins"], p15["games"])
    trial = exact.time_trial_turns(pb.Config(), p17["first_spaces"])
    return {
        "15.posterior_mean": (Fraction(a, a + b), Fraction(p15["wins"], p15["games"])),
        "15.above_fair": (1 - exact.beta_cdf(a, b, p15["fair"]), exact.beta_cdf(a, b, p15["fair"])),
        "16.at_most": (sum(exact.distance_after(pb.Config(), p16["turns"], p16["at_most"]).values()),
                       sum(exact.distance_after(pb.Config(), p16["turns"], p16["at_most"] - 1).values())),
        "16.variance": (p16["variance_turns"] * exact.turn_moments(lesson_16.published_16(p16))[1],
                        exact.turn_moments(lesson_16.published_16(p16))[1]),
        "17.first_by": (1 - (1 - exact.at_most(trial, p17["rounds"])) ** p17["players"], exact.at_most(trial, p17["rounds"])),
        "18.value": (lesson_18.guarded_18()[3][2], 1 - lesson_18.guarded_18()[3][2]),
    }


@pytest.mark.parametrize("key", ["15.posterior_mean", "15.above_fair", "16.at_most", "16.variance", "17.first_by", "18.value"])
def test_exact_checkers_accept_the_answer_and_refuse_a_near_miss(key):
    right, near = _answers()[key]
    assert _quiet(key, right)[0]
    assert _quiet(key, float(right))[0]  # computed in floats: the same number to float precision
    ok, said = _quiet(key, near)
    assert not ok and "Not yet" in said, said
    rounded = float(f"{float(right):.3g}")
    if rounded != right:  # a terminating decimal such as 15/4 = 3.75 is the answer itself
        ok, said = _quiet(key, rounded)
        assert not ok and "agrees with the answer to the digits you gave" in said, said
    ok, said = _quiet(key, "a half")
    assert not ok and "Not the right kind" in said, said


def test_mix_checker_plays_the_mix_against_every_guard():
    claims, guards, matrix, (x, y, v) = lesson_18.guarded_18()
    assert _quiet("18.mix", tuple(x))[0]
    uniform = tuple(Fraction(1, len(claims)) for _ in claims)
    ok, said = _quiet("18.mix", uniform)
    assert not ok and "the victim can guard" in said, said
    assert "Not the right kind" in _quiet("18.mix", (Fraction(1),))[1]


def test_mix_checker_takes_a_mix_computed_in_floats_and_names_a_dict():
    """18.mix, as the teacher's guide promises for exact answers: the equilibrium mix computed in floats passes (the
    lesson's own numbers and two students'), shown as its Fractions; a mix rounded to three decimals does not, and
    the hint says "Fraction(" once; a dict of claim -> chance is told to be a tuple in claim order (not that its
    keys do not add up to 1)."""
    try:
        for who in (None, "student 01", "student 02"):
            ex.student(who)
            claims, guards, matrix, (x, y, v) = lesson_18.guarded_18()
            ok, said = _quiet("18.mix", tuple(float(p) for p in x))
            assert ok and "as Fractions: " + ", ".join(map(str, x)) in said, (who, said)
            ok, said = _quiet("18.mix", tuple(round(float(p), 3) for p in x))
            if tuple(round(float(p), 3) for p in x) != tuple(x):
                assert not ok and said.count("Fraction(") == 1 and said.count("exact") <= 1, (who, said)
            ok, said = _quiet("18.mix", dict(zip(claims, x)))
            assert not ok and "Not the right kind" in said and "not a dict" in said and "adding up" not in said, said
    finally:
        ex.student(None)


@pytest.fixture(scope="module")
def run():
    p = numbers.PARAMS["17"]
    return simulate("piggyback-brigade", lesson_17.race_config_17(), p["bots"], games=p["games"], seed=3, progress=False,
                    workers=1)


def test_rounds_checker_takes_genuine_evidence(run):
    _, lo, hi = mean_ci(lesson_17.race_rounds(run))
    ok, said = _quiet("17.rounds", ((lo, hi), run))
    assert ok and "genuine" in said, said
    ok, said = _quiet("17.rounds", ((round(lo, 2), round(hi, 2)), run))  # rounded to the student's digits
    assert ok, said
    assert ex.answer("17.rounds") == mean_ci(lesson_17.race_rounds(  # the key: the solution's own games
        ex.Evidence.play("piggyback-brigade", lesson_17.race_config_17(), numbers.PARAMS["17"]["bots"],
                         numbers.PARAMS["17"]["games"], lesson_17.ROUNDS_SEED)))[1:]


def test_rounds_checker_refuses_a_guess_the_wrong_question_and_forgery(run):
    _, lo, hi = mean_ci(lesson_17.race_rounds(run))
    mid = (lo + hi) / 2
    # a guessed narrow interval around the truth, with the genuine run
    ok, said = _quiet("17.rounds", ((mid - 0.001, mid + 0.001), run))
    assert not ok and "not the 95% interval of your own games" in said, said
    # no evidence at all
    assert "Not the right kind" in _quiet("17.rounds", (lo, hi))[1]
    assert "Not the right kind" in _quiet("17.rounds", ((lo, hi), (lo, hi)))[1]
    # the wrong question: other bots, other rules, too few games
    p = numbers.PARAMS["17"]
    kw = dict(seed=3, progress=False, workers=1)
    other = simulate("piggyback-brigade", lesson_17.race_config_17(), "heuristic", games=p["games"], **kw)
    assert "the question asks for" in _quiet("17.rounds", (mean_ci(lesson_17.race_rounds(other))[1:], other))[1]
    wrong_rules = simulate("piggyback-brigade", pb.Config(players=p["players"], piglets_each=(1,) * 6), p["bots"],
                           games=p["games"], **kw)
    assert "other rules" in _quiet("17.rounds", (mean_ci(lesson_17.race_rounds(wrong_rules))[1:], wrong_rules))[1]
    few = simulate("piggyback-brigade", lesson_17.race_config_17(), p["bots"], games=50, **kw)
    assert "too few" in _quiet("17.rounds", (mean_ci(lesson_17.race_rounds(few))[1:], few))[1]
    # forged games: every other game's turns rewritten (the checker samples 90 at random: never all missed)
    forged = ex.Evidence.of(simulate("piggyback-brigade", lesson_17.race_config_17(), p["bots"], games=p["games"], **kw))
    forged.table = None
    forged.records = [g._replace(turns=1) if g.index % 2 else g for g in forged.records]
    ok, said = _quiet("17.rounds", (mean_ci(lesson_17.race_rounds(forged))[1:], forged))
    assert not ok and "does not replay" in said, said


def test_no_answer_is_shown_before_its_exercise():
    """The lessons' text and computed sentences before each exercise never state its answer
    (as the Fraction or its three-digit decimal): checked on the markdown and code sources."""
    import json
    from pathlib import Path

    lessons = Path(__file__).resolve().parents[2] / "lessons"
    answers = {k: v[0] for k, v in _answers().items()}
    for key, right in answers.items():
        book = next(lessons.glob(f"{key[:2]}_*.ipynb"))
        cells = json.loads(book.read_text(encoding="utf-8"))["cells"]
        before = []
        for c in cells:
            src = "".join(c["source"])
            if f'check("{key}"' in src:
                break
            before.append(src)
        text = "\n".join(before)
        for form in (str(right), f"{float(right):.3g}"):
            if form not in ("0", "1"):
                assert form not in text, (key, form)


IDS = [f"student {i}" for i in range(30)]
VARIED_15_18 = ["15.posterior_mean", "15.above_fair", "16.at_most", "16.variance", "17.first_by", "18.value", "18.mix"]


# Shaped like test_student_numbers' test of the same name on purpose: that one covers lessons 1-13's exact
# answers (course engineers' file), this one lessons 15-18's varied ones; one loop, two lists of keys.
def test_each_student_passes_with_their_own_numbers_and_not_a_neighbours(monkeypatch):
    """Over 30 ids: every varied exercise of lessons 15-18 takes the student's own key answer; and
    for each exercise some pair of students has different answers, where the neighbour's fails."""
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)
    try:
        answers = {}
        for sid in IDS:
            ex.student(sid)
            for key in VARIED_15_18:
                answers[sid, key] = ex.answer(key)
                assert _quiet(key, answers[sid, key])[0], (sid, key)
        for key in VARIED_15_18:
            other = next(s for s in IDS[1:] if answers[s, key] != answers[IDS[0], key])
            ex.student(IDS[0])
            assert not _quiet(key, answers[other, key])[0], key
    finally:
        ex.student(None)


def test_the_lessons_stated_directions_hold():
    """What the lessons say in words, against the exact helpers: more players make the model's race
    shorter in rounds and longer in turns (17); rerolls leave a turn's sum further from the normal
    curve than no rerolls (16, first four turns); the guarded steal's value lies between the thief's
    maximin and the victim's minimax and every claim in the thief's mix earns it (18, every lead)."""
    from statistics import NormalDist


    cfg = pb.Config()
    rounds = [exact.mean(exact.first_to_finish(cfg, n)["rounds"]) for n in range(2, 8)]
    assert all(a > b for a, b in zip(rounds, rounds[1:]))
    turns = [n * (r - 1) + sum((j + 1) * p for j, p in enumerate(exact.first_to_finish(cfg, n)["seats"]))
             for n, r in zip(range(2, 8), rounds)]
    assert all(a < b for a, b in zip(turns, turns[1:]))

    def gap(c, k):
        m, v = exact.turn_moments(c)
        normal = NormalDist(float(k * m), float(k * v) ** 0.5)
        d = exact.distance_after(c, k, 60)
        cum, worst = 0, 0.0
        for s in range(0, 40):
            cum += d.get(s, 0)
            worst = max(worst, abs(float(cum) - normal.cdf(s + 0.5)))
        return worst

    for k in range(1, 5):
        assert gap(cfg, k) > gap(dataclasses.replace(cfg, max_rerolls=0), k), k
    for lead in (-1, -2, -3, -4):
        claims, guards, m, (x, y, v) = lesson_18.guarded_18(lead)
        assert max(min(r) for r in m) <= v <= min(max(r[j] for r in m) for j in range(len(guards)))
        for i, p in enumerate(x):
            if p:
                assert sum(y[j] * m[i][j] for j in range(len(guards))) == v


def test_18_value_is_on_the_students_own_die(capsys):
    """Issue 37: 18.value and 18.mix play the student's steal die (lesson_18.GUARDED_STEALS: 114 games, each with a
    mixed equilibrium); the base die's value at their lead is refused with a hint naming their die."""
    assert len(lesson_18.GUARDED_STEALS) == len(set(lesson_18.GUARDED_STEALS)) == 114
    try:
        sid = next(f"student {i:02d}" for i in range(60)
                   if ex.exercise_numbers("18", f"student {i:02d}")["steal"][1] != ddb.Config().die)
        ex.student(sid)
        lead, die = ex.exercise_numbers("18")["steal"]
        table = exact.guarded_steal_matrix(ddb.Config(die=die), lead)
        claims, guards = sorted({d for d, _ in table}), sorted({g for _, g in table})
        x, _y, v = exact.solve_zero_sum([[table[(d, g)] for g in guards] for d in claims])
        assert ex.answer("18.value") == v and ex.check("18.value", v) and ex.check("18.mix", tuple(x))
        capsys.readouterr()
        assert not ex.check("18.value", lesson_18.guarded_18(lead, ddb.Config().die)[3][2])
        assert f"ddb.Config(die={die})" in capsys.readouterr().out
    finally:
        ex.student(None)

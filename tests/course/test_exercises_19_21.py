"""The self-checks of lessons 19-21 (lessons/exercises/lesson_19.py to lesson_21.py): each exact checker accepts the
answer worked out here independently, refuses the near misses a student makes with their hint,
and refuses the wrong kind of answer; each sampled checker accepts genuine evidence and refuses a
guessed interval, evidence for another question, an edited table and forged games (the shared
evidence API, need_evidence, with every game replayed where the figure needs their histories).
The sampled checks run with smaller game counts (the checkers read NUMBERS when they run)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from meeple.rules import bucket_king as bk
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import piggyback_brigade as pb
from meeple.rules import play, simulate
from meeple.rules.stats import mean_ci
from meeple.course import exercises as ex
from meeple.course.exercises import evidence, lesson_20, lesson_21, numbers


def _run(key, answer, capsys):
    ok = ex.check(key, answer)
    return ok, capsys.readouterr().out


# --- lesson 19 -------------------------------------------------------------------------------------

def test_19_due_counts_what_is_left(capsys):
    n = numbers.lesson_numbers(19)
    deck = ddb.Config().deck()
    bruces = sum(type(c) is ddb.Bruce for c in deck)  # DDB-1: six Bruces in 66 cards
    right = Fraction(bruces - n["bruces_seen"], len(deck) - n["flipped"])
    assert _run("19.due", right, capsys)[0]
    ok, out = _run("19.due", Fraction(bruces, len(deck)), capsys)
    assert not ok and "reshuffled" in out  # the gambler's "with replacement"
    ok, out = _run("19.due", Fraction(bruces, len(deck) - n["flipped"]), capsys)
    assert not ok and "already face up" in out
    ok, out = _run("19.due", round(float(right), 3), capsys)
    assert not ok and "exact value" in out
    ok, out = _run("19.due", "2/21", capsys)
    assert not ok and "right kind" in out


def test_19_drought_by_counting_splits_of_the_ducks(capsys):
    """The Bruces' places: every B-subset of the 60 ducks and B Bruces equally likely; a stretch of `run`
    ducks or more somewhere, counted by brute force over the gaps (compositions of 60 into B + 1 parts)."""
    run, b = numbers.lesson_numbers(19)["drought_run"], numbers.lesson_numbers(19)["drought_bruces"]
    ducks, parts = 60, b + 1
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def short(left, k):  # ways to split `left` ducks into k gaps, each shorter than `run`
        if k == 0:
            return int(left == 0)
        return sum(short(left - g, k - 1) for g in range(min(left, run - 1) + 1))

    right = 1 - Fraction(short(ducks, parts), comb(ducks + b, b))
    assert _run("19.drought", right, capsys)[0]
    ok, out = _run("19.drought", 1 - right, capsys)
    assert not ok and "complement" in out
    from meeple.rules import exact

    iid = exact.at_least(exact.longest_run(ducks + b, Fraction(ducks, ducks + b)), run)
    ok, out = _run("19.drought", iid, capsys)
    assert not ok and "replacement" in out


def test_19_drought_is_on_the_students_own_pile(capsys):
    """Issue 37: 19.drought asks about a deck of the student's Bruce cards (3 to 10); the base pile's chance at the
    student's run is refused with a hint naming their pile, and their own pile's chance passes."""
    try:
        sid = next(f"student {i:02d}" for i in range(60) if ex.exercise_numbers("19", f"student {i:02d}")["drought"][0] != 6)
        ex.student(sid)
        b, run = numbers.lesson_numbers(19)["drought"]
        from meeple.rules import exact

        right = exact.at_least(exact.longest_gap(60 + b, b), run)
        assert ex.answer("19.drought") == right
        assert _run("19.drought", right, capsys)[0]
        ok, out = _run("19.drought", exact.at_least(exact.longest_gap(66, 6), run), capsys)
        assert not ok and "base game's pile" in out and f"bruce_cards={b}" in out
    finally:
        ex.student(None)


def test_19_cold_streak_by_listing_every_run_of_claims(capsys):
    import itertools

    n = numbers.lesson_numbers(19)
    die = ddb.Config().die
    fail = Fraction(sum(1 for f in die if f < n["claim"]), len(die))  # DDB-7: below the claim fails, -1 too
    right = Fraction(0)
    for seq in itertools.product((True, False), repeat=n["claims"]):
        best = run = 0
        for failed in seq:
            run = run + 1 if failed else 0
            best = max(best, run)
        if best >= n["streak"]:
            w = Fraction(1)
            for failed in seq:
                w *= fail if failed else 1 - fail
            right += w
    assert _run("19.cold_streak", right, capsys)[0]
    ok, out = _run("19.cold_streak", fail ** n["streak"], capsys)
    assert not ok and "may start" in out


# --- lesson 20 -------------------------------------------------------------------------------------

def test_20_model_wait_from_the_pairs(capsys):
    n = numbers.lesson_numbers(20)
    from meeple.rules import exact

    pairs = exact.elimination_rounds(n["model_players"], n["model_lives"])
    right = sum(((b - a) * p for (a, b), p in pairs.items()), Fraction(0))
    assert _run("20.model_wait", right, capsys)[0]
    ok, out = _run("20.model_wait", sum((a * p for (a, _), p in pairs.items()), Fraction(0)), capsys)
    assert not ok and "first player goes out" in out


@pytest.fixture
def small_20(monkeypatch):
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)
    monkeypatch.setitem(ex.NUMBERS, "20", {**ex.NUMBERS["20"], "wait_game": ((5, "heuristic", False),), "min_games": (30,)})
    cfg = bk.Config(players=5, end_rule=numbers.lesson_numbers(20)["end_rule"])
    res = simulate("bucket-king", cfg, "heuristic", games=30, seed=3, progress=False, workers=1)
    waits = [lesson_20.first_out_wait(play("bucket-king", cfg, list(g.bots), g.seed).state) for g in res.records]
    return cfg, res, mean_ci(waits)[1:]


def test_20_wait_takes_genuine_evidence(small_20, capsys):
    cfg, res, interval = small_20
    ok, out = _run("20.wait", (res, interval), capsys)
    assert ok and "replayed" in out, out


def test_20_wait_refuses_a_guess_the_wrong_question_and_forged_games(small_20, capsys):
    cfg, res, (lo, hi) = small_20
    ok, out = _run("20.wait", (res, (lo + 0.5, lo + 0.51)), capsys)  # a narrow guess near the truth
    assert not ok and "not the one your own games give" in out
    other = simulate("bucket-king", bk.Config(players=5, end_rule="three-left"), "heuristic", games=30, seed=3,
                     progress=False, workers=1)
    ok, out = _run("20.wait", (other, (lo, hi)), capsys)
    assert not ok and "other rules" in out
    rnd = simulate("bucket-king", cfg, "random", games=30, seed=3, progress=False, workers=1)
    ok, out = _run("20.wait", (rnd, (lo, hi)), capsys)
    assert not ok and "seat random" in out
    short = simulate("bucket-king", cfg, "heuristic", games=10, seed=3, progress=False, workers=1)
    ok, out = _run("20.wait", (short, (lo, hi)), capsys)
    assert not ok and "too few" in out
    edited = res.table.copy()
    res.table = edited.assign(score=edited["score"] + 1)  # the table no longer says what the games did
    ok, out = _run("20.wait", (res, (lo, hi)), capsys)
    assert not ok and "table was changed" in out
    res.table = edited
    g = res.records[7]
    res.records[7] = g._replace(scores=tuple(reversed(g.scores)), winners=(0,))  # one forged game of thirty
    ok, out = _run("20.wait", (res, (lo, hi)), capsys)
    assert not ok and "does not replay" in out
    ok, out = _run("20.wait", (0.3, 0.6), capsys)
    assert not ok and "right kind" in out


def test_evidence_replay_catches_a_five_percent_forgery_in_a_sample():
    """Without replay_all the checker replays REPLAYS random games: with 5% forged, a miss has
    chance 0.95**90 < 1%; here 20 of 200 are forged (10%), so a miss (0.9**90) is below 1e-4."""
    cfg = ddb.Config.presets()["short"]
    res = simulate("duck-duck-bruce", cfg, "random", games=200, seed=1, progress=False, workers=1)
    assert evidence.evidence_problem(res, "duck-duck-bruce", cfg, ("random",) * cfg.players, 200)[0] is None
    for i in range(0, 200, 10):
        g = res.records[i]
        res.records[i] = g._replace(scores=tuple(s + 1 for s in g.scores))
    problem, _ = evidence.evidence_problem(res, "duck-duck-bruce", cfg, ("random",) * cfg.players, 200)
    assert problem and "does not replay" in problem


# --- lesson 21 -------------------------------------------------------------------------------------

def test_21_model_seat_by_listing_turn_counts(capsys):
    from meeple.rules import exact

    players = numbers.lesson_numbers(21)["model_players"]
    turns = exact.time_trial_turns(pb.Config(), numbers.lesson_numbers(21)["model_spaces"])
    # seat 0 wins unless some other seat needs fewer turns (it moves first on a tie)
    right = sum((p * sum((q for t, q in turns.items() if t >= s), Fraction(0)) ** (players - 1)
                 for s, p in turns.items()), Fraction(0))
    assert _run("21.model_seat", right, capsys)[0]
    ok, out = _run("21.model_seat", Fraction(1, players), capsys)
    assert not ok and "fair share" in out


def _length_runs(n, bots=None, games=40, seed=2, values=range(2, 5), players=None):
    """{length: games} as the lesson's search by hand plays them (Evidence.play, no pandas)."""
    players = n["players"] if players is None else players
    return {v: ex.Evidence.play("piggyback-brigade", pb.Config(players=players).with_values({n["tune_field"]: v}),
                                bots or n["bots"], games=games, seed=seed) for v in values}


@pytest.fixture
def small_21(monkeypatch):
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)
    monkeypatch.setitem(ex.NUMBERS, "21", {**ex.NUMBERS["21"], "tune_values": ((2, 4),), "tune_games": (40,)})
    n = numbers.lesson_numbers(21)
    runs = _length_runs(n)
    measured = {v: lesson_21.seat_one_advantage(r) for v, r in runs.items()}
    return n, runs, min(sorted(measured), key=lambda v: abs(measured[v][0]))


def test_21_tuned_takes_genuine_evidence_and_refuses_a_forgery(small_21, capsys):
    n, runs, best = small_21
    ok, out = _run("21.tuned", (best, runs), capsys)
    assert ok and "replayed" in out, out
    # every game of one length given other winners: the replayed games do not agree
    ev = runs[best]
    records = [g._replace(winners=tuple(s for s in range(len(g.scores)) if s not in g.winners) or (0,)) for g in ev.records]
    forged = {**runs, best: ex.Evidence(ev.game, ev.config, ev.bots, ev.seed, ev.rotate, records)}
    ok, out = _run("21.tuned", (best, forged), capsys)
    assert not ok and "does not replay" in out, out
    other = next(v for v in runs if v != best)
    ok, out = _run("21.tuned", (other, runs), capsys)  # not the closest by the student's own runs
    assert not ok and "closer to zero" in out, out
    ok, out = _run("21.tuned", (best, {v: r for v, r in runs.items() if v != 3}), capsys)
    assert not ok and "every length" in out, out
    ok, out = _run("21.tuned", best, capsys)  # a guess without games
    assert not ok and "right kind" in out


def test_21_tuned_refuses_another_lineup_or_too_few_games(small_21, capsys):
    n, runs, best = small_21
    ok, out = _run("21.tuned", (best, _length_runs(n, bots="random")), capsys)
    assert not ok and "heuristic" in out, out
    ok, out = _run("21.tuned", (best, _length_runs(n, games=20)), capsys)
    assert not ok and "at least 40" in out, out
    ok, out = _run("21.tuned", (best, _length_runs(n, players=4)), capsys)
    assert not ok and "other rules" in out, out


# --- what the lessons conclude in prose holds against the exact maths ----------------------------

def test_19_the_shuffle_bag_has_less_spread_and_shorter_streaks():
    """Lesson 19: a Bruce is likelier after every run of ducks; the bag's count of Bruces in the
    first half has less variance than independent flips', and its longest stretch is shorter on
    average and in the tail."""
    from meeple.rules import exact

    chances = [Fraction(6, 66 - k) for k in range(0, 60)]
    assert all(a < b for a, b in zip(chances, chances[1:]))
    p = Fraction(6, 66)
    binomial_var = 33 * p * (1 - p)
    assert exact.variance(exact.hypergeometric(66, 6, 33)) < binomial_var
    bag, free = exact.longest_gap(66, 6), exact.longest_run(66, 1 - p)
    assert exact.mean(bag) < exact.mean(free)
    assert exact.at_least(bag, 40) < exact.at_least(free, 40)


def test_21_the_model_favours_earlier_seats_and_a_longer_track_shrinks_it():
    """Lesson 21: in the race model each seat wins less than the one before, and a longer first
    section lowers Player 1's chance (the direction the lesson says the model finds)."""
    from meeple.rules import exact

    four = pb.Config(players=4)
    seats = exact.race_seat_chances(exact.time_trial_turns(four), 4)
    assert all(a > b for a, b in zip(seats, seats[1:]))
    first = [exact.race_seat_chances(exact.time_trial_turns(four.with_values({"sections[0]": k})), 4)[0]
             for k in (2, 4, 6, 8)]
    assert all(a > b for a, b in zip(first, first[1:]))


def test_two_students_get_their_own_numbers_in_lessons_19_to_21(capsys):
    """Each exact exercise's numbers are the student's (the course's student()); a neighbour's
    answer does not pass, the student's own does, for thirty ids every key answer passes."""
    try:
        ids = [f"student {i:02d}" for i in range(30)]
        seen = {k: set() for k in ("19", "20", "21")}
        for sid in ids:
            ex.student(sid)
            for lesson in seen:
                seen[lesson].add(tuple(ex.exercise_numbers(lesson).items()))
            for key in ("19.due", "19.drought", "19.cold_streak", "20.model_wait", "21.model_seat"):
                assert _run(key, ex.answer(key), capsys)[0], (sid, key)
        assert all(len(v) > 2 for v in seen.values()), seen
        a, b = (next(s for s in ids if ex.answer("19.due", s) != ex.answer("19.due", ids[0])), ids[0])
        ex.student(a)
        assert not _run("19.due", ex.answer("19.due", b), capsys)[0]
    finally:
        ex.student(None)

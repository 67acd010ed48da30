"""Lesson 1's exercises, first interval (Bucket Brigade): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import math

from meeple.rules import simulate
from meeple.rules.bucket_brigade import Config
from meeple.rules.stats import Z95, wilson

from .checking import agrees_to_digits, exercise, need_interval
from .evidence import Evidence, interval_and_run, need_evidence
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# lessons 1-6 (the sampled 01.ender asks its own bonus, 03.seat its players, 06.catchup its players and limit)
NUMBERS = choices("01", {"won_of": ((7, 10), (6, 10), (8, 10), (7, 12), (9, 12), (8, 11)), "bonus": (6, 5, 7, 8)})

ENDER_GAMES, ENDER_SEED = 800, 2026  # the engine's own estimate for 01.ender


def ender_win_rate(bonus: int, games: int = ENDER_GAMES, seed: int = ENDER_SEED) -> tuple[int, int]:
    """(rounds the ender won, rounds with an ender) in one-round Bucket Brigade games, four
    random bots; a tie for the most points counts as a win for each tied player, as in the
    workbench's `ender_win_rate`. Cached: the lesson and its checker ask the same question."""
    return _ender_cached(bonus, games, seed)[:2]


def ender_fair_share(bonus: int, games: int = ENDER_GAMES, seed: int = ENDER_SEED) -> float:
    """The share of (game, seat) pairs that won in the same games: what the ender would win
    if ending did not matter. A little above 1/4, because a tie is a win for every tied seat."""
    return _ender_cached(bonus, games, seed)[2]


def _ender_cached(bonus, games, seed, _memo={}):  # noqa: B006 - the default dict is the cache, kept across calls
    key = (bonus, games, seed)
    if key not in _memo:
        res = simulate("bucket-brigade", Config(rounds=1, bonus=bonus), "random", games=games, seed=seed,
                       progress=False)
        rows = Evidence.of(res).rows()  # the records, not the pandas table: checkers run in the site's Python too
        enders = [r for r in rows if r.get("rounds_ended") == 1]
        _memo[key] = (sum(r["won"] for r in enders), len(enders), sum(r["won"] for r in rows) / len(rows))
    return _memo[key]


@exercise("01.wilson", expects="a pair (low, high), e.g. (0.3, 0.8)", varied=True, sealed=False)
def _wilson_7_of_10(answer):
    lo, hi = need_interval(answer)
    k, n = exercise_numbers("01")["won_of"]
    want = expected("01.wilson")
    digits = min(agrees_to_digits(lo, want[0]) or 0, agrees_to_digits(hi, want[1]) or 0)
    if digits or (abs(lo - want[0]) < 0.003 and abs(hi - want[1]) < 0.003):
        said = (f"{lo:.3f} to {hi:.3f}" if digits >= 15 else
                f"{lo} to {hi} agrees with Wilson's {want[0]:.4f} to {want[1]:.4f} to your digits")
        return True, f"{said}. {k} of {n} is a weak clue: the interval is wide."
    p = k / n
    wald = (p - Z95 * math.sqrt(p * (1 - p) / n), p + Z95 * math.sqrt(p * (1 - p) / n))
    if abs(lo - wald[0]) < 0.003 and abs(hi - wald[1]) < 0.003:
        return False, "that is p ± 1.96·se (the Wald interval); the lesson's interval is Wilson's (`stats.wilson`)."
    if hi > 1.0 or lo < 0.0:
        return False, "a proportion's interval lies between 0 and 1 (write 0.25, not 25)."
    if not lo < k / n < hi:
        return False, f"the interval should contain the observed proportion {k}/{n}."
    return False, f"use `stats.wilson(successes, trials)` with {k} successes in {n} trials."


@answer_of("01.wilson")
def _wilson_answer():
    return wilson(*exercise_numbers("01")["won_of"])


ENDER_BONUS, ENDER_LEAST = 6, 200  # the lesson's own bonus (a student's is exercise_numbers("01")["bonus"])


def ender_bonus() -> int:
    """The bonus 01.ender asks this student about."""
    return exercise_numbers("01")["bonus"]


def _interval_hint(given, want, what: str) -> "tuple[bool, str] | None":
    """None when `given` is `want` (to the student's digits), else the hint."""
    d_lo, d_hi = agrees_to_digits(given[0], want[0]), agrees_to_digits(given[1], want[1])
    if d_lo and d_hi:
        return None
    return False, f"{what} is not the Wilson interval of your own games ({want[0]:.3f} to {want[1]:.3f})."


@exercise("01.ender", expects="(interval, games): your 95% interval and the simulate(...) result it came from", varied=True, sealed=False)
def _ender_bonus_6(answer):
    (lo, hi), run = interval_and_run(answer, run_first=False, example=(
        "(interval, games): your (low, high) and what simulate(...) returned, e.g. check('01.ender', (ender_interval, raised))"))
    if hi > 1.0 or lo < 0.0:
        return False, "a win rate's interval lies between 0 and 1 (write 0.25, not 25)."
    bonus = ender_bonus()
    ev = need_evidence(run, game="bucket-brigade", config=Config(rounds=1, bonus=bonus),
                       bots="random", games=ENDER_LEAST)
    enders = [r for r in ev.rows() if r.get("rounds_ended") == 1]
    won, n = sum(r["won"] for r in enders), len(enders)
    mine = wilson(won, n)
    if _interval_hint((lo, hi), mine, "your interval") is not None:
        share = wilson(sum(r["win_share"] for r in enders), n)
        p = won / n
        wald = (p - Z95 * math.sqrt(p * (1 - p) / n), p + Z95 * math.sqrt(p * (1 - p) / n))
        if _interval_hint((lo, hi), share, "") is None:
            return False, "that counts a shared top score as a part win (win_share); this lesson counts it as a win (`won`)."
        if _interval_hint((lo, hi), wald, "") is None:
            return False, "that is p ± 1.96·se (the Wald interval); the lesson's interval is Wilson's (`stats.wilson`)."
        return _interval_hint((lo, hi), mine, "your interval")
    won_e, n_e = ender_win_rate(bonus)
    elo, ehi = wilson(won_e, n_e)
    if mine[1] < elo or mine[0] > ehi:
        return False, (f"your games give {mine[0]:.1%} to {mine[1]:.1%}, which misses the engine's own estimate from "
                       "other seeds: that happens by bad luck about once in a few hundred runs. Try another seed.")
    fair = ender_fair_share(bonus)
    verdict = "above" if lo > fair else "not clearly above"
    return True, (f"{won} of {n} rounds: {lo:.1%} to {hi:.1%}, checked against your games (replayed from their "
                  f"seeds) and overlapping the engine's {n_e} rounds ({elo:.1%} to {ehi:.1%}). It lies {verdict} the "
                  f"fair share (a seat wins or ties {fair:.1%} of rounds): at bonus {bonus} the ender "
                  f"{'is' if lo > fair else 'may not be'} favoured.")


@answer_of("01.ender")
def _ender_answer():
    return wilson(*ender_win_rate(ender_bonus()))  # the engine's estimate; a student's own games give their own

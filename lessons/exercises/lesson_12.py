"""Lesson 12's exercises, design to a target: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from meeple.rules import bucket_brigade as bb
from meeple.rules import bucket_king as bk
from meeple.rules import exact
from meeple.rules.stats import wilson

from .checking import Refused, WrongKind, exercise, need_number
from .evidence import Evidence
from .key import answer_of
from .numbers import choices, exercise_numbers
from .search import closest, measured_runs, undecided


# loss not 4: the lesson works that one out; ender_target (per cent of ended rounds the ender wins):
# each has one clear nearest bonus on the key's seeds (4, 5, 2, 1, 11)
NUMBERS = choices("12", {"loss": (5, 3, 6, 7), "ender_target": (50, 60, 35, 30, 90)})


@lru_cache(maxsize=None)
def _p_for_loss(target, steps: int = 20) -> tuple[Fraction, Fraction]:
    """Bisection on the exact expected loss of Bucket King's bottom-middle knock (BK-11),
    which grows with p: the interval [low, high] of p that brackets `target`."""
    rows = bk.Config().rows
    middle = (0, rows[0] // 2)
    low, high = Fraction(0), Fraction(1)
    for _ in range(steps):
        mid = (low + high) / 2
        if exact.mean(bk.fall_distribution(rows, (), middle, mid)) < target:
            low = mid
        else:
            high = mid
    return low, high


@exercise("12.p_five", "p as a number between 0 and 1, to two decimals", varied=True, sealed=False)
def _p_five(answer):
    a = need_number(answer, "p as a number between 0 and 1")
    if not 0 <= a <= 1:
        raise WrongKind(f"p is a probability, between 0 and 1; got {answer!r}")
    loss = exercise_numbers("12")["loss"]
    low, high = _p_for_loss(loss)
    p = float(low + high) / 2
    if abs(a - p) <= 0.005 + 1e-9:
        return True, f"p ≈ {p:.4f}; to two decimals {p:.2f}."
    if a < p:
        return False, f"at that p the knock costs less than {loss} buckets on average: make the pyramid wobblier."
    return False, f"at that p the knock costs more than {loss} buckets on average: make the pyramid steadier."


@answer_of("12.p_five")
def _p_five_answer():
    low, high = _p_for_loss(exercise_numbers("12")["loss"])
    return round(float(low + high) / 2, 2)


ENDER_TUNE_LEAST, ENDER_BONUSES, ENDER_TUNE_SEED = 150, range(0, 13), 1  # 12.ender_bonus: games per bonus, bonuses, the key's seed


def ender_target() -> float:
    """The share of ended rounds 12.ender_bonus asks the ender to win, for this student."""
    return exercise_numbers("12")["ender_target"] / 100


def ender_rounds(ev) -> "tuple[float, float, float]":
    """(estimate, low, high) of the round-ender's win rate in one-round games (a k-way tie for the
    most counts 1/k: `win_share`), from a run's games: the ender is the seat with rounds_ended 1."""
    enders = [r for r in ev.rows() if r.get("rounds_ended") == 1]
    if not enders:
        raise Refused("no round in your games was ended by a player: play more games.")
    won = math.fsum(r["win_share"] for r in enders)
    return (won / len(enders), *wilson(won, len(enders)))


def _ender_search(answer):
    return measured_runs(answer, game="bucket-brigade", config_at=lambda b: bb.Config(rounds=1, bonus=b), bots="random",
                         games=ENDER_TUNE_LEAST, measure=ender_rounds,
                         example="(bonus, runs): the bonus you pick and {bonus: your games at that bonus}")


@exercise("12.ender_bonus", "(bonus, runs): the bonus you pick and {bonus: your games at it}", varied=True, sealed=False)
def _ender_bonus(answer):
    target = ender_target()
    bonus, measured = _ender_search(answer)
    if not all(b in ENDER_BONUSES for b in measured):
        return False, f"the bonus goes from {ENDER_BONUSES[0]} to {ENDER_BONUSES[-1]} here; measure only those."
    est = {b: m[0] for b, m in measured.items()}
    if not min(est.values()) <= target <= max(est.values()):
        side = "above" if min(est.values()) > target else "below"
        return False, (f"every bonus you measured puts the ender {side} {target:.0%} of the rounds: the answer lies "
                       "outside the bonuses you tried. Measure a range that reaches the target from both sides.")
    if bonus not in measured:
        return False, f"you did not measure a bonus of {bonus}: pass its games too."
    best = closest(measured, target)
    if bonus != best:
        return False, (f"by your own games a bonus of {best} comes closer to {target:.0%} than {bonus} "
                       "(compare each bonus's estimate with the target).")
    missing = [b for b in (bonus - 1, bonus + 1) if b in ENDER_BONUSES and b not in measured]
    if missing:
        return False, (f"measure the neighbours of your answer too ({' and '.join(map(str, missing))}): "
                       "without them nothing says your bonus is the closest.")
    value, low, high = measured[bonus]
    tied = undecided(measured, bonus, target)
    words = (f"the intervals of {' and '.join(map(str, tied))} come as near the target as your answer's own interval "
             "reaches, so more games are needed to show it is nearer than they are" if tied else
             "neither neighbour's interval comes as near the target as your answer's own interval reaches")
    return True, (f"a bonus of {bonus}: the ender wins {value:.1%} of the rounds they end (95% CI {low:.1%} to "
                  f"{high:.1%}; {len(measured)} bonuses, your games replayed from their seeds); {words}.")


@answer_of("12.ender_bonus")
def _ender_bonus_answer():
    """The bonus the lesson's own search finds (seed 1, every bonus, ENDER_TUNE_LEAST one-round games each)."""
    return closest(_ender_key_runs(), ender_target())


@lru_cache(maxsize=1)
def _ender_key_runs() -> dict:
    """{bonus: (estimate, low, high)} of the lesson's own search (the same for every student)."""
    return {b: ender_rounds(Evidence.play("bucket-brigade", bb.Config(rounds=1, bonus=b), "random",
                                          games=ENDER_TUNE_LEAST, seed=ENDER_TUNE_SEED)) for b in ENDER_BONUSES}

"""Self-checking exercises and computed prose for the lessons.

    from meeple.widgets.exercises import say, check

    say(f"Player 1 won {rate:.1%} of the games.")   # a sentence whose numbers a cell computed
    check("07.no_double", answer)                    # ✓ Right: … / ✗ Not yet: <hint>

A checker is registered under a key "NN.name" (NN = the lesson number) with
the `exercise` decorator; it takes the student's answer and returns
`(ok, text)`: on success a short confirmation that may explain, on failure a
hint that does not give the answer away. Checkers compute the right answer
with the engine or `meeple.rules.exact`, never from a typed-in constant.

A checker that gets an answer of the wrong kind raises `WrongKind` (or uses
the `need_*` helpers below, which do); `check` then says what it expects.
Lessons 1-7 keep their checkers here; lessons 8-14 in `exercises_more`, which
is imported on the first `check`. This module imports no altair or pandas:
checkers import what they need when they run.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any, Callable

Checker = Callable[[Any], "tuple[bool, str]"]

_CHECKERS: dict[str, Checker] = {}
_EXPECTS: dict[str, str] = {}
_more_loaded = False


class WrongKind(TypeError):
    """The answer is not the kind of thing the exercise asks for (its text says what is)."""


# --- showing text ------------------------------------------------------------------

def _in_ipython() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


def say(text: str) -> None:
    """Show a Markdown sentence computed in a code cell (plain print outside IPython).

    Lessons quote every number through `say`, so the prose cannot drift from
    what the engine computes."""
    if not isinstance(text, str):
        raise TypeError(f"say() takes the sentence as a str, got {type(text).__name__}")
    if _in_ipython():
        from IPython.display import Markdown, display

        display(Markdown(text))
    else:
        print(text)


# --- registering and running checkers ----------------------------------------------

def exercise(key: str, expects: str | None = None) -> Callable[[Checker], Checker]:
    """Decorator: register `f(answer) -> (ok, text)` as the checker of exercise `key`
    ("NN.name"). `expects` (optional) says in words what kind of answer it takes."""
    if not isinstance(key, str) or "." not in key or not key.split(".", 1)[0].isdigit():
        raise ValueError(f"an exercise key looks like '07.no_double' (lesson number, dot, name), got {key!r}")

    def register(f: Checker) -> Checker:
        if key in _CHECKERS and _CHECKERS[key] is not f:
            raise ValueError(f"exercise {key!r} is registered twice")
        _CHECKERS[key] = f
        if expects:
            _EXPECTS[key] = expects
        return f

    return register


def _load_more() -> None:
    global _more_loaded
    if not _more_loaded:
        _more_loaded = True
        from . import exercises_more  # noqa: F401  (registers lessons 8-14)
        from . import exercises_15_18  # noqa: F401  (registers lessons 15-18)


def keys() -> list[str]:
    """Every registered exercise key, sorted."""
    _load_more()
    return sorted(_CHECKERS)


def _show(text: str) -> None:
    say(text)


def check(key: str, answer: Any) -> bool:
    """Run exercise `key`'s checker on `answer`; show ✓ or ✗ with a hint; return True/False."""
    _load_more()
    if key not in _CHECKERS:
        lesson = str(key).split(".", 1)[0]
        near = [k for k in _CHECKERS if k.startswith(lesson + ".")] or sorted(_CHECKERS)
        _show(f"✗ There is no exercise called `{key!r}`. Exercises: {', '.join(f'`{k}`' for k in sorted(near))}.")
        return False
    if answer is None or answer is Ellipsis:
        want = _EXPECTS.get(key, "your answer")
        _show(f"✗ No answer yet: put {want} in place of `...` and run the cell again.")
        return False
    try:
        ok, text = _CHECKERS[key](answer)
    except WrongKind as e:
        _show(f"✗ Not the right kind of answer for `{key}`: {e}")
        return False
    if ok:
        _show(f"✓ Right: {text}")
        return True
    if "exact" in _EXPECTS.get(key, "") and _decimal(answer) and "Fraction(" not in text:
        text += EXACT_NOTE  # a decimal that missed: say that the answer should be exact too
    _show(f"✗ Not yet: {text}")
    return False


# --- helpers for checkers: take an answer, or raise WrongKind naming what is expected -----

def need_number(answer: Any, what: str = "a number") -> float:
    """A real number (int, float, Fraction, numpy scalar); not a bool, str or NaN."""
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        raise WrongKind(f"expected {what}, got {type(answer).__name__} {answer!r}")
    x = float(answer)
    if math.isnan(x):
        raise WrongKind(f"expected {what}, got NaN")
    return x


def need_whole(answer: Any, what: str = "a whole number") -> int:
    """A whole number (an int, or a float/Fraction with no fractional part)."""
    x = need_number(answer, what)
    if not math.isfinite(x) or x != int(x):
        raise WrongKind(f"expected {what}, got {answer!r}")
    return int(x)


def need_fraction(answer: Any, what: str = "an exact Fraction") -> Fraction:
    """An exact value: an int or a Fraction (a float is refused: the exercise wants exact)."""
    if isinstance(answer, bool) or not isinstance(answer, (int, Fraction)):
        raise WrongKind(f"expected {what} (e.g. Fraction(3, 8)), got {type(answer).__name__} {answer!r}")
    return Fraction(answer)


def need_exact(answer: Any, want: Fraction, what: str = "an exact Fraction") -> "tuple[Fraction | None, str]":
    """An exact answer checked against `want`: (value, "") or (None, hint).

    An int or Fraction is taken as it is. A float (a student who computed in
    decimals) counts as `want` when it equals it to float precision; one that
    only agrees to a few digits gets a hint to give the exact value; any other
    float is read as the nearest simple fraction, so the checker's near-miss
    hints still apply, and its hint adds that the answer should be exact."""
    if isinstance(answer, (int, Fraction)) and not isinstance(answer, bool):
        return Fraction(answer), ""
    x = need_number(answer, what)
    if not math.isfinite(x):
        raise WrongKind(f"expected {what}, got {answer!r}")
    if math.isclose(x, want, rel_tol=1e-9, abs_tol=1e-12):
        return want, ""
    if math.isclose(x, want, rel_tol=2e-3):
        return None, ("your decimal agrees with the answer to the digits you gave, but the exercise asks for the "
                      "exact value: compute it with Fractions (e.g. Fraction(3, 8)), not rounded decimals.")
    return Fraction(x).limit_denominator(10 ** 6), ""


EXACT_NOTE = " (Give the exact value, as a Fraction such as Fraction(3, 8).)"


def _decimal(answer) -> bool:
    """True when an answer (or any part of a pair) is a decimal rather than an int or Fraction."""
    parts = answer if isinstance(answer, (tuple, list)) else (answer,)
    return any(isinstance(a, numbers.Real) and not isinstance(a, (int, Fraction)) for a in parts)


def need_interval(answer: Any, what: str = "an interval (low, high)") -> tuple[float, float]:
    """A pair (low, high) of numbers with low <= high."""
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        raise WrongKind(f"expected {what}, got {answer!r}")
    lo, hi = need_number(answer[0], what), need_number(answer[1], what)
    if lo > hi:
        raise WrongKind(f"expected {what} with low <= high, got {answer!r}")
    return lo, hi


def need_choice(answer: Any, allowed: tuple[str, ...]) -> str:
    """One of a few words (case and surrounding spaces ignored)."""
    if not isinstance(answer, str) or answer.strip().lower() not in allowed:
        raise WrongKind(f"expected one of {', '.join(repr(a) for a in allowed)}, got {answer!r}")
    return answer.strip().lower()


# Lessons 1-7's checkers follow in the section below.


# --- lesson 1: first interval (Bucket Brigade) ---------------------------------------------------

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


def _ender_cached(bonus, games, seed, _memo={}):
    key = (bonus, games, seed)
    if key not in _memo:
        from meeple.rules import simulate
        from meeple.rules.bucket_brigade import Config

        res = simulate("bucket-brigade", Config(rounds=1, bonus=bonus), "random", games=games, seed=seed,
                       progress=False)
        enders = res.table[res.table["rounds_ended"] == 1]
        _memo[key] = (int(enders["won"].sum()), len(enders), float(res.table["won"].mean()))
    return _memo[key]


@exercise("01.wilson", expects="a pair (low, high), e.g. (0.3, 0.8)")
def _wilson_7_of_10(answer):
    from meeple.rules.stats import Z95, wilson

    lo, hi = need_interval(answer)
    want = wilson(7, 10)
    if abs(lo - want[0]) < 0.003 and abs(hi - want[1]) < 0.003:
        return True, f"{lo:.3f} to {hi:.3f}. Seven of ten is a weak clue: the interval is wide."
    wald = (0.7 - Z95 * math.sqrt(0.21 / 10), 0.7 + Z95 * math.sqrt(0.21 / 10))
    if abs(lo - wald[0]) < 0.003 and abs(hi - wald[1]) < 0.003:
        return False, "that is p ± 1.96·se (the Wald interval); the lesson's interval is Wilson's (`stats.wilson`)."
    if hi > 1.0 or lo < 0.0:
        return False, "a proportion's interval lies between 0 and 1 (write 0.25, not 25)."
    if not lo < 0.7 < hi:
        return False, "the interval should contain the observed proportion 7/10."
    return False, "use `stats.wilson(successes, trials)` with 7 successes in 10 trials."


@exercise("01.ender", expects="your 95% interval (low, high) for the ender's win rate at bonus 6")
def _ender_bonus_6(answer):
    from meeple.rules.stats import wilson

    lo, hi = need_interval(answer)
    if hi > 1.0 or lo < 0.0:
        return False, "a win rate's interval lies between 0 and 1 (write 0.25, not 25)."
    if hi - lo > 0.15:
        return False, f"your interval is {hi - lo:.2f} wide: play more games (a few hundred) to narrow it."
    won, n = ender_win_rate(6)
    elo, ehi = wilson(won, n)
    if hi < elo or lo > ehi:
        return False, ("your interval misses the engine's own estimate: one-round games "
                       "(`Config(rounds=1, bonus=6)`), four random bots, and count only the seat with rounds_ended == 1.")
    fair = ender_fair_share(6)
    verdict = "above" if lo > fair else "not clearly above"
    return True, (f"the engine's {n} rounds give {won / n:.1%} ({elo:.1%} to {ehi:.1%}); your interval overlaps it. "
                  f"It lies {verdict} the fair share (a seat wins or ties {fair:.1%} of rounds): at bonus 6 the "
                  f"ender {'is' if lo > fair else 'may not be'} favoured.")


# --- lesson 2: one die (Piggyback Brigade) -------------------------------------------------------

def _need_faces(answer, what="the die's faces as whole numbers, e.g. (1, 2, 3, 4, 1, 3)") -> tuple[int, ...]:
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__iter__"):
        raise WrongKind(f"expected {what}, got {answer!r}")
    faces = tuple(need_whole(v, what) for v in answer)
    if not 1 <= len(faces) <= 20 or not all(1 <= v <= 9 for v in faces):
        raise WrongKind(f"expected {what}: 1 to 20 faces, each 1 to 9 (the game's limits), got {answer!r}")
    return faces


PRACTICE_DIE = (1, 1, 2, 2, 3, 3)


@exercise("02.moments", expects="a pair (mean, variance) of exact Fractions")
def _moments(answer):
    from meeple.rules import exact

    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        raise WrongKind(f"expected a pair (mean, variance), got {answer!r}")
    d = exact.die(PRACTICE_DIE)
    want_m, want_v = exact.mean(d), exact.variance(d)
    m, hint_m = need_exact(answer[0], want_m, "an exact mean")
    v, hint_v = need_exact(answer[1], want_v, "an exact variance")
    if m is None or v is None:
        return False, hint_m or hint_v
    if m != want_m:
        return False, "the mean is each face's value times its chance, added up (a repeated face counts twice)."
    if v == exact.mean({x: p for x, p in ((x * x, p) for x, p in d.items())}):
        return False, "the mean is right; that variance is the mean of the squares: subtract the squared mean."
    if v != want_v:
        return False, "the mean is right; the variance is the mean of (face − mean)², each face with its chance."
    return True, f"mean {m}, variance {v}: a standard deviation of √({v}) ≈ {float(v) ** 0.5:.2f} spaces."


@exercise("02.die", expects="a die's faces, e.g. (1, 2, 3, 4, 1, 3)")
def _die_mean_2_5_var_1(answer):
    from meeple.rules import exact

    faces = _need_faces(answer)
    d = exact.die(faces)
    m, v = exact.mean(d), exact.variance(d)
    if m == Fraction(5, 2) and v == 1:
        return True, f"{len(faces)} faces {faces}: mean exactly 5/2, variance exactly 1."
    hint = f"your die has mean {m} and variance {v}; the target is mean 5/2 and variance 1."
    if len(faces) % 8:  # 5n/2 and 29n/4 whole, and 29n/4 even (an even sum has an even number of odd faces)
        hint += (f" Can any die with {len(faces)} whole-number faces do it? Work out what the sum of "
                 "the faces and the sum of their squares would have to be.")
    return False, hint


# --- lesson 3: rerolls (Piggyback Brigade) ---------------------------------------------------

CHASE_GAP = 4


@exercise("03.chase", expects="an exact Fraction (the mean spaces of the turn)")
def _chase(answer):
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    cfg = pb.Config()
    want = exact.chase_turn_mean(cfg, CHASE_GAP)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want} ≈ {float(want):.3f} spaces: more than a piglet that is not last, far less than a capped run."
    if x == exact.turn_mean(cfg):
        return False, "that is the turn of a piglet that is never last; this one is last until it passes the other."
    if x == exact.exact_turn_distance(cfg, from_last=True, max_rerolls=12).mean():
        return False, "that reads 'last' as last all turn; last place is judged again before every roll."
    return False, ("write the expected rest of the turn as a function of the gap still to close; "
                   "while the gap is 0 or more every face rerolls, after that black faces stop.")


SEAT_GAMES, SEAT_SEED = 2000, 1


def seat_one_at_four(games: int = SEAT_GAMES, seed: int = SEAT_SEED, _memo={}):
    """(wins, games, low, high) of Player 1 in 4-player games of heuristic bots (cached)."""
    key = (games, seed)
    if key not in _memo:
        from meeple.rules import simulate
        from meeple.rules import piggyback_brigade as pb
        from meeple.rules.stats import wilson

        res = simulate("piggyback-brigade", pb.Config(players=4), "heuristic", games=games, seed=seed, progress=False)
        first = res.table[res.table["seat"] == 0]
        wins = float(first["win_share"].sum())
        _memo[key] = (wins, games, *wilson(wins, games))
    return _memo[key]


@exercise("03.seat", expects="'yes', 'no' or 'cannot tell'")
def _seat_one(answer):
    verdict = need_choice(answer, ("yes", "no", "cannot tell"))
    wins, games, lo, hi = seat_one_at_four()
    truth = "yes" if lo > 0.25 else "no" if hi < 0.25 else "cannot tell"
    if verdict == truth:
        return True, (f"{games} games give Player 1 {wins / games:.1%} ({lo:.1%} to {hi:.1%}) against a fair 25%.")
    if verdict == "cannot tell":
        return False, f"with {games} games the interval is narrow enough to decide: where does it lie against 1/4?"
    return False, "compare the whole interval, not only the win rate, with the fair share 1/4."


# --- lesson 4: a race as a Markov chain (Piggyback Brigade) ----------------------------------------

TARGET_TURNS = 4


def _trial_mean(spaces: int) -> Fraction:
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    return exact.time_trial_mean(pb.Config(), spaces)


@exercise("04.track", expects="a whole number of spaces, e.g. 20")
def _four_turn_track(answer):
    spaces = need_whole(answer, "a whole number of spaces")
    if not 1 <= spaces <= 40:
        raise WrongKind(f"expected a track of 1 to 40 spaces, got {spaces}")
    means = {}
    L = 1
    while True:  # the mean grows with the track: stop once past the target
        means[L] = _trial_mean(L)
        if means[L] > TARGET_TURNS + 1:
            break
        L += 1
    best = min(means, key=lambda k: abs(means[k] - TARGET_TURNS))
    mine = means.get(spaces, _trial_mean(spaces))
    if spaces == best:
        return True, f"{spaces} spaces: a lone piglet needs {float(mine):.3f} turns on average, the closest to {TARGET_TURNS}."
    side = "short" if mine < TARGET_TURNS else "long"
    return False, f"with {spaces} spaces the mean is {float(mine):.3f} turns: too {side}. Is there a track closer to {TARGET_TURNS}?"


@exercise("04.slow", expects="an exact Fraction")
def _more_than_three(answer):
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    dist = exact.time_trial_turns(pb.Config())
    want = exact.at_least(dist, 4)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == exact.at_least(dist, 3):
        return False, "that counts three turns too: 'more than three' starts at four."
    if x == 1 - want:
        return False, "that is the chance of three turns or fewer: the complement."
    return False, "add up the chances of every number of turns above three (or subtract the rest from 1)."


# --- lesson 5: how many games? ---------------------------------------------------------------------

EDGE_FAIR, EDGE = 0.25, 0.03  # a seat winning 28% where a fair share is 25%


def games_for_half_width(p: float, half: float) -> int:
    """Smallest n with z·sqrt(p(1-p)/n) <= half (95%, the normal approximation)."""
    from meeple.rules.stats import Z95

    return math.ceil(Z95 ** 2 * p * (1 - p) / half ** 2)


def games_for_power(p0: float, p1: float, power: float = 0.8) -> int:
    """Smallest n for which a seat whose true rate is p1 has its 95% interval above p0
    with chance `power` (one-sample test of a proportion, normal approximation)."""
    from statistics import NormalDist

    from meeple.rules.stats import Z95

    zb = NormalDist().inv_cdf(power)
    return math.ceil(((Z95 * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2)


@exercise("05.games", expects="a whole number of games")
def _games_for_edge(answer):
    n = need_whole(answer, "a whole number of games")
    if n < 1:
        raise WrongKind(f"expected a positive number of games, got {n}")
    want = games_for_half_width(EDGE_FAIR + EDGE, EDGE)
    if abs(n - want) <= 0.02 * want:
        return True, f"about {want} games: then the interval is ±{EDGE:.0%} around {EDGE_FAIR + EDGE:.0%}."
    if abs(n - games_for_half_width(EDGE_FAIR + EDGE, EDGE / 2)) <= 0.02 * want * 4:
        return False, "that makes the interval 3 points wide in total; the question asks for 3 points either side."
    from meeple.rules.stats import Z95

    p = EDGE_FAIR + EDGE
    return False, (f"{n} games give a half-width of {Z95 * math.sqrt(p * (1 - p) / n):.3f}; "
                   f"solve z·√(p(1−p)/n) = {EDGE} for n.")


@exercise("05.power", expects="a whole number of games")
def _games_for_power(answer):
    n = need_whole(answer, "a whole number of games")
    if n < 1:
        raise WrongKind(f"expected a positive number of games, got {n}")
    want = games_for_power(EDGE_FAIR, EDGE_FAIR + EDGE)
    if abs(n - want) <= 0.05 * want:
        return True, f"about {want} games, roughly twice what the half-width alone suggests."
    if abs(n - games_for_half_width(EDGE_FAIR + EDGE, EDGE)) <= 0.05 * want:
        return False, ("with that many games the estimate lands below 28% about half the time, and then the "
                       "interval often reaches 25%. You need room for the estimate's own wobble.")
    return False, ("the interval must clear 25% (z = 1.96 above it) even when the estimate comes out low "
                   "(an 80% quantile below 28%); add the two distances and solve for n.")


# --- lesson 6: catch-up (Piggyback Brigade, Duck, Duck, Bruce) -----------------------------------

CATCHUP_GAMES, CATCHUP_SEED, CATCHUP_LIMIT = 600, 1, 0.35


def halftime_leader(config, games: int = CATCHUP_GAMES, seed: int = CATCHUP_SEED, bots="heuristic", _memo={}):
    """(leader win rate, low, high, games) of the sole leader after half the turns (cached)."""
    key = (config, games, seed, bots)
    if key not in _memo:
        from meeple.rules import balance_report

        rep = balance_report("piggyback-brigade", config, bots, games=games, seed=seed, progress=False, skill=())
        row = rep.decisiveness[rep.decisiveness["checkpoint"].str.startswith("50%")].iloc[0]
        _memo[key] = (float(row.leader_win_rate), float(row.low), float(row.high), int(row.games))
    return _memo[key]


@exercise("06.catchup", expects="a Piggyback Brigade Config, or its six reroll rules")
def _catch_up_rule(answer):
    from meeple.rules import piggyback_brigade as pb

    if isinstance(answer, pb.Config):
        cfg = answer
    else:
        if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 6:
            raise WrongKind(f"expected a pb.Config or six reroll rules ('yes', 'no', 'if-last'), got {answer!r}")
        try:
            cfg = pb.Config(rerolls=tuple(answer))
        except ValueError as e:
            raise WrongKind(str(e)) from None
    if cfg.max_rerolls is None and all(r == pb.YES for r in cfg.rerolls):
        # as the lesson's rule picker: the first turn runs to the finish, so the 'leader' always wins
        return False, "every face always rerolls, so the first piglet's turn never ends short of the finish: not a race."
    rate, lo, hi, n = halftime_leader(cfg)
    said = f"the half-time leader wins {rate:.1%} of {n} games ({lo:.1%} to {hi:.1%})"
    if hi <= CATCHUP_LIMIT:
        return True, said + f": the whole interval is at most {CATCHUP_LIMIT:.0%}."
    if rate <= CATCHUP_LIMIT:
        return False, said + ": the estimate is low enough, but the interval still reaches above 35%. A stronger catch-up?"
    return False, said + ". Give the piglets behind more help (or the leader less)."


@exercise("06.boost", expects="an exact Fraction (spaces)")
def _catch_up_boost(answer):
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    base = pb.Config()
    plain = pb.Config(rerolls=tuple(pb.NO if r == pb.IF_LAST else r for r in base.rerolls))
    want = exact.chase_turn_mean(base, 4) - exact.chase_turn_mean(plain, 4)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want} ≈ {float(want):.2f} spaces a turn: that is the strength of the catch-up."
    if x == -want:
        return False, "the sign: the base rule gives the chaser more, so the boost is positive."
    return False, "compute `exact.chase_turn_mean` four spaces behind with both reroll rules and subtract."


# --- lesson 7: without replacement (Duck, Duck, Bruce) -----------------------------------------------

def _round_start_after_one_duck():
    """(row suits, remaining {suit: ducks, None: Bruces}) after a round's first flip showed a duck."""
    from collections import Counter

    from meeple.rules import duck_duck_bruce as ddb

    cfg = ddb.Config()
    first = cfg.suits[0]  # every suit is alike: take the first
    left = Counter(None if type(c) is ddb.Bruce else c.suit for c in cfg.deck())
    left[first] -= 1
    return [first], dict(left)


@exercise("07.second", expects="an exact Fraction")
def _second_flip(answer):
    from meeple.rules import duck_duck_bruce as ddb

    row, left = _round_start_after_one_duck()
    cards = sum(left.values())
    want = Fraction(left[row[0]] + left[None], cards)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want}: the cards that bust it over the cards still face down."
    deck = len(ddb.Config().deck())
    if x == Fraction(left[row[0]] + 1 + left[None], deck):
        return False, "that counts the flipped duck as if it went back into the pile: this deck has one card fewer now."
    if x == Fraction(left[None], cards) or x == Fraction(left[row[0]], cards):
        return False, "two kinds of card end the turn on the second flip: count both."
    return False, "count the cards that would end the turn among those still face down."


@exercise("07.no_double", expects="an exact Fraction")
def _no_double(answer):
    from meeple.rules import exact

    row, left = _round_start_after_one_duck()
    want = exact.fresh_flips(row, left, 3)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}: the chain rule, one conditional chance per flip."
    if x == exact.fresh_flips(row, left, 1) ** 3:
        return False, "the three flips are not independent: after each fresh duck the pile is smaller and has one more suit to fear."
    if x == 1 - want:
        return False, "that is the chance the turn ends within three flips: the complement."
    return False, "multiply three conditional chances: each flip must show a duck of a new suit, given the flips before it."


@exercise("07.bruces", expects="an exact Fraction")
def _bruce_in_ten(answer):
    from meeple.rules import duck_duck_bruce as ddb
    from meeple.rules import exact

    cfg = ddb.Config()
    deck = cfg.deck()
    dist = exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck), 10)
    want = exact.at_least(dist, 1)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == dist.get(1):
        return False, "that is exactly one Bruce; the question says at least one."
    return False, "take 1 minus the chance of no Bruce among ten cards drawn without replacement (hypergeometric)."

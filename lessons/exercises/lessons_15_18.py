"""Checkers and answers of lessons 15-18 (registered on import: see the package's docstring).

Every exercise's numbers live in `PARAMS`, one small dict per lesson (the student's, from
`numbers.NUMBERS`): the lesson shows them (through `say`) and each checker computes its
answer from them. Light imports only at the top.

The sampled exercise (17.rounds) takes the student's evidence, the `Results` their
own `simulate` call made, through the course's evidence API (`need_evidence`: the
run answers the question asked, and 90 of its games replay from their seeds), and
only then compares the student's interval with the one the run's own games give.
Each exercise's answer is registered for the teacher's key with `answer_of`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from meeple.rules import duck_duck_bruce as ddb, exact, piggyback_brigade as pb
from meeple.rules.stats import mean_ci

from .checking import WrongKind, exact_answer, exercise, fraction_text
from .evidence import Evidence, interval_and_run, need_evidence, own_interval
from .graded import is_answer
from .key import answer_of
from .numbers import LiveNumbers, exercise_numbers

# What every student is asked the same (17.rounds's race is the student's player count, numbers.NUMBERS).
FIXED = {"15": {}, "16": {"preset": "published-die"}, "17": {"games": 300, "bots": "always-reroll"}, "18": {}}
ROUNDS_SEED = 5  # the seed of 17.rounds's solution: the key plays the solution's own games


class _Params(Mapping):
    """PARAMS["15"] ...: each lesson's exercise numbers for the current student (the course's
    `exercise_numbers`, choices in `exercises.NUMBERS`; without a student id, the defaults)."""

    def __getitem__(self, lesson: str) -> dict:
        numbers = dict(FIXED[lesson])
        numbers.update(exercise_numbers(lesson))
        if "record" in numbers:
            numbers["wins"], numbers["games"] = numbers.pop("record")
        if "steal" in numbers:
            numbers["lead"], numbers["die"] = numbers.pop("steal")
        return numbers

    def __iter__(self):
        return iter(FIXED)

    def __len__(self) -> int:
        return len(FIXED)


PARAMS = _Params()


def live_params(lesson: str) -> LiveNumbers:
    """`PARAMS[lesson]` as the lesson's cells read it: for the student in use at each look-up."""
    return LiveNumbers(lambda: PARAMS[lesson])


def _right(value: Fraction, what: str) -> str:
    return f"{what} is {fraction_text(value)} (about {float(value):.4g})."


# --- lesson 15: a win rate's posterior ------------------------------------------------

def posterior_15(params=None) -> tuple[int, int]:
    p = params or PARAMS["15"]

    return exact.beta_posterior(*p["prior"], p["wins"], p["games"])


@exercise("15.posterior_mean", "the posterior mean as an exact Fraction", varied=True, sealed=True)
def _posterior_mean(answer):
    p = PARAMS["15"]
    a, b = posterior_15()
    right = Fraction(a, a + b)
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, _right(right, "The posterior mean") + " It lies between the prior's mean and the record's share."
    if got == Fraction(p["wins"], p["games"]):
        return False, "that is the share of games won, the data alone: the prior's a and b join the wins and losses."
    pa, pb = p["prior"]
    if got == Fraction(pa + p["wins"], pa + pb + p["wins"]):
        return False, "the posterior adds the wins to a and the *losses* (games minus wins) to b."
    if got == Fraction(pa, pa + pb):
        return False, "that is the prior's mean: add the record first."
    return False, "the posterior of Beta(a, b) after k wins in n games is Beta(a + k, b + n - k); its mean is a / (a + b)."


@exercise("15.above_fair", "the posterior chance as an exact Fraction", varied=True, sealed=True)
def _above_fair(answer):
    p = PARAMS["15"]
    a, b = posterior_15()
    right = 1 - exact.beta_cdf(a, b, p["fair"])
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, _right(right, f"P(the win rate is above {p['fair']})")
    if got == exact.beta_cdf(a, b, p["fair"]):
        return False, "that is the chance the rate is *below* the fair share: take the complement."
    flat = exact.beta_posterior(1, 1, p["wins"], p["games"])
    if got == 1 - exact.beta_cdf(*flat, p["fair"]):
        return False, "that is the posterior from a flat prior, Beta(1, 1): use the designer's prior."
    return False, "find the posterior Beta(a, b) first, then 1 - exact.beta_cdf(a, b, fair)."


# --- lesson 16: sums of turns -----------------------------------------------------------

@exercise("16.at_most", "the exact chance as a Fraction", varied=True, sealed=True)
def _at_most(answer):
    p = PARAMS["16"]
    dist = exact.distance_after(pb.Config(), p["turns"], p["at_most"])
    right = sum(dist.values(), Fraction(0))
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, _right(right, f"P(at most {p['at_most']} spaces in {p['turns']} turns)")
    if got == 1 - right:
        return False, "that is the chance of moving *more* than that: the complement."
    if got == dist.get(p["at_most"], 0):
        return False, "that is the chance of exactly that distance: add every distance up to it."
    below = sum((q for d, q in dist.items() if d < p["at_most"]), Fraction(0))
    if got == below:
        return False, "off by one: 'at most' includes the distance itself."
    return False, f"convolve the turn's distribution {p['turns']} times (exact.distance_after) and add the chances up to the distance."


def published_16(p=None) -> pb.Config:
    """16.variance's die: the preset's, with the student's cap on rerolls a turn (None: no cap)."""
    p = p or PARAMS["16"]
    return dataclasses.replace(pb.Config.presets()[p["preset"]], max_rerolls=p["max_rerolls"])


@exercise("16.variance", "the exact variance as a Fraction", varied=True, sealed=True)
def _variance(answer):
    p = PARAMS["16"]
    cfg = published_16(p)
    m, v = exact.turn_moments(cfg)
    right = p["variance_turns"] * v
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, _right(right, f"The variance after {p['variance_turns']} turns") + " Variances of independent turns add."
    if got == v:
        return False, "that is one turn's variance: independent turns' variances add."
    if got == p["variance_turns"] ** 2 * v:
        return False, "variances of independent turns add; n squared times is the variance of one turn scaled by n."
    base = exact.turn_moments(dataclasses.replace(pb.Config(), max_rerolls=p["max_rerolls"]))[1]
    if got == p["variance_turns"] * base:
        return False, f"that is the base die's; the exercise asks for the {p['preset']} preset."
    if p["max_rerolls"] is not None and got == p["variance_turns"] * exact.turn_moments(pb.Config.presets()[p["preset"]])[1]:
        return False, f"that is the die without a cap; the exercise's turns reroll at most {p['max_rerolls']} times (max_rerolls)."
    return False, "find one turn's variance for this die (exact.turn_moments) and use that independent turns' variances add."


# --- lesson 17: the first of several piglets -------------------------------------------

def _lone_race(spaces: int, _memo={}):  # noqa: B006 - the default dict is the cache, kept across calls
    """exact.time_trial_turns of the base rules on a track of `spaces` spaces (worked out once per track)."""
    if spaces not in _memo:
        _memo[spaces] = exact.time_trial_turns(pb.Config(), spaces)
    return _memo[spaces]


def race_config_17(players: int | None = None):
    """The race the exercise asks about: one piglet a player, no extensions (PB-2, PB-12 set aside)."""
    return pb.Config(players=players or PARAMS["17"]["race_players"], piglets_each=(1,) * 6, extensions=(0,) * 6)


@exercise("17.first_by", "the model's exact chance as a Fraction", varied=True, sealed=True)
def _first_by(answer):
    p = PARAMS["17"]
    n, r = p["players"], p["rounds"]
    trial = _lone_race(p["first_spaces"])
    alone = exact.at_most(trial, r)
    right = 1 - (1 - alone) ** n
    got = exact_answer(answer, right, "an exact Fraction")
    if got == right:
        return True, _right(right, f"P(one of {n} independent piglets crosses within {r} rounds)")
    if got == alone:
        return False, f"that is one piglet's chance: the race is over when the *first* of {n} crosses."
    if got == alone ** n:
        return False, "that is the chance that every piglet has crossed; the race needs only one."
    if got == 1 - (1 - exact.at_most(trial, r - 1)) ** n:
        return False, "off by one round: 'within' includes the last round named."
    if p["first_spaces"] != pb.Config().spaces and got == 1 - (1 - exact.at_most(_lone_race(pb.Config().spaces), r)) ** n:
        return False, f"that is on the base track; the exercise's track has {p['first_spaces']} spaces (exact.time_trial_turns(config, spaces))."
    return False, "P(the first of n crosses by round r) = 1 - P(one piglet has not) ** n."


def race_rounds(results) -> list[int]:
    """Rounds each game of a run lasted: the winning roll ends the last turn, so ceil(turns / players)."""
    n = results.config.players
    return [-(-g.turns // n) for g in results.records]


@exercise("17.rounds", "(interval, games): your 95% interval of the mean rounds and the simulate(...) result it came from", varied=True, sealed=False)
def _rounds(answer):
    p = PARAMS["17"]
    (lo, hi), run = interval_and_run(answer, run_first=False, example=(
        "(interval, games): your (low, high) and the simulate(...) result it came from"))
    ev = need_evidence(run, game=pb.NAME, config=race_config_17(), bots=p["bots"], games=p["games"])
    rounds = race_rounds(ev)
    inside = lo <= sum(rounds) / len(rounds) <= hi
    m, low, high = own_interval((lo, hi), rounds, (
        "your interval is not the 95% interval of your own games' rounds ({low:.3f} to {high:.3f}): one value per "
        "game, ceil(turns / players), then stats.mean_ci." if inside else
        "your interval does not hold your own games' mean rounds: count rounds per game, ceil(turns / players)."))
    model = float(exact.mean(exact.first_to_finish(pb.Config(), p["race_players"])["rounds"]))
    inside = low <= model <= high
    return True, (f"{len(ev.records)} genuine games (a sample replayed from their seeds) last {m:.3f} rounds "
                  f"({low:.3f} to {high:.3f}); the independent model's {model:.3f} lies {'inside' if inside else 'outside'} it.")


# --- lesson 18: the guarded steal -------------------------------------------------------

def guarded_matrix_18(lead: int | None = None, die: tuple | None = None):
    """(claims, guards, matrix) of lesson 18's variant with the student's steal die (or `die`): the thief's
    win chance for each claim (rows) against each guard (columns), as the lesson builds it (not an answer: the game)."""
    p = PARAMS["18"]
    table = exact.guarded_steal_matrix(ddb.Config(die=p["die"] if die is None else die), p["lead"] if lead is None else lead)
    claims = sorted({d for d, _ in table})
    guards = sorted({g for _, g in table})
    return claims, guards, [[table[(d, g)] for g in guards] for d in claims]


def guarded_18(lead: int | None = None, die: tuple | None = None):
    """(claims, guards, matrix, (thief mix, victim mix, value)) of lesson 18's variant, the student's die:
    the game solved (18.value's and 18.mix's answers; a graded build leaves this out)."""
    claims, guards, matrix = guarded_matrix_18(lead, die)
    return claims, guards, matrix, exact.solve_zero_sum(matrix)


@exercise("18.value", "the game's exact value (the thief's win chance) as a Fraction", varied=True, sealed=True)
def _value(answer):
    claims, guards, matrix, (x, y, v) = guarded_18()
    got = exact_answer(answer, v, "an exact Fraction")
    if got == v:
        return True, _right(v, "The value of the guarded steal")
    if got == max(min(row) for row in matrix):
        return False, "that is the best the thief can guarantee with one fixed claim; a mix guarantees more."
    if got == min(max(r[j] for r in matrix) for j in range(len(guards))):
        return False, "that is the best the victim can hold the thief to with one fixed guard; a mix does better."
    if got == 1 - v:
        return False, "that is the victim's chance; the exercise asks for the thief's."
    die = PARAMS["18"]["die"]
    if die != ddb.Config().die and got == guarded_18(die=ddb.Config().die)[3][2]:
        return False, f"that is the base die's game; yours rolls the die {die} (ddb.Config(die={die}))."
    return False, "solve the matrix (exact.solve_zero_sum) or make every claim in the mix equally good against the victim's mix."


@exercise("18.mix", "the thief's mix as a tuple of exact Fractions, one per claim (0 = decline, 1, 2, 3)", varied=True, sealed=False)
def _mix(answer):
    claims, guards, matrix = guarded_matrix_18()  # not the solved game: a graded build seals its value
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != len(claims):
        raise WrongKind(f"expected {len(claims)} chances, one per claim {tuple(claims)}, e.g. a tuple of Fractions")
    mix = []
    for a in answer:
        if isinstance(a, bool) or not isinstance(a, (int, Fraction)):
            if isinstance(a, float):
                return False, ("give each chance exactly, as a Fraction: a rounded mix is a little exploitable, "
                               "and the checker tests it exactly.")
            raise WrongKind(f"expected Fractions, got {a!r}")
        mix.append(Fraction(a))
    if min(mix) < 0 or sum(mix) != 1:
        return False, "a mix is chances: none negative, all adding up to 1."
    worst = min(sum(mix[i] * matrix[i][j] for i in range(len(claims))) for j in range(len(guards)))
    if is_answer("18.value", worst):  # it guarantees the game's value: an optimal mix
        return True, f"against every guard this mix wins at least {worst}, the game's value: no guard exploits it."
    best_guard = min(range(len(guards)), key=lambda j: sum(mix[i] * matrix[i][j] for i in range(len(claims))))
    return False, (f"the victim can guard claim {guards[best_guard]} and hold this mix to {worst} "
                   f"(about {float(worst):.3f}); the equilibrium mix leaves every guard the same.")


# --- the answer key (`meeple.course.exercises.answer`), computed as the checkers compute it ------

@answer_of("15.posterior_mean")
def _posterior_mean_answer():
    a, b = posterior_15()
    return Fraction(a, a + b)


@answer_of("15.above_fair")
def _above_fair_answer():
    return 1 - exact.beta_cdf(*posterior_15(), PARAMS["15"]["fair"])


@answer_of("16.at_most")
def _at_most_answer():
    p = PARAMS["16"]
    return sum(exact.distance_after(pb.Config(), p["turns"], p["at_most"]).values(), Fraction(0))


@answer_of("16.variance")
def _variance_answer():
    p = PARAMS["16"]
    return p["variance_turns"] * exact.turn_moments(published_16(p))[1]


@answer_of("17.first_by")
def _first_by_answer():
    p = PARAMS["17"]
    return 1 - (1 - exact.at_most(_lone_race(p["first_spaces"]), p["rounds"])) ** p["players"]


@answer_of("17.rounds")
def _rounds_answer():
    """The interval the solution's own games give (seed ROUNDS_SEED; a student's games give their own)."""
    p = PARAMS["17"]
    return _rounds_interval(p["race_players"], p["bots"], p["games"], ROUNDS_SEED)


@lru_cache(maxsize=8)
def _rounds_interval(players: int, bots: str, games: int, seed: int) -> "tuple[float, float]":
    ev = Evidence.play("piggyback-brigade", race_config_17(players), bots, games, seed)
    return tuple(mean_ci(race_rounds(ev))[1:])


@answer_of("18.value")
def _value_answer():
    return guarded_18()[3][2]


@answer_of("18.mix")
def _mix_answer():
    return tuple(guarded_18()[3][0])

"""Checkers and answers of lessons 1-7 (registered on import: see the package's docstring)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from statistics import NormalDist

from meeple.rules import duck_duck_bruce as ddb, exact, piggyback_brigade as pb, simulate
from meeple.rules.bucket_brigade import Config
from meeple.rules.stats import Z95, wilson

from .checking import WrongKind, agrees_to_digits, exact_answer, exercise, need_choice, need_interval, need_whole
from .evidence import Evidence, interval_and_run, need_evidence
from .key import answer_of, expected
from .numbers import exercise_numbers

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
        "(interval, games): your (low, high) and what simulate(...) returned, e.g. check('01.ender', (ender_interval, six))"))
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


# --- lesson 2: one die (Piggyback Brigade) -------------------------------------------------------

def _need_faces(answer, what="the die's faces as whole numbers, e.g. (1, 2, 3, 4, 1, 3)") -> tuple[int, ...]:
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__iter__"):
        raise WrongKind(f"expected {what}, got {answer!r}")
    faces = tuple(need_whole(v, what) for v in answer)
    if not 1 <= len(faces) <= 20 or not all(1 <= v <= 9 for v in faces):
        raise WrongKind(f"expected {what}: 1 to 20 faces, each 1 to 9 (the game's limits), got {answer!r}")
    return faces


PRACTICE_DIE = (1, 1, 2, 2, 3, 3)  # the lesson's own practice die (a student's: exercise_numbers("02"))


def can_have(sides: int, mean: Fraction, variance: Fraction) -> bool:
    """Whether a die of `sides` whole-number faces could have this mean and variance at all: the
    faces' sum (sides·mean) and sum of squares (sides·(variance + mean²)) must be whole, and alike
    in parity (x² and x are both odd or both even, so the two sums are too)."""
    total, squares = sides * mean, sides * (variance + mean * mean)
    return total.denominator == 1 and squares.denominator == 1 and (total - squares) % 2 == 0


@exercise("02.moments", expects="a pair (mean, variance) of exact Fractions", varied=True, sealed=True)
def _moments(answer):
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        raise WrongKind(f"expected a pair (mean, variance), got {answer!r}")
    d = exact.die(exercise_numbers("02")["practice_die"])
    want_m, want_v = expected("02.moments")
    m = exact_answer(answer[0], want_m, "an exact mean")
    v = exact_answer(answer[1], want_v, "an exact variance")
    if m != want_m:
        return False, "the mean is each face's value times its chance, added up (a repeated face counts twice)."
    if v == exact.mean({x: p for x, p in ((x * x, p) for x, p in d.items())}):
        return False, "the mean is right; that variance is the mean of the squares: subtract the squared mean."
    if v != want_v:
        return False, "the mean is right; the variance is the mean of (face − mean)², each face with its chance."
    return True, f"mean {m}, variance {v}: a standard deviation of √({v}) ≈ {float(v) ** 0.5:.2f} spaces."


@exercise("02.die", expects="a die's faces, e.g. (1, 2, 3, 4, 1, 3)", varied=True, sealed=False)
def _die_mean_2_5_var_1(answer):
    faces = _need_faces(answer)
    d = exact.die(faces)
    m, v = exact.mean(d), exact.variance(d)
    want_m, want_v = (Fraction(x) for x in exercise_numbers("02")["target"])
    if m == want_m and v == want_v:
        return True, f"{len(faces)} faces {faces}: mean exactly {want_m}, variance exactly {want_v}."
    hint = f"your die has mean {m} and variance {v}; the target is mean {want_m} and variance {want_v}."
    if not can_have(len(faces), want_m, want_v):
        hint += (f" Can any die with {len(faces)} whole-number faces do it? Work out what the sum of "
                 "the faces and the sum of their squares would have to be.")
    return False, hint


# --- lesson 3: rerolls (Piggyback Brigade) ---------------------------------------------------

CHASE_GAP = 5  # the lesson's own gap (a student's: exercise_numbers("03")["gap"])


def chase_rules(lesson: str = "03") -> pb.Config:
    """The base rules with this student's die of 03.chase (lesson "03") or 06.boost ("06"): its faces, the base colours."""
    return pb.Config(faces=exercise_numbers(lesson)["die"])


@exercise("03.chase", expects="an exact Fraction (the mean spaces of the turn)", varied=True, sealed=True)
def _chase(answer):
    cfg, gap = chase_rules(), exercise_numbers("03")["gap"]
    want = expected("03.chase")
    x = exact_answer(answer, want)
    if x == want:
        return True, (f"{want} ≈ {float(want):.3f} spaces: more than the {float(exact.turn_mean(cfg)):.3f} of a piglet "
                      "that is not last.")
    if x == exact.turn_mean(cfg):
        return False, "that is the turn of a piglet that is never last; this one is last until it passes the other."
    if x == exact.exact_turn_distance(cfg, from_last=True, max_rerolls=12).mean():
        return False, "that reads 'last' as last all turn; last place is judged again before every roll."
    if cfg != pb.Config() and x == exact.chase_turn_mean(pb.Config(), gap):
        return False, f"that is the base die's chase; yours has the faces {cfg.faces} (pb.Config(faces={cfg.faces}))."
    return False, ("write the expected rest of the turn as a function of the gap still to close; "
                   "while the gap is 0 or more every face rerolls, after that black faces stop.")


SEAT_GAMES, SEAT_SEED = 2000, 1  # the lesson's games and seed (a student's table and seat: seat_question())


def seat_question() -> "tuple[int, int]":
    """(players, seat) 03.seat asks this student about: is Player `seat` (1 = the first) favoured
    in games of that many players? (issue 37: Player 1 was favoured at every count, so the answer
    was "yes" for the whole class; the later seats are not.)"""
    players, seat = exercise_numbers("03")["seat"]
    return players, seat


def seat_players() -> int:
    """The number of players 03.seat asks this student about."""
    return seat_question()[0]


def seat_one(records, seat: int = 0) -> "tuple[float, int, float, float]":
    """(Player seat+1's win share summed, games, low, high) from a run's games (a shared win counts 1/k)."""
    shares = [1 / len(g.winners) if seat in g.winners else 0.0 for g in records]
    return (math.fsum(shares), len(shares), *wilson(math.fsum(shares), len(shares)))


def seat_one_at_four(games: int = SEAT_GAMES, seed: int = SEAT_SEED, players: "int | None" = None, seat: "int | None" = None,
                     _memo={}):  # noqa: B006 - the default dict is the cache, kept across calls
    """(wins, games, low, high) of Player `seat` (1-based) in games of heuristic bots (default: this
    student's player count and seat; cached). Standard library: the site's Python runs it."""
    mine = seat_question()
    players = mine[0] if players is None else players
    seat = (mine[1] if players == mine[0] else 1) if seat is None else seat
    key = (games, seed, players)
    if key not in _memo:
        _memo[key] = Evidence.play("piggyback-brigade", pb.Config(players=players), "heuristic",
                                   games=games, seed=seed).records
    return seat_one(_memo[key], seat - 1)


def _verdict(low: float, high: float, fair: float) -> str:
    return "yes" if low > fair else "no" if high < fair else "cannot tell"


@exercise("03.seat", expects="(answer, games): 'yes', 'no' or 'cannot tell', and the simulate(...) result it came from", varied=True, sealed=False)
def _seat_one(answer):
    example = "(favoured, games): your 'yes', 'no' or 'cannot tell' and what simulate(...) returned"
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (tuple, list)) or len(answer) != 2:
        raise WrongKind(f"pass the pair {example}; got {answer!r:.80}")
    said, run = answer
    verdict = need_choice(said, ("yes", "no", "cannot tell"))
    players, seat = seat_question()
    fair = 1 / players
    ev = need_evidence(run, game="piggyback-brigade", config=pb.Config(players=players), bots="heuristic",
                       games=SEAT_GAMES, rotate=False)
    wins, games, lo, hi = seat_one(ev.records, seat - 1)
    truth = _verdict(lo, hi, fair)
    if verdict == truth:
        return True, (f"your {games} games give Player {seat} {wins / games:.1%} ({lo:.1%} to {hi:.1%}) against a fair "
                      f"{fair:.1%} (1/{players}), replayed from their seeds.")
    if verdict == "cannot tell":
        return False, f"with {games} games the interval is narrow enough to decide: where does it lie against 1/{players}?"
    return False, (f"compare Player {seat}'s whole interval (seat index {seat - 1}), not only its win rate, with the "
                   f"fair share 1/{players}; 'cannot tell' when the interval holds it.")


# --- lesson 4: a race as a Markov chain (Piggyback Brigade) ----------------------------------------

TARGET_TURNS = 5  # the lesson's own target (a student's: exercise_numbers("04")["turns"])


def _trial_mean(spaces: int, _memo={}) -> Fraction:  # noqa: B006 - the default dict is the cache, kept across calls
    if spaces in _memo:
        return _memo[spaces]

    _memo[spaces] = exact.time_trial_mean(pb.Config(), spaces)
    return _memo[spaces]


@exercise("04.track", expects="a whole number of spaces, e.g. 20", varied=True, sealed=True)
def _four_turn_track(answer):
    spaces = need_whole(answer, "a whole number of spaces")
    if not 1 <= spaces <= 100:  # the targets' tracks reach 90 spaces (numbers.TRACK_TURNS)
        raise WrongKind(f"expected a track of 1 to 100 spaces, got {spaces}")
    turns = exercise_numbers("04")["turns"]
    best = expected("04.track")
    mine = _trial_mean(spaces)
    if spaces == best:
        return True, f"{spaces} spaces: a lone piglet needs {float(mine):.3f} turns on average, the closest to {turns}."
    side = "short" if mine < turns else "long"
    return False, f"with {spaces} spaces the mean is {float(mine):.3f} turns: too {side}. Is there a track closer to {turns}?"


@exercise("04.slow", expects="an exact Fraction", varied=True, sealed=True)
def _more_than_three(answer):
    k, spaces = exercise_numbers("04")["more_than"], exercise_numbers("04")["slow_spaces"]
    dist = _trial_turns(spaces)
    want = expected("04.slow")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == exact.at_least(dist, k):
        return False, f"that counts {k} turns too: 'more than {k}' starts at {k + 1}."
    if x == 1 - want:
        return False, f"that is the chance of {k} turns or fewer: the complement."
    if spaces != pb.Config().spaces and x == exact.at_least(_trial_turns(pb.Config().spaces), k + 1):
        return False, f"that is on the base track; exercise 2's track has {spaces} spaces (exact.time_trial_turns(config, {spaces}))."
    return False, f"on {spaces} spaces, add up the chances of every number of turns above {k} (or subtract the rest from 1)."


# --- lesson 5: how many games? ---------------------------------------------------------------------

EDGE_FAIR, EDGE = 0.25, 0.03  # the lesson's own seat: winning 28% where a fair share is 25%
HALF = 0.02  # 05.games: the lesson's own half-width (the lesson shows the games for a half-width of EDGE)


def edge_question() -> "tuple[float, float, float]":
    """(fair share, the seat's true rate, half-width asked for) of this student's lesson 5 exercises."""
    mine = exercise_numbers("05")
    return EDGE_FAIR, EDGE_FAIR + mine["edge"], mine["half"]


def games_for_half_width(p: float, half: float) -> int:
    """Smallest n with z·sqrt(p(1-p)/n) <= half (95%, the normal approximation)."""
    return math.ceil(Z95 ** 2 * p * (1 - p) / half ** 2)


def games_for_power(p0: float, p1: float, power: float = 0.8) -> int:
    """Smallest n for which a seat whose true rate is p1 has its 95% interval above p0
    with chance `power` (one-sample test of a proportion, normal approximation)."""
    zb = NormalDist().inv_cdf(power)
    return math.ceil(((Z95 * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2)


def need_games(answer) -> int:
    """The reader's answer as a number of games: a whole number, at least 1 (else WrongKind saying so)."""
    n = need_whole(answer, "a whole number of games")
    if n < 1:
        raise WrongKind(f"expected a positive number of games, got {n}")
    return n


# Shaped like 05.power on purpose: one question, its own tolerance and its own wrong-turn hint.
@exercise("05.games", expects="a whole number of games", varied=True, sealed=False)
def _games_for_edge(answer):
    n = need_games(answer)
    _, p, half = edge_question()
    want = expected("05.games")
    if abs(n - want) <= 0.02 * want:
        return True, f"about {want} games: then the interval is ±{half * 100:g} points around {p:.0%}."
    if abs(n - games_for_half_width(p, half / 2)) <= 0.02 * want * 4:
        return False, (f"that makes the interval {half * 100:g} points wide in total; the question asks for "
                       f"{half * 100:g} points either side.")

    return False, (f"{n} games give a half-width of {Z95 * math.sqrt(p * (1 - p) / n):.3f}; "
                   f"solve z·√(p(1−p)/n) = {half:g} for n.")


# Shaped like 05.games on purpose: one question, its own tolerance and its own wrong-turn hint.
@exercise("05.power", expects="a whole number of games", varied=True, sealed=False)
def _games_for_power(answer):
    n = need_games(answer)
    fair, p, _ = edge_question()
    want = expected("05.power")
    if abs(n - want) <= 0.05 * want:
        return True, f"about {want} games, roughly twice what the half-width alone suggests."
    if abs(n - games_for_half_width(p, p - fair)) <= 0.05 * want:
        return False, (f"with that many games the estimate lands below {p:.0%} about half the time, and then the "
                       f"interval often reaches {fair:.0%}. You need room for the estimate's own wobble.")
    return False, (f"the interval must clear {fair:.0%} (z = 1.96 above it) even when the estimate comes out low "
                   f"(an 80% quantile below {p:.0%}); add the two distances and solve for n.")


# --- lesson 6: catch-up (Piggyback Brigade, Duck, Duck, Bruce) -----------------------------------

CATCHUP_GAMES, CATCHUP_SEED = 600, 1  # the lesson's games and seed (a student's target: catchup_question())
_Y, _N, _L = pb.YES, pb.NO, pb.IF_LAST
# The rules the answer key tries, in order, for a student's target (06.catchup is open: any rule whose
# interval lies inside the target passes): from the most catch-up to none, the six faces' rules.
CATCHUP_RULES = ((_Y, _L, _L, _L, _L, _L), (_Y, _Y, _L, _L, _L, _L), (_L, _L, _L, _L, _N, _N), (_L, _L, _N, _N, _N, _N),
                 (_Y, _Y, _Y, _L, _L, _L), (_N, _N, _N, _N, _N, _N), (_Y, _Y, _N, _N, _N, _N), (_Y, _Y, _Y, _Y, _N, _L),
                 (_Y, _Y, _Y, _Y, _Y, _L), (_Y, _Y, _Y, _Y, _L, _N), (_Y, _Y, _Y, _N, _N, _N))


def catchup_question() -> "tuple[int, float, float]":
    """(players, low, high) of this student's 06.catchup: in games of that many players the
    half-time leader should win between `low` and `high`, the whole interval inside (issue 37: an
    upper limit alone let the lesson's own strong catch-up pass for every student)."""
    players, low, high = exercise_numbers("06")["catchup"]
    return players, low / 100, high / 100


HALFTIME = 1  # GameResult.turn_leaders[1]: the sole leader after 50% of the turns (meeple.rules.sim.CHECKPOINTS)


def leader_at_half(records) -> "list[float]":
    """Per game with a sole leader after half the turns: that leader's win share (1/k of a k-way win),
    from the games' own records, as balance_report's decisiveness counts it (standard library)."""
    at = HALFTIME
    return [1 / len(g.winners) if g.turn_leaders[at] in g.winners else 0.0
            for g in records if g.turn_leaders[at] is not None]


def halftime_leader(config, games: int = CATCHUP_GAMES, seed: int = CATCHUP_SEED, bots="heuristic", _memo={}):  # noqa: B006 - the default dict is the cache, kept across calls
    """(leader win rate, low, high, games) of the sole leader after half the turns, the bots rotated
    through the seats as balance_report rotates them (cached; standard library: the site runs it)."""
    key = (config, games, seed, bots)
    if key not in _memo:
        ev = Evidence.play("piggyback-brigade", config, bots, games=games, seed=seed, rotate=True)
        wins = leader_at_half(ev.records)
        _memo[key] = (math.fsum(wins) / len(wins), *wilson(math.fsum(wins), len(wins)), len(wins))
    return _memo[key]


@exercise("06.catchup", expects="a Piggyback Brigade Config, or its six reroll rules", varied=True, sealed=False)
def _catch_up_rule(answer):
    players, low, high = catchup_question()
    if isinstance(answer, pb.Config):
        cfg = answer
        if cfg.players != players:
            return False, (f"your rules are for {cfg.players} players; your question is about {players}-player games "
                           f"(pb.Config(players={players}, rerolls=...)).")
    else:
        if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 6:
            raise WrongKind(f"expected a pb.Config or six reroll rules ('yes', 'no', 'if-last'), got {answer!r}")
        try:
            cfg = pb.Config(players=players, rerolls=tuple(answer))
        except ValueError as e:
            raise WrongKind(str(e)) from None
    if cfg.max_rerolls is None and all(r == pb.YES for r in cfg.rerolls):
        # as the lesson's rule picker: the first turn runs to the finish, so the 'leader' always wins
        return False, "every face always rerolls, so the first piglet's turn never ends short of the finish: not a race."
    rate, lo, hi, n = halftime_leader(cfg)
    said = f"with {players} players the half-time leader wins {rate:.1%} of {n} games ({lo:.1%} to {hi:.1%})"
    if low <= lo and hi <= high:
        return True, said + f": the whole interval lies between {low:.0%} and {high:.0%}."
    if hi > high:
        more = "the estimate is low enough, but the interval still reaches above" if rate <= high else "above"
        return False, said + f": {more} {high:.0%}. Give the piglets behind more help (or the leader less)."
    more = "the estimate is high enough, but the interval still reaches below" if rate >= low else "below"
    return False, said + f": {more} {low:.0%}. Less catch-up: leading should count for more than that."


# Same shape as every exact checker (the answer read once, then this exercise's own named mistakes): written out on purpose.
def _plain(cfg: pb.Config) -> pb.Config:
    """These rules with black faces that never reroll."""
    return pb.Config(faces=cfg.faces, rerolls=tuple(pb.NO if r == pb.IF_LAST else r for r in cfg.rerolls))


@exercise("06.boost", expects="an exact Fraction (spaces)", varied=True, sealed=True)
def _catch_up_boost(answer):
    want = expected("06.boost")
    x = exact_answer(answer, want)
    cfg, gap = chase_rules("06"), exercise_numbers("06")["gap"]
    if x == want:
        return True, f"{want} ≈ {float(want):.2f} spaces a turn: that is the strength of the catch-up."
    if x == -want:
        return False, "the sign: the base rule gives the chaser more, so the boost is positive."
    if cfg != pb.Config() and x == exact.chase_turn_mean(pb.Config(), gap) - exact.chase_turn_mean(_plain(pb.Config()), gap):
        return False, f"that is the base die's boost; yours has the faces {cfg.faces} (pb.Config(faces={cfg.faces}))."
    return False, (f"compute `exact.chase_turn_mean` {gap} spaces behind with both reroll rules, on your die "
                   f"{cfg.faces}, and subtract.")


# --- lesson 7: without replacement (Duck, Duck, Bruce) -----------------------------------------------

def _rules_07():
    """Lesson 7's exercise deck: the base deck's first colours and this student's number of Bruces (their `deck`)."""
    suits, bruces = exercise_numbers("07")["deck"]
    return ddb.Config(suits=ddb.Config().suits[:suits], bruce_cards=bruces)


def _round_start_after_one_duck(ducks: int = 1):
    """(row suits, remaining {suit: ducks, None: Bruces}) after a round's first `ducks` flips
    showed ducks of that many different suits."""
    cfg = _rules_07()
    row = list(cfg.suits[:ducks])  # every suit is alike: take the first ones
    left = Counter(None if type(c) is ddb.Bruce else c.suit for c in cfg.deck())
    for suit in row:
        left[suit] -= 1
    return row, dict(left)


def _third_flip_answer() -> Fraction:
    row, left = _round_start_after_one_duck(exercise_numbers("07")["seen"])
    return Fraction(sum(left[s] for s in row) + left[None], sum(left.values()))


@exercise("07.third", expects="an exact Fraction", varied=True, sealed=True)
def _third_flip(answer):
    seen = exercise_numbers("07")["seen"]
    row, left = _round_start_after_one_duck(seen)
    cards = sum(left.values())
    want = expected("07.third")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want}: the cards that bust it over the cards still face down."
    deck = len(_rules_07().deck())
    if x == Fraction(sum(left[s] for s in row) + len(row) + left[None], deck):
        return False, f"that counts the flipped ducks as if they went back into the pile: this deck has {seen} cards fewer now."
    if x == Fraction(sum(left[s] for s in row) + left[None], cards + seen - 1):
        return False, f"{seen} cards have left the pile, not one: count what is still face down after all {seen} flips."
    if x in (Fraction(left[None], cards), Fraction(sum(left[s] for s in row), cards),
             Fraction(left[row[0]] + left[None], cards)):
        return False, "a Bruce and a duck of any suit in the row end the turn: count all of them."
    return False, "count the cards that would end the turn among those still face down."


@exercise("07.no_double", expects="an exact Fraction", varied=True, sealed=True)
def _no_double(answer):
    row, left = _round_start_after_one_duck()
    want = expected("07.no_double")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}: the chain rule, one conditional chance per flip."
    if x == exact.fresh_flips(row, left, 1) ** 3:
        return False, "the three flips are not independent: after each fresh duck the pile is smaller and has one more suit to fear."
    if x == 1 - want:
        return False, "that is the chance the turn ends within three flips: the complement."
    return False, "multiply three conditional chances: each flip must show a duck of a new suit, given the flips before it."


@exercise("07.bruces", expects="an exact Fraction", varied=True, sealed=True)
def _bruce_in_ten(answer):
    deck = _rules_07().deck()
    cards = exercise_numbers("07")["cards"]
    dist = exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck), cards)
    want = expected("07.bruces")
    x = exact_answer(answer, want)
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == dist.get(1):
        return False, "that is exactly one Bruce; the question says at least one."
    return False, f"take 1 minus the chance of no Bruce among {cards} cards drawn without replacement (hypergeometric)."



# --- the answers of lessons 1-7 (the teacher's key: `meeple answers`) --------------------------

@answer_of("01.wilson")
def _wilson_answer():
    return wilson(*exercise_numbers("01")["won_of"])


@answer_of("01.ender")
def _ender_answer():
    return wilson(*ender_win_rate(ender_bonus()))  # the engine's estimate; a student's own games give their own


@answer_of("02.moments")
def _moments_answer():
    d = exact.die(exercise_numbers("02")["practice_die"])
    return exact.mean(d), exact.variance(d)


@answer_of("02.die")
def _die_answer():
    return die_with(*(Fraction(x) for x in exercise_numbers("02")["target"]))


@lru_cache(maxsize=None)
def die_with(want_m: Fraction, want_v: Fraction) -> "tuple[int, ...] | None":
    """A die of the fewest whole-number faces (1 to 9, at most 20) with this mean and variance."""
    for n in (n for n in range(1, 21) if can_have(n, want_m, want_v)):  # the fewest faces that can
        for faces in combinations_with_replacement(range(1, 10), n):
            d = exact.die(faces)
            if exact.mean(d) == want_m and exact.variance(d) == want_v:
                return faces


@answer_of("03.chase")
def _chase_answer():
    return exact.chase_turn_mean(chase_rules(), exercise_numbers("03")["gap"])


@answer_of("03.seat")
def _seat_answer():
    wins, games, lo, hi = seat_one_at_four()
    return _verdict(lo, hi, 1 / seat_players())


@answer_of("04.track")
def _track_answer():
    turns = Fraction(str(exercise_numbers("04")["turns"]))  # a target in tenths (5, 7.3), exactly
    low, high = 1, 100  # the mean grows with the track (tests/course/test_lessons.py): bisect for the first past the target
    while low < high:
        mid = (low + high) // 2
        low, high = (mid + 1, high) if _trial_mean(mid) <= turns else (low, mid)
    return min((k for k in (low - 1, low) if k >= 1), key=lambda k: abs(_trial_mean(k) - turns))


@answer_of("04.slow")
def _slow_answer():
    return exact.at_least(_trial_turns(exercise_numbers("04")["slow_spaces"]), exercise_numbers("04")["more_than"] + 1)


@lru_cache(maxsize=None)
def _trial_turns(spaces: int) -> dict:
    """exact.time_trial_turns of the base rules on a track of `spaces` spaces (worked out once per track)."""
    return exact.time_trial_turns(pb.Config(), spaces)


answer_of("05.games")(lambda: games_for_half_width(*edge_question()[1:]))
answer_of("05.power")(lambda: games_for_power(*edge_question()[:2]))


@answer_of("06.catchup")
def _catchup_answer():
    """The first of CATCHUP_RULES whose half-time leader's interval lies inside the student's target
    (one rule that passes; the checker takes any)."""
    players, low, high = catchup_question()
    for rerolls in CATCHUP_RULES:
        cfg = pb.Config(players=players, rerolls=rerolls)
        _rate, lo, hi, _n = halftime_leader(cfg)
        if low <= lo and hi <= high:
            return cfg
    raise AssertionError(f"no rule of CATCHUP_RULES meets {low:.0%} to {high:.0%} with {players} players")


@answer_of("06.boost")
def _boost_answer():
    base, gap = chase_rules("06"), exercise_numbers("06")["gap"]
    return exact.chase_turn_mean(base, gap) - exact.chase_turn_mean(_plain(base), gap)


answer_of("07.third")(_third_flip_answer)


@answer_of("07.no_double")
def _no_double_answer():
    row, left = _round_start_after_one_duck()
    return exact.fresh_flips(row, left, 3)


@answer_of("07.bruces")
def _bruces_answer():
    deck = _rules_07().deck()
    return exact.at_least(exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck),
                                               exercise_numbers("07")["cards"]), 1)

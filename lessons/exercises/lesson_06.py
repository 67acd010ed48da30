"""Lesson 6's exercises, catch-up (Piggyback Brigade, Duck, Duck, Bruce): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import math

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import wilson

from .checking import WrongKind, exact_answer, exercise
from .evidence import Evidence
from .key import answer_of, expected
from .lesson_03 import chase_rules
from .numbers import choices, exercise_numbers
from .lesson_03 import CHASE_DICE


# catchup: (players, low, high): the half-time leader's whole interval between low and high per cent. The
# base rule fails each, and so does the lesson's strong catch-up (only the last rerolls): some targets want
# more catch-up than the base rule, some less; each is met by a rule of lesson_06.CATCHUP_RULES
# (tests/course/test_student_numbers.py; issue 37: the lesson's own example passed for everyone)
# gap and die: 06.boost's chase, 1 to 15 spaces behind with a die of CHASE_DICE (135 chases; issue 37: 5)
NUMBERS = choices("06", {"gap": (4, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), "die": CHASE_DICE,
                         "catchup": ((4, 15, 25), (3, 35, 45), (4, 35, 45), (5, 19, 29), (5, 28, 38), (6, 25, 35), (6, 10, 18))})

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


@answer_of("06.boost")
def _boost_answer():
    base, gap = chase_rules("06"), exercise_numbers("06")["gap"]
    return exact.chase_turn_mean(base, gap) - exact.chase_turn_mean(_plain(base), gap)

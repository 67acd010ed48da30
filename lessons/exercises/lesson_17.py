"""Lesson 17's exercises, the first of several piglets: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from functools import lru_cache

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import mean_ci

from .checking import exact_answer, exercise, right_is
from .evidence import Evidence, interval_and_run, need_evidence, own_interval
from .key import answer_of
from .numbers import PARAMS, choices


# race_players: 17.rounds's race (not 4: section 2 plays that very race, always-reroll, no extensions); at
# every count the engine's races are clearly shorter than the model's (tests/test_student_numbers.py)
# first_spaces: 17.first_by's track, the base 20 spaces or 15 to 29 (lesson 4's slider) but 23 (with some players and
# rounds a figure the lesson shows first; so are 12 to 14 and 30): with players and rounds, 168 races (issue 37)
NUMBERS = choices("17", {"players": (5, 3, 6, 2), "rounds": (2, 1, 3), "race_players": (5, 3, 6, 2),
                         "first_spaces": (20, *range(15, 20), 21, 22, *range(24, 30))})

ROUNDS_SEED = 5  # the seed of 17.rounds's solution: the key plays the solution's own games


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
        return True, right_is(right, f"P(one of {n} independent piglets crosses within {r} rounds)")
    if got == alone:
        return False, f"that is one piglet's chance: the race is over when the *first* of {n} crosses."
    if got == alone ** n:
        return False, "that is the chance that every piglet has crossed; the race needs only one."
    if got == 1 - (1 - exact.at_most(trial, r - 1)) ** n:
        return False, "off by one round: 'within' includes the last round named."
    if p["first_spaces"] != pb.Config().spaces and got == 1 - (1 - exact.at_most(_lone_race(pb.Config().spaces), r)) ** n:
        return False, f"that is on the base track; the exercise's track has {p['first_spaces']} spaces (exact.time_trial_turns(config, spaces))."
    return False, "P(the first of n crosses by round r) = 1 - P(one piglet has not) ** n."


@answer_of("17.first_by")
def _first_by_answer():
    p = PARAMS["17"]
    return 1 - (1 - exact.at_most(_lone_race(p["first_spaces"]), p["rounds"])) ** p["players"]


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


@answer_of("17.rounds")
def _rounds_answer():
    """The interval the solution's own games give (seed ROUNDS_SEED; a student's games give their own)."""
    p = PARAMS["17"]
    return _rounds_interval(p["race_players"], p["bots"], p["games"], ROUNDS_SEED)


@lru_cache(maxsize=8)
def _rounds_interval(players: int, bots: str, games: int, seed: int) -> "tuple[float, float]":
    ev = Evidence.play("piggyback-brigade", race_config_17(players), bots, games, seed)
    return tuple(mean_ci(race_rounds(ev))[1:])

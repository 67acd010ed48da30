"""Lesson 21's exercises, the first seat (Piggyback Brigade): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import wilson

from .checking import exact_answer, exercise, fraction_text
from .evidence import Evidence
from .key import answer_of
from .numbers import choices, lesson_numbers
from .search import closest, measured_runs, undecided


# 21.model_seat's races whose first-seat chance lesson 21 shows before asking (to three digits, in its engine tables)
MODEL_RACE_SHOWN = frozenset({(5, 14), (5, 17), (5, 24), (5, 26), (5, 27), (5, 33), (5, 34), (5, 35), (5, 36), (5, 37),
                              (2, 17), (2, 18), (2, 24), (2, 25), (2, 26), (2, 27), (2, 28), (2, 29)})

# players and bots: 21.tuned's search (not 4 players: section 4 tunes that game); at every player count the
# model's first-seat edge shrinks as the first section grows (tests/test_student_numbers.py), and the key's
# search is the solution's own (seed 5). model_players not 6 (nor 4, 7): the 6-player model's first seat, 0.261,
# is a figure the lesson shows (chance version 2's engine runs). model_race: 21.model_seat's (seats, track spaces),
# the lesson's three on the base 20 spaces first, then 5, 3 or 2 seats on 12 to 40 spaces, each its own chance
# (issue 37), but for those whose chance is a figure lesson 21 shows before asking (MODEL_RACE_SHOWN)
NUMBERS = choices("21", {"model_race": ((5, 20), (3, 20), (2, 20), *((p, s) for s in (*range(12, 20), *range(21, 41)) for p in (5, 3, 2)
                                                                      if (p, s) not in MODEL_RACE_SHOWN)),
                         "players": (5, 3, 6), "bots": ("heuristic", "always-reroll"),
                         "tune_field": ("sections[0]",), "tune_values": ((2, 9),), "tune_games": (400,)})

TUNED_SEED = 5  # the seed of 21.tuned's solution: the key plays the solution's games


@lru_cache(maxsize=None)
def _model_trial(spaces: int) -> dict:
    """exact.time_trial_turns of the base rules on a track of `spaces` spaces (once per track)."""
    return exact.time_trial_turns(pb.Config(), spaces)


def model_first_seat(players: int, spaces: "int | None" = None) -> Fraction:
    """Player 1's chance in the independent-race model: `players` lone piglets on `spaces` spaces (the base track's)."""
    return exact.race_seat_chances(_model_trial(pb.Config().spaces if spaces is None else spaces), players)[0]


@exercise("21.model_seat", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _model_seat(answer):
    players, spaces = lesson_numbers(21)["model_players"], lesson_numbers(21)["model_spaces"]
    right = model_first_seat(players, spaces)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{fraction_text(right, 25)}, ≈ {float(right):.3f}, against a fair {Fraction(1, players)}: in this model the whole "
                      "edge is winning the ties in turns.")
    if a == Fraction(1, players):
        return False, "that is the fair share; in the model Player 1 wins every tie in the number of turns."
    chances = exact.race_seat_chances(_model_trial(spaces), players)
    if a in chances:
        return False, f"that is seat {chances.index(a) + 1}'s chance; the question asks for Player 1's."
    if spaces != pb.Config().spaces and a == model_first_seat(players):
        return False, f"that is on the base track; the question's track has {spaces} spaces."
    return False, (f"exact.race_seat_chances(exact.time_trial_turns(pb.Config(), {spaces}), {players}) lists every seat's "
                   "chance, Player 1 first.")


answer_of("21.model_seat")(lambda: model_first_seat(lesson_numbers(21)["model_players"], lesson_numbers(21)["model_spaces"]))


def seat_one_advantage(ev) -> "tuple[float, float, float]":
    """(estimate, low, high) of Player 1's win share minus the fair share 1/players, from a run's games."""
    first = [r["win_share"] for r in ev.rows() if r["seat"] == 0]
    fair = 1 / ev.config.players
    won = sum(first)
    low, high = wilson(won, len(first))
    return won / len(first) - fair, low - fair, high - fair


def _first_section_config(value: int):
    n = lesson_numbers(21)
    return pb.Config(players=n["players"]).with_values({n["tune_field"]: value})


@exercise("21.tuned", expects="(length, runs): the length you pick and {length: your games at it}", varied=True, sealed=False)
def _tuned(answer):
    n = lesson_numbers(21)
    field, (v0, v1) = n["tune_field"], n["tune_values"]
    length, measured = measured_runs(
        answer, game="piggyback-brigade", config_at=_first_section_config, bots=n["bots"], games=n["tune_games"],
        measure=seat_one_advantage, example="(length, runs): the length you pick and {length: your games at it}")
    missing = [v for v in range(v0, v1 + 1) if v not in measured]
    if missing:
        return False, f"measure every length from {v0} to {v1} (missing: {', '.join(map(str, missing))})."
    best = closest(measured, 0.0)
    if length != best:
        return False, (f"by your own games {field} = {best} brings Player 1's advantage closer to zero than {length}: "
                       "pick the length whose estimate is nearest zero.")
    value, lo, hi = measured[length]
    tied = undecided(measured, length, 0.0)
    verdict = ("its interval holds 0: at this many games its edge cannot be told from none (which is not "
               "the same as no edge: lesson 5)") if lo <= 0 <= hi else "its interval still excludes 0"
    return True, (f"{field} = {length}: seat 1's advantage {value:+.1%} ({lo:+.1%} to {hi:+.1%}), your games replayed "
                  f"from their seeds; {verdict}"
                  + (f"; the data cannot rule out {' or '.join(map(str, tied))}." if tied else "."))


@answer_of("21.tuned")
def _tuned_answer():
    """The length the solution's search picks (seed TUNED_SEED; a student's seeds may pick a neighbour)."""
    n = lesson_numbers(21)
    return _reference_tuning(n["players"], n["tune_field"], tuple(n["tune_values"]), n["bots"], n["tune_games"])


@lru_cache(maxsize=16)
def _reference_tuning(players: int, field: str, values: tuple, bots: str, games: int, seed: int = TUNED_SEED):
    """The length a search over every value picks on the solution's seeds (standard library)."""
    measured = {v: seat_one_advantage(Evidence.play("piggyback-brigade", pb.Config(players=players).with_values({field: v}),
                                                    bots, games=games, seed=seed))
                for v in range(values[0], values[1] + 1)}
    return closest(measured, 0.0)

"""Lesson 3's exercises, rerolls (Piggyback Brigade): the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

import math

from meeple.rules import exact
from meeple.rules import piggyback_brigade as pb
from meeple.rules.stats import wilson

from .checking import WrongKind, exact_answer, exercise, need_choice
from .evidence import Evidence, need_evidence
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 03.chase's and 06.boost's dice: the base die's faces first, then dice whose four white faces (rerolling always) and two
# black ones (rerolling if last) take other numbers, each with a chase of its own (a chase turn's mean depends on the
# faces alone, not their colours, so no two share their faces; at most one gap's mean or boost is another's)
CHASE_DICE = ((1, 2, 3, 4, 1, 3), (1, 1, 2, 3, 2, 3), (1, 1, 2, 4, 2, 3), (1, 1, 2, 5, 2, 3), (1, 1, 2, 5, 2, 4),
              (1, 1, 3, 5, 2, 3), (1, 1, 3, 5, 2, 4), (1, 2, 3, 4, 2, 3), (1, 2, 3, 5, 2, 3))

# gap not 4: the lesson's reroll toggles show the chase four spaces behind. seat: 03.seat's (players, seat
# asked about, 1 = Player 1): on the lesson's 2000 games (seed 1) four are favoured, four "cannot tell" and
# four "no" (tests/course/test_student_numbers.py), so the verdict is the student's own (issue 37)
# die: 03.chase's die (CHASE_DICE), gap 1 to 15 but 4 and 10 (the toggles show the chase four spaces behind, section
# 3 ten): 117 chases (issue 37: 5, 23% of pairs)
NUMBERS = choices("03", {"gap": (5, 1, 2, 3, 6, 7, 8, 9, 11, 12, 13, 14, 15), "die": CHASE_DICE,
                         "seat": ((4, 1), (3, 1), (5, 1), (6, 2), (3, 2), (4, 2), (5, 3), (6, 4), (3, 3), (4, 4), (5, 5), (6, 6))})

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


@answer_of("03.chase")
def _chase_answer():
    return exact.chase_turn_mean(chase_rules(), exercise_numbers("03")["gap"])


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


@answer_of("03.seat")
def _seat_answer():
    wins, games, lo, hi = seat_one_at_four()
    return _verdict(lo, hi, 1 / seat_players())

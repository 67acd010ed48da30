"""Lesson 14's exercises, skill, luck, intransitivity: the student's numbers it varies (`choices`),
then each exercise's checker with its answer beside it.

Registered on import (see the package's docstring); light imports only at the top.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, permutations
from math import comb

from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import exact, simulate
from meeple.rules.sim.results import rate_row as _rate_row

from .checking import NoAnswer, Refused, WrongKind, exact_answer, exercise
from .evidence import Evidence, need_evidence
from .key import answer_of, expected
from .numbers import choices, exercise_numbers


# 14.luck_alone's (n games, at least k wins): the lesson's own (100, 60) first, then k from 59% to 70% of n
LUCK = ((100, 60), *((n, k) for n in (60, 70, 80, 90, 100, 110, 120, 150)
                     for k in range(round(0.59 * n), round(0.70 * n) + 1) if (n, k) != (100, 60)))

# 14.die_d's dice D: the lesson's five six-faced dice first (a six-faced D's chance against A = (2, 2, 4, 4, 9, 9) is a
# whole number of 72nds: too few answers for a class, issue 37), then dice of 8, 10 and 12 faces from 0 to 12, each
# with a face it shares with A (a tie) and its own chance against A, from 1/5 to 4/5, none 1/2 nor a figure lesson 14
# shows before asking (4/9 and 5/9 in its payoff table; 1/3, 19/36, 37/60, 5/8 and 3/4 to 2 or 3 digits): made by
# tests/course/test_student_numbers.py's generator (a face count in each band of A's faces, below 2, 2, 3, 4, 5 to 8,
# 9, above 9; per chance, the die with the most different faces): 75 dice
DIE_D_CHOICES = (
    (0, 3, 4, 4, 4, 4), (0, 3, 3, 4, 4, 4), (0, 3, 4, 4, 4, 8), (0, 4, 4, 4, 4, 9), (0, 0, 3, 4, 4, 4),
    (0, 1, 1, 2, 2, 2, 3, 3, 3, 4), (0, 1, 2, 2, 2, 3, 3, 4), (0, 1, 1, 2, 2, 2, 3, 3, 4, 4),
    (0, 1, 1, 2, 2, 3, 4, 5), (0, 1, 1, 2, 2, 2, 3, 3, 4, 5), (0, 1, 2, 2, 2, 3, 4, 5),
    (0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5), (0, 1, 1, 2, 2, 2, 3, 4, 5, 6), (0, 1, 2, 2, 3, 3, 4, 5),
    (0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5, 6), (0, 1, 1, 2, 2, 3, 3, 4, 5, 6), (0, 1, 1, 2, 3, 4, 5, 6),
    (0, 1, 2, 2, 2, 3, 3, 4, 5, 6), (0, 1, 2, 2, 3, 4, 5, 6), (0, 1, 1, 2, 2, 3, 4, 5, 6, 7),
    (0, 1, 1, 2, 2, 3, 3, 3, 4, 5, 6, 7), (0, 1, 1, 2, 2, 2, 3, 4, 5, 6, 7, 9), (0, 1, 2, 2, 3, 3, 4, 5, 6, 7),
    (0, 1, 2, 3, 4, 4, 5, 6), (0, 1, 2, 3, 3, 3, 4, 5, 6, 7), (0, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 9),
    (0, 1, 1, 2, 3, 4, 5, 6, 7, 9), (0, 1, 2, 3, 4, 5, 6, 9), (0, 1, 2, 2, 3, 4, 5, 6, 7, 9),
    (0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 9), (0, 1, 2, 2, 2, 3, 4, 5, 6, 7, 9, 10), (0, 1, 2, 3, 4, 4, 5, 6, 7, 9),
    (0, 1, 2, 4, 5, 6, 7, 9), (0, 1, 2, 3, 4, 4, 5, 6, 7, 10), (0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 9, 10),
    (0, 1, 2, 3, 4, 5, 6, 7, 9, 9), (1, 2, 3, 4, 5, 6, 7, 9), (0, 1, 2, 3, 4, 5, 6, 7, 9, 10),
    (0, 1, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11), (0, 1, 2, 3, 3, 4, 5, 6, 7, 9, 10, 11), (0, 1, 2, 3, 4, 5, 6, 9, 10, 11),
    (1, 2, 3, 4, 5, 6, 9, 10), (0, 1, 2, 3, 5, 6, 7, 9, 10, 11), (0, 1, 2, 3, 4, 4, 5, 6, 7, 10, 11, 12),
    (0, 1, 2, 4, 5, 6, 7, 9, 10, 11), (1, 2, 4, 5, 6, 7, 9, 10), (0, 1, 3, 4, 5, 6, 7, 9, 10, 11),
    (0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12), (1, 2, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12),
    (1, 2, 3, 3, 4, 5, 6, 7, 9, 10, 11, 12), (1, 2, 3, 4, 5, 6, 7, 10, 11, 12), (2, 3, 4, 5, 6, 7, 9, 10),
    (1, 2, 3, 4, 4, 5, 6, 7, 9, 10, 11, 12), (1, 2, 3, 5, 6, 7, 9, 10, 11, 12),
    (1, 2, 3, 4, 5, 6, 7, 9, 9, 10, 11, 12), (2, 3, 4, 5, 6, 9, 10, 11), (1, 2, 4, 5, 6, 7, 9, 10, 11, 12),
    (2, 3, 4, 4, 4, 5, 6, 7, 9, 10, 11, 12), (1, 3, 4, 5, 6, 7, 9, 10, 11, 12),
    (2, 3, 4, 4, 5, 6, 7, 9, 9, 10, 11, 12), (2, 3, 4, 5, 6, 7, 9, 10, 11, 12), (2, 4, 5, 6, 7, 9, 10, 11),
    (1, 3, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (3, 3, 4, 5, 6, 7, 9, 10, 11, 12),
    (2, 3, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (3, 4, 4, 5, 6, 7, 9, 10, 11, 12),
    (3, 3, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (3, 4, 5, 6, 7, 10, 11, 12), (2, 4, 5, 6, 7, 9, 9, 10, 11, 12),
    (3, 4, 4, 5, 6, 7, 9, 9, 9, 10, 11, 12), (4, 4, 5, 6, 7, 9, 9, 10, 11, 12), (3, 5, 6, 7, 9, 10, 11, 12),
    (3, 5, 6, 7, 9, 9, 9, 10, 11, 12), (4, 5, 6, 7, 9, 10, 11, 12), (4, 5, 6, 7, 9, 9, 9, 10, 11, 12))

# luck: 14.luck_alone's (games n, wins k), from 59% to 70% of n games (LUCK): not (100, 58), whose chance
# rounds to a figure the lesson shows; about 90 pairs, so a classmate's chance is rarely the student's (issue 37).
# die_d: exercise 2's die D (DIE_D_CHOICES), each with a face it shares with A (a tie, half a win) and its own chance
# against A, none a figure the lesson shows before.
# cycle_bruces and cycle_seed: the Bruces in the deck of section 3's round-robin and its seed (and so 14.cycle's
# evidence), from the base six and the lesson's seed 1; each deck and seed decides some pairings and leaves
# others open, so the decided pairings 14.cycle asks for are the student's own (issue 37: its answer, [],
# was the whole class's)
NUMBERS = choices("14", {"luck": LUCK,
                         "die_d": DIE_D_CHOICES,
                         "cycle_bruces": (6, 4, 5, 7, 8, 10, 3, 9, 12), "cycle_seed": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)})


@exercise("14.luck_alone", "the chance as an exact Fraction", varied=True, sealed=True)
def _luck_alone(answer):
    n, k = exercise_numbers("14")["luck"]
    right = expected("14.luck_alone")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"about {float(right):.4f}: once in {round(1 / float(right))} tries by luck alone."
    if a == Fraction(comb(n, k), 2**n):
        return False, f"that is exactly {k} wins; at least {k} adds {k + 1}, {k + 2}, ... up to {n}."
    if a == right - Fraction(comb(n, k), 2**n):
        return False, f"that is more than {k}; at least {k} includes {k} itself."
    return False, f"each number of wins j has chance C({n}, j) / 2^{n}; add them for j = {k} to {n}."


@answer_of("14.luck_alone")
def _luck_answer():
    n, k = exercise_numbers("14")["luck"]
    return Fraction(sum(comb(n, j) for j in range(k, n + 1)), 2**n)


DIE_A = (2, 2, 4, 4, 9, 9)  # lesson 14's die A (section 2)


def die_d() -> tuple:
    """The faces of this student's die D in 14.die_d."""
    return exercise_numbers("14")["die_d"]


@exercise("14.die_d", "the chance as an exact Fraction", varied=True, sealed=True)
def _die_d(answer):
    faces = die_d()
    d, a_die = exact.die(faces), exact.die(DIE_A)
    right = expected("14.die_d")
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{right}: {'D beats A' if right > Fraction(1, 2) else 'A still beats D'}."
    tie = sorted(set(faces) & set(DIE_A))
    strict = sum((p * q for x, p in d.items() for y, q in a_die.items() if x > y), Fraction(0))
    if a == strict and tie:
        return False, f"a {tie[0]} against a {tie[0]} is a tie: count ties as half a win (beat_chance does)."
    if a == 1 - right:
        return False, "that is the chance that A beats D: the question is D against A."
    return False, (f"list the {len(faces) * len(DIE_A)} pairs of faces of your D {faces} and A "
                   "(or use exact.beat_chance(exact.die(D), exact.die(A))).")


@answer_of("14.die_d")
def _die_d_answer():
    return exact.beat_chance(exact.die(die_d()), exact.die(DIE_A))


CYCLE_GAMES = 150  # games per pairing in lesson 14's round-robin (section 3)

CYCLE_BOTS = tuple(f"threshold-{k}" for k in range(1, 6))  # its bots: 14.cycle takes every pairing of them


def cycle_rules():
    """The rules of this student's round-robin in lesson 14 (section 3, and so 14.cycle): two
    players, one round, and the student's number of Bruces in the deck."""
    return ddb.Config(players=2, rounds=1, bruce_cards=exercise_numbers("14")["cycle_bruces"])


def cycle_seed() -> int:
    """The seed of this student's round-robin in lesson 14 (section 3: every pairing plays it)."""
    return exercise_numbers("14")["cycle_seed"]


def _pair_names(decided, bots) -> set:
    """A student's decided pairings as a set of (winner, loser) names; WrongKind if it is not a list of pairs of bots."""
    if isinstance(decided, (str, bytes, dict)) or not isinstance(decided, (list, tuple, set, frozenset)):
        raise WrongKind(f"the decided pairings are a list of (winner, loser) pairs of bot names, got {decided!r:.80}")
    out = set()
    for p in decided:
        if isinstance(p, (str, bytes)) or not isinstance(p, (list, tuple)) or len(p) != 2 or any(b not in bots for b in p):
            raise WrongKind(f"each decided pairing is (winner, loser), two of {', '.join(bots)}; got {p!r:.80}")
        out.add(tuple(p))
    return out


@exercise("14.cycle", "(runs, decided, cycle): the list of your round-robin's simulate results, the list of its decided "
                      "(winner, loser) pairings, and a list of three bots or []", varied=True, sealed=False)
def _cycle(answer):
    shape = ("expected (runs, decided, cycle): the simulate results of section 3, the (winner, loser) pairs whose "
             "winner's whole interval lies above one half, and a list of three bot names or []")
    try:
        runs, decided, cycle = answer
        runs = list(runs)
    except (TypeError, ValueError):
        raise WrongKind(shape) from None
    if cycle is None or cycle is Ellipsis or decided is None or decided is Ellipsis:
        raise NoAnswer("your decided pairings and a list of three bot names, or []")
    if isinstance(cycle, str) or not isinstance(cycle, (list, tuple)):
        raise WrongKind(f"the cycle is a list of three bot names, or [], got {cycle!r}")
    if not runs or any(isinstance(r, (str, bytes, dict)) for r in runs):
        raise WrongKind("runs is the list of what simulate(...) returned for each pairing of section 3")
    evs = [Evidence.of(r) for r in runs]
    pairs = {tuple(sorted(e.bots)) for e in evs}
    bots = sorted({b for e in evs for b in e.bots})
    if len(pairs) != len(evs) or pairs != {tuple(sorted(p)) for p in combinations(CYCLE_BOTS, 2)}:
        raise Refused(f"runs should hold one run per pair of the round-robin's bots ({', '.join(CYCLE_BOTS)}), every "
                      f"pair once: {len(list(combinations(CYCLE_BOTS, 2)))} runs (a round-robin).")
    said = _pair_names(decided, bots)
    rules, seed = cycle_rules(), cycle_seed()
    share = -(-90 // len(evs))  # about 90 games replayed in all
    sure = set()
    for e in evs:
        need_evidence(e, game="duck-duck-bruce", config=rules, bots=list(e.bots), games=CYCLE_GAMES,
                      rotate=True, replay=share)
        if e.seed != seed:
            raise Refused(f"your round-robin was played with seed {e.seed}; yours is seed {seed} (mine['cycle_seed']).")
        for b in e.bots:
            shares = [1 / len(g.winners) if g.bots.index(b) in g.winners else 0.0 for g in e.records]
            if _rate_row(shares)[1] > 0.5:
                sure.add((b, next(o for o in e.bots if o != b)))
    if said != sure:
        wrong = sorted(said - sure)
        if wrong:
            a, b = wrong[0]
            return False, f"in these games {a} does not surely beat {b}: its interval against {b} is not all above one half."
        return False, (f"{len(sure - said)} decided pairing(s) missing: list every pair whose winner's whole interval "
                       "lies above one half.")
    return _cycle_verdict(bots, sure, cycle)


@answer_of("14.cycle")
def _cycle_answer():
    """(decided, cycle): the (winner, loser) pairings the student's round-robin decides, sorted, and its cycle or []."""
    sure = _robin_sure(cycle_rules(), cycle_seed())
    ts = list(CYCLE_BOTS)
    cycle = next(([p, q, r] for p in ts for q in ts for r in ts if p == min(p, q, r) and len({p, q, r}) == 3
                  and {(p, q), (q, r), (r, p)} <= sure), [])
    return sorted(sure), cycle


def _cycle_verdict(bots, sure, cycle):
    """Judge `cycle` given the decided pairs `sure` ({(a, b): a's whole interval against b above 1/2})."""
    cycles = [list(t) for t in permutations(bots, 3) if {(t[0], t[1]), (t[1], t[2]), (t[2], t[0])} <= sure]
    if not cycle:
        if not cycles:
            return True, (f"{len(sure)} decided pairings and no cycle among them: these games show no intransitivity "
                          "(a pair they leave undecided could still hide one).")
        return False, "look again: some three bots beat each other in a ring, each with its interval above one half."
    if len(cycle) != 3 or any(b not in bots for b in cycle):
        raise WrongKind(f"a cycle names three of {', '.join(bots)}, got {cycle!r}")
    if list(cycle) in cycles:
        return True, f"{' beats '.join(cycle)} beats {cycle[0]}: no rating can rank these three."
    weak = [(a, b) for a, b in zip(cycle, list(cycle[1:]) + [cycle[0]]) if (a, b) not in sure]
    a, b = weak[0]
    return False, f"in these games {a} does not surely beat {b}: its interval against {b} is not all above one half."


@lru_cache(maxsize=128)  # a round-robin is 1,500 games: once per deck and seed
def _robin_sure(rules, seed: int = 1) -> frozenset:
    """The decided pairs {(winner, loser)} of lesson 14's round-robin at these rules and seed."""
    sure = set()
    for a, b in combinations(CYCLE_BOTS, 2):
        res = simulate("duck-duck-bruce", rules, [a, b], games=CYCLE_GAMES, seed=seed,
                       rotate=True, progress=False, workers=1)
        for x, y in ((a, b), (b, a)):
            shares = [1 / len(g.winners) if g.bots.index(x) in g.winners else 0.0 for g in res.records]
            if _rate_row(shares)[1] > 0.5:
                sure.add((x, y))
    return frozenset(sure)

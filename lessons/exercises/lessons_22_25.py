"""Checkers and answers of lessons 22-25 (registered on import: see the package's docstring).

Every exercise's numbers come from its lesson's entry in `numbers.NUMBERS` through the shared
per-student function `exercise_numbers`; each checker computes the right answer from them with
the engine's exact maths (`meeple.rules.bayes`, `meeple.rules.exact`), never from a typed-in
constant. Each exercise asks for a step the lesson's cells do not take: the lesson shows the
method on its own numbers and the exercise needs one more idea.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from meeple.rules import bayes, exact
from meeple.rules import piggyback_brigade as pb
from meeple.rules import duck_duck_bruce as ddb

from .checking import exact_answer, exercise, fraction_text
from .key import answer_of
from .numbers import exercise_numbers


def lesson_numbers(lesson: int) -> dict:
    """{name: value} for lesson 22-25's exercises, for the current student (`student(...)`)."""
    return exercise_numbers(f"{lesson:02d}")


# --- lesson 22: two variants compared the Bayesian way -----------------------------------------------

def _params(won: int, games: int) -> tuple[int, int]:
    """The Beta posterior of a rate after `won` of `games`, from a uniform prior (lesson 15)."""
    return 1 + won, 1 + games - won


@lru_cache(maxsize=64)
def loss_of_adopting(won_a: int, games_a: int, won_b: int, games_b: int) -> Fraction:
    """E[max(p_A - p_B, 0)]: the win rate a designer expects to give up by adopting B, uniform priors.
    E[p_A; p_A > p_B] is A's mean times P(p_A' > p_B) with p_A' ~ Beta(a_A + 1, b_A) (p times the
    Beta(a, b) density is a/(a+b) times the Beta(a+1, b) density); the same for p_B."""
    (a_a, b_a), (a_b, b_b) = _params(won_a, games_a), _params(won_b, games_b)
    mean_a, mean_b = Fraction(a_a, a_a + b_a), Fraction(a_b, a_b + b_b)
    return mean_a * bayes.beats(a_b, b_b, a_a + 1, b_a) - mean_b * bayes.beats(a_b + 1, b_b, a_a, b_a)


@exercise("22.expected_loss", expects="the expected loss as an exact Fraction", varied=True, sealed=False)
def _expected_loss(answer):
    (won_a, games_a), (won_b, games_b) = lesson_numbers(22)["record"]
    right = loss_of_adopting(won_a, games_a, won_b, games_b)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.4f}: adopting B gives up that much win rate on "
                      "average, counting only the worlds where A is really the better one.")
    keep = loss_of_adopting(won_b, games_b, won_a, games_a)
    if a == keep:
        return False, "that is the loss of keeping A (what B's extra win rate is worth when B is better); the question is about adopting B."
    if a == 1 - bayes.chance_better(won_a, games_a, won_b, games_b) or a == bayes.chance_better(won_a, games_a, won_b, games_b):
        return False, "that is a chance that one rate is higher; the loss weighs each such world by how much higher."
    (a_a, b_a), (a_b, b_b) = _params(won_a, games_a), _params(won_b, games_b)
    gap = Fraction(a_a, a_a + b_a) - Fraction(a_b, a_b + b_b)
    if a == max(gap, Fraction(0)) or a == gap:
        return False, "that is the difference of the posterior means: the loss counts only the worlds where A is higher."
    return False, ("split E[max(p_A − p_B, 0)] into E[p_A; p_A > p_B] − E[p_B; p_A > p_B]; p times a Beta(a, b) "
                   "density is a/(a+b) times a Beta(a+1, b) density, so each part is a mean times a `bayes.beats`.")


@lru_cache(maxsize=64)
def adoption_chance(games: int, threshold: Fraction, rate_a: Fraction, rate_b: Fraction,
                    strict: bool = False) -> Fraction:
    """P(the rule adopts B) when A wins each game with rate_a and B with rate_b, `games` each, the rule
    being "adopt B when P(B better | the games) is at least `threshold`" (above it, with `strict`)."""
    chances_a, chances_b = bayes.binomial(games, rate_a), bayes.binomial(games, rate_b)
    total = Fraction(0)
    for won_b, q in enumerate(chances_b):
        for won_a, p in enumerate(chances_a):
            better = bayes.chance_better(won_a, games, won_b, games)
            if better > threshold or (better == threshold and not strict):
                total += p * q
    return total


@exercise("22.power", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _power(answer):
    games, threshold, rate_a, rate_b = lesson_numbers(22)["rule"]
    right = adoption_chance(games, threshold, rate_a, rate_b)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f}: with {games} games a variant, the rule "
                      f"misses a B that really is better {float(1 - right):.0%} of the time.")
    if a == 1 - right:
        return False, "that is the chance the rule keeps A (a miss); the question asks how often it adopts B."
    if a == adoption_chance(games, threshold, rate_a, rate_a):
        return False, "that is the chance of adopting B when B is no better than A; here B's true rate is higher."
    if a == adoption_chance(games, threshold, rate_b, rate_a):
        return False, "A and B are swapped: A wins with the lower rate, B with the higher."
    if a == adoption_chance(games, threshold, rate_a, rate_b, strict=True):
        return False, f"the rule adopts B when the chance is at least {threshold}: count the outcomes equal to it too."
    return False, ("sum over every pair of results (k_A, k_B) of their binomial chances, keeping the pairs where "
                   "`bayes.chance_better(k_A, n, k_B, n)` reaches the threshold.")


# --- lesson 23: utility and risk (Duck, Duck, Bruce's flips) --------------------------------------------

@lru_cache(maxsize=64)
def clean_run(flips: int) -> Fraction:
    """P(the first `flips` flips of a fresh shuffle are ducks of `flips` different suits: no double
    (DDB-5), no Bruce (DDB-6)), for the base deck: the same as exact.fresh_flips((), deck, flips),
    written as the product of each next flip's chance, since every unseen suit holds the same ducks."""
    cfg = ddb.Config()
    ducks, suits, cards = len(cfg.numbers), len(cfg.suits), len(cfg.deck())
    p = Fraction(1)
    for i in range(flips):
        p *= Fraction(ducks * (suits - i), cards - i)
    return p


MOST_FLIPS = 10  # a policy flips at most this many (one per suit of the base deck)


@lru_cache(maxsize=16)
def mean_variance_best(weight: Fraction) -> Fraction:
    """max over k of E[X_k] - weight Var[X_k], X_k the ducks taken by "stop after k flips" (k wins with
    chance q_k, else 0): k q_k - weight k^2 q_k (1 - q_k)."""
    return max(k * clean_run(k) - weight * k * k * clean_run(k) * (1 - clean_run(k)) for k in range(MOST_FLIPS + 1))


@exercise("23.mean_variance", expects="the best score as an exact Fraction", varied=True, sealed=False)
def _mean_variance(answer):
    weight = lesson_numbers(23)["weight"]
    right = mean_variance_best(weight)
    a = exact_answer(answer, right)
    scores = {k: k * clean_run(k) - weight * k * k * clean_run(k) * (1 - clean_run(k)) for k in range(MOST_FLIPS + 1)}
    best = max(scores, key=scores.get)
    if a == right:
        greedy = max(range(MOST_FLIPS + 1), key=lambda k: k * clean_run(k))
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f}, stopping after {best} flips, "
                      + ("earlier than" if best < greedy else "the same stop as") + f" the expected-ducks player ({greedy}).")
    if a == max(k * clean_run(k) for k in range(MOST_FLIPS + 1)):
        return False, "that is the best expected haul with no penalty; subtract the weight times the haul's variance."
    if a in {k * clean_run(k) - weight * k * clean_run(k) * (1 - clean_run(k)) for k in range(MOST_FLIPS + 1)}:
        return False, "the haul is k or 0, so its variance is k² q (1 − q), not k q (1 − q)."
    if a in scores.values():
        return False, "that is one policy's score; the question asks for the best score over every number of flips."
    return False, ("the haul X of 'stop after k flips' is k with chance q_k and 0 otherwise: E[X] = k q_k and "
                   "Var[X] = k² q_k (1 − q_k); score every k and take the largest.")


def one_turn(need: int) -> Fraction:
    """The best chance to take at least `need` ducks in one turn (1 when nothing is needed)."""
    return Fraction(1) if need <= 0 else max((clean_run(k) for k in range(need, MOST_FLIPS + 1)), default=Fraction(0))


@lru_cache(maxsize=16)
def two_turns(need: int) -> Fraction:
    """The best chance to take at least `need` ducks in two turns, each from a fresh shuffle: choose the
    first turn's flips k, then play the last turn for what is still needed (backward induction)."""
    return max(clean_run(k) * one_turn(need - k) + (1 - clean_run(k)) * one_turn(need)
               for k in range(MOST_FLIPS + 1))


@exercise("23.two_turns", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _two_turns(answer):
    need = lesson_numbers(23)["need"]
    right = two_turns(need)
    a = exact_answer(answer, right)
    if a == right:
        first = max(range(MOST_FLIPS + 1), key=lambda k: (clean_run(k) * one_turn(need - k)
                                                          + (1 - clean_run(k)) * one_turn(need)))
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f}, stopping the first turn after {first} flips "
                      f"(one turn alone: {float(one_turn(need)):.3f}); the first stop is chosen for what the last turn "
                      "can still do, not for the ducks it takes.")
    if a == one_turn(need):
        return False, "that is the best chance in one turn; with two turns, the first may take part of what is needed."
    greedy = max(range(MOST_FLIPS + 1), key=lambda k: k * clean_run(k))
    if a == clean_run(greedy) * one_turn(need - greedy) + (1 - clean_run(greedy)) * one_turn(need):
        return False, "that first turn stops where the expected ducks are largest; choose the stop that maximises the chance of winning."
    if a == 1 - (1 - one_turn(need)) ** 2:
        return False, "two independent tries at the whole need ignore that the first turn's ducks count toward it."
    return False, ("work backwards: for the last turn the best chance to take n ducks is the largest q_k with k ≥ n; "
                   "for the first turn, try each k: q_k × (last turn for need − k) + (1 − q_k) × (last turn for need).")


# --- lesson 24: cost curves (The Piggyback Brigade's die) -----------------------------------------------

# the lesson's options for a new die: (name, the faces; the rest of the base die as it is)
DIE_OPTIONS = (("A: +1 on the white 1", (2, 2, 3, 4, 1, 3)), ("B: +1 on the white 4", (1, 2, 3, 5, 1, 3)),
               ("C: +1 on the black 1", (1, 2, 3, 4, 2, 3)), ("D: +1 on the black 3", (1, 2, 3, 4, 1, 4)),
               ("E: +1 on the white 1 and 2", (2, 3, 3, 4, 1, 3)), ("F: +1 on the white 1 and 3", (2, 2, 4, 4, 1, 3)))


@lru_cache(maxsize=256)
def turns_saved(faces: tuple) -> Fraction:
    """Turns a lone piglet saves on the base track (exact.time_trial_mean) with these faces instead of the base die's."""
    base = pb.Config()
    return exact.time_trial_mean(base) - exact.time_trial_mean(base.with_values({"faces": tuple(faces)}))


def pips(faces: tuple) -> int:
    return sum(faces) - sum(pb.Config().faces)


def second_pip(face: int) -> Fraction:
    """What the second extra pip on face `face` (0-based, base die's order) saves, beyond the first."""
    base = list(pb.Config().faces)
    one, two = list(base), list(base)
    one[face] += 1
    two[face] += 2
    return turns_saved(tuple(two)) - turns_saved(tuple(one))


@exercise("24.second_pip", expects="the turns saved as an exact Fraction", varied=True, sealed=False)
def _second_pip(answer):
    face = lesson_numbers(24)["face"]
    right = second_pip(face)
    a = exact_answer(answer, right)
    base = list(pb.Config().faces)
    first = list(base)
    first[face] += 1
    once = turns_saved(tuple(first))
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.4f} turns, against {float(once):.4f} for the first pip: "
                      + ("a second pip is worth less than the first." if right < once else
                         "a second pip is worth no less than the first here."))
    if a == once:
        return False, "that is the first pip's worth; the question asks what the second adds on top of it."
    if a == once + right:
        return False, "that is what both pips save together; subtract what the first one saves."
    return False, ("raise the face by two, then by one, and take the difference of the turns each die saves "
                   "(exact.time_trial_mean of the base die minus that of the new one).")


@lru_cache(maxsize=16)
def loo_price(left_out: int) -> Fraction:
    """The pip cost that would put option `left_out` on a curve through the origin fitted (least squares,
    turns saved against pips) to every other option of DIE_OPTIONS."""
    points = [(pips(f), turns_saved(f)) for i, (_, f) in enumerate(DIE_OPTIONS) if i != left_out]
    slope = sum((c * b for c, b in points), Fraction(0)) / sum(c * c for c, _ in points)
    return turns_saved(DIE_OPTIONS[left_out][1]) / slope


@exercise("24.fair_price", expects="the pip cost as an exact Fraction", varied=True, sealed=False)
def _fair_price(answer):
    k = lesson_numbers(24)["option"]
    right = loo_price(k)
    a = exact_answer(answer, right)
    name = DIE_OPTIONS[k][0]
    if a == right:
        return True, (f"{fraction_text(right, 30)} ≈ {float(right):.3f} pips for option {name[0]}, priced by a curve it "
                      f"did not help to draw; it costs {pips(DIE_OPTIONS[k][1])}.")
    points = [(pips(f), turns_saved(f)) for _, f in DIE_OPTIONS]
    slope_all = sum((c * b for c, b in points), Fraction(0)) / sum(c * c for c, _ in points)
    if a == turns_saved(DIE_OPTIONS[k][1]) / slope_all:
        return False, f"that is the price on the curve fitted to every option, option {name[0]} included; leave it out of the fit."
    if a == turns_saved(DIE_OPTIONS[k][1]):
        return False, "that is the turns the option saves; divide by the curve's turns per pip to get a price in pips."
    return False, ("fit slope = Σ cost × benefit / Σ cost² over the other options (a line through the origin), then "
                   "price your option at its benefit / slope.")


# --- lesson 25: ratings from play (Bradley-Terry) -------------------------------------------------------

def match_chance(strength_a: int, strength_b: int, best_of: int) -> Fraction:
    """P(A wins a best-of-`best_of` match against B) when each game is won by A with the Bradley-Terry
    chance s_A / (s_A + s_B), games independent (a match is won by the first to a majority)."""
    p = Fraction(strength_a, strength_a + strength_b)
    need = best_of // 2 + 1
    # A wins the match on game need + j, having lost j of the games before it (j < need)
    return sum((comb(need - 1 + j, j) * p ** need * (1 - p) ** j for j in range(need)), Fraction(0))


@exercise("25.match", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _match(answer):
    (s_a, s_b), best_of = lesson_numbers(25)["strengths"], lesson_numbers(25)["best_of"]
    right = match_chance(s_a, s_b, best_of)
    a = exact_answer(answer, right)
    game = Fraction(s_a, s_a + s_b)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}, against {game} for one game: a match stretches the gap between "
                      "the stronger and the weaker player.")
    if a == game:
        return False, "that is one game's chance; the match goes to whoever first wins a majority of the games."
    if a == game ** (best_of // 2 + 1):
        return False, "that counts only matches A wins without losing a game; A may lose some games and still win."
    if a == 1 - right:
        return False, "that is B's chance of winning the match."
    return False, (f"one game: s_A / (s_A + s_B); the match: A needs {best_of // 2 + 1} wins before B gets as many; add up "
                   "the ways, e.g. with a negative binomial count of the games A loses first.")


def implied_third(p_ab: Fraction, p_bc: Fraction) -> Fraction:
    """The chance A beats C that Bradley-Terry implies from P(A beats B) and P(B beats C):
    the odds multiply, s_A/s_C = (s_A/s_B)(s_B/s_C)."""
    odds = p_ab / (1 - p_ab) * p_bc / (1 - p_bc)
    return odds / (1 + odds)


@exercise("25.implied", expects="the chance as an exact Fraction", varied=True, sealed=False)
def _implied(answer):
    p_ab, p_bc = lesson_numbers(25)["pairs"]
    right = implied_third(p_ab, p_bc)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}: a rating can only say 'A beats C' more surely than either step; "
                      "a cycle (C beats A) is exactly what it cannot express.")
    if a == p_ab * p_bc:
        return False, "that multiplies the chances; in Bradley-Terry it is the odds, p / (1 − p), that multiply."
    if a == (p_ab + p_bc) / 2:
        return False, "the average of the two chances is not what the model implies; multiply the odds."
    if a == 1 - right:
        return False, "that is C's chance of beating A."
    return False, "write each chance as odds, s_A/s_B = p_AB / (1 − p_AB); multiply the odds; turn the odds back into a chance."


# --- the answers (the teacher's key: `meeple.course.exercises.answer`) --------------------------

answer_of("22.expected_loss")(lambda: loss_of_adopting(*(x for pair in lesson_numbers(22)["record"] for x in pair)))
answer_of("22.power")(lambda: adoption_chance(*lesson_numbers(22)["rule"]))
answer_of("23.mean_variance")(lambda: mean_variance_best(lesson_numbers(23)["weight"]))
answer_of("23.two_turns")(lambda: two_turns(lesson_numbers(23)["need"]))
answer_of("24.second_pip")(lambda: second_pip(lesson_numbers(24)["face"]))
answer_of("24.fair_price")(lambda: loo_price(lesson_numbers(24)["option"]))
answer_of("25.match")(lambda: match_chance(*lesson_numbers(25)["strengths"], lesson_numbers(25)["best_of"]))
answer_of("25.implied")(lambda: implied_third(*lesson_numbers(25)["pairs"]))

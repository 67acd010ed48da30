"""Checkers and answers of lessons 19-21 (registered on import: see the package's docstring).

Every exercise's numbers come from its lesson's entry in `numbers.NUMBERS`
(`lesson_numbers(19)`, ...), in the course's per-student form (`student(...)` gives each student
their own): the lesson states the question from it and the checker computes the
answer from it.

A sampled exercise takes the student's evidence with their figure: the `Results` their
`simulate` call made (or an `Evidence`), or for a search by hand their runs, `{value: games}`. The shared evidence API
(`meeple.course.exercises.need_evidence`) checks that a run answers the question (game, rules,
bots, enough games, not interrupted) and is genuine (seeds, about 90 games replayed, an unchanged
table); a checker that needs every game's history replays them all; only then is the figure
judged, recomputed from the games. This module imports the engine only when a checker runs.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from meeple.rules import GAMES, bucket_king as bk, duck_duck_bruce as ddb, exact, piggyback_brigade as pb
from meeple.rules.core import play
from meeple.rules.stats import mean_ci, wilson

from .checking import Refused, exact_answer, exercise, fraction_text
from .evidence import Evidence, interval_and_run, need_evidence, own_interval
from .key import answer_of
from .numbers import LiveNumbers, exercise_numbers
from .search import closest, measured_runs, undecided


def lesson_numbers(lesson: int) -> dict:
    """{name: value} for lesson 19, 20 or 21's exercises, for the current student (see
    `meeple.course.exercises.student`; the choices are in `numbers.NUMBERS`). Lesson 20's
    `wait_game` is also given as `players`, `bots` and `special_one` and its `model` as `model_players`
    and `model_lives`, lesson 21's `model_race` as `model_players` and `model_spaces`, lesson 19's
    `drought` as `drought_bruces` and `drought_run`."""
    numbers = exercise_numbers(f"{lesson:02d}")
    if "drought" in numbers:
        numbers["drought_bruces"], numbers["drought_run"] = numbers["drought"]
    if "model" in numbers:
        numbers["model_players"], numbers["model_lives"] = numbers["model"]
    if "model_race" in numbers:
        numbers["model_players"], numbers["model_spaces"] = numbers["model_race"]
    if "wait_game" in numbers:
        numbers["players"], numbers["bots"], numbers["special_one"] = numbers["wait_game"]
    return numbers


def live_numbers(lesson: int) -> LiveNumbers:
    """`lesson_numbers(lesson)` as the lesson's cells read it: for the student in use at each look-up."""
    return LiveNumbers(lambda: lesson_numbers(lesson))


MAX_REPLAYED = 600  # games a checker replays at most (it stays within a few seconds)


# --- evidence: a Results that answers the question and is genuine --------------------------------

def evidence_problem(res, game: str, config, bots, min_games: int, replay_all: bool = False):
    """(problem or None, {game index: final state}): the shared `need_evidence` test (question and
    genuineness, about 90 games replayed), then with `replay_all` every game played again to
    its final state (for figures the table does not keep, such as who went out when)."""
    try:
        ev = need_evidence(res, game=game, config=config, bots=list(bots), games=min_games, rotate=False)
    except Refused as e:
        return str(e), {}
    if len(ev.records) > MAX_REPLAYED and replay_all:
        return f"play at most {MAX_REPLAYED} games for this check (it replays every one).", {}
    mod = GAMES[game]
    states = {}
    for g in ev.records if replay_all else ():
        state = play(mod, ev.config, list(g.bots), g.seed).state
        if tuple(mod.scores(state)) != tuple(g.scores) or tuple(mod.winners(state)) != tuple(g.winners):
            return (f"game {g.index} does not replay as recorded (its seed gives scores {mod.scores(state)}, "
                    f"your evidence says {list(g.scores)}): these are not the engine's games."), {}
        states[g.index] = state
    return None, states


# --- lesson 19: streaks (Duck, Duck, Bruce) ---------------------------------------------------------

def _ddb_counts():
    deck = ddb.Config().deck()
    return len(deck), sum(type(c) is ddb.Bruce for c in deck)


def next_bruce(flipped: int, bruces_seen: int) -> Fraction:
    """P(the next card of a round's pile is a Bruce) after `flipped` cards, `bruces_seen` of them Bruces."""
    cards, bruces = _ddb_counts()
    return Fraction(bruces - bruces_seen, cards - flipped)


@exercise("19.due", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _due(answer):
    n = lesson_numbers(19)
    k, b = n["flipped"], n["bruces_seen"]
    cards, bruces = _ddb_counts()
    right = next_bruce(k, b)
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}: {bruces - b} Bruces among the {cards - k} cards still face "
                      f"down. Against {Fraction(bruces, cards)} at the start of the round.")
    if a == Fraction(bruces, cards):
        return False, "that is the chance at the start of the round: the pile is not reshuffled after a flip (DDB-2)."
    if a == Fraction(bruces, cards - k):
        return False, f"{b} of the Bruces are already face up: they are not in the pile any more."
    if a == Fraction(bruces - b, cards):
        return False, f"the {k} cards flipped have left the pile too: count the cards still face down."
    return False, "count the Bruces still face down over the cards still face down."


def _drought_pile(bruce_cards: int) -> tuple[int, int]:
    """(cards, Bruces) of a round's pile in a game of `bruce_cards` Bruce cards (the base deck's ducks)."""
    deck = ddb.Config(bruce_cards=bruce_cards).deck()
    return len(deck), sum(type(c) is ddb.Bruce for c in deck)


def drought_chance(bruce_cards: int, run: int) -> Fraction:
    """P(a round's pile, with `bruce_cards` Bruces, has a stretch of at least `run` cards without one)."""
    cards, bruces = _drought_pile(bruce_cards)
    return exact.at_least(exact.longest_gap(cards, bruces), run)


@exercise("19.drought", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _drought(answer):
    n = lesson_numbers(19)
    b, run = n["drought_bruces"], n["drought_run"]
    cards, bruces = _drought_pile(b)
    right = drought_chance(b, run)
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{right} ≈ {float(right):.3f} of the rounds have a stretch of {run} or more cards without Bruce."
    iid = exact.at_least(exact.longest_run(cards, Fraction(cards - bruces, cards)), run)
    if a == iid:
        return False, ("that is the chance with replacement (every flip a Bruce with the same chance): this pile holds "
                       "exactly its Bruces, use longest_gap.")
    if a == exact.longest_gap(cards, bruces).get(run):
        return False, f"that is a longest stretch of exactly {run}; the question says {run} or more."
    if a == 1 - right:
        return False, "that is the chance that every stretch is shorter: the complement."
    if b != ddb.Config().bruce_cards and a == drought_chance(ddb.Config().bruce_cards, run):
        return False, (f"that is the base game's pile ({ddb.Config().bruce_cards} Bruces); yours holds {b} Bruces "
                       f"among {cards} cards (ddb.Config(bruce_cards={b}).deck()).")
    return False, f"take exact.longest_gap({cards}, {bruces}) and add the chances of {run}, {run + 1}, ..."


def cold_streak_chance(claims: int, claim: int, streak: int) -> Fraction:
    die = ddb.Config().die
    fail = Fraction(sum(1 for f in die if f < claim), len(die))  # a -1 fails too (DDB-7, DDB-8)
    return exact.at_least(exact.longest_run(claims, fail), streak)


@exercise("19.cold_streak", expects="the chance as an exact Fraction", varied=True, sealed=True)
def _cold_streak(answer):
    n = lesson_numbers(19)
    right = cold_streak_chance(n["claims"], n["claim"], n["streak"])
    a = exact_answer(answer, right)
    if a == right:
        return True, (f"{right} ≈ {float(right):.3f}: a cold streak of {n['streak']} is no sign of a cursed die; "
                      "the die has no memory.")
    die = ddb.Config().die
    fail = Fraction(sum(1 for f in die if f < n["claim"]), len(die))
    if a == fail ** n["streak"]:
        return False, (f"that is the chance that {n['streak']} given claims in a row all fail; a streak may start at "
                       f"any of the {n['claims']} claims.")
    if a == 1 - right:
        return False, "that is the chance that no run of failures is that long: the complement."
    if a == cold_streak_chance(n["claims"], n["claim"], n["streak"]) - cold_streak_chance(n["claims"], n["claim"], n["streak"] + 1):
        return False, f"that is a longest streak of exactly {n['streak']}; the question says at least."
    success = 1 - fail

    if a == exact.at_least(exact.longest_run(n["claims"], success), n["streak"]):
        return False, f"that counts runs of successes: a claim of {n['claim']} fails on every face below {n['claim']}."
    return False, (f"a claim of {n['claim']} fails on every face below {n['claim']} (the −1 too); use "
                   "exact.longest_run(claims, chance of a failure).")


# --- lesson 20: elimination (Bucket King, 5-6 players) -----------------------------------------------

def rounds_out(state) -> list[int | None]:
    """For each seat, the round (1-based) at whose end its pyramid was empty (BK-16), or None."""
    size = sum(state.config.rows)
    left, out = [size] * state.config.players, [None] * state.config.players
    for r, lost in enumerate(state.history, start=1):
        for seat, x in enumerate(lost):
            left[seat] -= x
            if left[seat] == 0 and out[seat] is None:
                out[seat] = r
    return out


def first_out_wait(state) -> int | None:
    """Rounds the first player out sat out: the game's rounds after the first elimination
    (None if nobody went out). Several players out in the same round wait alike."""
    outs = [r for r in rounds_out(state) if r is not None]
    return len(state.history) - min(outs) if outs else None


@lru_cache(maxsize=16)
@lru_cache(maxsize=None)
def model_wait(players: int, lives: int) -> Fraction:
    return sum(((r2 - r1) * p for (r1, r2), p in exact.elimination_rounds(players, lives).items()), Fraction(0))


@exercise("20.model_wait", expects="the expected rounds as an exact Fraction", varied=True, sealed=True)
def _model_wait(answer):
    n = lesson_numbers(20)
    players, lives = n["model_players"], n["model_lives"]
    dist = exact.elimination_rounds(players, lives)
    right = model_wait(players, lives)
    a = exact_answer(answer, right)
    if a == right:
        return True, f"{fraction_text(right, 25)}, ≈ {float(right):.2f} rounds of waiting, on average, in the model."
    first = sum((r1 * p for (r1, _), p in dist.items()), Fraction(0))
    second = sum((r2 * p for (_, r2), p in dist.items()), Fraction(0))
    if a == first:
        return False, "that is when the first player goes out; the wait is from then until the second goes out."
    if a == second:
        return False, "that is when the game ends; subtract the round in which the first player went out."
    return False, (f"use exact.elimination_rounds({players}, {lives}): the mean of r2 − r1 over its "
                   "(r1, r2) pairs, each weighted by its chance.")


def wait_config(numbers: "dict | None" = None):
    """The Bucket King rules 20.wait asks about (this student's players and variant)."""
    n = lesson_numbers(20) if numbers is None else numbers
    return bk.Config(players=n["players"], end_rule=n["end_rule"], special_one=n["special_one"])


def _bk_question():
    n = lesson_numbers(20)
    return wait_config(n), (n["bots"],) * n["players"]


@exercise("20.wait", expects="(results, (low, high)): your simulate(...) Results and your 95% interval", varied=True, sealed=False)
def _wait(answer):
    interval, res = interval_and_run(answer, run_first=True, example=(
        "(results, (low, high)): the Results of your simulate call and your interval"))
    n = lesson_numbers(20)
    config, bots = _bk_question()
    problem, states = evidence_problem(res, "bucket-king", config, bots, n["min_games"], replay_all=True)
    if problem:
        return False, problem
    waits = [w for w in (first_out_wait(states[i]) for i in sorted(states)) if w is not None]
    mean, low, high = own_interval(interval, waits, (
        f"your interval ({interval[0]:.4g}, {interval[1]:.4g}) is not the one your own games give for the mean wait; "
        "compute it from these Results (the lesson's recipe)."))
    # (the model's wait is 20.model_wait's recipe: not worked out here, so a graded build, which
    # leaves that recipe out, carries no function that gives its answer)
    return True, (f"in your {len(waits)} games (every one replayed from its seed) the first player out waits "
                  f"{mean:.2f} rounds ({low:.2f} to {high:.2f}); compare it with the one-bucket-a-round model's "
                  f"wait for {n['players']} players and the same {sum(config.rows)} buckets (section 1's method).")


# --- lesson 21: the first seat (Piggyback Brigade) ---------------------------------------------------

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


# --- the answers (the teacher's key: `meeple.course.exercises.answer`) --------------------------

answer_of("19.due")(lambda: next_bruce(lesson_numbers(19)["flipped"], lesson_numbers(19)["bruces_seen"]))
answer_of("19.drought")(lambda: drought_chance(*lesson_numbers(19)["drought"]))
answer_of("19.cold_streak")(lambda: cold_streak_chance(lesson_numbers(19)["claims"], lesson_numbers(19)["claim"], lesson_numbers(19)["streak"]))
answer_of("20.model_wait")(lambda: model_wait(lesson_numbers(20)["model_players"], lesson_numbers(20)["model_lives"]))
answer_of("21.model_seat")(lambda: model_first_seat(lesson_numbers(21)["model_players"], lesson_numbers(21)["model_spaces"]))


WAIT_SEED, TUNED_SEED = 7, 5  # the seeds of 20.wait's and 21.tuned's solutions: the key plays the solution's games


@lru_cache(maxsize=16)
def _reference_wait(players: int, end_rule: str, special_one: bool, bots: str, games: int,
                    seed: int = WAIT_SEED) -> tuple[float, float]:
    """The interval of the first player out's wait in the solution's games (standard library)."""
    config = bk.Config(players=players, end_rule=end_rule, special_one=special_one)
    ev = Evidence.play("bucket-king", config, bots, games=games, seed=seed)
    waits = [first_out_wait(play(bk, config, list(g.bots), g.seed).state) for g in ev.records]
    return mean_ci([w for w in waits if w is not None])[1:]


@answer_of("20.wait")
def _wait_answer():
    """The interval the solution's games give (seed WAIT_SEED); a student's games give their own."""
    n = lesson_numbers(20)
    return _reference_wait(n["players"], n["end_rule"], n["special_one"], n["bots"], n["min_games"])


@lru_cache(maxsize=16)
def _reference_tuning(players: int, field: str, values: tuple, bots: str, games: int, seed: int = TUNED_SEED):
    """The length a search over every value picks on the solution's seeds (standard library)."""
    measured = {v: seat_one_advantage(Evidence.play("piggyback-brigade", pb.Config(players=players).with_values({field: v}),
                                                    bots, games=games, seed=seed))
                for v in range(values[0], values[1] + 1)}
    return closest(measured, 0.0)


@answer_of("21.tuned")
def _tuned_answer():
    """The length the solution's search picks (seed TUNED_SEED; a student's seeds may pick a neighbour)."""
    n = lesson_numbers(21)
    return _reference_tuning(n["players"], n["tune_field"], tuple(n["tune_values"]), n["bots"], n["tune_games"])

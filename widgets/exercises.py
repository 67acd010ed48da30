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
Lessons 1-7 keep their checkers here; lessons 8-14 in `exercises_more` and
19-21 in `exercises_19_21`, which are imported on the first `check`. This module imports no altair or pandas:
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
        from . import exercises_19_21  # noqa: F401  (registers lessons 19-21)


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
    if answer is None or answer is Ellipsis or (isinstance(answer, tuple) and answer
                                                and all(a is None or a is Ellipsis for a in answer)):
        want = _EXPECTS.get(key, "your answer")
        _show(f"✗ No answer yet: put {want} in place of `...` and run the cell again.")
        return False
    try:
        ok, text = _CHECKERS[key](answer)
    except WrongKind as e:
        _show(f"✗ Not the right kind of answer for `{key}`: {e}")
        return False
    except Refused as e:
        ok, text = False, str(e)
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


# --- evidence: a sampled answer comes with the games that made it ---------------------------

REPLAY = 90  # games replayed per check: a table with 5% forged games is caught with chance 1 - 0.95**90 > 99%


class Refused(Exception):
    """Evidence that does not answer the question asked, or is not what the engine played;
    its text is the hint `check` shows ("✗ Not yet: <text>")."""


class Evidence:
    """The games of one run, as a checker of a sampled exercise takes them (standard library only).

    Make it with `Evidence.play(game, config, bots, games, seed, rotate=False)` (plays in this
    process; works where pandas does not, e.g. the site's Pyodide), or pass what
    `simulate(..., keep="games")` returns (a Results: `Evidence.of` reads it). Attributes:
    `game` (the module's NAME), `config`, `bots` (one name per seat, before rotation), `seed`,
    `rotate`, `records` (the GameResults, game i played with seed `derive(seed, "game", i)`),
    `partial`. `rows()` gives one dict per game x seat (game, seat, bot, score, won, win_share
    and the game's own per-seat columns), the same rows as Results.table.

    THE CONTRACT for a checker of a sampled answer (lessons 15-21 use it too):

        ev = need_evidence(answer, game="bucket-brigade", config=Config(rounds=1, bonus=6),
                           bots="random", games=200)
        ... compute the figure from ev.records or ev.rows(), compare it with what the student
        says it is (`agrees_to_digits`), and only then judge it against the engine's own ...

    `need_evidence` raises WrongKind when `answer` is not a run's games at all, and Refused (a
    hint, shown as "✗ Not yet") when the run answers another question (game, rules, bots, too
    few games, an interrupted run) or is not genuine: its games must be numbered 0..n-1, each
    with the seed the run's seed gives it, and `replay` of them (chosen at random, 90 by
    default) must replay from their seeds to the same GameResult. A pandas `table` that the
    evidence carries must agree with its records. For evidence that is a table of other things
    (dealt hands, a round-robin), `replay_sample(claims, replay, what)` is the same test on any
    {key: claimed value} mapping.
    """

    def __init__(self, game, config, bots, seed, rotate, records, partial=False, table=None):
        self.game, self.config, self.bots, self.seed = game, config, tuple(bots), seed
        self.rotate, self.records, self.partial, self.table = rotate, list(records), partial, table

    @classmethod
    def play(cls, game, config=None, bots="random", games: int = 200, seed: int = 0, rotate: bool = False) -> "Evidence":
        """Play `games` games here, as `simulate` would (same seeds, same GameResults), with no pandas."""
        from meeple.rules.core import game_module, resolve_bots
        from meeple.rules.simulate import play_game

        mod = game_module(game)
        config = mod.Config() if config is None else config
        names, funcs = resolve_bots(mod, bots, config.players)
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games={games!r} is not allowed: a whole number of games, at least 1")
        records = [play_game(mod, config, names, funcs, seed, i, rotate) for i in range(games)]
        return cls(mod.NAME, config, names, seed, rotate, records)

    @classmethod
    def of(cls, run) -> "Evidence":
        """A Results (or an Evidence) as Evidence; WrongKind for anything else."""
        if isinstance(run, Evidence):
            return run
        if hasattr(run, "tally"):
            raise WrongKind("simulate(..., keep='summary') keeps running totals, not the games a checker replays: "
                            "run simulate with keep='games' (the default), or use Evidence.play")
        try:
            # a Results makes its pandas table on first use: one never made cannot disagree (and
            # without pandas, in the site's Python, none can be made)
            made = getattr(run, "_frames", True) is not None
            return cls(run.game, run.config, run.bots, run.seed, run.rotate, run.records, run.partial,
                       getattr(run, "table", None) if made else None)
        except AttributeError:
            raise WrongKind(f"expected the games you simulated (what simulate(...) returns, or Evidence.play(...)), "
                            f"got {type(run).__name__}") from None

    def rows(self) -> list[dict]:
        """One dict per game x seat: game, seat, bot, score, won, win_share and per-seat own columns."""
        out = []
        for g in self.records:
            n = len(g.scores)
            for s in range(n):
                row = {"game": g.index, "seat": s, "bot": g.bots[s], "score": g.scores[s],
                       "won": s in g.winners, "win_share": 1 / len(g.winners) if s in g.winners else 0.0}
                row.update({k: v[s] for k, v in g.stats.items() if isinstance(v, (list, tuple)) and len(v) == n})
                out.append(row)
        return out

    def __repr__(self) -> str:
        return f"<Evidence {self.game}: {len(self.records)} games, seed {self.seed}, bots {', '.join(self.bots)}>"


def replay_sample(claims, replay, what: str = "row", k: int = REPLAY, rng=None) -> None:
    """Replay `k` of `claims` ({key: claimed value}, keys chosen at random) with `replay(key)`;
    Refused naming the first that differs. `rng` (a random.Random) only for tests: by default
    the choice is fresh each time, so a forger cannot know which rows are looked at."""
    import random

    keys = list(claims)
    rng = rng or random.SystemRandom()
    for key in sorted(rng.sample(keys, min(k, len(keys))), key=repr):
        if replay(key) != claims[key]:
            raise Refused(f"{what} {key!r} does not replay from its seed to what your evidence says: "
                          "pass the games (or deals) exactly as the engine made them.")


def need_evidence(answer, *, game: str, config, bots, games: int, rotate: bool | None = None,
                  replay: int = REPLAY, rng=None) -> Evidence:
    """`answer` as Evidence that it answers this question and is genuine (see Evidence).
    `bots`: as simulate takes them ("random", "heuristic,random", a list); `games`: the least
    number of games the question asks for; `rotate`: None when either is fine."""
    from meeple.rules.chance import derive
    from meeple.rules.core import game_module, resolve_bots
    from meeple.rules.simulate import play_game

    ev = Evidence.of(answer)
    mod = game_module(game)
    if ev.game != mod.NAME:
        raise Refused(f"your games are of {ev.game}; the question is about {mod.NAME}.")
    if ev.config != config:
        raise Refused(f"your games were played with other rules ({ev.config.describe()}); the question asks for "
                      f"{config.describe()}.")
    want, _ = resolve_bots(mod, bots, config.players)
    have, funcs = resolve_bots(mod, ev.bots, config.players)
    if have != want:
        raise Refused(f"your games seat {', '.join(have)}; the question asks for {', '.join(want)}.")
    if rotate is not None and bool(ev.rotate) != rotate:
        raise Refused("the question asks for the seats " + ("rotated (rotate=True)." if rotate else "not rotated."))
    if ev.partial:
        raise Refused("your run was interrupted: run it again to the end.")
    if len(ev.records) < games:
        raise Refused(f"{len(ev.records)} games are too few for this question: play at least {games}.")
    if sorted(g.index for g in ev.records) != list(range(len(ev.records))):
        raise Refused("your games are not games 0, 1, 2, ... of one run: keep every game the run played, "
                      "not a choice of them.")
    wrong = next((g.index for g in ev.records if g.seed != derive(ev.seed, "game", g.index)), None)
    if wrong is not None:
        raise Refused(f"game {wrong} does not carry the seed that run seed {ev.seed} gives it.")
    by_index = {g.index: g for g in ev.records}
    replay_sample(by_index, lambda i: play_game(mod, ev.config, have, funcs, ev.seed, i, ev.rotate), "game", replay, rng)
    if ev.table is not None:
        from meeple.rules.simulate import _tables

        made = _tables(config.players, ev.records)[0]
        if list(ev.table.index) != list(made.index) or not all(
                c in ev.table.columns and ev.table[c].equals(made[c]) for c in made.columns):
            raise Refused("your results' table was changed after the games were played: "
                          "it no longer says what the games did.")
    return ev


def agrees_to_digits(given, want: float, least: int = 2) -> "int | None":
    """The number of decimals of `given` (counted as at least `least`, since a float drops trailing
    zeros) when it is `want` rounded to them; None when it does not agree. A float that is `want` to float precision counts as 15 digits."""
    if math.isclose(given, want, rel_tol=1e-9, abs_tol=1e-12):
        return 15
    text = repr(float(given))
    if "e" in text:
        return None
    digits = max(len(text.split(".")[1]) if "." in text else 0, least)  # 0.50 is typed 0.50 but stored 0.5
    return digits if abs(given - want) <= 0.5 * 10 ** -digits + 1e-12 else None


# --- fresh numbers per student ---------------------------------------------------------------

# Each lesson's varied numbers: {lesson: {name: (default, other choices...)}}, drawn from the
# rules' own parameters. Without a student id every lesson uses the defaults (its printed
# numbers); with one, each name takes the choice a stable hash of (id, lesson, name) picks.
NUMBERS: dict[str, dict[str, tuple]] = {
    "07": {"bruce_cards": (6, 4, 5, 7, 8, 9), "cards": (10, 8, 9, 11, 12)},
    "08": {"extra_bruces": (2, 1, 3, 4)},
    "09": {"trail": (4, 3, 5), "lead": (2, 1, 3)},
    "10": {"reds": (3, 2, 4), "led": (5, 4, 6)},
    "14": {"wins": (60, 58, 59, 61, 62, 63)},
    # lessons 15-18 (exercises_15_18.PARAMS reads these; none is a number the lesson shows before asking)
    "15": {"prior": ((2, 6), (3, 9), (2, 8), (4, 12), (3, 7)), "record": ((9, 24), (7, 20), (11, 30), (8, 28), (12, 32)),
           "fair": (Fraction(1, 4), Fraction(1, 5), Fraction(1, 3))},
    "16": {"turns": (2, 3), "at_most": (10, 8, 9, 11, 12), "variance_turns": (3, 2, 4, 5, 6)},
    "17": {"players": (5, 3, 6, 7), "rounds": (2, 1, 3)},
    "18": {"lead": (-2, -3, -4)},
}
# the exercises whose numbers are the student's (the rest use the lessons' own numbers for everyone)
VARIED = {"07.third", "07.no_double", "07.bruces", "08.five_ducks", "09.trailer", "09.leader", "10.three_red",
          "10.three_red_sampled", "10.led_five", "14.luck_alone"}
VARIED |= {"15.posterior_mean", "15.above_fair", "16.at_most", "16.variance", "17.first_by", "18.value", "18.mix"}
_student: "str | None" = None


def normalise(name_or_id) -> str:
    """A student id as the hash reads it: case, accents' case and runs of spaces do not matter."""
    if not isinstance(name_or_id, str) or not name_or_id.strip():
        raise ValueError(f"a student id is a non-empty name or number as text, got {name_or_id!r}")
    return " ".join(name_or_id.casefold().split())


def student(name_or_id: "str | None") -> "str | None":
    """Use this student's numbers in every exercise from now on (None: the lesson's own numbers).
    The environment variable MEEPLE_STUDENT sets the same for a whole class's machines.
    Returns the normalised id."""
    global _student
    _student = None if name_or_id is None else normalise(name_or_id)
    return _student


def current_student() -> "str | None":
    """The id in use: `student(...)`'s, else MEEPLE_STUDENT's, else None."""
    import os

    if _student is not None:
        return _student
    env = os.environ.get("MEEPLE_STUDENT", "").strip()
    return normalise(env) if env else None


def exercise_numbers(lesson: str, who: "str | None" = ...) -> dict:
    """The numbers lesson `lesson` ("07") asks this student about: {name: value}. `who` (an id)
    overrides the current student; None gives the defaults."""
    import hashlib

    if lesson not in NUMBERS:
        return {}
    sid = current_student() if who is ... else (None if who is None else normalise(who))
    out = {}
    for name, choices in NUMBERS[lesson].items():
        if sid is None:
            out[name] = choices[0]
        else:
            h = hashlib.sha256(f"{sid}\0{lesson}\0{name}".encode()).digest()
            out[name] = choices[int.from_bytes(h[:8], "big") % len(choices)]
    return out


def _numbers_of(key: str) -> dict:
    return exercise_numbers(key.split(".", 1)[0])


# --- the answer key: what each exercise's checker accepts, for the teacher --------------------

_ANSWERS: dict[str, Callable[[], Any]] = {}


def answer_of(key: str) -> Callable:
    """Decorator: register `f() -> answer` as exercise `key`'s answer (what its checker takes as
    right, or for an open exercise one answer it accepts), computed as the checker computes it."""
    def register(f):
        _ANSWERS[key] = f
        return f
    return register


def answer(key: str, who: "str | None" = ...) -> Any:
    """Exercise `key`'s answer (see `answer_of`) for student `who` (default: the current one;
    None: the lesson's own numbers); ValueError for an unknown key."""
    global _student
    _load_more()
    if key not in _ANSWERS:
        raise ValueError(f"no exercise {key!r}; exercises: {', '.join(sorted(_ANSWERS))}")
    if who is ...:
        return _ANSWERS[key]()
    import os

    saved, env = _student, os.environ.pop("MEEPLE_STUDENT", None)
    try:
        _student = None if who is None else normalise(who)
        return _ANSWERS[key]()
    finally:
        _student = saved
        if env is not None:
            os.environ["MEEPLE_STUDENT"] = env


def shown(value) -> str:
    """An answer as the key prints it: a Fraction with its decimal, a pair in brackets."""
    if isinstance(value, Fraction):
        return f"{value} ≈ {float(value):.4g}" if value.denominator != 1 else str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(shown(v) for v in value) + ")"
    return str(value)


def read_roster(text: str) -> list[str]:
    """Student ids from a class roster CSV: the column headed `id`, else `name` (case ignored),
    one student a row. ValueError naming the row for a missing column, an empty id or a repeat."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise ValueError("the roster is empty: a CSV with a header row naming a column 'name' or 'id'")
    head = [h.strip().casefold() for h in rows[0]]
    col = head.index("id") if "id" in head else head.index("name") if "name" in head else None
    if col is None:
        raise ValueError(f"the roster's header {rows[0]!r} has no column 'name' or 'id'")
    names, seen = [], {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        if col >= len(row) or not row[col].strip():
            raise ValueError(f"roster row {n} has no {head[col]}")
        key = normalise(row[col])
        if key in seen:
            raise ValueError(f"roster rows {seen[key]} and {n} are the same student ({row[col].strip()!r})")
        seen[key] = n
        names.append(row[col].strip())
    if not names:
        raise ValueError("the roster lists no students")
    return names


_SHARED: dict = {}


def answer_key(who: "str | None") -> "list[tuple[str, str]]":
    """(exercise, answer as text) for every exercise, for student `who` (None: the lessons' own numbers)."""
    out = []
    for key in keys():
        varied = key in VARIED
        if varied:
            value = answer(key, who)
        else:  # the same for every student: worked out once (some play games)
            if key not in _SHARED:
                _SHARED[key] = answer(key, None)
            value = _SHARED[key]
        extra = ""
        if varied:
            extra = "   [numbers: " + ", ".join(f"{k}={v}" for k, v in exercise_numbers(key[:2], who).items()) + "]"
        out.append((key, shown(value) + extra))
    return out


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
        rows = Evidence.of(res).rows()  # the records, not the pandas table: checkers run in the site's Python too
        enders = [r for r in rows if r.get("rounds_ended") == 1]
        _memo[key] = (sum(r["won"] for r in enders), len(enders), sum(r["won"] for r in rows) / len(rows))
    return _memo[key]


@exercise("01.wilson", expects="a pair (low, high), e.g. (0.3, 0.8)")
def _wilson_7_of_10(answer):
    from meeple.rules.stats import Z95, wilson

    lo, hi = need_interval(answer)
    want = wilson(7, 10)
    digits = min(agrees_to_digits(lo, want[0]) or 0, agrees_to_digits(hi, want[1]) or 0)
    if digits or (abs(lo - want[0]) < 0.003 and abs(hi - want[1]) < 0.003):
        said = (f"{lo:.3f} to {hi:.3f}" if digits >= 15 else
                f"{lo} to {hi} agrees with Wilson's {want[0]:.4f} to {want[1]:.4f} to your digits")
        return True, f"{said}. Seven of ten is a weak clue: the interval is wide."
    wald = (0.7 - Z95 * math.sqrt(0.21 / 10), 0.7 + Z95 * math.sqrt(0.21 / 10))
    if abs(lo - wald[0]) < 0.003 and abs(hi - wald[1]) < 0.003:
        return False, "that is p ± 1.96·se (the Wald interval); the lesson's interval is Wilson's (`stats.wilson`)."
    if hi > 1.0 or lo < 0.0:
        return False, "a proportion's interval lies between 0 and 1 (write 0.25, not 25)."
    if not lo < 0.7 < hi:
        return False, "the interval should contain the observed proportion 7/10."
    return False, "use `stats.wilson(successes, trials)` with 7 successes in 10 trials."


ENDER_BONUS, ENDER_LEAST = 6, 200


def _interval_hint(given, want, what: str) -> "tuple[bool, str] | None":
    """None when `given` is `want` (to the student's digits), else the hint."""
    d_lo, d_hi = agrees_to_digits(given[0], want[0]), agrees_to_digits(given[1], want[1])
    if d_lo and d_hi:
        return None
    return False, f"{what} is not the Wilson interval of your own games ({want[0]:.3f} to {want[1]:.3f})."


@exercise("01.ender", expects="(interval, games): your 95% interval and the simulate(...) result it came from")
def _ender_bonus_6(answer):
    from meeple.rules.bucket_brigade import Config
    from meeple.rules.stats import Z95, wilson

    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2 \
            or isinstance(answer[0], numbers.Real):
        raise WrongKind("pass the pair (interval, games): your (low, high) and what simulate(...) returned, "
                        f"e.g. check('01.ender', (ender_interval, six)); got {answer!r:.80}")
    lo, hi = need_interval(answer[0])
    if hi > 1.0 or lo < 0.0:
        return False, "a win rate's interval lies between 0 and 1 (write 0.25, not 25)."
    ev = need_evidence(answer[1], game="bucket-brigade", config=Config(rounds=1, bonus=ENDER_BONUS),
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
    won_e, n_e = ender_win_rate(ENDER_BONUS)
    elo, ehi = wilson(won_e, n_e)
    if mine[1] < elo or mine[0] > ehi:
        return False, (f"your games give {mine[0]:.1%} to {mine[1]:.1%}, which misses the engine's own estimate from "
                       "other seeds: that happens by bad luck about once in a few hundred runs. Try another seed.")
    fair = ender_fair_share(ENDER_BONUS)
    verdict = "above" if lo > fair else "not clearly above"
    return True, (f"{won} of {n} rounds: {lo:.1%} to {hi:.1%}, checked against your games (replayed from their "
                  f"seeds) and overlapping the engine's {n_e} rounds ({elo:.1%} to {ehi:.1%}). It lies {verdict} the "
                  f"fair share (a seat wins or ties {fair:.1%} of rounds): at bonus {ENDER_BONUS} the ender "
                  f"{'is' if lo > fair else 'may not be'} favoured.")


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
        wins = math.fsum(r["win_share"] for r in Evidence.of(res).rows() if r["seat"] == 0)  # no pandas
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
HALF = 0.02  # 05.games: the half-width asked for (the lesson shows the games for a half-width of EDGE)


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
    want = games_for_half_width(EDGE_FAIR + EDGE, HALF)
    if abs(n - want) <= 0.02 * want:
        return True, f"about {want} games: then the interval is ±{HALF:.0%} around {EDGE_FAIR + EDGE:.0%}."
    if abs(n - games_for_half_width(EDGE_FAIR + EDGE, HALF / 2)) <= 0.02 * want * 4:
        return False, (f"that makes the interval {HALF * 100:.0f} points wide in total; the question asks for "
                       f"{HALF * 100:.0f} points either side.")
    from meeple.rules.stats import Z95

    p = EDGE_FAIR + EDGE
    return False, (f"{n} games give a half-width of {Z95 * math.sqrt(p * (1 - p) / n):.3f}; "
                   f"solve z·√(p(1−p)/n) = {HALF} for n.")


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

def _rules_07():
    """Lesson 7's exercise deck: the base deck with this student's number of Bruces."""
    from meeple.rules import duck_duck_bruce as ddb

    return ddb.Config(bruce_cards=exercise_numbers("07")["bruce_cards"])


def _round_start_after_one_duck(ducks: int = 1):
    """(row suits, remaining {suit: ducks, None: Bruces}) after a round's first `ducks` flips
    showed ducks of that many different suits."""
    from collections import Counter

    from meeple.rules import duck_duck_bruce as ddb

    cfg = _rules_07()
    row = list(cfg.suits[:ducks])  # every suit is alike: take the first ones
    left = Counter(None if type(c) is ddb.Bruce else c.suit for c in cfg.deck())
    for suit in row:
        left[suit] -= 1
    return row, dict(left)


def _third_flip_answer() -> Fraction:
    row, left = _round_start_after_one_duck(2)
    return Fraction(sum(left[s] for s in row) + left[None], sum(left.values()))


@exercise("07.third", expects="an exact Fraction")
def _third_flip(answer):
    from meeple.rules import duck_duck_bruce as ddb

    row, left = _round_start_after_one_duck(2)
    cards = sum(left.values())
    want = _third_flip_answer()
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want}: the cards that bust it over the cards still face down."
    deck = len(_rules_07().deck())
    if x == Fraction(sum(left[s] for s in row) + len(row) + left[None], deck):
        return False, "that counts the flipped ducks as if they went back into the pile: this deck has two cards fewer now."
    if x == Fraction(sum(left[s] for s in row) + left[None], cards + 1):
        return False, "two cards have left the pile, not one: count what is still face down after both flips."
    if x in (Fraction(left[None], cards), Fraction(sum(left[s] for s in row), cards),
             Fraction(left[row[0]] + left[None], cards)):
        return False, "a Bruce and a duck of either suit in the row end the turn: count all of them."
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

    deck = _rules_07().deck()
    cards = exercise_numbers("07")["cards"]
    dist = exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck), cards)
    want = exact.at_least(dist, 1)
    x, hint = need_exact(answer, want)
    if x is None:
        return False, hint
    if x == want:
        return True, f"{want} ≈ {float(want):.3f}."
    if x == dist.get(1):
        return False, "that is exactly one Bruce; the question says at least one."
    return False, f"take 1 minus the chance of no Bruce among {cards} cards drawn without replacement (hypergeometric)."



# --- the answers of lessons 1-7 (the teacher's key: `meeple answers`) --------------------------

answer_of("01.wilson")(lambda: __import__("meeple.rules.stats", fromlist=["wilson"]).wilson(7, 10))


@answer_of("01.ender")
def _ender_answer():
    from meeple.rules.stats import wilson

    return wilson(*ender_win_rate(ENDER_BONUS))  # the engine's estimate; a student's own games give their own


@answer_of("02.moments")
def _moments_answer():
    from meeple.rules import exact

    d = exact.die(PRACTICE_DIE)
    return exact.mean(d), exact.variance(d)


@answer_of("02.die")
def _die_answer():
    from itertools import combinations_with_replacement

    from meeple.rules import exact

    for n in (8, 16):  # the fewest faces that can (see the checker's hint)
        for faces in combinations_with_replacement(range(1, 10), n):
            d = exact.die(faces)
            if exact.mean(d) == Fraction(5, 2) and exact.variance(d) == 1:
                return faces


@answer_of("03.chase")
def _chase_answer():
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    return exact.chase_turn_mean(pb.Config(), CHASE_GAP)


@answer_of("03.seat")
def _seat_answer():
    wins, games, lo, hi = seat_one_at_four()
    return "yes" if lo > 0.25 else "no" if hi < 0.25 else "cannot tell"


@answer_of("04.track")
def _track_answer():
    means, length = {}, 1
    while not means or means[length - 1] <= TARGET_TURNS + 1:
        means[length] = _trial_mean(length)
        length += 1
    return min(means, key=lambda k: abs(means[k] - TARGET_TURNS))


@answer_of("04.slow")
def _slow_answer():
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    return exact.at_least(exact.time_trial_turns(pb.Config()), 4)


answer_of("05.games")(lambda: games_for_half_width(EDGE_FAIR + EDGE, HALF))
answer_of("05.power")(lambda: games_for_power(EDGE_FAIR, EDGE_FAIR + EDGE))


@answer_of("06.catchup")
def _catchup_answer():
    from meeple.rules import piggyback_brigade as pb

    # one rule that passes: only the last piglet rerolls
    return pb.Config(rerolls=(pb.IF_LAST,) * 6).rerolls


@answer_of("06.boost")
def _boost_answer():
    from meeple.rules import exact
    from meeple.rules import piggyback_brigade as pb

    base = pb.Config()
    plain = pb.Config(rerolls=tuple(pb.NO if r == pb.IF_LAST else r for r in base.rerolls))
    return exact.chase_turn_mean(base, 4) - exact.chase_turn_mean(plain, 4)


answer_of("07.third")(_third_flip_answer)


@answer_of("07.no_double")
def _no_double_answer():
    from meeple.rules import exact

    row, left = _round_start_after_one_duck()
    return exact.fresh_flips(row, left, 3)


@answer_of("07.bruces")
def _bruces_answer():
    from meeple.rules import duck_duck_bruce as ddb
    from meeple.rules import exact

    deck = _rules_07().deck()
    return exact.at_least(exact.hypergeometric(len(deck), sum(type(c) is ddb.Bruce for c in deck),
                                               exercise_numbers("07")["cards"]), 1)

"""Evidence: a sampled answer comes with the games that made it.

A checker of a sampled exercise takes the student's figure together with the run it came
from (`Evidence`, or the `Results` of `simulate`), checks with `need_evidence` that the run
answers the question asked and is genuine (about 90 of its games replayed from their seeds),
and only then judges the figure. Every sampled checker has one shape:

    interval, run = interval_and_run(answer, ...)      # the pair the exercise asks for
    ev = need_evidence(run, game=..., config=..., bots=..., games=...)
    mean, low, high = own_interval(interval, values_from(ev), hint)   # the student's own games
    ... then the verdict, against the engine's own figure or the exact model ...

Standard library only (the site runs these in Pyodide, where there is no pandas).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from meeple.rules import GAMES
from meeple.rules.chance import game_seed
from meeple.rules.config import show_setting  # a rule's value as --set and `meeple rules` write it
from meeple.rules.core import game_module, play, resolve_bots
from meeple.rules.sim import play_game
from meeple.rules.sim.results import make_tables as _tables
from meeple.rules.stats import mean_ci

from .checking import NoAnswer, Refused, WrongKind, agrees_to_digits, need_interval

REPLAY = 90  # games replayed per check: a table with 5% forged games is caught with chance 1 - 0.95**90 > 99%


class Evidence:
    """The games of one run, as a checker of a sampled exercise takes them (standard library only).

    Make it with `Evidence.play(game, config, bots, games, seed, rotate=False)` (plays in this
    process; works where pandas does not, e.g. the site's Pyodide), or pass what
    `simulate(..., keep="games")` returns (a Results: `Evidence.of` reads it). Attributes:
    `game` (the module's NAME), `config`, `bots` (one name per seat, before rotation), `seed`,
    `rotate`, `records` (the GameResults, game i played with seed `chance.game_seed(seed, i)`),
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
    keys = list(claims)
    rng = rng or random.SystemRandom()
    for key in sorted(rng.sample(keys, min(k, len(keys))), key=repr):
        if replay(key) != claims[key]:
            raise Refused(f"{what} {key!r} does not replay from its seed to what your evidence says: "
                          "pass the games (or deals) exactly as the engine made them.")


def rule_differences(have, want) -> str:
    """Every field in which the rules `have` differ from `want`, with both sides' values, defaults
    included ("bonus=3 where the question has bonus=6"): describe() names only the fields that
    differ from the defaults, so a student's default bonus 3 against the question's 6 would not show."""
    if type(have) is not type(want) or not dataclasses.is_dataclass(want):
        return f"{have.describe()}, where the question has {want.describe()}"
    names = [f.name for f in dataclasses.fields(want) if getattr(have, f.name) != getattr(want, f.name)]
    return (", ".join(f"{n}={show_setting(getattr(have, n))}" for n in names) + " where the question has "
            + ", ".join(f"{n}={show_setting(getattr(want, n))}" for n in names))


def need_evidence(answer, *, game: str, config, bots, games: int, rotate: bool | None = None,
                  replay: int = REPLAY, rng=None) -> Evidence:
    """`answer` as Evidence that it answers this question and is genuine (see Evidence).
    `bots`: as simulate takes them ("random", "heuristic,random", a list); `games`: the least
    number of games the question asks for; `rotate`: None when either is fine."""
    ev = Evidence.of(answer)
    mod = game_module(game)
    if ev.game != mod.NAME:
        raise Refused(f"your games are of {ev.game}; the question is about {mod.NAME}.")
    if ev.config != config:
        raise Refused(f"your games were played with other rules: {rule_differences(ev.config, config)}.")
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
    wrong = next((g.index for g in ev.records if g.seed != game_seed(ev.seed, g.index)), None)
    if wrong is not None:
        raise Refused(f"game {wrong} does not carry the seed that run seed {ev.seed} gives it.")
    by_index = {g.index: g for g in ev.records}
    replay_sample(by_index, lambda i: play_game(mod, ev.config, have, funcs, ev.seed, i, ev.rotate), "game", replay, rng)
    if ev.table is not None:
        made = _tables(config.players, ev.records)[0]
        if list(ev.table.index) != list(made.index) or not all(
                c in ev.table.columns and ev.table[c].equals(made[c]) for c in made.columns):
            raise Refused("your results' table was changed after the games were played: "
                          "it no longer says what the games did.")
    return ev


def interval_and_run(answer: Any, *, run_first: bool, example: str) -> "tuple[tuple[float, float], Any]":
    """(interval, run) from the pair a sampled exercise takes: the student's (low, high) and the
    run it came from, in the order the exercise names them (`run_first`). WrongKind, naming
    `example` (how the lesson's cell passes them), for anything that is not such a pair."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (tuple, list)) or len(answer) != 2:
        raise WrongKind(f"pass the pair {example}; got {answer!r:.80}")
    run, interval = answer if run_first else answer[::-1]
    if run is Ellipsis or interval is Ellipsis:
        raise NoAnswer(example)
    try:
        return need_interval(interval), run
    except WrongKind:
        raise WrongKind(f"pass the pair {example}; got {answer!r:.80}") from None


def own_interval(given, values, wrong: str) -> "tuple[float, float, float]":
    """(mean, low, high): the 95% interval of the mean of `values` (one per game of the student's
    own run, `stats.mean_ci`); Refused with the hint `wrong` unless `given` is that interval to the
    student's digits."""
    mean, low, high = mean_ci(list(values))
    if not (agrees_to_digits(given[0], low) and agrees_to_digits(given[1], high)):
        raise Refused(wrong.format(low=low, high=high, mean=mean, given=given))
    return mean, low, high


MAX_REPLAYED = 600  # games a checker replays at most (it stays within a few seconds)


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

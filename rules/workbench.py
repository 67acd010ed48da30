"""The designer's workbench: variants side by side (rules/comparison.py, re-exported here),
and one or two numbers tuned to a target (`tune`, here).

    compare("bucket-brigade", {"base": bb.Config(), "bonus 6": bb.Config(bonus=6)}, "heuristic", 1000, 1)
    tune("bucket-brigade", None, "bonus", "ender_win_rate", 0.5, "heuristic", 400, 1, values=range(0, 13))

Both play every variant (every value) on the same game seeds: game i of each
variant is dealt from `chance.game_seed(seed, i)` and its bots draw from the
same streams (common random numbers). A difference between two variants is
then measured game by game, and its interval is much narrower than the
difference of two independent runs would give. pandas is imported only when
a table is made, so `meeple.rules` stays importable without it.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from concurrent.futures import Executor
from typing import Any, Callable, Sequence

from .chance import check_seed
from .config import describe_kind
from .protocol import resolve_config
from .registry import game_module
from .sim.design import wanted
from .sim.results import Results, load_pandas
from .sim.runner import Job, bot_refs, check_games, check_workers, default_workers, run, stop_pool, worker_pool
from .sim.text import Shown, fmt_table, show_value
from .ntbea import tune_many
from .tune_measures import MEASURES, RATES, check_read, measure_fn, measured_at, per_game_fn, measure_names
from .comparison import (USAGE_FLOOR, Comparison, UnusedRuleWarning, changed_numbers, compare, compare_run,
                         comparison, format_comparison, games_print, lineup, paired_difference, rule_usage, same_line,
                         usage_lines)

__all__ = ["compare", "tune", "Tuning", "GridTuning", "Comparison", "UnusedRuleWarning", "MEASURES", "measure_names",
           "compare_run", "comparison", "format_comparison", "usage_lines", "lineup", "rule_usage", "changed_numbers", "USAGE_FLOOR"]


# --- tune ---------------------------------------------------------------------

class _ShownAsMessage(Shown):
    """A result that shows itself as its `message` and then the table of every value measured,
    in a console and as a notebook cell's value, as text and as HTML (Tuning and GridTuning)."""

    table: Any
    NUMBERS: tuple = ()

    def table_fields(self) -> tuple:
        raise NotImplementedError

    def lines(self) -> list[str]:
        t = self.table
        if t is None or not len(t):
            return self.message.split("\n")
        cols = [c for c in t.columns]
        rows = [[str(show_value(r[c])) if c in self.table_fields() else _fmt3(r[c]) if c in self.NUMBERS else str(r[c])
                 for c in cols] for r in t.to_dict(orient="records")]
        return [*self.message.split("\n"), "Every value measured (95% CIs; distance from the target):",
                fmt_table(cols, rows)]


@dataclasses.dataclass(repr=False)
class Tuning(_ShownAsMessage):
    """What tune found: the value whose measure came closest to the target, the
    interval there and at the neighbours, and whether the data tells them apart."""

    game: str
    field: str
    measure: str
    target: float
    answer: Any
    value: float
    low: float
    high: float
    table: Any  # DataFrame: <field>, value, low, high, distance (every value measured, in order)
    neighbours: list  # the measured values either side of the answer
    tied: list  # neighbours whose interval comes as near the target as the answer's interval may lie: not ruled out
    games: int
    seed: int
    method: str
    monotone: bool = True  # the measured values move one way as the number grows
    rivals: list = dataclasses.field(default_factory=list)  # other values whose interval comes as near the target
    tie: list = dataclasses.field(default_factory=list)  # other values whose estimate is exactly as near as the answer's
    paired: bool = False  # neighbours and rivals judged by their paired difference from the answer (the reference)
    same: dict = dataclasses.field(default_factory=dict)  # value -> the first value whose games are identical to its own
    flat: bool = False  # every value gave the same measure in every game played: none is nearer at this many games

    @property
    def twins(self) -> set:
        """The values whose games are the answer's own (the answer too)."""
        root = self.same.get(self.answer, self.answer)
        return {self.answer} | {v for v, first in self.same.items() if first == root} | {root}

    def _flat_message(self) -> str:
        """Every value measured the same, game by game: said as what it is, identical results in these
        games under these bots (as compare says a variant that plays its baseline's games: same_line), not
        as a tie between estimates nor as a number that can never move the measure: more games may reach a
        case the number changes, and tell the values apart."""
        fmt = _fmt3
        values = [show_value(v) for v in self.table[self.field]]
        shown = f"{self.field} = " + (", ".join(map(str, values)) if len(values) <= 6 else
                                       f"{values[0]} to {values[-1]} ({len(values)} values)")
        if set(self.same) | {self.answer} >= set(self.table[self.field]):  # identical games, every one
            what = (f"{shown} play the same games: in these {self.games} games changing {self.field} had no effect "
                    "under these bots (every game's record is equal, game by game).")
        else:
            what = (f"{shown} give the same {self.measure} in each of these {self.games} games (game by game on the "
                    f"same seeds): under these bots changing {self.field} did not change it in these games.")
        return "\n".join([
            what,
            f"  {self.measure}: {fmt(self.value)} (95% CI {fmt(self.low)} to {fmt(self.high)}) at every value; "
            f"{self.games} games per value, seed {self.seed}, {self.method}. At this many games no value brings it "
            f"nearer {fmt(self.target)} than another: the lowest, {self.field} = {show_value(self.answer)}, is named "
            "the answer only as a placeholder. More games may reach a case that tells the values apart (play more "
            "games to look); other bots, or another measure, may read this number too."])

    @property
    def message(self) -> str:
        fmt = _fmt3
        if self.flat:
            return self._flat_message()
        if self.tie:
            others = " and ".join(f"{self.field} = {show_value(v)}" for v in self.tie)
            lines = [
                f"Tie: {self.field} = {show_value(self.answer)} and {others} bring {self.measure} equally close to "
                f"{fmt(self.target)} ({fmt(self.value)}, 95% CI {fmt(self.low)} to {fmt(self.high)}, at the lower; "
                f"{self.games} games per value, seed {self.seed}, {self.method}). The lower is named the answer; "
                "the data does not prefer it."
            ]
        else:
            lines = [
                f"{self.field} = {show_value(self.answer)} brings {self.measure} closest to {fmt(self.target)}: "
                f"{fmt(self.value)} (95% CI {fmt(self.low)} to {fmt(self.high)}; {self.games} games per value, seed "
                f"{self.seed}, {self.method})."
            ]
        groups: dict = {}
        for v, first in self.same.items():
            groups.setdefault(first, []).append(v)
        for first, vs in groups.items():
            lines.append("  " + same_line(" and ".join(f"{self.field} = {show_value(v)}" for v in vs),
                                          f"{self.field} = {show_value(first)}", len(vs) > 1)
                         + " Their rows are one result, not several.")
        if self.paired:
            lines.append(f"  Paired: each value's difference from the answer {self.field} = {show_value(self.answer)} "
                         "(the reference), game by game on the same seeds (diff, diff_low, diff_high in the table).")
        for r in self.table.to_dict(orient="records"):
            if r[self.field] in self.neighbours and r[self.field] in self.twins:
                lines.append(f"  neighbour {self.field} = {r[self.field]}: the answer's own games")
            elif r[self.field] in self.neighbours:
                d = (f"; minus the answer's, game by game: {'+' if r['diff'] >= 0 else ''}{fmt(r['diff'])} "
                     f"(95% CI {fmt(r['diff_low'])} to {fmt(r['diff_high'])})"
                     if self.paired else "")
                lines.append(f"  neighbour {self.field} = {r[self.field]}: {fmt(r['value'])} "
                             f"(95% CI {fmt(r['low'])} to {fmt(r['high'])}{d})")
        if self.tied:
            lines.append(
                f"  The data cannot rule out that {self.field} = "
                f"{' or '.join(str(show_value(v)) for v in self.tied)} is nearer the target: "
                + ("its paired difference from the answer reaches the differences that would bring it as near the "
                   "target as the answer may lie. " if self.paired else "its interval comes as "
                   "near the target as the answer's own interval reaches from it. ")
                + "Play more games at these values to decide."
            )
        elif any(v not in self.twins for v in self.neighbours):
            lines.append("  Neither neighbour " + ("differs from the answer, game by game, by less than would bring "
                         "it as near the target" if self.paired else "'s interval comes as near the target as the "
                         "answer's own interval reaches from it") + ": at this many games the answer stands.")
        if not self.monotone:
            lines.append(f"  The measure does not move one way as {self.field} grows"
                         + (": bisection may have missed a closer value; measure every value (method='grid')."
                            if self.method.startswith("bisection") else " (see the table)."))
        if self.rivals:
            lines.append(f"  The data cannot rule out {self.field} = {' or '.join(str(show_value(v)) for v in self.rivals)}"
                         + (" either: its paired difference from the answer reaches the differences that would bring it "
                            "as near the target as the answer may lie." if self.paired else
                            " either: its interval comes as near the target as the answer's own interval reaches "
                            "from it."))
        if not self.low <= self.target <= self.high and not self.table.empty:
            values = self.table["value"]
            if (values < self.target).any() and (values > self.target).any():
                lines.append("  No whole value's interval holds the target: the measure crosses it between two values.")
            else:
                side = "below" if (values < self.target).all() else "above"
                lines.append(f"  No value tried reaches the target: every measured value lies {side} it; "
                             "try a wider range of values.")
        return "\n".join(lines)

    NUMBERS = ("value", "low", "high", "distance", "diff", "diff_low", "diff_high")

    def table_fields(self) -> tuple:
        return (self.field,)

    def table_text(self) -> str:
        """The table of every value measured, rounded as the message is (3 significant digits)."""
        return _rounded_table(self.table, self.NUMBERS, (self.field,))


def _far(low: float, high: float, target: float) -> float:
    """The farthest from the target a value inside [low, high] may be."""
    return max(abs(low - target), abs(high - target))


def _fmt3(x) -> str:
    """A measured number to 3 significant digits (n/a for none)."""
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3g}"


def coupled(field: str) -> list[str]:
    """The numbers one tuned `field` moves: "best_face+max_steal" moves both, each set to the value tried
    (coupled numbers, such as the die's best face and the largest claim it allows); else [field]."""
    parts = [p.strip() for p in field.split("+")] if isinstance(field, str) else [field]
    if len(parts) > 1 and (not all(parts) or len(set(parts)) != len(parts)):
        raise ValueError(f"field={field!r} is not allowed: numbers joined by '+', each once (e.g. best_face+max_steal)")
    return parts


def with_value(config, field: str, value):
    """`config` with the tuned `field` (or each of its coupled numbers) set to `value`."""
    return config.with_values({f: value for f in coupled(field)})


def _candidates(config, field: str, values) -> list:
    """The values tune may try, each a valid config, in increasing order."""
    group = coupled(field)
    for f in group:
        kind = config.kind(f)
        if kind is not int:
            raise ValueError(f"tune moves one whole number; {f} is {describe_kind(kind)}")
    field = group[0]  # values are read as the first number's; each is set on every one
    explicit = values is not None
    if explicit and (isinstance(values, (str, bytes)) or not hasattr(values, "__iter__")):
        raise ValueError(f"values={values!r} is not allowed: a list or range of whole numbers, e.g. range(0, 9)")
    if not explicit:
        here = config.get(field)
        values = range(here - 10, here + 11)
    out = []
    for v in values:
        try:
            config.with_values({f: v for f in group})
        except ValueError as e:
            if explicit:  # the reader asked for it: say why it cannot be tried
                other = [n for n in config.parameters(numbers_only=True) if n not in group and f"{n}=" in str(e)
                         and not any(g.startswith(n + "[") for g in group)]  # another number it must move with
                hint = (f" (numbers that must move together are tuned as one: --field {'+'.join(group)}+{other[0]}, "
                        f"field='{'+'.join(group)}+{other[0]}')") if other else ""
                raise ValueError(f"values: {e}{hint}") from None
            continue
        out.append(config.value_for(field, v))
    out = sorted(set(out))
    if len(out) < 2:
        raise ValueError(f"tune needs at least two valid values of {field}, got {out!r}")
    return out


def tune(
    game,
    config=None,
    field: str = "bonus",
    measure: str | Callable = "win_rate",
    target: float = 0.5,
    bots="heuristic",
    games: int = 500,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    values: Sequence[int] | None = None,
    method: str = "grid",
    seat: int | None = None,
    bot: str | None = None,
    workers: int | None = None,
    rotate: bool = False,
) -> Tuning:
    """The value of one whole number (`field`: a field, `field[i]` or alias)
    whose `measure` comes closest to `target`. Coupled numbers move together:
    `field="best_face+max_steal"` sets both to each value tried.

    `measure`: a name from `measure_names(game)` (the round-ender's win rate
    `ender_win_rate`, `win_rate`/`score` of `seat` (0-based; default 0),
    `seat1_advantage` (percentage points, as compare prints it),
    `bot_win_rate` of `bot`, `turns`, `rounds`, any mean_<column> of the
    game's own figures), or a function Results -> value or (value, low, high).
    `seat` goes with win_rate and score only, `bot` with bot_win_rate only:
    either given with another measure is refused, not ignored.
    `values`: the values to try (default: valid values within 10 of the
    current one). `method="grid"` measures every value; `"bisect"` assumes
    the measure moves one way as the value grows and halves the range,
    measuring about log2(len(values)) + 3 values. Every value plays the same
    game seeds. The answer's neighbours are measured too; where a neighbour's
    interval comes as near the target as the answer's own interval reaches from
    it (the nearest a neighbour may be against the farthest the answer may be),
    the report says the data cannot rule it out.

    Three or more numbers: `field=("a", "b", "c")` (values: one list each, or
    None): NTBEA (rules/ntbea.py; Lucas et al. 2018) spends a budget of
    small batches on fresh seeds, then plays its best setting and the
    starting one on the same `games` seeds: a ManyTuning with their paired
    difference and how many settings it tried.

    Two numbers at once: `field=("bonus", "hand_size")`, `values=(list, list)`
    or None, `method="grid"` (every allowed setting at `games`) or "halving"
    (successive halving: every setting a few games, the nearer half kept, the
    games doubled, until at most four settings play `games`). Returns a
    GridTuning: the nearest setting and `kept`, the settings the data cannot
    tell apart from it: those whose paired difference from the answer (game by
    game, 95% CI) reaches the differences that would bring them at least as
    near the target as the answer's own interval allows (GridTuning.procedure).
    A measure function may return a pandas Series by game to be paired. (Whether two intervals overlap is not the test: that
    is the overlap fallacy.)
    """
    pd = load_pandas()
    mod = game_module(game)
    config = resolve_config(mod, config, "config must be", files=True)
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not math.isfinite(target):
        raise ValueError(f"target={target!r} is not allowed: a finite number")
    many = isinstance(field, (tuple, list)) and len(field) >= 3  # a budgeted search (rules/ntbea.py)
    two = isinstance(field, (tuple, list)) and not many
    if two and len(field) != 2:
        raise ValueError(f"field={field!r} is not allowed: one name, two to tune together, or three or more "
                         "(a budgeted search)")
    if many:
        if method not in ("grid", "ntbea"):
            raise ValueError(f"method={method!r} is not allowed for three or more numbers: 'ntbea'")
        method = "ntbea"
    if two and all(isinstance(f, str) and "+" not in f for f in field) and \
            config.path(field[0]) == config.path(field[1]):
        raise ValueError(f"tune moves two different numbers; {field[0]} and {field[1]} are the same number twice "
                         f"({config.path(field[0])})")
    if not many and method not in (("grid", "halving") if two else ("grid", "bisect")):
        raise ValueError(f"method={method!r} is not allowed: " + ("'grid' or 'halving' for two numbers" if two
                                                                  else "'grid' or 'bisect'"))
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < config.players):
        raise ValueError(f"seat={seat!r} is not allowed: 0 to {config.players - 1} (0 is Player 1)")
    label, fn = measure_fn(mod, measure, 0 if seat is None else seat, bot)
    check_read(mod, measure, seat, bot)  # a seat= or bot= the measure does not read is refused, not ignored
    seat = 0 if seat is None else seat
    design = isinstance(measure, str) and wanted([measure])  # played only when it is the measure
    if isinstance(measure, str) and measure.strip() in RATES and not 0 <= target <= 1:
        raise ValueError(f"target={target!r} is not allowed for {measure.strip()}: a rate from 0 to 1 "
                         "(0.5 is one half)")
    games = check_games(games)
    seed = check_seed(seed)
    workers = check_workers(workers)
    if two or many:
        if values is not None and (not isinstance(values, (tuple, list)) or len(values) != len(field)):
            raise ValueError(f"values={values!r} is not allowed: {len(field)} lists, one per field, or None")
        spans = [_candidates(config, f, None if values is None else values[k]) for k, f in enumerate(field)]
    else:
        candidates = _candidates(config, field, values)
    seats = _lineups(mod, bots, config, [field] if not (two or many) else list(field),
                     [candidates] if not (two or many) else spans)  # bad bots stop before any game
    if bot is not None:
        bot_refs(mod, [bot], 1)
        if measure == "bot_win_rate" and bot not in {getattr(r, "name", r) for r in seats} and \
                bot not in (bots.split(",") if isinstance(bots, str) else bots):
            raise ValueError(f"bot {bot!r} is not in the lineup {bots if isinstance(bots, str) else ', '.join(bots)}")
    if many:
        return tune_many(pd, mod, config, tuple(field), spans, label, fn, per_game_fn(mod, measure, seat, bot),
                         float(target), bots, games, seed, executor, progress, workers, rotate, design, coupled)
    if two:
        return _tune_two(pd, mod, config, tuple(field), spans, label, fn, per_game_fn(mod, measure, seat, bot),
                         float(target), bots, games, seed, executor, progress, workers, rotate, method, design,
                         not callable(measure))
    seen: dict[Any, tuple[float, float, float]] = {}
    per_game = per_game_fn(mod, measure, seat, bot)
    series: dict = {}  # value -> the measure game by game (None: the measure has none)
    prints: dict = {}  # value -> games_print of its games (identical play)

    def measure_at(todo) -> None:
        todo = [v for v in dict.fromkeys(todo) if v not in seen]
        if not todo:
            return
        cfgs = {v: with_value(config, field, v) for v in todo}
        jobs = [Job(v, mod, c, lineup(mod, bots, c.players), seed, games, rotate, "games", design)
                for v, c in cfgs.items()]
        out, interrupted = run(jobs, executor, workers, progress, f"{mod.TITLE} tune {field}")
        if interrupted:
            raise KeyboardInterrupt
        for job in jobs:
            res = Results(mod, job.config, job.bots, seed, games, rotate, out[job.key])
            *got, series[job.key] = measured_at(fn, per_game, res)
            seen[job.key] = tuple(got)
            prints[job.key] = games_print(res.records)
            if not math.isfinite(seen[job.key][0]):
                raise ValueError(f"{label} has no value at {field} = {show_value(job.key)} (nothing to measure in "
                                 f"{games} games); try more games or other values")

    own = None
    if executor is None and workers != 1 and method == "bisect":  # one pool for every step, not one each
        own = executor = worker_pool(workers or default_workers())
    try:
        # a function of the Results may read the rules as well as the games: identical games say nothing then
        return _search(pd, mod, field, label, target, candidates, measure_at, seen, games, seed, method, series,
                       None if callable(measure) else prints)
    except KeyboardInterrupt:
        if own is not None:
            stop_pool(own, wait=False, kill=True)  # the chunks still running are stopped, not waited for
            own = None
        raise
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)


def _lineups(mod, bots, config, fields, spans) -> tuple:
    """The lineup at the config's own player count, every player count the values tried play checked
    first (`field="players"`): one bot name fills every seat at every count, "A,B" is A against B at
    any count; a list of one name per seat must fit every count tried. A lineup that fits some counts
    only is refused, naming them, rather than those values left out unsaid (judgement call: the reader
    asked for every value)."""
    counts = {config.players}
    for f, values in zip(fields, spans):
        for v in values:
            try:
                counts.add(with_value(config, f, v).players)
            except ValueError:
                pass  # a setting the rules refuse: the grid skips it and says so
    counts = sorted(counts)
    fits, errors = [], {}
    for n in counts:
        try:
            lineup(mod, bots, n)
            fits.append(n)
        except ValueError as e:
            errors[n] = e
    if not errors:
        return lineup(mod, bots, config.players)
    if len(counts) == 1:
        raise errors[counts[0]]
    shown = bots if isinstance(bots, str) else ",".join(map(str, bots)) if isinstance(bots, (list, tuple)) else bots
    named = len(bots.split(",")) if isinstance(bots, str) else len(bots) if isinstance(bots, (list, tuple)) else 0
    bad = ", ".join(str(n) for n in errors)
    fit = f"fit players={', '.join(map(str, fits))} only" if fits else "fit none of them"
    raise ValueError(f"bots={shown!r}: the values tried play with players={', '.join(map(str, counts))}, and "
                     f"{named} names, one per seat, {fit} (not {bad}): name one bot for every seat at every count "
                     f"(e.g. 'heuristic'), or two ('A,B': A in seat 1 against B in the others)")


def _search(pd, mod, field, label, target, candidates, measure_at, seen, games, seed, method, series=None,
            prints=None) -> Tuning:
    """Grid or bisection over `candidates`, then the answer's neighbours; every value paired with
    the answer (the reference) game by game where the measure has per-game values."""
    if method == "grid":
        measure_at(candidates)
    else:
        lo, hi = 0, len(candidates) - 1
        measure_at([candidates[lo], candidates[hi]])
        rising = seen[candidates[hi]][0] >= seen[candidates[lo]][0]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            measure_at([candidates[mid]])
            below = seen[candidates[mid]][0] < target
            if below == rising:
                lo = mid
            else:
                hi = mid
    measured = [v for v in candidates if v in seen]
    best = min(measured, key=lambda v: (abs(seen[v][0] - target), candidates.index(v)))
    k = candidates.index(best)
    neighbours = [candidates[j] for j in (k - 1, k + 1) if 0 <= j < len(candidates)]
    measure_at(neighbours)
    best = min((v for v in candidates if v in seen), key=lambda v: (abs(seen[v][0] - target), candidates.index(v)))
    k = candidates.index(best)
    neighbours = [candidates[j] for j in (k - 1, k + 1) if 0 <= j < len(candidates)]
    measure_at(neighbours)  # the answer may have moved to a value whose neighbour is new
    value, low, high = seen[best]
    measured = [v for v in candidates if v in seen]
    prints = prints or {}
    same = {}  # value -> the first value (in order) whose games are identical to its own
    for v in measured:
        first = next(u for u in measured if prints.get(u, v) == prints.get(v, u))
        if first != v and v in prints:
            same[v] = first
    twin = {v for v in measured if same.get(v, v) == same.get(best, best)}  # the answer's identical values
    series = series or {}
    paired = all(series.get(v) is not None for v in measured)
    reach = (min(0.0, -2 * (high - target)), max(0.0, -2 * (low - target)))  # differences that bring a value nearer
    diffs = {v: paired_difference(series[v], series[best]) if paired else (math.nan,) * 3 for v in measured}
    rows = [{field: v, "value": seen[v][0], "low": seen[v][1], "high": seen[v][2],
             "distance": abs(seen[v][0] - target), "diff": diffs[v][0], "diff_low": diffs[v][1],
             "diff_high": diffs[v][2], "same_as": show_value(same[v]) if v in same else ""} for v in measured]
    table = pd.DataFrame(rows)
    steps = [b - a for a, b in zip(table["value"], table["value"][1:])]
    monotone = all(d >= 0 for d in steps) or all(d <= 0 for d in steps)

    def gap(v):  # how near the target a value's interval comes (0: it holds the target)
        _, lo, hi = seen[v]
        return 0.0 if lo <= target <= hi else min(abs(lo - target), abs(hi - target))

    tie = [v for v in measured if v not in twin  # equal up to rounding: 0.45 and 0.55 around 0.5
           and math.isclose(abs(seen[v][0] - target), abs(value - target), rel_tol=1e-9, abs_tol=1e-12)]
    far = _far(low, high, target)  # the answer's interval: its distance may be this large

    def open_(v) -> bool:  # the data cannot rule out that v is at least as near the target
        if v in twin:
            return False  # the answer's own games: not a rival, the same result
        if paired:  # its paired difference from the answer reaches the differences that bring it nearer
            return diffs[v][1] <= reach[1] and diffs[v][2] >= reach[0]
        return gap(v) <= far

    tied = [v for v in neighbours if open_(v)]
    rivals = [v for v in measured if v != best and v not in neighbours and open_(v)]
    # every value measured the same in every game played (or played the same games): not a tie between
    # estimates but identical results in these games, said as such (Tuning._flat_message; more games may
    # still tell the values apart). Judgement call: bisection's few values count
    flat = len(measured) > 1 and (all(v in twin for v in measured) or (
        paired and all(series[v].equals(series[best]) for v in measured)))
    if flat:
        tie, tied, rivals = [], [], []
    return Tuning(mod.NAME, field, label, float(target), best, value, low, high, table, neighbours, tied, games,
                  seed, "every value measured" if method == "grid" else "bisection (a monotone measure)", monotone,
                  rivals, tie, paired, same, flat)



# --- tune: two numbers at once ------------------------------------------------------

@dataclasses.dataclass(repr=False)
class GridTuning(_ShownAsMessage):
    """What tune found over two numbers: the setting whose measure came closest to the
    target, and the settings the data cannot tell apart from it (`kept`), by `procedure`."""

    game: str
    fields: tuple
    measure: str
    target: float
    answer: tuple
    value: float
    low: float
    high: float
    table: Any  # DataFrame: the two fields, value, low, high, distance, games, diff, diff_low, diff_high, kept
    kept: list  # settings (tuples) the data cannot tell apart from the answer, the answer first
    games: int
    seed: int
    method: str
    procedure: str
    skipped: int = 0  # settings of the grid the rules do not allow
    tie: list = dataclasses.field(default_factory=list)  # other settings whose estimate is exactly as near
    same: dict = dataclasses.field(default_factory=dict)  # setting -> the first setting with identical games
    flat: bool = False  # every setting gave the same measure in every game played (as Tuning.flat)

    def _setting(self, s) -> str:
        return ", ".join(f"{f} = {show_value(v)}" for f, v in zip(self.fields, s))

    @property
    def message(self) -> str:
        fmt = _fmt3
        if self.flat:
            return (f"Every setting of {' and '.join(self.fields)} measured gives the same {self.measure} in each of "
                    f"these {self.games} games (game by game on the same seeds): under these bots changing them did not "
                    f"change it in these games.\n  {self.measure}: {fmt(self.value)} (95% CI {fmt(self.low)} to "
                    f"{fmt(self.high)}) everywhere; {self.games} games per setting, seed {self.seed}, {self.method}. At "
                    f"this many games no setting brings it nearer {fmt(self.target)} than another: the first, "
                    f"{self._setting(self.answer)}, is named the answer only as a placeholder. More games may reach a "
                    "case that tells the settings apart (play more games to look); other bots, or another measure, "
                    "may read these numbers too.")
        lines = [f"{self._setting(self.answer)} brings {self.measure} closest to {fmt(self.target)}: "
                 f"{fmt(self.value)} (95% CI {fmt(self.low)} to {fmt(self.high)}; {self.games} games per setting, "
                 f"seed {self.seed}, {self.method})."]
        if self.tie:
            verb = "comes" if len(self.tie) == 1 else "come"
            lines.append("  Tie: " + "; ".join(self._setting(s) for s in self.tie) + f" {verb} exactly as close "
                         f"({fmt(self.value)}); the first in the grid is named the answer, the data does not prefer it.")
        groups: dict = {}
        for s, first in self.same.items():
            groups.setdefault(first, []).append(s)
        for first, ss in groups.items():
            lines.append("  " + same_line("; ".join(self._setting(s) for s in ss), self._setting(first), len(ss) > 1)
                         + " Their rows are one result, not several.")
        others = [s for s in self.kept if s != self.answer]
        if others:
            lines.append(f"  The data cannot tell {len(others)} other setting{'s' if len(others) > 1 else ''} apart "
                         f"from it: " + "; ".join(self._setting(s) for s in others) + ".")
        else:
            lines.append("  The data tells every other setting measured apart from it: at this many games the "
                         "answer stands.")
        lines.append(f"  Procedure: {self.procedure}")
        if self.skipped:
            lines.append(f"  {self.skipped} setting{'s' if self.skipped > 1 else ''} of the grid the rules do not "
                         "allow were not played.")
        return "\n".join(lines)

    NUMBERS = ("value", "low", "high", "distance", "diff", "diff_low", "diff_high")

    def table_fields(self) -> tuple:
        return tuple(self.fields)

    def table_text(self) -> str:
        """The table rounded as the message is (3 significant digits)."""
        return _rounded_table(self.table, self.NUMBERS, self.fields)



def _rounded_table(table, numbers, fields) -> str:
    """`table` as text, the `numbers` columns to 3 significant digits and each rule field as
    `--set` writes it (Tuning's and GridTuning's table_text)."""
    t = table.copy()
    for col in numbers:
        t[col] = [_fmt3(x) for x in t[col]]
    for f in fields if len(t) else ():  # an empty table may lack the field's column
        t[f] = [show_value(v) for v in t[f]]
    return t.to_string(index=False)

PAIRED_PROCEDURE = (
    "a setting is kept when its paired difference from the answer, game by game on the same seeds, has a 95% "
    "interval that reaches the differences that would bring it at least as near the target as the answer may "
    "lie (the answer's own 95% interval); every other setting is told apart.")
UNPAIRED_PROCEDURE = (
    "the measure has no game-by-game values, so a setting is kept when its own 95% interval comes as near the "
    "target as the answer's interval reaches from it.")


def _tune_two(pd, mod, config, fields, spans, label, fn, per_game, target, bots, games, seed, executor, progress,
              workers, rotate, method, design=False, from_games=True) -> GridTuning:
    """Every allowed setting of two numbers (or successive halving over them), then the set of
    settings the data cannot tell apart from the nearest one."""
    settings, configs, skipped = [], {}, 0
    for a, b in itertools.product(*spans):
        try:
            configs[(a, b)] = config.with_values({**{f: a for f in coupled(fields[0])}, **{f: b for f in coupled(fields[1])}})
        except ValueError:
            skipped += 1
            continue
        settings.append((a, b))
    if len(settings) < 2:
        raise ValueError(f"tune needs at least two settings of {fields[0]} and {fields[1]} the rules allow")
    own = None
    if executor is None and workers != 1 and method == "halving":
        own = executor = worker_pool(workers or default_workers())
    seen: dict = {}  # setting -> (value, low, high, series, games)
    prints: dict = {}  # setting -> (games, games_print): identical play is one result, not several

    def measure_at(todo, n) -> None:
        jobs = [Job(s, mod, configs[s], lineup(mod, bots, configs[s].players), seed, n, rotate, "games", design)
                for s in todo]
        out, interrupted = run(jobs, executor, workers, progress, f"{mod.TITLE} tune {fields[0]} x {fields[1]}")
        if interrupted:
            raise KeyboardInterrupt
        for job in jobs:
            res = Results(mod, job.config, job.bots, seed, n, rotate, out[job.key])
            got = measured_at(fn, per_game, res)
            if not math.isfinite(got[0]):
                raise ValueError(f"{label} has no value at {fields[0]} = {show_value(job.key[0])}, {fields[1]} = "
                                 f"{show_value(job.key[1])} (nothing to measure in {n} games)")
            seen[job.key] = (*got, n)
            prints[job.key] = (n, games_print(res.records))

    def distance(s):
        return (round(abs(seen[s][0] - target), 12), settings.index(s))

    try:
        alive = list(settings)
        if method == "grid":
            measure_at(alive, games)
            how = f"every setting measured ({len(settings)})"
        else:
            rounds = 1 + max(0, math.ceil(math.log2(len(alive) / 4)))
            n = max(5, games >> (rounds - 1))
            plan = []
            while True:
                measure_at(alive, n)
                plan.append(f"{len(alive)} at {n}")
                if len(alive) <= 4 or n >= games:
                    break
                alive = sorted(alive, key=distance)[:max(4, math.ceil(len(alive) / 2))]
                n = min(games, 2 * n)
            how = ("successive halving: settings x games " + ", ".join(plan) + "; the farther half dropped after "
                   "each round by its estimate (a ranking at fewer games, not an interval)")
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)
    final = alive
    best = min(final, key=distance)
    value, low, high, base, n_best = seen[best]
    paired = base is not None and all(seen[s][3] is not None for s in final)
    reach = (min(0.0, -2 * (high - target)), max(0.0, -2 * (low - target)))  # differences that bring a setting nearer
    same = {}  # setting -> the first setting (in grid order) whose games are identical to its own
    for s in settings if from_games else ():  # a measure function may read the rules too: then games alone say nothing
        first = next((u for u in settings if u in prints and prints[u] == prints.get(s)), s)
        if first != s:
            same[s] = first
    twins = {s for s in seen if same.get(s, s) == same.get(best, best)}
    rows, kept = [], [best]
    for s in settings:
        if s not in seen:
            continue
        v, lo, hi, series, n = seen[s]
        d = (math.nan,) * 3
        keep = False
        if s in twins and s != best:
            d = (0.0, 0.0, 0.0)  # the answer's own games: the same result, not a rival
        elif s in final and s != best:
            if paired:
                d = paired_difference(series, base)
                keep = d[1] <= reach[1] and d[2] >= reach[0]
            else:
                keep = (0.0 if lo <= target <= hi else min(abs(lo - target), abs(hi - target))) <= \
                    _far(low, high, target)
            if keep and s not in same:  # a twin of a kept setting is that setting's result, not another
                kept.append(s)
        elif s == best:
            d = (0.0, 0.0, 0.0)
        rows.append({fields[0]: s[0], fields[1]: s[1], "value": v, "low": lo, "high": hi,
                     "distance": abs(v - target), "games": n, "diff": d[0], "diff_low": d[1], "diff_high": d[2],
                     "kept": s == best or keep,
                     "same_as": ", ".join(str(show_value(v)) for v in same[s]) if s in same else ""})
    kept = [best] + sorted((s for s in kept if s != best), key=distance)
    tie = [s for s in final if s not in twins and s not in same and math.isclose(abs(seen[s][0] - target), abs(value - target),
                                                               rel_tol=1e-9, abs_tol=1e-12)]
    flat = len(seen) > 1 and (set(seen) <= twins or (paired and all(
        seen[s][3] is not None and seen[s][3].equals(base) for s in seen)))
    if flat:  # identical results in these games, not a tie between estimates: said as such (Tuning.flat)
        tie, kept = [], [best]
    return GridTuning(mod.NAME, fields, label, target, best, value, low, high, pd.DataFrame(rows), kept, n_best, seed,
                      how, PAIRED_PROCEDURE if paired else UNPAIRED_PROCEDURE, skipped, tie, same, flat)

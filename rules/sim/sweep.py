"""The entry points that play many games: `simulate` (one set of rules) and `sweep`
(every combination of a grid of values, one table with a row per point x seat).

Both hand their games to the runner as jobs (`runner.run`), so the table is the same
however the work is split: one process, a pool, or a dask cluster.
"""

from __future__ import annotations

import itertools
from concurrent.futures import Executor
from typing import Any, Mapping, Sequence

from ..chance import check_seed
from ..protocol import resolve_config
from ..registry import game_module
from ..stats import mean_ci
from .design import duration_spread, wanted
from .results import SHOWN_AS, Results, load_pandas, measure_name, own_columns, shown_frame
from .results import measures as measure_list
from .runner import Job, bot_refs, check_games, check_workers, run, setup
from .tally import Totals
from .text import ci_paren, ci_pct, fmt_table, num, pct, seat_name, show_value


# The keyword list simulate, sweep, compare and balance_report share is written out in each on
# purpose: a public signature help() and an editor show (a **kwargs pass-through would hide it).
def simulate(
    game,
    config=None,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    rotate: bool = False,
    keep: str = "games",
    measures: Sequence[str] | None = None,
) -> "Results | Totals":
    """Play `games` games and return their Results.

    `bots`: names (or callables) one per seat, or one for every seat.
    `executor`: any concurrent.futures.Executor (e.g. a dask Client's
    `get_executor()`); it is not shut down. Without one, `workers` local
    processes play (default: every core; `workers=1` plays in this
    process), in one pool kept for the life of this process (shared_pool);
    without `workers`, a run too short to pay for the pool plays in this
    process (it plays here first and measures). With an executor, `workers` only sizes the chunks (default:
    the executor's own count). `rotate`: seat the bots shifted by the game
    index so each bot holds each seat equally often. The table is the same
    however the work is split. Ctrl-C returns the finished games with
    `partial=True`; a progress bar shows on a terminal or in a notebook
    unless `progress=False` (never into a log file or a pipe).
    `keep="summary"` keeps no game: each is folded into running totals as
    it finishes (memory flat in the number of games) and a Totals is
    returned, whose summary() has the same numbers as the full Results'.
    `measures`: names from `measures(game)` the run must be able to show;
    a design measure (rules/sim/design.py: margin, drama, ...) is computed
    only when named here, as one column of the table.
    """
    mod, config, refs = setup(game, config, bots)
    design = _design_wanted(mod, measures)
    games = check_games(games)
    seed = check_seed(seed)
    workers = check_workers(workers)
    if keep not in ("games", "summary"):
        raise ValueError(f"keep must be 'games' (every game: table, games, records) or 'summary' "
                         f"(running totals: summary() only), got {keep!r}")
    job = Job(0, mod, config, refs, seed, games, rotate, keep, design)
    out, interrupted = run([job], executor, workers, progress, mod.TITLE)
    if keep == "summary":
        return Totals(mod, config, refs, seed, games, rotate, out[0], partial=interrupted)
    return Results(mod, config, refs, seed, games, rotate, out[0], partial=interrupted)


def _design_wanted(mod, names) -> bool:
    """Whether `names` (measures() names, checked here) ask for a design measure."""
    if names is None:
        return False
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise ValueError(f"measures={names!r} is not allowed: a list of names, e.g. ['margin', 'turns']")
    known = list(measure_list(mod))
    return wanted([measure_name(known, m) for m in names])


SHOWN_PROBLEMS = 6  # a bad grid's message names this many of its problems, then counts the rest


def _grid_points(mod, base, grid: Mapping[str, Sequence], bots) -> list[tuple[dict, Any, tuple]]:
    """Every combination of the grid's values as (point, config, bots), all
    checked first: one ValueError names every bad field, value and point."""
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("the sweep grid must be a non-empty {field: [values, ...]} mapping")
    problems, axes = [], {}
    for name, values in grid.items():
        try:
            base.kind(name)  # a field, field[i] or alias (Config.parameters())
        except (ValueError, TypeError) as e:
            problems.append(str(e))
            continue
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not len(values):
            problems.append(f"{name}: give a non-empty list of values, got {values!r}")
            continue
        typed = []
        for v in values:
            try:
                typed.append(base.value_for(name, v))
            except ValueError as e:
                problems.append(str(e))
        twice = sorted({show_value(v) for v in typed if typed.count(v) > 1}, key=str)
        if twice:  # a repeated value would be played twice and drawn as two points
            problems.append(f"{name}: each value once, got {', '.join(map(str, twice))} more than once")
        axes[name] = typed
    points = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())] if axes else []
    built, bad = [], 0
    for point in points:
        try:
            cfg = base.with_values(point)
            built.append((point, cfg, bot_refs(mod, bots, cfg.players)))
        except (ValueError, TypeError) as e:
            bad += 1
            label = ", ".join(f"{k}={show_value(v)}" for k, v in point.items())
            problems.append(f"[{label}] {e}")
    if problems:
        head = f"{bad} of {len(points)} sweep points are invalid" if bad else "bad sweep grid"
        if bad and bad < len(problems):
            head = "bad sweep grid; " + head
        more = len(problems) - SHOWN_PROBLEMS  # a grid of 2,000 bad values made a 100 kB "line"
        raise ValueError(head + ": " + "; ".join(problems[:SHOWN_PROBLEMS])
                         + (f"; and {more:,} more like these" if more > 0 else ""))
    return built


# The shared keyword list, written out on purpose (see the note above simulate).
def sweep(
    game,
    base_config=None,
    grid: Mapping[str, Sequence] | None = None,
    bots="random",
    games: int = 1000,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    *,
    workers: int | None = None,
    rotate: bool = False,
    measures: Sequence[str] | None = None,
):
    """Simulate every combination of `grid` values ({name: [values]}; a name is a
    field, an element `field[i]` or an alias such as `hand_size`, see
    `Config.parameters()`) on top of `base_config`; one table, one row per point x seat.

    Every point is checked before any game is played; all bad points are
    reported in one ValueError. Each point uses the same seed, so point A's
    game i and point B's game i see the same shuffles where the rules let
    them (common random numbers: differences between points are less noisy).
    Columns: the varied fields, point, seat, bot, games, win_rate, win_low,
    win_high, score, score_low, score_high; turns, rounds and lead_changes
    per game (a varied field of the same name keeps its column, and that
    length is then `rounds_played`, say), and mean_<column> per seat for the
    game's own numeric columns, each with _low and _high (95% CI).
    `table.attrs["partial"]` is True after a Ctrl-C. `measures`: as simulate's
    (a design measure is played only when named; it then has its mean_<name> columns).
    """
    pd = load_pandas()
    mod = game_module(game)
    base = resolve_config(mod, base_config, "base_config must be", files=True)
    games = check_games(games)
    seed = check_seed(seed)
    workers = check_workers(workers)
    design = _design_wanted(mod, measures)
    points = _grid_points(mod, base, grid, bots)
    jobs = [Job(k, mod, cfg, refs, seed, games, rotate, "games", design) for k, (point, cfg, refs) in enumerate(points)]
    out, interrupted = run(jobs, executor, workers, progress, f"{mod.TITLE} sweep")
    frames = []
    for k, (point, cfg, refs) in enumerate(points):
        res = Results(mod, cfg, refs, seed, games, rotate, out[k], partial=interrupted)
        frames.append(_sweep_rows(res, point, k))
    table = shown_frame(pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(), "sweep")
    table.attrs.update(partial=interrupted, seed=seed, game=mod.TITLE, games=games, fields=list(grid))
    return table


def sweep_lines(table) -> list[str]:
    """How a sweep's table shows itself: a row per point and seat, win rate, mean score and game
    length with their 95% intervals (every column stays in the table)."""
    a = table.attrs
    head = (f"{a.get('game', '')} sweep: {a.get('games')} games per point, seed {a.get('seed')}, the same game seeds "
            "at every point (95% CIs)" + ("; interrupted: the figures cover only the games that finished" if a.get("partial") else ""))
    if not len(table):
        return [head, "No point was played."]
    fields = [c for c in a.get("fields", []) if c in table.columns]
    turns = "turns" if "turns" in table.columns else "turns_played"
    rows = []
    for r in table.to_dict(orient="records"):
        length = f"{num(r[turns], 1)} {ci_paren(r[turns + '_low'], r[turns + '_high'], 1)}" if turns in r else "n/a"
        rows.append([*(str(r[f]) for f in fields), seat_name(int(r["seat"])), str(r["bot"]), pct(r["win_rate"]),
                     ci_pct(r["win_low"], r["win_high"]), f"{num(r['score'])} {ci_paren(r['score_low'], r['score_high'])}",
                     length])
    return [head, fmt_table([*fields, "seat", "bot", "win rate", "95% CI", "mean score (95% CI)", "turns (95% CI)"], rows),
            "Every figure with its interval is a column of this DataFrame (table.columns; table.to_string() shows them all)."]


SHOWN_AS["sweep"] = sweep_lines


def _sweep_rows(res: Results, point: dict, k: int):
    """One row per seat for one sweep point: its summary, plus means with
    95% intervals of game length, lead changes and the game's own columns."""
    rows = res.summary().seats.copy()
    for i, (name, value) in enumerate(point.items()):
        rows.insert(i, name, [show_value(value)] * len(rows))
    rows.insert(len(point), "point", k)
    if not res.completed:
        return rows
    for col in ("turns", "rounds", "lead_changes"):
        # a swept field of that name (Bucket Brigade's and Duck, Duck, Bruce's `rounds`) keeps its
        # column: the game length is then <col>_played (the field's values stay whole numbers)
        name = f"{col}_played" if col in point else col
        rows[name], rows[f"{name}_low"], rows[f"{name}_high"] = mean_ci(res.games[col].tolist())
    # the run's spread of game lengths (rules/sim/design.py): its sd with a 95% interval
    rows["duration_spread"], rows["duration_spread_low"], rows["duration_spread_high"] = duration_spread(
        res.games["turns"].tolist())
    t = res.table
    for c in own_columns(t):
        by_seat = {s: mean_ci(part.dropna().tolist()) for s, part in t.groupby("seat")[c]}
        for j, suffix in enumerate(("", "_low", "_high")):
            rows[f"mean_{c}{suffix}"] = rows["seat"].map(lambda s: by_seat[s][j])  # noqa: B023 - map calls it at once, in this loop
    return rows


__all__ = ["simulate", "sweep"]

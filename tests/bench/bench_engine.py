"""Benchmark (issue 11): meeple against lean hand-written references, the Explorer, the import.

    .venv/bin/python tests/bench/bench_engine.py --update BENCHMARKS.md   # run by `make bench`
    .venv/bin/python tests/bench/bench_engine.py --agree                  # lean vs meeple, 20,000 games each
    .venv/bin/python tests/bench/bench_engine.py --agree --game bucket-king --bots heuristic   # one of them
    .venv/bin/python tests/bench/bench_engine.py --explorer --update BENCHMARKS.md   # the Explorer's line alone
    .venv/bin/python tests/bench/bench_engine.py --memory --update BENCHMARKS.md     # the memory line alone
    .venv/bin/python tests/bench/bench_engine.py --explorer-cold --update BENCHMARKS.md   # issue 21: cold move, redraw
    .venv/bin/python tests/bench/bench_engine.py --rss 1000 100000 --update BENCHMARKS.md # issue 21: peak RSS
    .venv/bin/python tests/bench/bench_engine.py --versus 92024cb --update BENCHMARKS.md   # today's engine vs the core
    .venv/bin/python tests/bench/bench_engine.py --versus 92024cb --only duck-duck-bruce piggyback-brigade \
        --section core-b --update BENCHMARKS.md   # two games' figures into their own section

1. Games/s on one core, CPU time, base rules, one bot in every seat: meeple's
   `simulate(..., workers=1)` with its two tables read (what a user pays: Results makes them
   on first use) and the lean reference of
   the same game (tests/bench/lean_*.py: plain lists, random.Random, no event
   text), measured side by side in this process in alternating rounds; the
   best round of each counts for games/s (least disturbed by other jobs on the
   machine); the ratio is each round's meeple over lean, the median round's with the
   lowest and highest beside it (its spread), and the goal's verdict reads the median.
   Where a game's time goes, in µs a game: simulate's games (play_game: the
   module's fast loop `play_core` with each seat's own seeded bot stream, turn-end
   leader tracking and the game's statistics), what building the run's tables
   adds; beside them, the same games played through the step API alone
   (new_game, legal_actions, the bots, step: no event text, one rng for the
   batch: `_moves_only`, the path a Stepper and OpenSpiel take, which simulate
   no longer does); and simulate with keep="summary" (running totals, no tables). The floor: what
   a game costs whatever its rules under chance v2 and the Results contract, the Mersenne Twisters
   simulate seeds a game (counted) times the cost of seeding one, plus the tables; beside it the
   0.5x goal's budget, twice the lean loop's game.
2. The Explorer (1,000 heuristic-vs-random Duck, Duck, Bruce games per value,
   wall clock, the default workers, in an event loop as in a kernel): a move to
   a neighbour the background has played (the usual move), to a value far away
   (cold: with the background busy, and idle), back to a value already played
   (that move, then the slowest of five more such moves; wall and CPU), what a
   new value adds to its simulation (both charts built anew from the table);
   against the lean reference's CPU time for 1,000 random games.
3. `import meeple.widgets` and the Explorer / Stepper imports: CPU time in a
   fresh interpreter.
4. Memory per game when only the summary is wanted: peak traced memory of
   simulate + summary for 2,000 and for 8,000 games (tracemalloc), and the
   difference, for the default run (every game kept) and for keep="summary"
   (running totals).

`--agree` checks that each lean reference plays the same game as meeple in
distribution: mean score per seat and mean game length (actions), 20,000
games each, 95% intervals (meeple.rules.stats.mean_ci), and a z-test of each
difference. Not a test: pytest does not collect this folder.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import lean_bucket_brigade
import lean_bucket_king
import lean_ddb
import lean_piggyback
import pandas  # noqa: E402,F401 - imported up front: a notebook has it loaded already

from meeple.rules import simulate
from meeple.rules.core import game_module, resolve_bots
from meeple.rules.sim import play_chunk
from meeple.rules.sim.results import make_tables as _tables
from meeple.rules.stats import mean_ci

GAMES = ("bucket-brigade", "bucket-king", "duck-duck-bruce", "piggyback-brigade")
LEAN = {  # game -> (module, bots it implements)
    "duck-duck-bruce": (lean_ddb, ("random", "heuristic")),
    "piggyback-brigade": (lean_piggyback, ("random", "heuristic")),
    "bucket-brigade": (lean_bucket_brigade, ("random", "heuristic")),
    "bucket-king": (lean_bucket_king, ("random", "heuristic")),
}
RATIO_GOAL = 0.5
EXPLORER_GAMES, EXPLORER_GOAL, REDRAW_GOAL = 1000, 4.0, 0.15
IMPORT_GOAL = 1.0
ROOT = Path(__file__).resolve().parents[2]


def _meeple(game: str, bots: str, n: int, seed: int) -> float:
    """CPU seconds of what a user pays for n games: simulate, then its two tables read (Results makes
    them on first use, so simulate alone would leave their cost out)."""
    t = time.process_time()
    res = simulate(game, None, bots, n, seed, progress=False, workers=1)
    res.table, res.games  # noqa: B018 - read: building them is part of the figure
    return time.process_time() - t


def _lean(mod, bots: str, n: int, seed: int) -> float:
    rng = random.Random(seed)
    play = mod.play
    t = time.process_time()
    for _ in range(n):
        play(rng, 4, bots)
    return time.process_time() - t


def side_by_side(game: str, bots: str, seconds: float, rounds: int = 5) -> tuple[float, float | None]:
    """(meeple games/s, lean games/s or None): best of `rounds` alternating rounds, CPU time."""
    n = max(20, int(20 / max(1e-6, _meeple(game, bots, 20, 0)) * seconds / rounds))
    lean = LEAN.get(game)
    has_lean = lean is not None and bots in lean[1]
    m = n_lean = None
    if has_lean:
        n_lean = max(50, int(50 / max(1e-6, _lean(lean[0], bots, 50, 0)) * seconds / rounds))
    best_m, best_l = float("inf"), float("inf")
    for r in range(rounds):
        best_m = min(best_m, _meeple(game, bots, n, 100 + r) / n)
        if has_lean:
            best_l = min(best_l, _lean(lean[0], bots, n_lean, 100 + r) / n_lean)
    m = 1 / best_m
    return m, (1 / best_l if has_lean else None)


def _moves_only(game: str, bots: str, n: int, seed: int) -> float:
    """CPU seconds of n games played by the game module alone: new_game (no event text, no
    turn hook), legal_actions, the bots' choices (one random.Random for the whole batch, as
    the lean loop has) and step: the rules' and the bots' own work, none of simulate's."""
    mod = game_module(game)
    config = mod.Config()
    _names, funcs = resolve_bots(mod, bots, config.players)
    looks = [getattr(f, "reads_observation", True) for f in funcs]
    legal_actions, observation, step = mod.legal_actions, mod.observation, mod.step
    rng = random.Random(seed)
    t = time.process_time()
    for i in range(n):
        s = mod.new_game(config, seed * 1_000_003 + i, events=False)
        while not s.is_over:
            p = s.current_player
            step(s, funcs[p](observation(s, p) if looks[p] else None, legal_actions(s), rng))
    return time.process_time() - t


def _chunk(game: str, bots: str, n: int, seed: int) -> float:
    """CPU seconds of simulate's own per-game loop (play_game: seat streams, turn-end leader
    tracking, the game's results) for n games, without building the run's tables."""
    mod = game_module(game)
    t = time.process_time()
    play_chunk(mod.__name__, mod.Config(), bots, seed, 0, n, False)
    return time.process_time() - t


def _tables_of(game: str, bots: str, n: int, seed: int) -> float:
    """CPU seconds of building the run's two tables (Results.table and .games) from n games."""
    mod = game_module(game)
    config = mod.Config()
    games = play_chunk(mod.__name__, config, bots, seed, 0, n, False)
    t = time.process_time()
    _tables(config.players, games)
    return time.process_time() - t


def _summary_only(game: str, bots: str, n: int, seed: int) -> float:
    t = time.process_time()
    simulate(game, None, bots, n, seed, progress=False, workers=1, keep="summary")
    return time.process_time() - t


def streams_per_game(game: str, bots: str, n: int = 200, seed: int = 7) -> float:
    """How many Mersenne Twisters simulate seeds a game (chance v2: the deal's, the dice's, each seat's
    bot stream that is drawn from), counted on n games of simulate's own loop."""
    import meeple.rules.chance as chance_mod
    import meeple.rules.protocol as protocol_mod

    count = [0]
    seed_mt, stream = protocol_mod._seed_mt, chance_mod.stream

    def counted_seed(*a):
        count[0] += 1
        return seed_mt(*a)

    def counted_stream(*a):
        count[0] += 1
        return stream(*a)

    protocol_mod._seed_mt, chance_mod.stream = counted_seed, counted_stream
    try:
        _chunk(game, bots, n, seed)
    finally:
        protocol_mod._seed_mt, chance_mod.stream = seed_mt, stream
    return count[0] / n


def seed_cost(k: int = 20_000) -> float:
    """CPU µs of seeding one stream as chance v2 does (random.Random(seed * 256 + purpose)), best of 5."""
    best = float("inf")
    for r in range(5):
        base = (10**9 + r) * 256
        t = time.process_time()
        for i in range(k):
            random.Random(base + i)
        best = min(best, time.process_time() - t)
    return best / k * 1e6


def parts(game: str, bots: str, seconds: float, rounds: int = 5) -> dict:
    """Microseconds per game (CPU, best of `rounds` alternating rounds) of the lean reference,
    the module's own moves, simulate's play_game loop, building the tables from its games,
    simulate to a Results (tables) and to a summary only (keep="summary")."""
    n = max(20, int(20 / max(1e-6, _meeple(game, bots, 20, 0)) * seconds / rounds / 3))
    timers = {"moves": _moves_only, "play_game": _chunk, "tables": _tables_of, "simulate": _meeple,
              "summary": _summary_only}
    lean = LEAN.get(game)
    if lean is not None and bots in lean[1]:
        n_lean = max(50, int(50 / max(1e-6, _lean(lean[0], bots, 50, 0)) * seconds / rounds))
        timers["lean"] = lambda g, b, k, seed: _lean(lean[0], b, k, seed)
    best = {k: float("inf") for k in timers}
    spread = []  # each round's ratio, meeple's (simulate, tables read) to the lean loop's games/s
    for r in range(rounds):
        took = {}
        for k, timer in timers.items():
            count = n_lean if k == "lean" else n
            took[k] = timer(game, bots, count, 100 + r) / count * 1e6
            best[k] = min(best[k], took[k])
        if "lean" in took:
            spread.append(took["lean"] / took["simulate"])
    # the verdict's ratio is the median round's: two best rounds taken apart (one side's quiet moment,
    # the other's) overstate it when the machine is noisy
    best["spread"] = (sorted(spread)[len(spread) // 2], min(spread), max(spread)) if spread else None
    return best


def explorer_move() -> dict:
    """Wall seconds of Explorer slider moves: to a value far away (cold), to a neighbour
    the background has played (the usual move), and back to values already played.

    Run inside an asyncio event loop, as in a notebook kernel: there the neighbours
    played in the background join the table and the charts while the reader looks
    (the kernel's idle time, timed as `harvest`), before the move to them."""
    import asyncio

    return asyncio.run(_explorer_moves())


async def _explorer_moves() -> dict:
    import asyncio

    from meeple.rules.core import game_module
    from meeple.widgets import Explorer

    async def settle(ex):
        """Wait (the kernel idle) until nothing plays in the background and all of it is drawn."""
        await asyncio.sleep(0.05)  # the kernel queues the neighbours of the value just shown
        while ex.session.busy() or ex.session.ready():
            await asyncio.sleep(0.02)

    def explorer():  # starts at rounds = 1; the far value is 3, the default rounds (as the lean reference plays)
        config = game_module("duck-duck-bruce").Config().with_values({"rounds": 1})
        return Explorer("duck-duck-bruce", "rounds", values=[1, 2, 3, 4, 5], config=config, bots="heuristic,random",
                        games=EXPLORER_GAMES, seed=1)

    t = time.perf_counter()
    ex = explorer()
    await asyncio.sleep(0)  # the widget is drawn at once; the kernel plays the first value (1) just after
    first = time.perf_counter() - t  # construction and the first value; 2 queued
    harvests = []  # wall and CPU of each time the kernel put background values into the table and charts
    collect = ex._collect

    def timed_collect():
        t, c = time.perf_counter(), time.process_time()
        n = len(ex.session.points)
        collect()
        if len(ex.session.points) > n:
            harvests.append((time.perf_counter() - t, time.process_time() - c))

    ex._collect = timed_collect  # the kernel's loop calls it (widgets/explorer.py _waker)
    await asyncio.sleep(0.1)  # the kernel queues 2 and the pool starts on it; the reader moves at once
    t = time.perf_counter()
    ex.show(3)  # far away, at once: the background's games not started are cancelled, 3 goes first
    cold = time.perf_counter() - t
    near = []
    for v in (4, 5):  # the usual move: the reader looks, the next value plays and is drawn; one stop on
        await settle(ex)
        t, c = time.perf_counter(), time.process_time()
        ex.show(v)
        near.append((time.perf_counter() - t, time.process_time() - c))
    t, c = time.perf_counter(), time.process_time()
    ex.show(3)
    again, again_cpu = time.perf_counter() - t, time.process_time() - c
    more = []  # values already played, back and forth: the ring moves, no chart is rebuilt
    for v in (4, 5, 3, 4, 3):
        t, c = time.perf_counter(), time.process_time()
        ex.show(v)
        more.append((time.perf_counter() - t, time.process_time() - c))
    ex.session.version += 1  # what a new value adds to its own simulation: both specs built anew from the rows
    t, c = time.perf_counter(), time.process_time()
    ex.do({"do": "measure", "measure": ex.session.measure})
    rebuild, rebuild_cpu = time.perf_counter() - t, time.process_time() - c
    ex.close()
    idle = explorer()  # the same far move with the background idle (its neighbour, 2, played and drawn)
    await settle(idle)
    t = time.perf_counter()
    idle.show(3)
    cold_idle = time.perf_counter() - t
    idle.close()
    lean_1000 = min(_lean(lean_ddb, "random", EXPLORER_GAMES, s) for s in range(3))
    return {"first": first, "cold": cold, "cold_idle": cold_idle, "near": max(w for w, _ in near),
            "near_cpu": max(c for _, c in near), "harvest": max(w for w, _ in harvests) if harvests else float("nan"),
            "harvest_cpu": max(c for _, c in harvests) if harvests else float("nan"), "again": again,
            "again_cpu": again_cpu, "more": max(w for w, _ in more), "more_cpu": max(c for _, c in more),
            "rebuild": rebuild, "rebuild_cpu": rebuild_cpu, "lean": lean_1000}


# --- issue 21's Explorer goals: a cold move against the lean loop, a redraw -----------------
EXPLORER21_GOAL, REDRAW21_GOAL = 2.0, 0.1


def explorer_widget(workers: int | None = 1):
    """The Explorer this tree has, as `explorer_cold` drives it: (open, move, close). workers=1:
    every game in this process (no background prefetch), so its CPU time is the whole work;
    None: the default pool (wall clock is then the figure; the pool's CPU is not this process's)."""
    from meeple.widgets import Explorer

    def open_():  # starts at rounds = 1; the cold value is 3, the rounds the lean reference plays
        config = game_module("duck-duck-bruce").Config().with_values({"rounds": 1})
        return Explorer("duck-duck-bruce", "rounds", values=[1, 2, 3, 4, 5], config=config, bots="heuristic,random",
                        games=EXPLORER_GAMES, seed=1, workers=workers)

    return open_, lambda ex, value: ex.show(value), lambda ex: ex.close()


# To point it at widgets/explorer_session.py (branch `explorer`), pass explorer_cold a triple such as
#   (lambda: _played(ExplorerSession("duck-duck-bruce", "rounds", values=[1, 2, 3, 4, 5], config=...,
#                                     games=1000, seed=1)),   # _played: s.play_current(); return s
#    lambda s, v: s.move(v), lambda s: None)
# (ExplorerSession.move plays the value unless played; it draws no chart, so for the widget's figure
# time the widget built on it, whose move also builds the charts' specs).


def explorer_cold(widget=None, rounds: int = 3) -> dict:
    """CPU and wall seconds of a cold move (1 -> 3: a value nothing has played) and of moves back
    to values already played, against the lean reference's CPU time for EXPLORER_GAMES random
    Duck games; `rounds` alternating rounds (lean, then a fresh widget), the best of each counts."""
    open_, move, close = widget or explorer_widget()
    best = {"lean": float("inf"), "cold_cpu": float("inf"), "cold": float("inf"),
            "redraw_cpu": float("inf"), "redraw": float("inf"), "games": float("inf")}
    config = game_module("duck-duck-bruce").Config().with_values({"rounds": 3})
    lineup = ["heuristic"] + ["random"] * (config.players - 1)  # the Explorer's "heuristic,random"
    for r in range(rounds):
        gc.collect()
        best["lean"] = min(best["lean"], _lean(lean_ddb, "random", EXPLORER_GAMES, 200 + r))
        c = time.process_time()  # the cold value's games alone, no widget: what the move cannot do without
        simulate("duck-duck-bruce", config, lineup, EXPLORER_GAMES, 1, progress=False, workers=1)
        best["games"] = min(best["games"], time.process_time() - c)
        ex = open_()  # plays and draws its first value (rounds = 1)
        t, c = time.perf_counter(), time.process_time()
        move(ex, 3)
        best["cold"] = min(best["cold"], time.perf_counter() - t)
        best["cold_cpu"] = min(best["cold_cpu"], time.process_time() - c)
        slowest = (0.0, 0.0)  # the slowest of four moves back and forth between played values
        for v in (1, 3, 1, 3):
            t, c = time.perf_counter(), time.process_time()
            move(ex, v)
            slowest = max(slowest, (time.perf_counter() - t, time.process_time() - c))
        best["redraw"] = min(best["redraw"], slowest[0])
        best["redraw_cpu"] = min(best["redraw_cpu"], slowest[1])
        close(ex)
    return best


def explorer_cold_text(e: dict, load: tuple[float, float]) -> str:
    ratio = e["cold_cpu"] / e["lean"]
    return (
        f"Measured {time.strftime('%Y-%m-%d %H:%M')}, load average {load[0]:.1f} at the start and {load[1]:.1f} after "
        f"(the machine is shared: CPU time of this process, best of 3 rounds alternating the lean loop and a fresh "
        f"Explorer). `Explorer(\"duck-duck-bruce\", \"rounds\", ...)`, values 1-5 starting at 1, heuristic vs random, "
        f"{EXPLORER_GAMES:,} games per value, workers=1: every game in this process, no background prefetch. "
        f"The lean reference's {EXPLORER_GAMES:,} random games (3 rounds): {e['lean']:.3f} s CPU. "
        f"A cold move (1 to 3, nothing played there): {e['cold_cpu']:.3f} s CPU ({e['cold']:.3f} s wall), "
        f"**{ratio:.1f}x** the lean loop (goal <= {EXPLORER21_GOAL:g}x: {'met' if ratio <= EXPLORER21_GOAL else 'NOT met'}); "
        f"of it, the value's {EXPLORER_GAMES:,} games alone (`simulate` of the same line-up and rounds, workers=1, "
        f"to a Results) {e['games']:.3f} s CPU ({e['games'] / e['lean']:.1f}x the lean loop's random games), the rest "
        f"({e['cold_cpu'] - e['games']:.3f} s) the widget's own work: the value's row of the table and both charts. "
        f"A move back to a value already played (the slowest of four, 1 and 3 back and forth): {e['redraw']:.3f} s wall "
        f"({e['redraw_cpu']:.3f} s CPU; goal < {REDRAW21_GOAL:g} s: "
        f"{'met' if e['redraw'] < REDRAW21_GOAL else 'NOT met'})."
    )


# --- issue 21's memory goal: peak RSS with keep="summary", a fresh process per size ------------
RSS_GAME = "piggyback-brigade"  # the fastest game: the one where 100,000 games fit in minutes


def _rss_child(game: str, n: int) -> None:
    """Run in a subprocess: simulate `n` games to a summary with keep="summary"; print peak RSS."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.process_time()
    res = simulate(game, None, "random", n, 7, progress=False, workers=1, keep="summary")
    str(res.summary())
    cpu = time.process_time() - t
    print(f"{before} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} {cpu:.2f}")


def peak_rss(game: str = RSS_GAME, sizes=(1_000, 100_000)) -> list[tuple[int, int, int, float]]:
    """[(games, KiB peak RSS after the imports, KiB peak RSS at the end, CPU s)] of simulate(...,
    keep="summary") + summary in a fresh interpreter per size (ru_maxrss: Linux reports KiB)."""
    out = []
    for n in sizes:
        code = f"import sys; sys.argv = ['bench']; import bench_engine as b; b._rss_child({game!r}, {n})"
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             cwd=Path(__file__).parent)
        before, after, cpu = run.stdout.split()[-3:]
        out.append((n, int(before), int(after), float(cpu)))
        print(out[-1], file=sys.stderr)
    return out


def peak_rss_text(rows, game: str, load: tuple[float, float]) -> str:
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M')}, load average {load[0]:.1f} at the start and {load[1]:.1f} "
             f"after. `simulate(\"{game}\", None, \"random\", N, 7, workers=1, keep=\"summary\")` and its summary, "
             f"one fresh interpreter per N; peak RSS (`resource.getrusage(RUSAGE_SELF).ru_maxrss`) after the imports "
             f"and at the end.", "",
             "| games | peak RSS after the imports, MiB | peak RSS at the end, MiB | added by the run, MiB | CPU s |",
             "|---:|---:|---:|---:|---:|"]
    lines += [f"| {n:,} | {b / 1024:.1f} | {a / 1024:.1f} | {(a - b) / 1024:.1f} | {cpu:.1f} |" for n, b, a, cpu in rows]
    (n0, _, a0, _), (n1, _, a1, _) = rows[0], rows[-1]
    per = (a1 - a0) / (n1 - n0) if n1 > n0 else 0.0
    lines += ["", f"From {n0:,} to {n1:,} games the peak grows by {(a1 - a0) / 1024:.1f} MiB "
              f"({per * 1024:.2f} bytes a game; goal: flat)."]
    return "\n".join(lines)


def explorer_text(e: dict) -> str:
    """The Explorer's paragraph in BENCHMARKS.md (it starts "Explorer (")."""
    def goal(seconds):
        return f"{seconds / e['lean']:.1f}x, {'met' if seconds <= EXPLORER_GOAL * e['lean'] else 'NOT met'}"

    return (
        f"Explorer (Duck, Duck, Bruce, `rounds` slider 1-5 starting at 1, heuristic vs random, {EXPLORER_GAMES:,} "
        f"games per value, default workers, wall clock, an event loop running as in a kernel): the lean reference "
        f"plays {EXPLORER_GAMES:,} random games (3 rounds) in {e['lean']:.3f} s CPU (issue 11's goal, wall clock with the "
        f"default workers: a move <= {EXPLORER_GOAL:g}x that; issue 35's, CPU time of the move itself: <= 2x, in the "
        f"explorer21 paragraph below). A move to the next value, which the background played while the reader looked "
        f"(the usual move: 3 to 4 and 4 to 5, the slower) {e['near']:.3f} s ({e['near_cpu']:.3f} s CPU; "
        f"{goal(e['near'])}): the kernel had put it into the table and the charts while idle, {e['harvest']:.2f} s "
        f"({e['harvest_cpu']:.2f} s CPU) once its games were played. A move to a value far away (cold, 1 to 3) "
        f"{e['cold']:.2f} s right after the first value, the background busy ({goal(e['cold'])}), "
        f"{e['cold_idle']:.2f} s with the background idle ({goal(e['cold_idle'])}), of which both charts built anew "
        f"{e['rebuild']:.3f} s ({e['rebuild_cpu']:.3f} s CPU). Back to a value already played {e['again']:.3f} s "
        f"({e['again_cpu']:.3f} s CPU; the slowest of five more such moves {e['more']:.3f} s, {e['more_cpu']:.3f} s "
        f"CPU) (goal < {REDRAW_GOAL} s: {'met' if max(e['again'], e['more'], e['near']) < REDRAW_GOAL else 'NOT met'}). "
        f"Building the widget with its first value {e['first']:.2f} s."
    )


def import_cpu(stmt: str) -> float:
    """CPU seconds of `stmt` in a fresh interpreter (best of 3)."""
    code = f"import time; t = time.process_time(); {stmt}; print(time.process_time() - t)"
    best = float("inf")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
        best = min(best, float(out.stdout.strip().splitlines()[-1]))
    return best


def memory_per_game(game: str = "duck-duck-bruce", keep: str = "games") -> tuple[float, float, float]:
    """(KiB peak for 2,000 games, KiB peak for 8,000, KiB per extra game) of simulate + summary."""
    peaks = []
    for n in (2000, 8000):
        gc.collect()
        tracemalloc.start()
        res = simulate(game, None, "random", n, 7, progress=False, workers=1, keep=keep)
        str(res.summary())
        peaks.append(tracemalloc.get_traced_memory()[1] / 1024)
        tracemalloc.stop()
        del res
    return peaks[0], peaks[1], (peaks[1] - peaks[0]) / 6000


def then_package(rev: str):
    """meeple.rules as it was at git revision `rev`, imported as the package `meeple_then` (its modules
    import one another relatively), so that the engine then and now run side by side in this process."""
    import importlib
    import tarfile
    import tempfile
    from io import BytesIO

    folder = Path(tempfile.mkdtemp(prefix="meeple-then-"))
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "rules"], check=True, capture_output=True).stdout
    tarfile.open(fileobj=BytesIO(tar)).extractall(folder)
    (folder / "rules").rename(folder / "meeple_then")
    sys.path.insert(0, str(folder))
    return importlib.import_module("meeple_then")


def versus(rev: str, games: tuple[str, ...], seconds: float, rounds: int = 5) -> str:
    """Games/s (CPU) of simulate(..., workers=1) now and at `rev`, and of the lean reference, in
    alternating rounds in this process (the best round of each counts), per game and bot."""
    then = then_package(rev)
    load = os.getloadavg()[0]
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; load average {load:.1f} at the start, LOAD_AFTER after (the machine is "
        f"shared: CPU time, best of {rounds} rounds alternating today's engine ({rev}), the core and the lean loop).",
        "",
        f"| game | bots | {rev}, games/s (CPU) | ratio to lean | core, games/s (CPU) | ratio to lean | core / {rev} "
        "| lean, games/s (CPU) |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]

    def timed(fn, game, bots, n, seed):
        t = time.process_time()
        fn(game, None, bots, n, seed, progress=False, workers=1)
        return time.process_time() - t

    for game in games:
        for bots in ("random", "heuristic"):
            lean = LEAN[game][0]
            per = lambda fn, game=game, bots=bots: 20 / max(1e-6, timed(fn, game, bots, 20, 0))  # noqa: E731 - games/s, a first guess
            n_then, n_now = (max(20, int(per(fn) * seconds / rounds)) for fn in (then.simulate, simulate))
            n_lean = max(50, int(50 / max(1e-6, _lean(lean, bots, 50, 0)) * seconds / rounds))
            best = [float("inf")] * 3
            for r in range(rounds):
                best[0] = min(best[0], timed(then.simulate, game, bots, n_then, 100 + r) / n_then)
                best[1] = min(best[1], timed(simulate, game, bots, n_now, 100 + r) / n_now)
                best[2] = min(best[2], _lean(lean, bots, n_lean, 100 + r) / n_lean)
            old, new, ref = (1 / b for b in best)
            lines.append(f"| {game} | {bots} | {old:,.0f} | {old / ref:.2f}x | {new:,.0f} | {new / ref:.2f}x | "
                         f"{new / old:.2f}x | {ref:,.0f} |")
            print(lines[-1], file=sys.stderr)
    lines[0] = lines[0].replace("LOAD_AFTER", f"{os.getloadavg()[0]:.1f}")
    return "\n".join(lines)


def memory_text() -> str:
    low, high, per = memory_per_game()
    s_low, s_high, s_per = memory_per_game(keep="summary")
    return (
        f"Memory, only the summary wanted (Duck, Duck, Bruce, random bots, one process, tracemalloc peak of "
        f"simulate + summary): every game kept (the default) {low:,.0f} KiB for 2,000 games, {high:,.0f} KiB "
        f"for 8,000: {per:.2f} KiB per extra game; `keep=\"summary\"` {s_low:,.0f} KiB and {s_high:,.0f} KiB: "
        f"{s_per:.3f} KiB per extra game (goal: flat)."
    )


def measure(seconds: float) -> str:
    load = os.getloadavg()[0]
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; load average {load:.1f} at the start (the machine is shared: CPU-time "
        "figures, best of 5 alternating rounds).",
        "",
        "| game | bots | meeple (simulate, its tables read), games/s (CPU) | lean reference, games/s (CPU) "
        "| ratio, the median round's (lowest-highest round) | goal >= 0.5x "
        "| summary only: games/s, ratio | µs a game: lean | simulate's games (play_game) | + tables "
        "| the step API alone (as a Stepper plays) | floor: streams seeded + tables, µs (0.5x budget) |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    seed_us = seed_cost()
    for game in GAMES:
        for bots in ("random", "heuristic"):
            t = parts(game, bots, seconds)
            # what any engine pays a game under chance v2 and the Results contract, rules aside
            k = streams_per_game(game, bots)
            floor = f"{k:.0f} x {seed_us:.1f} + {t['tables']:,.0f} = {k * seed_us + t['tables']:,.0f}"
            m, lean = 1e6 / t["simulate"], (1e6 / t["lean"] if "lean" in t else None)
            summary = 1e6 / t["summary"]
            # simulate plays each game through the module's own fast loop (play_core), not the step API:
            # the two are side by side, not one inside the other (a difference of them is no cost of anything)
            split = f"{t['play_game']:,.0f} | {t['tables']:,.0f} | {t['moves']:,.0f} |"
            if lean is None:
                lines.append(f"| {game} | {bots} | {m:,.0f} | no lean reference | - | not measured | "
                             f"{summary:,.0f} | - | {split} {floor} |")
            else:
                r, low, high = t["spread"]
                lines.append(f"| {game} | {bots} | {m:,.0f} | {lean:,.0f} | {r:.2f}x ({low:.2f}-{high:.2f}) | "
                             f"{'met' if r >= RATIO_GOAL else 'NOT met'} | {summary:,.0f}, {summary / lean:.2f}x | "
                             f"{t['lean']:,.0f} | {split} {floor} ({2 * t['lean']:,.0f}) |")
            print(lines[-1], file=sys.stderr)
    lines += ["", explorer_text(explorer_move())]
    print(lines[-1], file=sys.stderr)
    imports = {
        "import meeple.widgets": import_cpu("import meeple.widgets"),
        "from meeple.widgets import Stepper": import_cpu("from meeple.widgets import Stepper"),
        "from meeple.widgets import Explorer": import_cpu("from meeple.widgets import Explorer"),
        # altair: jsonschema builds rfc3987_syntax's IRI grammar where JupyterLab installed it (about 1 s)
        "from meeple.widgets import charts": import_cpu("from meeple.widgets import charts"),
        "import meeple.rules": import_cpu("import meeple.rules"),
    }
    lines += ["", "Import CPU time in a fresh interpreter (best of 3; goal for the widgets <= 1.0 s):", ""]
    lines += [f"- `{k}`: {v:.2f} s" for k, v in imports.items()]
    lines += ["", memory_text()]
    print("\n".join(lines[-3:]), file=sys.stderr)
    return "\n".join(lines)


def agree(games: int, only_game: str | None = None, only_bots: str | None = None) -> int:
    """Lean vs meeple in distribution; returns the number of disagreements (|z| > 4).
    `only_game` / `only_bots`: check only that game / those bots (None: all)."""
    bad = 0
    for game, (mod, bots_list) in LEAN.items():
        if only_game is not None and game != only_game:
            continue
        for bots in bots_list:
            if only_bots is not None and bots != only_bots:
                continue
            res = simulate(game, None, bots, games, 11, progress=False)
            rng = random.Random(11)
            lean_scores, lean_len = [[] for _ in range(4)], []
            for _ in range(games):
                sc, actions = mod.play(rng, 4, bots)
                for s in range(4):
                    lean_scores[s].append(sc[s])
                lean_len.append(actions)
            rows = [("game length (actions)", res.games["actions"].tolist(), lean_len)]
            t = res.table
            rows += [(f"seat {s + 1} mean score", t[t["seat"] == s]["score"].tolist(), lean_scores[s]) for s in range(4)]
            for what, a, b in rows:
                ma, la, ha = mean_ci(a)
                mb, lb, hb = mean_ci(b)
                se = ((ha - la) ** 2 + (hb - lb) ** 2) ** 0.5 / (2 * 1.96)
                z = (ma - mb) / se if se else 0.0
                flag = "ok" if abs(z) <= 4 else "DIFFERENT"
                bad += flag != "ok"
                print(f"{game:18} {bots:9} {what:22} meeple {ma:8.3f} [{la:.3f}, {ha:.3f}]  lean {mb:8.3f} "
                      f"[{lb:.3f}, {hb:.3f}]  z {z:+.2f} {flag}")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="about how long each side-by-side pair runs")
    ap.add_argument("--update", metavar="FILE.md", help="replace the text between <!-- engine:start/end --> in FILE.md")
    ap.add_argument("--agree", action="store_true", help="check lean references against meeple (20,000 games each)")
    ap.add_argument("--games", type=int, default=20_000, help="games per check for --agree")
    ap.add_argument("--game", choices=sorted(LEAN), help="--agree for this game only (default: every lean reference)")
    ap.add_argument("--bots", choices=("random", "heuristic"), help="--agree for these bots only (default: both)")
    ap.add_argument("--explorer", action="store_true",
                    help="measure the Explorer alone (with --update: replace only its paragraph, the one starting 'Explorer (')")
    ap.add_argument("--memory", action="store_true",
                    help="measure memory alone (with --update: replace only its paragraph, 'Memory, only the summary wanted')")
    ap.add_argument("--versus", metavar="REV", help="today's engine (git revision REV) vs this tree, and the lean loops "
                    "(with --update: between <!-- core:start/end -->)")
    ap.add_argument("--only", nargs="+", choices=GAMES, help="--versus for these games only")
    ap.add_argument("--section", default="core", metavar="NAME",
                    help="--versus with --update: write between <!-- NAME:start/end --> (default: core)")
    ap.add_argument("--explorer-cold", action="store_true",
                    help="issue 21: the Explorer's cold move vs the lean loop and its redraw (with --update: between "
                    "<!-- explorer21:start/end -->)")
    ap.add_argument("--rss", nargs="*", type=int, metavar="N",
                    help="issue 21: peak RSS with keep='summary', a fresh process per N games (default 1000 100000; "
                    "with --update: between <!-- rss:start/end -->)")
    ap.add_argument("--rss-game", choices=GAMES, default=RSS_GAME, help="the game --rss plays (default: %(default)s)")
    args = ap.parse_args(argv)
    if args.explorer_cold:
        load0 = os.getloadavg()[0]
        e = explorer_cold()
        text = explorer_cold_text(e, (load0, os.getloadavg()[0]))
        return write_section(args.update, text, r"(<!-- explorer21:start -->\n).*?(\n<!-- explorer21:end -->)", text,
                      "<!-- explorer21:start --> ... <!-- explorer21:end --> markers", whole=True)
    if args.rss is not None:
        sizes = args.rss or [1_000, 100_000]
        if any(n < 1 for n in sizes):
            ap.error(f"--rss {' '.join(map(str, sizes))}: each size is a number of games, at least 1")
        load0 = os.getloadavg()[0]
        rows = peak_rss(args.rss_game, sizes)
        text = peak_rss_text(rows, args.rss_game, (load0, os.getloadavg()[0]))
        return write_section(args.update, text, r"(<!-- rss:start -->\n).*?(\n<!-- rss:end -->)", text,
                      "<!-- rss:start --> ... <!-- rss:end --> markers", whole=True)
    if args.versus:
        text = versus(args.versus, tuple(args.only or GAMES), args.seconds)
        name = re.escape(args.section)
        return write_section(args.update, text, rf"(<!-- {name}:start -->\n).*?(\n<!-- {name}:end -->)", text,
                      f"<!-- {args.section}:start --> ... <!-- {args.section}:end --> markers", whole=True)
    if (args.game or args.bots) and not args.agree:
        ap.error("--game and --bots choose what --agree checks; add --agree")
    if args.agree:
        if args.game and args.bots and args.bots not in LEAN[args.game][1]:
            ap.error(f"--bots {args.bots}: the lean {args.game} has {', '.join(LEAN[args.game][1])} bots")
        if args.games < 2:
            ap.error(f"--games {args.games}: at least 2 games per check (an interval needs two)")
        return 1 if agree(args.games, args.game, args.bots) else 0
    if args.memory:
        text = memory_text()
        return write_section(args.update, text, _paragraph("Memory, only the summary wanted"), text + "\n",
                      "a 'Memory, only the summary wanted' paragraph between <!-- engine:start/end -->")
    if args.explorer:
        text = f"{explorer_text(explorer_move())} (Measured {time.strftime('%Y-%m-%d %H:%M')}, load average " \
               f"{os.getloadavg()[0]:.1f} after.)"
        return write_section(args.update, text, _paragraph("Explorer \\("), text + "\n",
                      "an 'Explorer (' paragraph between <!-- engine:start/end -->")
    text = measure(args.seconds)
    return write_section(args.update, text, r"(<!-- engine:start -->\n).*?(\n<!-- engine:end -->)", text,
                  "<!-- engine:start --> ... <!-- engine:end --> markers", whole=True)


def _paragraph(start: str) -> str:
    """A pattern for the paragraph starting with `start` (a regex) between the engine markers."""
    return r"(<!-- engine:start -->\n(?:.*?\n)?)" + start + r".*?\n(?=\n|<!-- engine:end -->)"


def write_section(update: str | None, text: str, pattern: str, replacement: str, what: str, whole: bool = False) -> int:
    """Print `text`; with --update, replace what `pattern` finds in that file (atomically). 2 if it finds nothing."""
    if update:
        path = Path(update)
        end = (lambda m: m[1] + replacement + m[2]) if whole else (lambda m: m[1] + replacement)
        new, k = re.subn(pattern, end, path.read_text(), flags=re.S)
        if k != 1:
            print(f"{path} has no {what}", file=sys.stderr)
            return 2
        tmp = path.with_suffix(".tmp")
        tmp.write_text(new)
        os.replace(tmp, path)
    print(text)
    return 0

if __name__ == "__main__":
    sys.exit(main())

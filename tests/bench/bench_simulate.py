"""Benchmark: games per second for every game, random and heuristic bots.

    .venv/bin/python tests/bench/bench_simulate.py --update BENCHMARKS.md

For each game in GAMES and each of the random and heuristic bots (one bot
in every seat, the base rules): games/s on one core (in this process,
wall clock and CPU time), games/s on all cores (local worker processes),
and the wall time from calling simulate to a printed-ready summary for
2,000 games on all cores (process start-up included, pandas already
imported; the fastest of three runs, each with its own seed). Targets from issue 6 are checked in the last column. Not a test:
pytest does not collect this folder (no test_*.py names).
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import re
import resource
import sys
import time

import pandas  # noqa: F401 - imported up front: a notebook has it loaded already

from meeple.rules import GAMES
from meeple.rules.sim import default_workers, simulate

_sim_module = importlib.import_module("meeple.rules.sim.runner")  # the runner, which holds the shared pool

ONE_CORE_TARGET = {  # random bots, games/s on one core
    "duck-duck-bruce": 2000,
    "piggyback-brigade": 2000,
    "bucket-brigade": 1000,
    "bucket-king": 300,
}
SUMMARY_GAMES, SUMMARY_TARGET = 2000, 2.0  # heuristic bots, both cores, seconds
REPEATS = 3  # the 2,000-game run is timed this often; the fastest counts (least disturbed by other jobs)


def one_core(game: str, bots: str, seconds: float, seed: int) -> tuple[float, float, int]:
    """(wall games/s, CPU games/s, games) in this process, sized to take about `seconds`."""
    probe = 20
    t = time.perf_counter()
    simulate(game, None, bots, probe, seed, progress=False, workers=1)
    rate = probe / max(1e-6, time.perf_counter() - t)
    n = max(20, int(rate * seconds))
    w, c = time.perf_counter(), time.process_time()
    simulate(game, None, bots, n, seed + 1, progress=False, workers=1)
    return n / (time.perf_counter() - w), n / (time.process_time() - c), n


def all_cores(game: str, bots: str, games: int, seed: int) -> float:
    t = time.perf_counter()
    simulate(game, None, bots, games, seed, progress=False)
    return games / (time.perf_counter() - t)


def _children_cpu() -> float:
    """CPU seconds of this process's worker processes so far: the live pool's workers read from
    /proc (simulate keeps one pool for the life of the process, so its workers never end and
    getrusage(RUSAGE_CHILDREN), which counts ended children only, would miss them) plus every
    child that has ended."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = ru.ru_utime + ru.ru_stime
    pool = _sim_module.current_pool()
    tick = os.sysconf("SC_CLK_TCK")
    for pid in list(getattr(pool, "_processes", None) or ()):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


def to_summary(game: str, bots: str, seed: int, workers: int) -> tuple[float, float]:
    """(wall seconds, idle-machine estimate): 2,000 games on all cores to a summary.

    The estimate is this process's CPU time plus the worker processes' CPU
    time shared over the workers: what the wall time would be if nothing
    else used the cores and the chunks balanced perfectly."""
    t, c, k = time.perf_counter(), time.process_time(), _children_cpu()
    res = simulate(game, None, bots, SUMMARY_GAMES, seed, progress=False, workers=workers)
    str(res.summary())  # the pool is shut down (workers joined) before simulate returns
    wall = time.perf_counter() - t
    return wall, (time.process_time() - c) + (_children_cpu() - k) / workers


def measure(seconds: float, games_filter: list[str] | None) -> tuple[str, list[str]]:
    workers = default_workers()
    load_before = os.getloadavg()
    rows = []
    for game in GAMES:
        if games_filter and game not in games_filter:
            continue
        for bots in ("random", "heuristic"):
            wall, cpu, n = one_core(game, bots, seconds, 1)
            many = all_cores(game, bots, max(200, int(wall * workers * seconds)), 2)
            summary, idle = min(to_summary(game, bots, 3 + k, workers) for k in range(REPEATS))
            checks = []
            if bots == "random" and game in ONE_CORE_TARGET:
                target = ONE_CORE_TARGET[game]
                checks.append(f"1 core >= {target:,}/s: {'met' if wall >= target else 'NOT met'}"
                              + ("" if wall >= target or cpu < target else " (met in CPU time)"))
            if bots == "heuristic":
                checks.append(f"2,000 in < {SUMMARY_TARGET:g} s: {'met' if summary < SUMMARY_TARGET else 'NOT met'}"
                              + ("" if summary < SUMMARY_TARGET or idle >= SUMMARY_TARGET else " (met on idle cores)"))
            rows.append(
                f"| {game} | {bots} | {wall:,.0f} | {cpu:,.0f} | {many:,.0f} | {summary:.2f} | {idle:.2f} | "
                f"{'; '.join(checks) or '-'} |"
            )
            print(rows[-1], file=sys.stderr)
    load_after = os.getloadavg()
    head = (
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} CPUs "
        f"({workers} used for \"all cores\"), Python {platform.python_version()}; load average "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after (other jobs share the machine: "
        f"wall-clock figures drop when it is busy; CPU time is steadier).\n\n"
        "| game | bots | 1 core, games/s (wall) | 1 core, games/s (CPU) | all cores, games/s (wall) | "
        "2,000 games to summary, s (wall, best of 3) | same, idle-core estimate, s | target |\n"
        "|---|---|---:|---:|---:|---:|---:|---|"
    )
    return head, rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="about how long each one-core measurement runs")
    ap.add_argument("--games", default=None, help="comma-separated game names (default: all)")
    ap.add_argument("--update", metavar="FILE.md", help="replace the table between the bench markers in FILE.md")
    args = ap.parse_args(argv)
    head, rows = measure(args.seconds, args.games.split(",") if args.games else None)
    table = head + "\n" + "\n".join(rows)
    if args.update:
        with open(args.update) as f:
            text = f.read()
        new, k = re.subn(r"(<!-- bench:start -->\n).*?(\n<!-- bench:end -->)", lambda m: m[1] + table + m[2], text, flags=re.S)
        if k != 1:
            print(f"{args.update} has no <!-- bench:start --> ... <!-- bench:end --> markers", file=sys.stderr)
            return 2
        with open(args.update + ".tmp", "w") as f:
            f.write(new)
        os.replace(args.update + ".tmp", args.update)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

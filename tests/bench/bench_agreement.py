"""Issue 21's distribution-agreement check: every game's core path against its protocol path.

    .venv/bin/python tests/bench/bench_agreement.py --games 1000 --update BENCHMARKS.md   # run by `make bench`
    .venv/bin/python tests/bench/bench_agreement.py --chance --games 5000 --update BENCHMARKS.md  # and this
    .venv/bin/python tests/bench/bench_agreement.py --games 2000 --game bucket-king   # one game, fewer games
    .venv/bin/python tests/bench/bench_agreement.py --sanity                         # the check can fail
    nice -n 10 .venv/bin/python tests/bench/bench_agreement.py --games 400 --workers 8   # cases in 8 processes

For every game, preset and bot line-up (random, heuristic, heuristic against random, seats
rotated), N games (default 20,000) are played twice through simulate's `play_game`: once with the
game's engine hook (`play_core`, the mutable core) and once on the public protocol alone (the
module without `play_core` and without `step`: `new_game`, `legal_actions`, the bot on its
`observation`, `apply` on immutable states). Per seat it compares the mean score and the win
rate (a shared win counts for every winner), and the mean game length (decisions and turns),
each by a two-sample z-test (Welch's standard error); every p-value of the whole run is
Holm-corrected together, and a comparison fails below family-wise alpha = 0.01.

Both paths play game i on the same seed (`derive(seed, "game", i)`), so where the core is right
the draws are identical and every game is the same game: the run also counts games whose
GameResult differs (`identical` column). The distribution test does not rely on that: it can
fail, as `--sanity` shows (the core path of one preset against the protocol path of another,
Bucket King's base rules against the poke fall model; it must be rejected).
With --chance it compares chance version 1 with version 2 instead (issue 35), both on simulate's
path (play_game with chance=1 and chance=2): the same cases and measures, other games, so only
the distributions can agree. tests/rules/test_chance2.py runs that check on every game's base rules at
a modest size (300 games a version).
Not a test: pytest does not collect this folder. Exit status 1 when any comparison fails.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from meeple.rules.core import resolve_bots
from meeple.rules.registry import GAMES
from meeple.rules.sim.play import play_game

LINEUPS = ("random", "heuristic", "heuristic,random")
ALPHA = 0.01


def protocol_only(mod):
    """The module as a user's loop sees it: no engine hook, no in-place step (apply only)."""
    plain = types.ModuleType(mod.__name__ + "[protocol]")
    plain.__dict__.update({k: v for k, v in vars(mod).items() if k not in ("play_core", "step")})
    return plain


def _moments(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, v, n


def z_test(a, b) -> float:
    """Two-sided p-value of a difference of means (Welch's standard error, normal approximation:
    N is in the thousands). Equal samples with no spread: 1.0; unequal ones with none: 0.0."""
    ma, va, na = _moments(a)
    mb, vb, nb = _moments(b)
    se = math.sqrt(va / na + vb / nb)
    if se == 0:
        return 1.0 if ma == mb else 0.0
    return math.erfc(abs(ma - mb) / se / math.sqrt(2))


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order."""
    m = len(pvalues)
    order = sorted(range(m), key=pvalues.__getitem__)
    out, run = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (m - rank) * pvalues[i]))
        out[i] = run
    return out


def play_both(game: str, preset: str, lineup: str, games: int, seed: int, protocol_preset: str | None = None):
    """(core results, protocol results) of `games` games; the protocol side may play another preset."""
    mod = GAMES[game]
    presets = mod.Config.presets()
    config, other = presets[preset], presets[protocol_preset or preset]
    names, funcs = resolve_bots(mod, ",".join((lineup.split(",") * config.players)[: config.players]), config.players)
    plain = protocol_only(mod)
    rotate = "," in lineup
    core = [play_game(mod, config, names, funcs, seed, i, rotate=rotate) for i in range(games)]
    proto = [play_game(plain, other, names, funcs, seed, i, rotate=rotate) for i in range(games)]
    return core, proto


def play_versions(game: str, preset: str, lineup: str, games: int, seed: int):
    """(chance version 1 results, version 2 results) of `games` games of one case, on simulate's path."""
    mod = GAMES[game]
    config = mod.Config.presets()[preset]
    names, funcs = resolve_bots(mod, ",".join((lineup.split(",") * config.players)[: config.players]), config.players)
    rotate = "," in lineup
    return tuple([play_game(mod, config, names, funcs, seed, i, rotate=rotate, chance=v) for i in range(games)]
                 for v in (1, 2))


def compare(core, proto) -> list[tuple[str, float, float, float]]:
    """(measure, core mean, protocol mean, raw p-value) for each seat's score and win rate, and the length."""
    n = len(core[0].scores)
    rows = []
    for s in range(n):
        a, b = [g.scores[s] for g in core], [g.scores[s] for g in proto]
        rows.append((f"score seat {s + 1}", sum(a) / len(a), sum(b) / len(b), z_test(a, b)))
        a, b = [int(s in g.winners) for g in core], [int(s in g.winners) for g in proto]
        rows.append((f"win seat {s + 1}", sum(a) / len(a), sum(b) / len(b), z_test(a, b)))
    for what in ("actions", "turns"):
        a, b = [getattr(g, what) for g in core], [getattr(g, what) for g in proto]
        rows.append((what, sum(a) / len(a), sum(b) / len(b), z_test(a, b)))
    return rows


def one_case(job) -> tuple:
    """(game, preset, line-up, identical games, compare's rows, CPU seconds) of one case."""
    game, preset, lineup, games, seed, other = job
    t = time.process_time()
    if other == "chance":  # version 1 against version 2 (the "core" and "protocol" columns)
        core, proto = play_versions(game, preset, lineup, games, seed)
    else:
        core, proto = play_both(game, preset, lineup, games, seed, other)
    same = sum(a == b for a, b in zip(core, proto))
    print(f"{game} {preset} {lineup}: {same}/{games} games identical", file=sys.stderr, flush=True)
    return game, preset, lineup, same, compare(core, proto), time.process_time() - t


def run(games: int, seed: int, only: list[str] | None, sanity: bool, workers: int = 1,
        chance: bool = False) -> tuple[str, bool]:
    cases = []
    if sanity:
        cases.append(("bucket-king", "base", "random", "poke"))
    else:
        for game, mod in sorted(GAMES.items()):
            if only and game not in only:
                continue
            for preset in mod.Config.presets():
                for lineup in LINEUPS:
                    cases.append((game, preset, lineup, "chance" if chance else None))
    t0, w0 = time.process_time(), time.time()
    jobs = [(game, preset, lineup, games, seed, other) for game, preset, lineup, other in cases]
    if workers > 1:  # the cases in worker processes (same niceness as this one); the results in case order
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            results = list(pool.map(one_case, jobs))
    else:
        results = [one_case(job) for job in jobs]
    cpu = time.process_time() - t0 + sum(r[5] for r in results if workers > 1)
    results = [r[:5] for r in results]
    raw = [r[3] for *_, rows in results for r in rows]
    adjusted = iter(holm(raw))
    failed = 0
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, Python {platform.python_version()}: "
        f"{games:,} games per game, preset and line-up on each "
        f"{'chance version (1 against 2)' if chance else 'path'}, seed {seed}; {len(raw):,} comparisons, "
        f"Holm-corrected together, family-wise alpha {ALPHA}; {cpu:,.0f} s CPU ({time.time() - w0:,.0f} s wall, "
        f"{workers} process{'es' if workers > 1 else ''}, niceness {os.nice(0)}); load average "
        f"{os.getloadavg()[0]:.1f} at the end.",
        "",
        f"| game | preset | bots | identical games | comparisons | smallest Holm p | largest difference / "
        f"{'version 1' if chance else 'core'} mean | verdict |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for game, preset, lineup, same, rows in results:
        adj = [next(adjusted) for _ in rows]
        bad = [r[0] for r, p in zip(rows, adj) if p < ALPHA]
        failed += bool(bad)
        rel = max(abs(c - p) / abs(c) if c else abs(p) for _, c, p, _ in rows)
        verdict = "agree" if not bad else "DIFFER: " + ", ".join(bad)
        lines.append(f"| {game} | {preset} | {lineup} | {same:,} / {games:,} | {len(rows)} | {min(adj):.3g} | "
                     f"{rel:.2%} | {verdict} |")
    return "\n".join(lines), failed == 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per game, preset and line-up on each path")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", nargs="+", choices=sorted(GAMES), help="these games only (default: all four)")
    ap.add_argument("--sanity", action="store_true",
                    help="compare Bucket King's base core with its poke protocol: must be rejected (exit 1)")
    ap.add_argument("--workers", type=int, default=1,
                    help="play the cases in this many processes (default %(default)s); Holm over all of them together")
    ap.add_argument("--chance", action="store_true",
                    help="compare chance version 1 with version 2 on simulate's path (not the core with the protocol)")
    ap.add_argument("--update", metavar="FILE.md", help="replace the text between <!-- agreement:start/end --> "
                    "(with --chance: <!-- chance-agreement:start/end -->)")
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error(f"--games={args.games} is not allowed: at least 2 games (a variance needs two)")
    if args.workers < 1:
        ap.error(f"--workers={args.workers} is not allowed: at least 1 process")
    text, ok = run(args.games, args.seed, args.game, args.sanity, args.workers, args.chance)
    print(text)
    if args.update and not args.sanity:
        path = Path(args.update)
        md = path.read_text(encoding="utf-8")
        tag = "chance-agreement" if args.chance else "agreement"
        pat = re.compile(rf"(<!-- {tag}:start -->\n).*?(<!-- {tag}:end -->)", re.S)
        if not pat.search(md):
            raise SystemExit(f"{path} has no <!-- {tag}:start --> ... <!-- {tag}:end --> section")
        path.write_text(pat.sub(lambda m: m.group(1) + text + "\n" + m.group(2), md), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

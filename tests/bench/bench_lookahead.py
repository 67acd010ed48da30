"""Bucket Brigade's lookahead (issue 35): today's against the core lookahead with racing.

    .venv/bin/python tests/bench/bench_lookahead.py --games 600 --update BENCHMARKS.md   # run by `make bench`

Speed: games per CPU-second of three lookahead bots at 3 players, each bot alone at the table,
the two measured in alternating rounds (`--rounds`, 2 games a bot each), seeds 0, 1, 2, ...
(the ratio's spread: the lowest and highest of the rounds' own ratios). Strength: a
seat-balanced duel, the core lookahead in one seat (game g: seat g mod 3) against today's
lookahead (`bots.lookahead(module, samples=8)`, what BOTS["lookahead"] was before issue 35)
in the other two; its win share (1/k of a k-way shared win) with a 95% Wilson interval against
the fair 1/3. Chance version 2 seeds (play's default).
Not a test: pytest does not collect this folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time
from pathlib import Path

from meeple.rules import bots
from meeple.rules import bucket_brigade as bb
from meeple.rules.core import play
from meeple.rules.sim.balance import field_share

TODAY = bots.lookahead(bb, samples=8, name="today")
NEW = bb.BOTS["lookahead"]
CONFIG = bb.Config(players=3)


def speed(bot, seeds) -> tuple[int, float]:
    t = time.process_time()
    for s in seeds:
        play(bb, CONFIG, [bot] * 3, seed=s)
    return len(seeds), time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="duel games (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=3, help="speed rounds, each 2 games a bot (default %(default)s)")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--update", metavar="FILE.md", help="replace the text between <!-- lookahead:start/end -->")
    args = ap.parse_args(argv)
    if args.games < 3 or args.rounds < 1:
        ap.error("--games must be at least 3 and --rounds at least 1")
    ratios, rates = [], {"today": [0, 0.0], "core": [0, 0.0]}
    for r in range(args.rounds):
        seeds = range(2 * r, 2 * r + 2)
        cpus = {}
        for name, bot in (("today", TODAY), ("core", NEW)) if r % 2 == 0 else (("core", NEW), ("today", TODAY)):
            g, cpus[name] = speed(bot, seeds)
            rates[name][0] += g
            rates[name][1] += cpus[name]
        ratios.append(cpus["today"] / cpus["core"])  # the same games: the time ratio is the speed ratio
        print(f"speed round {r + 1}/{args.rounds}", file=sys.stderr, flush=True)
    today = rates["today"][0] / rates["today"][1]
    core = rates["core"][0] / rates["core"][1]
    shares = []
    t0 = time.process_time()
    for g in range(args.games):
        seat = g % 3
        lineup = [TODAY] * 3
        lineup[seat] = NEW
        rec = play(bb, CONFIG, lineup, seed=args.seed * 100_000 + g)
        shares.append(1.0 / len(rec.winners) if seat in rec.winners else 0.0)
        if g % 25 == 24:
            print(f"duel {g + 1}/{args.games}", file=sys.stderr, flush=True)
    duel = field_share(shares, 3)
    low, high = duel["ci95"]
    text = "\n".join([
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, Python {platform.python_version()}, "
        f"niceness {os.nice(0)}, load average {os.getloadavg()[0]:.1f} at the end; duel {time.process_time() - t0:,.0f} s CPU.",
        "",
        "| Bucket Brigade, 3 players | games / CPU-second | ratio |",
        "|---|---:|---:|",
        f"| today's lookahead (`bots.lookahead`, 8 samples, on States) | {today:.2f} | 1.00x |",
        f"| core lookahead with racing (`BOTS['lookahead']`) | {core:.2f} | {core / today:.2f}x "
        f"({min(ratios):.2f}-{max(ratios):.2f}) |",
        "",
        f"Duel, {duel['games']:,} games, the core lookahead in one seat (rotating) against today's in the other two: "
        f"win share {duel['win_share']:.1%} (95% interval {low:.1%} to {high:.1%}), fair share {1 / 3:.1%}.",
    ])
    print(text)
    if args.update:
        path = Path(args.update)
        md = path.read_text(encoding="utf-8")
        pat = re.compile(r"(<!-- lookahead:start -->\n).*?(<!-- lookahead:end -->)", re.S)
        if not pat.search(md):
            raise SystemExit(f"{path} has no <!-- lookahead:start --> ... <!-- lookahead:end --> section")
        path.write_text(pat.sub(lambda m: m.group(1) + text + "\n" + m.group(2), md), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

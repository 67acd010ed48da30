"""Benchmark (issue 21): a game's protocol path, then (git revision REV) against now, side by side.

    .venv/bin/python tests/bench/bench_protocol.py --versus 4cf7619 --game bucket-king --update BENCHMARKS.md

Two cases, each timed in this process in alternating rounds (CPU time, the best round of each):

- `apply`: whole games of `new_game(Config(), seed)` (events kept, as the Stepper and OpenSpiel
  play) + `legal_actions` + `apply` of a move drawn by `random.Random(seed)`, until the game is over.
  The path the Stepper, OpenSpiel and every user's own bot loop take.
- `lookahead`: the lookahead bot's decisions (`BOTS["lookahead"]`) at fixed positions: for each
  seed, a game of heuristic bots is played to its 70th decision and then on to the next decision with
  more than one legal action that is a play or a loss; the bot decides there with `random.Random(seed)`.
  The positions and the bot's rng are the same for both revisions, so both must choose the same
  actions (checked: a differing choice is reported and the exit status is 1).

Both revisions are loaded as bench_engine's `--versus` loads them (`git archive REV rules` imported
as the package `meeple_then`). Not a test: pytest does not collect this folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_engine import then_package, write_section  # noqa: E402 - the folder is put on the path first

import meeple.rules as now  # noqa: E402 - after the path set-up above, as bench_engine is


def apply_games(mod, game: str, seeds) -> float:
    """CPU seconds of whole random games through the public protocol, one per seed."""
    g = mod.core.game_module(game)
    Config = g.Config
    t = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        s = g.new_game(Config(), seed)
        while not s.is_over:
            legal = g.legal_actions(s)
            s = g.apply(s, legal[rng.randrange(len(legal))])
    return time.process_time() - t


def positions(mod, game: str, seeds, at: int = 70):
    """(observation, legal) per seed: heuristic play to decision `at`, then on to a contested play or loss."""
    g = mod.core.game_module(game)
    heur = g.BOTS["heuristic"]
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = g.new_game(g.Config(), seed, events=False)
        k = 0
        while not s.is_over:
            legal = g.legal_actions(s)
            p = s.current_player
            if k >= at and len(legal) > 1 and s.phase in ("lead", "follow"):
                out.append((g.observation(s, p), legal))
                break
            s = g.apply(s, heur(g.observation(s, p), legal, rng))
            k += 1
    return out


def lookahead_moves(mod, game: str, spots, seeds) -> tuple[float, list]:
    """CPU seconds of the lookahead bot deciding at each position, and its choices (as text)."""
    bot = mod.core.game_module(game).BOTS["lookahead"]
    chosen = []
    t = time.process_time()
    for (obs, legal), seed in zip(spots, seeds):
        chosen.append(bot(obs, legal, random.Random(seed)))
    return time.process_time() - t, [repr(a) for a in chosen]


def versus(rev: str, game: str, games: int, spots: int, rounds: int) -> tuple[str, int]:
    then = then_package(rev)
    load = os.getloadavg()[0]
    seeds = range(1, games + 1)
    best = {"apply": [float("inf")] * 2, "lookahead": [float("inf")] * 2}
    la_seeds = range(1, spots + 1)
    places = [positions(m, game, la_seeds) for m in (then, now)]
    if [[repr(a) for a in legal] for _, legal in places[0]] != [[repr(a) for a in legal] for _, legal in places[1]]:
        print("the two revisions reach different positions", file=sys.stderr)
        return "", 1
    differ = 0
    for r in range(rounds):
        for i, m in enumerate((then, now)):
            best["apply"][i] = min(best["apply"][i], apply_games(m, game, seeds) / games)
        choices = []
        for i, m in enumerate((then, now)):
            t, ch = lookahead_moves(m, game, places[i], la_seeds)
            best["lookahead"][i] = min(best["lookahead"][i], t / len(places[i]))
            choices.append(ch)
        differ = max(differ, sum(a != b for a, b in zip(*choices)))
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[0] * 1e3:.2f} / {v[1] * 1e3:.2f} ms" for k, v in best.items()),
              file=sys.stderr)
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} after (the "
        f"machine is shared: CPU time, best of {rounds} rounds alternating {rev} and this tree). {game}, base rules: "
        f"`apply` = {games} whole games of new_game (events kept) + legal_actions + apply of a random move; "
        f"`lookahead` = the lookahead bot's decision at {len(places[1])} fixed positions (same choices at both: "
        f"{'yes' if not differ else f'NO, {differ} differ'}).",
        "",
        f"| case | {rev}, ms (CPU) | this tree, ms (CPU) | this tree / {rev} (time) |",
        "|---|---:|---:|---:|",
    ]
    for k, (old, new) in best.items():
        unit = "a game" if k == "apply" else "a decision"
        lines.append(f"| {k}, {unit} | {old * 1e3:.2f} | {new * 1e3:.2f} | {new / old:.2f}x |")
    return "\n".join(lines), 1 if differ else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--versus", metavar="REV", required=True, help="the git revision to time beside this tree")
    ap.add_argument("--game", default="bucket-king", choices=sorted(now.GAMES), help="the game (default: %(default)s)")
    ap.add_argument("--games", type=int, default=40, help="apply: whole games a round (default: %(default)s)")
    ap.add_argument("--spots", type=int, default=8, help="lookahead: positions a round (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default: %(default)s)")
    ap.add_argument("--section", default="protocol", metavar="NAME",
                    help="with --update: write between <!-- NAME:start/end --> (default: %(default)s)")
    ap.add_argument("--update", metavar="FILE.md", help="replace the text between the section's markers in FILE.md")
    args = ap.parse_args(argv)
    for name in ("games", "spots", "rounds"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} {getattr(args, name)}: at least 1")
    text, status = versus(args.versus, args.game, args.games, args.spots, args.rounds)
    if not text:
        return status
    name = re.escape(args.section)
    wrote = write_section(args.update, text, rf"(<!-- {name}:start -->\n).*?(\n<!-- {name}:end -->)", text,
                   f"<!-- {args.section}:start --> ... <!-- {args.section}:end --> markers", whole=True)
    return wrote or status


if __name__ == "__main__":
    sys.exit(main())

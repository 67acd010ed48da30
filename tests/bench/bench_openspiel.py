"""OpenSpiel interop figures (issue 14): ISMCTS against meeple's bots, and the wrapper's speed.

    .venv/bin/python tests/bench/bench_openspiel.py [--games 40] [--simulations 100] [--games-lookahead 12]

Prints, per game (base rules): the win share of OpenSpiel's ISMCTS (at the stated
budget of simulations per move, random rollouts) against three heuristic bots and
against three lookahead bots, seat-balanced (it sits in every seat equally often;
a shared win counts 1/k), with 95% Wilson intervals and the fair share; then
random-game speed through the OpenSpiel wrapper (explicit chance nodes) and
through meeple directly (CPU seconds, one core).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import pyspiel

from meeple.rules import GAMES
from meeple.rules import openspiel as mo
from meeple.rules.sim import head_to_head


def _bot_games(mod, name: str, games: int, seed: int, sims: int, others: str) -> dict:
    mod.BOTS[name] = mo.ismcts_bot(mod, simulations=sims)
    try:
        return head_to_head(mod.NAME, mod.Config(), name, others, games, seed, progress=False)
    finally:
        del mod.BOTS[name]


def _speed(mod, seconds: float = 5.0) -> tuple[float, float]:
    """Random games per CPU second: (through OpenSpiel, meeple directly)."""
    rng = random.Random(0)
    game = mo.load(mod)
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.randrange(len(s.chance_outcomes())))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    wrapped = n / (time.process_time() - t0)
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        st = mod.new_game(mod.Config(), n)
        while not st.is_over:
            st = mod.apply(st, rng.choice(mod.legal_actions(st)))
        n += 1
    return wrapped, n / (time.process_time() - t0)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="games against the heuristic, per game (default 40)")
    p.add_argument("--games-lookahead", type=int, default=12, help="games against the lookahead (default 12)")
    p.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per move (default 100)")
    p.add_argument("--only", default="", help="comma-separated game names (default: all)")
    args = p.parse_args(argv)
    only = [g for g in args.only.split(",") if g]
    print(f"pyspiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}; ISMCTS {args.simulations} simulations/move")
    print("| game | ISMCTS vs 3 heuristic | ISMCTS vs 3 lookahead | fair | random games/s via OpenSpiel | via meeple |")
    print("|---|---|---|---|---|---|")
    for name, mod in GAMES.items():
        if only and name not in only:
            continue
        t = time.time()
        h = _bot_games(mod, "ismcts_bench", args.games, 1, args.simulations, "heuristic")
        look = _bot_games(mod, "ismcts_bench", args.games_lookahead, 2, args.simulations, "lookahead")
        wrapped, direct = _speed(mod)
        fair = 1 / mod.Config().players

        def cell(r):
            return f"{r['win_share']:.3f} ({r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}), n={r['games']}"

        print(f"| {name} | {cell(h)} | {cell(look)} | {fair:.3f} | {wrapped:,.1f} | {direct:,.1f} |", flush=True)
        print(f"  ({time.time() - t:.0f} s wall)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

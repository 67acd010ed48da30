"""Bot audit: seat-balanced duels in every preset of every game (issue 10, item 7).

    nice .venv/bin/python tests/bench/bot_audit.py                      # everything, default sizes
    nice .venv/bin/python tests/bench/bot_audit.py --game bucket-brigade --pair lookahead:heuristic --games 600

For each game and each preset: the heuristic against random bots in every
other seat, and the lookahead against heuristic bots. The measured bot sits
in each seat equally often (game g puts it in seat g mod players); a shared
win counts 1/k. The figures are exactly `bots.head_to_head(game, preset,
bot, others, games, seed)`'s (same seeds, game for game); this script only
spreads the games over worker processes and prints a Markdown table with
95% Wilson intervals, the fair share 1/players and whether the lower bound
clears it. Not a test: pytest does not collect this folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from meeple.rules import GAMES
from meeple.rules.chance import derive
from meeple.rules.core import play
from meeple.rules.stats import wilson

PAIRS = (("heuristic", "random"), ("lookahead", "heuristic"))
# Games per duel: heuristic games are cheap; a lookahead game costs 0.05-1 s of CPU.
GAMES_PER_DUEL = {
    ("bucket-brigade", "heuristic"): 2000, ("bucket-brigade", "lookahead"): 600,
    ("bucket-king", "heuristic"): 2000, ("bucket-king", "lookahead"): 1000,
    ("piggyback-brigade", "heuristic"): 2000, ("piggyback-brigade", "lookahead"): 1000,
    ("duck-duck-bruce", "heuristic"): 2000, ("duck-duck-bruce", "lookahead"): 2000,
}
SEED = 2026


def _chunk(args) -> float:
    """Win share (sum over games) of `bot` in games [start, stop) of a head_to_head."""
    game, preset, bot, others, seed, start, stop, config = args
    mod = GAMES[game]
    cfg = config if config is not None else mod.Config.presets()[preset]
    n = cfg.players
    share = 0.0
    for g in range(start, stop):
        seat = g % n
        lineup = [others] * n
        lineup[seat] = bot
        rec = play(mod, cfg, lineup, derive(seed, "h2h", g))
        if seat in rec.winners:
            share += 1.0 / len(rec.winners)
    return share


def duel(game: str, preset: str, bot: str, others: str, games: int, seed: int = SEED, workers: int = 2,
         config=None) -> dict:
    """head_to_head's figures, the games spread over `workers` processes."""
    mod = GAMES[game]
    cfg = config if config is not None else mod.Config.presets()[preset]
    step = max(1, games // (workers * 8))
    jobs = [(game, preset, bot, others, seed, a, min(games, a + step), config) for a in range(0, games, step)]
    t = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            share = sum(pool.map(_chunk, jobs))
    else:
        share = sum(map(_chunk, jobs))
    low, high = wilson(share, games)
    return {"game": game, "preset": preset, "bot": bot, "others": others, "games": games,
            "win_share": share / games, "low": low, "high": high, "fair": 1 / cfg.players,
            "seconds": time.perf_counter() - t}


def row(r: dict) -> str:
    verdict = "yes" if r["low"] > r["fair"] else "**no**"
    return (f"| {r['preset']} | {r['bot']} vs {r['others']} | {r['games']} | {r['win_share']:.3f} | "
            f"{r['low']:.3f}–{r['high']:.3f} | {r['fair']:.3f} | {verdict} | {r['seconds']:.0f} s |")


HEADER = ("| preset | bot vs others | games | win share | 95% CI | fair share | above fair? | wall |\n"
          "|---|---|---|---|---|---|---|---|")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES), help="default: every game")
    ap.add_argument("--preset", action="append", help="default: every preset of the game")
    ap.add_argument("--pair", action="append", help="BOT:OTHERS, default: heuristic:random and lookahead:heuristic")
    ap.add_argument("--games", type=int, help="games per duel (default: GAMES_PER_DUEL)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    a = ap.parse_args(argv)
    pairs = [tuple(p.split(":", 1)) for p in a.pair] if a.pair else list(PAIRS)
    for bad in [p for p in pairs if len(p) != 2]:
        ap.error(f"--pair {':'.join(bad)!r}: write BOT:OTHERS, e.g. lookahead:heuristic")
    for game in a.game or sorted(GAMES):
        presets = a.preset or list(GAMES[game].Config.presets())
        print(f"\n### {GAMES[game].TITLE}  (seed {a.seed})\n\n{HEADER}", flush=True)
        for bot, others in pairs:
            for preset in presets:
                if preset not in GAMES[game].Config.presets():
                    ap.error(f"--preset {preset!r} is not a preset of {game}: {', '.join(GAMES[game].Config.presets())}")
                n = a.games or GAMES_PER_DUEL.get((game, bot), 1000)
                print(row(duel(game, preset, bot, others, n, a.seed, a.workers)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Bucket Brigade bot audit: should the heuristic compare plays floored (BB-11) or not?

    .venv/bin/python tests/bench/bb_floor_experiment.py 400

Early in a round every hand is worth less than 0, so the floored value ties
every play (the heuristic then picks at random). The alternative compares
unfloored hand values ("never move a colour I hold into the -1 zone"). This
plays both against random bots and against each other, seat-balanced, in
every preset; the figures are in seeds/bucket_brigade.md (Bots). Not a test.
"""

from __future__ import annotations

import sys

from bot_audit import duel
from meeple.rules import bucket_brigade as bb
from meeple.rules.bucket_brigade.cards import colour_index, colour_points, counts_by_colour


def unfloored_heuristic(obs, legal, rng):
    """The heuristic (same danger and joker terms, same random tie-break), its
    plays compared by the unfloored hand value; only a round-ending play is floored."""
    cfg = obs.config
    track, end = cfg.track, len(cfg.track) - 1
    index = colour_index(cfg.colours)
    positions = obs.positions
    ones, twos = counts_by_colour(obs.hand, cfg.colours)
    now = [colour_points(ones[k], twos[k], track[p], cfg) for k, p in enumerate(positions)]
    card_points = sum(now)
    danger = end - 2
    near_end = max(positions) >= danger
    best, best_value = [], None
    for a in legal:
        card, k = a.card, index[a.colour]
        to = min(end, positions[k] + card.steps)
        lo, lt = ones[k], twos[k]
        if card.colour is not None:
            if card.steps == 2:
                lt -= 1
            else:
                lo -= 1
        ends = to == end
        value = card_points - now[k] + colour_points(lo, lt, track[to], cfg) + (cfg.bonus if ends else 0)
        if ends and cfg.floor_zero:
            value = max(0, value)
        if not ends and (near_end or to >= danger):
            value -= cfg.bonus * 0.75
        if card.colour is None:
            value -= 0.5
        if best_value is None or value > best_value:
            best, best_value = [a], value
        elif value == best_value:
            best.append(a)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


bb.BOTS["unfloored"] = unfloored_heuristic  # in this process (and its workers) only

if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for preset in bb.Config.presets():
        for bot, others in [("heuristic", "random"), ("unfloored", "random"), ("unfloored", "heuristic")]:
            r = duel("bucket-brigade", preset, bot, others, games, workers=1)
            print(f"{preset:10} {bot:9} vs {others:9} {r['win_share']:.3f} ({r['low']:.3f}-{r['high']:.3f})", flush=True)

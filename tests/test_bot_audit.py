"""The bot audit (issue 10, item 7): every heuristic breaks ties with its own rng,
its fixed blind spots stay fixed, and the strength ordering random < heuristic <
lookahead holds in seat-balanced duels (figures at full size: seeds/<game>.md,
from tests/bench/bot_audit.py)."""

from __future__ import annotations

import random
from collections import Counter

from meeple.rules import bucket_brigade as bb


# --- Bucket Brigade ---------------------------------------------------------

def test_bucket_brigade_first_play_of_a_round_is_not_always_the_first_card_in_hand():
    """BB-11 floors a round at 0, so at the start of a round every play is worth
    0 to the heuristic: it must pick among them with its rng, not play the hand's
    first card (blue, in the sorted hand) every time."""
    colours = Counter()
    for seed in range(60):
        s = bb.new_game(bb.Config(bonus=0), seed)
        obs, legal = bb.observation(s, 0), bb.legal_actions(s)
        picks = {bb.heuristic_bot(obs, legal, random.Random(r)) for r in range(6)}
        assert len(picks) > 1, (seed, picks)  # different rngs, different tied plays
        colours[bb.heuristic_bot(obs, legal, random.Random(seed)).colour] += 1
    assert len(colours) == 4 and max(colours.values()) < 30, colours

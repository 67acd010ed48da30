"""Bucket King 3D's scores (BK-14) and what a simulation keeps of a game: MEASURES, the score
sources, game_stats and rule usage (issue 25). They read a finished State's public fields.
"""

from __future__ import annotations

from .cards import MIN_PLAYERS, Config


# --- scores -----------------------------------------------------------------

def scores(state) -> list[int]:
    """Buckets each player has left (BK-14)."""
    return list(state.buckets)


def round_scores(state) -> list[list[int]]:
    """What each finished round did to each score: minus the buckets lost."""
    return [[-x for x in r] for r in state.history]


def winners(state) -> list[int]:
    """Most buckets left; ties share the win (BK-14)."""
    if not state.is_over:
        return []
    best = max(state.buckets)
    return [i for i, b in enumerate(state.buckets) if b == best]


# --- simulation hooks (see meeple.rules.sim) -----------------------------

# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "splits":              "rounds in which this seat's pyramid split into parts (BK-12)",
    "biggest_loss":        "most buckets this seat lost in one round (BK-9 to BK-12)",
    "emptied":             "1 if this seat's pyramid ended empty (BK-15, BK-16)",
    "players_out":         "players whose pyramid ended empty (BK-16)",
    "lost_per_round":      "buckets lost per round: how hard the fall model hits (BK-10, BK-11)",
    "points_built":        "buckets in the pyramid this seat built (BK-3)",
    "points_lost_chosen":  "buckets this seat chose to take away, one per round lost; negative (BK-9)",
    "points_lost_falling": "buckets that fell with those taken away; negative (BK-10, BK-11)",
    "points_lost_split":   "buckets lost when the pyramid split; negative (BK-12)",
}


def score_sources(state) -> list[dict[str, int]]:
    """Each seat's score (buckets left, BK-14) as the pyramid it built minus
    what it lost, by cause: the bucket it chose each round it lost (BK-9), the
    buckets that fell with it (BK-10/BK-11), and the parts lost to a split
    (BK-12). The lost_* parts are negative; all four add up to the score."""
    size = sum(state.config.rows)
    n = state.config.players
    chosen, falling, parts = [0] * n, [0] * n, [0] * n
    for lost, (fell, split) in zip(state.history, state.falls):
        seat = lost.index(max(lost))  # the round's loser
        chosen[seat] -= 1
        falling[seat] -= fell
        parts[seat] -= split
    return [{"built": size, "lost_chosen": a, "lost_falling": b, "lost_split": c} for a, b, c in zip(chosen, falling, parts)]


def game_stats(state) -> dict:
    """Extra columns for simulations, per seat: how often the pyramid split
    (BK-12), the most buckets lost in one round, 1 if the pyramid ended empty;
    for the game: players with an empty pyramid at the end, and the mean
    buckets lost per round (how hard the fall model hits). Rounds lost and
    buckets lost by cause are the score_sources columns."""
    n = state.config.players
    splits, biggest = [0] * n, [0] * n
    total = 0
    for lost, (_, split) in zip(state.history, state.falls):
        loss = max(lost)
        seat = lost.index(loss)
        if split > 0:
            splits[seat] += 1
        if loss > biggest[seat]:
            biggest[seat] = loss
        total += loss
    rounds = len(state.history)
    emptied = [int(b == 0) for b in state.buckets]
    return {
        "splits": splits,
        "biggest_loss": biggest,
        "emptied": emptied,
        "players_out": sum(emptied),
        "lost_per_round": total / rounds if rounds else 0.0,
    }


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used. Counted from what simulate
# keeps of a game (game_stats, turns, rounds): the games play as before. An upper bound
# where the exact occasion is not kept ("could matter" never undercounts).
ALWAYS_APPLIES = {
    "players": "the seats, the pyramids and the deal (BK-2, BK-3)",
    "colours": "the deck and the pyramids' buckets (BK-1, BK-3)",
    "values": "the deck (BK-1)",
    "copies": "the deck (BK-1)",
    "hand_size": "the deal (BK-2)",
    "draw_per_turn": "the draw after every play (BK-8)",
    "max_cards": "every play's choice of cards (BK-6)",
    "fall_model": "what falls in every round lost (BK-10, BK-11)",
    "end_rule": "when the game ends (BK-15)",
    "seat_cards": "the deal (BK-2, BK-22)",
}
USAGE = {
    "buckets_per_colour": "games dealt with this entry (the one for the player count, BK-3)",
    "pyramid_rows": "games built with this entry (the one for the player count, BK-3)",
    "fall_probability": "rounds lost under the poke fall model (BK-10)",
    "special_one": "turns played (BK-17: any play may hold a 1; an upper bound)",
    "special_one_max": "turns played with Special One on (BK-17; an upper bound)",
    "backfiring_discard": "turns played with three or more players (BK-18: a discard may reverse; an upper bound)",
    "multi_card_reverses": "turns played (BK-19: a play of two or more cards may reverse; an upper bound)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (`game.stats`, `game.turns`, `game.rounds`): how often each USAGE number could matter."""
    here, turns = config.players - MIN_PLAYERS, game.turns
    return {
        # per-player-count tables: only this game's entries (the others are never read at this count)
        f"buckets_per_colour[{here}]": 1,
        f"pyramid_rows[{here}]": 1,
        "fall_probability": game.rounds if config.fall_model == "poke" else 0,
        "special_one": turns,
        "special_one_max": turns if config.special_one else 0,
        "backfiring_discard": turns if config.players > 2 else 0,
        "multi_card_reverses": turns,
    }


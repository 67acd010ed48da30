"""Bucket Brigade's scores (BB-13) and what a simulation keeps of a game: MEASURES, the score
sources, game_stats and rule usage (issue 25). They read a State's public fields (`winners` a
core's too: the core names the winners when the game ends).
"""

from __future__ import annotations

from .cards import Config


# --- scores -----------------------------------------------------------------

def scores(state) -> list[int]:
    return list(state.totals)


def round_scores(state) -> list[list[int]]:
    return [list(r) for r in state.history]


def winners(state) -> list[int]:
    """Most points; a tie goes to the higher score in the last round; still tied, all share (BB-13)."""
    if not state.is_over:
        return []
    best = max(state.totals)
    tied = [i for i, t in enumerate(state.totals) if t == best]
    last = state.history[-1]
    top = max(last[i] for i in tied)
    return [i for i in tied if last[i] == top]


# --- simulation hooks (see meeple.rules.sim) -----------------------------

# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "rounds_ended":       "rounds this seat ended, taking the bonus (BB-8, BB-9)",
    "rounds_unended":     "rounds that ended with every hand empty, no bonus for anyone (BB-14)",
    "points_hand":        "points from the cards left in hand (BB-9, BB-10)",
    "points_ender_bonus": "points from the bonus for ending a round (BB-9)",
}


def game_stats(state) -> dict:
    """Extra columns for simulations: rounds each seat ended (taking the bonus),
    and rounds that ended with every hand empty."""
    return {
        "rounds_ended": [state.enders.count(p) for p in range(state.config.players)],
        "rounds_unended": state.enders.count(None),
    }


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used. Counted from what simulate keeps
# of a game (game_stats, rounds): the records and their game_stats stay as they were. An upper bound
# where the exact occasion is not kept ("could matter" never undercounts).
ALWAYS_APPLIES = {
    "players": "the seats, the hands and the number of rounds (BB-2, BB-12)",
    "colours": "every round's deck and hedgehogs (BB-1)",
    "one_step_cards": "every round's deck is dealt from it (BB-1, BB-2)",
    "two_step_cards": "every round's deck is dealt from it (BB-1, BB-2)",
    "joker_one_step": "every round's deck is dealt from it (BB-1, BB-2)",
    "joker_two_step": "every round's deck is dealt from it (BB-1, BB-2)",
    "track": "every round's points read the track at each hedgehog's space (BB-9)",
    "advanced": "it chooses how every round is scored (BB-9, BB-10)",
    "rounds": "it sets how many rounds are played (BB-12)",
    "seat_points": "every seat's total starts from it (BB-15)",
}
USAGE = {
    "hand_sizes": "rounds dealt with this entry (the one for the player count, BB-2)",
    "bonus": "rounds a player ended, taking the bonus (BB-8, BB-9)",
    "pair_multiplier": "rounds scored by the advanced rules (BB-10; an upper bound)",
    "two_step_multiplier": "rounds scored by the advanced rules (BB-10; an upper bound)",
    "floor_zero": "rounds scored (BB-11: any round's total may come to 0 or less; an upper bound)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (its game_stats in `game.stats`): how often each USAGE number could matter."""
    stats, rounds = game.stats, game.rounds
    return {
        # a per-player-count table: only this game's entry (the others are never read at this count)
        f"hand_sizes[{config.players - 3}]": rounds,
        "bonus": sum(stats["rounds_ended"]),
        "pair_multiplier": rounds if config.advanced else 0,
        "two_step_multiplier": rounds if config.advanced else 0,
        "floor_zero": rounds,
    }


def score_sources(state) -> list[dict[str, int]]:
    """Each seat's points split into cards left in hand and the ender bonus (BB-9).

    A round's points are hand + bonus, floored at zero (BB-11): when that
    leaves the round at 0, neither source counted; otherwise the bonus counted
    in full and the hand gave the rest (which can be negative). Points a seat
    started with (BB-15, `seat_points`) are neither: they are the score less the sources.
    """
    cfg = state.config
    out = [{"hand": 0, "ender_bonus": 0} for _ in range(cfg.players)]
    for points, ender in zip(state.history, state.enders):
        for seat, p in enumerate(points):
            bonus = cfg.bonus if seat == ender and (p > 0 or not cfg.floor_zero) else 0
            out[seat]["ender_bonus"] += bonus
            out[seat]["hand"] += p - bonus
    return out

"""The Piggyback Brigade's measures: scores, winners and progress, and what a simulation keeps of a race
(game_stats, score_sources, rule_usage, MEASURES, USAGE).
"""

from __future__ import annotations

from .cards import MIN_PLAYERS, Config


def scores(state) -> list[int]:
    """PB-15: 1 for each winning player once the race is over, else 0."""
    return [1 if p in state.won else 0 for p in range(state.config.players)]


def round_scores(state) -> list[list[int]]:
    """One row for the one race, once it is over."""
    return [scores(state)] if state.is_over else []


def winners(state) -> list[int]:
    """PB-14: every player owning a piglet of the group that crossed the finish."""
    return list(state.won)


def progress(state) -> list[float]:
    """Who is ahead mid-race, for simulate's lead changes and "leader after k%"
    figures: per seat, how far its best piglet has come. Spaces covered (0
    before the start, the space number on the track, spaces + 1 across the
    finish; an extension takes a section back, PB-12), plus a fraction for
    each piglet under it on its space: a rider moves whenever a piglet under
    it moves (PB-10), and it wins with it (PB-14). A seat's carried piglet
    counts where its stack is."""
    stacks, where = state.stacks, state.where
    n, size = len(stacks), len(where)
    values = []  # per piglet (a plain loop: about 1.5x a comprehension's speed here, once a turn)
    for q, w in enumerate(where):
        if w < 0:
            values.append(0.0)
        elif w >= n:
            values.append(w + 1.0)
        else:
            values.append(w + 1 + stacks[w].index(q) / size)
    players = state.config.players
    if size == players:  # one piglet each (4 players and more): its value is the seat's
        return values
    k = size // players  # seat p runs piglets p*k .. p*k+k-1 (PB-2)
    return [max(values[first : first + k]) for first in range(0, size, k)]


# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "rerolls":          "rerolls this seat took (PB-6 to PB-8)",
    "rerolls_declined": "rerolls this seat could have taken and did not (PB-6, PB-7)",
    "extensions":       "times this seat moved the first section to the end (PB-12)",
    "won_carried":      "1 if this seat won riding on another player's piglet (PB-14)",
    "finish_stack":     "piglets that crossed the finish together (PB-10, PB-14)",
    "points_moved":     "wins with this seat's own piglet carrying the group across (PB-14, PB-15)",
    "points_carried":   "wins riding on another player's piglet (PB-14, PB-15)",
}


def game_stats(state) -> dict:
    """Columns for simulate's table: per seat, rerolls taken and declined
    (PB-6 to PB-8), extensions used (PB-12), and whether the seat won riding
    on another player's piglet (PB-14: carried across, not moving itself);
    for the race, how many piglets crossed the finish together."""
    made = state.config.extensions_per_player
    return {
        "rerolls": list(state.rerolls_taken),
        "rerolls_declined": list(state.rerolls_declined),
        "extensions": [made - e for e in state.extensions_left],
        "won_carried": _won_carried(state),
        "finish_stack": len(state.finish_group),
    }


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used (e.g. a second extension no bot
# takes). Counted from game_stats (the hook simulate reads): the games play as before. An
# upper bound where the exact occasion is not kept ("could matter" never undercounts).
ALWAYS_APPLIES = {
    "players": "the seats and their piglets (PB-2)",
    "piglets": "the piglets in the box (PB-2)",
    "sections": "the track every piglet runs (PB-1)",
    "faces": "every roll of the die (PB-5)",
    "face_colours": "every roll of the die moves the piglet of the face's colour (PB-5)",
    "rerolls": "every roll: whether its face may be rerolled (PB-6, PB-7)",
    "seat_spaces": "where every piglet starts the race (PB-17)",
}
USAGE = {
    "piglets_each": "races run with this entry (the one for the player count, PB-2)",
    "max_rerolls": "rerolls taken under a limit (PB-8; an upper bound of the times it stopped one)",
    "extensions": "seats that used every extension this entry allows: the allowance bound them (PB-12)",
    "extend_timing": "extensions taken (PB-12)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (its game_stats in `game.stats`): how often each USAGE number could matter."""
    stats, here = game.stats, config.players - MIN_PLAYERS
    allowed = config.extensions_per_player
    bound = sum(taken >= allowed for taken in stats["extensions"])
    return {
        # per-player-count tables: only this game's entries (the others are never read at this count)
        f"piglets_each[{here}]": 1,
        "max_rerolls": sum(stats["rerolls"]) if config.max_rerolls is not None else 0,
        f"extensions[{here}]": bound,
        "extend_timing": sum(stats["extensions"]),
    }


def _won_carried(state) -> list[int]:
    """Per seat, 1 if it won riding on another player's piglet (PB-14)."""
    group, won = state.finish_group, state.won
    mover = state.config.owner(group[0]) if group else None
    return [int(p in won and p != mover) for p in range(state.config.players)]


def score_sources(state) -> list[dict[str, int]]:
    """Per seat, its point (PB-15) split by how it won (PB-14): "moved" when its
    own piglet carried the winning group across, "carried" when it rode on
    another player's piglet (the simulate hook; the parts add up to scores)."""
    carried = _won_carried(state)
    return [{"moved": score - c, "carried": c} for score, c in zip(scores(state), carried)]

"""Duck, Duck, Bruce's measures: scores, winners and progress, the statistics facts and their tallies,
and what a simulation keeps of a game (game_stats, score_sources, rule_usage, MEASURES, USAGE).
"""

from __future__ import annotations

from ..config import seat_values
from .cards import Config


# State.facts notes, for statistics, each (seat, fact, cards): what tallies() counts from it.
FACTS = {
    "double": (("doubles",), "ducks_busted"),  # a second duck of a suit ended the turn (DDB-5); ducks of the row lost
    "bruce": (("bruces",), "ducks_busted"),  # Bruce ended the turn (DDB-6); ducks of the row lost
    "declined": (("steals_declined",), None),  # "no steal" after a Bruce
    "missed": (("steals_tried",), None),  # the die showed less than the claim (DDB-7)
    "stole": (("steals_tried", "steals_succeeded"), "cards_stolen"),  # the die showed the claim or more; cards taken
    "backfire": (("steals_tried", "backfires"), "cards_lost_to_backfires"),  # a -1 (DDB-8); the thief's cards lost
    "robbed": ((), "cards_lost_to_thieves"),  # another seat's steal took cards from this nest
    "taken points": ((), "points_taken"),  # round points the cards taken from other nests added (see score_sources)
}
TALLY = (  # every name FACTS counts, in the order game_stats reports them
    "doubles", "bruces", "ducks_busted", "steals_declined", "steals_tried", "steals_succeeded", "cards_stolen",
    "cards_lost_to_thieves", "backfires", "cards_lost_to_backfires", "points_taken",
)


def scores(state) -> list[int]:
    return list(state.totals)


def progress(state) -> tuple[int, ...]:
    """Who is ahead: the totals, as the tuple the state holds (simulate reads this at
    every turn's end; in this game only a round's scoring changes it, DDB-10)."""
    return state.totals


def round_scores(state) -> list[list[int]]:
    return [list(r) for r in state.history]


def winners(state) -> list[int]:
    """Highest total; tied players share the win (DDB-12)."""
    if not state.is_over:
        return []
    best = max(state.totals)
    return [i for i, t in enumerate(state.totals) if t == best]


def tallies(state) -> list[dict[str, int]]:
    """Per seat, what happened to it so far in the game ({name: count} for every
    name in TALLY), counted from state.facts as FACTS says."""
    columns = _columns(state)
    return [{name: columns[name][p] for name in TALLY} for p in range(state.config.players)]


def _columns(state) -> dict[str, list[int]]:
    """{name in TALLY: [count for each seat]}, counted from state.facts as FACTS says: one pass
    counting each (fact, seat) and adding up its cards, then each name's sums of those (simulate
    reads this once per game: a pass of a few list additions per fact, not a loop per fact)."""
    players = state.config.players
    size = _N_FACTS * players
    seen = [0] * size  # per fact and seat (fact * players + seat): how many times
    moved = [0] * size  # and the cards they counted
    at = _FACT_AT
    for p, fact, cards in state.facts:
        j = at[fact] * players + p
        seen[j] += 1
        moved[j] += cards
    columns = {}
    for name, sources in _TALLY_SOURCES:
        (per_card, f), *more = sources
        f *= players
        column = (moved if per_card else seen)[f : f + players]
        for per_card, f in more:
            f *= players
            column = [a + b for a, b in zip(column, (moved if per_card else seen)[f : f + players])]
        columns[name] = column
    return columns


# FACTS read the other way: a fact's place, and for each name in TALLY the (cards?, fact's place)
# whose counts (False) or cards (True) it adds up; what _columns sums once per game
_FACT_AT = {fact: i for i, fact in enumerate(FACTS)}
_N_FACTS = len(FACTS)
_TALLY_SOURCES = tuple(
    (name, tuple((cards, _FACT_AT[fact]) for fact, (once, per_card) in FACTS.items()
                 for cards in (False, True) if (per_card == name if cards else name in once)))
    for name in TALLY)


# What each column of game_stats / score_sources (points_<source>) counts, and the rule it
# follows: `meeple simulate --measure`, the summary and the Explorer show these words.
MEASURES = {
    "doubles":                 "turns this seat lost to a double (DDB-5)",
    "bruces":                  "turns this seat lost to Bruce (DDB-6); per game (all seats' mean) a constant: "
                               "every Bruce card ends one turn, rounds x Bruce cards / players "
                               f"({Config().rounds * Config().bruce_cards / Config().players:.2f} by default); "
                               "the bust rate is bust_rate",
    "ducks_busted":            "ducks of this seat's row lost to doubles and Bruce (DDB-5, DDB-6)",
    "steals_declined":         "steals this seat could have tried and declined (DDB-6)",
    "steals_tried":            "steals this seat tried (DDB-6, DDB-7)",
    "steals_succeeded":        "steals whose roll reached the declared number (DDB-7)",
    "cards_stolen":            "cards this seat took from other nests by stealing (DDB-7)",
    "cards_lost_to_thieves":   "cards other players stole from this seat's nest (DDB-7)",
    "backfires":               "steals of this seat that rolled -1 (DDB-8)",
    "cards_lost_to_backfires": "cards this seat lost by its own -1 rolls (DDB-8)",
    "turns_taken":             "turns this seat took (DDB-2): stopped, busted, or ended by the last card (DDB-9)",
    "bust_rate":               "busts per turn this seat took: (doubles + bruces) / turns_taken (DDB-5, DDB-6); "
                               "per game (all seats' mean) the seats' rates averaged",
    "points_flipped":          "points this seat's own flipped cards would have scored alone (DDB-10)",
    "points_taken":            "points added by cards taken from other nests (DDB-7, DDB-8, DDB-10)",
}


def game_stats(state) -> dict:
    """Columns for simulate's table (one list entry per seat): busts by doubles
    and by Bruce and the ducks they threw away, steals declined / tried /
    succeeded, cards stolen and lost to thieves, -1 backfires and the cards
    they cost, the turns each seat took and its bust rate (the simulate hook).

    bust_rate[p] = (doubles[p] + bruces[p]) / turns_taken[p]: a bust is a turn ended by a
    double (DDB-5, even when it kept the cards before the pair) or by Bruce (DDB-6); None for a
    seat that took no turn (no value, left out of the means). Per game, the tables' mean over
    the seats averages the seats' rates (each seat weighs the same), which differs from all
    busts / all turns only as the seats' turn counts differ (at most one turn a round)."""
    columns = _columns(state)
    del columns["points_taken"]  # in score_sources
    turns = state.turns_taken
    columns["turns_taken"] = list(turns)
    columns["bust_rate"] = [(d + b) / t if t else None
                            for d, b, t in zip(columns["doubles"], columns["bruces"], turns)]
    return columns


# Rule usage (issue 25): per game, how often each number of the rules could matter, so a
# comparison can say when a changed number was never used (a die face no steal rolls).
# Counted from game_stats (the hook simulate reads): the games play as before.
ALWAYS_APPLIES = {
    "players": "the seats and the nests (DDB-2)",
    "suits": "the deck every round (DDB-1)",
    "numbers": "the deck every round (DDB-1)",
    "bruce_cards": "the deck every round (DDB-1)",
    "end": "when the game ends (DDB-12)",
    "seat_points": "every seat's total starts from it (DDB-14)",
}
USAGE = {
    "die": "steals tried: each rolls the die (DDB-7)",
    "minus_one": "steals that rolled -1 (DDB-8)",
    "min_steal": "steals tried: each declares a number (DDB-6)",
    "max_steal": "steals tried: each declares a number (DDB-6)",
    "may_decline": "chances to steal, taken or declined (DDB-6)",
    "rounds": "rounds played to a fixed number of rounds (DDB-12)",
    "target": "rounds played to a target score (DDB-12)",
    "next_start": "rounds after the first: each chooses who starts (DDB-11)",
}


# Same shape in every game module (the registry's contract, rules/protocol.py): each game's own rule numbers and counts.
def rule_usage(config: Config, game) -> dict[str, int]:
    """For one simulated game (its game_stats in `game.stats`): how often each USAGE number could matter."""
    stats, rounds = game.stats, game.rounds
    tried = sum(stats["steals_tried"])
    return {
        "die": tried,
        "minus_one": sum(stats["backfires"]),
        "min_steal": tried,
        "max_steal": tried,
        "may_decline": tried + sum(stats["steals_declined"]),
        "rounds": rounds if config.end == "rounds" else 0,
        "target": rounds if config.end == "target" else 0,
        "next_start": max(0, rounds - 1),
    }


def score_sources(state) -> list[dict[str, int]]:
    """Per seat, the game's points split into "flipped" (what the player's own
    cards would have scored alone, round by round) and "taken" (what the cards
    taken from other nests, by stealing or by an opponent's -1, added on top).
    Only a suit's highest duck scores (DDB-10), so a card's points depend on
    the rest of the nest: the split counts own cards first, and the parts add
    up to scores(state) (the simulate hook) less the points the seat started with (DDB-14)."""
    taken = [0] * state.config.players
    for p, fact, cards in state.facts:
        if fact == "taken points":
            taken[p] += cards
    start = seat_values(state.config, "seat_points")
    return [{"flipped": total - s - t, "taken": t} for t, s, total in zip(taken, start, state.totals)]

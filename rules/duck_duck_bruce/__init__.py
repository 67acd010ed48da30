"""Duck, Duck, Bruce (Peter Neugebauer; first published as Kleine Fische): push your luck.

On your turn you flip cards into a row. Each new duck asks: stop and take
the row into your nest, or flip again? A second duck of a suit already in
the row ends the turn and throws away the matching pair and every card
between them; Bruce throws away the whole row but lets you try to steal
from another nest with a die roll. Only the highest duck of each suit in a
nest scores. Rules are numbered as in seeds/duck_duck_bruce.md (DDB-1, ...).

The game is a package; this module is its public face (`meeple.rules.duck_duck_bruce`, the game
module the registry, simulate and the lessons use):

- `core`: the game core, the rules applied in place on plain lists (the only copy of them);
- `cards`: the ducks and Bruce, the actions (`Turn`, `Steal`), `Config`, the deck and the steals allowed;
- `odds`: the exact maths (Fractions): `nest_score`, `bust_probability`, `steal_expectation`,
  `flip_values`, `best_stop`;
- `game`: `State`, `new_game`, `legal_actions`, `apply`, `step`, `observation`, `determinize`, `check_state`;
- `measures`: scores, winners, progress and what a simulation keeps of a game;
- `strategy`: the bots and `play_core`, simulate's engine hook.
"""

from __future__ import annotations

from ..chance import Chance
from . import cards, core, game, measures, odds, strategy
from .cards import (
    BRUCE, DECIDE, END_RULES, FLIP, KLEINE_FISCHE_DIE, MAX_PLAYERS, MIN_PLAYERS, MINUS_ONE_RULES, NAME,
    NEXT_START_RULES, NO_STEAL, NUMBERS, OVER, PARAMETERS, PENALTY_FACE, STEAL, STOP, SUITS, TITLE, Bruce, Card,
    Config, Duck, Steal, Turn,
)
from .game import Observation, State, apply, check_state, determinize, legal_actions, new_game, observation, step
from .measures import (
    ALWAYS_APPLIES, FACTS, MEASURES, TALLY, USAGE, game_stats, progress, round_scores, rule_usage, score_sources,
    scores, tallies, winners,
)
from .odds import best_stop, bust_probability, flip_values, nest_score, steal_expectation
from .strategy import BOTS, exact_greedy_bot, heuristic_bot, lookahead_bot, play_core, steal_choice, threshold_bot

__all__ = [
    "ALWAYS_APPLIES", "BOTS", "BRUCE", "Bruce", "Card", "Chance", "Config", "DECIDE", "Duck", "END_RULES", "FACTS",
    "FLIP", "KLEINE_FISCHE_DIE", "MAX_PLAYERS", "MEASURES", "MINUS_ONE_RULES", "MIN_PLAYERS", "NAME",
    "NEXT_START_RULES", "NO_STEAL", "NUMBERS", "OVER", "Observation", "PARAMETERS", "PENALTY_FACE", "STEAL", "STOP",
    "SUITS", "State", "Steal", "TALLY", "TITLE", "Turn", "USAGE", "apply", "best_stop", "bust_probability", "cards",
    "check_state", "core", "determinize", "exact_greedy_bot", "flip_values", "game", "game_stats", "heuristic_bot",
    "legal_actions", "lookahead_bot", "measures", "nest_score", "new_game", "observation", "odds", "play_core",
    "progress", "round_scores", "rule_usage", "score_sources", "scores", "steal_choice", "steal_expectation", "step",
    "strategy", "tallies", "threshold_bot", "winners",
]

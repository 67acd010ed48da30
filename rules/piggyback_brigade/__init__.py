"""The Piggyback Brigade (Alex Randolph; first published as Ruesselbande): a piglet race.

Piglets race down a narrow track of sections. A roll moves one piglet; a
piglet that lands on an occupied space climbs on top, and a piglet carries
every piglet above it when it moves. Some faces allow a reroll. Once per
game each player may move the empty first section to the end of the track.
The first piglet past the finish wins, with every piglet riding on it.
Rules are numbered as in seeds/piggyback_brigade.md (PB-1, ...).

Chance is only the die: every roll is an event inside `apply`; the
decisions (extend or roll, which piglet takes a roll, reroll or stop) are
the actions.

The game is a package; this module is its public face (`meeple.rules.piggyback_brigade`, the game
module the registry, simulate and the lessons use):

- `core`: the game core, the rules applied in place on plain lists (the only copy of them);
- `cards`: the piglets, the track's sections, the die's faces and reroll rules, `Action`, `Config`;
- `track`: moving a piglet with its riders (`move`), where a piglet is (`place`), `can_extend`, `is_last`;
- `dice`: the exact dice maths (Fractions): `exact_turn_distance`;
- `game`: `State`, `new_game`, `legal_actions`, `apply`, `step`, `observation`, `determinize`, `check_state`;
- `measures`: scores, winners, progress and what a simulation keeps of a race;
- `strategy`: the bots and `play_core`, simulate's engine hook.
"""

from __future__ import annotations

from ..chance import Chance
from . import cards, core, dice, game, measures, strategy, track
from .cards import (
    BEFORE, CHOOSE, EXTEND, FACE_COLOURS, IF_LAST, INSTEAD, MAX_PLAYERS, MIN_PLAYERS, MOVES, NAME, NO, OVER,
    PARAMETERS, PIGLET_COLOURS, PUBLISHED_FACE_COLOURS, PUBLISHED_FACES, PUBLISHED_REROLLS, REROLL, REROLL_RULES,
    ROLL, ROLL_AGAIN, SECTION_NAMES, SOURCE_FACE_COLOURS, SOURCE_FACES, SOURCE_REROLLS, SOURCE_SECTIONS, STOP,
    TITLE, TURN, YES, Action, Config,
)
from .dice import EXACT_REROLL_BOUND, TurnDistance, exact_turn_distance
from .game import Observation, State, apply, check_state, determinize, legal_actions, new_game, observation, step
from .measures import (
    ALWAYS_APPLIES, MEASURES, USAGE, game_stats, progress, round_scores, rule_usage, score_sources, scores, winners,
)
from .strategy import BOTS, always_reroll_bot, heuristic_bot, lookahead_bot, play_core
from .track import can_extend, is_last, move, place

__all__ = [
    "ALWAYS_APPLIES", "Action", "BEFORE", "BOTS", "CHOOSE", "Chance", "Config", "EXACT_REROLL_BOUND", "EXTEND",
    "FACE_COLOURS", "IF_LAST", "INSTEAD", "MAX_PLAYERS", "MEASURES", "MIN_PLAYERS", "MOVES", "NAME", "NO", "OVER",
    "Observation", "PARAMETERS", "PIGLET_COLOURS", "PUBLISHED_FACES", "PUBLISHED_FACE_COLOURS", "PUBLISHED_REROLLS",
    "REROLL", "REROLL_RULES", "ROLL", "ROLL_AGAIN", "SECTION_NAMES", "SOURCE_FACES", "SOURCE_FACE_COLOURS",
    "SOURCE_REROLLS", "SOURCE_SECTIONS", "STOP", "State", "TITLE", "TURN", "TurnDistance", "USAGE", "YES",
    "always_reroll_bot", "apply", "can_extend", "cards", "check_state", "core", "determinize", "dice",
    "exact_turn_distance", "game", "game_stats", "heuristic_bot", "is_last", "legal_actions", "lookahead_bot",
    "measures", "move", "new_game", "observation", "place", "play_core", "progress", "round_scores", "rule_usage",
    "score_sources", "scores", "step", "strategy", "track", "winners",
]

"""Bucket King 3D (Stefan Dorra): defend a pyramid of buckets with cards.

Each player builds a pyramid of coloured buckets. A round is a bidding
race in one colour: the start player leads 1-3 cards, and each next
player must push their own running total above the last announced sum
(1-3 more cards of that colour) or lose a bucket of that colour, and with
it every bucket resting on it. The loser starts the next round. The game
ends when a player has no buckets left; the most buckets wins.
Rules are numbered as in seeds/bucket_king.md (BK-1, ...).

The game is a package; this module is its public face (`meeple.rules.bucket_king`, the game
module the registry, simulate and the lessons use):

- `core`: the game core, the rules applied in place on plain lists (the only copy of them);
- `cards`: the cards, the actions, `Config`, which plays a hand allows, `action_bound`;
- `pyramid`: the pyramid's geometry, pure bitmask maths (what falls, the parts left, the damage);
- `game`: `State`, `new_game`, `legal_actions`, `apply`, `step`, the events, `observation`, `check_state`;
- `measures`: scores, winners and what a simulation keeps of a game;
- `strategy`: the bots and `play_core`, simulate's engine hook.
"""

from __future__ import annotations

from ..chance import Chance
from . import cards, core, game, measures, pyramid, strategy
from .cards import (
    ARRANGE, DIRECTION, END_RULES, FALL_MODELS, FOLLOW, KEEP, LARGE_GAME, LEAD, LEFT, MAX_PLAYERS, MIN_PLAYERS, NAME,
    OVER, PARAMETERS, RIGHT, TITLE, Card, Config, Direction, KeepPart, LoseBucket, Place, PlayCards, action_bound,
    can_beat, most_cards_in_hand,
)
from .game import (
    Observation, State, apply, check_state, determinize, legal_actions, new_game, observation, step,
)
from .measures import (
    ALWAYS_APPLIES, MEASURES, USAGE, game_stats, round_scores, rule_usage, score_sources, scores, winners,
)
from .pyramid import fall_distribution, falling_buckets
from .strategy import BOTS, BUCKET_WORTH, CARD_WORTH, heuristic_bot, make_lookahead, play_core

__all__ = [
    "ALWAYS_APPLIES", "ARRANGE", "BOTS", "BUCKET_WORTH", "CARD_WORTH", "Card", "Chance", "Config", "DIRECTION",
    "Direction", "END_RULES", "FALL_MODELS", "FOLLOW", "KEEP", "KeepPart", "LARGE_GAME", "LEAD", "LEFT",
    "LoseBucket", "MAX_PLAYERS", "MEASURES", "MIN_PLAYERS", "NAME", "OVER", "Observation", "PARAMETERS", "Place",
    "PlayCards", "RIGHT", "State", "TITLE", "USAGE", "action_bound", "apply", "can_beat", "cards", "check_state", "core",
    "determinize", "fall_distribution", "falling_buckets", "game", "game_stats", "heuristic_bot", "legal_actions",
    "make_lookahead", "measures", "most_cards_in_hand", "new_game", "observation", "play_core", "pyramid",
    "round_scores", "rule_usage", "score_sources", "scores", "step", "strategy", "winners",
]

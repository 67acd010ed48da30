"""Bucket Brigade (Reiner Knizia; first published as Honeybears): a card race.

Players play one card a turn to move one of four hedgehogs up a track; the
round ends the moment a hedgehog reaches the last space, and every card
still in hand scores the value of the space its hedgehog stands on.
Rules are numbered as in seeds/bucket_brigade.md (BB-1, ...).

The game is a package; this module is its public face (`meeple.rules.bucket_brigade`, the game
module the registry, simulate and the lessons use):

- `core`: the game core, the rules applied in place on plain lists (the only copy of them), and
  what the box holds for one Config (`Box`);
- `cards`: the cards, the plays, `Config`, which plays a hand allows and what a hand scores (`round_score`);
- `game`: `State`, `new_game`, `legal_actions`, `apply`, `step`, the events, `observation`, `check_state`;
- `measures`: scores, winners and what a simulation keeps of a game;
- `strategy`: the bots and `play_core`, simulate's engine hook.
"""

from __future__ import annotations

from ..chance import Chance
from . import cards, core, game, measures, strategy
from .cards import (
    HONEYBEARS_TRACK, MAX_PLAYERS, MIN_PLAYERS, NAME, PARAMETERS, SOURCE_TRACK, TITLE, Card, Config, Play, round_score,
)
from .game import Observation, State, apply, check_state, determinize, legal_actions, new_game, observation, step
from .measures import ALWAYS_APPLIES, MEASURES, USAGE, game_stats, round_scores, rule_usage, score_sources, scores, winners
from .strategy import BOTS, heuristic_bot, lookahead_on_core, play_core

__all__ = [
    "ALWAYS_APPLIES", "BOTS", "Card", "Chance", "Config", "HONEYBEARS_TRACK", "MAX_PLAYERS", "MEASURES", "MIN_PLAYERS",
    "NAME", "Observation", "PARAMETERS", "Play", "SOURCE_TRACK", "State", "TITLE", "USAGE", "apply", "cards",
    "check_state", "core", "determinize", "game", "game_stats", "heuristic_bot", "legal_actions", "lookahead_on_core",
    "measures", "new_game", "observation", "play_core", "round_score", "round_scores", "rule_usage", "score_sources",
    "scores", "step", "strategy", "winners",
]

"""The game list: every game module by its name ("bucket-brigade"), looked up here.

Everything that takes a game by name (play, replay, simulate, the CLI, a variant file)
asks `game_module`; `GAMES` is the list itself (`meeple.rules.GAMES` is this dict).
This module imports the four game modules, so they and what they build on
(`protocol`, `config`, `bots`, `chance`, `log`) never import it.
"""

from __future__ import annotations

from types import ModuleType

from . import bucket_brigade, bucket_king, duck_duck_bruce, piggyback_brigade
from .config import RuleConfig, read_variant, variant_config
from .files import shown_path, shown_text

__all__ = ["GAMES", "game_module", "load_variant"]

GAMES: dict[str, ModuleType] = {mod.NAME: mod for mod in (bucket_brigade, bucket_king, duck_duck_bruce, piggyback_brigade)}
"""Every game module by its name, in the order the CLI and the docs list them."""


def game_module(game: str | ModuleType) -> ModuleType:
    """The module for a game name such as "bucket-brigade" (or the module itself)."""
    if isinstance(game, ModuleType):
        return game
    if not isinstance(game, str) or game not in GAMES:  # echoed cut and printable (a saved setup's megabyte)
        shown = shown_text(repr(game) if isinstance(game, str) else game, 60)
        raise ValueError(f"unknown game {shown}; known games: {', '.join(GAMES)}")
    return GAMES[game]


def load_variant(path) -> tuple[str, RuleConfig]:
    """(name, config) from a variant file of any game (the file names its game)."""
    game, name, settings = read_variant(path)
    if game not in GAMES:
        raise ValueError(f"{shown_path(path)}: unknown game {game!r}; known games: {', '.join(GAMES)}")
    return name, variant_config(GAMES[game].Config, path, settings)

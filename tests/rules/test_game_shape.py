"""The four games in one shape (issue 35): each a package of the same modules, with one bridge
between the public State and the kernel's Core, named alike in every game."""

from __future__ import annotations

import importlib
import random

import pytest

from meeple.rules import GAMES
from meeple.rules.registry import game_module

PARTS = ("cards", "core", "game", "measures", "strategy")  # each game's own maths module comes beside them
BRIDGE = ("core_of", "sync", "state_of")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_a_package_of_the_same_modules(name):
    mod = game_module(name)
    assert hasattr(mod, "__path__"), f"{mod.__name__} is a single module, not a package"
    for part in PARTS:
        importlib.import_module(f"{mod.__name__}.{part}")
    # the public face re-exports the parts' objects themselves, not copies
    assert mod.Config is mod.cards.Config
    assert mod.State is mod.game.State and mod.new_game is mod.game.new_game and mod.step is mod.game.step
    assert mod.BOTS is mod.strategy.BOTS and mod.play_core is mod.strategy.play_core
    assert mod.scores is mod.measures.scores and mod.game_stats is mod.measures.game_stats
    assert all(callable(getattr(mod.game, f)) for f in BRIDGE), f"{name}: the bridge is {BRIDGE}"
    assert mod.core.Core.__name__ == "Core"


@pytest.mark.parametrize("name", GAMES)
def test_the_bridge_reads_a_state_into_a_core_and_back_unchanged_at_every_move(name):
    """state_of(core_of(s)) == s for every State of a few games of every preset, and a Core written
    into a fresh State with sync gives the same State: the bridge loses and adds nothing."""
    mod = game_module(name)
    game = mod.game
    rng = random.Random(35)
    for preset, config in mod.Config.presets().items():
        for seed in range(2):
            s = mod.new_game(config, seed, events=False)
            moves = 0
            while True:
                back = game.state_of(game.core_of(s))
                assert back == s, f"{name} {preset} seed {seed}: state_of(core_of(s)) differs after {moves} moves"
                written = mod.new_game(config, seed + 1, events=False)  # another game's State, overwritten
                game.sync(game.core_of(s), written)
                assert written == s, f"{name} {preset} seed {seed}: sync(core_of(s), t) differs after {moves} moves"
                if s.is_over:
                    break
                legal = mod.legal_actions(s)
                s = mod.apply(s, legal[rng.randrange(len(legal))])
                moves += 1
            assert moves > 0

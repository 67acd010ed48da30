"""One conformance suite for every game in GAMES and every preset.

Seeded random playouts check the protocol's promises: the game ends, legal
actions exist until it does, `apply` never changes the state it was given,
cards and tokens are conserved, the same seed gives the same record, and
the record's JSON replays to the same result.
"""

from __future__ import annotations

import copy
import random

import pytest

from meeple.rules import GAMES, play, replay
from meeple.rules.chance import derive
from meeple.rules.core import bot_rng

CASES = [(name, preset) for name, mod in GAMES.items() for preset in mod.Config.presets()]
PLAYOUTS = 6


def _ids(case):
    return f"{case[0]}:{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_random_playouts_keep_the_protocol(case):
    name, preset = case
    mod = GAMES[name]
    config = mod.Config.presets()[preset]
    for g in range(PLAYOUTS):
        seed = derive(11, name, preset, g)
        state = mod.new_game(config, seed)
        rng = bot_rng(seed, 0)
        mod.check_state(state)
        steps = 0
        while not state.is_over:
            legal = mod.legal_actions(state)
            assert legal, f"no legal action at step {steps} though the game is not over"
            assert len({str(a) for a in legal}) == len(legal), "action texts must be unique"
            p = state.current_player
            assert 0 <= p < config.players
            obs = mod.observation(state, p)
            assert obs.player == p
            action = legal[rng.randrange(len(legal))]
            before = copy.deepcopy(state)
            nxt = mod.apply(state, action)
            assert state == before, "apply changed the state it was given"
            assert nxt is not state
            mod.check_state(nxt)
            assert len(nxt.events) >= len(state.events)
            state = nxt
            steps += 1
            assert steps < 50_000, "game did not end"
        assert mod.legal_actions(state) == []
        assert state.current_player is None
        w = mod.winners(state)
        assert w and all(0 <= s < config.players for s in w)
        assert len(mod.scores(state)) == config.players


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_same_seed_same_record_and_replay_matches(case):
    name, preset = case
    mod = GAMES[name]
    config = mod.Config.presets()[preset]
    seed = derive(5, name, preset)
    a = play(name, config, "random", seed)
    b = play(name, config, "random", seed)
    assert a == b
    again = replay(a.to_json())
    assert again == a
    assert again.events == a.events
    other = play(name, config, "random", seed + 1)
    assert other.actions != a.actions or other.scores != a.scores or other.events != a.events


@pytest.mark.parametrize("name", list(GAMES))
def test_illegal_action_raises_and_changes_nothing(name):
    mod = GAMES[name]
    state = mod.new_game(mod.Config(), 3)
    before = copy.deepcopy(state)
    with pytest.raises(ValueError):
        mod.apply(state, "not an action")
    assert state == before


@pytest.mark.parametrize("name", list(GAMES))
def test_observation_hides_what_the_player_may_not_see(name):
    """Two states that differ only in another seat's hidden cards look the same to me."""
    mod = GAMES[name]
    state = mod.new_game(mod.Config(), 21)
    obs = mod.observation(state, 0)
    rng = random.Random(4)
    worlds = [mod.determinize(obs, rng) for _ in range(5)]
    for w in worlds:
        mod.check_state(w)
        assert mod.observation(w, 0) == obs, "determinize must keep everything seat 0 can see"
    assert "seed" not in repr(obs), "an observation must not expose the chance seed"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_has_the_three_standard_bots(name):
    assert {"random", "heuristic", "lookahead"} <= set(GAMES[name].BOTS)


@pytest.mark.parametrize("name", list(GAMES))
def test_presets_start_with_base_and_are_valid_configs(name):
    mod = GAMES[name]
    presets = mod.Config.presets()
    assert next(iter(presets)) == "base"
    assert presets["base"] == mod.Config()
    for cfg in presets.values():
        assert mod.Config.from_dict(cfg.to_dict()) == cfg

"""The games' shared checks (rules/protocol.py) as the Python API meets them (issue 9 item 9.9):
a seat outside the game, another game's Config, values that are not text, each refused with a
message naming what is wrong and what is allowed. Moved whole from test_edges.py.
"""

from __future__ import annotations

import pytest

from meeple.rules import GAMES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_observation_refuses_a_seat_that_is_not_in_the_game(name):
    mod = GAMES[name]
    state = mod.new_game(None, 3)
    n = state.config.players
    for bad in (n, 99, -1, -n, True, None, 1.0, "0"):
        with pytest.raises(ValueError, match=rf"seat .* is not allowed: seats are 0 to {n - 1} \({n} players\)"):
            mod.observation(state, bad)
    assert mod.observation(state, n - 1).player == n - 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_new_game_refuses_another_games_config(name):
    mod = GAMES[name]
    for other in GAMES.values():
        if other is not mod:
            with pytest.raises(ValueError, match=f"{name} needs a {name} Config .* got a {other.NAME} Config"):
                mod.new_game(other.Config(), 1)
    with pytest.raises(ValueError, match=f"{name} needs a {name} Config"):
        mod.new_game({"players": 3}, 1)
    assert mod.new_game(None, 1).config == mod.Config()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_with_text_refuses_values_that_are_not_text(name):
    cfg = GAMES[name].Config()
    with pytest.raises(TypeError, match="text"):
        cfg.with_text({"players": 3})
    with pytest.raises(TypeError):
        cfg.with_text("players=3")  # one string, not a list of them
    assert cfg.with_text({"players": "3"}).players == 3

"""The games' shared checks (rules/protocol.py) as the Python API meets them (issue 9 item 9.9):
a seat outside the game, another game's Config, values that are not text, each refused with a
message naming what is wrong and what is allowed; and the Python API's other refusals (a
config's field names, an executor, bots, a Stepper id), each a ValueError saying what is allowed.
"""

from __future__ import annotations

import pytest

from meeple.rules import GAMES, play
from meeple.rules import bucket_brigade as bb
from meeple.rules import sim as SIM
from meeple.course.site.runtime import transport

BB = "bucket-brigade"


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


def test_api_refusals_are_value_errors_that_say_what_is_allowed():
    cases = [
        (lambda: bb.Config.from_dict({1: 2}), "config field names are text; got 1 (int); allowed: players"),
        (lambda: SIM.simulate(BB, None, "random", games=4, seed=1, executor=object(), progress=False),
         "executor must be a concurrent.futures.Executor"),
        (lambda: SIM.simulate(BB, None, None, games=4, seed=1, progress=False), "bots must be bot names"),
        (lambda: play(BB, None, None, 1), "bots must be bot names"),
        (lambda: transport.send_json(10**6, "{}"), "no open widget session has id 1000000"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            call()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_states_copy_holds_every_field_and_equality_reads_the_compared_ones_and_the_log(name):
    """protocol_state gives each game's State its `==` and `_copy` (written once, rules/protocol.py)."""
    import dataclasses

    mod = GAMES[name]
    state = mod.new_game(None, 3)
    cls = type(state)
    copy = state._copy()
    assert copy == state and copy is not state and type(copy) is cls
    assert all(getattr(copy, f.name) is getattr(state, f.name) for f in dataclasses.fields(cls))
    assert cls.__hash__ is None  # unhashable, as a dataclass with its own == is
    assert dataclasses.replace(state, is_over=not state.is_over) != state  # a compared field
    assert state.events  # a new game has dealt: its log says so
    copy._n_events -= 1  # the same fields compared, one event fewer in the log
    assert copy != state and state.__eq__(object()) is NotImplemented


def test_protocol_state_compares_what_it_is_told_to_and_writes_a_copy_per_class():
    import dataclasses

    from meeple.rules.protocol import protocol_state

    @protocol_state("shown")
    @dataclasses.dataclass(slots=True)
    class Thing:
        a: int
        hidden: int = dataclasses.field(default=0, compare=False)

        @property
        def shown(self):
            return self.hidden % 2

    assert Thing(1, 2) == Thing(1, 4) and Thing(1, 2) != Thing(1, 3) and Thing(1) != Thing(2)
    copy = Thing(5, 7)._copy()
    assert (copy.a, copy.hidden) == (5, 7) and Thing._copy.__qualname__.endswith("Thing._copy")

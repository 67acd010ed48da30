"""simulate counts the turns each game's rules define: one player's go, with a decision or not.

A turn with no decision (a Piggyback roll that allows no reroll, a Duck turn whose
forced first flip is the last card) is played inside another player's action; the
games report every turn's end through new_game's `turn_end` callback, and the
turns column and the "leader after k% of the turns" figures are read there. The
reference count comes from the events of the same seeded game played with
`meeple.rules.play`: the events say whose turn it is.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from meeple.rules import GAMES, play
from meeple.rules.chance import game_seed
from meeple.rules.core import apply_text
from meeple.rules import simulate
from meeple.rules.sim.play import CHECKPOINTS, _lead_changes, _leader

SEED = 7
GAMES_PER_SET = 12


def _seat(m) -> int:
    return int(m[1]) - 1


def bb_turns(events) -> list[int]:
    """BB-5: a turn is one card played."""
    return [_seat(m) for e in events if (m := re.match(r"Player (\d+) plays ", e))]


def bk_turns(events) -> list[int]:
    """BK-4: each player builds their pyramid in one turn, in seat order; then a turn is a
    lead (with its direction, BK-5/BK-6), a play (BK-7) or a loss of buckets (BK-9, BK-20)."""
    seats, built = [], set()
    for e in events:
        if m := re.match(r"Player (\d+) puts a ", e):
            if m[1] not in built:
                built.add(m[1])
                seats.append(_seat(m))
        elif m := re.match(r"Player (\d+) (leads|plays|cannot or will not beat|has no card to lead with) ", e):
            seats.append(_seat(m))
    return seats


def ddb_turns(events) -> list[int]:
    """DDB-4 to DDB-6, DDB-9: a turn ends with a stop, a double, Bruce, or the last card."""
    end = re.compile(r"Player (\d+) (stops and puts|flips (Bruce!|.+?, a second .+ duck:|.+?, the last card, and takes))")
    return [_seat(m) for e in events if (m := end.match(e))]


def pb_turns(events) -> list[int]:
    """PB-3: turns pass from seat to seat; a turn is one player's rolls (and extension).
    Two turns in a row are never the same player's (at least two players)."""
    who = [_seat(m) for e in events if (m := re.match(r"Player (\d+) (rolls|gives|extends) ", e))]
    return [p for i, p in enumerate(who) if i == 0 or who[i - 1] != p]


TURNS_FROM_EVENTS = {
    "bucket-brigade": bb_turns,
    "bucket-king": bk_turns,
    "duck-duck-bruce": ddb_turns,
    "piggyback-brigade": pb_turns,
}


def _sets():
    for name, mod in GAMES.items():
        for preset, config in mod.Config.presets().items():
            for bots in ("random", "heuristic"):
                yield pytest.param(name, preset, config, bots, id=f"{name}-{preset}-{bots}")


@pytest.mark.parametrize("name, preset, config, bots", list(_sets()))
def test_simulate_counts_every_turn_the_events_show(name, preset, config, bots):
    """The turns column of simulate's table is the number of turns in the events of the
    same seeded game played with `play` (PB-3, DDB-2, BB-5, BK-4 to BK-9)."""
    res = simulate(name, config, bots, GAMES_PER_SET, SEED, workers=1, progress=False)
    counted = res.games.set_index("game")["turns"]
    for i in range(GAMES_PER_SET):
        rec = play(name, config, bots, game_seed(SEED, i))
        assert counted[i] == len(TURNS_FROM_EVENTS[name](rec.events)), f"game {i}"


def _silent_turns(name, config, bots, games):
    """Seeds of games with a turn ended inside another player's action (no decision in it)."""
    mod = GAMES[name]
    found = []
    for i in range(games):
        rec = play(name, config, bots, game_seed(SEED, i))
        ends = []
        state = mod.new_game(config, rec.seed, turn_end=lambda s: ends.append(s.current_player))  # noqa: B023 - this game only
        decided = 0
        for text in rec.actions:
            before = len(ends)
            state = apply_text(mod, state, text)
            decided += len(ends) - before > 1
        if decided:
            found.append(i)
    return found


@pytest.mark.parametrize("name", ["piggyback-brigade", "duck-duck-bruce"])
def test_turns_without_a_decision_happen_and_are_counted(name):
    """The bug this file guards against: Piggyback and Duck games do have turns played
    inside another player's action (so the tests above can fail), and simulate counts them."""
    config = GAMES[name].Config()
    seeds = _silent_turns(name, config, "heuristic", 40)
    assert seeds, "no game with a turn without a decision: the count test would prove nothing"
    res = simulate(name, config, "heuristic", 40, SEED, workers=1, progress=False)
    counted = res.games.set_index("game")["turns"]
    for i in seeds:
        rec = play(name, config, "heuristic", game_seed(SEED, i))
        assert counted[i] == len(TURNS_FROM_EVENTS[name](rec.events))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_turn_end_is_called_once_per_turn_with_the_player_whose_turn_it_was(name):
    """new_game's turn_end hook fires at the end of each turn, before the next begins
    (state.current_player is still the player whose turn it was), and does not change
    the game: the events are the same as without it."""
    mod = GAMES[name]
    config = mod.Config()
    for i in range(6):
        rec = play(name, config, "heuristic", game_seed(SEED, i))
        seats = []
        state = mod.new_game(config, rec.seed, turn_end=lambda s: seats.append(s.current_player))  # noqa: B023 - this game only
        for text in rec.actions:
            state = apply_text(mod, state, text)
        assert state.events == rec.events
        assert seats == TURNS_FROM_EVENTS[name](rec.events)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_leaders_are_read_at_the_end_of_each_turn(name):
    """Lead changes and "leader after k% of the turns" come from progress read in the
    turn_end hook, on simulate's own in-place states as on apply's copies."""
    mod = GAMES[name]
    config = mod.Config()
    progress = getattr(mod, "progress", mod.scores)
    res = simulate(name, config, "heuristic", 8, SEED, workers=1, progress=False)
    for row in res.games.itertuples():
        rec = play(name, config, "heuristic", game_seed(SEED, row.game))
        leaders = []
        state = mod.new_game(config, rec.seed, turn_end=lambda s: leaders.append(_leader(progress(s))))  # noqa: B023 - this game only
        for text in rec.actions:
            state = apply_text(mod, state, text)
        assert row.turns == len(leaders) and row.lead_changes == _lead_changes(leaders)
        for pct in CHECKPOINTS:
            want = leaders[max(1, -(-pct * len(leaders) // 100)) - 1]
            got = getattr(row, f"leader_at_{pct}pct")
            assert (None if pd.isna(got) else int(got)) == want

"""Design measures (rules/sim/design.py): each on hand-built games whose value is known, and
the runs that compute them only when asked, playing the very same games."""

import math

import pytest

from meeple.rules.sim import simulate
from meeple.rules.sim.design import DESIGN, duration_spread, game_measures
from meeple.rules.sim.results import measures


def test_leader_at_checkpoints_read_the_turn_simulate_reads():
    # 4 turns: 25% -> turn 1 (seat 0 leads), 50% -> turn 2 (a tie), 75% -> turn 3 (seat 1 leads)
    trail = [(3, 0), (3, 3), (3, 5), (3, 6)]
    m = game_measures(trail, [0, 1, 1, 1], (3, 6), (1,))
    assert m["leader_at_25_wins"] == 0.0  # seat 0 led and lost
    assert m["leader_at_half_wins"] is None  # a tie for the lead: no value
    assert m["leader_at_75_wins"] == 1.0


def test_margin_spread_and_shared_wins():
    m = game_measures([(1, 1, 1)], [0], (10, 7, 2), (0,))
    assert (m["margin"], m["score_spread"], m["shared_wins"]) == (3.0, 8.0, 0.0)
    m = game_measures([(1, 1, 1)], [0], (10, 10, 2), (0, 1))
    assert (m["margin"], m["shared_wins"]) == (8.0, 1.0)  # the winners' lead over the best non-winner
    assert game_measures([(1, 1)], [0], (5, 5), (0, 1))["margin"] == 0.0  # everyone won: no runner-up


def test_decisiveness_is_the_share_played_with_the_winner_ahead_for_good():
    trail = [(1, 0), (1, 2), (3, 2), (4, 2), (5, 2)]  # seat 0 leads for good from turn 3 of 5
    assert game_measures(trail, [0, 1, 0, 0, 0], (5, 2), (0,))["decisiveness"] == pytest.approx(3 / 5)
    assert game_measures([(2, 0)] * 4, [0] * 4, (2, 0), (0,))["decisiveness"] == 1.0  # ahead from the first turn
    # the scoreboard never shows the winner ahead (a race won otherwise): 0
    assert game_measures([(0, 1), (0, 2)], [0, 1], (0, 2), (0,))["decisiveness"] == 0.0


def test_drama_averages_the_winners_deficit_over_the_turns():
    trail = [(0, 4), (2, 4), (6, 4)]  # the winner (seat 0) trails by 4, then by 2, then leads
    assert game_measures(trail, [1, 0, 0], (6, 4), (0,))["drama"] == pytest.approx((4 + 2 + 0) / 3)
    assert game_measures([(5, 1)] * 3, [0] * 3, (5, 1), (0,))["drama"] == 0.0  # led throughout
    # a shared win: the winners' mean against the top (Ludii averages over the winners)
    assert game_measures([(4, 2, 4)], [0], (4, 2, 4), (0, 1))["drama"] == pytest.approx(4 - 3)


def test_uncertainty_is_the_share_of_turns_the_scoreboard_did_not_name_the_winner():
    trail = [(0, 0), (1, 2), (3, 2), (4, 2)]  # a tie, seat 1 ahead, then seat 0 twice
    assert game_measures(trail, [0, 1, 0, 0], (4, 2), (0,))["uncertainty"] == pytest.approx(2 / 4)


def test_kingmaking_a_losers_last_move_turns_the_lead_to_the_winner():
    # seat 2 (who does not win) ends the game with a move that takes seat 1 from the lead
    trail = [(5, 6, 0), (5, 3, 1)]
    assert game_measures(trail, [1, 2], (5, 3, 1), (0,))["kingmaking"] == 1.0
    # the same scores, the winner's own last move: no kingmaking
    assert game_measures(trail, [1, 0], (5, 3, 1), (0,))["kingmaking"] == 0.0
    # a loser moves last but the winner already led: no kingmaking
    assert game_measures([(6, 5, 0), (6, 3, 1)], [0, 2], (6, 3, 1), (0,))["kingmaking"] == 0.0


def test_duration_spread_is_the_sd_of_the_turns():
    sd, low, high = duration_spread([10, 12, 14, 16])
    assert sd == pytest.approx(math.sqrt(20 / 3))
    assert low < sd < high
    assert math.isnan(duration_spread([10])[0])


def test_every_design_measure_is_listed_once_by_name():
    listed = measures("duck-duck-bruce")
    for name in DESIGN:
        assert f"mean_{name}" in listed


def test_design_is_computed_only_when_asked_and_plays_the_same_games():
    plain = simulate("duck-duck-bruce", None, "heuristic", 12, 5, progress=False, workers=1)
    asked = simulate("duck-duck-bruce", None, "heuristic", 12, 5, progress=False, workers=1, measures=["drama"])
    assert "drama" not in plain.table.columns  # the default run does not pay for it
    assert "drama" in asked.table.columns
    for a, b in zip(plain.records, asked.records):
        assert a._replace(stats={}) == b._replace(stats={})
        assert {k: v for k, v in b.stats.items() if k in a.stats} == a.stats
        # the half-time leader: the same turn the cheap leader_at_50pct column reads
        lead = a.turn_leaders[1]
        assert b.stats["leader_at_half_wins"] == (None if lead is None else float(lead in a.winners))
    with pytest.raises(ValueError, match="design measure, computed only when"):
        plain.summary(["drama"])
    assert "drama" in str(asked.summary(["drama"]))

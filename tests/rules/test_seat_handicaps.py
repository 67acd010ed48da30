"""Per-seat handicaps (issue 40): BB-15 and DDB-14 (seat_points), PB-17 (seat_spaces), BK-22
(seat_cards). Each is played by the game's own setup, validated like every field, loadable in
OpenSpiel, and usable in compare and tune; empty (the default) changes no game."""

from __future__ import annotations

import pytest

from meeple.rules import GAMES, compare, simulate, tune
from meeple.rules import bucket_brigade as bb
from meeple.rules import bucket_king as bk
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules import piggyback_brigade as pb

HANDICAP = {"bucket-brigade": "seat_points", "duck-duck-bruce": "seat_points",
            "piggyback-brigade": "seat_spaces", "bucket-king": "seat_cards"}


@pytest.mark.parametrize("name", sorted(HANDICAP))
def test_an_all_zero_handicap_plays_the_same_games_as_none(name):
    """Default none, so no existing number moves; zeros for every seat are the same game."""
    mod = GAMES[name]
    zeros = mod.Config(**{HANDICAP[name]: (0,) * mod.Config().players})
    assert zeros == mod.Config() and "seat" not in str(mod.Config().to_dict())  # records stay as they were
    plain = simulate(name, mod.Config(), "heuristic", games=12, seed=40, progress=False).table
    zero = simulate(name, zeros, "heuristic", games=12, seed=40, progress=False).table
    assert plain["score"].tolist() == zero["score"].tolist()
    assert plain["win_share"].tolist() == zero["win_share"].tolist()


@pytest.mark.parametrize("name, bad, words", [
    ("bucket-brigade", (1, 2), "4 numbers, one per seat"),
    ("bucket-brigade", (0, 0, 0, 100), "each -99 to 99 points"),
    ("duck-duck-bruce", (0, 0, 0, -100), "each -99 to 99 points"),
    ("piggyback-brigade", (0, 0, 0, 21), "each 0 to 20"),
    ("piggyback-brigade", (0, -1, 0, 0), "each 0 to 20"),
    ("bucket-king", (0, 0, 0, 21), "each 0 to 20 extra cards"),
    ("bucket-king", (20, 20, 0, 1), "at most 40 extra cards in all"),
])
def test_a_bad_handicap_is_one_line_naming_field_value_and_what_is_allowed(name, bad, words):
    field = HANDICAP[name]
    with pytest.raises(ValueError, match=rf"^{field}=.* is not allowed: .*{words}"):
        GAMES[name].Config(**{field: bad})
    if len(bad) == 4 and sum(bad) == bad[3]:  # one seat's number out of range, set by its path
        with pytest.raises(ValueError, match=rf"^{field}\[3\]={bad[3]}: {field}=.* is not allowed"):
            GAMES[name].Config().with_values({f"{field}[3]": bad[3]})


@pytest.mark.parametrize("name", sorted(HANDICAP))
def test_one_seats_handicap_is_a_number_to_set_vary_and_slide_from_a_config_with_none(name):
    """An empty handicap reads as 0 for every seat, so `seat_points[3]` is a number like `track[0]`."""
    from meeple.widgets.explorer_session import ExplorerSession

    field, mod = HANDICAP[name], GAMES[name]
    config = mod.Config()
    assert config.get(f"{field}[3]") == 0 and f"{field}[3]" in config.parameters(numbers_only=True)
    assert config.with_text([f"{field}[3]=2"]).get(field) == (0, 0, 0, 2)
    assert ExplorerSession(name, f"{field}[3]", values=[0, 1], bots="heuristic", games=10).stops == [[0, 1]]


def test_BB_15_points_a_seat_starts_with_count_in_its_total_and_the_winner():
    config = bb.Config(seat_points=(0, 0, 0, 99))
    state = bb.new_game(config, seed=3)
    assert state.totals == (0, 0, 0, 99)
    rec = simulate("bucket-brigade", config, "heuristic", games=20, seed=3, progress=False)
    last = rec.table[rec.table["seat"] == 3]
    assert (last["win_share"] == 1).all()  # 99 points: more than any four rounds can score the others
    bb_plain = simulate("bucket-brigade", bb.Config(), "heuristic", games=20, seed=3, progress=False).table
    assert (last["score"].to_numpy() - 99 == bb_plain[bb_plain["seat"] == 3]["score"].to_numpy()).all()


def test_DDB_14_start_points_count_toward_the_target_and_the_sources_leave_them_out():
    config = ddb.Config(seat_points=(0, 76, 0, 0), end="target", target=77)
    state = ddb.new_game(config, seed=5)
    assert state.totals == (0, 76, 0, 0)
    games = simulate("duck-duck-bruce", config, "heuristic", games=10, seed=5, progress=False)
    assert (games.table.groupby("game")["rounds"].first() == 1).all()  # 76 + any round's points reach 77
    sources = games.table[games.table["seat"] == 1]
    assert (sources["points_flipped"] + sources["points_taken"] + 76 == sources["score"]).all()


def test_PB_17_a_head_start_places_each_seats_piglets_stacked_in_seat_order():
    config = pb.Config(players=4, seat_spaces=(0, 2, 2, 5))
    core = pb.core.new_core(config, pb.Chance(1))
    assert core.where == [-1, 1, 1, 4] and core.stacks[1] == [1, 2] and core.stacks[4] == [3]
    two = pb.Config(players=3, seat_spaces=(0, 0, 3))  # two piglets each (PB-2)
    core = pb.core.new_core(two, pb.Chance(1))
    assert core.stacks[2] == [4, 5] and core.where[:4] == [-1] * 4
    # 800 games: the edge is about ten points, and at 200 games two intervals can still overlap (chance version 2's
    # seed 7 gave 34% (28% to 41%) against 24% (19% to 30%))
    far = simulate("piggyback-brigade", pb.Config(seat_spaces=(0, 0, 0, 20)), "heuristic", games=800, seed=7,
                   progress=False).summary().seats
    near = simulate("piggyback-brigade", pb.Config(), "heuristic", games=800, seed=7, progress=False).summary().seats
    assert far.iloc[3].win_low > near.iloc[3].win_high  # one roll from the finish: Player 4 wins far more


def test_BK_22_extra_cards_are_dealt_in_seat_order_before_the_draw_pile():
    config = bk.Config(seat_cards=(0, 1, 0, 3))
    state = bk.new_game(config, seed=11)
    assert [len(h) for h in state.hands] == [10, 11, 10, 13]
    assert len(state.draw) == 80 - 44
    assert any("Player 4 +3" in e for e in state.events)
    plain = bk.new_game(bk.Config(), seed=11)
    assert state.hands[0] == plain.hands[0]  # the deal before the first extra card is the plain deal
    from meeple.rules.bucket_king.cards import most_cards_in_hand

    assert most_cards_in_hand(config) == 13


@pytest.mark.parametrize("name", sorted(HANDICAP))
def test_a_handicap_loads_in_openspiel_and_reads_back_from_its_game_string(name):
    pyspiel = pytest.importorskip("pyspiel")
    from meeple.rules import openspiel

    mod = GAMES[name]
    config = mod.Config(**{HANDICAP[name]: (0, 0, 1, 2)})
    game = openspiel.load(name, config)
    assert game.config == config
    assert pyspiel.load_game(str(game)).config == config


def test_compare_and_tune_take_a_seats_handicap():
    """A head start for Player 4 is a variant compare screens, and tune finds the points that
    take Player 1's advantage away (a negative start for Player 1)."""
    base = bb.Config(seat_points=(0, 0, 0, 0))
    screen = compare("bucket-brigade", {"base": base, "P4 +10": base.with_values({"seat_points[3]": 10})},
                     "heuristic", games=150, seed=41, progress=False)
    p4 = screen[(screen["seat"] == 3) & (screen["variant"] == "P4 +10")].iloc[0]
    assert p4.diff_win_low > 0
    tuned = tune("bucket-brigade", base, "seat_points[0]", "seat1_advantage", 0.0, "heuristic", games=150,
                 seed=42, values=[-20, 0, 20], method="grid", progress=False)
    low, none, high = tuned.table["value"].tolist()
    assert low < none < high and tuned.answer == 0  # 20 points either way swamps an edge of a few points


def test_race_seat_chances_each_matches_brute_force_and_the_shared_model():
    """PB-17 in the independent-race model of lesson 21: each seat its own turns (a head start runs a
    shorter track); every combination of turns enumerated, the lowest seat winning a tie."""
    from fractions import Fraction
    from itertools import product

    from meeple.rules import exact

    trials = [{1: Fraction(1, 3), 2: Fraction(2, 3)}, {1: Fraction(1, 2), 3: Fraction(1, 2)},
              {2: Fraction(1, 4), 3: Fraction(3, 4)}]
    brute = [Fraction(0)] * 3
    for turns in product(*(t.items() for t in trials)):
        chance = Fraction(1)
        for _, p in turns:
            chance *= p
        brute[min(range(3), key=lambda k: (turns[k][0], k))] += chance
    assert exact.race_seat_chances_each(trials) == brute
    base = exact.time_trial_turns(pb.Config())
    assert exact.race_seat_chances_each([base] * 4) == exact.race_seat_chances(base, 4)
    with pytest.raises(ValueError, match="one turns distribution per seat"):
        exact.race_seat_chances_each([])

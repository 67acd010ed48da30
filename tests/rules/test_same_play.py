"""Identical play is said, never read as a result (issue 36): a variant that plays its
baseline's games is named in one line by compare and tune; tune pairs every value with its answer."""

import warnings

import pytest

from meeple.rules import bucket_king as bk
from meeple.rules import duck_duck_bruce as ddb
from meeple.rules.comparison import SamePlayWarning, compare_run, format_comparison, same_games
from meeple.rules.workbench import compare, tune


def test_duck_best_face_5_under_max_steal_3_plays_the_base_games():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = compare("duck-duck-bruce", {"base": ddb.Config(), "b5": ddb.Config().with_values({"best_face": 5})}, "heuristic", 40, 1,
                        progress=False, workers=1)
    assert table.attrs["same"] == ["b5"]
    said = [str(w.message) for w in caught if issubclass(w.category, SamePlayWarning)]
    assert said == ["b5 plays the same games as base: in these games the change had no effect under these bots "
                    "(every game's record is equal, game by game); more games may reach a case it changes."]
    assert said[0] in format_comparison(table).splitlines()


def test_bucket_king_three_left_at_five_players_plays_the_base_games():
    five = bk.Config(players=5)
    run = compare_run("bucket-king", {"base": five, "three": five.with_values({"end_rule": "three-left"})},
                      "heuristic", 30, 1, progress=False, workers=1)
    assert run.table.attrs["same"] == ["three"]


def test_a_real_change_is_neither_the_same_nor_chance():
    run = compare_run("duck-duck-bruce", {"base": ddb.Config(), "b2": ddb.Config().with_values(
        {"best_face": 2, "max_steal": 2})}, "heuristic", 100, 1, progress=False, workers=1)
    assert run.table.attrs["same"] == [] and run.table.attrs["chance"] == []
    assert not same_games(run.results["b2"].records, run.results["base"].records)
    assert "plays the same games" not in format_comparison(run.table)


def test_differences_within_chance_are_said():
    # max_steal 2 changes the games (not the same), but at 200 games no paired interval leaves 0
    run = compare_run("duck-duck-bruce", {"base": ddb.Config(), "ms2": ddb.Config(max_steal=2)}, "heuristic", 200, 1,
                      progress=False, workers=1)
    a = run.table.attrs
    assert a["same"] == [] and a["chance"] == ["ms2"]
    rows = run.table[run.table["variant"] == "ms2"]
    for col in ("diff_win", "diff_score", "diff_turns", "diff_first_seat_adv"):
        assert ((rows[f"{col}_low"] <= 0) & (rows[f"{col}_high"] >= 0)).all()
    assert "ms2 differs from base only by chance" in format_comparison(run.table)


def test_tune_groups_identical_values_and_never_calls_them_a_tie():
    t = tune("duck-duck-bruce", None, "best_face", "turns", 60, "heuristic", 40, 1, progress=False, workers=1,
             values=[3, 4, 5])
    assert t.same == {4: 3, 5: 3}
    assert not t.tie and not t.tied and not t.rivals
    assert t.flat and "best_face = 3, 4, 5 play the same games: in these 40 games changing best_face had no effect" \
        in t.message
    assert "Tie" not in t.message


def test_tune_says_a_number_that_does_not_move_the_measure_in_these_games_is_no_tie(capsys):
    """`tune --field bonus --measure turns` under random bots (which never read bonus; it moves
    scores, not turns) called it a tie and said 'Play more games at these values to decide'."""
    from harness import run

    code, out, err = run(capsys, "tune", "bucket-brigade", "--field", "bonus", "--values", "2..4", "--measure",
                         "turns", "--target", "50", "--games", "6", "--workers", "1")
    assert code == 0, err
    assert "bonus = 2, 3, 4 give the same mean turns per game in each of these 6 games (game by game on the same " \
           "seeds): under these bots changing bonus did not change it in these games." in out
    assert "Play more games" not in out and "Tie" not in out and "cannot rule out" not in out
    t = tune("bucket-brigade", None, "bonus", "turns", 50, "random", 6, progress=False, workers=1, values=[2, 3, 4])
    assert t.flat and not t.same and t.message in out  # scores differ: not the same games, the same turns
    assert not tune("bucket-brigade", None, "bonus", "score", 20, "random", 6, progress=False, workers=1,
                    values=[2, 3, 4]).flat


def test_tune_claims_no_more_than_the_games_played_show():
    """Bonus 2 and 3 give Player 1 the same win rate in each of 10 games under random bots, and tune said
    it 'changes nothing' and that no value is nearer the target 'at any number of games'; at 400 games
    they differ (0.2275 and 0.225). The claim is the games': identical in these, more may differ."""
    few = tune("bucket-brigade", None, "bonus", "win_rate", 0.5, "random", 10, progress=False, workers=1,
               values=[2, 3])
    assert few.flat
    said = few.message
    assert "give the same Player 1's win rate in each of these 10 games" in said
    assert "At this many games no value brings it nearer 0.5 than another" in said
    assert "More games may reach a case that tells the values apart" in said
    for claim in ("any number of games", "changes nothing", "has no effect"):
        assert claim not in said
    many = tune("bucket-brigade", None, "bonus", "win_rate", 0.5, "random", 400, progress=False, workers=1,
                values=[2, 3])
    assert not many.flat and many.table["value"].nunique() == 2  # more games told them apart


def test_tune_of_two_numbers_claims_no_more_than_the_games_played_show():
    t = tune("bucket-brigade", None, ("bonus", "pair_multiplier"), "turns", 50, "random", 6, progress=False,
             workers=1, values=([2, 3], [4, 5]))
    assert t.flat
    assert "in each of these 6 games (game by game on the same seeds): under these bots changing them did not " \
           "change it in these games." in t.message
    assert "At this many games no setting brings it nearer 50" in t.message and "More games may" in t.message
    assert "changes nothing" not in t.message


def test_a_variant_with_the_baselines_rules_is_said_to_change_nothing(capsys):
    """`--variant base: --variant same:bonus=3` (3 is the default) was printed as a variant."""
    from harness import run

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = compare("bucket-brigade", {"base": "", "same": "bonus=3"}, "random", 4, 1, progress=False, workers=1)
    line = "same has the same rules as base (every number equal): it changes nothing, and its rows repeat base's games."
    assert table.attrs["equal"] == ["same"] and [str(w.message) for w in caught] == [line]
    code, out, err = run(capsys, "compare", "bucket-brigade", "--variant", "base:", "--variant", "same:bonus=3",
                         "--games", "4", "--workers", "1")
    assert code == 0 and line in out.splitlines() and "plays the same games" not in out, err


def test_tune_pairs_every_value_with_its_answer():
    # issue 36: faces[3] = 2 (7.16 turns) and 1 (7.75) both miss 12 on the same side; unpaired intervals
    # "could not rule out" 2, the paired difference tells them apart
    t = tune("piggyback-brigade", None, "faces[3]", "turns", 12, "heuristic", 300, 1, progress=False, workers=1,
             values=[1, 2])
    assert t.paired and t.answer == 1
    row = t.table[t.table["faces[3]"] == 2].iloc[0]
    assert row["diff_high"] < 0  # paired: 2 is shorter than 1, game by game
    assert t.tied == []
    assert "the reference" in t.message
    base = t.table[t.table["faces[3]"] == 1].iloc[0]
    assert (base["diff"], base["diff_low"], base["diff_high"]) == pytest.approx((0, 0, 0))


def test_the_explorer_says_identical_play_and_pairs_every_value_with_the_current_rules():
    from meeple.widgets.explorer_session import ExplorerSession

    s = ExplorerSession("duck-duck-bruce", "best_face", bots="heuristic", games=20, seed=1, measure="turns")
    s.move(5)  # the reference (best_face = 3, the current rules) is played with it
    assert s.warnings()[0].startswith("best_face = 5 plays the same games as best_face = 3")
    shown = s.numbers()
    assert "paired against the reference best_face = 3" in shown["heading"]
    assert shown["rows"][0][-1] == "+0.00 (+0.00 to +0.00)"
    s.move(3)
    assert s.numbers()["rows"][0][-1] == "the reference" and s.warnings() == []


def test_the_explorer_plays_design_measures_only_once_one_is_shown():
    from meeple.widgets.explorer_session import ExplorerSession

    s = ExplorerSession("piggyback-brigade", "faces[3]", bots="heuristic", games=30, seed=1, measure="turns")
    s.play_current()
    assert not s.design and "drama" not in s.records[s.cell][0].stats  # the cold move pays for no trail
    paired_turns = s.paired((2,), 0)
    assert paired_turns is None  # not played yet
    s.move(2)
    d = s.paired((2,), 0)
    assert d[1] <= d[0] <= d[2] and d[0] > 0  # a lower face: longer races, game by game
    s.set_measure("mean_drama")
    assert s.design and not s.points  # played again, with the trail
    s.move(2)
    assert "drama" in s.records[(2,)][0].stats and s.numbers()["columns"][5] == "drama"


def test_two_number_tune_counts_identical_settings_once():
    t = tune("duck-duck-bruce", None, ("best_face", "min_steal"), "turns", 60, "heuristic", 30, 1, progress=False,
             workers=1, values=([3, 4, 5], [1, 2]))
    assert t.same == {(4, 1): (3, 1), (5, 1): (3, 1), (4, 2): (3, 2), (5, 2): (3, 2)}
    assert all(s not in t.same for s in t.kept + t.tie)
    # Duck's game length depends on neither here (min_steal moves other figures): every setting measures the
    # same turns game by game, so it is said to change nothing, not a tie of (3, 2) more games could break
    assert t.flat and t.tie == [] and t.kept == [t.answer]
    assert "Every setting of best_face and min_steal measured gives the same mean turns per game" in t.message


def test_two_number_tune_says_numbers_that_do_not_move_the_measure_change_nothing():
    """Random bots never read bonus or pair_multiplier, and neither moves the turns: not a tie."""
    t = tune("bucket-brigade", None, ("bonus", "pair_multiplier"), "turns", 50, "random", 4, 0,
             values=([2, 3], [2, 3]), progress=False, workers=1)
    assert t.flat and not t.tie and t.kept == [t.answer]
    assert "Every setting of bonus and pair_multiplier measured gives the same mean turns per game" in t.message
    assert not tune("bucket-brigade", None, ("bonus", "pair_multiplier"), "score", 20, "random", 4, 0,
                    values=([2, 3], [2, 3]), progress=False, workers=1).flat

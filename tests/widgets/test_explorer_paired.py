"""The Explorer draws what its numbers table pairs (issue 36: "pair every value against a reference
value ... and say which is the reference"): a chart of each value minus the reference, game by game
on the same seeds, a point with its 95% interval and a rule at 0 (specs.paired)."""

from __future__ import annotations

import math

import pytest

from meeple.widgets import specs
from meeple.widgets.explorer_session import ExplorerSession


def _layer(spec, mark):
    return [layer for layer in spec["layer"] if isinstance(layer.get("mark"), dict) and layer["mark"]["type"] == mark]


def _data(spec, layer):
    return spec["datasets"][layer["data"]["name"]]


def test_the_paired_chart_draws_exactly_what_paired_gives():
    s = ExplorerSession("duck-duck-bruce", "rounds", values=[1, 2, 3], bots="heuristic", games=30, seed=1,
                        measure="score")
    s.move(1)  # with the reference, rounds = 3 (the current rules)
    s.move(2)
    spec = s.specs()["paired"]
    points = _layer(spec, "point")[0]
    drawn = _data(spec, points)
    want = [(v, seat, s.paired((v,), seat)) for v in (1, 2, 3) for seat in range(4)]
    assert [(r["rounds"], r["seat"], (r["diff"], r["diff_low"], r["diff_high"])) for r in drawn] == want
    assert all(r["diff"] == r["diff_low"] == r["diff_high"] == 0 for r in drawn if r["rounds"] == 3)
    assert all(r["diff_high"] < 0 for r in drawn if r["rounds"] < 3)  # fewer rounds, fewer points, game by game
    assert _data(spec, _layer(spec, "errorbar")[0]) == drawn  # its interval: the error bar, from the same rows
    zero = _layer(spec, "rule")[0]
    assert _data(spec, zero) == [{"zero": 0}] and zero["encoding"]["y"]["field"] == "zero"
    # it says which is the reference, in its title and as a labelled rule at x = 3
    assert spec["title"]["text"] == ["mean final score per seat:", "each value minus rounds = 3"]
    labelled = [layer for layer in spec["layer"] if "layer" in layer]
    assert _data(spec, labelled[0]) == [{"rounds": 3, "label": "reference"}]
    assert spec["params"] == [{"name": specs.CURRENT, "value": 1}]  # the ring follows the slider
    assert "Chart: mean final score per seat: each value minus rounds = 3" in spec["description"]


def test_a_per_game_measure_is_one_point_a_value_and_the_site_view_carries_the_chart():
    s = ExplorerSession("piggyback-brigade", "faces[3]", values=[2, 4], bots="heuristic", games=30, seed=1,
                        measure="turns")
    s.move(2)  # with the reference, faces[3] = 4
    rows = s.paired_rows()
    assert [(r["faces[3]"], r["who"]) for r in rows] == [(2, "every seat"), (4, "every seat")]
    assert (rows[0]["diff"], rows[0]["diff_low"], rows[0]["diff_high"]) == s.paired((2,), 0)
    assert rows[0]["diff_low"] > 0  # a lower face: longer races, game by game
    assert s.view()["charts"]["paired"] == s.specs()["paired"]  # what explorer.js draws, beside win and measure


def test_two_fields_pair_the_chosen_seat_and_a_value_with_no_pair_is_left_out():
    s = ExplorerSession("duck-duck-bruce", ["max_steal", "rounds"], bots="heuristic", games=20, seed=1,
                        measure="win_rate")
    s.move((2, 2))
    s.set_seat(1)
    rows = s.paired_rows()
    assert {r["seat"] for r in rows} == {1} and {r["who"] for r in rows} == {"rounds=2, Player 2 (heuristic)",
                                                                              "rounds=3, Player 2 (heuristic)"}
    assert [(r["diff"], r["diff_low"], r["diff_high"]) for r in rows if r["rounds"] == 2] == [s.paired((2, 2), 1)]
    # a row with no pair (NaN: no game both played) is not drawn
    spec = specs.paired(rows + [{**rows[0], "max_steal": 1, "diff": math.nan}], "max_steal", "win_rate")
    assert len(_data(spec, _layer(spec, "point")[0])) == len(rows)


def test_vega_draws_the_paired_chart():
    vlc = pytest.importorskip("vl_convert")
    s = ExplorerSession("duck-duck-bruce", "max_steal", values=[2, 3], bots="heuristic", games=10, seed=1,
                        measure="score")
    s.move(2)
    assert vlc.vegalite_to_png(s.specs()["paired"])[:4] == b"\x89PNG"


def test_a_reference_the_slider_does_not_offer_is_the_nearest_value_it_does_and_says_so():
    """Bucket Brigade's bonus is 3 by default; a slider over 0, 2 and 4 cannot play 3. Every value is
    then paired with 2 (the nearest; of two as near, the first), the table and the chart say so, and
    the chart is not empty (before: 'play bonus = 3 to compare', which no control could do)."""
    s = ExplorerSession("bucket-brigade", "bonus", values=[0, 2, 4], bots="heuristic,random", games=20, seed=3)
    assert s.baseline == (3,) and s.reference == (2,)
    s.move(4)
    assert (2,) in s.points  # the reference played with the first move
    heading = s.numbers()["heading"]
    assert "reference bonus = 2 (the sliders' value nearest the current rules, bonus = 3)" in heading, heading
    assert all("to compare" not in row[-1] for row in s.numbers()["rows"])
    drawn = _data(s.specs()["paired"], _layer(s.specs()["paired"], "point")[0])
    assert {r["bonus"] for r in drawn} == {2, 4} and all(r["diff"] is not None for r in drawn)
    assert s.specs()["paired"]["title"]["text"][-1] == "each value minus bonus = 2"
    on_the_rules = ExplorerSession("bucket-brigade", "bonus", values=[0, 3, 6], games=20, seed=3)
    assert on_the_rules.reference == (3,) and on_the_rules.reference_words() == "the current rules"

"""A chart's text alternative (meeple.widgets.chart_text, issue 38): a screen reader hears the
chart's title, what is drawn against what, and the numbers themselves."""

from __future__ import annotations

from fractions import Fraction

import altair as alt
import pandas as pd

from meeple.widgets import chart_text, specs


def test_a_distribution_says_every_value_and_its_exact_probability():
    spec = specs.distribution({1: Fraction(1, 6), 2: Fraction(1, 3), 3: Fraction(1, 2)}, "face", "A die")
    assert spec["description"] == ("A die: 3 values from 1 to 3, mean 2.33. "
                                   "Exact probabilities: face 1: 1/6; face 2: 1/3; face 3: 1/2.")
    text = chart_text.describe({k: v for k, v in spec.items() if k != "description"})  # written from the spec alone
    assert text.startswith("Chart: A die. probability (exact) against face.")
    for face, p in (("1", "0.167"), ("2", "0.333"), ("3", "0.5")):
        assert f"face {face}, probability (exact) {p}" in text


def test_a_distribution_of_one_value_says_1_value_not_1_values():
    spec = specs.distribution({4: Fraction(1)}, "turns", "A sure thing")
    assert spec["description"] == "A sure thing: 1 value, 4, mean 4. Exact probabilities: turns 4: 1."


def test_the_explorers_win_chart_names_each_seat_with_its_interval():
    rows = [{"bonus": b, "point": i, "seat": s, "bot": "random", "games": 40, "win_rate": w, "win_low": w - 0.1,
             "win_high": w + 0.1} for i, b in enumerate((0, 2)) for s, w in ((0, 0.5), (1, 0.25))]
    text = specs.win_rate(rows, "bonus")["description"]
    assert "Player 1 (random), bonus 0, win low 0.4, win high 0.6, win rate 0.5" in text
    assert "Player 2 (random), bonus 2" in text


def test_a_lessons_altair_chart_gets_its_numbers_and_a_long_table_is_cut_saying_so():
    data = pd.DataFrame({"turns": range(200), "share": [1 / 200] * 200})
    spec = alt.Chart(data, title="Turns").mark_bar().encode(x="turns:O", y=alt.Y("share:Q", title="share of games")).to_dict()
    text = chart_text.describe(spec)
    assert text.startswith("Chart: Turns. share of games against turns. Values: turns 0, share of games 0.005;")
    assert len(text) < chart_text.LIMIT + 200 and text.endswith("more rows.")
    left = int(text.rsplit("and ", 1)[1].split()[0])
    assert left + text.count(";") == 200  # every row is either said or counted

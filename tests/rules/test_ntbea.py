"""Tuning coupled numbers and three or more numbers (issue 36): `best_face+max_steal` moves both,
and NTBEA (rules/ntbea.py, Lucas et al. 2018) searches a budget, then pairs its answer with the start."""

import random

import pytest

from meeple.rules.ntbea import ManyTuning, ntbea
from meeple.rules.workbench import tune


def test_ntbea_finds_the_peak_of_a_noisy_function_within_its_budget():
    spans = [list(range(8)), list(range(8)), list(range(8))]  # 512 settings
    peak = (5, 2, 6)
    noise = random.Random(4)

    def fitness(s, step):
        return -sum(abs(a - b) for a, b in zip(s, peak)) + noise.gauss(0, 1.0)

    best, tried, steps = ntbea(spans, fitness, 150, random.Random(1), start=(0, 0, 0))
    assert steps == 150 and sum(tried.values()) == 150 and len(tried) <= 150  # never more than the budget
    assert best == peak  # found with 150 noisy evaluations of a 512-setting grid


def test_coupled_numbers_move_together_instead_of_being_refused():
    with pytest.raises(ValueError, match=r"--field best_face\+max_steal"):  # the refusal names the way out
        tune("duck-duck-bruce", None, "best_face", "turns", 60, "heuristic", 10, 1, progress=False, workers=1,
             values=[2, 3])
    t = tune("duck-duck-bruce", None, "best_face+max_steal", "turns", 60, "heuristic", 30, 1, progress=False,
             workers=1, values=[2, 3, 4])
    assert list(t.table["best_face+max_steal"]) == [2, 3, 4]
    assert t.same == {}  # max_steal follows the die: 2 and 4 play other games than 3


def test_three_numbers_search_a_budget_and_pair_the_answer_with_the_start():
    t = tune("duck-duck-bruce", None, ("best_face+max_steal", "min_steal", "numbers[0]"), "turns", 60, "heuristic",
             100, 1, progress=False, workers=1, values=([2, 3, 4], [1, 2], [1, 2]))
    assert isinstance(t, ManyTuning)
    assert t.start == (3, 1, 1) and t.evaluations == 50 and 1 < t.settings_tried <= 12
    assert int(t.table["evaluations"].sum()) == t.evaluations
    d, lo, hi = t.diff
    assert lo <= d <= hi and (t.answer != t.start or (d, lo, hi) == (0, 0, 0))
    assert "tried" in t.message and "paired difference" in t.message and "Lucas" in t.message

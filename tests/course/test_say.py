"""say(): numbers that read well (issue 39). An exact fraction stays a fraction while it is short
(numerator and denominator of at most six digits each) and becomes a decimal when it is not:
lesson 1 invites n = 400 flips, whose coverage is a fraction of about 120 digits over 120."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest

from meeple.rules import stats
from meeple.course.exercises import say
from meeple.course.exercises.checking import SHORT_DIGITS, readable_fractions


def _coverage(n: int) -> Fraction:
    """Lesson 1's exact chance that Wilson's interval from n fair flips covers one half."""
    half = Fraction(1, 2)
    return sum((math.comb(n, k) * half**n for k in range(n + 1) if stats.wilson(k, n)[0] <= half <= stats.wilson(k, n)[1]),
               Fraction(0))


def test_lesson_ones_sentence_at_four_hundred_flips_reads_as_a_decimal(capsys):
    c = _coverage(400)
    assert len(str(c.numerator)) > 100 and len(str(c.denominator)) > 100  # what the reader saw
    say(f"Wilson's interval from 400 flips covers one half with chance {c.numerator}/{c.denominator} "
        f"= **{float(c):.1%}**.")
    out = capsys.readouterr().out
    assert max(len(d) for d in re.findall(r"\d+", out)) <= 6, out
    assert f"chance ≈{float(c):.1%}." in out  # the sentence's own decimal stands for the fraction (no "≈0.9615 = 96.2%")


def test_a_short_fraction_stays_exact(capsys):
    c = _coverage(40)
    assert max(len(str(c.numerator)), len(str(c.denominator))) > SHORT_DIGITS  # 40 flips: already long
    assert readable_fractions("3/8 and 123456/654321") == "3/8 and 123456/654321"
    say(f"a quarter is {Fraction(1, 4)}, a die's six {Fraction(1, 6)}")
    assert capsys.readouterr().out == "a quarter is 1/4, a die's six 1/6\n"


@pytest.mark.parametrize("text, shown", [
    ("p = 1234567/7654321.", "p = ≈0.1613."),  # a full stop after it is not a decimal point
    ("p = 7654321/1234567", "p = ≈6.2"),
    ("$p = 1234567/7654321$", r"$p = \approx 0.1613$"),  # inside TeX, TeX's sign
    ("10000000/3 games", "≈3,333,333.3 games"),
    ("1/1234567", "≈8.1e-07"),
])
def test_a_long_fraction_becomes_a_decimal(text, shown):
    assert readable_fractions(text) == shown


@pytest.mark.parametrize("text, shown", [
    ("gives 12345678/1772727 ≈ 6.9640; the cap", "gives ≈6.9640; the cap"),  # lesson 3: not "≈6.964 ≈ 6.9640"
    ("chance 12345678/16777216 = **73.6%**. In", "chance ≈**73.6%**. In"),  # lesson 1: not "≈0.7358 = **73.6%**"
    ("would gain 1234567/7654321 ≈ +0.16", "would gain ≈+0.16"),
    ("$p = 1234567/7654321 \\approx 0.16$", "$p = \\approx 0.16$"),
    ("3/8 ≈ 0.375 and 1234567/7654321 and", "3/8 ≈ 0.375 and ≈0.1613 and"),  # short ones and lone ones as before
])
def test_a_long_fraction_followed_by_its_decimal_reads_as_that_decimal(text, shown):
    assert readable_fractions(text) == shown
    assert not re.search(r"≈[0-9.,+]+\s*(≈|=)", readable_fractions(text))


@pytest.mark.parametrize("text", ["out/1234567/7654321", "v1.2/1234567", "1234567/7654321/2", "1234567/0"])
def test_what_is_not_a_fraction_is_left_alone(text):
    assert readable_fractions(text) == text

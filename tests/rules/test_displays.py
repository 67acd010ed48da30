"""Results that show themselves (issue 39): every public result a lesson or the README returns
shows, as a notebook cell's value, an HTML table with its intervals (`_repr_html_`, every text
escaped, at most 1000 px wide) and, in a console or the site's Python (no pandas), a plain-text
table (`repr`, `str`).

The kinds: simulate's Results (and Totals, keep="summary"), Results.summary(), sweep's table,
compare's table (a DataFrame; a list of rows without pandas), tune's Tuning and GridTuning,
balance_report's BalanceReport. (The exact helpers of meeple.rules.exact return plain Fractions,
dicts and tuples, which show themselves as Python's own.)
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from meeple.rules import balance_report, bucket_brigade as bb, bucket_king as bk, simulate, sweep
from meeple.rules.workbench import compare, tune

FAST = dict(workers=1, progress=False)
INTERVAL = re.compile(r"\d+(\.\d+)?%? to \d+(\.\d+)?%")  # a 95% interval as the tables print it


class _Cells(HTMLParser):
    """The tables of an HTML fragment as lists of rows of cell texts, and every tag seen."""

    def __init__(self):
        super().__init__()
        self.tables, self.tags, self._cell = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def _html(obj) -> _Cells:
    page = obj._repr_html_()
    parsed = _Cells()
    parsed.feed(page)
    assert parsed.tags[0][0] == "div" and "max-width:1000px" in parsed.tags[0][1]["style"], "a notebook cell's width"
    assert {t for t, _ in parsed.tags} <= {"div", "p", "table", "thead", "tbody", "tr", "th", "td"}, parsed.tags
    assert parsed.tables, "no table in the HTML"
    return parsed


def _text_table(text: str, header: list[str]) -> list[str]:
    """The lines of the plain-text table whose header row holds `header`, in order (at least one row)."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.split() and all(h in line for h in header)), None)
    assert at is not None, f"no table headed {header} in:\n{text}"
    rows = []
    for line in lines[at + 1:]:
        if not line.startswith("  ") or not line.strip():
            break
        rows.append(line)
    assert rows, f"the table headed {header} has no rows:\n{text}"
    return rows


@functools.cache
def _results():
    return simulate("duck-duck-bruce", None, "heuristic", games=60, seed=1, **FAST)


def test_simulate_results_show_a_seat_table_with_intervals_as_text_and_html():
    res = _results()
    text = repr(res)
    assert text == str(res) and not text.startswith("<Results")
    rows = _text_table(text, ["seat", "bot", "win rate", "95% CI", "mean score"])
    assert len(rows) == 4 and all(INTERVAL.search(r) for r in rows)
    seats = res.summary().seats  # the same figures as the full summary
    assert f"{100 * seats['win_rate'][0]:.1f}%" in rows[0] and f"{seats['score_high'][3]:.2f}" in rows[3]
    cells = _html(res).tables[0]
    assert cells[0] == ["seat", "bot", "win rate", "95% CI", "mean score", "95% CI"]
    assert [r[0] for r in cells[1:]] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert all(INTERVAL.fullmatch(r[3]) for r in cells[1:])


def test_a_summary_only_run_shows_the_same_table_as_the_full_results():
    totals = simulate("duck-duck-bruce", None, "heuristic", games=60, seed=1, keep="summary", **FAST)
    assert repr(totals) == repr(_results())
    assert _html(totals).tables == _html(_results()).tables


def test_the_summary_shows_every_table_in_html_as_in_its_text():
    summary = _results().summary(["steals_tried"])
    parsed = _html(summary)
    text = str(summary)
    assert repr(summary) == text
    assert len(parsed.tables) == text.count("\n  seat ") + text.count("\n          mean") + text.count("\n  measure ")
    assert parsed.tables[0][0][:3] == ["seat", "bot", "win rate"] and any(t[0][0] == "measure" for t in parsed.tables)


def test_results_show_themselves_without_pandas():
    """The site's Python has no pandas: a Results and a compare there show the same tables."""
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "from meeple.rules import simulate, bucket_brigade as bb\n"
        "from meeple.rules.workbench import compare_run\n"
        "res = simulate('duck-duck-bruce', None, 'heuristic', games=60, seed=1, workers=1, progress=False)\n"
        "print(repr(res)); print('=====')\n"
        "cmp = compare_run('bucket-brigade', {'base': bb.Config(), 'b6': bb.Config(bonus=6)}, 'heuristic', games=20,"
        " seed=1, workers=1, progress=False)\n"
        "print(type(cmp.table).__name__); print(repr(cmp.table)); print(cmp.table._repr_html_()[:30])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    res_text, cmp_text = done.stdout.split("=====\n")
    assert res_text.rstrip("\n") == repr(_results())
    kind, rest = cmp_text.split("\n", 1)
    assert kind == "Rows"
    table = compare("bucket-brigade", {"base": bb.Config(), "b6": bb.Config(bonus=6)}, "heuristic", games=20, seed=1,
                    **FAST)
    assert rest.startswith(repr(table)) and '<div class="meeple-result"' in rest


def test_compare_shows_a_readable_table_and_stays_a_dataframe():
    """pandas truncated compare's 40-odd columns; its display is compare's own table (escaped)."""
    import pandas as pd

    table = compare("bucket-brigade", {"base": bb.Config(), "<b>big & bold</b>": bb.Config(bonus=6)}, "heuristic",
                    games=20, seed=1, **FAST)
    assert isinstance(table, pd.DataFrame) and len(table.columns) > 30  # the DataFrame API, every column
    assert type(table[table["seat"] == 0]) is pd.DataFrame and table["win_rate"].between(0, 1).all()
    text = repr(table)
    assert "..." not in text and text == str(table)
    rows = _text_table(text, ["variant", "seat", "win rate", "95% CI", "vs baseline"])
    assert len(rows) == 8 and all(INTERVAL.search(r) for r in rows)
    page = table._repr_html_()
    assert "<b>" not in page and "&lt;b&gt;big &amp; bold&lt;/b&gt;" in page
    cells = _html(table).tables[0]
    assert cells[0][:4] == ["variant", "seat", "win rate", "95% CI"] and cells[5][0] == "<b>big & bold</b>"
    assert all(INTERVAL.fullmatch(r[3]) for r in cells[1:])


def test_sweep_shows_a_row_per_point_and_seat_with_intervals():
    import pandas as pd

    table = sweep("bucket-brigade", None, {"bonus": [0, 6]}, "heuristic", games=20, seed=1, **FAST)
    assert isinstance(table, pd.DataFrame) and "win_low" in table.columns
    rows = _text_table(repr(table), ["bonus", "seat", "bot", "win rate", "95% CI", "turns"])
    assert len(rows) == 8 and rows[0].split()[0] == "0" and rows[-1].split()[0] == "6"
    cells = _html(table).tables[0]
    assert cells[0][:3] == ["bonus", "seat", "bot"] and len(cells) == 9
    assert all(INTERVAL.fullmatch(r[4]) for r in cells[1:])


def test_tune_shows_its_answer_and_the_table_of_every_value():
    t = tune("bucket-brigade", None, "bonus", "ender_win_rate", 0.5, "heuristic", games=20, seed=1,
             values=[2, 4, 6], **FAST)
    text = repr(t)
    assert text == str(t) and text.startswith(t.message)
    rows = _text_table(text, ["bonus", "value", "low", "high", "distance"])
    assert [r.split()[0] for r in rows] == ["2", "4", "6"]
    cells = _html(t).tables[0]
    assert cells[0][:5] == ["bonus", "value", "low", "high", "distance"] and len(cells) == 4


def test_a_two_number_tune_shows_every_setting():
    t = tune("bucket-king", bk.Config(players=3), ("pyramid_base", "hand_size"), "turns", 60, "heuristic", games=6,
             seed=1, values=[[3, 4], [8, 9]], **FAST)
    rows = _text_table(repr(t), ["pyramid_base", "hand_size", "value", "kept"])
    assert len(rows) == 4
    cells = _html(t).tables[0]
    assert cells[0][:3] == ["pyramid_base", "hand_size", "value"] and len(cells) == 5


def test_balance_report_shows_its_tables():
    report = balance_report("piggyback-brigade", None, "heuristic", games=40, seed=1, **FAST)
    text = repr(report)
    assert text == str(report)
    rows = _text_table(text, ["seat", "win rate", "95% CI"])
    assert [r.split()[:2] for r in rows[:4]] == [["Player", str(s)] for s in range(1, 5)]
    assert all(INTERVAL.search(r) for r in rows[:4])
    parsed = _html(report)
    heads = [t[0] for t in parsed.tables]
    assert ["seat", "win rate", "95% CI"] in heads and ["leader after", "games", "leader wins", "95% CI"] in heads


@pytest.mark.parametrize("kind", ["results", "summary"])
def test_no_game_finished_shows_one_line_not_an_empty_table(kind):
    res = simulate("duck-duck-bruce", None, "heuristic", games=5, seed=1, **FAST)
    res.records = []  # as a run interrupted before its first game ended
    obj = res if kind == "results" else res.summary()
    assert str(obj).endswith("No game finished.") and "No game finished." in obj._repr_html_()

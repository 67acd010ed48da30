"""meeple.course.site.runtime.cells: a lesson's cells as the site's browser runs them (issue 24 item 3)."""

from __future__ import annotations

import json

from meeple.course.site.runtime.cells import Page


def test_a_cell_prints_and_shows_its_last_value_as_jupyterlab_does():
    p = Page()
    r = json.loads(p.run("x = 6\nprint('six')\nx * 7"))
    assert r == {"out": "six\n42\n", "error": ""}
    assert json.loads(p.run("x + 1"))["out"] == "7\n"  # one namespace, like a kernel
    err = json.loads(p.run("y = 1\n1 / 0"))["error"]
    assert err == "ZeroDivisionError: division by zero (line 2 of your cell)"
    assert json.loads(p.run("def f(:"))["error"].startswith("SyntaxError")


def test_prepare_runs_only_what_the_cell_needs_of_the_lesson_above_once():
    above = [
        "import math\nslow = []\nrates = []\nfor k in range(3):\n    rates.append(k)\nchart = draw(rates)",
        "n = len(rates)\nshown = 'prose only'",
    ]
    p = Page()
    r = json.loads(p.prepare(above, "check(n + math.floor(0.5))"))
    # the imports, rates (made, then changed in place by the loop) and n; not `slow`, `chart` or `shown`
    assert r == {"ran": 4, "skipped": []}
    assert p.namespace["n"] == 3 and "slow" not in p.namespace and "chart" not in p.namespace
    assert "shown" not in p.namespace
    assert json.loads(p.prepare(above, "n"))["ran"] == 0  # run once


def test_what_cannot_run_in_the_browser_is_skipped_and_named_when_it_is_needed():
    p = Page()
    missing = "raise ModuleNotFoundError(\"No module named 'pandas'\", name='pandas')"
    above = [f"def pd_table():\n    {missing}\nhalf = pd_table()\nok = 1"]
    r = json.loads(p.prepare(above, "print(ok, half)"))
    assert r["skipped"] == ["it needs pandas, which Python in the browser does not have"]
    err = json.loads(p.run("print(ok, half)"))["error"]
    assert "'half' is not defined here" in err and "pandas" in err
    err = json.loads(p.run(missing))["error"]
    assert err.startswith("pandas is not available here: Python in your browser is Pyodide's core")


def test_a_statement_that_lacked_a_name_runs_again_when_a_later_cell_needs_it():
    above = ["total = 0", "for k in range(4):\n    total += k"]
    p = Page()
    p.prepare(above[1:], "k")  # the loop alone: `total` is not there yet
    assert "total" not in p.namespace
    p.prepare(above, "total")
    assert p.namespace["total"] == 6


def test_a_last_check_call_shows_its_words_not_a_bare_true():
    p = Page()
    p.run("def check(key, answer):\n    print('✓ Right: yes')\n    return True")
    assert json.loads(p.run("check('01.x', 1)"))["out"] == "✓ Right: yes\n"
    assert json.loads(p.run("1 == 1"))["out"] == "True\n"  # any other value is shown

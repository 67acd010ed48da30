"""meeple.course.site.runtime.cells: a lesson's cells as the site's browser runs them (issue 24 item 3)."""

from __future__ import annotations

import json
import sys

import meeple.widgets
from meeple.course.site.runtime import transport
from meeple.course.site.runtime.cells import Page
from meeple.rules import bucket_brigade as bb
from meeple.widgets.session import StepperSession


def test_a_cell_prints_and_shows_its_last_value_as_jupyterlab_does():
    p = Page()
    r = json.loads(p.run("x = 6\nprint('six')\nx * 7"))
    assert r == {"out": "six\n42\n", "error": "", "needs": "", "widget": None}
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


def _without(monkeypatch, *modules):
    """The page's Python: these modules are not there (as in the site's Pyodide core). The page
    then puts its Stepper in meeple.widgets (for good, in the browser); here it goes at teardown."""
    monkeypatch.setattr(meeple.widgets, "Stepper", None, raising=False)
    monkeypatch.delattr(meeple.widgets, "Stepper")
    for m in modules:
        monkeypatch.setitem(sys.modules, m, None)


def test_a_from_import_gives_the_names_the_page_has_and_says_which_it_lacks(monkeypatch):
    """`from m import a, b` where b cannot come still binds a (issue 38: lesson 1's setup cell
    imports the Stepper beside altair's charts)."""
    _without(monkeypatch, "altair", "anywidget", "pandas")
    monkeypatch.delitem(sys.modules, "meeple.widgets.charts", raising=False)
    monkeypatch.delattr(meeple.widgets, "charts", raising=False)  # a test before may have imported it
    p = Page()
    r = json.loads(p.context("from meeple.rules import stats, simulate\nfrom meeple.widgets import Stepper, charts"))
    assert len(r["skipped"]) == 1 and "altair" in r["skipped"][0]
    assert "Stepper" in p.namespace and "charts" not in p.namespace
    r = json.loads(p.run("charts.offline()"))
    assert r["needs"] == "altair" and "could not run in the browser" in r["error"]
    r = json.loads(p.run("import pandas as pd"))
    assert r["needs"] == "pandas" and "pandas is not available here" in r["error"]


def test_the_pages_stepper_is_the_game_as_text_and_the_page_draws_it_live(monkeypatch):
    """In the page's Python a worked example's `Stepper(...)` is the Stepper's own session: its
    text shows whose turn and the moves, and run() hands the page its setup to draw it live."""
    _without(monkeypatch, "anywidget")
    p = Page()
    r = json.loads(p.run("from meeple.widgets import Stepper\n"
                         "from meeple.rules import bucket_brigade as bb\n"
                         "game = Stepper('bucket-brigade', bb.Config(rounds=1), seed=11, bots='random', seat=0)\n"
                         "game"))
    assert r["error"] == ""
    assert r["widget"]["setup"] == StepperSession("bucket-brigade", bb.Config(rounds=1), 11, "random", 0).setup()
    text = r["widget"]["text"]  # shown only where the page cannot draw the game (as JupyterLab shows the widget)
    assert r["out"] == "" and "Your turn: choose what to do." in text and "Your moves: blue +1" in text
    # the page's widget drives the cell's own game: a move there is the game's next state here
    sid = r["widget"]["id"]
    view = transport.send_message(sid, {"do": "act", "action": "blue +2"})["view"]
    assert view["step"] == 1 and p.namespace["game"].actions == ["blue +2"]
    r = json.loads(p.run("game.play_until_your_turn()\ngame"))
    assert "Player 1 plays blue +2" in r["widget"]["text"] and r["widget"]["id"] == sid  # the same game, redrawn
    assert r["widget"]["view"]["view"]["step"] == 4


def test_the_widget_stays_the_widget_where_anywidget_is_there():
    """Only the page without anywidget gets the text Stepper: a notebook's Stepper is the anywidget."""
    Page()
    from meeple.widgets import Stepper

    assert Stepper.__module__ == "meeple.widgets.stepper"


def test_a_stepper_with_a_bot_written_in_the_lesson_is_text_not_a_widget(monkeypatch):
    """The browser cannot rebuild a bot that is a Python function of the lesson: such a game is shown as text."""
    _without(monkeypatch, "anywidget")
    p = Page()
    r = json.loads(p.run("from meeple.widgets import Stepper\n"
                         "def lazy(state, actions, rng):\n    return actions[0]\n"
                         "Stepper('bucket-brigade', seed=3, bots=[lazy], seat=0)"))
    assert r["error"] == "" and r["widget"] is None and "Your turn" in r["out"]

"""Every exercise of the course as the site's browser test edits it: a wrong answer and a right one.

The right answer is the lesson's own solution cell where it runs on the standard library
(the site's Pyodide is the npm core: no pandas, numpy or altair); where the solution reads
a pandas table, BROWSER_SOLUTIONS holds the same solution written on meeple's
standard-library evidence (`Evidence.play`, `.rows()`, `.records`), which the checkers take
as they take a `simulate(...)` Results. CANNOT lists the exercises whose question itself
needs pandas in the browser, and why: there the page must say so plainly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = "solution"

BROWSER_SOLUTIONS = {
    "01.ender": '''from meeple.course.exercises import Evidence

six = Evidence.play("bucket-brigade", Config(rounds=1, bonus=6), "random", games=600, seed=1)
enders = [r for r in six.rows() if r["rounds_ended"] == 1]
ender_interval = stats.wilson(sum(r["won"] for r in enders), len(enders))
check("01.ender", (ender_interval, six))
''',
    "14.cycle": '''from meeple.rules import stats
from meeple.course.exercises import Evidence

runs, sure = [], set()
for i, a in enumerate(thresholds):
    for b in thresholds[i + 1:]:
        ev = Evidence.play("duck-duck-bruce", duel_rules, [a, b], games=meetings, seed=robin_seed, rotate=True)
        runs.append(ev)
        for x, y in ((a, b), (b, a)):
            shares = [1 / len(g.winners) if g.bots.index(x) in g.winners else 0.0 for g in ev.records]
            if stats.wilson(sum(shares), len(shares))[0] > 0.5:
                sure.add((x, y))
found = cycles(sure)
cycle = found[0] if found else []
check("14.cycle", (runs, sorted(sure), cycle))
''',
}

CANNOT: dict = {}  # every exercise runs in the browser: 06.catchup, 12.ender_bonus and 21.tuned on Evidence.play


@dataclass
class Exercise:
    lesson: str
    index: int  # among the lesson's exercise cells
    key: str  # the first check(...) key in the cell
    checks: int  # how many check(...) calls it makes
    stub: str
    solution: str | None

    @property
    def wrong(self) -> str:
        """The cell with every `...` (the blanks) filled with 0: each check says ✗."""
        return self.stub.replace("...", "0")

    @property
    def right(self) -> str | None:
        return BROWSER_SOLUTIONS.get(self.key, self.solution)


def exercises(lesson: str) -> list[Exercise]:
    nb = json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())
    cells = nb["cells"]
    out = []
    for i, c in enumerate(cells):
        src = "".join(c["source"])
        tags = c.get("metadata", {}).get("tags", [])
        if c["cell_type"] != "code" or "check(" not in src or SOLUTION in tags:
            continue
        keys = re.findall(r'check\("([^"]+)"', src)
        # its solution: the first solution cell below that checks the same key (a cell of the
        # lesson's own may stand between them, as lesson 7's count of the student's deck does)
        solution = None
        for d in cells[i + 1:]:
            code, tagged = "".join(d["source"]), SOLUTION in d.get("metadata", {}).get("tags", [])
            if d["cell_type"] == "code" and tagged and f'check("{keys[0]}"' in code:
                solution = code
                break
            if d["cell_type"] == "code" and not tagged and "check(" in code:
                break  # the next exercise
        out.append(Exercise(lesson, len(out), keys[0], len(keys), src, solution))
    return out


def lessons_with_exercises() -> list[str]:
    return [p.stem for p in sorted((ROOT / "lessons").glob("*.ipynb")) if exercises(p.stem)]


def type_code(page, cell, code: str) -> None:
    """Replace the code of a site exercise `cell` with `code`, typed into its editor as text input
    (the editor opens first if it is not open), and mark the cell "static", so that the next
    data-meeple-cell="done" is the next run's. The caller presses Run."""
    if cell.locator(".cm-content").count() == 0:
        cell.locator(".meeple-cell-edit").click()
        cell.locator(".cm-content").wait_for()
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)
    cell.evaluate("c => { c.dataset.meepleCell = 'static'; }")

"""`student("name")` at any point of a lesson (issue 34): in its first cell, or just before each
exercise (again before the next: twice), every prompt shows that student's numbers and every
solution passes its check, because the cells read their numbers for the student in use when
they run (`live_numbers`, `live_params`: meeple.course.exercises.numbers.LiveNumbers).

Lessons 15-21 read their numbers once, at the top; each runs twice here, one kernel a run:
Ada Lovelace from the first cell, Alan Turing from just before each exercise (the lesson's
teaching cells above ran with the lesson's own numbers). The slow tier: it executes lessons.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from meeple.course import exercises as ex
from meeple.course.exercises import numbers

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
FIRST, BEFORE = "Ada Lovelace", "Alan Turing"
LIVE = ["15_bayes_win_rate", "16_sums_of_dice", "17_order_statistics", "18_mixed_strategies",
        "19_streaks", "20_elimination", "21_first_seat"]
# the lessons' numbers as their cells read them: ex15['prior'] (15-18), numbers["flipped"] or its alias n (19-21)
READS = re.compile(r"""\b(?:ex1[5-8]|numbers|n)\[\s*['"](\w+)['"]\s*\]""")


def _numbers(lesson: str, who: str) -> dict:
    """What the lesson's cells read for `who`: {name: value}."""
    with ex.as_student(who):
        n = int(lesson)
        return dict(numbers.lesson_numbers(n) if n >= 19 else numbers.PARAMS[lesson])


def _src(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _is_prompt(cell, names) -> bool:
    """A cell that states an exercise's numbers: say(...) reading one of the lesson's numbers, not a solution."""
    src = _src(cell)
    return (cell["cell_type"] == "code" and "solution" not in cell.get("metadata", {}).get("tags", [])
            and "say(" in src and bool(set(READS.findall(src)) & set(names)))


def _text(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        d = o.get("data", {})
        out += ["".join(o.get("text", "")), "".join(d.get("text/markdown", "")), "".join(d.get("text/plain", ""))]
    return "\n".join(out)


def _run(name: str, who: str, where: str, names) -> list[dict]:
    """The lesson run top to bottom in a kernel of its own, with `student(who)` inserted as its
    first cell (`where="first"`) or before each prompt cell (`where="before"`); its cells with outputs."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(LESSONS / f"{name}.ipynb", as_version=4)
    call = f"from meeple.course.exercises import student\nstudent({who!r})"
    cells = []
    for cell in nb.cells:
        if where == "before" and _is_prompt(cell, names):
            cells.append(nbformat.v4.new_code_cell(call))
        cells.append(cell)
    if where == "first":
        cells.insert(0, nbformat.v4.new_code_cell(call))
    nb.cells = cells
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(LESSONS)}}).execute()
    return json.loads(nbformat.writes(nb))["cells"]


@pytest.mark.parametrize("name", LIVE)
@pytest.mark.parametrize("who, where", [(FIRST, "first"), (BEFORE, "before")])
def test_student_at_any_point_gets_their_prompts_and_their_checks_pass(name, who, where, monkeypatch):
    monkeypatch.delenv("MEEPLE_STUDENT", raising=False)  # the kernel starts with the lesson's own numbers
    lesson = name[:2]
    mine, default = _numbers(lesson, who), _numbers(lesson, None)
    assert mine != default, f"{who} has the lesson's own numbers in {name}: this run would prove nothing"
    cells = _run(name, who, where, mine)
    prompts = [c for c in cells if _is_prompt(c, mine)]
    assert prompts, f"{name} has no prompt cell"
    shown = 0
    for cell in prompts:
        text = _text(cell)
        for key in READS.findall(_src(cell)):
            value = mine.get(key)
            if isinstance(value, (int, str, Fraction)) and not isinstance(value, bool):
                assert str(value) in text, f"{name}: the prompt shows no {key}={value!r} for {who}: {text[:300]}"
                shown += 1
    assert shown, f"{name}: no prompt showed one of {who}'s numbers"
    solutions = "\n".join(_text(c) for c in cells if "solution" in c.get("metadata", {}).get("tags", []))
    checks = sum(_src(c).count("check(") for c in cells if "solution" in c.get("metadata", {}).get("tags", []))
    assert checks and solutions.count("✓") >= checks, f"{name} as {who} ({where}): {solutions[:2000]}"
    assert "Not yet" not in solutions and "Traceback" not in solutions, solutions[:2000]

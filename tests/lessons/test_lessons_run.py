"""What the lessons show when they run (issue 23), executed: no exercise's answer appears before the
exercise asks for it (read from this session's nbval run of each lesson, or the lesson run here),
and a second student runs the lessons with per-student numbers and passes with their own.

The slow tier: every test here runs lessons in a kernel. Their structure (no outputs, the prose
rule, the checkers' verdicts) is tests/course/test_lessons.py's.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from meeple.course import exercises as ex

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
NOTEBOOKS = sorted(p for p in LESSONS.glob("*.ipynb"))
_CHECK = re.compile(r"""\bcheck\(\s*["'](\d\d\.[\w.]+)["']""")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.name)
def lesson(request) -> Path:
    return request.param


# --- an exercise asks for what the lesson has not shown (issue 23) --------------------------------

# a sampled exercise's answer is the student's own interval (its exact value is the point of comparison)
_OWN_ANSWER = {"01.ender", "10.three_red_sampled", "17.rounds", "20.wait"}
# a design exercise: the key's rule is one of many that pass (its checker measures the student's own)
_OPEN = {"06.catchup"}
# answers that are words, not numbers: the sentences that would give them away
_SAID = {"14.cycle": ["contain no cycle", "there is a cycle"]}


def answer_forms(key: str) -> list[str]:
    """How a reader would recognise exercise `key`'s answer in a lesson: the Fraction, its decimal
    to 3 significant digits (and to 2 decimals), a chance as a percentage to 3 digits, a whole
    number from 13 up (smaller ones are everywhere), and for a choice the sentences in _SAID."""
    if key in _OWN_ANSWER:
        return own_interval_forms(key)
    if key in _SAID:  # a choice: its sentences (working the answer out, e.g. 14.cycle's round-robin, adds no form)
        return list(_SAID[key])
    a = ex.answer(key)
    out = list(_SAID.get(key, []))
    values = a if isinstance(a, tuple) and all(isinstance(v, (int, float, Fraction)) for v in a) else (a,)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)):
            continue
        if isinstance(v, float) or Fraction(v).denominator != 1:
            x = float(v)
            out += [str(v)] if isinstance(v, Fraction) else []
            out += [f"{x:.3g}", f"{x:.2f}"]
            out += [f"{100 * x:.3g}%"] if 0 < x < 1 else []
        elif abs(int(v)) >= 13:
            out.append(str(int(v)))
    return list(dict.fromkeys(out))


# sampled exercises whose key is the interval the solution's own games give (the student's own
# numbers): a lesson that ran that very question on those seeds before asking would show it
_OWN_INTERVAL = {"17.rounds", "20.wait"}


def own_interval_forms(key: str) -> list[str]:
    """For a key in _OWN_INTERVAL, the key's interval as the lessons write one ("1.69 to 1.83", to
    2 and 3 decimals); nothing for the other sampled exercises (their answer is the student's)."""
    if key not in _OWN_INTERVAL:
        return []
    low, high = ex.answer(key)
    return [f"{low:.2f} to {high:.2f}", f"{low:.3f} to {high:.3f}"]


def _shown(cell: dict) -> str:
    text = _src(cell) if cell["cell_type"] == "markdown" else ""
    for o in cell.get("outputs", []):
        d = o.get("data", {})
        for part in (o.get("text", ""), d.get("text/markdown", ""), d.get("text/plain", "")):
            text += "".join(part) + "\n"
    return text


def _appears(form: str, text: str) -> bool:
    return re.search(r"(?<![\w./])" + re.escape(form) + r"(?![\w/]|\.\d)", text) is not None


def answers_shown_early(cells: list[dict], only: "set[str] | None" = None) -> list[str]:
    """(exercise, form, cell) for every answer that a student's copy shows before the exercise asks
    for it: in markdown or an output of an earlier cell that is not a solution (`meeple scrub`
    removes those). `only`: these exercises alone."""
    found = []
    for i, c in enumerate(cells):
        if c["cell_type"] != "code" or "solution" in _tags(c):
            continue
        for key in _CHECK.findall(_src(c)):
            if only is not None and key not in only:
                continue
            for j, before in enumerate(cells[:i]):
                if "solution" in _tags(before):
                    continue
                found += [f"{key}: {form!r} in cell {j}" for form in answer_forms(key) if _appears(form, _shown(before))]
    return found


def test_answers_shown_early_are_found():
    md = lambda s: {"cell_type": "markdown", "source": s, "metadata": {}}
    code = lambda s, out="", *tags: {"cell_type": "code", "source": s, "metadata": {"tags": list(tags)},
                                     "outputs": [{"output_type": "stream", "text": out}]}
    third = ex.answer("07.third")
    assert answers_shown_early([md("no numbers"), code("x = 1", f"the chance is {third}"),
                                code('check("07.third", x)')]) == [f"07.third: '{third}' in cell 1"]
    assert answers_shown_early([code("x", f"{float(third):.3g}", "solution"), code('check("07.third", x)')]) == []
    assert answers_shown_early([code('check("07.third", x)'), md(f"it was {third}")]) == []
    assert answer_forms("07.third") == ["1/4", "0.25", "25%"]
    low, high = ex.answer("17.rounds")  # a sampled key: the solution's own interval, as a sentence would say it
    said = code("runs = simulate(...)", f"races last 1.78 rounds ({low:.2f} to {high:.2f})")
    assert answers_shown_early([said, code('check("17.rounds", (x, y))')]) == [
        f"17.rounds: '{low:.2f} to {high:.2f}' in cell 0"]


def _executed(path: Path, nbval_cells: "dict | None" = None, student: "str | None" = None,
              kernel=None) -> list[dict]:
    """The lesson run top to bottom, its cells with their outputs: nbval's run of this session when
    it has one (`nbval_cells`, from conftest's `nbval_run`), else the lesson executed here (as
    student `student`, through MEEPLE_STUDENT, when one is given; in `kernel`, a running
    kernel manager started as that student, when one is given: see `student_kernel`)."""
    cells = _cells(path)
    if nbval_cells is not None and student is None:
        code = [c for c in cells if c["cell_type"] == "code"]
        for n, c in enumerate(code):
            c["outputs"] = nbval_cells[n]
        return cells
    import os

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError

    if kernel is not None:
        return _executed_in(kernel, path)

    # A cell of a lesson runs in seconds (nbval checks each lesson under a minute). On a loaded
    # machine a kernel message was seen lost: kernel and client both idle (py-spy), the client
    # waiting for a reply forever. So: a generous per-cell cap, and one fresh kernel if it hits;
    # a lesson that really hangs still fails, on the second kernel.
    old = os.environ.pop("MEEPLE_STUDENT", None)
    if student is not None:
        os.environ["MEEPLE_STUDENT"] = student
    try:
        for attempt in (1, 2):
            nb = nbformat.read(path, as_version=4)
            try:
                NotebookClient(nb, timeout=180, kernel_name="python3",
                               resources={"metadata": {"path": str(LESSONS)}}).execute()
                break
            except CellTimeoutError:
                if attempt == 2:
                    raise
    finally:
        os.environ.pop("MEEPLE_STUDENT", None)
        if old is not None:
            os.environ["MEEPLE_STUDENT"] = old
    return json.loads(nbformat.writes(nb))["cells"]


@pytest.mark.after_lessons
def test_no_exercise_answer_is_shown_before_it_is_asked(lesson, nbval_run):
    """Each exercise's answer (answer_forms) appears in no markdown or output before the exercise.
    The outputs are those of this session's nbval run of the lesson (one execution per lesson),
    or of the lesson executed here when nbval did not run it."""
    cells = _executed(lesson, nbval_run(lesson))
    shown = answers_shown_early(cells)
    assert not shown, f"{lesson.name}: {shown}"
    # every other student sees the same cells but for those that state their numbers (questions,
    # not answers): their own answers must not show in them either
    for sid in LEAK_IDS:
        with ex.as_student(sid):
            shown = answers_shown_early(cells, only=ex.VARIED)
        assert not shown, f"{lesson.name} for {sid!r}: {shown}"


LEAK_IDS = [f"student {i:02d}" for i in range(30)]


def test_executed_reads_nbval_outputs_in_cell_order(tmp_path):
    """_executed puts nbval's outputs on the lesson's code cells in order, markdown untouched."""
    book = tmp_path / "99_x.ipynb"
    book.write_text(json.dumps({"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "# x"},
        {"cell_type": "code", "metadata": {}, "source": "1", "outputs": [], "execution_count": None},
        {"cell_type": "code", "metadata": {}, "source": "2", "outputs": [], "execution_count": None}]}), encoding="utf-8")
    out = _executed(book, {0: [{"output_type": "stream", "text": "one"}], 1: [{"output_type": "stream", "text": "two"}]})
    assert [c.get("outputs") for c in out] == [None, [{"output_type": "stream", "text": "one"}],
                                               [{"output_type": "stream", "text": "two"}]]
    assert answers_shown_early(out) == []


# --- a second student: their own numbers, solutions that agree with `meeple answers` ------------------

SECOND_STUDENT = "Alan Turing"
# the lessons whose exercises take per-student numbers (lesson 7 has its own two-student test;
# lesson 13's numbers are its position, so the whole of section 2 is the student's;
# lessons 8, 10 and 14-21's per-student exercises are checked over thirty ids through their checkers)
STUDENT_LESSONS = ["01_first_interval", "02_one_die", "03_rerolls", "04_markov_race", "05_how_many_games",
                   "06_catch_up", "09_risk", "11_cascades", "12_design_to_a_target", "13_timing"]
# lesson 8's nest (exercise 2) and lesson 14's die D are the student's too: their solution cells work them
# out from the student's numbers
STUDENT_LESSONS += ["08_push_your_luck", "14_skill_luck_intransitivity"]
STUDENT_LESSONS += ["22_two_variants"]  # issue 40: both exercises exact, from the student's numbers


def _key_forms(value) -> "list[list[str]]":
    """How a checker's confirmation may state an answer, part by part (each part: its forms, one
    must appear): a Fraction as itself or a decimal, a float to two or three decimals, a whole
    number or a tuple of faces as itself."""
    if isinstance(value, tuple) and not all(isinstance(v, int) for v in value):
        return [f for v in value for f in _key_forms(v)]
    if isinstance(value, Fraction) and value.denominator != 1:
        x = float(value)
        return [[str(value), f"{x:.4f}", f"{x:.3f}", f"{x:.2f}", f"{x:.1%}"]]
    if isinstance(value, float):
        return [[f"{value:.3f}", f"{value:.2f}"]]
    return [[str(value)]]


@pytest.fixture(scope="module")
def student_kernel():
    """One kernel, started as SECOND_STUDENT (MEEPLE_STUDENT), for every lesson the second student
    runs. Each lesson starts as after a restart but for the imported modules (RESET, its first
    cell: the last lesson's widgets closed, the shared process pool and whatever an Explorer
    still played in the background ended, the namespace emptied), so it pays for its own cells,
    not for a new kernel and pandas', Altair's and meeple's imports again (nine lessons: 445 s
    loaded with a kernel each). A fresh kernel per lesson is nbval's job: it runs every lesson in
    a kernel of its own, which catches a lesson that leans on a name it did not define or import."""
    import os

    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync

    km = AsyncKernelManager(kernel_name="python3")
    old = os.environ.get("MEEPLE_STUDENT")
    os.environ["MEEPLE_STUDENT"] = SECOND_STUDENT  # the kernel's environment, kept over a restart
    try:
        run_sync(km.start_kernel)(cwd=str(LESSONS))
    finally:
        os.environ.pop("MEEPLE_STUDENT", None)
        if old is not None:
            os.environ["MEEPLE_STUDENT"] = old
    try:
        yield km
    finally:
        run_sync(km.shutdown_kernel)(now=True)


RESET = ("import ipywidgets\nfrom meeple.rules.sim.runner import drop_pool\n"
         "ipywidgets.Widget.close_all()\ndrop_pool(kill=True)\n%reset -f")


def _executed_in(km, path: Path) -> list[dict]:
    """`path` run top to bottom in the running kernel `km`, after RESET; its cells with outputs.
    A lost kernel message (see `_executed`) or a dead kernel: the kernel restarts (as the same
    student) and the lesson runs once more; a lesson that really hangs still fails."""
    import nbformat
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    for attempt in (1, 2):
        if not run_sync(km.is_alive)():
            run_sync(km.restart_kernel)(now=True)
        nb = nbformat.read(path, as_version=4)
        nb.cells.insert(0, nbformat.v4.new_code_cell(RESET))
        client = NotebookClient(nb, km=km, timeout=180, kernel_name="python3",
                                resources={"metadata": {"path": str(LESSONS)}})
        try:
            client.execute()
            break
        except (CellTimeoutError, DeadKernelError):
            if attempt == 2:
                raise
            run_sync(km.restart_kernel)(now=True)
        finally:
            if client.kc is not None:
                client.kc.stop_channels()
    first = nb.cells.pop(0)
    assert first.source == RESET and not first.outputs, first.outputs
    return json.loads(nbformat.writes(nb))["cells"]


def test_a_shared_kernel_starts_each_lesson_from_an_empty_namespace(student_kernel, tmp_path):
    """The second student's shared kernel: a name one notebook defined is gone in the next, so is
    the process pool it played on, and the kernel runs as that student."""
    def book(name: str, *sources: str) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
            {"cell_type": "code", "metadata": {}, "source": src, "outputs": [], "execution_count": None, "id": f"c{i}"}
            for i, src in enumerate(sources)]}), encoding="utf-8")
        return path

    pool = "import builtins\nfrom meeple.rules.sim.runner import shared_pool\n"
    _executed_in(student_kernel, book("a.ipynb", "left_behind = 1", pool + "builtins.meeple_test_pool = shared_pool(1)"))
    out = _executed_in(student_kernel, book("b.ipynb", "print('left_behind' in dir())",
                                            pool + "print(shared_pool(1) is builtins.meeple_test_pool)\n"
                                                   "del builtins.meeple_test_pool",
                                            "import os; print(os.environ.get('MEEPLE_STUDENT'))"))
    assert ["".join(c["outputs"][0]["text"]) for c in out] == ["False\n", "False\n", f"{SECOND_STUDENT}\n"]


@pytest.mark.parametrize("name", STUDENT_LESSONS)
def test_a_second_student_passes_with_their_own_numbers(name, student_kernel):
    """Run the lesson as a second student (MEEPLE_STUDENT; the first is the lesson's own numbers,
    which nbval runs): every solution passes its check, what the checkers confirm is that
    student's `meeple answers` key, and no answer shows before its exercise for them either.
    (One kernel for all of them: `student_kernel`.)"""
    path = LESSONS / f"{name}.ipynb"
    cells = _executed(path, student=SECOND_STUDENT, kernel=student_kernel)
    solutions = "\n".join(_shown(c) for c in cells if "solution" in _tags(c))
    assert "Not yet" not in solutions and "Traceback" not in solutions, solutions[:2000]
    keys = {k for c in cells if c["cell_type"] == "code" and "solution" in _tags(c) for k in _CHECK.findall(_src(c))}
    for key in sorted(keys & ex.VARIED - _OWN_ANSWER - _OPEN):
        for forms in _key_forms(ex.answer(key, SECOND_STUDENT)):
            assert any(f in solutions for f in forms), (name, key, forms)
    with ex.as_student(SECOND_STUDENT):
        shown = answers_shown_early(cells)
    assert not shown, f"{name} as {SECOND_STUDENT}: {shown}"

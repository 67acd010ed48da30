"""A class end to end (issue 37): `meeple class new` for 30 students, lessons 07 and 14 solved by
their own solution cells for every student's code and every lesson for three of them, two students
who copy each other, one who guesses, one who submits nothing; `meeple grade` gives a CSV whose
every row is what each did. And lesson 6's chart data, read from its cells run.

The slow tier: it executes lessons. The solution cells run in-process in one IPython shell (as a
kernel runs them: check() saves its answer in the cell's output metadata), only the cells the
lesson's solutions need (a cell that only draws a chart is left out), so 30 students cost about
4 s each, not a kernel each. The class's key and codes without a lesson run are
tests/course/test_grading.py's (the fast tier).
"""

from __future__ import annotations

import ast
import contextlib
import csv
import io
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from harness import close_shell, new_class

from meeple.course import classroom
from meeple.course.submission import record
from meeple.rules.cli import main
from meeple.course import exercises as ex

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
ROSTER = [f"Student {i:02d}" for i in range(30)]
HONEST = ROSTER[:27]  # Student 25 names themself in the notebook's metadata, not by folder
EVERY_LESSON = ROSTER[:3]  # these three hand in every lesson, the rest lessons 07 and 14
COPIER, GUESSER, ABSENT = ROSTER[27], ROSTER[28], ROSTER[29]  # Student 27 hands in Student 26's notebooks
MUTATORS = {"append", "extend", "update", "add", "pop", "remove", "insert", "clear", "setdefault", "sort"}


def _names(src: str) -> "tuple[set, set]":
    """(names a cell binds or changes in place, names it reads)."""
    tree = ast.parse(src)
    bound, read = set(), set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            (bound if isinstance(n.ctx, (ast.Store, ast.Del)) else read).add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            bound.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in n.names}
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
              and n.func.attr in MUTATORS):
            bound.add(n.func.value.id)
        elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name):
            bound.add(n.value.id)
    return bound, read


def _needed(cells: "list[tuple[str, list]]", solutions: bool = True) -> "list[int]":
    """The cells the solution cells that call check() need (`solutions=False`: the other cells that
    call check(), a student copy's exercise cells): each, and for every name it reads the latest cell
    before it that binds that name (and that cell's own needs)."""
    info = [_names(src) for src, _ in cells]
    keep = {i for i, (src, tags) in enumerate(cells) if ("solution" in tags) == solutions and "check(" in src}
    todo = list(keep)
    while todo:
        i = todo.pop()
        for name in info[i][1] - info[i][0]:
            for j in range(i - 1, -1, -1):
                if name in info[j][0]:
                    if j not in keep:
                        keep.add(j)
                        todo.append(j)
                    if name not in info[j][1]:
                        break  # bound here from scratch: earlier cells do not matter for it
    return sorted(keep)


@contextlib.contextmanager
def _shell():
    """An IPython shell in this process (check() then shows and saves its answer as in a kernel),
    cleared afterwards: a shell left behind would make every later test's check() display, not print."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.reset()
    try:
        yield shell
    finally:
        close_shell(shell)
        InteractiveShell.clear_instance()


def _solve(lesson: str, code: str) -> dict:
    """Lesson `lesson` as student `code` submits it: the notebook with the outputs its solution
    cells (and the cells they need) show in an IPython shell."""
    from IPython.utils.capture import capture_output

    book = next(LESSONS.glob(f"{lesson}_*.ipynb"))
    nb = json.loads(book.read_text(encoding="utf-8"))
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    cells = [("".join(c["source"]), c.get("metadata", {}).get("tags", [])) for c in code_cells]
    with _shell() as shell, ex.as_student(code):
        for i in _needed(cells):
            with capture_output() as cap:
                result = shell.run_cell(cells[i][0], store_history=False)
            if result.error_in_exec:
                raise result.error_in_exec
            code_cells[i]["outputs"] = [{"output_type": "display_data", "data": o.data, "metadata": o.metadata}
                                        for o in cap.outputs]
    return nb


def _student_copy_run(lesson: str, code: str) -> "tuple[dict, str]":
    """Lesson `lesson`'s student copy (`meeple scrub`: no solution cells) as student `code` hands it in
    without answering: its exercise cells (those that call check()) run as the lesson gives them, with
    the cells they need; (the notebook with their outputs, what they showed as text)."""
    from IPython.utils.capture import capture_output

    from meeple.course.scrub import scrub_notebook

    book = next(LESSONS.glob(f"{lesson}_*.ipynb"))
    nb = json.loads(scrub_notebook(book.read_text(encoding="utf-8"), book.name)[0])
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    cells = [("".join(c["source"]), c.get("metadata", {}).get("tags", [])) for c in code_cells]
    shown = []
    with _shell() as shell, ex.as_student(code):
        for i in _needed(cells, solutions=False):
            with capture_output() as cap:
                result = shell.run_cell(cells[i][0], store_history=False)
            if result.error_in_exec:
                raise AssertionError(f"lesson {lesson}'s student copy: a cell run unchanged fails: {result.error_in_exec!r}")
            code_cells[i]["outputs"] = [{"output_type": "display_data", "data": o.data, "metadata": o.metadata}
                                        for o in cap.outputs]
            shown += [cap.stdout] + ["".join(o.data.get("text/markdown", "")) for o in cap.outputs]
    return nb, "\n".join(shown)


@pytest.mark.parametrize("lesson", sorted({b.name[:2] for b in LESSONS.glob("[0-9][0-9]_*.ipynb")}))
def test_every_exercise_cell_run_unchanged_grades_missing(lesson, tmp_path):
    """14.cycle's cell plays the round-robin itself and leaves the verdict as `...`: run unchanged, its
    check() said "✗ Not yet: no answer yet", saved that as an answer, and the gradebook marked the
    exercise "fail", not "missing". Every exercise cell of every lesson's student copy, run as
    given: check() says "No answer yet" for each exercise, saves no answer, and it grades "missing"."""
    from meeple.course import grading

    cls = classroom.ClassKey(bytes(range(32)), ["Ada Lovelace"])
    nb, shown = _student_copy_run(lesson, cls.codes["Ada Lovelace"])
    keys = [k for k in ex.keys() if k.startswith(lesson + ".")]
    assert keys, lesson
    assert shown.count("No answer yet") == len(keys) and "Not yet" not in shown, shown[:2000]
    answers, _ = grading.notebook_answers(json.dumps(nb), "copy")
    assert answers == {}, f"lesson {lesson}'s exercise cells run unchanged saved answers: {sorted(answers)}"
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "Ada Lovelace.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    got = grading.collect(tmp_path / "subs", cls)
    columns, graded = grading.grade(got.subs, cls, flags=got.flags, lessons=got.lessons)
    assert columns == keys and set(graded["Ada Lovelace"]["marks"].values()) == {"missing"}


def _notebook(records: "list[dict]", cell_source: str = "") -> dict:
    """A notebook with one code cell per check() output (`record`'s metadata)."""
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
            "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": cell_source, "execution_count": 1,
                       "outputs": [{"output_type": "display_data", "data": {"text/markdown": "✓ Right"}, "metadata": r}]}
                      for i, r in enumerate(records)]}


@pytest.fixture(scope="module")
def a_class(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    return folder, new_class(folder, ROSTER)


def _expected_copier_marks(cls, columns) -> dict:
    """Student 27 hands in Student 26's notebooks: an exact answer passes where the two answer keys
    agree; 14.cycle's games pass where the two decks and seeds are the same (the same games, the same
    answer)."""
    mine, theirs = cls.codes[COPIER], cls.codes[ROSTER[26]]
    marks = {}
    for key in columns:
        if key == "14.cycle":
            same = _robin_of(mine) == _robin_of(theirs)
        else:
            same = ex.answer(key, mine) == ex.answer(key, theirs)
        marks[key] = "pass" if same else "fail"
    return marks


def _robin_of(code: str) -> tuple:
    """(deck, seed) of a student's round-robin in lesson 14: what 14.cycle's games are played with."""
    mine = ex.exercise_numbers("14", code)
    return mine["cycle_bruces"], mine["cycle_seed"]


def test_a_class_graded_end_to_end(a_class, tmp_path):
    folder, key_path = a_class
    cls = classroom.read_key(key_path)
    subs = tmp_path / "submissions"
    for student in HONEST:
        where = subs / (student if student != "Student 25" else "upload-7731")  # an LMS's name for the folder
        where.mkdir(parents=True)
        for lesson in sorted({b.name[:2] for b in LESSONS.glob("[0-9][0-9]_*.ipynb")}) if student in EVERY_LESSON else ("07", "14"):
            nb = _solve(lesson, cls.codes[student])
            if student == "Student 25":
                nb["metadata"]["meeple"] = {"student": cls.codes[student]}
            (where / f"{lesson}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    shutil.copytree(subs / ROSTER[26], subs / COPIER)
    # the guesser: a half for every exact answer, and one pairing of the round-robin with no cycle;
    # their notebook's code would leave a file behind if anything ran it
    marker = tmp_path / "ran"
    code = cls.codes[GUESSER]
    exact = [k for k in ex.keys() if k[:2] in ("07", "14") and k != "14.cycle"]
    with ex.as_student(code):
        one = ex.Evidence.play("duck-duck-bruce", ex.lesson_14.cycle_rules(), "threshold-1,threshold-2", 150, 1, True)
    guesses = [record(k, Fraction(1, 2), code) for k in exact] + [record("14.cycle", ([one], [], []), code)]
    (subs / f"{GUESSER}.ipynb").write_text(json.dumps(_notebook(guesses, f"open({str(marker)!r}, 'w')")), encoding="utf-8")
    (subs / "stray.ipynb").write_text(json.dumps(_notebook([])), encoding="utf-8")  # names nobody: skipped, said

    out = tmp_path / "grades.csv"
    assert main(["grade", str(subs), "--key", str(key_path), "--out", str(out)]) == 0
    assert not marker.exists()  # the submission's code never ran
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    columns = ex.keys()  # three students handed in every lesson: every exercise is a column
    assert list(rows[0]) == ["Student", *columns, "Total", "Out of", "Flags"] and len(columns) >= 48
    assert [r["Student"] for r in rows] == ROSTER
    by = {r["Student"]: r for r in rows}
    copier = _expected_copier_marks(cls, [k for k in columns if k[:2] in ("07", "14")])
    copied_cycle_fails = copier["14.cycle"] == "fail"  # else equal numbers explain the copied games
    two = [k for k in columns if k[:2] in ("07", "14")]
    # the copier's games for 14.cycle are those of every honest student with Student 26's deck and seed
    same_games = [s for s in HONEST if _robin_of(cls.codes[s]) == _robin_of(cls.codes[ROSTER[26]])]
    for s in HONEST:
        want = {k: "pass" if s in EVERY_LESSON or k in two else "missing" for k in columns}
        assert {k: by[s][k] for k in columns} == want, s
        assert by[s]["Total"] == str(sum(v == "pass" for v in want.values())) and by[s]["Out of"] == str(len(columns))
        flags = [f for f in by[s]["Flags"].split("; ") if f]
        # honest students share games only where their numbers ask for the same ones: never flagged (issue 37)
        assert flags == ([f"identical evidence in 14.cycle with {COPIER}"] if s in same_games and copied_cycle_fails
                         else []), (s, flags)
    assert {k: by[COPIER][k] for k in two} == copier and {by[COPIER][k] for k in columns if k not in two} == {"missing"}
    assert by[COPIER]["Total"] == str(sum(v == "pass" for v in copier.values()))
    assert by[COPIER]["Flags"] == f"answers worked with {ROSTER[26]}'s numbers" + (
        f"; identical evidence in 14.cycle with {', '.join(same_games)}" if copied_cycle_fails else "")
    assert [by[GUESSER][k] for k in two] == ["fail"] * 6 and by[GUESSER]["Total"] == "0" and not by[GUESSER]["Flags"]
    assert {by[ABSENT][k] for k in columns} == {"missing"} and by[ABSENT]["Total"] == "0"
    feedback = (tmp_path / "grades-feedback" / "Student_28.md").read_text(encoding="utf-8")
    assert feedback.startswith(f"# Student 28: 0 of {len(columns)} exercises") and "**14.cycle** (fail): ✗ Not yet: runs should hold" in feedback


def test_lesson_6_page_carries_neither_3_chase_nor_6_boost():
    """Issue 37: lesson 6's chart of each rule's chase (page data on the site) held 03.chase's answer
    (10150/729 as its float) for every gap a student gets, and the two floats whose difference is
    06.boost's: now to 2 decimals, none of them is an answer to the 9 digits a sealed check takes."""
    from meeple.course.exercises import graded

    book = next(LESSONS.glob("06_*.ipynb"))
    cells = [c for c in json.loads(book.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    upto = next(i for i, c in enumerate(cells) if c["id"] == "bbc79b95")
    with _shell() as shell:
        for c in cells[:upto + 1]:
            if "solution" not in c.get("metadata", {}).get("tags", []):
                assert not shell.run_cell("".join(c["source"]), store_history=False).error_in_exec
        spaces = [r["spaces"] for r in shell.user_ns["rows"]]
    answers = {graded.decimal(ex.answer(k, who)) for k in ("03.chase", "06.boost") for who in (None, *[f"s{i}" for i in range(60)])}
    assert len(answers) >= 8
    shown = {graded.decimal(x) for x in spaces} | {graded.decimal(a - b) for a in spaces for b in spaces}
    assert not shown & answers

"""A class end to end (issue 37): `meeple class new` for 30 students, lessons 07 and 14 solved by
their own solution cells for every student's code and every lesson for three of them, two students
who copy each other, one who guesses, one who submits nothing; `meeple grade` gives a CSV whose
every row is what each did.

The solution cells run in-process in one IPython shell (as a kernel runs them: check() saves
its answer in the cell's output metadata), only the cells the lesson's solutions need (a cell
that only draws a chart is left out), so 30 students cost about 4 s each, not a kernel each.
"""

from __future__ import annotations

import ast
import contextlib
import csv
import io
import json
import os
import shutil
import stat
from fractions import Fraction
from pathlib import Path

import pytest

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


def _needed(cells: "list[tuple[str, list]]") -> "list[int]":
    """The cells the solution cells that call check() need: each, and for every name it reads the
    latest cell before it that binds that name (and that cell's own needs)."""
    info = [_names(src) for src, _ in cells]
    keep = {i for i, (src, tags) in enumerate(cells) if "solution" in tags and "check(" in src}
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


def _notebook(records: "list[dict]", cell_source: str = "") -> dict:
    """A notebook with one code cell per check() output (`record`'s metadata)."""
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
            "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": cell_source, "execution_count": 1,
                       "outputs": [{"output_type": "display_data", "data": {"text/markdown": "✓ Right"}, "metadata": r}]}
                      for i, r in enumerate(records)]}


@pytest.fixture(scope="module")
def a_class(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    roster = folder / "roster.csv"
    roster.write_text("id,email\n" + "".join(f"{s},{i}@school.example\n" for i, s in enumerate(ROSTER)), encoding="utf-8")
    assert main(["class", "new", str(roster), str(folder / "class")]) == 0
    return folder, folder / "class" / classroom.KEY_FILE


def test_class_new_writes_a_private_key_and_a_code_per_student(a_class, capsys):
    folder, key_path = a_class
    for f in (key_path, key_path.with_name(classroom.CODES_FILE)):
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600, f  # the teacher's alone
    cls = classroom.read_key(key_path)
    assert cls.students == ROSTER and len(set(cls.codes.values())) == 30
    assert all(classroom.CODE.match(c.casefold()) for c in cls.codes.values())
    codes = list(csv.DictReader(io.StringIO(key_path.with_name(classroom.CODES_FILE).read_text())))
    assert {r["id"]: r["code"] for r in codes} == cls.codes
    # another key gives other codes: a classmate's code cannot be worked out from their name
    assert classroom.code_of(os.urandom(32), ROSTER[0]) != cls.codes[ROSTER[0]]
    # a second class in the same folder would change every student's numbers: refused
    assert main(["class", "new", str(folder / "roster.csv"), str(key_path.parent)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_answers_without_the_key_is_refused_in_one_line(capsys):
    assert main(["answers", "--student", "Ada"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--key KEYFILE" in err


def test_a_bad_key_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "key.json"
    bad.write_text('{"format": "meeple class key", "version": 1, "key": "00", "students": []}')
    assert main(["answers", "--key", str(bad)]) == 2
    assert "is not a meeple class key" in capsys.readouterr().err


def test_saved_answers_read_back_as_what_check_was_given():
    from meeple.course import grading
    from meeple.course.submission import encode
    from meeple.rules import piggyback_brigade as pb

    for value in (Fraction(3, 8), 0.1, (1, Fraction(1, 3)), {3: 4, 5: 6}, pb.Config(players=3), [None, True, "x"], ...):
        assert grading.decode(encode(value)) == value
    ev = ex.Evidence.play("bucket-brigade", None, "random", 4, seed=3)
    back = grading.decode(encode(ev))
    assert [g.scores for g in back.records] == [g.scores for g in ev.records]
    for bad, why in (({"run": {**encode(ev)["run"], "games": 10**9}}, "games"), ({"eval": "1+1"}, "not a saved answer"),
                     ({"fraction": "1/0"}, "n/d"), ({"unreadable": "Generator"}, "Generator")):
        with pytest.raises(grading.Unreadable, match=why):
            grading.decode(bad)


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
        one = ex.Evidence.play("duck-duck-bruce", ex.lessons_08_14.cycle_rules(), "threshold-1,threshold-2", 150, 1, True)
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


def test_the_guide_counts_the_exercises_the_code_registers():
    import re

    guide = (LESSONS / "teachers_guide.md").read_text(encoding="utf-8")
    assert re.findall(r"All (\d+) exercises", guide) == [str(len(ex.keys()))]
    assert "the two sampled ones are the same for everyone" not in guide  # 20.wait and 21.tuned are each student's
    assert "meeple answers --key" in guide and "meeple grade submissions --key" in guide


def test_a_code_typed_without_dashes_or_with_spaces_gives_the_same_numbers(a_class):
    cls = classroom.read_key(a_class[1])
    code = cls.codes[ROSTER[3]]
    for typed in (code, code.lower(), code.replace("-", ""), code.replace("-", " "), f"  {code.lower()} "):
        assert ex.normalise(typed) == code.casefold() and cls.who(typed) == ROSTER[3], typed
        assert ex.exercise_numbers("14", typed) == ex.exercise_numbers("14", code)
    assert ex.normalise("Ada  Lovelace") == "ada lovelace"  # a self-study name stays a name


def test_identical_evidence_is_flagged_only_beyond_what_equal_numbers_explain():
    """Issue 37: students whose numbers ask for the same games (03.seat: the same player count, the
    lesson's seed 1) hand in the same games (and here the same verdict) honestly, and are not flagged
    for it; the same games handed in
    by a student whose numbers ask for other games are (both students), and fail for that student."""
    from meeple.course import grading
    from meeple.course.submission import encode
    from meeple.rules import piggyback_brigade as pb

    cls = classroom.ClassKey(bytes(32), [f"Student {i:02d}" for i in range(40)])
    table = {s: ex.exercise_numbers("03", cls.codes[s])["seat"] for s in cls.students}
    a = cls.students[0]
    b = next(s for s in cls.students if s != a and table[s][0] == table[a][0]
             and ex.answer("03.seat", cls.codes[s]) == ex.answer("03.seat", cls.codes[a]))  # the same answer, games and all
    c = next(s for s in cls.students if table[s][0] != table[a][0])
    games = ex.Evidence.play("piggyback-brigade", pb.Config(players=table[a][0]), "heuristic", games=2000, seed=1)
    subs = {s: {"03.seat": (encode((ex.answer("03.seat", cls.codes[w]), games)), cls.codes[s])}
            for s, w in ((a, a), (b, b), (c, a))}
    columns, out = grading.grade(subs, cls, ["03.seat"])
    assert [out[s]["marks"]["03.seat"] for s in (a, b, c)] == ["pass", "pass", "fail"]
    assert out[a]["flags"] == [f"identical evidence in 03.seat with {c}"]
    assert out[b]["flags"] == [f"identical evidence in 03.seat with {c}"]
    assert out[c]["flags"] == [f"identical evidence in 03.seat with {a}, {b}"]

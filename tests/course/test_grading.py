"""A class's key, codes and grading without running a lesson (issue 37): `meeple class new`,
`meeple answers`, saved answers read back, identical evidence flagged. A whole class graded from
its students' lessons run is tests/lessons/test_class_graded.py (the slow tier: it executes lessons).
"""

from __future__ import annotations

import csv
import io
import os
import stat
from fractions import Fraction
from pathlib import Path

import pytest
from harness import new_class

from meeple.course import classroom
from meeple.rules.cli import main
from meeple.course import exercises as ex

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
ROSTER = [f"Student {i:02d}" for i in range(30)]


@pytest.fixture(scope="module")
def a_class(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    return folder, new_class(folder, ROSTER)


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


def _submissions(folder: Path, notebooks: "dict[str, str]") -> Path:
    folder.mkdir()
    for name, text in notebooks.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


EMPTY_NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def test_grade_checks_out_and_its_feedback_folder_before_writing_anything(a_class, tmp_path, capsys):
    """--out as every command's: a missing folder was made, a folder left an empty feedback folder
    behind, a file in the feedback folder's place and an empty name were tracebacks."""
    subs = _submissions(tmp_path / "subs", {f"{ROSTER[0]}.ipynb": EMPTY_NOTEBOOK})
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "taken-feedback").write_text("not a folder")
    for out, why in ((tmp_path / "nowhere" / "g.csv", f"folder {tmp_path / 'nowhere'} does not exist"),
                     (tmp_path / "a-folder", "it is a folder"),
                     (tmp_path / "taken.csv", "cannot write the feedback to"),
                     ("", "--out needs a file name, got an empty one")):
        before = sorted(tmp_path.iterdir())
        assert main(["grade", str(subs), "--key", str(a_class[1]), "--out", str(out)]) == 2, out
        err = capsys.readouterr().err
        assert err.startswith("meeple: error: ") and why in err and err.count("\n") == 1, err
        assert sorted(tmp_path.iterdir()) == before and not list((tmp_path / "a-folder").iterdir()), out


def test_an_unreadable_notebook_handed_in_is_flagged_and_counted(a_class, tmp_path, capsys):
    """A corrupt notebook read as nothing handed in: the row said `missing` with no flag."""
    subs = _submissions(tmp_path / "subs", {f"{ROSTER[0]}.ipynb": EMPTY_NOTEBOOK, f"{ROSTER[1]}.ipynb": "{"})
    out = tmp_path / "grades.csv"
    assert main(["grade", str(subs), "--key", str(a_class[1]), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"graded 1 submission of {len(ROSTER)} students; 1 unreadable notebook;" in printed
    flags = {r["Student"]: r["Flags"] for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))}
    assert flags[ROSTER[1]] == f"unreadable notebook handed in: {ROSTER[1]}.ipynb is not a notebook (not JSON)"
    assert flags[ROSTER[2]] == ""  # handed in nothing: no flag
    # a notebook without a single check() output: handed in, so flagged (its exercises are missing)
    assert flags[ROSTER[0]] == f"notebook with no check() output handed in: {ROSTER[0]}.ipynb"
    assert flags[ROSTER[1]] in printed
    # nothing readable at all: refused, nothing written
    only_bad = _submissions(tmp_path / "bad", {f"{ROSTER[1]}.ipynb": "{"})
    assert main(["grade", str(only_bad), "--key", str(a_class[1]), "--out", str(tmp_path / "g2.csv")]) == 2
    assert "can be read" in capsys.readouterr().err and not (tmp_path / "g2.csv").exists()


def test_class_new_in_a_file_is_one_line_and_makes_nothing(tmp_path, capsys):
    """`meeple class new roster.csv roster.csv` was a FileExistsError traceback."""
    roster = tmp_path / "roster.csv"
    roster.write_text("id\nAda\n")
    for folder, why in ((roster, "cannot make the class in"), (roster / "class", f"{roster} is a file, not a folder"),
                        ("", "got an empty name")):
        assert main(["class", "new", str(roster), str(folder)]) == 2, folder
        err = capsys.readouterr().err
        assert err.startswith("meeple: error: ") and why in err and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.csv"] and roster.read_text() == "id\nAda\n"


def test_answers_quotes_a_student_it_does_not_know(a_class, capsys):
    """`--student ''` printed `meeple: error:  is neither an id nor a code`."""
    for typed in ("", "Nobody"):
        assert main(["answers", "--key", str(a_class[1]), "--student", typed]) == 2
        assert f"meeple: error: --student {typed!r} is neither an id nor a code" in capsys.readouterr().err


def test_a_roster_saved_by_excel_reads_or_says_how_to_save_it(tmp_path, capsys):
    """Excel's "CSV UTF-8" starts with a byte-order mark: `class new` said the header
    ['\\ufeffname', 'email'] had no column 'name'. Its plain "CSV" (Windows-1252 on Windows) is not
    guessed at (a wrong guess changes a name, so a code): one line naming the encoding and the fix."""
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbfname,email\r\nAda Lovelace,a@x\r\nJos\xc3\xa9 N\xc3\xba\xc3\xb1ez,j@x\r\n")
    assert main(["class", "new", str(bom), str(tmp_path / "c1")]) == 0
    capsys.readouterr()
    assert classroom.read_key(tmp_path / "c1" / classroom.KEY_FILE).students == ["Ada Lovelace", "José Núñez"]
    assert classroom.read_roster(bom.read_text(encoding="utf-8")) == ["Ada Lovelace", "José Núñez"]  # the mark as text too
    legacy = tmp_path / "legacy.csv"
    legacy.write_bytes("name,email\r\nJosé Núñez,j@x\r\n".encode("cp1252"))
    for argv in (["class", "new", str(legacy), str(tmp_path / "c2")], ["site", str(tmp_path / "site"), "--graded", "--roster", str(legacy)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not UTF-8" in err and "Windows-1252" in err and "CSV UTF-8" in err, err
    assert not (tmp_path / "c2").exists() and not (tmp_path / "site").exists()


def _records_notebook(records: "list[dict]", metadata: "dict | None" = None) -> str:
    """A notebook with one code cell per check() output (`submission.record`'s metadata)."""
    import json

    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": metadata or {},
                       "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": "", "execution_count": 1,
                                  "outputs": [{"output_type": "display_data", "data": {"text/markdown": "✓"}, "metadata": r}]}
                                 for i, r in enumerate(records)]})


def _graded(subs: Path, key_path: Path, out: Path, capsys) -> "tuple[dict, str]":
    assert main(["grade", str(subs), "--key", str(key_path), "--out", str(out)]) == 0
    rows = {r["Student"]: r for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))}
    return rows, capsys.readouterr().out


def test_what_is_handed_in_that_is_not_a_notebook_is_flagged_and_said(a_class, tmp_path, capsys):
    """A PDF or HTML export, a folder holding only a PDF: the row read all "missing" with no flag and
    the console said nothing; `Name.IPYNB` (upper case) was not read at all."""
    from meeple.course.submission import record

    cls = classroom.read_key(a_class[1])
    upper = _records_notebook([record("07.third", Fraction(1, 3), cls.codes[ROSTER[5]])])
    subs = _submissions(tmp_path / "subs", {f"{ROSTER[3]}.pdf": "%PDF-1.4", f"{ROSTER[4]}.ipynb.html": "<html>",
                                            f"{ROSTER[5]}.IPYNB": upper, "notes.txt": "hello"})
    (subs / ROSTER[6]).mkdir()
    (subs / ROSTER[6] / "report.pdf").write_text("%PDF-1.4")
    (subs / ".DS_Store").write_text("")  # the system's, not handed in: not looked at
    rows, printed = _graded(subs, a_class[1], tmp_path / "grades.csv", capsys)
    assert rows[ROSTER[3]]["Flags"] == f"not a notebook handed in: {ROSTER[3]}.pdf"
    assert rows[ROSTER[4]]["Flags"] == f"not a notebook handed in: {ROSTER[4]}.ipynb.html"
    assert rows[ROSTER[6]]["Flags"] == f"not a notebook handed in: {ROSTER[6]}/report.pdf"
    assert rows[ROSTER[5]]["07.third"] in ("pass", "fail") and rows[ROSTER[5]]["Flags"] == ""
    for shown in (f"{ROSTER[3]}.pdf", f"{ROSTER[4]}.ipynb.html", f"{ROSTER[6]}/report.pdf"):
        assert f"skipped {shown}: not a notebook (a .ipynb file); flagged in " in printed, shown
    assert "skipped notes.txt: not a notebook (a .ipynb file), and it names no student of the roster" in printed
    assert ".DS_Store" not in printed


def test_answers_worked_without_student_say_so(a_class, tmp_path, capsys):
    """A student who never ran student(...) was flagged "answers worked with the id None"."""
    from meeple.course.submission import record

    subs = _submissions(tmp_path / "subs", {f"{ROSTER[7]}.ipynb": _records_notebook([record("07.third", Fraction(1, 3), None)])})
    rows, _ = _graded(subs, a_class[1], tmp_path / "grades.csv", capsys)
    assert rows[ROSTER[7]]["Flags"] == "answers worked with the lesson's own numbers (student() was not run)"


def test_an_lms_named_submission_is_its_students_by_its_outputs_and_said(a_class, tmp_path, capsys):
    """Canvas renames files (`lovelaceada_1234_5678_07_without_replacement.ipynb`): it was skipped as
    naming nobody, and with a damaged file beside it the run stopped saying "no submission can be
    read" with a readable notebook right there. The outputs' ids name one student: theirs, said;
    several, or one who handed in under their own name too: skipped, saying why and how to rename."""
    from meeple.course.submission import record

    cls = classroom.read_key(a_class[1])
    mine = _records_notebook([record("07.third", Fraction(1, 3), cls.codes[ROSTER[8]]),
                              record("07.no_double", Fraction(1, 3), cls.codes[ROSTER[8]])])
    lms = "student08_1234_5678_07_without_replacement.ipynb"
    subs = _submissions(tmp_path / "subs", {lms: mine, f"{ROSTER[9]}.ipynb": "{"})
    rows, printed = _graded(subs, a_class[1], tmp_path / "grades.csv", capsys)
    assert (f"read {lms} as {ROSTER[8]}'s: its name names no student of the roster, and its check() outputs were "
            f"worked with {ROSTER[8]}'s numbers") in printed
    assert rows[ROSTER[8]]["07.third"] != "missing" and rows[ROSTER[8]]["Flags"] == ""
    assert rows[ROSTER[9]]["Flags"].startswith("unreadable notebook handed in: ")
    # the same file beside a notebook the student handed in under their own name: never merged into it
    (subs / f"{ROSTER[8]}.ipynb").write_text(EMPTY_NOTEBOOK, encoding="utf-8")
    rows, printed = _graded(subs, a_class[1], tmp_path / "grades.csv", capsys)
    assert (f"skipped {lms}: it names no student of the roster, and its check() outputs were worked with "
            f"{ROSTER[8]}'s numbers, but {ROSTER[8]} handed in under their own name too") in printed
    assert rows[ROSTER[8]]["07.third"] == "missing"
    # outputs worked with two students' numbers: nobody's, said
    two = _records_notebook([record("07.third", Fraction(1, 3), cls.codes[ROSTER[10]]), record("07.no_double", 0, ROSTER[11])])
    only = _submissions(tmp_path / "two", {"upload_99.ipynb": two, f"{ROSTER[9]}.ipynb": "{"})
    assert main(["grade", str(only), "--key", str(a_class[1]), "--out", str(tmp_path / "g2.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "can be read" not in err, err  # a readable notebook is not "cannot be read"
    assert (f"upload_99.ipynb: names no student of the roster, and its check() outputs were worked with the numbers of 2 "
            f"students ({ROSTER[10]}, {ROSTER[11]}): rename it to its student's roster id (e.g. `{ROSTER[0]}.ipynb`)") in err
    assert f"{ROSTER[9]}.ipynb is not a notebook (not JSON)" in err


def test_a_lesson_handed_in_without_answers_has_its_columns(a_class, tmp_path, capsys):
    """A lesson handed in with no check() output had no column, where the guide promises a column per
    exercise of the lessons handed in: it is known by its cells (the lesson as shipped: no outputs)."""
    from meeple.course.submission import record

    cls = classroom.read_key(a_class[1])
    lesson_01 = next(LESSONS.glob("01_*.ipynb")).read_text(encoding="utf-8")
    subs = _submissions(tmp_path / "subs", {})
    (subs / ROSTER[12]).mkdir()
    (subs / ROSTER[12] / "01.ipynb").write_text(lesson_01, encoding="utf-8")
    (subs / ROSTER[12] / "07.ipynb").write_text(_records_notebook([record("07.third", Fraction(1, 3), cls.codes[ROSTER[12]])]),
                                                encoding="utf-8")
    rows, printed = _graded(subs, a_class[1], tmp_path / "grades.csv", capsys)
    lesson_keys = [k for k in ex.keys() if k[:2] in ("01", "07")]
    assert list(rows[ROSTER[12]])[1:-3] == lesson_keys and any(k.startswith("01.") for k in lesson_keys)
    assert {rows[ROSTER[12]][k] for k in lesson_keys if k.startswith("01.")} == {"missing"}
    assert rows[ROSTER[12]]["Flags"] == f"notebook with no check() output handed in: {ROSTER[12]}/01.ipynb"
    assert f"{ROSTER[12]}/01.ipynb holds no check() output" in printed


def test_an_exercise_cell_run_unchanged_is_missing_not_failed(a_class):
    """14.cycle's cell plays the round-robin itself, so run unchanged its answer was (runs, ..., ...): "✗ Not
    yet: no answer yet", saved, and graded "fail". Now "No answer yet" (check() saves nothing), and a
    notebook saved so before is graded "missing"; so for a sampled exercise's (run, ...)."""
    from meeple.course import grading
    from meeple.course.submission import encode

    cls = classroom.read_key(a_class[1])
    code = cls.codes[ROSTER[13]]
    with ex.as_student(code):
        for key, answer in (("14.cycle", ([1, 2], ..., ...)), ("14.cycle", ([1, 2], [], ...)), ("01.ender", (..., 5))):
            ok, line = ex.checking.judge(key, answer)
            assert not ok and line.startswith(ex.NO_ANSWER + ": put ") and "in place of `...`" in line, (key, line)
    subs = {ROSTER[13]: {"14.cycle": (encode(([], ..., ...)), code), "01.ender": (encode((..., 5)), code)}}
    columns, out = grading.grade(subs, cls, ["14.cycle", "01.ender"])
    assert out[ROSTER[13]]["marks"] == {"14.cycle": "missing", "01.ender": "missing"}

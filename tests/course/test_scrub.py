"""`meeple scrub` (lessons/scrub.py, lessons/cli.py): the students' copies of the lessons,
without the cells tagged "solution"; a malformed notebook or a bad output path is refused in
one line, and then nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import notebook, one_line_error, run


def test_scrub_copies_lessons_without_solution_cells(capsys, tmp_path):
    lessons = Path(__file__).resolve().parents[2] / "lessons"
    code, out, _ = run(capsys, "scrub", str(lessons), str(tmp_path / "students"))
    assert code == 0 and "13_timing.ipynb: 2 solution cell(s) removed" in out
    for book in lessons.glob("*.ipynb"):
        original = json.loads(book.read_text())["cells"]
        copy = json.loads((tmp_path / "students" / book.name).read_text())["cells"]
        tagged = [c for c in original if "solution" in c.get("metadata", {}).get("tags", [])]
        assert len(copy) == len(original) - len(tagged)
        assert all("solution" not in c.get("metadata", {}).get("tags", []) for c in copy)


def test_scrub_refuses_bad_folders_and_writes_nothing(capsys, tmp_path):
    bad = tmp_path / "lessons"
    bad.mkdir()
    (bad / "broken.ipynb").write_text("{not json")
    code, _, err = run(capsys, "scrub", str(bad), str(tmp_path / "out"))
    assert code == 2 and "broken.ipynb is not a notebook" in err and not (tmp_path / "out").exists()
    code, _, err = run(capsys, "scrub", str(tmp_path / "nowhere"), str(tmp_path / "out"))
    assert code == 2 and "is not a folder" in err
    code, _, err = run(capsys, "scrub", str(bad), str(bad))
    assert code == 2 and "another folder" in err


@pytest.mark.parametrize(
    "content, message",
    [
        (json.dumps({"cells": 5}), "no JSON object with a 'cells' list"),
        (json.dumps([1, 2]), "no JSON object with a 'cells' list"),
        ("{not json", "not JSON"),
        (json.dumps(notebook([5])), "cell 1 is int, not an object"),
        (json.dumps(notebook([{"cell_type": "code", "metadata": {}}])), "cell 1 has no 'source'"),
        (json.dumps(notebook([{"source": "x"}])), "cell 1 has no 'cell_type'"),
        (json.dumps(notebook([{"cell_type": "code", "source": 3}])), "neither text nor a list of lines"),
        (json.dumps(notebook([{"cell_type": "code", "source": "", "metadata": []}])), "'metadata' that is not an object"),
        (json.dumps(notebook([{"cell_type": "code", "source": "", "metadata": {"tags": "solution"}}])),
         "'tags' that are not a list"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
    ],
)
def test_scrub_refuses_a_malformed_notebook_in_one_line_and_writes_nothing(capsys, tmp_path, content, message):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "a_good.ipynb").write_text(json.dumps(notebook()))
    bad = lessons / "b_bad.ipynb"
    bad.write_bytes(content) if isinstance(content, bytes) else bad.write_text(content)
    code, out, err = run(capsys, "scrub", lessons, tmp_path / "students")
    one_line_error(code, out, err, message)
    assert "b_bad.ipynb" in err  # the message names the notebook
    assert not (tmp_path / "students").exists()


def test_scrub_refuses_bad_output_paths_in_one_line_and_writes_nothing(capsys, tmp_path):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for name in ("a.ipynb", "b.ipynb"):
        (lessons / name).write_text(json.dumps(notebook()))
    a_file = tmp_path / "students.txt"
    a_file.write_text("not a folder")
    one_line_error(*run(capsys, "scrub", lessons, a_file), "it is a file, not a folder")
    one_line_error(*run(capsys, "scrub", lessons, a_file / "inside"), "cannot make the folder")
    out = tmp_path / "students"
    (out / "b.ipynb").mkdir(parents=True)  # the second copy cannot be written: the first must not be either
    one_line_error(*run(capsys, "scrub", lessons, out), "b.ipynb: it is a folder")
    assert sorted(p.name for p in out.iterdir()) == ["b.ipynb"]
    (lessons / "c.ipynb").mkdir()  # a folder named like a notebook among the lessons
    one_line_error(*run(capsys, "scrub", lessons, tmp_path / "new"), "c.ipynb")
    assert not (tmp_path / "new").exists()

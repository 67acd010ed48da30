"""Lesson 7 run in a kernel as two students (MEEPLE_STUDENT): its solutions pass their checks and
print what `meeple answers` says. The slow tier: it executes a lesson (the checkers themselves are
tests/course/test_exercises_more.py's).
"""

from __future__ import annotations

from meeple.course import exercises as ex


def test_lesson_7_solutions_agree_with_the_key_for_two_students():
    """Run lesson 7 as two students (MEEPLE_STUDENT): every solution passes its check, and the
    values the solutions print agree with `meeple answers`."""
    import json
    import os
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    path = Path(__file__).resolve().parents[2] / "lessons" / "07_without_replacement.ipynb"
    for who in ("Ada Lovelace", "Alan Turing"):
        nb = nbformat.read(path, as_version=4)
        old = os.environ.get("MEEPLE_STUDENT")
        os.environ["MEEPLE_STUDENT"] = who
        try:
            NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
        finally:
            os.environ.pop("MEEPLE_STUDENT") if old is None else os.environ.__setitem__("MEEPLE_STUDENT", old)
        text = json.dumps([c.get("outputs", []) for c in nb.cells if "solution" in c.metadata.get("tags", [])])
        assert "Not yet" not in text
        for key in ("07.third", "07.no_double", "07.bruces"):
            assert f"Right: {ex.answer(key, who)}" in text, (who, key)

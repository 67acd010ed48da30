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
        _engine_interval_is_for_the_students_deck(nb, who)


def _engine_interval_is_for_the_students_deck(nb, who):
    """The engine's count before the exercises says it is the base deck's; the sentence under exercise 2
    counts the student's own deck (its cards, not the base deck's), and exercise 2's exact answer lies
    inside that interval: the comparison the lesson asks a student to make holds for their deck."""
    import re

    from meeple.rules import duck_duck_bruce as ddb

    said = ["".join(o.get("data", {}).get("text/markdown", "") for o in c.get("outputs", [])) for c in nb.cells]
    base = next(t for t in said if "the turn survived three more flips" in t and "base deck" in t)
    assert f"base deck ({len(ddb.Config().deck())} cards)" in base, base
    suits, bruces = ex.exercise_numbers("07", who)["deck"]
    cards = len(ddb.Config(suits=ddb.Config().suits[:suits], bruce_cards=bruces).deck())
    yours = next(t for t in said if t.startswith("Your deck (") and "survived three more flips" in t)
    assert yours.startswith(f"Your deck ({cards} cards)") and cards != len(ddb.Config().deck()), (who, yours)
    low, high = (float(x) / 100 for x in re.search(r"interval ([0-9.]+)% to ([0-9.]+)%", yours).groups())
    assert low <= float(ex.answer("07.no_double", who)) <= high, (who, yours)

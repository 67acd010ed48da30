"""Every widget the lessons create is one a host test drives (issue 22).

The lessons' code cells are read (not run) for the widgets they make: the Stepper, the Tally,
each control shown through a Panel, the Explorer. Each must be a case of
tests/browser/widget_cases.py, which the host tests (JupyterLab, Notebook 7, marimo) and the
site test operate; a widget a lesson adds without a case fails here, naming the lesson.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import anywidget

from meeple.widgets import controls

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from widget_cases import CASES, EXPLORER, STEPPER  # noqa: E402 - after the sys.path line that makes it importable

CONTROL_OF = {cls.__name__: kind for kind, cls in controls.KINDS.items()}
WIDGETS = {"Stepper": "stepper", "Explorer": "explorer", "Tally": "tally", **CONTROL_OF}


def _made_in(lesson: Path) -> set[str]:
    code = "\n".join("".join(c["source"]) for c in json.loads(lesson.read_text())["cells"] if c["cell_type"] == "code")
    return {name for name in WIDGETS if re.search(rf"\b{name}\(", code)}


def test_every_widget_a_lesson_makes_has_a_host_test_case():
    covered = set(CASES) | {"stepper", "explorer"}  # the host tests drive STEPPER and EXPLORER beside the cases
    assert STEPPER.startswith("Stepper(") and EXPLORER.startswith("Explorer(")
    missing, seen = [], set()
    for lesson in sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")):
        for name in _made_in(lesson):
            seen.add(name)
            if WIDGETS[name] not in covered:
                missing.append(f"{lesson.name}: {name}")
    assert not missing, f"widgets no host test drives: {missing}"
    # the lessons do make these (a renamed class would otherwise pass unseen)
    assert {"Stepper", "Explorer", "Tally", "DieEditor", "TrackLength", "CatchUpRule", "FlipSimulator", "StealDie", "HandDeal",
            "KnockChance", "RerollRule"} <= seen


def test_no_lesson_builds_an_ipywidgets_composite():
    """Controls are meeple widgets (one logic class + panel.js), never ipywidgets boxes: marimo and
    the site draw nothing else."""
    for lesson in sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")):
        text = lesson.read_text()
        assert "ipywidgets" not in text and not re.search(r"\bW\.[A-Z]", text), lesson.name


def test_every_anywidget_class_of_the_package_is_a_case():
    """A widget class added to meeple.widgets without a host test case fails here."""
    from meeple.widgets import explorer, panel, stepper, tally

    found = {c.__name__ for m in (explorer, panel, stepper, tally) for c in vars(m).values()
             if isinstance(c, type) and issubclass(c, anywidget.AnyWidget) and c.__module__ == m.__name__}
    assert found == {"Explorer", "Panel", "Stepper", "Tally"}
    assert set(CASES) - {"tally"} == set(controls.KINDS) - {"tally"}  # every control kind has a Panel case

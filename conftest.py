"""One execution of each lesson per test session, shared between nbval and the tests that read a
lesson's outputs.

nbval (`pytest --nbval-lax`, as `make test` runs it) executes every lesson cell by cell in one
kernel. This file keeps what each of those cells output; a test marked `after_lessons` (the
answer-leak check in tests/test_lessons.py) is moved after the lessons' own cells and reads that
run through the `nbval_run` fixture instead of executing the lesson a second time. Where nbval did
not run a lesson, or a cell of it failed, `nbval_run` gives None and the test executes the lesson
itself, as before. nbval records every output a cell sent, including those a later
`clear_output` replaced and those an Output widget shows: at least what a saved notebook keeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_RUNS = pytest.StashKey[dict]()


def _is_nbval_cell(item) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "cell_num")


def _lesson_of(item) -> Path:
    return Path(str(item.parent.path)).resolve()


def pytest_configure(config):
    config.stash[_RUNS] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "call" and _is_nbval_cell(item):
        report = outcome.get_result()
        cells = item.config.stash[_RUNS].setdefault(_lesson_of(item), {})
        cells[item.cell_num] = [dict(o) for o in (item.test_outputs or [])] if report.passed else None


def pytest_collection_modifyitems(session, config, items):
    """Tests marked after_lessons run after every nbval cell (they read its outputs)."""
    if any(_is_nbval_cell(i) for i in items):
        later = [i for i in items if i.get_closest_marker("after_lessons")]
        if later:
            keep = [i for i in items if not i.get_closest_marker("after_lessons")]
            items[:] = keep + later


@pytest.fixture
def nbval_run(request):
    """`nbval_run(path)`: {code cell number: its outputs} from this session's nbval run of the
    lesson at `path`, when every code cell of it ran and passed; else None."""
    import json

    def get(path: Path):
        cells = request.config.stash[_RUNS].get(Path(path).resolve())
        if not cells or any(v is None for v in cells.values()):
            return None
        code = sum(c["cell_type"] == "code" for c in json.loads(Path(path).read_text(encoding="utf-8"))["cells"])
        return cells if sorted(cells) == list(range(code)) else None

    return get

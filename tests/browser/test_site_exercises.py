"""Issue 24 item 3: every exercise cell of the course is edited and run on the site, in the browser.

The site is the session's one build (conftest.py's `site_tree`): every lesson is a page, a
few of them executed (the pages' outputs do not matter here, the exercise cells and the
worker do), served for this module on its own port (parallel-safe). On each lesson
page, for each exercise cell in order, the test opens the editor, types a wrong answer
(the cell's blanks `...` filled with 0) and runs it, waiting for "✗"; then types the right
answer (site_exercises.py: the lesson's solution, or the same written on the standard
library where the solution reads a pandas table) and waits for "✓ Right" from every
check(...) and no "✗", with the cell's output from the build hidden. For the exercises that
cannot run in the browser (CANNOT), the cell must say plainly that pandas is not there. Every wait is on a condition (the cell's
data-meeple-cell="done"), bounded only by the suite's outer deadline.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from meeple.course.site import dry_run
from meeple.course.site.cells import page_cells
from meeple.course.site.runtime.cells import Page
from site_build import local
from site_exercises import CANNOT, ROOT, exercises, lessons_with_exercises, type_code

LESSONS = lessons_with_exercises()


@pytest.fixture(scope="module")
def exercise_site(site_tree, tmp_path_factory, free_port, server):
    """(url, html folder, build log): the session's site, served for this module."""
    assert set(LESSONS) <= set(site_tree.pages), f"lessons with exercises missing from the site: {site_tree.pages}"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site_tree.html)]
    with server(cmd, url + "/index.html", tmp_path_factory.getbasetemp() / f"http-{port}.log", "http.server", 10):
        yield url, site_tree.html, site_tree.log


PARALLEL = 4  # lesson pages driven at once (each has its own worker): the test's length, not its verdict


def _start(page, cell, code: str) -> None:
    """Replace the cell's code in its editor with `code` (typed as text input) and press Run."""
    type_code(page, cell, code)
    # This site is not run (--no-execute), so the cell has no output from the build: put one where a
    # run build writes it (a child of the cell), for the run to hide (it is of the lesson's code).
    cell.evaluate("""c => { if (!c.querySelector(':scope > .cell_output')) c.insertAdjacentHTML('beforeend',
        '<div class="cell_output docutils container"><p>✗ No answer yet (output of the build)</p></div>'); }""")
    cell.locator(".meeple-cell-run").click()


def _verdict(ex, step: str, said: str) -> str | None:
    """What is wrong with a step's output, or None."""
    if step == "wrong":
        return None if "✗" in said else f"{ex.key}: a wrong answer got {said!r}"
    if step == "cannot":  # said plainly: the browser's Python has no pandas (the cell, or one above it, needs it)
        return None if "pandas" in said and "browser" in said else f"{ex.key}: {said!r}"
    ok = said.count("✓ Right") == ex.checks and "✗" not in said
    return None if ok else f"{ex.key}: the answer got {said!r}"


class _Lesson:
    """One lesson page worked through: each exercise's wrong answer, then its answer, in order."""

    def __init__(self, context, url: str, lesson: str):
        self.lesson = lesson
        self.page = context.new_page()
        self.page.set_default_timeout(600_000)
        self.requests, self.errors = [], []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(f"{url}/{lesson}.html")
        wanted = exercises(lesson)
        self.page.wait_for_function("n => document.querySelectorAll('.cell.tag_meeple-exercise .meeple-cell-bar').length === n", arg=len(wanted))
        self.steps = []
        for ex in wanted:
            self.steps.append((ex, "wrong", ex.wrong))
            self.steps.append((ex, "cannot", ex.solution) if ex.key in CANNOT else (ex, "right", ex.right))
        self.cell = None

    def advance(self) -> list[str]:
        """Start the next step, or read the running one if it is done; problems found."""
        if self.cell is None:
            ex, _, code = self.steps[0]
            self.cell = self.page.locator(".cell.tag_meeple-exercise").nth(ex.index)
            _start(self.page, self.cell, code)
            return []
        if self.cell.get_attribute("data-meeple-cell") != "done":
            return []
        ex, step, _ = self.steps.pop(0)
        self.cell = None
        problem = _verdict(ex, step, self.cell_output(ex))
        if self.page.locator(".cell.tag_meeple-exercise").nth(ex.index).locator(":scope > .cell_output").is_visible():
            problem = (problem or "") + f" {ex.key}: the build's output is still shown under the new one"
        return [f"{self.lesson} {problem}"] if problem else []

    def cell_output(self, ex) -> str:
        return self.page.locator(".cell.tag_meeple-exercise").nth(ex.index).locator(".meeple-cell-output").inner_text()

    @property
    def finished(self) -> bool:
        return not self.steps and self.cell is None


def test_the_build_makes_every_exercise_cell_runnable(exercise_site):
    url, html, log = exercise_site
    text = log.read_text()
    total = sum(len(exercises(lesson)) for lesson in LESSONS)
    # every exercise cell of the course, none set aside as one the browser cannot run (46 when
    # lessons 1-21 were the course, more with each lesson added since)
    assert total >= 46 and not CANNOT, f"every exercise of the course runs in the browser: {total} cells, CANNOT {CANNOT}"
    unpaired = [ex.key for lesson in LESSONS for ex in exercises(lesson) if ex.right is None]
    assert not unpaired, f"exercises with no solution cell checking their key below them: {unpaired}"
    assert f"build_site: {total} exercise cells and " in text
    for lesson in LESSONS:
        page = (html / f"{lesson}.html").read_text()
        assert page.count("tag_meeple-exercise") == len(exercises(lesson)), lesson
        assert '<script src="_static/meeple-cells-boot.js"></script>' in page and "meeple-live.js" in page
    assert (html / "_static" / "cells" / f"{LESSONS[0]}.json").exists()


def test_every_exercise_cell_is_edited_and_run_in_the_browser(exercise_site, cached_browser, shots):
    """Every lesson page, PARALLEL at a time, in one browser profile (conftest.py's `cached_browser`:
    Pyodide compiled once, as a reader's browser keeps it); every problem of every exercise is
    listed at the end."""
    url, _, _ = exercise_site
    waiting, active, problems = list(LESSONS), [], []
    while waiting or active:
        while waiting and len(active) < PARALLEL:
            active.append(_Lesson(cached_browser, url, waiting.pop(0)))
        for lesson in list(active):
            problems += lesson.advance()
            if lesson.finished:
                lesson.page.screenshot(path=str(shots / f"exercises-{lesson.lesson}.png"))
                problems += [f"{lesson.lesson}: page error {e}" for e in lesson.errors]
                problems += [f"{lesson.lesson}: a request left the machine: {u}" for u in lesson.requests if not local(u)]
                lesson.page.close()
                active.remove(lesson)
        if active and all(lesson.cell is not None for lesson in active):
            # every page is running a cell: wait (on the condition) for the first one's to finish
            first = active[0]
            first.page.wait_for_function("c => c.dataset.meepleCell === 'done'", arg=first.cell.element_handle())
    assert not problems, "\n".join(problems)


def test_an_edit_survives_a_reload_and_reset_brings_the_lesson_back(exercise_site, browser):
    url, _, _ = exercise_site
    lesson = LESSONS[0]
    page = browser.new_page()
    page.set_default_timeout(600_000)
    try:
        page.goto(f"{url}/{lesson}.html")
        cell = page.locator(".cell.tag_meeple-exercise").first
        cell.locator(".meeple-cell-edit").click()
        cell.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text("my_answer = 'kept across a reload'\n")
        page.reload()
        cell = page.locator(".cell.tag_meeple-exercise").first
        cell.locator(".cm-content").wait_for()  # the edited cell opens in the editor by itself
        assert "kept across a reload" in cell.locator(".cm-content").inner_text()
        with page.expect_download() as dl:
            cell.locator(".meeple-cell-download").click()
        assert "kept across a reload" in Path(dl.value.path()).read_text()
        cell.locator(".meeple-cell-reset").click()
        assert "kept across a reload" not in cell.locator(".cm-content").inner_text()
        assert exercises(lesson)[0].stub.splitlines()[0] in cell.locator(".cm-content").inner_text()
    finally:
        page.close()


def _expected_output(lesson: str, first_line: str, edit=None) -> tuple[int, int, str]:
    """(its number among the page's worked examples, its number among the lesson's code cells
    that are not answers, what CPython prints for it) for the worked example of `lesson` whose
    code starts with `first_line` (changed by `edit(code)` if given), run as the page runs it (the
    lesson's cells above that it needs, then the cell): the browser must print exactly this."""
    listed = dry_run.run([ROOT / "lessons" / f"{lesson}.ipynb"])[lesson]
    cells = page_cells(json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text()))
    runnable = [i for i, k in enumerate(listed) if k["kind"] == "example" and not _hidden(lesson, i)]
    at = next(i for i in runnable if cells[i]["source"].startswith(first_line))
    code = edit(cells[at]["source"]) if edit else cells[at]["source"]
    page = Page()
    page.prepare([c["source"] for c in cells[:at]], code)
    return runnable.index(at), at, json.loads(page.run(code))["out"]


def _another_seed(code: str) -> str:
    assert "seed=" in code
    return code.replace("seed=", "seed=1000 + ", 1)


def _hidden(lesson: str, index: int) -> bool:
    """Is the lesson's `index`-th page cell one whose code the page leaves out (remove-input)?"""
    nb = json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "solution" not in c.get("metadata", {}).get("tags", [])]
    return "remove-input" in code[index].get("metadata", {}).get("tags", [])


@pytest.mark.parametrize("width", [1400, 390])
def test_worked_examples_run_on_the_page_as_in_cpython_and_a_stepper_plays_live(exercise_site, cached_browser, shots, width):
    """Issue 38: a worked example (lesson 1's game played by `play(...)`) is edited and run on the
    page and prints what CPython prints for it; lesson 1's `Stepper(...)` cell draws the game
    live under it (a move changes it); a cell that needs pandas says so and how to run it locally."""
    url, _, _ = exercise_site
    lesson = "01_first_interval"
    k, at, expected = _expected_output(lesson, "record = play(")
    stepper_k, _, _ = _expected_output(lesson, "Stepper(")
    page = cached_browser.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.set_default_timeout(600_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{url}/{lesson}.html")
        examples = page.locator(".cell.tag_meeple-example")
        cell = examples.nth(k)
        cell.locator(".meeple-cell-edit").click()
        cell.locator(".cm-content").wait_for()
        cell.locator(".meeple-cell-run").click()
        page.wait_for_function("c => c.dataset.meepleCell === 'done'", arg=cell.element_handle())
        assert cell.locator(".meeple-cell-output").inner_text().strip() == expected.strip()
        if width == 1400:  # the reader's change: another deal, as CPython plays it; kept in the notebook they save
            _, _, changed = _expected_output(lesson, "record = play(", _another_seed)
            assert changed != expected
            edited = _another_seed(page_cells(json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text()))[at]["source"])
            type_code(page, cell, edited)
            cell.locator(".meeple-cell-run").click()
            page.wait_for_function("c => c.dataset.meepleCell === 'done'", arg=cell.element_handle())
            assert cell.locator(".meeple-cell-output").inner_text().strip() == changed.strip()
            with page.expect_download() as dl:
                cell.locator(".meeple-cell-download").click()
            saved = page_cells(json.loads(Path(dl.value.path()).read_text()))
            assert saved[at]["source"] == edited and saved[at - 1]["source"] != edited
            cell.locator(".meeple-cell-reset").click()  # the lesson's code back (and out of this browser's storage)
            assert "seed=1000 + " not in cell.locator(".cm-content").inner_text()
            # (the exercise test before, in this browser profile, left its own edits: only this cell's key counts)
            assert page.evaluate("k => localStorage.getItem(k)", f"meeple-cells:{lesson}:e{k}") is None
        game = examples.nth(stepper_k)
        game.locator(".meeple-cell-edit").click()
        game.locator(".meeple-cell-run").wait_for()
        game.locator(".meeple-cell-run").click()
        page.wait_for_function("c => c.dataset.meepleCell === 'done'", arg=game.element_handle())
        live = game.locator(".meeple-cell-widget .meeple-stepper[data-meeple-live=live]")
        live.wait_for()
        before = live.inner_text()
        move = live.locator("button:enabled", has_text="+").first
        move.click()
        page.wait_for_function("([el, t]) => el.innerText !== t", arg=[live.element_handle(), before])
        assert "Player 1 plays" in live.inner_text()
        note = page.locator(".cell.tag_meeple-needs-pandas .meeple-cell-local").first
        assert "needs pandas" in note.inner_text() and "pip install meeple" in note.inner_text()
        box = game.bounding_box()
        assert box["width"] <= width, f"the played cell is {box['width']} px wide at {width} px"
        game.screenshot(path=str(shots / f"worked-example-stepper-{width}.png"))
        assert not errors, errors
    finally:
        page.close()

"""Issue 24 item 3: every exercise cell of the course is edited and run on the site, in the browser.

The site is built with every lesson but without running them (`build_site.py --no-execute`:
about 40 s; the pages' outputs do not matter here, the exercise cells and the worker do),
into this module's own folder and served on its own port (parallel-safe). On each lesson
page, for each exercise cell in order, the test opens the editor, types a wrong answer
(the cell's blanks `...` filled with 0) and runs it, waiting for "✗"; then types the right
answer (site_exercises.py: the lesson's solution, or the same written on the standard
library where the solution reads a pandas table) and waits for "✓ Right" from every
check(...) and no "✗". For the exercises that cannot run in the browser (CANNOT), the cell
must say plainly that pandas is not there. Every wait is on a condition (the cell's
data-meeple-cell="done"), bounded only by the suite's outer deadline.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from site_build import local
from site_exercises import CANNOT, exercises, lessons_with_exercises

ROOT = Path(__file__).resolve().parents[2]
LESSONS = lessons_with_exercises()


@pytest.fixture(scope="module")
def exercise_site(tmp_path_factory, free_port, server):
    out = tmp_path_factory.mktemp("exercise-site")
    log = out / "build.log"
    with open(log, "w") as fh:
        done = subprocess.run([sys.executable, str(ROOT / "lessons" / "build_site.py"), "--out", str(out), "--no-execute"],
                              stdout=fh, stderr=subprocess.STDOUT, timeout=1500)
    if done.returncode:
        pytest.fail("the site did not build:\n" + log.read_text()[-4000:], pytrace=False)
    html = out / "html"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(html)]
    with server(cmd, url + "/index.html", out / "http.log", "http.server", 10):
        yield url, html, log


def _run(page, cell, code: str) -> str:
    """Replace the cell's code in its editor with `code` (typed as text input), run it, return the output."""
    editor = cell.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)
    cell.evaluate("c => { c.dataset.meepleCell = 'static'; }")  # the next "done" is this run's
    cell.locator(".meeple-cell-run").click()
    page.wait_for_function("c => c.dataset.meepleCell === 'done'", arg=cell.element_handle())
    return cell.locator(".meeple-cell-output").inner_text()


def test_the_build_makes_every_exercise_cell_runnable(exercise_site):
    url, html, log = exercise_site
    text = log.read_text()
    total = sum(len(exercises(lesson)) for lesson in LESSONS)
    assert f"build_site: {total} exercise cells editable and runnable in the browser, on {len(LESSONS)} pages" in text
    for lesson in LESSONS:
        page = (html / f"{lesson}.html").read_text()
        assert page.count("tag_meeple-exercise") == len(exercises(lesson)), lesson
        assert '<script src="_static/meeple-cells.js"></script>' in page and "meeple-live.js" in page
    assert (html / "_static" / "cells" / f"{LESSONS[0]}.json").exists()


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_exercise_cell_is_edited_and_run_in_the_browser(exercise_site, browser, shots, lesson):
    url, _, _ = exercise_site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(600_000)
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{url}/{lesson}.html")
        cells = page.locator(".cell.tag_meeple-exercise")
        wanted = exercises(lesson)
        page.wait_for_function("n => document.querySelectorAll('.meeple-cell-bar').length === n", arg=len(wanted))
        for ex in wanted:
            cell = cells.nth(ex.index)
            cell.locator(".meeple-cell-edit").click()
            cell.locator(".cm-content").wait_for()
            wrong = _run(page, cell, ex.wrong)
            assert "✗" in wrong, f"{ex.key}: a wrong answer got {wrong!r}"
            if ex.key in CANNOT:
                said = _run(page, cell, ex.solution)
                # said plainly: the browser's Python has no pandas (the cell itself, or the one above it needs)
                assert "pandas" in said and "browser" in said, f"{ex.key}: {said!r}"
                continue
            right = _run(page, cell, ex.right)
            assert right.count("✓ Right") == ex.checks and "✗" not in right, f"{ex.key}: the answer got {right!r}"
        page.screenshot(path=str(shots / f"exercises-{lesson}.png"))
    except Exception:
        page.screenshot(path=str(shots / f"exercises-{lesson}-failure.png"), full_page=True)
        raise
    finally:
        page.close()
    assert not errors, errors
    assert all(local(u) for u in requests), [u for u in requests if not local(u)]


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
